// Sources/PropertyList/Binary/Streaming/ScalarMemo.swift - The streaming writer's bounded table of scalars
// already written (deduplication in constant memory).

/// The streaming writer's table of scalars written so far, by their encoding: a bounded part of
/// what `ObjectTableBuilder` remembers.
///
/// An entry costs 16 bytes, its encoding in `bytes`, and 16 to 32 bytes of hash slots. When the next
/// one would pass `budget` the table starts a new generation: it keeps the entries that were found
/// again during the last one (in up to half the room the slots leave), so values that keep repeating (keys, common
/// strings) stay, and forgets the rest.
struct ScalarMemo {
    struct Entry {
        /// The file offset of the object.
        var offset: Int
        var start: UInt32
        /// The encoding's length; the top bit is set once the entry was found again.
        var lengthAndHit: UInt32

        var length: Int { Int(lengthAndHit & 0x7FFF_FFFF) }
    }

    /// How often lookups of one kind of scalar found a repeat lately, and how many more values of
    /// that kind to skip.
    struct KindStats {
        var looked = 0
        var found = 0
        var skip = 0
    }

    /// Lookups per kind over which the repeats are counted, and the fewest repeats in them (1 in 64)
    /// for the kind to stay looked up; otherwise its next `coldRun` values are not.
    static let window = 1 << 16
    static let minimumFound = window / 64
    static let coldRun = 1 << 20

    private var table = DedupTable()
    private var entries: [Entry] = []
    private var bytes = ByteArena()
    private var stats = [KindStats](repeating: KindStats(), count: 7)
    let budget: Int
    /// Generations so far (1 until the table first fills).
    private(set) var generations = 1

    /// The statistics slot of a scalar kind: strings, integers, reals, dates, data, UIDs, the rest.
    @inline(__always)
    static func kindIndex(_ kind: PlistKind) -> Int {
        switch kind {
        case .string: return 0
        case .integer: return 1
        case .real: return 2
        case .date: return 3
        case .data: return 4
        case .uid: return 5
        default: return 6
        }
    }

    /// False while values of kind `k` are skipped (counting one more skipped).
    @inline(__always)
    mutating func considers(_ k: Int) -> Bool {
        guard stats[k].skip == 0 else {
            stats[k].skip &-= 1
            return false
        }
        return true
    }

    /// Counts a lookup of kind `k`; at the end of a window, a kind that rarely repeats goes cold.
    @inline(__always)
    private mutating func count(_ k: Int, found: Bool) {
        stats[k].looked &+= 1
        if found { stats[k].found &+= 1 }
        if stats[k].looked == Self.window {
            if stats[k].found < Self.minimumFound { stats[k].skip = Self.coldRun }
            stats[k].looked = 0
            stats[k].found = 0
        }
    }

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// Bytes the table would take with one more entry of `n` bytes.
    private func memory(adding n: Int) -> Int {
        let slots = table.slots.count
        let grows = (table.count &+ 1) &* 2 > slots
        return bytes.count &+ n &+ (entries.count &+ 1) &* 16 &+ slots &* (grows ? 16 : 8)
    }

    /// The offset of an object written before with exactly `encoding`; otherwise remembers it as the
    /// object at `offset` (when it fits) and returns nil.
    @inline(__always)
    mutating func lookupOrRemember(_ hash: UInt64, _ encoding: Span<UInt8>, at offset: Int, kind k: Int) -> Int? {
        var p = table.probe(
            hash,
            where: { id in
                let e = entries[id]
                return bytes.equal(Int(e.start), e.length, encoding)
            })
        count(k, found: p >= 0)
        if p >= 0 {
            entries[p].lengthAndHit |= 0x8000_0000
            return entries[p].offset
        }
        if memory(adding: encoding.count) > budget {
            startOver()
            guard memory(adding: encoding.count) <= budget else { return nil }
            p = table.probe(hash, where: { _ in false })
        }
        let start = bytes.count
        bytes.append(encoding)
        table.fill(p, hash, Int32(truncatingIfNeeded: entries.count))
        entries.append(
            Entry(
                offset: offset, start: UInt32(truncatingIfNeeded: start),
                lengthAndHit: UInt32(truncatingIfNeeded: encoding.count)))
        return nil
    }

    /// A new generation: the entries found again in this one (in order, while they take at most half
    /// of what the slots leave of the budget) move to the front, unmarked; the others are dropped.
    private mutating func startOver() {
        generations &+= 1
        var renumbered = [Int32](repeating: -1, count: entries.count)
        var kept = 0
        var end = 0
        let slotBytes = table.slots.count &* 8
        for i in entries.indices where entries[i].lengthAndHit & 0x8000_0000 != 0 {
            let e = entries[i]
            let n = e.length
            guard end &+ n &+ (kept &+ 1) &* 16 <= (budget &- slotBytes) / 2 else { break }
            bytes.moveDown(from: Int(e.start), to: end, count: n)
            entries[kept] = Entry(offset: e.offset, start: UInt32(truncatingIfNeeded: end), lengthAndHit: UInt32(n))
            renumbered[i] = Int32(truncatingIfNeeded: kept)
            kept &+= 1
            end &+= n
        }
        entries.removeLast(entries.count &- kept)
        bytes.truncate(end)
        table.rebuild { id in renumbered[id] >= 0 ? renumbered[id] : nil }
    }
}
