// Sources/TypedStream/TypedStreamError.swift - The one error type of the typedstream reader.

/// An error from reading a typedstream (an `NSArchiver` archive).
///
/// Every error says *what* (``code``), *where* (``offset``: the byte of the input where the problem
/// is; ``object``: the number of the object being read, counting literal objects from 0 in the order
/// they begin in the stream) and a readable ``detail``. Branch and test on ``code``; the detail text
/// may change.
public struct TypedStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input does not start with a typedstream header (streamer version 3 or 4, then the
        /// signature `streamtyped` or `typedstream`).
        public static let notATypedStream = Code("notATypedStream")
        /// The input ends inside a value, a string or a header.
        public static let truncated = Code("truncated")
        /// A tag byte (`0x80`…`0x91`) where the format does not allow it: end of object inside a
        /// group, a "new" tag where an integer is expected, a tag the format does not define.
        public static let unexpectedTag = Code("unexpectedTag")
        /// A type encoding that does not parse (unbalanced brackets, an array without a count, an
        /// empty string) or holds a code the format does not define (`^`, `v`, `b`, `?`, …).
        public static let invalidType = Code("invalidType")
        /// A length or count that cannot be right: negative, or more bytes than remain.
        public static let invalidLength = Code("invalidLength")
        /// A reference to a shared string or to an object, class or C string that has not been read
        /// (yet), or a reference to an entry of the wrong kind (a class where an object is expected).
        public static let badReference = Code("badReference")
        /// An integer that does not fit the type it is read as (a `0x87` 64-bit payload for `i`).
        public static let integerOverflow = Code("integerOverflow")
        /// A structural defect: an object without a class, a class chain that refers to itself, a nil
        /// type encoding or class name.
        public static let corrupted = Code("corrupted")
        /// An object refers to itself through value classes (an array that contains itself).
        public static let cycle = Code("cycle")
        /// A limit of ``TypedStreamLimits`` was exceeded (depth, values, table entries).
        public static let limitExceeded = Code("limitExceeded")
        /// Bytes follow the last group and do not begin another one. ``TypedStreamOptions``'s
        /// `allowTrailingData` accepts them.
        public static let trailingData = Code("trailingData")
        /// The stream is well formed but does not hold what was asked for (a message body whose root
        /// is not an attributed string, a color list of another shape).
        public static let typeMismatch = Code("typeMismatch")
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the input where the problem is, when known.
    public var offset: Int?
    /// The number of the object being read (literal objects count from 0 in stream order), when known.
    public var object: Int?
    /// A readable explanation with the numbers involved.
    public var detail: String

    /// An error of `code` at `offset` (inside `object`).
    public init(_ code: Code, offset: Int? = nil, object: Int? = nil, _ detail: String) {
        self.code = code
        self.offset = offset
        self.object = object
        self.detail = detail
    }

    /// `"badReference at byte 61 (object 3): object reference 12 names no entry (9 read)"`.
    public var description: String {
        var s = code.name
        if let offset { s += " at byte \(offset)" }
        if let object { s += " (object \(object))" }
        return s + ": " + detail
    }
}
