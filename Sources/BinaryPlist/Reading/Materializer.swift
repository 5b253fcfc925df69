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
            var m = Materializer(document: self, reader: r)
            return try m.run(ref.index)
        }
    }
}

/// One materialisation: memo, cycle marks, budget and the explicit stack.
struct Materializer {
    let document: BinaryPlistDocument
    let reader: ByteReader
    /// Built values by object index. Scalars that cost nothing to rebuild are not stored.
    var memo: [PlistValue?]
    /// Objects whose container frame is on the stack (cycle detection).
    var onStack: [Bool]
    var nodes = 0

    struct Frame {
        var index: Int
        var raw: RawObject
        var position = 0
        /// Children built so far; for a dictionary, all keys first, then all values.
        var children: [PlistValue] = []
    }

    init(document: BinaryPlistDocument, reader: ByteReader) {
        self.document = document
        self.reader = reader
        memo = Array(repeating: nil, count: document.objectCount)
        onStack = Array(repeating: false, count: document.objectCount)
    }

    mutating func count(_ n: Int, at index: Int) throws(BinaryPlistError) {
        nodes += n
        guard nodes <= document.limits.maxNodes else {
            throw BinaryPlistError(
                .limitExceeded, offset: document.objectOffset(reader, index), object: index,
                "materialising would produce more than \(document.limits.maxNodes) values")
        }
    }

    mutating func run(_ rootIndex: Int) throws(BinaryPlistError) -> PlistValue {
        let rootRaw = try document.scan(reader, rootIndex)
        if !rootRaw.isContainer { return try scalar(rootRaw, rootIndex) }
        var stack: [Frame] = []
        try push(&stack, rootIndex, rootRaw)
        let refSize = document.trailer.objectRefSize
        let objectCount = document.objectCount
        while true {
            let top = stack.count - 1
            let total = stack[top].raw.kind == .dictionary ? 2 * stack[top].raw.count : stack[top].raw.count
            if stack[top].position < total {
                let pos = stack[top].position
                stack[top].position = pos + 1
                // The ref list was proven to lie in the object region by scan() (2 × count refs for a dict).
                let ref = document.reference(reader, listStart: stack[top].raw.payload, pos)
                let parent = stack[top].index
                guard ref < UInt64(objectCount) else {
                    throw BinaryPlistError(
                        .referenceOutOfRange, offset: stack[top].raw.payload + pos * refSize, object: parent,
                        "reference \(ref) is not below the object count \(objectCount)")
                }
                let child = Int(ref)
                if let v = memo[child] {
                    if stack[top].raw.kind == .dictionary && pos < stack[top].raw.count {
                        try checkKey(v, child, parent)
                    }
                    stack[top].children.append(v)
                    continue
                }
                if onStack[child] {
                    throw BinaryPlistError(
                        .cycle, offset: document.objectOffset(reader, child), object: child,
                        "object \(child) contains itself (reached again from object \(parent))")
                }
                let raw = try document.scan(reader, child)
                if raw.isContainer {
                    if stack[top].raw.kind == .dictionary && pos < stack[top].raw.count {
                        throw BinaryPlistError(
                            .invalidKey, offset: document.objectOffset(reader, child), object: parent,
                            "dictionary key is a \(raw.kind) (object \(child)); keys must be scalars")
                    }
                    guard stack.count < document.limits.maxDepth else {
                        throw BinaryPlistError(
                            .limitExceeded, offset: document.objectOffset(reader, child), object: child,
                            "nesting deeper than \(document.limits.maxDepth) containers")
                    }
                    try push(&stack, child, raw)
                } else {
                    let v = try scalar(raw, child)
                    if stack[top].raw.kind == .dictionary && pos < stack[top].raw.count {
                        try checkKey(v, child, parent)
                    }
                    stack[top].children.append(v)
                }
            } else {
                let frame = stack.removeLast()
                let v = try finish(frame)
                memo[frame.index] = v
                onStack[frame.index] = false
                if stack.isEmpty { return v }
                stack[stack.count - 1].children.append(v)
            }
        }
    }

    private mutating func push(_ stack: inout [Frame], _ index: Int, _ raw: RawObject) throws(BinaryPlistError) {
        let slots = raw.kind == .dictionary ? 2 * raw.count : raw.count
        try count(slots + 1, at: index)
        var frame = Frame(index: index, raw: raw)
        // slots refs were proven to be present in the file, so this allocation is bounded by the input.
        frame.children.reserveCapacity(slots)
        onStack[index] = true
        stack.append(frame)
    }

    private func checkKey(_ v: PlistValue, _ child: Int, _ parent: Int) throws(BinaryPlistError) {
        switch v {
        case .string, .integer, .real, .date, .data: return
        default:
            throw BinaryPlistError(
                .invalidKey, offset: document.objectOffset(reader, child), object: parent,
                "dictionary key is a \(v.kind) (object \(child)); keys must be strings, numbers, dates or data")
        }
    }

    private mutating func finish(_ frame: Frame) throws(BinaryPlistError) -> PlistValue {
        switch frame.raw.kind {
        case .array: return .array(frame.children)
        case .set: return .set(frame.children)
        default:
            let n = frame.raw.count
            var entries: [PlistDictionary.Element] = []
            entries.reserveCapacity(n)
            let c = frame.children
            for i in 0..<n {
                let key = c[i]
                // Duplicate keys: the last value wins, at the first position (see PlistDictionary).
                var duplicate = false
                if i > 0 {
                    for j in 0..<entries.count where entries[j].key == key {
                        entries[j].value = c[n + i]
                        duplicate = true
                        break
                    }
                }
                if !duplicate { entries.append((key, c[n + i])) }
            }
            return .dictionary(PlistDictionary(uniqueEntries: entries))
        }
    }

    /// Builds a scalar value; memoises the ones that allocate (strings, data).
    private mutating func scalar(_ raw: RawObject, _ index: Int) throws(BinaryPlistError) -> PlistValue {
        try count(1, at: index)
        let v: PlistValue
        switch raw.kind {
        case .null: v = .null
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
