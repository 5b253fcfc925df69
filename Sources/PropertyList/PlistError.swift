// Sources/PropertyList/PlistError.swift - The one error type of the format core.

/// An error from reading or writing a binary property list.
///
/// Every error says *what* (``code``), *where* (``offset`` in the input, ``object`` index when known)
/// and a readable ``detail``. Test and branch on ``code``; the detail text may change.
public struct PlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input does not start with `bplist0` (nor a zlib/gzip envelope, where one is accepted).
        public static let notABinaryPlist = Code("notABinaryPlist")
        /// The input is shorter than a header plus a trailer, or ends inside a structure.
        public static let truncated = Code("truncated")
        /// A trailer field breaks an invariant (widths, object count, top object, table position).
        public static let invalidTrailer = Code("invalidTrailer")
        /// An offset-table entry points outside the object region (`8 ..< offsetTableOffset`).
        public static let offsetOutOfRange = Code("offsetOutOfRange")
        /// An object reference (or the top object) is not below the object count.
        public static let referenceOutOfRange = Code("referenceOutOfRange")
        /// A marker byte that the format does not define (or does not allow in `bplist00`).
        public static let unknownMarker = Code("unknownMarker")
        /// An object's length runs past the end of the object region.
        public static let truncatedObject = Code("truncatedObject")
        /// A well-formed marker with an impossible payload (7-byte real, 32-byte int, bad count object).
        public static let invalidObject = Code("invalidObject")
        /// String bytes that are not valid in their encoding (non-ASCII in `0x5n`, lone UTF-16 surrogate).
        public static let invalidString = Code("invalidString")
        /// A dictionary key that is a container or a boolean (CoreFoundation allows scalars only).
        public static let invalidKey = Code("invalidKey")
        /// A container that contains itself, directly or through others.
        public static let cycle = Code("cycle")
        /// A limit of ``PlistLimits`` was exceeded (depth, objects, nodes, decompressed size).
        public static let limitExceeded = Code("limitExceeded")
        /// Bytes follow the end of the property list (strict mode, the default).
        public static let trailingData = Code("trailingData")
        /// The zlib/gzip envelope is corrupt.
        public static let compression = Code("compression")
        /// The writer was given something it cannot represent (a value out of range, a bad reference).
        public static let unencodable = Code("unencodable")
        /// Text input (JSON or XML) is malformed.
        public static let syntax = Code("syntax")
        /// A file could not be opened, mapped or read; or writing to a file or another sink failed
        /// (``StreamingPlistWriter``, and its temporary file).
        public static let io = Code("io")
        /// A memory-mapped file shrank while it was read: a read touched a page past its new end.
        public static let fileChanged = Code("fileChanged")

        // Codable (`PlistDecoder`): the underlying error of a `DecodingError`, with the byte offset
        // and object index of the value that could not be decoded.
        /// A stored value is not of a kind the type being decoded accepts (a string where an `Int`
        /// is asked for).
        public static let typeMismatch = Code("typeMismatch")
        /// A number does not fit the type asked for (`300` as `UInt8`, `1.5` as `Int`).
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// A dictionary has no value for a key the type decodes.
        public static let keyNotFound = Code("keyNotFound")
        /// No value where one is needed: the null object, a `"$null"` string read as a non-optional
        /// number, or the end of an array.
        public static let valueNotFound = Code("valueNotFound")

        // Editing by key path (``PlistKeyPath``): ``PlistError/keyPath`` names the place.

        /// Nothing is at the key path: ``PlistError/keyPath`` ends with the first component that is
        /// missing (a dictionary without that key, or an array position past the end).
        public static let notFound = Code("notFound")
        /// An insertion found a value already at the key path.
        public static let alreadyExists = Code("alreadyExists")
        /// The key path goes through a value that is not a container (a string, a number, …), or
        /// appends to something that is not an array; ``PlistError/keyPath`` names that value.
        public static let notAContainer = Code("notAContainer")
        /// An array position that is not in the array (or a component that is not a position);
        /// ``PlistError/keyPath`` ends with it.
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
