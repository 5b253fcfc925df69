// Sources/PropertyList/Shared/ByteHash.swift - Unsafe fence: hashing and comparing byte strings.
//
// Shared by the writer (deduplication of strings and data) and the reader (interning dictionary keys
// by their bytes); and the address of an array's storage, to recognise a shared sub-tree. Each reads
// only the buffer it is lent.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

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
        if n < 8 {
            if n >= 4 {
                // The first and the last four bytes (overlapping when n < 8): both inside, as 4 <= n.
                return unsafe p.loadUnaligned(as: UInt32.self) == q.loadUnaligned(as: UInt32.self)
                    && p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
                        == q.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            }
        } else {
            // Both buffers hold n >= 8 bytes (checked above); i + 8 <= n keeps the word loads inside, and
            // the last word, n - 8 ..< n, overlaps what was compared.
            var i = 0
            while i &+ 8 <= n {
                if unsafe p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                {
                    return false
                }
                i &+= 8
            }
            return unsafe p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
                == q.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        // 1 ... 3 bytes.
        var i = 0
        while i < n {
            if unsafe p.load(fromByteOffset: i, as: UInt8.self) != q.load(fromByteOffset: i, as: UInt8.self) {
                return false
            }
            i &+= 1
        }
        return true
    }

    static func hash(_ s: PlistString) -> UInt64 {
        unsafe withUTF8(s) { unsafe hash($0) }
    }

    /// True when the two texts have exactly the same UTF-8 bytes.
    static func same(_ a: PlistString, _ b: PlistString) -> Bool {
        guard a.utf8Count == b.utf8Count else { return false }
        return unsafe withUTF8(a) { x in unsafe withUTF8(b) { y in unsafe same(x, y) } }
    }

    /// True when the text has exactly the UTF-8 bytes of `b`.
    ///
    /// Through spans of both (a native `String` lends its bytes in place, a small one from where it is
    /// held): the general `withContiguousStorageIfAvailable` path cost about 225 instructions for a short
    /// key, which the Codable decoders compare once per field.
    static func same(_ a: PlistString, _ b: String) -> Bool {
        let y = b.utf8.span
        return a.withUTF8Span { x in
            guard x.count == y.count else { return false }
            return unsafe x.withUnsafeBytes { p in unsafe y.withUnsafeBytes { q in unsafe same(p, q) } }
        }
    }

    /// Runs `body` over the text's UTF-8 bytes: a slice's bytes in its source, in place.
    @inline(__always)
    static func withUTF8<R>(_ s: PlistString, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        // The span's bytes are lent for the closure only.
        s.withUTF8Span { span in unsafe span.withUnsafeBytes { unsafe body($0) } }
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

/// The 16 to 64 bytes at a place as four windows of 16 bytes (eight words) placed by the length
/// alone: the first at 0, the last ending at n, the middle two `step` and `2 * step` on (clamped
/// to the last), step = ceil((n - 16) / 3) <= 16. Each window starts in 0 ... n - 16, so every
/// word lies inside the n bytes, and together they cover them.
struct ByteWindows {
    let p1: Int
    let p2: Int
    let last: Int
    let w0, w1, w2, w3, w4, w5, w6, w7: UInt64

    /// Loads the windows of the `n` bytes at `base` (16 <= n <= 64, readable: the caller's proof).
    @unsafe @inline(__always)
    init(loading base: UnsafeRawPointer, count n: Int) {
        last = n &- 16
        let step = (n &- 14) / 3
        p1 = Swift.min(step, last)
        p2 = Swift.min(step &* 2, last)
        // Every load is at an offset in 0 ... n - 8 (p1, p2 <= last = n - 16).
        w0 = unsafe base.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        w1 = unsafe base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        w2 = unsafe base.loadUnaligned(fromByteOffset: p1, as: UInt64.self)
        w3 = unsafe base.loadUnaligned(fromByteOffset: p1 &+ 8, as: UInt64.self)
        w4 = unsafe base.loadUnaligned(fromByteOffset: p2, as: UInt64.self)
        w5 = unsafe base.loadUnaligned(fromByteOffset: p2 &+ 8, as: UInt64.self)
        w6 = unsafe base.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        w7 = unsafe base.loadUnaligned(fromByteOffset: last &+ 8, as: UInt64.self)
    }

    /// Every bit set in any of the n bytes (the eight words or'd): a byte is at or above 0x80 when
    /// `union & 0x8080_8080_8080_8080` is not zero.
    @inline(__always)
    var union: UInt64 { w0 | w1 | w2 | w3 | w4 | w5 | w6 | w7 }

    /// Stores the windows at `target`, which has room for the same n bytes (the caller's proof):
    /// the n bytes loaded, some of them twice.
    @unsafe @inline(__always)
    func store(to target: UnsafeMutableRawPointer) {
        // Every store is at an offset in 0 ... n - 8, as the loads were.
        unsafe target.storeBytes(of: w0, toByteOffset: 0, as: UInt64.self)
        unsafe target.storeBytes(of: w1, toByteOffset: 8, as: UInt64.self)
        unsafe target.storeBytes(of: w2, toByteOffset: p1, as: UInt64.self)
        unsafe target.storeBytes(of: w3, toByteOffset: p1 &+ 8, as: UInt64.self)
        unsafe target.storeBytes(of: w4, toByteOffset: p2, as: UInt64.self)
        unsafe target.storeBytes(of: w5, toByteOffset: p2 &+ 8, as: UInt64.self)
        unsafe target.storeBytes(of: w6, toByteOffset: last, as: UInt64.self)
        unsafe target.storeBytes(of: w7, toByteOffset: last &+ 8, as: UInt64.self)
    }
}
