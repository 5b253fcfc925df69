// Sources/PropertyList/Binary/Writing/BinaryPlistWriter.swift - Writes PlistValue trees and builder tables as bplist00.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Writes property lists in the binary format (``PlistValue/encoded(as:compression:options:)`` is the
/// public entry point).
///
/// ```swift
/// let bytes = try BinaryPlistWriter().write(["name": "Ada", "age": 36])
/// let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(value)
/// ```
///
/// Output is deterministic: the same value always gives the same bytes. Equal values are written
/// once (strings by content; integers, reals, dates, data, UIDs and booleans by value, reals by bit
/// pattern; equal arrays, sets and dictionaries too). The root is object 0, objects follow in
/// depth-first pre-order, and reference and offset widths are the smallest of 1, 2, 4 and 8 bytes
/// that fit (or of 1 to 8 bytes with ``BinaryPlistWidths/compact``). Foundation's `PropertyListSerialization` and Python's `plistlib` read the result.
package struct BinaryPlistWriter: Sendable {
    /// Write equal values once (default `true`).
    package var deduplicate: Bool
    /// Envelope of the output (default none).
    package var compression: PlistCompression
    /// The zlib level of the envelope (-1: zlib's default).
    package var compressionLevel: Int
    /// Reference and offset widths (default ``BinaryPlistWidths/powersOfTwo``).
    package var widths: BinaryPlistWidths

    package init(
        deduplicate: Bool = true, compression: PlistCompression = .none, compressionLevel: Int = -1,
        widths: BinaryPlistWidths = .powersOfTwo
    ) {
        self.deduplicate = deduplicate
        self.compression = compression
        self.compressionLevel = compressionLevel
        self.widths = widths
    }

    /// Encodes a value tree.
    ///
    /// - Throws: `unencodable` for values the format cannot hold; `compression` if zlib fails.
    package func write(_ value: PlistValue) throws(PlistError) -> Data {
        if deduplicate, let plain = Self.writeFlat(value, widths: widths) {
            return try compression.wrap(plain, level: compressionLevel)
        }
        var builder = ObjectTableBuilder(deduplicate: deduplicate)
        let root = try builder.add(value)
        // Encoding does not look values up: the dedup table's memory can serve the output instead.
        builder.table = DedupTable()
        let plain = try builder.finish(root: root, widths: widths)
        return try compression.wrap(plain, level: compressionLevel)
    }

    /// The fast path for a root array or set of scalars (no nested containers): each element is
    /// encoded straight into the output, and a repeat is found by its encoding, which the format makes
    /// canonical (equal values, and only they, encode to equal bytes: the marker tells the kind, the
    /// payload the value). Objects are numbered in order of first occurrence after the root, as the
    /// general path numbers them, so the bytes are the same. The root is written last, into room left
    /// for its largest possible size, and the objects are moved down over what it did not need.
    ///
    /// Returns nil for any other root, or when an element is a container.
    static func writeFlat(_ value: PlistValue, widths: BinaryPlistWidths) -> Data? {
        let elements: [PlistValue]
        let marker: UInt8
        switch value {
        case .array(let xs): (elements, marker) = (xs, 0xA0)
        case .set(let xs): (elements, marker) = (xs, 0xC0)
        default: return nil
        }
        let n = elements.count
        guard n > 0 else { return nil }
        // At most n + 1 objects: the root's references need at most this many bytes each.
        let widestRef = tableWidth(UInt64(n &+ 1), widths)
        let rootRoom = countHeader(n) &+ widestRef &* n
        var out = GrowableWriter(capacity: BinaryPlistTrailer.headerSize &+ rootRoom &+ 16 &* n &+ 64)
        out.append(bigEndian: 0x6270_6c69_7374_3030, width: 8)  // "bplist00"
        out.append(zeros: rootRoom)
        let objectsStart = out.count
        var table = DedupTable()
        table.reserve(n)
        // Where each distinct object starts (its end is where the next starts), and each element's object.
        var starts: [Int] = []
        starts.reserveCapacity(n)
        var ids: [Int32] = []
        ids.reserveCapacity(n)
        for index in 0..<n {
            if index == 256 && n > 512 {
                // Sized from the first 256 elements (and 1/8 more, for repeats written less often than
                // new objects, and the offset table), so a large output is not moved while it grows.
                let perElement = Double(out.count &- objectsStart) / 256
                let estimate = perElement * Double(n &- 256) * 1.125
                if estimate < Double(Int.max / 8) { out.reserve(Int(estimate)) }
            }
            let start = out.count
            let hash: UInt64
            switch elements[index] {
            case .null:
                out.append(byte: 0x00)
                hash = DedupTable.mix(0x00)
            case .bool(let x):
                out.append(byte: x ? 0x09 : 0x08)
                hash = DedupTable.mix(x ? 0x09 : 0x08)
            case .integer(let x):
                let width = integerWidth(x)
                let low = x.low
                if width == 16 {
                    let high = UInt64(bitPattern: x.high)
                    out.append(marker: 0x14, bigEndian: high, width: 8)
                    out.append(bigEndian: low, width: 8)
                    hash = DedupTable.mix(low ^ DedupTable.mix(high ^ 0x14))
                } else {
                    out.append(marker: 0x10 | UInt8(width.trailingZeroBitCount), bigEndian: low, width: width)
                    hash = DedupTable.mix(low ^ 0x10)
                }
            case .real(let x):
                out.append(marker: 0x23, bigEndian: x.bitPattern, width: 8)
                hash = DedupTable.mix(x.bitPattern ^ 0x23)
            case .date(let x):
                let bits = x.timeIntervalSinceReferenceDate.bitPattern
                out.append(marker: 0x33, bigEndian: bits, width: 8)
                hash = DedupTable.mix(bits ^ 0x33)
            case .uid(let x):
                let width = unsignedWidth(x)
                out.append(marker: 0x80 | UInt8(width &- 1), bigEndian: x, width: width)
                hash = DedupTable.mix(x ^ 0x80)
            case .data(let x):
                appendHeader(&out, 0x40, x.count)
                let summary = out.appendSummarizing(x)
                hash = summary.hash ^ 0x40
            case .string(let x):
                // Written as ASCII while hashed; rewritten as UTF-16 when it was not.
                hash = x.withUTF8Span { bytes in
                    appendHeader(&out, 0x50, bytes.count)
                    let summary = out.appendSummarizing(bytes)
                    if !summary.isASCII {
                        out.truncate(start)
                        appendHeader(&out, 0x60, ByteArena.utf16Units(bytes))
                        for unit in x.string.utf16 { out.append(bigEndian: UInt64(unit), width: 2) }
                    }
                    return summary.hash
                }
            case .array, .set, .dictionary:
                return nil
            }
            // A repeat: the same bytes as an object written before. (Hashes differ by kind, and equal
            // encodings are of one kind, so equal objects always meet here.)
            let end = out.count
            let p = table.probe(
                hash,
                where: { id in
                    let s = starts[id]
                    let e = id &+ 1 < starts.count ? starts[id &+ 1] : start
                    return out.equal(s, e &- s, start, end &- start)
                })
            if p >= 0 {
                out.truncate(start)
                ids.append(Int32(truncatingIfNeeded: p))
            } else {
                let id = Int32(truncatingIfNeeded: starts.count)
                starts.append(start)
                ids.append(id)
                table.fill(p, hash, id)
            }
        }
        // The root, at 8, in the bytes it needs; the objects move down over the rest of its room.
        let count = starts.count &+ 1
        let refSize = tableWidth(UInt64(count), widths)
        let rootSize = countHeader(n) &+ refSize &* n
        let shift = rootRoom &- rootSize
        out.remove(objectsStart &- shift, objectsStart)
        var at = BinaryPlistTrailer.headerSize
        if n < 15 {
            out.store(bigEndian: UInt64(marker | UInt8(n)), width: 1, at: at)
            at &+= 1
        } else {
            let width = unsignedWidth(UInt64(n))
            out.store(bigEndian: UInt64(marker | 0x0F), width: 1, at: at)
            out.store(bigEndian: UInt64(0x10 | UInt8(width.trailingZeroBitCount)), width: 1, at: at &+ 1)
            out.store(bigEndian: UInt64(n), width: width, at: at &+ 2)
            at &+= 2 &+ width
        }
        for id in ids {
            // Object 0 is the root; the distinct elements follow in order of first occurrence.
            out.store(bigEndian: UInt64(id) &+ 1, width: refSize, at: at)
            at &+= refSize
        }
        let tableOffset = out.count
        let offsetSize = tableWidth(UInt64(tableOffset), widths)
        out.append(bigEndian: UInt64(BinaryPlistTrailer.headerSize), width: offsetSize)
        for s in starts { out.append(bigEndian: UInt64(s &- shift), width: offsetSize) }
        // Trailer: 5 unused bytes, sort version, widths, count, top object (0), table offset.
        out.append(zeros: 6)
        out.append(byte: UInt8(offsetSize))
        out.append(byte: UInt8(refSize))
        out.append(bigEndian: UInt64(count), width: 8)
        out.append(bigEndian: 0, width: 8)
        out.append(bigEndian: UInt64(tableOffset), width: 8)
        return out.finish()
    }

    /// A marker whose low nibble is the count, or 0xF followed by an int object with the count.
    @inline(__always)
    static func appendHeader(_ out: inout GrowableWriter, _ high: UInt8, _ count: Int) {
        if count < 15 {
            out.append(byte: high | UInt8(count))
        } else {
            let width = unsignedWidth(UInt64(count))
            out.append(byte: high | 0x0F)
            out.append(marker: 0x10 | UInt8(width.trailingZeroBitCount), bigEndian: UInt64(count), width: width)
        }
    }

    /// Bytes an integer payload takes (1, 2, 4, 8 or 16).
    static func integerWidth(_ v: PlistInteger) -> Int {
        if v.high == 0 {
            // Non-negative: the smallest unsigned width below 2^32, else 8 bytes while it fits Int64.
            if v.low <= 0xFFFF_FFFF { return unsignedWidth(v.low) }
            return v.low <= UInt64(Int64.max) ? 8 : 16
        }
        return v.fitsInt64 ? 8 : 16  // negative values are written in 8 bytes (as Apple does), or 16
    }

    /// Smallest of 1, 2, 4, 8 bytes that holds `v` unsigned.
    static func unsignedWidth(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    /// Bytes needed for `v` unsigned under `widths`.
    static func tableWidth(_ v: UInt64, _ widths: BinaryPlistWidths) -> Int {
        switch widths {
        case .powersOfTwo: return unsignedWidth(v)
        case .compact: return max(1, (64 &- v.leadingZeroBitCount &+ 7) / 8)
        }
    }

    /// Bytes of a marker with a count: the marker, plus an int object when the count is 15 or more.
    static func countHeader(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + unsignedWidth(UInt64(count))
    }

    /// Encodes the objects of `b` reachable from `root`.
    static func emit(_ b: ObjectTableBuilder, root: Int, widths: BinaryPlistWidths) -> Data {
        let objects = b.objects
        let children = b.children
        // 1. Pre-order numbering from the root (iterative; a shared object keeps its first number),
        //    summing the objects' sizes apart from their references, and the references. Only
        //    containers are stacked: a scalar child is numbered when its parent's walk reaches it.
        var number = [Int32](repeating: -1, count: objects.count)
        var order: [Int32] = []
        order.reserveCapacity(objects.count)
        var position = BinaryPlistTrailer.headerSize
        var references = 0
        var open: [(next: Int, end: Int)] = []
        var next = 0
        var end = 0
        var id = Int32(truncatingIfNeeded: root)
        do {
            // Numbered through a span: no uniqueness check of the array per object.
            var numbers = number.mutableSpan
            while true {
                numbers[Int(id)] = Int32(truncatingIfNeeded: order.count)
                order.append(id)
                let e = objects[Int(id)]
                switch e.kind {
                case .null, .bool, .forwarded: position &+= 1
                case .integer: position &+= 1 &+ e.count
                case .real, .date: position &+= 9
                case .float: position &+= 5
                case .uid: position &+= 1 &+ unsignedWidth(e.a)
                case .data, .ascii: position &+= countHeader(e.count) &+ e.count
                case .utf16:
                    let units = b.arena.word(e.start &- 8)
                    position &+= countHeader(Int(units)) &+ 2 &* Int(units)
                case .array, .set, .dictionary:
                    position &+= countHeader(e.kind == .dictionary ? e.count / 2 : e.count)
                    references &+= e.count
                    open.append((next, end))
                    next = e.start
                    end = e.start &+ e.count
                }
                // The next child not numbered yet, of the innermost container that has one.
                while true {
                    while next < end && numbers[Int(children[next])] >= 0 { next &+= 1 }
                    if next < end { break }
                    guard let (n, e) = open.popLast() else { break }
                    next = n
                    end = e
                }
                guard next < end else { break }
                id = children[next]
                next &+= 1
            }
        }
        let count = order.count
        let refSize = tableWidth(UInt64(count), widths)

        // 2. Where the offset table goes, and its width.
        let tableOffset = position &+ refSize &* references
        let offsetSize = tableWidth(UInt64(tableOffset), widths)
        let total = tableOffset + count * offsetSize + BinaryPlistTrailer.size

        // 3. Emit into one buffer of exactly `total` bytes.
        var w = ByteWriter(capacity: total)
        // The offset table is filled in place as the objects are written.
        w.prepareTable(at: tableOffset, count: count, width: offsetSize)
        w.appendBigEndian(0x6270_6c69_7374_3030, width: 8)  // "bplist00"
        for n in 0..<count {
            w.setTableEntry(n, w.position)
            let e = objects[Int(order[n])]
            switch e.kind {
            case .null, .forwarded: w.append(0x00)
            case .bool: w.append(e.a != 0 ? 0x09 : 0x08)
            case .integer:
                let width = e.count
                if width == 16 {
                    w.appendScalar(0x14, b.arena.word(e.start), width: 8)
                    w.appendBigEndian(b.arena.word(e.start &+ 8), width: 8)
                } else {
                    w.appendScalar(0x10 | UInt8(width.trailingZeroBitCount), e.a, width: width)
                }
            case .real: w.appendScalar(0x23, e.a, width: 8)
            case .float: w.appendScalar(0x22, e.a, width: 4)
            case .date: w.appendScalar(0x33, e.a, width: 8)
            case .uid:
                let width = unsignedWidth(e.a)
                w.appendScalar(0x80 | UInt8(width &- 1), e.a, width: width)
            case .data:
                w.appendMarker(0x40, count: e.count)
                w.append(b.arena, start: e.start, count: e.count)
            case .ascii:
                w.appendMarker(0x50, count: e.count)
                w.append(b.arena, start: e.start, count: e.count)
            case .utf16:
                let units = Int(b.arena.word(e.start &- 8))
                w.appendMarker(0x60, count: units)
                w.appendUTF16BE(b.arena, start: e.start, count: e.count, units: units)
            case .array, .set, .dictionary:
                let marker: UInt8 = e.kind == .array ? 0xA0 : e.kind == .set ? 0xC0 : 0xD0
                w.appendMarker(marker, count: e.kind == .dictionary ? e.count / 2 : e.count)
                w.appendReferences(children, start: e.start, count: e.count, number: number, width: refSize)
            }
        }
        // Internal invariant: the sizes above are the ones just written.
        precondition(w.position == tableOffset, "objects sized \(tableOffset) bytes but took \(w.position)")
        w.skipTable()
        // Trailer: 5 unused bytes, sort version, widths, count, top object (0), table offset.
        w.appendBigEndian(0, width: 6)
        w.append(UInt8(offsetSize))
        w.append(UInt8(refSize))
        w.appendBigEndian(UInt64(count), width: 8)
        w.appendBigEndian(0, width: 8)
        w.appendBigEndian(UInt64(tableOffset), width: 8)
        return w.finish()
    }
}

extension ObjectTableBuilder {
    /// A container whose children are being added: arrays and sets from `list`, dictionaries from
    /// `entries` (keys 0 ..< n, then values n ..< 2n). Their ids collect on a stack from `base`.
    private struct Frame {
        var kind: Kind
        var list: [PlistValue]
        var entries: [PlistDictionary.Element]
        var next = 0
        var end: Int
        var base: Int
        /// The storage identity (see `add(_:)`), 0 when not recorded.
        var identity: UInt64
        /// Objects visited before this container, to tell how large its sub-tree was.
        var visitedBefore: Int

        init(_ kind: Kind, list: [PlistValue], base: Int, identity: UInt64, visited: Int) {
            self.kind = kind
            self.list = list
            self.entries = []
            self.end = list.count
            self.base = base
            self.identity = identity
            self.visitedBefore = visited
        }

        init(entries: [PlistDictionary.Element], base: Int, identity: UInt64, visited: Int) {
            self.kind = .dictionary
            self.list = []
            self.entries = entries
            self.end = 2 &* entries.count
            self.base = base
            self.identity = identity
            self.visitedBefore = visited
        }
    }

    /// Containers with at least this many objects in their sub-tree are remembered by storage, so a
    /// shared one is walked once; smaller ones are walked again where they recur (each such walk costs
    /// less than this bound per reference, so the total stays linear in the input).
    private static let rememberedSubtree = 64

    /// Adds a whole value tree, iteratively: deep trees cannot overflow the stack.
    public mutating func add(_ value: PlistValue) throws(PlistError) -> BuilderRef {
        var current: Frame
        switch value {
        case .array(let xs): current = Frame(.array, list: xs, base: 0, identity: 0, visited: 0)
        case .set(let xs): current = Frame(.set, list: xs, base: 0, identity: 0, visited: 0)
        case .dictionary(let d): current = Frame(entries: d.entries, base: 0, identity: 0, visited: 0)
        default: return addScalar(value)
        }
        // Sized for the root's children at once (exact for a flat array or dictionary).
        reserve(objects: current.end &+ 1, sizing: true)
        // Child ids of the open containers, innermost last.
        var refs = IdStack()
        refs.ids.reserveCapacity(current.end)
        var parents: [Frame] = []
        // Large containers already added, by storage: a shared sub-tree (copies of one array) is added
        // once, so a DAG costs its size, not the size of its expansion. The key is the storage address
        // with the kind in its low bits (storage is at least 8-byte aligned).
        var added: [UInt64: Int32] = [:]
        var visited = 0
        while true {
            if current.next == Self.sampledChildren, parents.isEmpty, current.end > 2 &* Self.sampledChildren {
                // The root's first children tell how much the rest will add: the tables are sized once
                // for all of it (objects, child ids, payload bytes and the dedup table), so that a large
                // tree is not rehashed and copied at every doubling, which made encoding slower per
                // byte as the tree grew (the scale curve: 179 MB/s at 1 MB, 88 MB/s at 1 GB).
                reserveRest(of: current.end &- Self.sampledChildren)
            }
            if current.next < current.end {
                let i = current.next
                current.next &+= 1
                visited &+= 1
                let v: PlistValue
                if current.kind == .dictionary {
                    let n = current.entries.count
                    v = i < n ? current.entries[i].key : current.entries[i &- n].value
                } else {
                    v = current.list[i]
                }
                let next: Frame
                switch v {
                case .null: refs.append(addNull().id)
                case .bool(let x): refs.append(addBool(x).id)
                case .integer(let x): refs.append(addInteger(x).id)
                case .real(let x): refs.append(addReal(x).id)
                case .date(let x): refs.append(addDate(x).id)
                case .data(let x): refs.append(addData(x).id)
                case .string(let x): refs.append(addString(x).id)
                case .uid(let x): refs.append(addUID(x).id)
                case .array(let xs):
                    let key = UInt64(StorageIdentity.of(xs)) | 1
                    if !added.isEmpty, let id = added[key] {
                        refs.append(id)
                        continue
                    }
                    next = Frame(.array, list: xs, base: refs.count, identity: key, visited: visited)
                    parents.append(current)
                    current = next
                case .set(let xs):
                    let key = UInt64(StorageIdentity.of(xs)) | 2
                    if !added.isEmpty, let id = added[key] {
                        refs.append(id)
                        continue
                    }
                    next = Frame(.set, list: xs, base: refs.count, identity: key, visited: visited)
                    parents.append(current)
                    current = next
                case .dictionary(let d):
                    let key = UInt64(StorageIdentity.of(d.entries)) | 3
                    if !added.isEmpty, let id = added[key] {
                        refs.append(id)
                        continue
                    }
                    next = Frame(entries: d.entries, base: refs.count, identity: key, visited: visited)
                    parents.append(current)
                    current = next
                }
            } else {
                // The children's ids are this builder's own (valid by construction): no checks.
                let start = children.count
                children.append(contentsOf: refs.ids[current.base..<refs.count])
                refs.count = current.base
                let r = finishContainer(current.kind, start)
                guard let parent = parents.popLast() else { return r }
                if visited &- current.visitedBefore >= Self.rememberedSubtree {
                    added[current.identity] = r.id
                }
                refs.append(r.id)
                current = parent
            }
        }
    }

    /// A stack of ids that keeps its storage when popped: `ids[0 ..< count]`.
    private struct IdStack {
        var ids: [Int32] = []
        var count = 0

        @inline(__always)
        mutating func append(_ id: Int32) {
            if count == ids.count { ids.append(id) } else { ids[count] = id }
            count &+= 1
        }
    }

    private mutating func addScalar(_ v: PlistValue) -> BuilderRef {
        switch v {
        case .null: return addNull()
        case .bool(let x): return addBool(x)
        case .integer(let x): return addInteger(x)
        case .real(let x): return addReal(x)
        case .date(let x): return addDate(x)
        case .data(let x): return addData(x)
        case .string(let x): return addString(x)
        case .uid(let x): return addUID(x)
        case .array, .set, .dictionary: preconditionFailure("containers are added by add(_:)")  // Internal invariant.
        }
    }
}
