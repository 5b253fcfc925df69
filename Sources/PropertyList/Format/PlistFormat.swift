// Sources/PropertyList/Format/PlistFormat.swift - The forms of a property list and the compression
// around them, and the one call that reads any of them (PlistValue.decode(from:)) and the one that
// writes a value in any of them (PlistValue.encoded(as:compression:options:)).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The forms of a property list: the one enum every reader, writer, coder and the `bplist` tool use.
public enum PlistFormat: String, Sendable, Hashable, CaseIterable {
    /// `bplist00`.
    case binary
    /// The XML form: `<?xml …?><!DOCTYPE plist …><plist version="1.0">…</plist>`.
    case xml
    /// The old-style OpenStep (NeXTSTEP) text form: `{ key = value; list = (a, b); data = <0fa1>; }`,
    /// and `.strings` files. It holds strings, data, arrays and dictionaries only.
    case openStep
    /// JSON: read as any RFC 8259 JSON text, written as the package's typed JSON, which every
    /// property-list value survives (<doc:TypedJSON>).
    case json
}

/// The compression envelope around a property list: outside the format, around any form.
public enum PlistCompression: String, Sendable, Hashable, CaseIterable {
    /// No envelope.
    case none
    /// A zlib stream (RFC 1950), as `zlib.compress` writes it.
    case zlib
    /// A gzip member (RFC 1952), as `gzip` writes it.
    case gzip
}

extension PlistValue {
    /// A property list read by ``PlistValue/decode(from:as:limits:options:)``: the value, and how
    /// it was stored, so that an edited value can be written back the same way.
    public struct Decoded: Sendable, Hashable {
        /// The root value.
        public var value: PlistValue
        /// The form the bytes were in.
        public var format: PlistFormat
        /// The envelope the bytes came in.
        public var compression: PlistCompression
        /// The write options that reproduce the input's layout: the binary form's reference widths
        /// (``BinaryPlistWidths/compact`` when the input used 3, 5, 6 or 7 bytes), whether an
        /// OpenStep input was a `.strings` file, and Xcode's project layout for an OpenStep input that
        /// starts with Xcode's `// !$*UTF8*$!` header.
        public var writeOptions: PlistWriteOptions

        public init(
            value: PlistValue, format: PlistFormat, compression: PlistCompression = .none,
            writeOptions: PlistWriteOptions = .default
        ) {
            self.value = value
            self.format = format
            self.compression = compression
            self.writeOptions = writeOptions
        }

        /// `value` written in this property list's form, envelope and layout (what an edit of a file
        /// writes back).
        ///
        /// - Throws: As ``PlistValue/encoded(as:compression:options:)``.
        public func encoded(_ value: PlistValue) throws(PlistError) -> Data {
            try value.encoded(as: format, compression: compression, options: writeOptions)
        }
    }

    /// Reads a property list in any form, telling which it was.
    ///
    /// ```swift
    /// let plist = try PlistValue.decode(from: data)               // binary, XML, OpenStep or JSON
    /// print(plist.format, plist.compression, plist.value)
    /// var edited = plist.value
    /// try edited.set("dark", at: "settings.theme")
    /// let bytes = try plist.encoded(edited)                        // the same form, envelope, layout
    /// ```
    ///
    /// A zlib or gzip envelope is inflated first (within ``PlistLimits/maxDecompressedBytes``, unless
    /// ``PlistReadOptions/allowsCompression`` is off); then the form is told by the first bytes, as
    /// CoreFoundation tells it (binary `bplist0`; XML after a byte-order mark and whitespace; JSON
    /// when the text starts with `[` or with `{` and a quoted key followed by `:`; OpenStep
    /// otherwise), the text forms in UTF-8, UTF-16 or UTF-32. Given `format`, that form is read and
    /// no other: the input must be in it.
    ///
    /// - Parameters:
    ///   - data: The input.
    ///   - format: The form the input must be in, or `nil` (the default) to tell it by its bytes.
    ///   - limits: Bounds for hostile input, applied to any reader.
    ///   - options: What is read beyond the format.
    /// - Returns: The root value, the form and envelope it was read from.
    /// - Throws: ``PlistError``: `notAPropertyList` naming the first bytes when the input is none of
    ///   the forms, `compression` for a broken envelope, else the error of the form's reader (`syntax`
    ///   with line and column for the text forms; the binary reader's structural codes).
    public static func decode(
        from data: Data, as format: PlistFormat? = nil, limits: PlistLimits = .default,
        options: PlistReadOptions = .default
    ) throws(PlistError) -> Decoded {
        let (input, compression) = try PlistCompression.unwrap(data, limits: limits, options: options)
        let form: PlistFormat
        // An envelope was inflated (or found not to be one) already, unless envelopes are not read.
        if let format {
            form = format
        } else {
            form = try PlistSniffer.sniff(input, envelopes: !options.allowsCompression).format
        }
        var plain = options
        plain.allowsCompression = false
        var writeOptions = PlistWriteOptions()
        let value: PlistValue
        switch form {
        case .binary:
            let document = try BinaryPlistDocument(input, limits: limits, options: plain)
            let widths = [document.trailer.offsetIntSize, document.trailer.objectRefSize]
            if widths.contains(where: { ![1, 2, 4, 8].contains($0) }) { writeOptions.widths = .compact }
            value = try document.value()
        case .xml:
            value = try XMLPlist.decode(input, limits: limits, options: plain)
        case .openStep:
            let read = try OpenStepPlist.decodeTellingForm(input, limits: limits)
            writeOptions.stringsFile = read.isStringsFile
            value = read.value
            if let layout = XcodeProjectWriter.layout(of: input, value) { writeOptions.openStepLayout = layout }
        case .json:
            value = try PlistValue(json: input, limits: limits)
        }
        return Decoded(value: value, format: form, compression: compression, writeOptions: writeOptions)
    }

    /// This value written in a form, optionally in a compression envelope.
    ///
    /// ```swift
    /// let settings: PlistValue = ["theme": "dark", "volume": 0.75, "recent": ["a.txt", "b.txt"]]
    /// let binary = try settings.encoded()                                  // bplist00
    /// let xml = try settings.encoded(as: .xml, options: .init(sortsKeys: true))
    /// let packed = try settings.encoded(compression: .zlib, options: .init(compressionLevel: 1))
    /// ```
    ///
    /// The binary form is deterministic (the same value always gives the same bytes), deduplicates
    /// equal values and picks the smallest widths; XML is written in Apple's layout (a tab per level,
    /// `<real>` in the shortest form that reads back exactly, dates in UTC, data in base64 lines);
    /// OpenStep text quotes what needs quoting; JSON is the typed JSON of <doc:TypedJSON>. What a
    /// form cannot hold is refused before anything is written, naming its key path.
    ///
    /// - Parameters:
    ///   - format: The form (default binary).
    ///   - compression: An envelope around the output (default none).
    ///   - options: Key order, the binary form's widths and deduplication, the zlib level, …
    /// - Throws: ``PlistError`` with code `unencodable` naming the key path of a value the form
    ///   cannot hold (XML and OpenStep: `null`, a non-string key; OpenStep: numbers, booleans, dates,
    ///   UIDs, sets; XML: characters XML 1.0 cannot hold), `limitExceeded` when a text form written out
    ///   in full would pass ``PlistWriteOptions/budget``, or `compression`.
    public func encoded(
        as format: PlistFormat = .binary, compression: PlistCompression = .none,
        options: PlistWriteOptions = .default
    ) throws(PlistError) -> Data {
        let plain: Data
        switch format {
        case .binary:
            let value = options.sortsKeys ? sortingKeys() : self
            plain = try BinaryPlistWriter(deduplicate: options.deduplicates, widths: options.widths).write(value)
        case .xml:
            plain = try XMLPlist.encode(self, sortKeys: options.sortsKeys, budget: options.budget)
        case .openStep:
            var out = TextSink.collecting()
            try OpenStepPlist.write(
                options.sortsKeys ? sortingKeys() : self, stringsFile: options.stringsFile,
                layout: options.openStepLayout, budget: options.budget, into: &out)
            plain = Data(out.takeBytes())
        case .json:
            var out = TextSink.collecting()
            try writeJSON(into: &out, style: options.jsonStyle, sortsKeys: options.sortsKeys, budget: options.budget)
            plain = Data(out.takeBytes())
        }
        return try compression.wrap(plain, level: options.compressionLevel)
    }

    /// This value with every dictionary's entries in the UTF-16 code-unit order of their keys (as
    /// CoreFoundation sorts them), keys that are not strings last in their order. Iterative: the
    /// depth of the value never touches the call stack.
    package func sortingKeys() -> PlistValue {
        // Post-order over an explicit stack: a container is rebuilt once all its children are.
        enum Step {
            case visit(PlistValue)
            case build(PlistValue, count: Int)
        }
        var steps: [Step] = [.visit(self)]
        var done: [PlistValue] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let value):
                switch value {
                case .array(let elements), .set(let elements):
                    steps.append(.build(value, count: elements.count))
                    for element in elements.reversed() { steps.append(.visit(element)) }
                case .dictionary(let dictionary):
                    steps.append(.build(value, count: dictionary.count))
                    for entry in dictionary.entries.reversed() { steps.append(.visit(entry.value)) }
                default:
                    done.append(value)
                }
            case .build(let value, let count):
                let children = Array(done.suffix(count))
                done.removeLast(count)
                switch value {
                case .array: done.append(.array(children))
                case .set: done.append(.set(children))
                case .dictionary(let dictionary):
                    var entries = zip(dictionary.keys, children).map { (key: $0, value: $1) }
                    entries.sortStable { a, b in
                        switch (a.key.stringValue, b.key.stringValue) {
                        case (let x?, let y?): x.utf16.lexicographicallyPrecedes(y.utf16)
                        case (.some, nil): true
                        default: false
                        }
                    }
                    done.append(.dictionary(PlistDictionary(entries.map { ($0.key, $0.value) })))
                default: done.append(value)
                }
            }
        }
        return done.last ?? self
    }
}

extension PlistCompression {
    /// `data` without its compression envelope (``envelope(of:)``: text that merely starts like a
    /// zlib header is no envelope), and which envelope it was.
    package static func unwrap(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
        throws(PlistError) -> (Data, PlistCompression)
    {
        guard options.allowsCompression, let kind = envelope(of: data) else { return (data, .none) }
        return (try Zlib.inflate(data, limit: limits.maxDecompressedBytes), kind)
    }
}

extension Array {
    /// Sorts in place, keeping equal elements in their order (the standard library's sort is not
    /// documented as stable).
    fileprivate mutating func sortStable(by areInIncreasingOrder: (Element, Element) -> Bool) {
        let indexed = enumerated().sorted { a, b in
            if areInIncreasingOrder(a.element, b.element) { return true }
            if areInIncreasingOrder(b.element, a.element) { return false }
            return a.offset < b.offset
        }
        self = indexed.map(\.element)
    }
}
