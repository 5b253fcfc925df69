// Sources/BinaryPlist/Value/PlistValue.swift - The owned property-list value tree.

public import FoundationEssentials

/// An owned property-list value: what a whole `bplist00` file (or any sub-tree of it) means.
///
/// `PlistValue` is the materialised form. Reading lazily, without building a tree, is done through
/// ``BinaryPlistDocument``; writing goes through ``BinaryPlistWriter`` or, without a tree,
/// ``ObjectTableBuilder``.
///
/// Equality follows the format, not Swift's numeric `==`:
/// - integers compare exactly (128-bit) and never equal a real or a boolean;
/// - reals and dates compare by IEEE bit pattern, so `-0.0 != 0.0` and a NaN equals the same NaN;
/// - dictionaries compare as maps (entry order does not matter);
/// - sets compare as multisets of their members, arrays element by element.
public enum PlistValue: Sendable {
    /// The null object (marker `0x00`). Apple's writers never emit it; readers accept it.
    case null
    /// A boolean (markers `0x08`/`0x09`).
    case bool(Bool)
    /// An integer of 1, 2, 4, 8 or 16 bytes, exact (16-byte values are signed 128-bit).
    case integer(Int128)
    /// A real. 4-byte reals are widened to `Double` on read.
    case real(Double)
    /// A date, stored in the file as seconds since 2001-01-01T00:00:00Z.
    case date(Date)
    /// A byte string.
    case data(Data)
    /// A text string (ASCII `0x5n` or UTF-16BE `0x6n` in the file).
    case string(String)
    /// A keyed-archiver UID (marker `0x8n`): an index into an archive's `$objects`.
    case uid(UInt64)
    /// An ordered array.
    case array([PlistValue])
    /// A set (marker `0xCn`). Members are kept in file order; equality ignores order.
    case set([PlistValue])
    /// A dictionary. Keys are usually strings but may be any scalar.
    case dictionary(PlistDictionary)
}

extension PlistValue {
    /// A convenience for `.integer(Int128(value))`.
    @inlinable public static func int<T: BinaryInteger>(_ value: T) -> PlistValue { .integer(Int128(value)) }

    /// A dictionary with string keys, in the given order.
    public static func dict(_ pairs: KeyValuePairs<String, PlistValue>) -> PlistValue {
        .dictionary(PlistDictionary(pairs.map { (PlistValue.string($0.key), $0.value) }))
    }

    /// The kind of this value, for messages and statistics.
    public var kind: PlistKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer: .integer
        case .real: .real
        case .date: .date
        case .data: .data
        case .string: .string
        case .uid: .uid
        case .array: .array
        case .set: .set
        case .dictionary: .dictionary
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer as `Int`, when this is an integer that fits.
    public var intValue: Int? { if case .integer(let i) = self { Int(exactly: i) } else { nil } }
    /// The real, when this is a real.
    public var doubleValue: Double? { if case .real(let d) = self { d } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The bytes, when this is data.
    public var dataValue: Data? { if case .data(let d) = self { d } else { nil } }
    /// The date, when this is a date.
    public var dateValue: Date? { if case .date(let d) = self { d } else { nil } }
    /// The UID, when this is a UID.
    public var uidValue: UInt64? { if case .uid(let u) = self { u } else { nil } }
    /// The elements, when this is an array (or a set).
    public var arrayValue: [PlistValue]? {
        switch self {
        case .array(let a), .set(let a): a
        default: nil
        }
    }
    /// The dictionary, when this is a dictionary.
    public var dictionaryValue: PlistDictionary? { if case .dictionary(let d) = self { d } else { nil } }

    /// The value under a string key, when this is a dictionary that has it.
    public subscript(key: String) -> PlistValue? { dictionaryValue?[key] }

    /// The element at a position, when this is an array with that many elements.
    public subscript(index: Int) -> PlistValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}

/// The kinds of object a property list holds.
public enum PlistKind: String, Sendable, CaseIterable, Hashable {
    case null, bool, integer, real, date, data, string, uid, array, set, dictionary
}

extension PlistValue: Hashable {
    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): a == b
        // Exact text: canonically equivalent strings ("é" vs "e\u{301}") are different values.
        case (.string(let a), .string(let b)): PlistValue.exactlyEqual(a, b)
        case (.uid(let a), .uid(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.set(let a), .set(let b)): PlistValue.sameMultiset(a, b)
        case (.dictionary(let a), .dictionary(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        switch self {
        case .null: break
        case .bool(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(i)
        case .real(let d): hasher.combine(d.bitPattern)
        case .date(let d): hasher.combine(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .uid(let u): hasher.combine(u)
        case .array(let a): hasher.combine(a)
        case .set(let a): hasher.combine(PlistValue.orderInsensitiveHash(a))
        case .dictionary(let d): hasher.combine(d)
        }
    }

    /// Equal by exact text (Unicode scalars), not by Swift's canonical equivalence.
    @inline(__always)
    static func exactlyEqual(_ a: String, _ b: String) -> Bool {
        ByteHash.sameUTF8(a, b)
    }

    /// A hash that does not depend on element order (sum of the elements' own hashes).
    static func orderInsensitiveHash(_ values: [PlistValue]) -> Int {
        var sum = 0
        for v in values { sum = sum &+ v.hashValue }
        return sum
    }

    static func sameMultiset(_ a: [PlistValue], _ b: [PlistValue]) -> Bool {
        guard a.count == b.count else { return false }
        if a == b { return true }
        var counts: [PlistValue: Int] = [:]
        for v in a { counts[v, default: 0] += 1 }
        for v in b {
            guard let c = counts[v], c > 0 else { return false }
            counts[v] = c - 1
        }
        return true
    }
}

extension PlistValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(Int128(value)) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self = .dictionary(PlistDictionary(elements.map { (PlistValue.string($0.0), $0.1) }))
    }
}
