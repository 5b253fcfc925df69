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
