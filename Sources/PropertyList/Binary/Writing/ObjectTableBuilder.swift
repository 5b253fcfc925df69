// Sources/PropertyList/Binary/Writing/ObjectTableBuilder.swift - Builds a bplist00 object table without a value tree.
//
// The builder is fed bottom-up: scalars first, then containers naming the references it returned.
// Each `add` returns a *builder reference*; equal values get the same reference (deduplication by
// value), and equal containers too (hash-consing over their child references). Nothing is encoded
// until `finish(root:)`, which
//   1. renumbers the objects reachable from the root in depth-first pre-order, so the root is object
//      0 and unreachable objects (orphans) are dropped, as Apple's writers order them, summing their
//      sizes apart from references on the way;
//   2. picks the smallest reference width for that object count (1/2/4/8 bytes, or any of 1...8 with
//      `.compact` widths), then the smallest offset width that reaches the table;
//   3. writes header, objects and trailer into one buffer of the exact size, each object's offset
//      going straight into the table's place.
//
// Example: addString("a") -> r0, addInt(5) -> r1, addDictionary(keys: [r0], values: [r1]) -> r2,
// finish(root: r2) renumbers r2 -> 0, r0 -> 1, r1 -> 2 and writes
//   62 70 6c 69 73 74 30 30 | d1 01 02 | 51 61 | 10 05 | 08 0b 0d | trailer (1, 1, 3, 0, 15)
//
// Deduplication uses one open-addressing table (`DedupTable`, 8-byte slots) over all kinds, keyed by a
// 64-bit hash of (kind, payload) and confirmed by comparing payloads exactly: strings by their UTF-8
// bytes (not Swift's canonical equivalence), reals and dates by bit pattern, containers by their child
// lists. Objects are 16-byte `Entry` values in one array; string and data bytes are hashed from the
// caller's value and copied once, when new, into one `ByteArena`, where candidates are compared.
//
// Memory is most of the cost: for a 10 MB file the tables are tens of MB that must be faulted in
// (about 1.5 µs per 4 KiB page on the VMs we measure on), and the dedup table is probed at random. So
// entries and slots are small, tables are sized once when the size is known, and nothing is copied
// that need not be.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A builder reference: an object added to an ``ObjectTableBuilder``.
@_spi(Internals) public struct BuilderRef: Hashable, Sendable {
    let id: Int32

    /// The object's number in its builder: dense from 0, in the order objects were added (a caller
    /// can index its own tables by it instead of hashing references).
    public var index: Int { Int(id) }
}

/// Builds a binary property list object by object, deduplicating equal values.
///
/// This is the low-level writer the keyed archiver feeds directly, without building a ``PlistValue``
/// tree. `BinaryPlistWriter` is the tree-level front end.
@_spi(Internals) public struct ObjectTableBuilder: Sendable {
    enum Kind: UInt8 {
        case null, bool, integer, real, float, date, data, ascii, utf16, uid, array, set, dictionary
        /// An object found equal to the earlier object `a` after it was added (a deferred scalar,
        /// see `addDeferred`). Containers and roots name that object instead, so nothing reaches
        /// this one; the writers treat it as null.
        case forwarded
    }

    /// One object, in 16 bytes (entries are many, and read at random while deduplicating).
    struct Entry {
        /// bool, real, float, date, uid: the bits; integers inside `Int64`: the value; other
        /// integers, data and strings: the offset of their bytes in `arena` (a UTF-16 string's code
        /// unit count is the 8 bytes before them); containers: the offset of the child ids in
        /// `children`.
        var a: UInt64
        /// The low 32 bits of `count`.
        var low: UInt32
        /// Bits 32 ..< 48 of `count` (no count of bytes or ids in memory reaches 2^48).
        var high: UInt16
        var kind: Kind

        init(_ kind: Kind, a: UInt64, count: Int = 0) {
            self.a = a
            self.low = UInt32(truncatingIfNeeded: count)
            self.high = UInt16(truncatingIfNeeded: count >> 32)
            self.kind = kind
        }

        var start: Int { Int(truncatingIfNeeded: a) }
        /// integers: the payload width (1, 2, 4, 8, 16); data and strings: the byte count (UTF-8 for
        /// strings); containers: the number of child ids (2 × entries for a dictionary).
        var count: Int { Int(low) | Int(high) << 32 }

        /// Whether this is the scalar `other` describes (an integer inside `Int64`, or one of the
        /// 64-bit kinds): the same kind, bits and width. The one test of the immediate adds
        /// (`addInteger`, `addBits`) and of the deferred ones (`resolvePending`), so that they find
        /// each other. A 64-bit kind's `low` is 0; an integer's is its width, which equal values share.
        @inline(__always)
        func isScalar(like other: Entry) -> Bool {
            kind == other.kind && a == other.a && low == other.low
        }
    }

    var objects: [Entry] = []
    /// String, data and 16-byte integer bytes.
    var arena = ByteArena()
    /// Container children, as builder ids.
    var children: [Int32] = []

    var deduplicate: Bool
    /// Whether some object is `.forwarded`: containers map their children only then. (Beside
    /// `deduplicate` and `touched`, in the padding before `table`.)
    var forwards = false
    /// The low byte of the slots the last batch touched, combined (kept so the loads that warm them
    /// are not dropped).
    var touched: UInt8 = 0
    var table = DedupTable(quadruples: true)

    /// Deferred scalars not yet looked up in `table`: their hashes and ids (see `addDeferred`).
    var pending: [(hash: UInt64, id: Int32)] = []

    /// A new, empty builder.
    ///
    /// - Parameter deduplicate: Write equal values once (default). Turning it off writes every
    ///   `add` as its own object, which is faster but larger.
    public init(deduplicate: Bool = true) {
        self.deduplicate = deduplicate
    }

    /// The number of objects added so far (after deduplication).
    public var count: Int { objects.count }

    /// Appends a new object; with deduplication on, files it in the slot `probed` (from `table.probe`).
    @inline(__always)
    private mutating func append(_ entry: Entry, hash: UInt64, probed: Int) -> BuilderRef {
        let id = Int32(truncatingIfNeeded: objects.count)
        objects.append(entry)
        if deduplicate { table.fill(probed, hash, id) }
        return BuilderRef(id: id)
    }

    /// Makes room for about `n` more objects (and their hash slots) at once; `sizing`: `n` is an
    /// estimate of all that is to come (the dedup table then grows by doubling past it), not only of
    /// the next few (see `DedupTable.quadruples`).
    mutating func reserve(objects n: Int, sizing: Bool) {
        guard n > 0 else { return }
        let wanted = objects.count &+ n
        if wanted > objects.capacity { objects.reserveCapacity(max(wanted, objects.capacity &* 2)) }
        guard deduplicate else { return }
        if sizing { table.reserve(n) } else { table.makeRoom(n) }
    }

    /// How many of the root's children are added before the rest is estimated from them.
    static var sampledChildren: Int { 256 }

    /// Reserves, for `remaining` more children of the root, what the first `sampledChildren` added per
    /// child, and an eighth more (repeats thin out as the tree goes on less than new values do). The
    /// tree writer calls it for a large root container, `PlistEncoder` for a large root collection.
    mutating func reserveRest(of remaining: Int) {
        let per = Double(remaining) / Double(Self.sampledChildren) * 1.125
        let moreObjects = Double(objects.count) * per
        let moreChildren = Double(children.count) * per
        let moreBytes = Double(arena.count) * per
        // Estimates past a few billion are not worth trusting: the tables then grow as they go.
        guard moreObjects < 4e9, moreChildren < 4e9, moreBytes < 4e11 else { return }
        objects.reserveCapacity(objects.count &+ Int(moreObjects))
        children.reserveCapacity(children.count &+ Int(moreChildren))
        arena.reserve(Int(moreBytes))
        // The dedup table too: it then never rehashes. Measured (alternated, fresh processes): the
        // peers' mixed encode 45.6 -> 40.2 ms warm, 49.9 -> 45.1 ms cold; `generate mixed` at 10 MB
        // 39.2 -> 35.0 ms (479 -> 461 M instructions), at 1 GB 6.8-7.0 -> 6.2-6.5 s, peak RSS +1.5 %.
        // (Round 4 had left it out: sized ahead, its probes missed the caches from the first value
        // on, and a 1 GB encode took 15 % longer; that was before the large table's huge pages.)
        if deduplicate { table.reserve(Int(moreObjects)) }
    }

    // MARK: Scalars

    /// Adds the null object (`0x00`). Apple's writers never emit it; every reader we know accepts it.
    public mutating func addNull() -> BuilderRef { addBits(.null, 0) }

    /// Adds a boolean.
    public mutating func addBool(_ value: Bool) -> BuilderRef { addBits(.bool, value ? 1 : 0) }

    /// Adds an integer. Non-negative values take 1, 2, 4 or 8 bytes; negative ones 8 (as Apple writes
    /// them); values outside `Int64` (such as `UInt64` above `Int64.max`) 16.
    public mutating func addInteger(_ value: Int128) -> BuilderRef { addInteger(PlistInteger(value)) }

    /// Adds an integer held as two words (the tree writer's path: no `Int128` arithmetic).
    mutating func addInteger(_ value: PlistInteger) -> BuilderRef {
        let low = value.low
        let high = UInt64(bitPattern: value.high)
        let width = BinaryPlistWriter.integerWidth(value)
        if width == 16 { return addWideInteger(low: low, high: high) }
        // Inside Int64: the entry holds the value; equal values have equal widths.
        let entry = Entry(.integer, a: low, count: width)
        guard deduplicate else { return append(entry, hash: 0, probed: 0) }
        let hash = Self.integerHash(low)
        let p = table.probe(hash, where: { id in objects[id].isScalar(like: entry) })
        if p >= 0 { return BuilderRef(id: Int32(truncatingIfNeeded: p)) }
        return append(entry, hash: hash, probed: p)
    }

    /// An integer outside `Int64`: its 16 bytes (high half first, as written) go to the arena.
    private mutating func addWideInteger(low: UInt64, high: UInt64) -> BuilderRef {
        let hash = DedupTable.mix(low ^ DedupTable.mix(high ^ UInt64(Kind.integer.rawValue)))
        var p = 0
        if deduplicate {
            p = table.probe(
                hash,
                where: { id in
                    let e = objects[id]
                    return e.kind == .integer && e.count == 16 && arena.word(e.start) == high
                        && arena.word(e.start &+ 8) == low
                })
            if p >= 0 { return BuilderRef(id: Int32(truncatingIfNeeded: p)) }
        }
        let start = arena.count
        arena.append(word: high)
        arena.append(word: low)
        return append(Entry(.integer, a: UInt64(start), count: 16), hash: hash, probed: p)
    }

    /// Adds an integer.
    public mutating func addInt(_ value: some BinaryInteger) -> BuilderRef { addInteger(PlistInteger(value)) }

    /// The dedup hash of an integer inside `Int64` (its bits `low`), deferred or not.
    @inline(__always)
    static func integerHash(_ low: UInt64) -> UInt64 { DedupTable.mix(low ^ 0x7F4A_7C15_9E37_79B9) }

    /// The dedup hash of a scalar held as the 64 bits `value`, deferred or not.
    @inline(__always)
    static func bitsHash(_ kind: Kind, _ value: UInt64) -> UInt64 {
        DedupTable.mix(value ^ UInt64(kind.rawValue) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Scalars held as 64 bits: null, bool, real, float, date, uid.
    @inline(__always)
    private mutating func addBits(_ kind: Kind, _ value: UInt64) -> BuilderRef {
        let entry = Entry(kind, a: value)
        guard deduplicate else { return append(entry, hash: 0, probed: 0) }
        let hash = Self.bitsHash(kind, value)
        let p = table.probe(hash, where: { id in objects[id].isScalar(like: entry) })
        if p >= 0 { return BuilderRef(id: Int32(truncatingIfNeeded: p)) }
        return append(entry, hash: hash, probed: p)
    }

    // MARK: Deferred scalars

    /// How many deferred scalars are looked up together.
    static let batch = 32

    /// Adds an integer inside `Int64` whose deduplication may wait for a batch (see `addDeferred`).
    @inline(__always)
    mutating func addIntegerDeferred(_ value: Int64) -> BuilderRef {
        let low = UInt64(bitPattern: value)
        let width = BinaryPlistWriter.integerWidth(PlistInteger(value))
        return addDeferred(Entry(.integer, a: low, count: width), hash: Self.integerHash(low))
    }

    /// Adds an 8-byte real whose deduplication may wait for a batch (see `addDeferred`).
    @inline(__always)
    mutating func addRealDeferred(_ value: Double) -> BuilderRef {
        let bits = value.bitPattern
        return addDeferred(Entry(.real, a: bits), hash: Self.bitsHash(.real, bits))
    }

    /// Adds a scalar at once as a new object and files it for deduplication with the next batch.
    ///
    /// With many distinct numbers the dedup table is far larger than the caches, and each lookup is a
    /// miss the processor waits for: one at a time, as `add` goes, about 40 % of a Codable encode of a
    /// million numbers. Looked up `batch` at a time, the slots are loaded first, all at once, so their
    /// misses overlap. A scalar found equal to an earlier object becomes `.forwarded` to it, and
    /// `finishContainer` and `settle` name the earlier object instead: the objects reachable from
    /// a root, and so the output, are exactly what `addInteger` and `addReal` would have made.
    ///
    /// The hash is the one `addInteger` / `addBits` would use, so deferred and immediate adds of one
    /// value find each other.
    @inline(__always)
    private mutating func addDeferred(_ entry: Entry, hash: UInt64) -> BuilderRef {
        let id = Int32(truncatingIfNeeded: objects.count)
        objects.append(entry)
        if deduplicate {
            // One allocation for the batch, kept (not one per doubling up to it).
            if pending.capacity == 0 { pending.reserveCapacity(Self.batch) }
            pending.append((hash, id))
            if pending.count >= Self.batch { resolvePending() }
        }
        return BuilderRef(id: id)
    }

    /// Looks up every deferred scalar: each is filed in the dedup table, or forwarded to an equal
    /// object there (an earlier one, or one of this batch before it).
    mutating func resolvePending() {
        let n = pending.count
        guard n > 0 else { return }
        // Room for all of them first, so no slot moves between the loads and the lookups.
        table.makeRoom(n)
        touched = UInt8(truncatingIfNeeded: table.touch(pending))
        for k in 0..<n {
            let (hash, id) = pending[k]
            let e = objects[Int(id)]
            let p = table.probe(hash, where: { other in objects[other].isScalar(like: e) })
            if p >= 0 {
                objects[Int(id)] = Entry(.forwarded, a: UInt64(p))
                forwards = true
            } else {
                table.fill(p, hash, id)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Resolves the deferred scalars and makes the children from `start` on name the objects they
    /// stand for, so equal containers hash and compare equal.
    @inline(__always)
    private mutating func settleChildren(from start: Int) {
        if !pending.isEmpty { resolvePending() }
        guard forwards else { return }
        // `canonical`'s test, written out: a child is stored back only when it was forwarded. Storing
        // every child through `canonical` costs each store its uniqueness check (numbers
        // `encode-codable`: 489.4 M instructions against 825.8 M, measured).
        for i in start..<children.count {
            // Every child was returned by this builder (checked by `appendChild`, or made by the encoder).
            let c = Int(children[i])
            guard c >= 0, c < objects.count else { continue }
            let e = objects[c]
            if e.kind == .forwarded { children[i] = Int32(truncatingIfNeeded: e.a) }
        }
    }

    /// The object `r` stands for: the earlier equal object when `r` was forwarded to it.
    @inline(__always)
    func canonical(_ r: BuilderRef) -> BuilderRef {
        guard r.id >= 0, Int(r.id) < objects.count else { return r }
        let e = objects[Int(r.id)]
        return e.kind == .forwarded ? BuilderRef(id: Int32(truncatingIfNeeded: e.a)) : r
    }

    /// Resolves the deferred scalars and returns the object `root` stands for: call before
    /// `finish(root:)` or `value(root:)` when scalars were added with `addIntegerDeferred` or
    /// `addRealDeferred`.
    mutating func settle(_ root: BuilderRef) -> BuilderRef {
        resolvePending()
        return canonical(root)
    }

    /// A settled copy of the builder and its root when deferred scalars are still pending (a caller
    /// of `finish(root:)` or `value(root:)` that did not `settle`; `PlistEncoder` does, and the tree
    /// writer's containers settle as they finish), else nil: the builder reads as it is.
    func settledCopy(_ root: BuilderRef) -> (builder: ObjectTableBuilder, root: BuilderRef)? {
        guard !pending.isEmpty else { return nil }
        var settled = self
        let r = settled.settle(root)
        return (settled, r)
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
        // Copied in and hashed in one pass; dropped again when an equal one is there.
        let start = arena.count
        let summary = arena.appendSummarizing(value)
        let hash = DedupTable.mix(summary.hash ^ UInt64(Kind.data.rawValue))
        var p = 0
        if deduplicate {
            p = table.probe(
                hash,
                where: { id in
                    let e = objects[id]
                    return e.kind == .data && arena.equal(e.start, e.count, start, summary.count)
                })
            if p >= 0 {
                arena.truncate(start)
                return BuilderRef(id: Int32(truncatingIfNeeded: p))
            }
        }
        return append(
            Entry(.data, a: UInt64(start), count: summary.count), hash: hash, probed: p)
    }

    /// Adds a string: ASCII (`0x5n`) when every character is ASCII, otherwise UTF-16BE (`0x6n`).
    ///
    /// Strings are equal when their UTF-8 bytes are, not by Swift's canonical equivalence: "é" and
    /// "e\u{301}" are two objects.
    public mutating func addString(_ value: String) -> BuilderRef {
        addString(utf8: value.utf8.span)
    }

    /// Adds a string value (its bytes read in place), or finds an equal one.
    public mutating func addString(_ value: PlistString) -> BuilderRef {
        value.withUTF8Span { addString(utf8: $0) }
    }

    private mutating func addString(utf8 bytes: Span<UInt8>) -> BuilderRef {
        // Hashed from the caller's bytes; copied in only when new.
        let summary = ByteArena.summarize(bytes)
        let hash = summary.hash
        var p = 0
        if deduplicate {
            p = table.probe(
                hash,
                where: { id in
                    let e = objects[id]
                    let kind = e.kind
                    return (kind == .ascii || kind == .utf16) && arena.equal(e.start, e.count, bytes)
                })
            if p >= 0 { return BuilderRef(id: Int32(truncatingIfNeeded: p)) }
        }
        if !summary.isASCII {
            // Counted only for new strings, and kept just before the bytes.
            arena.append(word: UInt64(ByteArena.utf16Units(bytes)))
        }
        let start = arena.count
        arena.append(bytes)
        return append(
            Entry(summary.isASCII ? .ascii : .utf16, a: UInt64(start), count: summary.count), hash: hash, probed: p)
    }

    // MARK: Containers

    /// Appends one child id, checking that this builder returned it.
    @inline(__always)
    private mutating func appendChild(_ r: BuilderRef, _ start: Int) throws(PlistError) {
        guard r.id >= 0, Int(r.id) < objects.count else {
            children.removeSubrange(start...)
            throw PlistError(.unencodable, "reference \(r.id) was not returned by this builder")
        }
        children.append(r.id)
    }

    /// Adds a container whose children are `refs` (for a dictionary: keys, then values).
    mutating func addContainer(_ kind: Kind, _ refs: some Collection<BuilderRef>) throws(PlistError) -> BuilderRef {
        let start = children.count
        for r in refs { try appendChild(r, start) }
        return finishContainer(kind, start)
    }

    /// Makes a container of the child ids appended from `start` on: an equal container's reference
    /// (the ids are rolled back), or a new object.
    mutating func finishContainer(_ kind: Kind, _ start: Int) -> BuilderRef {
        let n = children.count &- start
        settleChildren(from: start)
        var hash = UInt64(kind.rawValue) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
        for i in start..<children.count {
            hash = (hash ^ UInt64(UInt32(bitPattern: children[i]))) &* 0xBF58_476D_1CE5_E9B9
            hash ^= hash >> 31
        }
        hash = DedupTable.mix(hash)
        var p = 0
        if deduplicate {
            p = table.probe(
                hash,
                where: { id in
                    let e = objects[id]
                    guard e.kind == kind, e.count == n else { return false }
                    let other = e.start
                    for i in 0..<n where children[other &+ i] != children[start &+ i] { return false }
                    return true
                })
            if p >= 0 {
                children.removeLast(n)
                return BuilderRef(id: Int32(truncatingIfNeeded: p))
            }
        }
        return append(Entry(kind, a: UInt64(start), count: n), hash: hash, probed: p)
    }

    /// Adds an array of objects already added.
    public mutating func addArray(_ elements: [BuilderRef]) throws(PlistError) -> BuilderRef {
        try addContainer(.array, elements)
    }

    /// Adds a set (marker `0xCn`) of objects already added.
    public mutating func addSet(_ members: [BuilderRef]) throws(PlistError) -> BuilderRef {
        try addContainer(.set, members)
    }

    /// Adds a dictionary. `keys` and `values` must have the same length.
    public mutating func addDictionary(keys: [BuilderRef], values: [BuilderRef]) throws(PlistError) -> BuilderRef {
        guard keys.count == values.count else {
            throw PlistError(.unencodable, "dictionary has \(keys.count) keys but \(values.count) values")
        }
        let start = children.count
        for r in keys { try appendChild(r, start) }
        for r in values { try appendChild(r, start) }
        return finishContainer(.dictionary, start)
    }

    /// Adds a dictionary that stays one object of its own: no equal dictionary is merged into it, and
    /// it is not merged into one (a keyed archive's objects are distinct even when equal, as Apple's
    /// writer leaves them). `keys` and `values` must have the same length.
    public mutating func addDistinctDictionary(keys: [BuilderRef], values: [BuilderRef]) throws(PlistError)
        -> BuilderRef
    {
        guard keys.count == values.count else {
            throw PlistError(.unencodable, "dictionary has \(keys.count) keys but \(values.count) values")
        }
        let start = children.count
        for r in keys { try appendChild(r, start) }
        for r in values { try appendChild(r, start) }
        settleChildren(from: start)
        let id = Int32(truncatingIfNeeded: objects.count)
        // Not filed in the dedup table: nothing added later finds it.
        objects.append(Entry(.dictionary, a: UInt64(start), count: children.count &- start))
        return BuilderRef(id: id)
    }

    /// Encodes everything reachable from `root` as a `bplist00` file.
    ///
    /// - Parameters:
    ///   - root: The root object; it becomes object 0.
    ///   - widths: Reference and offset widths (default: powers of two, as CoreFoundation writes).
    /// - Complexity: O(objects + references + payload bytes); one output allocation.
    public func finish(root: BuilderRef, widths: BinaryPlistWidths = .powersOfTwo) throws(PlistError)
        -> Data
    {
        guard root.id >= 0, Int(root.id) < objects.count else {
            throw PlistError(.unencodable, "root reference \(root.id) was not returned by this builder")
        }
        if let (settled, r) = settledCopy(root) {
            return BinaryPlistWriter.emit(settled, root: Int(r.id), widths: widths)
        }
        return BinaryPlistWriter.emit(self, root: Int(canonical(root).id), widths: widths)
    }
}
