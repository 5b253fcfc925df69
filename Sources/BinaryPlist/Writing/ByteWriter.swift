// Sources/BinaryPlist/Writing/ByteWriter.swift - THE write-side unsafe fence: output buffer and byte hashing.
//
// The writer sizes the whole file before writing a byte, so output goes into one allocation of the
// exact size. Every store checks `position + n <= capacity` with a precondition: the sizes are computed
// by the writer from its own tables (input cannot influence whether they agree), so a failure would be a
// bug in this package, and it stops before memory is touched.

import FoundationEssentials

/// Writes big-endian values into one allocation of a size fixed in advance, handed over as `Data`
/// without a copy.
@safe struct ByteWriter: ~Copyable {
    /// Owned by the writer until `finish()` hands it to `Data`; freed by `deinit` otherwise.
    private let buffer: UnsafeMutableRawBufferPointer
    private(set) var position = 0
    let capacity: Int

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
        unsafe store(width) { p in
            switch width {
            case 1: unsafe p.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
            case 2: unsafe p.storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, toByteOffset: 0, as: UInt16.self)
            case 4: unsafe p.storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, toByteOffset: 0, as: UInt32.self)
            case 8: unsafe p.storeBytes(of: v.bigEndian, toByteOffset: 0, as: UInt64.self)
            default:
                for i in 0..<width {
                    unsafe p.storeBytes(
                        of: UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - i))), toByteOffset: i, as: UInt8.self
                    )
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

    /// The bytes of `d`.
    mutating func append(_ d: Data) {
        unsafe store(d.count) { p in
            unsafe d.withUnsafeBytes { src in
                if let s = src.baseAddress { unsafe p.copyMemory(from: s, byteCount: src.count) }
            }
        }
    }

    /// The UTF-8 bytes of an ASCII string.
    mutating func appendASCII(_ s: String) {
        let n = s.utf8.count
        unsafe store(n) { p in
            let copied: Void? = unsafe s.utf8.withContiguousStorageIfAvailable { src in
                if let b = src.baseAddress { unsafe p.copyMemory(from: b, byteCount: n) }
            }
            if copied == nil {
                for (i, b) in s.utf8.enumerated() { unsafe p.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
            }
        }
    }

    /// The UTF-16BE code units of a string (`units` of them).
    mutating func appendUTF16BE(_ s: String, units: Int) {
        unsafe store(2 &* units) { p in
            var i = 0
            for u in s.utf16 {
                // i < units: s has exactly `units` UTF-16 code units.
                unsafe p.storeBytes(of: u.bigEndian, toByteOffset: 2 &* i, as: UInt16.self)
                i &+= 1
            }
        }
    }
}

/// Fast, non-cryptographic hashing of byte strings for the writer's deduplication table.
enum ByteHash {
    /// A 64-bit hash of the bytes (8 bytes at a time, mixed with multiply-xorshift steps).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var i = 0
        let n = bytes.count
        // Eight bytes at a time while eight remain: i + 8 <= n.
        while i &+ 8 <= n {
            let w = unsafe bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = DedupTable.mix(h ^ w)
            i &+= 8
        }
        var tail: UInt64 = 0
        while i < n {
            tail = tail << 8 | UInt64(unsafe bytes.load(fromByteOffset: i, as: UInt8.self))
            i &+= 1
        }
        return DedupTable.mix(h ^ tail)
    }

    static func hash(_ s: String) -> UInt64 {
        unsafe withUTF8(s) { unsafe hash($0) }
    }

    /// True when every byte of `s`'s UTF-8 is below 0x80 (eight bytes at a time).
    static func isASCII(_ s: String) -> Bool {
        unsafe withUTF8(s) { b in
            var i = 0
            let n = b.count
            // i + 8 <= n keeps each 8-byte load inside the buffer.
            while i &+ 8 <= n {
                if unsafe b.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return false
                }
                i &+= 8
            }
            while i < n {
                if unsafe b.load(fromByteOffset: i, as: UInt8.self) >= 0x80 { return false }
                i &+= 1
            }
            return true
        }
    }

    /// True when `a` and `b` have exactly the same UTF-8 bytes (no Unicode normalisation).
    static func sameUTF8(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return unsafe withUTF8(a) { x in
            unsafe withUTF8(b) { y in
                // Both buffers hold n bytes (lengths checked above); i + 8 <= n keeps word loads inside.
                let n = x.count
                var i = 0
                while i &+ 8 <= n {
                    if unsafe x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        != y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    {
                        return false
                    }
                    i &+= 8
                }
                while i < n {
                    if unsafe x.load(fromByteOffset: i, as: UInt8.self) != y.load(fromByteOffset: i, as: UInt8.self) {
                        return false
                    }
                    i &+= 1
                }
                return true
            }
        }
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

    static func hash(_ d: Data) -> UInt64 {
        unsafe d.withUnsafeBytes { unsafe hash($0) }
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
