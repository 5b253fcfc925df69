// Sources/PropertyList/Binary/Writing/GrowableWriter.swift - Unsafe fence: an output buffer that grows with realloc.
//
// For output whose size is known only at the end (the writer's flat fast path, the inflater). Every
// store checks `count + n <= capacity` with a precondition before memory is touched.

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
        guard let block = unsafe SpareBlock.allocate(n) else { preconditionFailure("out of memory (\(n) bytes)") }
        unsafe base = block.base
        self.capacity = unsafe block.size
    }

    deinit { unsafe SpareBlock.give(base, size: capacity) }

    /// Makes room for `n` more bytes at once (for a size that is known, or well estimated): exactly, or
    /// in the block kept for reuse when it is at most 8 times that (`SpareBlock.reallocate`).
    mutating func reserve(_ n: Int) {
        precondition(n >= 0 && n <= Int.max / 4 &- count, "writer size")
        guard n > capacity &- count else { return }
        resize(count &+ n)
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
        resize(max(needed, capacity &* 2))
    }

    /// Moves the written bytes to a block of `newCapacity` bytes or more (`SpareBlock.reallocate`).
    private mutating func resize(_ newCapacity: Int) {
        let block = unsafe SpareBlock.Block(base: base, size: capacity)
        guard let grown = unsafe SpareBlock.reallocate(block, used: count, to: newCapacity) else {
            preconditionFailure("out of memory (\(newCapacity) bytes)")
        }
        unsafe base = grown.base
        capacity = unsafe grown.size
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

    /// Runs `body` over the written bytes `start ..< start + n` (the streaming writer hands them to its
    /// sink, or compares them with a remembered object).
    func withBytes<R, E: Error>(_ start: Int, _ n: Int, _ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        precondition(start >= 0 && n >= 0 && start <= count &- n, "bytes \(start) + \(n) of \(count)")
        // start ..< start + n lies inside 0 ..< count (precondition above), which is initialised (every
        // append writes the bytes it counts). The span lives only for the call.
        let bytes = unsafe UnsafeBufferPointer<UInt8>(
            start: (base + start).assumingMemoryBound(to: UInt8.self), count: n)
        return try unsafe body(bytes.span)
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

    /// The written bytes as `Data`, which takes the block and gives it back when it is freed
    /// (`SpareBlock.data`: shrunk to size when more than twice as large).
    consuming func finish() -> Data {
        let block = unsafe SpareBlock.Block(base: base, size: capacity)
        let n = count
        discard self
        return unsafe SpareBlock.data(block, count: n)
    }
}
