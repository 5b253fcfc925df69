// Sources/BinaryPlist/Writing/ObjectTableBuilder.swift - Builds a bplist00 object table without a value tree.
//
// The builder is fed bottom-up: scalars first, then containers naming the references it returned.
// Each `add` returns a *builder reference*; equal values get the same reference (deduplication by
// value), and equal containers too (hash-consing over their child references). Nothing is encoded
// until `finish(root:)`, which
//   1. renumbers the objects reachable from the root in depth-first pre-order, so the root is object
//      0 and unreachable objects (orphans) are dropped, as Apple's writers order them;
//   2. picks the smallest reference width (1/2/4/8 bytes) for that object count, sizes every object,
//      then picks the smallest offset width that reaches the offset table;
//   3. writes header, objects, offset table and trailer into one buffer of the exact size.
//
// Example: addString("a") -> r0, addInt(5) -> r1, addDictionary(keys: [r0], values: [r1]) -> r2,
// finish(root: r2) renumbers r2 -> 0, r0 -> 1, r1 -> 2 and writes
//   62 70 6c 69 73 74 30 30 | d1 01 02 | 51 61 | 10 05 | 08 0b 0d | trailer (1, 1, 3, 0, 15)

public import FoundationEssentials

/// A builder reference: an object added to an ``ObjectTableBuilder``.
public struct BuilderRef: Hashable, Sendable {
    let id: Int32
}

/// Builds a binary property list object by object, deduplicating equal values.
///
/// This is the low-level writer the keyed archiver feeds directly, without building a ``PlistValue``
/// tree. ``BinaryPlistWriter`` is the tree-level front end.
public struct ObjectTableBuilder: Sendable {
    enum Kind: UInt8 {
        case null, bool, integer, real, float, date, data, ascii, utf16, uid, array, set, dictionary
    }

    /// Per object: kind and an index into the payload store for that kind.
    var kinds: [Kind] = []
    var payloads: [Int] = []
    var integers: [Int128] = []
    var bits: [UInt64] = []  // real, float (widened bit pattern of the Float), date, uid
    var strings: [String] = []
    var utf16Counts: [Int] = []  // per string: UTF-16 units (non-ASCII) or UTF-8 bytes (ASCII)
    var datas: [Data] = []
    /// Container children, as builder ids; a container's payload indexes `ranges`.
    var children: [Int32] = []
    var ranges: [(start: Int, count: Int)] = []

    // Dedup tables, by kind.
    var deduplicate: Bool
    var stringIDs: [ExactString: Int32] = [:]
    var integerIDs: [Int128: Int32] = [:]
    var bitIDs: [BitsKey: Int32] = [:]
    var dataIDs: [Data: Int32] = [:]
    var containerIDs: [ContainerKey: Int32] = [:]
    var boolIDs: (Int32?, Int32?) = (nil, nil)
    var nullID: Int32?

    /// A string compared by its exact UTF-8 bytes, not by Swift's canonical equivalence: "é" and
    /// "e\u{301}" are different property-list strings. (Hashing through `String` stays consistent:
    /// byte-equal strings are canonically equal, so they hash alike.)
    struct ExactString: Hashable {
        var value: String
        init(_ value: String) { self.value = value }
        static func == (a: ExactString, b: ExactString) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }
        func hash(into h: inout Hasher) { h.combine(value) }
    }

    struct BitsKey: Hashable {
        var kind: UInt8
        var bits: UInt64
    }

    struct ContainerKey: Hashable {
        var kind: UInt8
        var children: [Int32]
    }

    /// A new, empty builder.
    ///
    /// - Parameter deduplicate: Write equal values once (default). Turning it off writes every
    ///   `add` as its own object, which is faster but larger.
    public init(deduplicate: Bool = true) {
        self.deduplicate = deduplicate
    }

    /// The number of objects added so far (after deduplication).
    public var count: Int { kinds.count }

    private mutating func append(_ kind: Kind, _ payload: Int) -> BuilderRef {
        kinds.append(kind)
        payloads.append(payload)
        return BuilderRef(id: Int32(truncatingIfNeeded: kinds.count - 1))
    }

    // MARK: Scalars

    /// Adds the null object (`0x00`). Apple's writers never emit it; every reader we know accepts it.
    public mutating func addNull() -> BuilderRef {
        if deduplicate, let id = nullID { return BuilderRef(id: id) }
        let r = append(.null, 0)
        nullID = r.id
        return r
    }

    /// Adds a boolean.
    public mutating func addBool(_ value: Bool) -> BuilderRef {
        if deduplicate, let id = value ? boolIDs.1 : boolIDs.0 { return BuilderRef(id: id) }
        let r = append(.bool, value ? 1 : 0)
        if value { boolIDs.1 = r.id } else { boolIDs.0 = r.id }
        return r
    }

    /// Adds an integer. Non-negative values take 1, 2, 4 or 8 bytes; negative ones 8 (as Apple writes
    /// them); values outside `Int64` (such as `UInt64` above `Int64.max`) 16.
    public mutating func addInteger(_ value: Int128) -> BuilderRef {
        if deduplicate, let id = integerIDs[value] { return BuilderRef(id: id) }
        integers.append(value)
        let r = append(.integer, integers.count - 1)
        if deduplicate { integerIDs[value] = r.id }
        return r
    }

    /// Adds an integer.
    public mutating func addInt(_ value: some BinaryInteger) -> BuilderRef { addInteger(Int128(value)) }

    private mutating func addBits(_ kind: Kind, _ value: UInt64) -> BuilderRef {
        let key = BitsKey(kind: kind.rawValue, bits: value)
        if deduplicate, let id = bitIDs[key] { return BuilderRef(id: id) }
        bits.append(value)
        let r = append(kind, bits.count - 1)
        if deduplicate { bitIDs[key] = r.id }
        return r
    }

    /// Adds an 8-byte real. Deduplication is by bit pattern: `-0.0` and `0.0` stay distinct.
    public mutating func addReal(_ value: Double) -> BuilderRef { addBits(.real, value.bitPattern) }

    /// Adds a 4-byte real (marker `0x22`), as `NSKeyedArchiver` writes a `Float`.
    public mutating func addFloat(_ value: Float) -> BuilderRef { addBits(.float, UInt64(value.bitPattern)) }

    /// Adds a date.
    public mutating func addDate(_ value: Date) -> BuilderRef {
        addBits(.date, value.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// Adds a keyed-archiver UID.
    public mutating func addUID(_ value: UInt64) -> BuilderRef { addBits(.uid, value) }

    /// Adds a byte string.
    public mutating func addData(_ value: Data) -> BuilderRef {
        if deduplicate, let id = dataIDs[value] { return BuilderRef(id: id) }
        datas.append(value)
        let r = append(.data, datas.count - 1)
        if deduplicate { dataIDs[value] = r.id }
        return r
    }

    /// Adds a string: ASCII (`0x5n`) when every character is ASCII, otherwise UTF-16BE (`0x6n`).
    public mutating func addString(_ value: String) -> BuilderRef {
        if deduplicate, let id = stringIDs[ExactString(value)] { return BuilderRef(id: id) }
        let ascii = BinaryPlistWriter.isASCII(value)
        strings.append(value)
        utf16Counts.append(ascii ? value.utf8.count : value.utf16.count)
        let r = append(ascii ? .ascii : .utf16, strings.count - 1)
        if deduplicate { stringIDs[ExactString(value)] = r.id }
        return r
    }

    // MARK: Containers

    private mutating func addContainer(_ kind: Kind, _ refs: [BuilderRef]) throws(BinaryPlistError) -> BuilderRef {
        var ids: [Int32] = []
        ids.reserveCapacity(refs.count)
        for r in refs {
            guard r.id >= 0, Int(r.id) < kinds.count else {
                throw BinaryPlistError(.unencodable, "reference \(r.id) was not returned by this builder")
            }
            ids.append(r.id)
        }
        let key = ContainerKey(kind: kind.rawValue, children: ids)
        if deduplicate, let id = containerIDs[key] { return BuilderRef(id: id) }
        ranges.append((children.count, ids.count))
        children.append(contentsOf: ids)
        let r = append(kind, ranges.count - 1)
        if deduplicate { containerIDs[key] = r.id }
        return r
    }

    /// Adds an array of objects already added.
    public mutating func addArray(_ elements: [BuilderRef]) throws(BinaryPlistError) -> BuilderRef {
        try addContainer(.array, elements)
    }

    /// Adds a set (marker `0xCn`) of objects already added.
    public mutating func addSet(_ members: [BuilderRef]) throws(BinaryPlistError) -> BuilderRef {
        try addContainer(.set, members)
    }

    /// Adds a dictionary. `keys` and `values` must have the same length.
    public mutating func addDictionary(keys: [BuilderRef], values: [BuilderRef]) throws(BinaryPlistError) -> BuilderRef
    {
        guard keys.count == values.count else {
            throw BinaryPlistError(.unencodable, "dictionary has \(keys.count) keys but \(values.count) values")
        }
        return try addContainer(.dictionary, keys + values)
    }

    /// Encodes everything reachable from `root` as a `bplist00` file.
    ///
    /// - Complexity: O(objects + references + payload bytes); one output allocation.
    public func finish(root: BuilderRef) throws(BinaryPlistError) -> Data {
        guard root.id >= 0, Int(root.id) < kinds.count else {
            throw BinaryPlistError(.unencodable, "root reference \(root.id) was not returned by this builder")
        }
        return BinaryPlistWriter.emit(self, root: Int(root.id))
    }
}
