// Sources/TypedStream/Reading/TypedStreamEvent.swift - What the low-level reader reports, value by
// value, in stream order.

/// One event of a typedstream, as ``TypedStreamReader`` reads it.
///
/// A stream is a sequence of groups. A group is a type encoding (`"@"`, `"iI"`, `"[12c]"`) and one
/// value per type it names; a value is a scalar, a string, an object, a class, or an array or
/// structure of values. Objects hold groups of their own. The events nest accordingly:
///
/// ```
/// beginGroup("@")
///   beginObject(0, class: 0)            an NSString (classes 0: NSString, 1: NSObject)
///     beginGroup("+")  string(19..<24)  endGroup
///   endObject(0)
/// endGroup
/// ```
///
/// Objects are numbered from 0 in the order they begin; classes likewise. A later mention of an
/// object or class is a reference to its number. Strings of the input are reported as byte ranges
/// of the input (``TypedStreamReader/bytes(_:)`` copies them out); shared strings (type encodings,
/// C strings, class names) are reported decoded.
public enum TypedStreamEvent: Hashable, Sendable {
    /// A group of values begins; `types` is its type encoding.
    case beginGroup(types: String)
    /// The group ends (after one value per type of its encoding).
    case endGroup
    /// A signed integer of type `c`, `s`, `i`, `l` or `q` (`type`).
    case integer(Int64, type: Unicode.Scalar)
    /// An unsigned integer of type `C`, `S`, `I`, `L` or `Q` (`type`): a negative number written for
    /// an unsigned type is read as its bit pattern at the type's width, as the C writer meant it.
    case unsignedInteger(UInt64, type: Unicode.Scalar)
    /// A `B` (C `_Bool`, one raw byte).
    case bool(Bool)
    /// An `f`: 4 bytes after `0x83`, or a whole number written as an integer.
    case float(Float)
    /// A `d`: 8 bytes after `0x83`, or a whole number written as an integer.
    case double(Double)
    /// A `+` (the bytes of an `NSString`, usually UTF-8): their range in the input, `nil` for nil.
    case string(Range<Int>?)
    /// A `*` C string (uniqued in the object table): its text, `nil` for NULL.
    case cString(String?)
    /// A `%` (an atom) or `:` (a selector name), `type`: a shared string, `nil` for nil.
    case sharedString(String?, type: Unicode.Scalar)
    /// An `@` that is nil.
    case nilObject
    /// An `@` naming an object that began earlier (possibly one still open: a cycle).
    case objectReference(Int)
    /// An `@` that begins object `number`, of class `class` (see ``TypedStreamReader/classInfo(_:)``);
    /// its groups follow, then ``endObject(_:)``.
    case beginObject(Int, class: Int)
    /// Object `number` ends.
    case endObject(Int)
    /// A `#` (a class), or an `@` naming a class: the class number, `nil` for Nil.
    case classValue(Int?)
    /// An array of `count` values of one type begins; the values follow, then ``endArray``.
    case beginArray(count: Int)
    /// The array ends.
    case endArray
    /// A `[Nc]` or `[NC]` array: N raw bytes, as their range in the input.
    case bytes(Range<Int>)
    /// A structure begins (`name` is what precedes `=` in its encoding); its fields follow, then
    /// ``endStructure``.
    case beginStructure(name: String?)
    /// The structure ends.
    case endStructure
    /// A union: the raw bytes of its C layout, as their range in the input.
    case union(Range<Int>)
    /// A `!`: an ignored value, which takes no bytes.
    case ignored
}

/// The byte order of a typedstream: `streamtyped` is little-endian, `typedstream` big-endian.
public enum TypedStreamByteOrder: String, Hashable, Sendable {
    case littleEndian = "little-endian"
    case bigEndian = "big-endian"
}

/// A class as a typedstream records it: its name, its version and its superclass.
public struct TypedStreamClass: Hashable, Sendable {
    /// The class name (`"NSMutableString"`).
    public var name: String
    /// The class version the writer archived (`NSString` 1, `NSObject` 0, `NSFont` 21 or 30, …).
    public var version: Int
    /// The superclass's class number, `nil` for a root class.
    public var superclass: Int?

    public init(name: String, version: Int, superclass: Int?) {
        self.name = name
        self.version = version
        self.superclass = superclass
    }
}
