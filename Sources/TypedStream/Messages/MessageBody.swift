// Sources/TypedStream/Messages/MessageBody.swift - The body of a message of Apple's Messages app: the
// `attributedBody` column of `chat.db`, read into text, runs and parts.
//
// Since macOS 13 Messages leaves `message.text` empty and keeps the text in `attributedBody`, an
// NSAttributedString (or NSMutableAttributedString) archived with NSArchiver. Its runs carry the
// message's structure in attributes (facts from the write-ups of imessage-exporter and of the
// Avtraang/imessage-chatdb survey of a live database, read, not copied):
//   __kIMMessagePartAttributeName        NSNumber: the part's index (a text, an attachment, …)
//   __kIMFileTransferGUIDAttributeName   NSString: an attachment's GUID; its run is U+FFFC
//   __kIMFilenameAttributeName           NSString: the attachment's file name
//   __kIMInlineMediaWidthAttributeName,  NSNumber: an inline image's size
//   __kIMInlineMediaHeightAttributeName
//   __kIMMentionConfirmedMention         NSString: the mentioned person's handle (the run is the name)
//   __kIMLinkAttributeName               NSURL: a link
//   __kIMDataDetectedAttributeName       NSData: a keyed archive of the data detector's result
//   __kIMTextBoldAttributeName, …Italic…, …Underline…, …Strikethrough…   NSNumber 1: styles
//   __kIMTextEffectAttributeName         NSNumber: an animated effect (big, small, shake, …)

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The body of a message of Apple's Messages app, from its `attributedBody` (`chat.db`).
///
/// ```swift
/// let body = try MessageBody(attributedBody: blob)      // the column's bytes
/// print(body.text)                                      // "See you at 8 ￼"
/// for part in body.parts {
///     if let guid = part.attachmentGUID { print("attachment", guid) } else { print(part.text) }
/// }
/// for run in body.runs { if let handle = run.mention { print(run.text, "→", handle) } }
/// ```
///
/// The runs are the archived attribute runs, in order, covering the text (ranges in UTF-16 units,
/// as `NSString` counts); each keeps every attribute as archived (``Run/attributes``) and names the
/// ones Messages uses. A data attribute that holds a keyed archive (the data detector's result) is
/// decoded in place.
public struct MessageBody: Hashable, Sendable {
    /// The message text. An attachment is one U+FFFC (object replacement character) in it.
    public var text: String
    /// The attribute runs, in order, covering ``text``.
    public var runs: [Run]

    /// The attribute names Messages writes.
    public enum Attribute: Sendable {
        public static let partIndex = "__kIMMessagePartAttributeName"
        public static let fileTransferGUID = "__kIMFileTransferGUIDAttributeName"
        public static let filename = "__kIMFilenameAttributeName"
        public static let inlineMediaWidth = "__kIMInlineMediaWidthAttributeName"
        public static let inlineMediaHeight = "__kIMInlineMediaHeightAttributeName"
        public static let mention = "__kIMMentionConfirmedMention"
        public static let link = "__kIMLinkAttributeName"
        public static let dataDetected = "__kIMDataDetectedAttributeName"
        public static let bold = "__kIMTextBoldAttributeName"
        public static let italic = "__kIMTextItalicAttributeName"
        public static let underline = "__kIMTextUnderlineAttributeName"
        public static let strikethrough = "__kIMTextStrikethroughAttributeName"
        public static let textEffect = "__kIMTextEffectAttributeName"
        public static let baseWritingDirection = "__kIMBaseWritingDirectionAttributeName"
    }

    /// An animated text effect (`__kIMTextEffectAttributeName`).
    public enum TextEffect: Hashable, Sendable {
        case ripple, big, bloom, nod, shake, jitter, small, explode
        /// A number this package does not name.
        case other(Int)

        /// The effect archived as `number`.
        public init(_ number: Int) {
            switch number {
            case 4: self = .ripple
            case 5: self = .big
            case 6: self = .bloom
            case 8: self = .nod
            case 9: self = .shake
            case 10: self = .jitter
            case 11: self = .small
            case 12: self = .explode
            default: self = .other(number)
            }
        }
    }

    /// A run of text sharing one set of attributes.
    public struct Run: Hashable, Sendable {
        /// The run's range in UTF-16 units of the message text.
        public var range: Range<Int>
        /// The run's text.
        public var text: String
        /// Every attribute, by name, as archived (a keyed archive in a data value decoded).
        public var attributes: [String: AnyArchived]

        public init(range: Range<Int>, text: String, attributes: [String: AnyArchived]) {
            self.range = range
            self.text = text
            self.attributes = attributes
        }

        /// The index of the message part the run belongs to.
        public var partIndex: Int? { MessageBody.int(attributes[Attribute.partIndex]) }
        /// The GUID of the attachment the run stands for (its text is U+FFFC).
        public var fileTransferGUID: String? { MessageBody.string(attributes[Attribute.fileTransferGUID]) }
        /// The attachment's file name.
        public var filename: String? { MessageBody.string(attributes[Attribute.filename]) }
        /// The handle (phone number, e-mail) of the person the run mentions.
        public var mention: String? { MessageBody.string(attributes[Attribute.mention]) }
        /// The link the run carries.
        public var link: URL? {
            switch attributes[Attribute.link] {
            case .url(let u)?: u
            case .string(let s)?: URL(string: s)
            default: nil
            }
        }
        /// The data detector's result (a decoded keyed archive, often a `DDScannerResult` instance).
        public var dataDetected: AnyArchived? { attributes[Attribute.dataDetected] }
        public var isBold: Bool { MessageBody.flag(attributes[Attribute.bold]) }
        public var isItalic: Bool { MessageBody.flag(attributes[Attribute.italic]) }
        public var isUnderlined: Bool { MessageBody.flag(attributes[Attribute.underline]) }
        public var isStrikethrough: Bool { MessageBody.flag(attributes[Attribute.strikethrough]) }
        /// The animated effect of the run.
        public var textEffect: TextEffect? {
            MessageBody.int(attributes[Attribute.textEffect]).map(TextEffect.init)
        }
        /// Whether the run stands for an attachment.
        public var isAttachment: Bool { fileTransferGUID != nil }
    }

    /// A part of the message: consecutive runs with the same part index (a text, an attachment).
    public struct Part: Hashable, Sendable {
        /// The part index (`nil` for runs without one).
        public var index: Int?
        /// The runs of the part, in order.
        public var runs: [Run]

        public init(index: Int?, runs: [Run]) {
            self.index = index
            self.runs = runs
        }

        /// The part's text (an attachment's is U+FFFC).
        public var text: String { runs.map(\.text).joined() }
        /// The GUID of the attachment the part holds, if it is one.
        public var attachmentGUID: String? { runs.lazy.compactMap(\.fileTransferGUID).first }
        /// The links of the part, in order, each once.
        public var links: [URL] {
            var seen = Set<URL>()
            return runs.compactMap(\.link).filter { seen.insert($0).inserted }
        }
        /// The mentions of the part: the mentioned handle and the run's text.
        public var mentions: [(handle: String, text: String)] {
            runs.compactMap { run in run.mention.map { ($0, run.text) } }
        }

        public static func == (a: Part, b: Part) -> Bool { a.index == b.index && a.runs == b.runs }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(index)
            hasher.combine(runs)
        }
    }

    /// The body in `attributedBody`, a typedstream holding an `NSAttributedString`.
    ///
    /// - Throws: ``TypedStreamError``: the reading errors of ``TypedStreamArchive`` (with the byte
    ///   offset), or `typeMismatch` when the stream's root is not an attributed string with runs that
    ///   cover its text.
    public init(
        attributedBody: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default
    ) throws(TypedStreamError) {
        let decoded = try StreamingDecoder.decode(attributedBody, limits: limits, options: options, keep: .first)
        guard case .attributedString(let attributed)? = decoded.values.first else {
            let what = decoded.root?.className ?? (decoded.values.isEmpty ? "nothing" : "a value that is not an object")
            // What was read is dropped: a graph that contains itself would outlive it.
            decoded.values.first?.breakReferenceCycles()
            throw TypedStreamError(
                .typeMismatch, offset: decoded.root?.offset,
                "the root is \(what), not an NSAttributedString whose runs cover its text")
        }
        self.init(attributed)
    }

    /// The body of an attributed string (from a typedstream, or from a keyed archive).
    public init(_ attributed: ArchivedAttributedString) {
        text = attributed.string
        // The runs are in order: one walk over the UTF-16 view. A run that splits a surrogate pair
        // (not written by Messages) gets its units decoded with replacement characters.
        let units = attributed.string.utf16
        var at = units.startIndex
        var offset = 0
        var out: [Run] = []
        out.reserveCapacity(attributed.runs.count)
        for run in attributed.runs {
            let lower = min(max(run.range.lowerBound, 0), units.count)
            let upper = min(max(run.range.upperBound, lower), units.count)
            if lower < offset {
                at = units.startIndex
                offset = 0
            }
            let start = units.index(at, offsetBy: lower - offset)
            let end = units.index(start, offsetBy: upper - lower)
            let piece = units[start..<end]
            let exact: String? = String(piece)  // nil when a bound is inside a scalar
            let runText = exact ?? String(decoding: Array(piece), as: UTF16.self)
            out.append(Run(range: run.range, text: runText, attributes: run.attributes))
            at = end
            offset = upper
        }
        runs = out
    }

    /// The runs grouped into parts: consecutive runs with the same part index.
    public var parts: [Part] {
        var out: [Part] = []
        for run in runs {
            if let last = out.last, last.index == run.partIndex, !run.isAttachment, last.attachmentGUID == nil {
                out[out.count - 1].runs.append(run)
            } else {
                out.append(Part(index: run.partIndex, runs: [run]))
            }
        }
        return out
    }

    static func int(_ v: AnyArchived?) -> Int? {
        switch v {
        case .integer(let i)?: i
        case .bool(let b)?: b ? 1 : 0
        case .real(let d)?: Int(exactly: d)
        case .string(let s)?: Int(s)
        default: nil
        }
    }

    static func string(_ v: AnyArchived?) -> String? {
        if case .string(let s)? = v { return s }
        return nil
    }

    static func flag(_ v: AnyArchived?) -> Bool { (int(v) ?? 0) != 0 }
}
