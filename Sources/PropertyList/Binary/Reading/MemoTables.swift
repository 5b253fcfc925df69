// Sources/PropertyList/Binary/Reading/MemoTables.swift - Per-object bookkeeping of one materialisation.
//
// Dense (one array of objectCount slots) for whole documents, sparse (dictionaries) for a sub-tree of
// a large one; the materialiser is generic over the two.

/// Per-object bookkeeping of one materialisation.
///
/// `state` is 0 for an object not reached yet, 1 for a string or data object built once (not kept),
/// -1 for a container being built (cycle detection), and `k >= 2` for an object memoised at
/// `values[k - 2]`. `keyID` is the object's duplicate-key id (0: not used as a key yet).
protocol MemoTable {
    init(count: Int)
    func state(_ index: Int) -> Int
    mutating func setState(_ index: Int, _ state: Int)
    func keyID(_ index: Int) -> Int32
    mutating func setKeyID(_ index: Int, _ id: Int32)
}

/// Bookkeeping in one array of `objectCount` slots (8 bytes each).
struct DenseMemo: MemoTable {
    struct Slot {
        var state: Int32 = 0
        var keyID: Int32 = 0
    }
    /// Object counts below this keep every state (at most `objectCount + 1`) in an `Int32`.
    static let maxCount = Int(Int32.max) - 2
    private var slots: [Slot]

    init(count: Int) { slots = Array(repeating: Slot(), count: count) }

    @inline(__always) func state(_ index: Int) -> Int { Int(slots[index].state) }
    @inline(__always) mutating func setState(_ index: Int, _ state: Int) {
        slots[index].state = Int32(truncatingIfNeeded: state)  // state <= objectCount + 1 < Int32.max
    }
    @inline(__always) func keyID(_ index: Int) -> Int32 { slots[index].keyID }
    @inline(__always) mutating func setKeyID(_ index: Int, _ id: Int32) { slots[index].keyID = id }
}

/// Bookkeeping in hash maps, for a sub-tree of a large document.
struct SparseMemo: MemoTable {
    private var states: [Int: Int] = [:]
    private var keyIDs: [Int: Int32] = [:]

    init(count: Int) {}

    func state(_ index: Int) -> Int { states[index] ?? 0 }
    mutating func setState(_ index: Int, _ state: Int) { states[index] = state }
    func keyID(_ index: Int) -> Int32 { keyIDs[index] ?? 0 }
    mutating func setKeyID(_ index: Int, _ id: Int32) { keyIDs[index] = id }
}
