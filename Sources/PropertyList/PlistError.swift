// Sources/PropertyList/PlistError.swift - The error type of the property-list layer, and the one
// vocabulary of error codes every module of the package shares.

/// An error from reading, writing or editing a property list in any form.
///
/// Every error says *what* (``code``), *where* (``offset`` in the input, ``object`` index, ``keyPath``,
/// whichever are known) and a readable ``detail``. Test and branch on ``code``; the detail text may
/// change. <doc:ErrorCodes> lists every code and the calls that throw it.
public struct PlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong: one vocabulary for the whole package.
    ///
    /// `KeyedArchiveError.Code` and `TypedStreamError.Code` are this type, so the same failure has the
    /// same code whichever module reports it (a reference to nothing is ``badReference`` in a binary
    /// property list, a keyed archive and a typedstream alike), and codes compare across error types.
    /// The codes only one format can meet are declared by its module (`notAKeyedArchive` in
    /// KeyedArchive, `notATypedStream` in TypedStream). New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as its static member is spelled (`"badReference"`).
        public let name: String
        /// A code named `name`, for the modules of this package that declare their own codes.
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input is none of the forms of a property list (binary, XML, OpenStep, JSON): the
        /// detail shows its first bytes.
        public static let notAPropertyList = Code("notAPropertyList")
        /// The binary reader was given input that does not start with `bplist0` (nor a zlib or gzip
        /// envelope, where one is accepted).
        public static let notABinaryPlist = Code("notABinaryPlist")
        /// The input is shorter than a header plus a trailer, or ends inside a structure.
        public static let truncated = Code("truncated")
        /// A trailer field breaks an invariant (widths, object count, top object, table position).
        public static let invalidTrailer = Code("invalidTrailer")
        /// An offset-table entry points outside the object region (`8 ..< offsetTableOffset`).
        public static let offsetOutOfRange = Code("offsetOutOfRange")
        /// A reference names nothing: an object reference (or the top object) not below the object
        /// count, a UID outside an archive's `$objects`, a typedstream reference to an entry not read
        /// (yet) or of the wrong kind.
        public static let badReference = Code("badReference")
        /// A marker byte that the format does not define (or does not allow in `bplist00`).
        public static let unknownMarker = Code("unknownMarker")
        /// An object's length runs past the end of the object region.
        public static let truncatedObject = Code("truncatedObject")
        /// A structural defect: a well-formed marker with an impossible payload (a 7-byte real, a
        /// 32-byte integer, a bad count object); in an archive, an object without `$class`, `NS.keys`
        /// and `NS.objects` of different lengths, a typedstream object without a class, …
        public static let corrupted = Code("corrupted")
        /// String bytes that are not valid in their encoding (non-ASCII in `0x5n`, lone UTF-16 surrogate).
        public static let invalidString = Code("invalidString")
        /// A dictionary key that is a container or a boolean (CoreFoundation allows scalars only).
        public static let invalidKey = Code("invalidKey")
        /// A container that contains itself, directly or through others.
        public static let cycle = Code("cycle")
        /// A limit was exceeded: of ``PlistLimits`` (depth, objects, values, decompressed size),
        /// ``OutputBudget``, `KeyedArchiveLimits` or `TypedStreamLimits`.
        public static let limitExceeded = Code("limitExceeded")
        /// Bytes follow the end of the property list (strict mode, the default).
        public static let trailingData = Code("trailingData")
        /// The zlib/gzip envelope is corrupt.
        public static let compression = Code("compression")
        /// The writer was given something it cannot represent (a value out of range, a bad reference).
        public static let unencodable = Code("unencodable")
        /// Text input (XML, OpenStep, JSON, a key path) is malformed: the detail names the form, the
        /// line and the column.
        public static let syntax = Code("syntax")
        /// A file could not be opened, mapped or read; or writing to a file or another sink failed
        /// (``StreamingPlistWriter``, and its temporary file).
        public static let io = Code("io")
        /// A memory-mapped file shrank while it was read: a read touched a page past its new end.
        public static let fileChanged = Code("fileChanged")

        /// A stored value is not of a kind the call accepts (a string where an `Int` is decoded, an
        /// archived object of another class layout).
        public static let typeMismatch = Code("typeMismatch")
        /// A number does not fit the type asked for (`300` as `UInt8`, `1.5` as `Int`, a typedstream
        /// 64-bit payload for a 32-bit type code).
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// No value under a key that must have one: a dictionary without a key a type decodes, an
        /// archived object without a field, `$top` without `root`, a key path through a missing key
        /// (the error's key path then ends with that key).
        public static let keyNotFound = Code("keyNotFound")
        /// No value where one is needed: the null object, a `"$null"` string read as a non-optional
        /// number, or the end of an array.
        public static let valueNotFound = Code("valueNotFound")

        // Key paths (``PlistKeyPath``): ``PlistError/keyPath`` names the place.

        /// An insertion found a value already at the key path (a key, a field, a `$top` entry).
        public static let alreadyExists = Code("alreadyExists")
        /// The key path goes through a value that is not a container (a string, a number, …), or
        /// appends to something that is not an array; ``PlistError/keyPath`` names that value.
        public static let notAContainer = Code("notAContainer")
        /// An array position that is not in the array (or a component that is not a position); ``PlistError/keyPath``
        /// ends with it.
        public static let indexOutOfRange = Code("indexOutOfRange")
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the (decompressed) input where the problem is, when known.
    public var offset: Int?
    /// The index of the object being read, when known.
    public var object: Int?
    /// A readable explanation with the numbers involved.
    public var detail: String
    /// The key path of the value concerned, when known: for the editing errors, the path up to and
    /// including the component where the edit failed.
    public var keyPath: PlistKeyPath?

    public init(_ code: Code, offset: Int? = nil, object: Int? = nil, keyPath: PlistKeyPath? = nil, _ detail: String) {
        self.code = code
        self.offset = offset
        self.object = object
        self.keyPath = keyPath
        self.detail = detail
    }

    /// `"truncatedObject at byte 812 (object 17): 300 entries × 2 bytes from 813 run past the object region end 1200"`.
    public var description: String {
        var s = code.name
        if let offset { s += " at byte \(offset)" }
        if let object { s += " (object \(object))" }
        if let keyPath { s += " at key path " + (keyPath.isEmpty ? "(the root)" : keyPath.description) }
        return s + ": " + detail
    }
}
