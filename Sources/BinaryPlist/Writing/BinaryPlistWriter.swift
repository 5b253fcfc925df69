// Sources/BinaryPlist/Writing/BinaryPlistWriter.swift - Writes PlistValue trees and builder tables as bplist00.

public import FoundationEssentials

/// Writes property lists in the binary format.
///
/// ```swift
/// let bytes = try BinaryPlistWriter().write(["name": "Ada", "age": 36])
/// let packed = try BinaryPlistWriter(compression: .zlib(level: 1)).write(value)
/// ```
///
/// Output is deterministic: the same value always gives the same bytes. Equal values are written
/// once (strings by content; integers, reals, dates, data, UIDs and booleans by value, reals by bit
/// pattern; equal arrays, sets and dictionaries too). The root is object 0, objects follow in
/// depth-first pre-order, and reference and offset widths are the smallest of 1, 2, 4 and 8 bytes
/// that fit. Foundation's `PropertyListSerialization` and Python's `plistlib` read the result.
public struct BinaryPlistWriter: Sendable {
    /// An optional envelope around the written property list.
    public enum Compression: Sendable, Hashable {
        case none
        /// A zlib stream (RFC 1950) at `level` 0...9 (-1 = zlib's default).
        case zlib(level: Int)
    }

    /// Write equal values once (default `true`).
    public var deduplicate: Bool
    /// Envelope of the output (default none).
    public var compression: Compression

    public init(deduplicate: Bool = true, compression: Compression = .none) {
        self.deduplicate = deduplicate
        self.compression = compression
    }

    /// Encodes a value tree.
    ///
    /// - Throws: `unencodable` for values the format cannot hold; `compression` if zlib fails.
    public func write(_ value: PlistValue) throws(BinaryPlistError) -> Data {
        var builder = ObjectTableBuilder(deduplicate: deduplicate)
        let root = try builder.add(value)
        let plain = try builder.finish(root: root)
        switch compression {
        case .none: return plain
        case .zlib(let level): return try Zlib.deflate(plain, level: level)
        }
    }

    /// True when every scalar of `s` is ASCII.
    static func isASCII(_ s: String) -> Bool { ByteHash.isASCII(s) }

    /// Bytes an integer payload takes (1, 2, 4, 8 or 16).
    static func integerWidth(_ v: Int128) -> Int {
        if v >= 0 && v <= 0xFF { return 1 }
        if v >= 0 && v <= 0xFFFF { return 2 }
        if v >= 0 && v <= 0xFFFF_FFFF { return 4 }
        if v >= Int128(Int64.min) && v <= Int128(Int64.max) { return 8 }
        return 16
    }

    /// Smallest of 1, 2, 4, 8 bytes that holds `v` unsigned.
    static func unsignedWidth(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    /// Bytes of a marker with a count: the marker, plus an int object when the count is 15 or more.
    static func countHeader(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + unsignedWidth(UInt64(count))
    }

    /// Encodes the objects of `b` reachable from `root`.
    static func emit(_ b: ObjectTableBuilder, root: Int) -> Data {
        // 1. Pre-order numbering from the root (iterative; a shared object keeps its first number).
        var number = [Int32](repeating: -1, count: b.kinds.count)
        var order: [Int32] = []
        order.reserveCapacity(b.kinds.count)
        var stack: [Int32] = [Int32(root)]
        while let id = stack.popLast() {
            if number[Int(id)] >= 0 { continue }
            number[Int(id)] = Int32(order.count)
            order.append(id)
            switch b.kinds[Int(id)] {
            case .array, .set, .dictionary:
                let r = b.ranges[b.payloads[Int(id)]]
                var i = r.start + r.count
                while i > r.start {
                    i -= 1
                    if number[Int(b.children[i])] < 0 { stack.append(b.children[i]) }
                }
            default: break
            }
        }
        let count = order.count
        let refSize = count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : count <= 0xFFFF_FFFF ? 4 : 8

        // 2. Sizes and offsets.
        var offsets = [Int](repeating: 0, count: count)
        var position = BinaryPlistTrailer.headerSize
        for (n, id) in order.enumerated() {
            offsets[n] = position
            let p = b.payloads[Int(id)]
            switch b.kinds[Int(id)] {
            case .null, .bool: position += 1
            case .integer: position += 1 + integerWidth(b.integers[p])
            case .real, .date: position += 9
            case .float: position += 5
            case .uid: position += 1 + unsignedWidth(b.bits[p])
            case .data: position += countHeader(b.datas[p].count) + b.datas[p].count
            case .ascii: position += countHeader(b.stringLengths[p]) + b.stringLengths[p]
            case .utf16: position += countHeader(b.stringLengths[p]) + 2 * b.stringLengths[p]
            case .array, .set: position += countHeader(b.ranges[p].count) + refSize * b.ranges[p].count
            case .dictionary: position += countHeader(b.ranges[p].count / 2) + refSize * b.ranges[p].count
            }
        }
        let tableOffset = position
        let offsetSize = unsignedWidth(UInt64(tableOffset))
        let total = tableOffset + count * offsetSize + BinaryPlistTrailer.size

        // 3. Emit into one buffer of exactly `total` bytes.
        var w = ByteWriter(capacity: total)
        w.appendBigEndian(0x6270_6c69_7374_3030, width: 8)  // "bplist00"
        for id in order {
            let p = b.payloads[Int(id)]
            switch b.kinds[Int(id)] {
            case .null: w.append(0x00)
            case .bool: w.append(b.bits[p] != 0 ? 0x09 : 0x08)
            case .integer:
                let v = b.integers[p]
                let width = integerWidth(v)
                w.append(0x10 | UInt8(width.trailingZeroBitCount))
                if width == 16 {
                    w.appendBigEndian(UInt64(truncatingIfNeeded: v >> 64), width: 8)
                    w.appendBigEndian(UInt64(truncatingIfNeeded: v), width: 8)
                } else {
                    w.appendBigEndian(UInt64(truncatingIfNeeded: v), width: width)
                }
            case .real:
                w.append(0x23)
                w.appendBigEndian(b.bits[p], width: 8)
            case .float:
                w.append(0x22)
                w.appendBigEndian(b.bits[p], width: 4)
            case .date:
                w.append(0x33)
                w.appendBigEndian(b.bits[p], width: 8)
            case .uid:
                let width = unsignedWidth(b.bits[p])
                w.append(0x80 | UInt8(width &- 1))
                w.appendBigEndian(b.bits[p], width: width)
            case .data:
                w.appendMarker(0x40, count: b.datas[p].count)
                w.append(b.datas[p])
            case .ascii:
                w.appendMarker(0x50, count: b.stringLengths[p])
                w.appendASCII(b.strings[p])
            case .utf16:
                w.appendMarker(0x60, count: b.stringLengths[p])
                w.appendUTF16BE(b.strings[p], units: b.stringLengths[p])
            case .array, .set, .dictionary:
                let r = b.ranges[p]
                let kind = b.kinds[Int(id)]
                let marker: UInt8 = kind == .array ? 0xA0 : kind == .set ? 0xC0 : 0xD0
                w.appendMarker(marker, count: kind == .dictionary ? r.count / 2 : r.count)
                for i in r.start..<r.start &+ r.count {
                    w.appendBigEndian(UInt64(number[Int(b.children[i])]), width: refSize)
                }
            }
        }
        for off in offsets { w.appendBigEndian(UInt64(off), width: offsetSize) }
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
    /// Adds a whole value tree, iteratively: deep trees cannot overflow the stack.
    public mutating func add(_ value: PlistValue) throws(BinaryPlistError) -> BuilderRef {
        /// A container whose children are being added; their refs collect on `refs` from `base`.
        struct Frame {
            var kind: Kind
            var elements: [PlistValue]
            var dictionary: PlistDictionary
            var value: PlistValue {
                switch kind {
                case .array: .array(elements)
                case .set: .set(elements)
                default: .dictionary(dictionary)
                }
            }
            var next = 0
            var base: Int
            /// Dictionaries visit keys (0 ..< n), then values (n ..< 2n).
            var total: Int {
                kind == .dictionary ? 2 &* dictionary.count : elements.count
            }
            func child(_ i: Int) -> PlistValue {
                guard kind == .dictionary else { return elements[i] }
                let n = dictionary.count
                return i < n ? dictionary[i].key : dictionary[i &- n].value
            }
        }
        var refs: [BuilderRef] = []
        var parents: [Frame] = []
        // Containers already added, by storage: a shared sub-tree (copies of one array) is added once,
        // so a DAG costs its size, not the size of its expansion.
        var added: [PlistValue.PairIdentity: BuilderRef] = [:]
        func identity(_ v: PlistValue) -> PlistValue.PairIdentity? {
            switch v {
            case .array(let x): PlistValue.PairIdentity(kind: 0, a: StorageIdentity.of(x), b: 0)
            case .set(let x): PlistValue.PairIdentity(kind: 1, a: StorageIdentity.of(x), b: 0)
            case .dictionary(let d): PlistValue.PairIdentity(kind: 2, a: StorageIdentity.of(d.entries), b: 0)
            default: nil
            }
        }
        var current: Frame
        switch value {
        case .array(let xs): current = Frame(kind: .array, elements: xs, dictionary: PlistDictionary(), base: 0)
        case .set(let xs): current = Frame(kind: .set, elements: xs, dictionary: PlistDictionary(), base: 0)
        case .dictionary(let d): current = Frame(kind: .dictionary, elements: [], dictionary: d, base: 0)
        default: return addScalar(value)
        }
        while true {
            if current.next < current.total {
                let v = current.child(current.next)
                current.next &+= 1
                if let id = identity(v), let r = added[id] {
                    refs.append(r)
                    continue
                }
                switch v {
                case .array(let xs):
                    parents.append(current)
                    current = Frame(kind: .array, elements: xs, dictionary: PlistDictionary(), base: refs.count)
                case .set(let xs):
                    parents.append(current)
                    current = Frame(kind: .set, elements: xs, dictionary: PlistDictionary(), base: refs.count)
                case .dictionary(let d):
                    parents.append(current)
                    current = Frame(kind: .dictionary, elements: [], dictionary: d, base: refs.count)
                default:
                    refs.append(addScalar(v))
                }
            } else {
                let r = try addContainer(current.kind, refs[current.base...])
                refs.removeSubrange(current.base...)
                if let id = identity(current.value) { added[id] = r }
                guard let parent = parents.popLast() else { return r }
                refs.append(r)
                current = parent
            }
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
