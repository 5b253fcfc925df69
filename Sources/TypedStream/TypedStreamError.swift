// Sources/TypedStream/TypedStreamError.swift - The error type of the typedstream reader, and the codes
// only typedstreams meet (the rest of the vocabulary is PlistError.Code's, shared by every module).

public import PropertyList

/// An error from reading a typedstream (an `NSArchiver` archive).
///
/// Every error says *what* (``code``), *where* (``offset``: the byte of the input where the problem
/// is; ``object``: the number of the object being read, counting literal objects from 0 in the order
/// they begin in the stream) and a readable ``detail``. Branch and test on ``code``; the detail text
/// may change.
public struct TypedStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong: `PlistError.Code`, the package's one vocabulary of codes (a reference to an
    /// entry not read is `badReference` here as in a binary property list or a keyed archive).
    public typealias Code = PlistError.Code

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

extension PlistError.Code {
    /// The input does not start with a typedstream header (streamer version 3 or 4, then the
    /// signature `streamtyped` or `typedstream`).
    public static let notATypedStream = PlistError.Code("notATypedStream")
    /// A tag byte (`0x80`…`0x91`) where the format does not allow it: end of object inside a group, a
    /// "new" tag where an integer is expected, a tag the format does not define.
    public static let unexpectedTag = PlistError.Code("unexpectedTag")
    /// A type encoding that does not parse (unbalanced brackets, an array without a count, an empty
    /// string) or holds a code the format does not define (`^`, `v`, `b`, `?`, …).
    public static let invalidType = PlistError.Code("invalidType")
    /// A length or count that cannot be right: negative, or more bytes than remain.
    public static let invalidLength = PlistError.Code("invalidLength")
}
