// Sources/PropertyList/Shared/DedupTable.swift - The open-addressing table of ids by 64-bit hash.
//
// One table serves the writer (deduplicating objects of every kind) and the reader (interning
// dictionary keys); equality is the caller's predicate.

/// An open-addressing hash table of object ids, keyed by 64-bit hashes; equality is decided by the
/// caller's predicate, so one table serves every kind.
///
/// A slot is 8 bytes: the id + 1 (0 = empty) in the low half, the hash's high 32 bits in the high
/// half. Those bits choose the slot (so the table can be resized from the slots alone) and skip
/// almost every comparison with an object of another value. Small slots keep the table, which is
/// probed at random, compact: its cache and TLB misses are much of the cost of adding an object.
struct DedupTable: Sendable {
    var slots: [UInt64] = Array(repeating: 0, count: 64)
    var count = 0

    /// A 64-bit finaliser (from the public-domain SplitMix64/Murmur3 family of mixers). A bijection.
    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 31)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }

    /// Keeps the ids `renumber` maps to a new id (under the same hash), drops the others; the size
    /// stays (the streaming writer's bounded table starting over with the entries it still wants).
    mutating func rebuild(_ renumber: (Int) -> Int32?) {
        var kept: [UInt64] = []
        for s in slots where s != 0 {
            if let id = renumber(Int(truncatingIfNeeded: s & 0xFFFF_FFFF) &- 1) {
                kept.append(s & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(bitPattern: id &+ 1)))
            }
        }
        for i in slots.indices { slots[i] = 0 }
        count = 0
        let mask = slots.count &- 1
        for s in kept {
            var i = Int(truncatingIfNeeded: s >> 32) & mask
            while slots[i] != 0 { i = (i &+ 1) & mask }
            slots[i] = s
        }
        count = kept.count
    }

    /// Sizes the table for `n` more entries at most half full, so they are added without rehashing.
    mutating func reserve(_ n: Int) {
        quadruples = false
        let needed = (count &+ max(0, n)) &* 2
        guard needed > slots.count, needed < Int(Int32.max) else { return }
        resize(to: 1 << (Int.bitWidth &- (needed &- 1).leadingZeroBitCount))
    }

    /// Whether the table grows four times at once from `quadruplingSlots` on: only when its owner
    /// asks (the object-table builder), and until it is sized with `reserve` (from an estimate, which
    /// it then outgrows by little, if at all). A table kept within a memory budget (the streaming
    /// writer's) counts on doubling.
    ///
    /// A table that is not sized ahead (the Codable encoder's: it cannot know how many values are to
    /// come) rehashes every entry about once more on its way to its final size when it doubles, into
    /// fresh memory each time: encoding a million distinct numbers spent 17 % of its samples in
    /// `resize`. Quadrupling rehashes a third as often, for a table of at most eight slots an entry
    /// (64 bytes) instead of four (measured, alternated: Codable encodes of the peers' numbers 46.7 ->
    /// 40.1 ms, mixed within the noise). The writer of a tree sizes its table from the tree and keeps
    /// doubling: quadrupled past its estimate, its encode of mixed took 8 % longer.
    private var quadruples = false

    init() {}

    /// An empty table; `quadruples`: grows four times at once when large (see `quadruples`).
    init(quadruples: Bool) {
        self.quadruples = quadruples
    }

    static let quadruplingSlots = 1 << 15

    /// Makes room for `n` more entries as the table fills (see `quadruples`).
    @inline(__always)
    mutating func makeRoom(_ n: Int) {
        if (count &+ n) &* 2 > slots.count { grow(count &+ n) }
    }

    private mutating func grow(_ entries: Int) {
        let needed = entries &* 2
        guard needed > slots.count, needed < Int(Int32.max) else { return }
        var capacity = 1 << (Int.bitWidth &- (needed &- 1).leadingZeroBitCount)
        if quadruples && slots.count >= Self.quadruplingSlots { capacity = Swift.max(capacity, slots.count &* 4) }
        resize(to: capacity)
    }

    /// The id under `hash` that satisfies `matches`, or the empty slot where such an id belongs (pass
    /// it to `fill`) as a negative number, `-1 - slot`.
    @inline(__always)
    func probe(_ hash: UInt64, where matches: (Int) -> Bool) -> Int {
        let mask = slots.count &- 1
        let check = hash & 0xFFFF_FFFF_0000_0000
        var i = Int(truncatingIfNeeded: hash >> 32) & mask
        while true {
            let s = slots[i]
            if s == 0 { return -1 &- i }
            if s & 0xFFFF_FFFF_0000_0000 == check {
                let id = Int(truncatingIfNeeded: s & 0xFFFF_FFFF) &- 1
                if matches(id) { return id }
            }
            i = (i &+ 1) & mask
        }
    }

    /// Loads the first slot of each of the `hashes` and returns them combined: the loads are independent,
    /// so their cache misses overlap, and the lookups that follow find the slots in the cache.
    @inline(__always)
    func touch(_ hashes: [(hash: UInt64, id: Int32)]) -> UInt64 {
        let mask = slots.count &- 1
        var combined: UInt64 = 0
        for h in hashes { combined |= slots[Int(truncatingIfNeeded: h.hash >> 32) & mask] }
        return combined
    }

    /// Fills the empty slot `probe` returned (as `-1 - slot`) with `id`.
    @inline(__always)
    mutating func fill(_ probed: Int, _ hash: UInt64, _ id: Int32) {
        slots[-1 &- probed] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(bitPattern: id &+ 1))
        count &+= 1
        if count &* 2 > slots.count { grow(count) }
    }

    /// The id under `hash` that satisfies `matches`, or `nil` (the decoder's key interning).
    @inline(__always)
    func find(_ hash: UInt64, where matches: (Int) -> Bool) -> Int32? {
        let p = probe(hash, where: matches)
        return p >= 0 ? Int32(truncatingIfNeeded: p) : nil
    }

    /// Adds `id` under `hash`, which `find` did not hold.
    @inline(__always)
    mutating func insert(_ hash: UInt64, _ id: Int32) {
        fill(probe(hash, where: { _ in false }), hash, id)
    }

    /// Tables of this many slots (64 MiB) and more are advised for huge pages.
    ///
    /// A table this large (4 million objects and more: encodes of 100 MB and up) is probed at random
    /// far beyond the caches, and with 4 KiB pages nearly every probe also misses the TLB: advised,
    /// a 1 GB encode took 9.25–9.92 s against 10.42–10.85 s (five runs each), a 100 MB one 606–645 ms
    /// against 646–681 ms in its usual runs. Smaller tables are not advised: a cold Codable encode of
    /// a million numbers (a 16 MiB table) had its median fall 10 %, but one run in five took 50 %
    /// longer, in the kernel (ARCHITECTURE.md).
    static let hugePageSlots = 8 << 20

    private mutating func resize(to capacity: Int) {
        let old = slots
        slots =
            capacity >= Self.hugePageSlots
            ? HugePages.filled(0, count: capacity) : Array(repeating: 0, count: capacity)
        let mask = capacity &- 1
        for s in old where s != 0 {
            var i = Int(truncatingIfNeeded: s >> 32) & mask
            while slots[i] != 0 { i = (i &+ 1) & mask }
            slots[i] = s
        }
    }
}
