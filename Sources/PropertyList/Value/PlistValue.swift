// Sources/PropertyList/Value/PlistValue.swift - The owned property-list value tree.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An owned property-list value: what a whole `bplist00` file (or any sub-tree of it) means.
///
/// `PlistValue` is the materialised form: ``decode(from:as:limits:options:)`` reads one from any
/// form, ``encoded(as:compression:options:)`` writes one in any form. Reading a binary file lazily,
/// without building a tree, is done through ``BinaryPlistDocument``.
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
    ///
    /// ``PlistInteger`` holds the signed 128-bit range in two 8-byte words, so that this enum is
    /// 8-byte aligned (24-byte stride) where `Int128` would make it 16-byte aligned (32-byte stride).
    case integer(PlistInteger)
    /// A real. 4-byte reals are widened to `Double` on read.
    case real(Double)
    /// A date, stored in the file as seconds since 2001-01-01T00:00:00Z.
    case date(Date)
    /// A byte string.
    case data(Data)
    /// A text string (ASCII `0x5n` or UTF-16BE `0x6n` in the file).
    case string(PlistString)
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
    /// A convenience for `.integer(PlistInteger(value))`; `value` must lie in the signed 128-bit range.
    ///
    /// - Parameter value: The integer.
    @inlinable public static func int<T: BinaryInteger>(_ value: T) -> PlistValue { .integer(PlistInteger(value)) }

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
    public var stringValue: String? { if case .string(let s) = self { s.string } else { nil } }
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
    /// Structural equality (see the type's documentation for the rules).
    ///
    /// Iterative, so deep values cannot overflow the stack, and linear in shared sub-trees: a pair of
    /// containers is compared once however often it is reached, and containers sharing storage are
    /// equal at once. (A 60-level `[x, x]` value read from a 300-byte file compares in microseconds.)
    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.array, .array), (.set, .set), (.dictionary, .dictionary): return containersEqual(lhs, rhs)
        // Scalars (the common case: dictionary keys, interned while decoding) need no work list.
        default: return scalarEqual(lhs, rhs)
        }
    }

    /// `==` for two containers of one kind: iterative over a work list, each storage pair compared once.
    private static func containersEqual(_ lhs: PlistValue, _ rhs: PlistValue) -> Bool {
        var work: [(PlistValue, PlistValue)] = [(lhs, rhs)]
        var compared = Set<PairIdentity>()
        while let (a, b) = work.popLast() {
            switch (a, b) {
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                let pair = PairIdentity(kind: 0, a: StorageIdentity.of(x), b: StorageIdentity.of(y))
                if pair.a == pair.b || !compared.insert(pair).inserted { continue }
                for i in x.indices { work.append((x[i], y[i])) }
            case (.set(let x), .set(let y)):
                guard x.count == y.count else { return false }
                let pair = PairIdentity(kind: 1, a: StorageIdentity.of(x), b: StorageIdentity.of(y))
                if pair.a == pair.b || !compared.insert(pair).inserted { continue }
                if !sameMultiset(x, y) { return false }
            case (.dictionary(let x), .dictionary(let y)):
                guard x.count == y.count else { return false }
                let pair = PairIdentity(kind: 2, a: StorageIdentity.of(x.entries), b: StorageIdentity.of(y.entries))
                if pair.a == pair.b || !compared.insert(pair).inserted { continue }
                // Same key order is the common case; otherwise look keys up in a hashed index of y.
                var index: [PlistValue: Int]? = nil
                for (i, e) in x.entries.enumerated() {
                    if y.entries[i].key == e.key {
                        work.append((e.value, y.entries[i].value))
                        continue
                    }
                    if index == nil {
                        var built: [PlistValue: Int] = [:]
                        for (j, f) in y.entries.enumerated() { built[f.key] = j }
                        index = built
                    }
                    guard let j = index?[e.key] else { return false }
                    work.append((e.value, y.entries[j].value))
                }
            default:
                if !scalarEqual(a, b) { return false }
            }
        }
        return true
    }

    /// Two container storages being compared (kind 0 array, 1 set, 2 dictionary).
    struct PairIdentity: Hashable {
        var kind: UInt8
        var a: UInt
        var b: UInt
    }

    /// Equality of two values of which at least one is a scalar.
    static func scalarEqual(_ lhs: PlistValue, _ rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): a == b
        // Exact text: canonically equivalent strings ("é" vs "e\u{301}") are different values.
        case (.string(let a), .string(let b)): a == b
        case (.uid(let a), .uid(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with `==`; iterative and linear in shared sub-trees (each container storage
    /// is hashed once per call).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(PlistValue.structuralHash(self))
    }

    /// A hash of the value in which each container's hash is computed once per storage.
    static func structuralHash(_ root: PlistValue) -> Int {
        struct Frame {
            var key: PairIdentity
            var elements: [PlistValue]
            var next = 0
            var hashes: [Int] = []
        }
        func containerParts(_ v: PlistValue) -> (PairIdentity, [PlistValue])? {
            switch v {
            case .array(let x): return (PairIdentity(kind: 0, a: StorageIdentity.of(x), b: 0), x)
            case .set(let x): return (PairIdentity(kind: 1, a: StorageIdentity.of(x), b: 0), x)
            case .dictionary(let d):
                // Keys and values flattened: entry i is at 2i (key) and 2i + 1 (value).
                return (
                    PairIdentity(kind: 2, a: StorageIdentity.of(d.entries), b: 0),
                    d.entries.flatMap { [$0.key, $0.value] }
                )
            default: return nil
            }
        }
        guard let (rootKey, rootElements) = containerParts(root) else { return scalarHash(root) }
        var memo: [PairIdentity: Int] = [:]
        var stack: [Frame] = []
        var current = Frame(key: rootKey, elements: rootElements)
        while true {
            if current.next < current.elements.count {
                let v = current.elements[current.next]
                current.next += 1
                if let (key, elements) = containerParts(v) {
                    if let h = memo[key] {
                        current.hashes.append(h)
                    } else {
                        stack.append(current)
                        current = Frame(key: key, elements: elements)
                    }
                } else {
                    current.hashes.append(scalarHash(v))
                }
            } else {
                var h = Hasher()
                h.combine(current.key.kind)
                h.combine(current.hashes.count)
                switch current.key.kind {
                case 0:
                    for x in current.hashes { h.combine(x) }
                case 1:
                    // Order-insensitive: the sum of the members' hashes.
                    h.combine(current.hashes.reduce(0, &+))
                default:
                    // Order-insensitive over entries: the sum of each (key, value) pair's hash.
                    var sum = 0
                    var i = 0
                    while i + 1 < current.hashes.count {
                        var e = Hasher()
                        e.combine(current.hashes[i])
                        e.combine(current.hashes[i + 1])
                        sum = sum &+ e.finalize()
                        i += 2
                    }
                    h.combine(sum)
                }
                let value = h.finalize()
                memo[current.key] = value
                guard let parent = stack.popLast() else { return value }
                current = parent
                current.hashes.append(value)
            }
        }
    }

    static func scalarHash(_ v: PlistValue) -> Int {
        var hasher = Hasher()
        hasher.combine(v.kind)
        switch v {
        case .bool(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(i)
        case .real(let d): hasher.combine(d.bitPattern)
        case .date(let d): hasher.combine(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): hasher.combine(d)
        case .string(let s): hasher.combine(ByteHash.hash(s))
        case .uid(let u): hasher.combine(u)
        default: break
        }
        return hasher.finalize()
    }

    /// Equal by exact text (Unicode scalars), not by Swift's canonical equivalence.
    @inline(__always)
    static func exactlyEqual(_ a: String, _ b: String) -> Bool {
        ByteHash.sameUTF8(a, b)
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
    public init(integerLiteral value: Int) { self = .integer(PlistInteger(Int64(value))) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self = .dictionary(PlistDictionary(elements.map { (PlistValue.string($0.0), $0.1) }))
    }
}
