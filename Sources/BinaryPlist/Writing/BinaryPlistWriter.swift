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

    /// True when every scalar of `s` is ASCII (native strings know this without a scan).
    static func isASCII(_ s: String) -> Bool {
        let span = s.utf8Span
        if span.isKnownASCII { return true }
        return s.utf8.allSatisfy { $0 < 0x80 }
    }

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
            case .ascii: position += countHeader(b.utf16Counts[p]) + b.utf16Counts[p]
            case .utf16: position += countHeader(b.utf16Counts[p]) + 2 * b.utf16Counts[p]
            case .array, .set: position += countHeader(b.ranges[p].count) + refSize * b.ranges[p].count
            case .dictionary: position += countHeader(b.ranges[p].count / 2) + refSize * b.ranges[p].count
            }
        }
        let tableOffset = position
        let offsetSize = unsignedWidth(UInt64(tableOffset))
        let total = tableOffset + count * offsetSize + BinaryPlistTrailer.size

        // 3. Emit.
        var w = ByteWriter(capacity: total)
        w.append(contentsOf: Array("bplist00".utf8))
        for id in order {
            let p = b.payloads[Int(id)]
            switch b.kinds[Int(id)] {
            case .null: w.append(0x00)
            case .bool: w.append(p != 0 ? 0x09 : 0x08)
            case .integer:
                let v = b.integers[p]
                let width = integerWidth(v)
                switch width {
                case 1: w.append(0x10)
                case 2: w.append(0x11)
                case 4: w.append(0x12)
                case 8: w.append(0x13)
                default: w.append(0x14)
                }
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
                w.append(0x80 | UInt8(width - 1))
                w.appendBigEndian(b.bits[p], width: width)
            case .data:
                w.appendMarker(0x40, count: b.datas[p].count)
                w.append(b.datas[p])
            case .ascii:
                w.appendMarker(0x50, count: b.utf16Counts[p])
                w.append(contentsOf: b.strings[p].utf8)
            case .utf16:
                w.appendMarker(0x60, count: b.utf16Counts[p])
                for unit in b.strings[p].utf16 { w.appendBigEndian(UInt64(unit), width: 2) }
            case .array, .set, .dictionary:
                let r = b.ranges[p]
                let kind = b.kinds[Int(id)]
                let marker: UInt8 = kind == .array ? 0xA0 : kind == .set ? 0xC0 : 0xD0
                w.appendMarker(marker, count: kind == .dictionary ? r.count / 2 : r.count)
                for i in r.start..<r.start + r.count {
                    w.appendBigEndian(UInt64(number[Int(b.children[i])]), width: refSize)
                }
            }
        }
        for off in offsets { w.appendBigEndian(UInt64(off), width: offsetSize) }
        // Trailer: 5 unused bytes, sort version, widths, count, top object (0), table offset.
        w.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        w.appendBigEndian(UInt64(count), width: 8)
        w.appendBigEndian(0, width: 8)
        w.appendBigEndian(UInt64(tableOffset), width: 8)
        assert(w.bytes.count == total)
        return Data(w.bytes)
    }
}

extension ObjectTableBuilder {
    /// Adds a whole value tree (iteratively: deep trees cannot overflow the stack).
    public mutating func add(_ value: PlistValue) throws(BinaryPlistError) -> BuilderRef {
        // Work items: visit a value, or assemble a container from the refs its children produced.
        enum Item {
            case visit(PlistValue)
            case assemble(PlistValue, childCount: Int)
        }
        var work: [Item] = [.visit(value)]
        var results: [BuilderRef] = []
        while let item = work.popLast() {
            switch item {
            case .visit(let v):
                switch v {
                case .null: results.append(addNull())
                case .bool(let x): results.append(addBool(x))
                case .integer(let x): results.append(addInteger(x))
                case .real(let x): results.append(addReal(x))
                case .date(let x): results.append(addDate(x))
                case .data(let x): results.append(addData(x))
                case .string(let x): results.append(addString(x))
                case .uid(let x): results.append(addUID(x))
                case .array(let xs), .set(let xs):
                    work.append(.assemble(v, childCount: xs.count))
                    for x in xs.reversed() { work.append(.visit(x)) }
                case .dictionary(let d):
                    work.append(.assemble(v, childCount: 2 * d.count))
                    for x in d.values.reversed() { work.append(.visit(x)) }
                    for x in d.keys.reversed() { work.append(.visit(x)) }
                }
            case .assemble(let v, let n):
                let refs = Array(results[(results.count - n)...])
                results.removeLast(n)
                switch v {
                case .array: results.append(try addArray(refs))
                case .set: results.append(try addSet(refs))
                default:
                    let half = n / 2
                    results.append(try addDictionary(keys: Array(refs[..<half]), values: Array(refs[half...])))
                }
            }
        }
        // Exactly one result remains: every visit pushes one, every assemble replaces n by one.
        guard let root = results.last else {
            throw BinaryPlistError(.unencodable, "empty value tree")
        }
        return root
    }
}

/// Big-endian appends into a byte array sized in advance (plain, bounds-checked appends).
struct ByteWriter {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always) mutating func append(_ b: UInt8) { bytes.append(b) }
    @inline(__always) mutating func append(contentsOf s: some Sequence<UInt8>) { bytes.append(contentsOf: s) }
    @inline(__always) mutating func append(_ d: Data) { bytes.append(contentsOf: d) }

    @inline(__always) mutating func appendBigEndian(_ v: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A marker whose low nibble is the count, or 0xF followed by an int object with the count.
    @inline(__always) mutating func appendMarker(_ high: UInt8, count: Int) {
        if count < 15 {
            bytes.append(high | UInt8(count))
        } else {
            bytes.append(high | 0x0F)
            let width = BinaryPlistWriter.unsignedWidth(UInt64(count))
            bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
            appendBigEndian(UInt64(count), width: width)
        }
    }
}
