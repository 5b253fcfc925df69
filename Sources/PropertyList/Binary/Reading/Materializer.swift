// Sources/PropertyList/Binary/Reading/Materializer.swift - Builds the owned PlistValue tree without recursion.
//
// Traversal rules against hostile input:
// - an explicit stack of frames, never unbounded recursion, bounded by `limits.maxDepth` (a container
//   whose descendants are at most `Materializer.inlineLevels` deep is built in nested calls, a fixed
//   bound; anything deeper gets frames);
// - every container is built once and memoised by index, so a shared sub-tree (a DAG such as 22
//   levels of [x, x]) costs its size once: the result shares storage the way the file does;
// - a string or data object is memoised when it is reached a second time (built at most twice);
//   numbers, dates, booleans and UIDs allocate nothing and are simply decoded again;
// - an object still on the stack when it is reached again is a cycle;
// - every produced value and every element slot is counted against `limits.maxValues`.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension BinaryPlistDocument {
    /// Materialises the whole property list as an owned tree.
    ///
    /// Shared sub-trees are built once (the result shares their storage), so the cost is linear in
    /// the file, never in the expanded tree.
    ///
    /// - Throws: any object's format error, `badReference`, `cycle`, `invalidKey` (a container
    ///   or boolean used as a dictionary key), `invalidString`, or `limitExceeded` (depth, nodes).
    public func value() throws(PlistError) -> PlistValue {
        try value(of: root)
    }

    /// Materialises the sub-tree rooted at one object.
    public func value(of ref: ObjectRef) throws(PlistError) -> PlistValue {
        guard ref.index >= 0, ref.index < objectCount else {
            throw PlistError(
                .badReference, object: ref.index,
                "reference \(ref.index) is not below the object count \(objectCount)")
        }
        return try withBytes { r throws(PlistError) in
            // Dense bookkeeping (arrays of `objectCount` entries) is right for the whole document; a
            // sub-tree of a large file uses hash maps sized by what it touches, so that materialising
            // many small sub-trees does not cost O(objectCount) each.
            if (ref.index == trailer.topObject || objectCount <= 4096) && objectCount < DenseMemo.maxCount {
                var m = Materializer<DenseMemo>(document: self, reader: r)
                return try m.run(ref.index)
            }
            var m = Materializer<SparseMemo>(document: self, reader: r)
            return try m.run(ref.index)
        }
    }
}

/// One materialisation: memo, cycle marks, budget and the explicit stack.
///
/// The container being filled is described by a plain `Frame` (`current`) and its storage (`children`
/// for an array or set, `entries` for a dictionary) lives in a local; the ancestors' frames wait in
/// `parents` and their storage in `childStack` / `entryStack`, moved there and back without copies.
/// Each container's storage is allocated once, at its final size (the count was proven against the
/// file by `scan`), and children are moved into it as they are built, a run of them at a time. Child
/// containers are built inline where they are found (see `inline`) and only become frames when they
/// nest deeper than `inlineLevels`.
struct Materializer<Memo: MemoTable> {
    let document: BinaryPlistDocument
    let reader: ByteReader
    /// Memoised values (containers, and strings or data reached more than once), see `MemoTable`.
    var values: [PlistValue] = []
    /// The buffer long ASCII strings are sliced from (made on the first one): the input itself. Nil
    /// for a memory-mapped input, whose strings are owned (a tree must not read the file after its
    /// decode, and copying the file for a sub-tree's strings would cost the whole file each time).
    var strings: StringSource?
    /// Whether the input is a memory-mapped file (see `strings`).
    let inMappedFile: Bool
    var nodes = 0
    let maxValues: Int
    let maxDepth: Int
    let maxUID: UInt64
    let layout: ObjectLayout
    var objectCount: Int { layout.objectCount }
    var regionEnd: Int { layout.regionEnd }
    /// Duplicate-key detection in O(1) per key. Each distinct key *value* gets a small id the first time
    /// an object holding it is used as a key (the memo caches the id per object index, `internedKeys`
    /// finds equal values held by different objects: an open-addressing table on a cheap 64-bit hash,
    /// `internedValues[id]` the value for the final comparison); `lastDictionary[id]` is the serial
    /// number of the dictionary that last used the id, so a repeated key is one comparison away.
    /// (Archives from swift-corelibs-foundation repeat every key string per object, so each key object
    /// is interned once: SipHash and `Dictionary<PlistValue, _>` were a third of such a decode.)
    var internedKeys = DedupTable()
    var internedValues: [PlistValue] = [.null]
    /// Short ASCII key strings by their bytes: a key object whose bytes were seen before as a key
    /// reuses that key's value and id without building a `String` (writers that repeat every key
    /// string, such as swift-corelibs-foundation's archiver). Equal bytes of two `0x5n` objects are
    /// the same string; anything else takes the value path above.
    /// A key of at most 8 bytes is found by its length and `ByteReader.shortWord` (`word`), with no
    /// byte hash and no comparison of bytes (0 for a longer key, found by its bytes).
    var rawKeys = DedupTable()
    var rawKeyEntries: [(offset: Int, length: Int, word: UInt64, value: PlistValue, id: Int32)] = []
    var lastDictionary: [Int] = [0]
    var dictionarySerial = 0
    /// The number of frames under `run`'s current one (for the depth limit of inline containers).
    var depth = 0
    /// Containers started inline that wait for a pending descendant, innermost first.
    var started: [Started] = []

    /// A container being built (its storage is kept apart, see `run`).
    struct Frame {
        var index: Int
        var kind: RawObject.Kind
        /// Offset of the reference list.
        var refs: Int
        /// Elements of an array or set; entries of a dictionary.
        var count: Int
        /// Next reference to read; for a dictionary, keys are positions 0 ..< count, values count ..< 2count.
        var position = 0
        /// Number of references to read.
        var total: Int
        /// This dictionary's serial number (for duplicate detection).
        var serial = 0
        /// Whether a key repeats (rare: then the entries are merged when the dictionary is finished).
        var hasDuplicateKeys = false
    }

    /// A child container that must be built before its parent can go on.
    struct Pending {
        var index: Int
        var raw: RawObject
    }

    init(document: BinaryPlistDocument, reader: ByteReader) {
        self.document = document
        self.reader = reader
        inMappedFile = document.mapping != nil
        maxValues = document.limits.maxValues
        maxDepth = document.limits.maxDepth
        maxUID = document.limits.maxUID
        layout = ObjectLayout(
            reader: reader, objectCount: document.objectCount, refSize: document.trailer.objectRefSize,
            regionEnd: document.trailer.offsetTableOffset, offsetSize: document.trailer.offsetIntSize)
    }

    @inline(__always)
    mutating func count(_ n: Int, at index: Int) throws(PlistError) {
        nodes &+= n
        guard nodes <= maxValues else { throw tooManyNodes(at: index) }
    }

    @inline(never)
    private func tooManyNodes(at index: Int) -> PlistError {
        PlistError(
            .limitExceeded, offset: document.objectOffset(reader, index), object: index,
            "materialising would produce more than \(maxValues) values")
    }

    mutating func run(_ rootIndex: Int) throws(PlistError) -> PlistValue {
        let rootRaw = try document.scan(reader, rootIndex)
        if !rootRaw.isContainer {
            try count(1, at: rootIndex)
            return try scalar(rootRaw, rootIndex)
        }
        // Allocated only now that the root is a container: a scalar root never pays for it.
        var memo = Memo(count: objectCount)
        var parents: [Frame] = []
        var childStack: [[PlistValue]] = []
        var entryStack: [[PlistDictionary.Element]] = []
        // The storage of `current`: `children` for an array or set, `entries` for a dictionary; the
        // other one is empty.
        var children: [PlistValue] = []
        var entries: [PlistDictionary.Element] = []
        var current = try frame(rootIndex, rootRaw, &memo)
        if current.kind == .dictionary {
            entries.reserveCapacity(current.count)
        } else {
            children.reserveCapacity(current.count)
        }
        while true {
            var pending: Pending? = nil
            depth = parents.count
            if current.kind != .dictionary {
                try fill(&current, &children, &memo, &pending)
            } else {
                try fill(&current, &entries, &memo, &pending)
            }
            if let next = pending {
                // Containers started inline (see `inline`) wait for `next` too: they become frames,
                // outermost first, each with the storage it has so far.
                while let s = started.popLast() {
                    if current.kind == .dictionary {
                        entryStack.append(consume entries)
                    } else {
                        childStack.append(consume children)
                    }
                    parents.append(current)
                    current = s.frame
                    children = s.children
                    entries = s.entries
                }
                // A child container: park the parent and its storage, then build the child first.
                guard parents.count + 1 < maxDepth else {
                    throw PlistError(
                        .limitExceeded, offset: layout.offset(of: next.index), object: next.index,
                        "nesting deeper than \(maxDepth) containers")
                }
                let child = try frame(next.index, next.raw, &memo)
                if current.kind == .dictionary {
                    entryStack.append(consume entries)
                } else {
                    childStack.append(consume children)
                }
                // The count's references were proven present in the file, so these allocations are
                // bounded by it.
                if child.kind == .dictionary {
                    entries = []
                    entries.reserveCapacity(child.count)
                    children = []
                } else {
                    children = []
                    children.reserveCapacity(child.count)
                    entries = []
                }
                parents.append(current)
                current = child
                continue
            }
            // `current` is complete.
            let v = finished(current, consume children, consume entries)
            guard let parent = parents.popLast() else { return v }
            values.append(v)
            memo.setState(current.index, values.count &+ 1)
            current = parent
            // Deliver the finished child to its parent (always an array, set or dictionary value).
            if current.kind != .dictionary {
                children = childStack.popLast() ?? []
                entries = []
                children.append(v)
            } else {
                entries = entryStack.popLast() ?? []
                children = []
                entries[current.position &- 1 &- current.count].value = v
            }
        }
    }

    /// The value of a complete container.
    @inline(__always)
    private func finished(
        _ f: Frame, _ children: consuming [PlistValue], _ entries: consuming [PlistDictionary.Element]
    ) -> PlistValue {
        switch f.kind {
        case .array: return .array(children)
        case .set: return .set(children)
        default:
            if !f.hasDuplicateKeys { return .dictionary(PlistDictionary(uniqueEntries: entries)) }
            // Rare: merge repeated keys; the last value wins, at the first position (see PlistDictionary).
            return .dictionary(PlistDictionary(entries.map { ($0.key, $0.value) }))
        }
    }

    /// The value of object `child` (an element, key or value of `f`), or nil when it is a container
    /// that could not be finished inline: then `pending` holds the container to open next.
    ///
    /// `level` is how many containers above `f` are being built inline (0 when `f` is `run`'s frame).
    ///
    /// `@inline(always)` (Swift 6.3): as a hint, the inliner stopped taking it into `keys` once that
    /// loop grew by the short-key lookup (untyped decode of mixed 263 -> 284 M instructions).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    mutating func element(
        _ child: Int, of f: Frame, isKey: Bool, level: Int, _ memo: inout Memo, _ pending: inout Pending?
    ) throws(PlistError) -> PlistValue? {
        let state = memo.state(child)
        if state >= 2 { return values[state &- 2] }
        if state < 0 {
            throw PlistError(
                .cycle, offset: layout.offset(of: child), object: child,
                "object \(child) contains itself (reached again from object \(f.index))")
        }
        let off = layout.offset(of: child)
        // off < regionEnd was proven at open, so the marker byte is readable.
        let marker = unsafe layout.reader.byte(unchecked: off)
        let type = marker >> 4
        if type == 0xA || type == 0xC || type == 0xD {
            let raw: RawObject
            if let short = layout.container(at: off, marker: marker) { raw = short } else { raw = try scanned(child) }
            if isKey {
                throw PlistError(
                    .invalidKey, offset: off, object: f.index,
                    "dictionary key is a \(raw.kind) (object \(child)); keys must be scalars")
            }
            if level < Self.inlineLevels {
                return try inline(child, raw, level: level &+ 1, &memo, &pending)
            }
            pending = Pending(index: child, raw: raw)
            return nil
        }
        // Fixed-size scalars (no allocation, nothing to memoise) are decoded right here.
        if type != 0x5,
            let v = ScanContext.fixedScalar(
                layout.reader, marker: marker, at: off, end: layout.regionEnd, maxUID: maxUID)
        {
            return v
        }
        return try scalar(child, at: off, marker: marker, state: state, &memo)
    }

    /// How deep containers are built inline, without a frame of `run`: a container whose
    /// descendants are at most this deep costs no push and pop. (The call stack stays bounded.)
    static var inlineLevels: Int { 3 }

    /// A container started inline that waits for a descendant: it becomes a frame of `run`.
    struct Started {
        var frame: Frame
        var children: [PlistValue]
        var entries: [PlistDictionary.Element]
    }

    /// Builds container `child` at once, its storage allocated at its final size and filled in place.
    /// When it holds a container deeper than `inlineLevels`, it is left half-built in `started` (with
    /// the one to open in `pending`) and nil is returned.
    @inline(never)
    private mutating func inline(
        _ child: Int, _ raw: RawObject, level: Int, _ memo: inout Memo, _ pending: inout Pending?
    ) throws(PlistError) -> PlistValue? {
        // The same depth rule as when `run` opens a frame: `level` frames above `depth` are inline.
        guard depth &+ level < maxDepth else {
            throw PlistError(
                .limitExceeded, offset: layout.offset(of: child), object: child,
                "nesting deeper than \(maxDepth) containers")
        }
        var f = try frame(child, raw, &memo)
        let layout = self.layout
        var pos = 0
        var children: [PlistValue] = []
        var entries: [PlistDictionary.Element] = []
        // The count's references were proven present in the file, so these allocations are bounded by it.
        if f.kind != .dictionary {
            try children.append(addingCapacity: f.count) {
                (out: inout OutputSpan<PlistValue>) throws(PlistError) in
                try elements(f, &pos, &out, level: level, layout, &memo, &pending)
            }
        } else {
            var duplicates = false
            try entries.append(addingCapacity: f.count) {
                (out: inout OutputSpan<PlistDictionary.Element>) throws(PlistError) in
                try keys(f, &pos, &duplicates, &out, layout, &memo)
            }
            f.hasDuplicateKeys = duplicates
            var slots = entries.mutableSpan
            try dictionaryValues(f, &pos, &slots, level: level, layout, &memo, &pending)
        }
        f.position = pos
        if pending != nil {
            started.append(Started(frame: f, children: consume children, entries: consume entries))
            return nil
        }
        let v = finished(f, consume children, consume entries)
        values.append(v)
        memo.setState(child, values.count &+ 1)
        return v
    }

    /// Builds the elements of an array or set, until all are built or a child container is pending.
    private mutating func fill(
        _ f: inout Frame, _ children: inout [PlistValue], _ memo: inout Memo, _ pending: inout Pending?
    ) throws(PlistError) {
        var pos = f.position
        let frame = f
        let layout = self.layout
        defer { f.position = pos }
        try children.append(addingCapacity: frame.total &- pos) {
            (out: inout OutputSpan<PlistValue>) throws(PlistError) in
            try elements(frame, &pos, &out, level: 0, layout, &memo, &pending)
        }
    }

    /// Builds the keys, then the values of a dictionary, until all are built or a child container is
    /// pending.
    private mutating func fill(
        _ f: inout Frame, _ entries: inout [PlistDictionary.Element], _ memo: inout Memo,
        _ pending: inout Pending?
    ) throws(PlistError) {
        var pos = f.position
        var duplicates = f.hasDuplicateKeys
        let frame = f
        let layout = self.layout
        defer {
            f.position = pos
            f.hasDuplicateKeys = duplicates
        }
        if pos < frame.count {
            try entries.append(addingCapacity: frame.count &- pos) {
                (out: inout OutputSpan<PlistDictionary.Element>) throws(PlistError) in
                try keys(frame, &pos, &duplicates, &out, layout, &memo)
            }
        }
        var slots = entries.mutableSpan
        try dictionaryValues(frame, &pos, &slots, level: 0, layout, &memo, &pending)
    }

    /// Appends the elements of array or set `f` from `pos` on to `out`, until all are built or a
    /// child container is pending.
    @inline(__always)
    private mutating func elements(
        _ f: Frame, _ pos: inout Int, _ out: inout OutputSpan<PlistValue>, level: Int, _ layout: ObjectLayout,
        _ memo: inout Memo, _ pending: inout Pending?
    ) throws(PlistError) {
        while pos < f.total {
            let child = try layout.reference(f.refs, pos, of: f.index)
            pos &+= 1
            guard let v = try element(child, of: f, isKey: false, level: level, &memo, &pending) else { return }
            out.append(v)
        }
    }

    /// Sets the values of dictionary `f` from `pos` on (its keys are all in place), until all are
    /// built or a child container is pending.
    @inline(__always)
    private mutating func dictionaryValues(
        _ f: Frame, _ pos: inout Int, _ slots: inout MutableSpan<PlistDictionary.Element>, level: Int,
        _ layout: ObjectLayout, _ memo: inout Memo, _ pending: inout Pending?
    ) throws(PlistError) {
        while pos < f.total {
            let child = try layout.reference(f.refs, pos, of: f.index)
            pos &+= 1
            guard let v = try element(child, of: f, isKey: false, level: level, &memo, &pending) else { return }
            slots[pos &- 1 &- f.count].value = v
        }
    }

    /// Scans an object the fast paths leave to `scan` (which reports any error).
    @inline(never)
    private func scanned(_ index: Int) throws(PlistError) -> RawObject {
        try document.scan(reader, index)
    }

    @inline(__always)
    private mutating func frame(_ index: Int, _ raw: RawObject, _ memo: inout Memo) throws(PlistError) -> Frame {
        let total = raw.kind == .dictionary ? 2 &* raw.count : raw.count
        try count(total &+ 1, at: index)
        memo.setState(index, -1)
        var f = Frame(index: index, kind: raw.kind, refs: raw.payload, count: raw.count, total: total)
        if raw.kind == .dictionary {
            dictionarySerial &+= 1
            f.serial = dictionarySerial
        }
        return f
    }

    /// The decode's string buffer (see `strings`).
    private mutating func stringSource() -> StringSource {
        if let strings { return strings }
        let made = StringSource(document.data)
        strings = made
        return made
    }

    /// Builds the scalar object `index` whose marker byte sits at `off`; `state` is its memo state (0 or 1).
    ///
    /// The common well-formed markers are decoded here directly; every other marker, and every
    /// object whose payload does not fit, goes through `scan`, which reports the exact error.
    @inline(never)
    private mutating func scalar(
        _ index: Int, at off: Int, marker: UInt8, state: Int, _ memo: inout Memo
    ) throws(PlistError) -> PlistValue {
        // off < regionEnd was proven at open.
        switch marker >> 4 {
        case 0x4, 0x5, 0x6:
            // Data, ASCII or UTF-16 of a short count, or of a 1- or 2-byte extended count (0x10 n, 0x11 nn).
            let type = marker >> 4
            guard let (n, start) = ScanContext.shortCount(reader, marker: marker, at: off, end: regionEnd)
            else { break }
            // The payload start ..< start + bytes lies in the region (bytes <= regionEnd - start); n < 2^16,
            // so doubling it cannot overflow.
            let bytes = type == 0x6 ? 2 &* n : n
            guard bytes <= regionEnd &- start else { break }
            // The first build is marked before the value exists: marked after, the value would be
            // copied around the memo's store (a retain and a release of a slice's source per string).
            // The general path below marks it again, harmlessly.
            if state == 0 { memo.setState(index, 1) }
            if type == 0x5 {
                // Non-ASCII bytes go to the general path (an error, or UTF-8 when the options allow it).
                // Up to 15 bytes a String is held inline; a longer one is a slice of the input, read in
                // place (no allocation per string).
                if n > 15, !inMappedFile {
                    if unsafe reader.isASCII(unchecked: start, length: n) {
                        let text = PlistString(stringSource(), offset: start, count: n)
                        return memoised(.string(text), index, state, &memo)
                    }
                } else if let s = unsafe reader.asciiString(unchecked: start, length: n) {
                    return memoised(.string(s), index, state, &memo)
                }
            } else if type == 0x4 {
                return memoised(.data(reader.data(offset: start, length: n) ?? Data()), index, state, &memo)
            } else if case .success(let s) = unsafe reader.string(utf16BEUnchecked: start, units: n) {
                // An unpaired surrogate goes to the general path, which reports it.
                return memoised(.string(s), index, state, &memo)
            }
        default:
            if let v = ScanContext.fixedScalar(reader, marker: marker, at: off, end: regionEnd, maxUID: maxUID) {
                return v
            }
        }
        return try scannedScalar(index, state: state, &memo)
    }

    /// Builds a scalar that the fast path in `scalar(_:at:marker:state:_:)` leaves to `scan`.
    @inline(never)
    private mutating func scannedScalar(_ index: Int, state: Int, _ memo: inout Memo) throws(PlistError)
        -> PlistValue
    {
        let raw = try scanned(index)
        return try scalar(raw, index, state: state, &memo)
    }

    /// Memoises a string or data value the second time its object is built (the fast path of
    /// `scalar(_:at:marker:state:_:)` has marked the first build already).
    @inline(__always)
    private mutating func memoised(_ v: consuming PlistValue, _ index: Int, _ state: Int, _ memo: inout Memo)
        -> PlistValue
    {
        if state != 0 {
            values.append(copy v)
            memo.setState(index, values.count &+ 1)
        }
        return v
    }

    /// Memoises a string or data value the second time its object is built; marks the first build.
    @inline(__always)
    private mutating func remember(_ v: consuming PlistValue, _ index: Int, _ state: Int, _ memo: inout Memo)
        -> PlistValue
    {
        if state == 0 {
            memo.setState(index, 1)
            return v
        }
        return memoised(v, index, state, &memo)
    }

    /// Builds a scalar value from a scanned object; memoises the ones that allocate (strings, data)
    /// on their second build. (Its slot was counted against the node budget when its container was opened.)
    private mutating func scalar(_ raw: RawObject, _ index: Int, state: Int, _ memo: inout Memo)
        throws(PlistError) -> PlistValue
    {
        let v = try scalar(raw, index)
        switch raw.kind {
        case .data, .ascii, .utf16: return remember(v, index, state, &memo)
        default: return v
        }
    }

    /// Builds a scalar value from a scanned object.
    private func scalar(_ raw: RawObject, _ index: Int) throws(PlistError) -> PlistValue {
        switch raw.kind {
        case .null: return .null
        case .bool: return .bool(raw.scalar != 0)
        case .integer: return .integer(raw.integer)
        case .real: return .real(Double(bitPattern: raw.scalar))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw.scalar)))
        case .uid: return .uid(raw.scalar)
        case .fill:
            throw PlistError(
                .corrupted, offset: document.objectOffset(reader, index), object: index,
                "a fill byte (0x0F) is padding, not a value")
        case .data:
            // Range proven by scan().
            return .data(reader.data(offset: raw.payload, length: raw.count) ?? Data())
        case .ascii, .utf16:
            return .string(try document.makeString(reader, raw, index))
        case .array, .set, .dictionary:
            preconditionFailure("containers are built by run()")  // Internal invariant: callers check isContainer.
        }
    }
}
