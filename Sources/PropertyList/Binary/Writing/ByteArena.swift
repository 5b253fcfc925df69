// Sources/PropertyList/Binary/Writing/ByteArena.swift - Unsafe fence: the writer's arena of string and data bytes.
//
// One malloc'd block (ArenaBuffer) shared copy-on-write between arenas; payload bytes are copied in
// and hashed in one pass, compared in place for deduplication, and cut off again when a repeat is
// found. Every access is checked against the arena's count, with the proof beside it.

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
            if n > 0, let s = src.baseAddress { unsafe ByteArena.copy(s, to: target.base + at, count: n) }
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

    /// Moves the `n` bytes at `from` down to `to` (`to <= from`; the ranges may overlap): the streaming
    /// writer's scalar table keeps the entries it still wants at the front when it starts over.
    mutating func moveDown(from: Int, to: Int, count n: Int) {
        precondition(to >= 0 && to <= from && n >= 0 && from <= count &- n, "arena move \(from) -> \(to) of \(n)")
        guard to < from, n > 0 else { return }
        reserveMore(0)  // unshares the buffer
        // from ..< from + n and to ..< to + n lie inside 0 ..< count (precondition above); memmove semantics.
        unsafe (buffer.base + to).copyMemory(from: buffer.base + from, byteCount: n)
    }

    /// Drops the bytes from `start` on (the last append, when it turned out to be a duplicate).
    mutating func truncate(_ start: Int) {
        precondition(start >= 0 && start <= count, "arena truncated to \(start) of \(count)")
        count = start
    }

    /// Makes room for about `n` more bytes at once (a size estimated ahead: the writer's tables grow
    /// once instead of doubling, and copying, as they fill).
    mutating func reserve(_ n: Int) {
        guard n > 0, n <= Int.max / 4 &- count else { return }
        reserveMore(n)
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
    func withBytes<R>(_ start: Int, _ n: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        precondition(start >= 0 && n >= 0 && start <= count &- n, "arena range out of bounds")
        // Inside 0 ..< count (precondition above), which is inside the buffer.
        return unsafe body(UnsafeRawBufferPointer(start: buffer.base + start, count: n))
    }

    /// A copy of the bytes `start ..< start + n`.
    func data(_ start: Int, _ n: Int) -> Data {
        unsafe withBytes(start, n) { src in
            // src is the checked range of withBytes; an empty range has nothing to copy.
            guard n > 0, let base = src.baseAddress else { return Data() }
            return unsafe Data(bytes: base, count: n)
        }
    }

    /// The UTF-8 bytes `start ..< start + n` as a `String` (invalid UTF-8 would read as U+FFFD; the
    /// builder's strings come from Swift strings and are valid).
    func string(_ start: Int, _ n: Int) -> String {
        // src is the checked range of withBytes.
        unsafe withBytes(start, n) { src in unsafe String(decoding: src, as: UTF8.self) }
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
    static func summarize(_ bytes: UnsafeRawBufferPointer) -> Summary {
        unsafe scan(bytes, copyingTo: nil)
    }

    /// Hash, length and ASCII test of `bytes`, in one pass that also copies them to `target` when
    /// given (which must have room for `bytes.count` bytes).
    @inline(__always)
    static func scan(_ bytes: UnsafeRawBufferPointer, copyingTo target: UnsafeMutableRawPointer?)
        -> Summary
    {
        let n = bytes.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(n)
        guard n > 0, let base = bytes.baseAddress else {
            return Summary(hash: DedupTable.mix(h), count: 0, isASCII: true)
        }
        if n >= 16 && n <= 64 {
            // Four windows of 16 bytes placed by the length alone (`ByteWindows`, as in
            // `ByteReader.isASCII`; n bytes readable at base, and writable at target when given).
            // No branch depends on the length (a loop's exit mispredicted once a string), and the
            // windows are hashed by four independent products folded to 64 bits (a chain of eight
            // rounds would wait on each multiply in turn). The hash is a function of the bytes and
            // the length, which is all deduplication needs: equal bytes give equal hashes, and the
            // candidates are compared byte for byte.
            let w = unsafe ByteWindows(loading: base, count: n)
            if let target = unsafe target { unsafe w.store(to: target) }
            let high = w.union
            let folded =
                fold(w.w0 ^ 0xA076_1D64_78BD_642F, w.w1 ^ 0xE703_7ED1_A0B4_28DB)
                ^ fold(w.w2 ^ 0x8EBC_6AF0_9C88_C6E3, w.w3 ^ 0x5899_65CC_7537_4CC3)
                ^ fold(w.w4 ^ 0x1D8E_4E27_C47D_124F, w.w5 ^ 0xB6C3_2F3A_9A6B_5E17)
                ^ fold(w.w6 ^ 0x72F5_3C5D_0B8E_3A91, w.w7 ^ 0xC2B2_AE3D_27D4_EB4F)
            return Summary(
                hash: DedupTable.mix(h ^ folded), count: n, isASCII: high & 0x8080_8080_8080_8080 == 0)
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

extension ByteArena {
    /// Copies `n` bytes from `src` to `dst` (which do not overlap): 16 to 64 bytes as four windows of
    /// 16 chosen by the length (see `scan`), with no branch on it, others by `copyMemory`. The
    /// caller proves both ranges.
    @unsafe @inline(__always)
    static func copy(_ src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, count n: Int) {
        guard n >= 16 && n <= 64 else {
            if n > 0 { unsafe dst.copyMemory(from: src, byteCount: n) }
            return
        }
        // Both ranges hold n bytes, 16 <= n <= 64 (guard above); all loads come before the stores.
        unsafe ByteWindows(loading: src, count: n).store(to: dst)
    }

    /// The 128-bit product of `a` and `b` folded to 64 bits (its halves xored).
    @inline(__always)
    static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
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
