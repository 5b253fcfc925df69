// Sources/BinaryPlist/Reading/Materializer.swift - Builds the owned PlistValue tree without recursion.
//
// Traversal rules against hostile input:
// - an explicit stack of frames, never the call stack, bounded by `limits.maxDepth`;
// - every object is built once and memoised by index, so a shared sub-tree (a DAG such as 22 levels
//   of [x, x]) costs its size once: the result shares storage the way the file does;
// - an object still on the stack when it is reached again is a cycle;
// - every produced value and every element slot is counted against `limits.maxNodes`.

import FoundationEssentials

extension BinaryPlistDocument {
    /// Materialises the whole property list as an owned tree.
    ///
    /// Shared sub-trees are built once (the result shares their storage), so the cost is linear in
    /// the file, never in the expanded tree.
    ///
    /// - Throws: any object's format error, `referenceOutOfRange`, `cycle`, `invalidKey` (a container
    ///   or boolean used as a dictionary key), `invalidString`, or `limitExceeded` (depth, nodes).
    public func value() throws(BinaryPlistError) -> PlistValue {
        try value(of: root)
    }

    /// Materialises the sub-tree rooted at one object.
    public func value(of ref: ObjectRef) throws(BinaryPlistError) -> PlistValue {
        guard ref.index >= 0, ref.index < objectCount else {
            throw BinaryPlistError(
                .referenceOutOfRange, object: ref.index,
                "reference \(ref.index) is not below the object count \(objectCount)")
        }
        return try withReader { r throws(BinaryPlistError) in
            var m = Materializer(
                document: self, reader: r, dense: ref.index == trailer.topObject || objectCount <= 4096)
            return try m.run(ref.index)
        }
    }
}

/// One materialisation: memo, cycle marks, budget and the explicit stack.
///
/// The container being filled is kept in a local (`current`) and its ancestors wait in `parents`.
/// Each container's storage is allocated once, at its final size (the count was proven against the
/// file by `scan`), and children are moved into it as they are built.
struct Materializer {
    let document: BinaryPlistDocument
    let reader: ByteReader
    /// Built values by object index, for objects that allocate (strings, data, containers).
    var memo: IndexMap<PlistValue?>
    /// Objects whose container is being built (cycle detection).
    var onStack: IndexMap<Bool>
    var nodes = 0
    let maxNodes: Int
    /// Duplicate-key detection in O(1) per key. Each distinct key *value* gets a small id the first time
    /// an object holding it is used as a key (`keyIDs` caches the id per object index, `internedKeys`
    /// finds equal values held by different objects); `lastDictionary[id]` is the serial number of the
    /// dictionary that last used the id, so a repeated key is one comparison away.
    var keyIDs: IndexMap<Int32>
    var internedKeys: [PlistValue: Int32] = [:]
    var lastDictionary: [Int] = [0]
    var dictionarySerial = 0

    struct Frame {
        var index: Int
        var raw: RawObject
        /// Next reference to read; for a dictionary, keys are positions 0 ..< count, values count ..< 2count.
        var position = 0
        /// Number of references to read.
        var total: Int
        /// Elements of an array or set.
        var children: [PlistValue] = []
        /// Entries of a dictionary: keys first (with placeholder values), then the values are filled in.
        var entries: [PlistDictionary.Element] = []
        /// This dictionary's serial number (for duplicate detection).
        var serial = 0
        /// Whether a key repeats (rare: then the entries are merged when the dictionary is finished).
        var hasDuplicateKeys = false
    }

    /// - Parameter dense: Index the bookkeeping by arrays of `objectCount` entries (fast; right for the
    ///   whole document). Otherwise hash maps sized by what the sub-tree touches, so that materialising
    ///   many small sub-trees of a large file does not cost O(objectCount) each.
    init(document: BinaryPlistDocument, reader: ByteReader, dense: Bool) {
        self.document = document
        self.reader = reader
        memo = IndexMap(count: document.objectCount, empty: nil, dense: dense)
        onStack = IndexMap(count: document.objectCount, empty: false, dense: dense)
        keyIDs = IndexMap(count: document.objectCount, empty: 0, dense: dense)
        maxNodes = document.limits.maxNodes
    }

    mutating func count(_ n: Int, at index: Int) throws(BinaryPlistError) {
        nodes &+= n
        guard nodes <= maxNodes else {
            throw BinaryPlistError(
                .limitExceeded, offset: document.objectOffset(reader, index), object: index,
                "materialising would produce more than \(maxNodes) values")
        }
    }

    mutating func run(_ rootIndex: Int) throws(BinaryPlistError) -> PlistValue {
        let rootRaw = try document.scan(reader, rootIndex)
        if !rootRaw.isContainer {
            try count(1, at: rootIndex)
            return try scalar(rootRaw, rootIndex)
        }
        let refSize = document.trailer.objectRefSize
        let objectCount = document.objectCount
        let maxDepth = document.limits.maxDepth
        var parents: [Frame] = []
        var current = try frame(rootIndex, rootRaw)
        while true {
            if current.position < current.total {
                let pos = current.position
                current.position = pos &+ 1
                let isKey = current.raw.kind == .dictionary && pos < current.raw.count
                // The ref list was proven to lie in the object region by scan() (2 × count refs for a dict).
                let ref = document.reference(reader, listStart: current.raw.payload, pos)
                guard ref < UInt64(objectCount) else {
                    throw BinaryPlistError(
                        .referenceOutOfRange, offset: current.raw.payload + pos * refSize, object: current.index,
                        "reference \(ref) is not below the object count \(objectCount)")
                }
                let child = Int(ref)
                let v: PlistValue
                if let memoised = memo[child] {
                    v = memoised
                } else {
                    if onStack[child] {
                        throw BinaryPlistError(
                            .cycle, offset: document.objectOffset(reader, child), object: child,
                            "object \(child) contains itself (reached again from object \(current.index))")
                    }
                    let raw = try document.scan(reader, child)
                    if raw.isContainer {
                        if isKey {
                            throw BinaryPlistError(
                                .invalidKey, offset: document.objectOffset(reader, child), object: current.index,
                                "dictionary key is a \(raw.kind) (object \(child)); keys must be scalars")
                        }
                        guard parents.count + 1 < maxDepth else {
                            throw BinaryPlistError(
                                .limitExceeded, offset: document.objectOffset(reader, child), object: child,
                                "nesting deeper than \(maxDepth) containers")
                        }
                        parents.append(current)
                        current = try frame(child, raw)
                        continue
                    }
                    v = try scalar(raw, child)
                }
                if current.raw.kind != .dictionary {
                    current.children.append(v)
                } else if isKey {
                    if try isRepeatedKey(v, child, &current) { current.hasDuplicateKeys = true }
                    current.entries.append((v, .null))
                } else {
                    current.entries[pos &- current.raw.count].value = v
                }
            } else {
                let v = finish(&current)
                memo[current.index] = v
                onStack[current.index] = false
                guard let parent = parents.popLast() else { return v }
                current = parent
                // Re-deliver the finished child to its parent (always an array, set or dictionary value).
                let pos = current.position &- 1
                if current.raw.kind != .dictionary {
                    current.children.append(v)
                } else {
                    current.entries[pos &- current.raw.count].value = v
                }
            }
        }
    }

    private mutating func frame(_ index: Int, _ raw: RawObject) throws(BinaryPlistError) -> Frame {
        let total = raw.kind == .dictionary ? 2 &* raw.count : raw.count
        try count(total &+ 1, at: index)
        onStack[index] = true
        var f = Frame(index: index, raw: raw, total: total)
        // The count's references were proven present in the file, so these allocations are bounded by it.
        if raw.kind == .dictionary {
            f.entries.reserveCapacity(raw.count)
            dictionarySerial &+= 1
            f.serial = dictionarySerial
        } else {
            f.children.reserveCapacity(raw.count)
        }
        return f
    }

    /// Checks that a key is a scalar and reports whether the dictionary already has an equal key.
    private mutating func isRepeatedKey(_ v: PlistValue, _ child: Int, _ frame: inout Frame) throws(BinaryPlistError)
        -> Bool
    {
        switch v {
        case .string, .integer, .real, .date, .data: break
        default:
            throw BinaryPlistError(
                .invalidKey, offset: document.objectOffset(reader, child), object: frame.index,
                "dictionary key is a \(v.kind) (object \(child)); keys must be strings, numbers, dates or data")
        }
        var id = keyIDs[child]
        if id == 0 {
            // First use of this object as a key: find (or assign) the id of its value.
            if let known = internedKeys[v] {
                id = known
            } else {
                id = Int32(truncatingIfNeeded: lastDictionary.count)
                internedKeys[v] = id
                lastDictionary.append(0)
            }
            keyIDs[child] = id
        }
        let slot = Int(id)
        if lastDictionary[slot] == frame.serial { return true }
        lastDictionary[slot] = frame.serial
        return false
    }

    /// Turns a finished frame into its value.
    private func finish(_ frame: inout Frame) -> PlistValue {
        switch frame.raw.kind {
        case .array: return .array(frame.children)
        case .set: return .set(frame.children)
        default:
            if !frame.hasDuplicateKeys { return .dictionary(PlistDictionary(uniqueEntries: frame.entries)) }
            // Rare: merge repeated keys; the last value wins, at the first position (see PlistDictionary).
            return .dictionary(PlistDictionary(frame.entries.map { ($0.key, $0.value) }))
        }
    }

    /// Builds a scalar value; memoises the ones that allocate (strings, data). (Its slot was counted
    /// against the node budget when its container was opened.)
    private mutating func scalar(_ raw: RawObject, _ index: Int) throws(BinaryPlistError) -> PlistValue {
        let v: PlistValue
        switch raw.kind {
        case .null: return .null
        case .bool: return .bool(raw.scalar != 0)
        case .integer: return .integer(raw.int128)
        case .real: return .real(Double(bitPattern: raw.scalar))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw.scalar)))
        case .uid: return .uid(raw.scalar)
        case .fill:
            throw BinaryPlistError(
                .invalidObject, offset: document.objectOffset(reader, index), object: index,
                "a fill byte (0x0F) is padding, not a value")
        case .data:
            // Range proven by scan().
            v = .data(reader.data(offset: raw.payload, length: raw.count) ?? Data())
        case .ascii, .utf16:
            v = .string(try document.makeString(reader, raw, index))
        case .array, .set, .dictionary:
            preconditionFailure("containers are built by run()")  // Internal invariant: callers check isContainer.
        }
        memo[index] = v
        return v
    }
}

/// A map from object index to a value: a dense array for whole-document work, or a hash map when
/// only a few indexes will be touched.
struct IndexMap<Value> {
    private var dense: [Value]
    private var sparse: [Int: Value]
    private let empty: Value
    private let isDense: Bool
    private let count: Int

    init(count: Int, empty: Value, dense: Bool) {
        self.empty = empty
        self.count = count
        isDense = dense
        self.dense = []
        sparse = [:]
    }

    @inline(__always)
    subscript(index: Int) -> Value {
        get {
            if isDense { return dense.isEmpty ? empty : dense[index] }
            return sparse[index] ?? empty
        }
        set {
            if isDense {
                // Allocated on first write: a scalar root never pays for it.
                if dense.isEmpty { dense = Array(repeating: empty, count: count) }
                dense[index] = newValue
            } else {
                sparse[index] = newValue
            }
        }
    }
}
