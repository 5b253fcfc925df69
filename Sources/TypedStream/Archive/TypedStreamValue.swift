// Sources/TypedStream/Archive/TypedStreamValue.swift - The values, groups and objects of a typedstream
// as the object layer holds them: everything the stream says, nothing interpreted.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A value of a typedstream, as written: its kind follows the type code of its group.
///
/// Objects and classes are numbers into ``TypedStreamArchive/objects`` and
/// ``TypedStreamArchive/classes``, so an object mentioned twice is the same number twice. Strings are
/// the bytes as written (an `NSString`'s `+` is UTF-8); ``text`` decodes one.
public enum TypedStreamValue: Hashable, Sendable {
    /// A signed integer (`c`, `s`, `i`, `l`, `q`).
    case integer(Int64)
    /// An unsigned integer (`C`, `S`, `I`, `L`, `Q`).
    case unsignedInteger(UInt64)
    /// A `B`.
    case bool(Bool)
    /// An `f`.
    case float(Float)
    /// A `d`.
    case double(Double)
    /// A `+` unshared string: its bytes, `nil` for nil.
    case string(Data?)
    /// A `*` C string, `nil` for NULL.
    case cString(String?)
    /// A `%` atom or `:` selector name, `nil` for nil.
    case sharedString(String?)
    /// An `@`: an object number, `nil` for nil.
    case object(Int?)
    /// A `#` (or an `@` naming a class): a class number, `nil` for Nil.
    case `class`(Int?)
    /// An array (`[N…]`) of values of one type.
    case array([TypedStreamValue])
    /// A `[Nc]`/`[NC]` array: raw bytes.
    case bytes(Data)
    /// A structure (`{name=…}`): its name and fields.
    case structure(name: String?, fields: [TypedStreamValue])
    /// A union (`(…)`): the raw bytes of its C layout.
    case union(Data)
    /// A `!`: a value the writer marked as ignored (no bytes).
    case ignored

    /// The text of a string value (`+` as UTF-8, with invalid bytes replaced; `*`, `%`, `:`), `nil`
    /// for other values and nil strings.
    public var text: String? {
        switch self {
        case .string(let d?): String(decoding: d, as: UTF8.self)
        case .cString(let s?), .sharedString(let s?): s
        default: nil
        }
    }

    /// The value of an integer (signed, or unsigned up to `Int.max`), `nil` otherwise.
    public var intValue: Int? {
        switch self {
        case .integer(let i): Int(exactly: i)
        case .unsignedInteger(let u): Int(exactly: u)
        default: nil
        }
    }

    /// The value of a number (integer or real) as a `Double`, `nil` otherwise.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .unsignedInteger(let u): Double(u)
        case .float(let f): Double(f)
        case .double(let d): d
        default: nil
        }
    }
}

/// A group of values: what one `encodeValuesOfObjCTypes:` call wrote (one value per type code).
public struct TypedStreamGroup: Hashable, Sendable {
    /// The type encoding (`"@"`, `"iI"`, `"[12c]"`, `"{CGRect={CGPoint=dd}{CGSize=dd}}"`).
    public var types: String
    /// One value per type of ``types``.
    public var values: [TypedStreamValue]
    /// The byte offset where the group's type encoding starts.
    public var offset: Int

    public init(types: String, values: [TypedStreamValue], offset: Int = 0) {
        self.types = types
        self.values = values
        self.offset = offset
    }

    /// The type encoding of each value: ``types`` split at its top level (`"i{CGPoint=dd}@"` is
    /// `["i", "{CGPoint=dd}", "@"]`).
    public var typeEncodings: [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        for c in types {
            current.append(c)
            switch c {
            case "[", "{", "(": depth += 1
            case "]", "}", ")": depth -= 1
            default: break
            }
            if depth <= 0 {
                out.append(current)
                current = ""
                depth = 0
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

/// An archived object: its class and the groups its `encodeWithCoder:` wrote, in order.
public struct TypedStreamObject: Hashable, Sendable {
    /// The class number (``TypedStreamArchive/classes``); its superclasses follow from there.
    public var classNumber: Int
    /// The groups, in order (superclass data first, as `encodeWithCoder:` calls `super` first).
    public var groups: [TypedStreamGroup]
    /// The byte offset of the object's `0x84`.
    public var offset: Int

    public init(classNumber: Int, groups: [TypedStreamGroup], offset: Int = 0) {
        self.classNumber = classNumber
        self.groups = groups
        self.offset = offset
    }

    /// Every value of every group, in order.
    public var values: [TypedStreamValue] { groups.count == 1 ? groups[0].values : groups.flatMap(\.values) }
}
