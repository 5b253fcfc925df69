// Sources/PropertyList/Format/PlistOptions.swift - How property lists are read (beyond what the
// format allows) and written: the settings every reader and writer of every form shares.

/// What a reader accepts beyond the format, for every form. The defaults read exactly what the
/// format allows, as Apple's readers do; each option relaxes one rule. Bounds against hostile input
/// are ``PlistLimits``.
public struct PlistReadOptions: Sendable, Hashable {
    /// Accept input with bytes after the property list (binary form): the document covers the
    /// property list and ``BinaryPlistDocument/trailingByteCount`` says how many bytes follow it. Off
    /// by default: they are a ``PlistError/Code/trailingData`` error that says where the property
    /// list really ends.
    public var allowsTrailingData = false
    /// Decode `0x5n` strings holding bytes above 0x7F as UTF-8 (binary form; some non-Apple writers
    /// emit such files). Off by default: such strings are ``PlistError/Code/invalidString``, as in
    /// plistlib and swift-foundation.
    public var allowsUTF8InASCIIStrings = false
    /// Inflate a zlib (RFC 1950) or gzip (RFC 1952) envelope around the property list, within
    /// ``PlistLimits/maxDecompressedBytes``. On by default.
    public var allowsCompression = true
    /// Read an unpaired UTF-16 surrogate in a `0x6n` string as U+FFFD, as CoreFoundation does
    /// (its strings are UTF-16 and keep the unit; a Swift `String` cannot, so it becomes the
    /// replacement character). Off by default: the string is ``PlistError/Code/invalidString``
    /// naming the code unit, so what is read is always exactly what was written. Apple's writers
    /// do emit such strings (from `NSString`s holding lone surrogates); turn this on to read them.
    public var replacesLoneSurrogates = false
    /// Read XML `<date>` text whose fields are past their range as CoreFoundation does, instead of
    /// failing: the fields count on (`2020-13-01` is 2021-01-01, `24:00:00` the next day, second 60
    /// the next minute, `02-30` is March 1 or 2; a month outside 1…13 counts as none), and years of
    /// up to ten digits (to 2,147,483,647). Off by default: such a date is a `syntax` error.
    public var normalizesDates = false

    /// The defaults: exactly the format (compressed envelopes inflated).
    public static let `default` = PlistReadOptions()

    public init(
        allowsTrailingData: Bool = false, allowsUTF8InASCIIStrings: Bool = false, allowsCompression: Bool = true,
        replacesLoneSurrogates: Bool = false, normalizesDates: Bool = false
    ) {
        self.allowsTrailingData = allowsTrailingData
        self.allowsUTF8InASCIIStrings = allowsUTF8InASCIIStrings
        self.allowsCompression = allowsCompression
        self.replacesLoneSurrogates = replacesLoneSurrogates
        self.normalizesDates = normalizesDates
    }
}

/// How wide the binary form's object references and offset-table entries are.
public enum BinaryPlistWidths: Sendable, Hashable {
    /// The smallest of 1, 2, 4 and 8 bytes, as CoreFoundation, plistlib and rust `plist` write.
    /// Every reader accepts these.
    case powersOfTwo
    /// The fewest bytes, 1 to 8, as swift-foundation's `PropertyListEncoder` and libplist write:
    /// 3-byte references from 65,536 objects on, for files about 4 % smaller. CoreFoundation,
    /// swift-foundation, plistlib, libplist and this package read them; rust `plist` reads 3-byte
    /// offsets but not 3-byte references.
    case compact
}

/// How a property list is written, for every form: each setting applies to the forms it names and is
/// ignored by the others.
///
/// ```swift
/// var options = PlistWriteOptions()
/// options.sortsKeys = true                                   // every form
/// options.compressionLevel = 1                               // with a zlib or gzip envelope
/// let bytes = try value.encoded(as: .xml, compression: .gzip, options: options)
/// ```
public struct PlistWriteOptions: Sendable, Hashable {
    /// Write dictionary entries in the code-point order of their keys (as `plutil` and plistlib do)
    /// instead of the order they have in the value. Every form; off by default.
    public var sortsKeys = false
    /// Write equal values once (binary form; on by default): strings by content, numbers, dates,
    /// data, UIDs and booleans by value (reals by bit pattern), equal containers once too.
    public var deduplicates = true
    /// Reference and offset widths (binary form; default ``BinaryPlistWidths/powersOfTwo``).
    public var widths = BinaryPlistWidths.powersOfTwo
    /// The zlib level of a compressed envelope: 0 (store) … 9 (smallest); -1, the default, is zlib's
    /// own (6). Level 1 is usually the best trade for property lists (measured: faster, and often
    /// smaller than 6).
    public var compressionLevel = -1
    /// Write a root dictionary as a `.strings` file: its entries at the top level, without braces
    /// (OpenStep form; off by default).
    public var stringsFile = false
    /// The layout of OpenStep text (OpenStep form; default ``OpenStepLayout/standard``).
    /// ``PlistValue/decode(from:as:limits:options:)`` records ``OpenStepLayout/xcodeProject(name:)`` for
    /// text that starts with Xcode's `// !$*UTF8*$!` header, so that a project file is written back
    /// in Xcode's layout.
    public var openStepLayout = OpenStepLayout.standard
    /// How dates and data are written in the JSON form (default ``PlistJSONStyle/typed``, which reads
    /// back exactly).
    public var jsonStyle = PlistJSONStyle.typed
    /// How much a text form may write: shared sub-trees are written out once per reference, so a
    /// small value can stand for a huge text. Checked before the first byte (text forms).
    public var budget = OutputBudget.default

    /// The defaults.
    public static let `default` = PlistWriteOptions()

    /// How OpenStep text is laid out.
    public enum OpenStepLayout: Sendable, Hashable {
        /// Tabs for indentation, one entry a line, keys in the value's order, strings quoted only
        /// when they must be.
        case standard
        /// The layout Xcode writes `project.pbxproj` in: the `// !$*UTF8*$!` header, keys in byte
        /// order (`isa` first), the objects in `/* Begin … section */` sections by `isa`, build files
        /// and file references on one line, a `/* name */` comment after each object id, derived from
        /// the objects as Xcode derives it, and Xcode's quoting. A project Xcode wrote reads and
        /// writes back byte for byte; an edit changes only the lines of what it names (and the
        /// comments of an object it renames). `name` is the project's name (the `.xcodeproj`
        /// folder's), which Xcode writes in the comment of the project's configuration list.
        case xcodeProject(name: String)
    }

    public init(
        sortsKeys: Bool = false, deduplicates: Bool = true, widths: BinaryPlistWidths = .powersOfTwo,
        compressionLevel: Int = -1, stringsFile: Bool = false, jsonStyle: PlistJSONStyle = .typed,
        budget: OutputBudget = .default, openStepLayout: OpenStepLayout = .standard
    ) {
        self.sortsKeys = sortsKeys
        self.deduplicates = deduplicates
        self.widths = widths
        self.compressionLevel = compressionLevel
        self.stringsFile = stringsFile
        self.jsonStyle = jsonStyle
        self.budget = budget
        self.openStepLayout = openStepLayout
    }
}
