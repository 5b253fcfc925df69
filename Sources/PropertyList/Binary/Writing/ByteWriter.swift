// Sources/PropertyList/Binary/Writing/ByteWriter.swift - The write-side unsafe fence: the fixed-size output buffer.
//
// Two ways out: `ByteWriter` fills one allocation whose size the tree writer computed before writing a
// byte, and `GrowableWriter` (the flat fast path, the inflater) grows its block with `realloc` as it
// goes. Every store checks `position + n <= capacity` with a precondition: the sizes come from the
// writer's own tables (input cannot influence whether they agree), so a failure would be a bug in this
// package, and it stops before memory is touched.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// Stores the low `width` (1...8) bytes of `v` big-endian at p: the one big-endian store of the
/// writer's buffers (`ByteWriter`, `GrowableWriter`). The caller has reserved p ..< p + width.
@inline(__always)
func storeBigEndianValue(_ v: UInt64, width: Int, at p: UnsafeMutableRawPointer) {
    switch width {
    case 1: unsafe p.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
    case 2: unsafe p.storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, as: UInt16.self)
    case 4: unsafe p.storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, as: UInt32.self)
    case 8: unsafe p.storeBytes(of: v.bigEndian, as: UInt64.self)
    default:
        precondition(width >= 1 && width <= 8, "width \(width)")
        // width < 8: bytes p ..< p + width, within the caller's reservation.
        for i in 0..<width {
            unsafe p.storeBytes(
                of: UInt8(truncatingIfNeeded: v >> UInt64(8 &* (width &- 1 &- i))), toByteOffset: i, as: UInt8.self)
        }
    }
}

/// Writes big-endian values into one allocation of a size fixed in advance, handed over as `Data`
/// without a copy.
@safe struct ByteWriter: ~Copyable {
    /// A `malloc`ed block of `capacity` bytes or more (`SpareBlock.allocate`), owned by the writer until
    /// `finish()` hands it to `Data`; given back by `deinit` otherwise.
    private let buffer: UnsafeMutableRawBufferPointer
    private(set) var position = 0
    let capacity: Int
    /// The offset table, written out of order by `setTableEntry` while the objects are appended.
    private var tableStart = 0
    private var tableCount = 0
    private var tableWidth = 1

    init(capacity: Int) {
        self.capacity = capacity
        guard let block = unsafe SpareBlock.allocate(capacity) else {
            preconditionFailure("out of memory (\(capacity) bytes)")
        }
        unsafe buffer = UnsafeMutableRawBufferPointer(start: block.base, count: block.size)
    }

    deinit {
        if let base = unsafe buffer.baseAddress { unsafe SpareBlock.give(base, size: buffer.count) }
    }

    /// The written bytes; all `capacity` of them must have been written.
    consuming func finish() -> Data {
        precondition(position == capacity, "writer sized \(capacity) bytes but wrote \(position)")
        let b = unsafe buffer
        let n = capacity
        discard self
        // `Data` takes the block, and gives it back when it is freed.
        guard let base = b.baseAddress else { return Data() }
        return unsafe SpareBlock.data(SpareBlock.Block(base: base, size: b.count), count: n)
    }

    /// Runs `body` with a pointer to the next `n` bytes, then advances past them.
    @inline(__always)
    private mutating func store(_ n: Int, _ body: (UnsafeMutableRawPointer) -> Void) {
        precondition(n >= 0 && position <= capacity &- n, "writer overflow: \(n) bytes at \(position) of \(capacity)")
        // In bounds: position + n <= capacity <= buffer.count (precondition above).
        if let base = unsafe buffer.baseAddress { unsafe body(base + position) }
        position &+= n
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        unsafe store(1) { p in unsafe p.storeBytes(of: byte, as: UInt8.self) }
    }

    /// The low `width` bytes of `v` (1...8), most significant first.
    @inline(__always)
    mutating func appendBigEndian(_ v: UInt64, width: Int) {
        // `width` bytes are reserved at p.
        unsafe store(width) { p in unsafe storeBigEndianValue(v, width: width, at: p) }
    }

    /// A marker byte followed by the low `width` bytes of `v` (1, 2, 4 or 8), most significant first.
    @inline(__always)
    mutating func appendScalar(_ marker: UInt8, _ v: UInt64, width: Int) {
        unsafe store(1 &+ width) { p in
            // 1 + width bytes are reserved: the marker at 0, the value at 1 ..< 1 + width.
            unsafe p.storeBytes(of: marker, as: UInt8.self)
            switch width {
            case 1: unsafe p.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: 1, as: UInt8.self)
            case 2: unsafe p.storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, toByteOffset: 1, as: UInt16.self)
            case 4: unsafe p.storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, toByteOffset: 1, as: UInt32.self)
            default:
                precondition(width == 8, "scalar width \(width)")
                unsafe p.storeBytes(of: v.bigEndian, toByteOffset: 1, as: UInt64.self)
            }
        }
    }

    /// Places a table of `count` entries of `width` (1...8) bytes at `start`, zero-filled at once (so
    /// no byte of the output is ever left unwritten), for `setTableEntry`; `skipTable` steps over it.
    mutating func prepareTable(at start: Int, count: Int, width: Int) {
        precondition(
            width >= 1 && width <= 8 && count >= 0 && start >= position && count <= (capacity &- start) / width,
            "table of \(count) × \(width) bytes at \(start) outside \(capacity)")
        tableStart = start
        tableCount = count
        tableWidth = width
        // start ..< start + count × width lies inside the buffer (precondition above).
        if let base = unsafe buffer.baseAddress {
            unsafe (base + start).initializeMemory(as: UInt8.self, repeating: 0, count: count &* width)
        }
    }

    /// Entry `k` of the prepared table: `v` big-endian in the table's width.
    @inline(__always)
    mutating func setTableEntry(_ k: Int, _ v: Int) {
        precondition(k >= 0 && k < tableCount, "table entry \(k) of \(tableCount)")
        let width = tableWidth
        let at = tableStart &+ k &* width
        guard let base = unsafe buffer.baseAddress else { return }
        // at ..< at + width lies inside the table (k < tableCount), hence inside the buffer.
        unsafe storeBigEndianValue(UInt64(truncatingIfNeeded: v), width: width, at: base + at)
    }

    /// Steps over the prepared table, which must come next.
    mutating func skipTable() {
        precondition(position == tableStart, "table at \(tableStart), writer at \(position)")
        position &+= tableCount &* tableWidth
    }

    /// The references `number[children[start + k]]` for k in 0 ..< count, `width` bytes each.
    mutating func appendReferences(_ children: [Int32], start: Int, count: Int, number: [Int32], width: Int) {
        unsafe store(count &* width) { p in
            // Entry k is stored at k × width ..< (k + 1) × width, inside the count × width reserved; the
            // array subscripts are checked.
            unsafe Self.storeBigEndian(p, count: count, width: width) { Int(number[Int(children[start &+ $0])]) }
        }
    }

    /// Stores `value(k)` for k in 0 ..< count at `p + k × width`; the caller reserved count × width bytes.
    @inline(__always)
    private static func storeBigEndian(
        _ p: UnsafeMutableRawPointer, count: Int, width: Int, _ value: (Int) -> Int
    ) {
        switch width {
        case 1:
            for k in 0..<count {
                unsafe p.storeBytes(of: UInt8(truncatingIfNeeded: value(k)), toByteOffset: k, as: UInt8.self)
            }
        case 2:
            for k in 0..<count {
                unsafe p.storeBytes(
                    of: UInt16(truncatingIfNeeded: value(k)).bigEndian, toByteOffset: 2 &* k, as: UInt16.self)
            }
        case 4:
            for k in 0..<count {
                unsafe p.storeBytes(
                    of: UInt32(truncatingIfNeeded: value(k)).bigEndian, toByteOffset: 4 &* k, as: UInt32.self)
            }
        case 8:
            for k in 0..<count {
                unsafe p.storeBytes(
                    of: UInt64(truncatingIfNeeded: value(k)).bigEndian, toByteOffset: 8 &* k, as: UInt64.self)
            }
        default:
            for k in 0..<count {
                let v = UInt64(truncatingIfNeeded: value(k))
                let base = k &* width
                for i in 0..<width {
                    unsafe p.storeBytes(
                        of: UInt8(truncatingIfNeeded: v >> UInt64(8 &* (width &- 1 &- i))), toByteOffset: base &+ i,
                        as: UInt8.self)
                }
            }
        }
    }

    /// A marker whose low nibble is the count, or 0xF followed by an int object with the count.
    @inline(__always)
    mutating func appendMarker(_ high: UInt8, count: Int) {
        if count < 15 {
            append(high | UInt8(count))
        } else {
            append(high | 0x0F)
            let width = BinaryPlistWriter.unsignedWidth(UInt64(count))
            append(0x10 | UInt8(width.trailingZeroBitCount))
            appendBigEndian(UInt64(count), width: width)
        }
    }

    /// The bytes `start ..< start + count` of `arena`.
    mutating func append(_ arena: ByteArena, start: Int, count: Int) {
        precondition(start >= 0 && count >= 0 && start <= arena.count &- count, "arena range out of bounds")
        unsafe store(count) { p in
            unsafe arena.withBytes(start, count) { src in
                // In bounds: src holds exactly `count` bytes, the store reserved `count`.
                if count > 0, let s = src.baseAddress { unsafe ByteArena.copy(s, to: p, count: count) }
            }
        }
    }

    /// The UTF-16BE encoding of the UTF-8 string at `start ..< start + count` of `arena`, which is
    /// `units` UTF-16 code units long.
    ///
    /// The arena's string bytes come from a Swift `String`, so they are valid UTF-8 and each lead byte's
    /// continuation bytes are inside the range; both facts are still checked, since they are cheap.
    mutating func appendUTF16BE(_ arena: ByteArena, start: Int, count: Int, units: Int) {
        precondition(start >= 0 && count >= 0 && start <= arena.count &- count, "arena range out of bounds")
        unsafe store(2 &* units) { p in
            unsafe arena.withBytes(start, count) { src in
                guard let base = src.baseAddress else { return }
                let end = count
                var i = 0
                var o = 0
                while i < end {
                    // i < end == src.count: the lead byte is readable.
                    let b0 = UInt32(unsafe base.load(fromByteOffset: i, as: UInt8.self))
                    let n = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
                    // Continuation bytes i + 1 ..< i + n must be inside the string's range.
                    precondition(n <= end &- i, "arena string is not valid UTF-8 at \(i)")
                    var scalar = b0
                    if n > 1 {
                        scalar &= n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07
                        for k in 1..<n {
                            // i + k < i + n <= end: in bounds (precondition above).
                            scalar =
                                scalar << 6 | UInt32(unsafe base.load(fromByteOffset: i &+ k, as: UInt8.self) & 0x3F)
                        }
                    }
                    i &+= n
                    // Output: `units` was counted from the same bytes (one unit per scalar, two above
                    // U+FFFF), so o stays below units; checked before each store.
                    if scalar < 0x10000 {
                        precondition(o < units, "UTF-16 length mismatch")
                        unsafe p.storeBytes(
                            of: UInt16(truncatingIfNeeded: scalar).bigEndian, toByteOffset: 2 &* o, as: UInt16.self)
                        o &+= 1
                    } else {
                        precondition(o &+ 1 < units, "UTF-16 length mismatch")
                        let v = scalar &- 0x10000
                        let high = UInt16(truncatingIfNeeded: 0xD800 | v >> 10)
                        let low = UInt16(truncatingIfNeeded: 0xDC00 | v & 0x3FF)
                        unsafe p.storeBytes(of: high.bigEndian, toByteOffset: 2 &* o, as: UInt16.self)
                        unsafe p.storeBytes(of: low.bigEndian, toByteOffset: 2 &* o &+ 2, as: UInt16.self)
                        o &+= 2
                    }
                }
                precondition(o == units, "UTF-16 length mismatch")
            }
        }
    }

}
