// Sources/BinaryPlist/Writing/ByteWriter.swift - THE write-side unsafe fence: output buffer and byte hashing.
//
// Two ways out: `ByteWriter` fills one allocation whose size the tree writer computed before writing a
// byte, and `GrowableWriter` (the flat fast path, the inflater) grows its block with `realloc` as it
// goes. Every store checks `position + n <= capacity` with a precondition: the sizes come from the
// writer's own tables (input cannot influence whether they agree), so a failure would be a bug in this
// package, and it stops before memory is touched.

import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stores the low `width` (1...8) bytes of `v` big-endian at p: the one big-endian store of the
/// writer's buffers. The caller has reserved p ..< p + width.
@inline(__always)
private func storeBigEndianValue(_ v: UInt64, width: Int, at p: UnsafeMutableRawPointer) {
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
    /// Owned by the writer until `finish()` hands it to `Data`; freed by `deinit` otherwise.
    private let buffer: UnsafeMutableRawBufferPointer
    private(set) var position = 0
    let capacity: Int
    /// The offset table, written out of order by `setTableEntry` while the objects are appended.
    private var tableStart = 0
    private var tableCount = 0
    private var tableWidth = 1

    init(capacity: Int) {
        self.capacity = capacity
        unsafe buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
    }

    deinit { unsafe buffer.deallocate() }

    /// The written bytes; all `capacity` of them must have been written.
    consuming func finish() -> Data {
        precondition(position == capacity, "writer sized \(capacity) bytes but wrote \(position)")
        let b = unsafe buffer
        let n = capacity
        discard self
        // `Data` takes ownership and frees the allocation with its deallocator.
        guard let base = b.baseAddress else { return Data() }
        return unsafe Data(bytesNoCopy: base, count: n, deallocator: .custom({ _, _ in unsafe b.deallocate() }))
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
                if count > 0, let s = src.baseAddress { unsafe p.copyMemory(from: s, byteCount: count) }
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

/// A byte buffer that grows (with `realloc`) as it is appended to, for output whose size is only known
/// at the end; handed over as `Data` without a copy. Used by `BinaryPlistWriter`'s flat fast path,
/// which writes each object once and drops a repeat again.
@safe struct GrowableWriter: ~Copyable {
    /// `capacity` bytes from `malloc`, of which `0 ..< count` are written.
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        let n = max(capacity, 16)
        guard let p = unsafe malloc(n) else { preconditionFailure("out of memory (\(n) bytes)") }
        unsafe base = p
        self.capacity = n
    }

    deinit { unsafe free(base) }

    /// Makes room for `n` more bytes at once (exactly: for a size that is known, or well estimated).
    mutating func reserve(_ n: Int) {
        precondition(n >= 0 && n <= Int.max / 4 &- count, "writer size")
        guard n > capacity &- count else { return }
        guard let p = unsafe realloc(base, count &+ n) else {
            preconditionFailure("out of memory (\(count &+ n) bytes)")
        }
        unsafe base = p
        capacity = count &+ n
    }

    /// The address of the next `n` bytes, which the caller writes and then counts; grows as needed.
    @inline(__always)
    private mutating func room(_ n: Int) -> UnsafeMutableRawPointer {
        precondition(n >= 0 && n <= Int.max / 4 &- count, "writer size")
        if n > capacity &- count { grow(count &+ n) }
        // count + n <= capacity now: the n bytes from `count` are inside the block.
        return unsafe base + count
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity &* 2)
        guard let p = unsafe realloc(base, newCapacity) else {
            preconditionFailure("out of memory (\(newCapacity) bytes)")
        }
        unsafe base = p
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        let p = unsafe room(1)
        unsafe p.storeBytes(of: byte, as: UInt8.self)
        count &+= 1
    }

    /// `marker` followed by the low `width` bytes of `v` (1, 2, 4 or 8), most significant first.
    @inline(__always)
    mutating func append(marker: UInt8, bigEndian v: UInt64, width: Int) {
        let p = unsafe room(1 &+ width)
        // 1 + width bytes are reserved: the marker at 0, the value at 1 ..< 1 + width.
        unsafe p.storeBytes(of: marker, as: UInt8.self)
        unsafe storeBigEndianValue(v, width: width, at: p + 1)
        count &+= 1 &+ width
    }

    /// The low `width` bytes of `v` (1...8), most significant first.
    @inline(__always)
    mutating func append(bigEndian v: UInt64, width: Int) {
        precondition(width >= 1 && width <= 8, "width \(width)")
        let p = unsafe room(width)
        // `width` bytes are reserved at p.
        unsafe storeBigEndianValue(v, width: width, at: p)
        count &+= width
    }

    /// `bytes`, as they are.
    mutating func append(_ bytes: Span<UInt8>) {
        let n = bytes.count
        let p = unsafe room(n)
        unsafe bytes.withUnsafeBytes { src in
            // room reserved n (== src.count) bytes at p.
            if n > 0, let s = src.baseAddress { unsafe p.copyMemory(from: s, byteCount: n) }
        }
        count &+= n
    }

    /// `bytes`, hashed and ASCII-tested on the way (see `ByteArena.Summary`).
    mutating func appendSummarizing(_ bytes: Span<UInt8>) -> ByteArena.Summary {
        let n = bytes.count
        let p = unsafe room(n)
        let summary = unsafe bytes.withUnsafeBytes { src in
            // room reserved n (== src.count) bytes at p.
            unsafe ByteArena.scan(src, copyingTo: p)
        }
        count &+= n
        return summary
    }

    /// `d`'s bytes, hashed on the way (see `ByteArena.Summary`).
    mutating func appendSummarizing(_ d: Data) -> ByteArena.Summary {
        let p = unsafe room(d.count)
        let summary = unsafe d.withUnsafeBytes { src in
            // room reserved d.count (== src.count) bytes at p.
            precondition(src.count == d.count, "data length changed")
            return unsafe ByteArena.scan(src, copyingTo: p)
        }
        count &+= summary.count
        return summary
    }

    mutating func append(zeros n: Int) {
        let p = unsafe room(n)
        // room reserved n bytes at p.
        unsafe p.initializeMemory(as: UInt8.self, repeating: 0, count: n)
        count &+= n
    }

    /// True when `a ..< a + n` and `b ..< b + m` hold the same bytes.
    func equal(_ a: Int, _ n: Int, _ b: Int, _ m: Int) -> Bool {
        guard n == m, a >= 0, b >= 0, n >= 0, a <= count &- n, b <= count &- n else { return false }
        // Both ranges lie inside 0 ..< count (guard above).
        return unsafe ByteHash.same(
            UnsafeRawBufferPointer(start: base + a, count: n), UnsafeRawBufferPointer(start: base + b, count: n))
    }

    /// Drops the bytes from `start` on.
    mutating func truncate(_ start: Int) {
        precondition(start >= 0 && start <= count, "truncate to \(start) of \(count)")
        count = start
    }

    /// Removes the bytes `start ..< end`, moving the ones after them down.
    mutating func remove(_ start: Int, _ end: Int) {
        precondition(start >= 0 && start <= end && end <= count, "remove \(start) ..< \(end) of \(count)")
        // end ..< count moves to start ..< start + (count - end): both inside 0 ..< count.
        unsafe (base + start).copyMemory(from: base + end, byteCount: count &- end)
        count &-= end &- start
    }

    /// Overwrites `at ..< at + width` (written already) with the low `width` bytes of `v`, big-endian.
    @inline(__always)
    mutating func store(bigEndian v: UInt64, width: Int, at: Int) {
        precondition(width >= 1 && width <= 8 && at >= 0 && at <= count &- width, "store at \(at) of \(count)")
        // at ..< at + width lies inside 0 ..< count (precondition above).
        unsafe storeBigEndianValue(v, width: width, at: base + at)
    }

    /// The written bytes as `Data`, which takes the block (shrunk to size) and frees it.
    consuming func finish() -> Data {
        let n = count
        // Shrinking keeps the first n bytes; if it fails the larger block is still valid.
        let block = unsafe realloc(base, max(n, 1)) ?? base
        discard self
        return unsafe Data(bytesNoCopy: block, count: n, deallocator: .free)
    }
}

/// The writer's copy of string and data payloads: one growing byte buffer.
///
/// `ObjectTableBuilder` copies a string's or data's bytes in and hashes them in the same pass
/// (`appendSummarizing`), compares candidates for deduplication inside the arena (`equal`), and drops
/// the copy again (`truncate`) when an equal one was there already.
struct ByteArena: Sendable {
    /// Shared between copies of the arena until one of them appends (copy-on-write). Bytes below a
    /// copy's `count` are never written again while shared.
    private var buffer = ArenaBuffer(capacity: 256)
    private(set) var count = 0

    /// What one pass over a string's UTF-8 or a data's bytes found.
    struct Summary {
        var hash: UInt64
        var count: Int
        /// True when every byte is below 0x80.
        var isASCII: Bool
    }

    /// Hash, length and ASCII test of `bytes`, in one pass.
    static func summarize(_ bytes: Span<UInt8>) -> Summary {
        unsafe bytes.withUnsafeBytes { unsafe scan($0, copyingTo: nil) }
    }

    /// True when the arena holds `bytes` at `start ..< start + length`.
    func equal(_ start: Int, _ length: Int, _ bytes: Span<UInt8>) -> Bool {
        let n = bytes.count
        guard n == length, start >= 0, start <= count &- n else { return false }
        return unsafe bytes.withUnsafeBytes { src in
            // start ..< start + n lies inside 0 ..< count (guard above); src holds n bytes.
            unsafe ByteHash.same(UnsafeRawBufferPointer(start: buffer.base + start, count: n), src)
        }
    }

    /// Appends `bytes` at the current `count`.
    mutating func append(_ bytes: Span<UInt8>) {
        let n = bytes.count
        reserveMore(n)
        let target = buffer
        let at = count
        unsafe bytes.withUnsafeBytes { src in
            // reserveMore made room for n (== src.count) bytes at `at` in the unshared `target`.
            precondition(src.count == n && n <= target.capacity &- at, "arena overflow")
            if n > 0, let s = src.baseAddress { unsafe (target.base + at).copyMemory(from: s, byteCount: n) }
        }
        count &+= n
    }

    /// Appends `d`'s bytes at the current `count`, hashing them on the way.
    mutating func appendSummarizing(_ d: Data) -> Summary {
        reserveMore(d.count)
        let target = buffer
        let at = count
        let summary = unsafe d.withUnsafeBytes { src in
            // reserveMore made room for d.count (== src.count) bytes at `at` in the unshared `target`.
            precondition(src.count <= target.capacity &- at, "arena overflow")
            return unsafe ByteArena.scan(src, copyingTo: target.base + at)
        }
        count &+= summary.count
        return summary
    }

    /// Drops the bytes from `start` on (the last append, when it turned out to be a duplicate).
    mutating func truncate(_ start: Int) {
        precondition(start >= 0 && start <= count, "arena truncated to \(start) of \(count)")
        count = start
    }

    /// Makes room for `n` more bytes in storage no other arena shares.
    private mutating func reserveMore(_ n: Int) {
        precondition(n >= 0 && n <= Int.max / 2 &- count, "arena size")
        let needed = count &+ n
        let unique = isKnownUniquelyReferenced(&buffer)
        if needed <= buffer.capacity && unique { return }
        let capacity = max(needed, buffer.capacity &* 2)
        if unique {
            // realloc keeps the bytes (and, for large blocks, moves pages instead of copying them).
            buffer.grow(to: capacity)
            return
        }
        let fresh = ArenaBuffer(capacity: capacity)
        // count <= old capacity and count <= fresh.capacity: both ranges hold `count` bytes.
        unsafe fresh.base.copyMemory(from: buffer.base, byteCount: count)
        buffer = fresh
    }

    /// True when the arena holds equal bytes at `start ..< start + length` and `other ..< other + n`.
    func equal(_ start: Int, _ length: Int, _ other: Int, _ n: Int) -> Bool {
        guard n == length, start >= 0, other >= 0, start <= count &- n, other <= count &- n else { return false }
        // Both ranges lie inside 0 ..< count (guard above), which is inside the buffer.
        return unsafe ByteHash.same(
            UnsafeRawBufferPointer(start: buffer.base + start, count: n),
            UnsafeRawBufferPointer(start: buffer.base + other, count: n))
    }

    /// Runs `body` over the bytes `start ..< start + n`.
    fileprivate func withBytes<R>(_ start: Int, _ n: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        precondition(start >= 0 && n >= 0 && start <= count &- n, "arena range out of bounds")
        // Inside 0 ..< count (precondition above), which is inside the buffer.
        return unsafe body(UnsafeRawBufferPointer(start: buffer.base + start, count: n))
    }

    /// UTF-16 code units of the UTF-8 `bytes`: one per scalar (each byte that is not a continuation
    /// byte), two for scalars above U+FFFF (lead byte 0xF0 or more).
    static func utf16Units(_ bytes: Span<UInt8>) -> Int {
        var units = 0
        for i in bytes.indices {
            let b = bytes[i]
            if b & 0xC0 != 0x80 { units &+= 1 }
            if b >= 0xF0 { units &+= 1 }
        }
        return units
    }

    /// Appends `v` as 8 bytes (native order) at the current `count`.
    mutating func append(word v: UInt64) {
        reserveMore(8)
        // reserveMore made room for 8 bytes at `count` in the unshared buffer.
        unsafe (buffer.base + count).storeBytes(of: v, as: UInt64.self)
        count &+= 8
    }

    /// The 8 bytes at `start` (written by `append(word:)`).
    func word(_ start: Int) -> UInt64 {
        precondition(start >= 0 && start <= count &- 8, "arena word at \(start) of \(count)")
        // start ..< start + 8 lies inside 0 ..< count (precondition above).
        return unsafe buffer.base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
    }

    /// Hash, length and ASCII test of `bytes`.
    fileprivate static func summarize(_ bytes: UnsafeRawBufferPointer) -> Summary {
        unsafe scan(bytes, copyingTo: nil)
    }

    /// Hash, length and ASCII test of `bytes`, in one pass that also copies them to `target` when
    /// given (which must have room for `bytes.count` bytes).
    @inline(__always)
    fileprivate static func scan(_ bytes: UnsafeRawBufferPointer, copyingTo target: UnsafeMutableRawPointer?)
        -> Summary
    {
        let n = bytes.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(n)
        guard n > 0, let base = bytes.baseAddress else {
            return Summary(hash: DedupTable.mix(h), count: 0, isASCII: true)
        }
        var high: UInt64 = 0
        var last: UInt64
        if n >= 8 {
            var i = 0
            // Eight bytes at a time while eight remain: i + 8 <= n, in the source and in the target.
            while i &+ 8 <= n {
                let w = unsafe base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if let target = unsafe target { unsafe target.storeBytes(of: w, toByteOffset: i, as: UInt64.self) }
                high |= w
                h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
                h ^= h >> 29
                i &+= 8
            }
            // The last eight bytes (overlapping the words above when n is not a multiple of 8):
            // n - 8 >= 0, so n - 8 ..< n is inside both.
            last = unsafe base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            if let target = unsafe target { unsafe target.storeBytes(of: last, toByteOffset: n &- 8, as: UInt64.self) }
        } else {
            // 1...7 bytes, one at a time: i < n.
            last = 0
            for i in 0..<n {
                let b = unsafe base.load(fromByteOffset: i, as: UInt8.self)
                if let target = unsafe target { unsafe target.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
                last = last << 8 | UInt64(b)
            }
        }
        high |= last
        return Summary(hash: DedupTable.mix(h ^ last), count: n, isASCII: high & 0x8080_8080_8080_8080 == 0)
    }
}

/// The storage of a `ByteArena`: `capacity` bytes from `malloc`, grown with `realloc` while only one
/// arena holds it, freed with the last reference. Immutable below the owning arenas' counts while
/// shared (see `ByteArena.buffer`), hence `Sendable`.
@safe final class ArenaBuffer: @unchecked Sendable {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init(capacity: Int) {
        let n = max(capacity, 16)
        guard let p = unsafe malloc(n) else { preconditionFailure("out of memory (\(n) bytes)") }
        unsafe base = p
        self.capacity = n
    }

    /// Enlarges the block to `newCapacity` bytes, keeping its contents. Only for an unshared buffer.
    func grow(to newCapacity: Int) {
        guard newCapacity > capacity else { return }
        guard let p = unsafe realloc(base, newCapacity) else {
            preconditionFailure("out of memory (\(newCapacity) bytes)")
        }
        unsafe base = p
        capacity = newCapacity
    }

    deinit { unsafe free(base) }
}

/// Fast, non-cryptographic hashing of byte strings for the writer's deduplication table.
enum ByteHash {
    /// A 64-bit hash of the bytes (the writer's deduplication hash: 8 bytes at a time, multiply-xorshift).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        unsafe ByteArena.summarize(bytes).hash
    }

    static func hash(_ s: String) -> UInt64 {
        unsafe withUTF8(s) { unsafe hash($0) }
    }

    /// True when `a` and `b` have exactly the same UTF-8 bytes (no Unicode normalisation).
    static func sameUTF8(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return unsafe withUTF8(a) { x in unsafe withUTF8(b) { y in unsafe same(x, y) } }
    }

    /// True when `x` and `y` hold the same bytes.
    static func same(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        let n = x.count
        guard y.count == n else { return false }
        guard n > 0, let p = x.baseAddress, let q = y.baseAddress else { return true }
        var i = 0
        // Both buffers hold n bytes (checked above); i + 8 <= n keeps the word loads inside.
        while i &+ 8 <= n {
            if unsafe p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                != q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                return false
            }
            i &+= 8
        }
        // The last 0...7 bytes: i < n.
        while i < n {
            if unsafe p.load(fromByteOffset: i, as: UInt8.self) != q.load(fromByteOffset: i, as: UInt8.self) {
                return false
            }
            i &+= 1
        }
        return true
    }

    /// Runs `body` over the string's UTF-8 bytes (contiguous for native strings; copied otherwise).
    @inline(__always)
    static func withUTF8<R>(_ s: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let r = unsafe s.utf8.withContiguousStorageIfAvailable({ unsafe body(UnsafeRawBufferPointer($0)) }) {
            return r
        }
        var copy = s
        return copy.withUTF8 { unsafe body(UnsafeRawBufferPointer($0)) }
    }

}

/// The identity of an array's storage: equal for copies that share a buffer (Swift arrays are
/// copy-on-write), which is how a shared sub-tree of a `PlistValue` can be recognised without
/// walking it. Only the address is taken; nothing is read through it.
enum StorageIdentity {
    @inline(__always)
    static func of<T>(_ array: [T]) -> UInt {
        unsafe array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}
