// Sources/PropertyList/Binary/Reading/ByteReader.swift - THE read-side unsafe fence: bounds-checked big-endian loads.
//
// Every byte the reader looks at goes through this file. Each load either checks its bounds itself
// (the `checked` family returns nil when out of range) or is an `unchecked` twin whose caller has
// proven the range; each unchecked use states its proof next to the call. No pointer escapes:
// a `ByteReader` lives only inside the `withUnsafeBytes` closure that created it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A borrowed, read-only view of the input bytes with big-endian loads.
@safe struct ByteReader {
    /// The borrowed bytes. Never stored beyond the closure that lends them.
    let buffer: UnsafeRawBufferPointer

    /// Number of readable bytes.
    var count: Int { unsafe buffer.count }

    init(_ buffer: UnsafeRawBufferPointer) { unsafe self.buffer = buffer }

    /// Runs `body` with a reader over `data`'s bytes. The pointer lives only for this call and the
    /// reader never escapes `body` (it is not stored by any caller).
    ///
    /// Borrowed through `Data.bytes` (a `RawSpan`), whose `withUnsafeBytes` has typed throws: no
    /// `Result` wrapper, so a caller generic over `R` does not instantiate `Result<R, E>` metadata
    /// on every call (`Data.withUnsafeBytes` only rethrows untyped errors).
    @inline(__always)
    static func read<R, E: Error>(_ data: Data, _ body: (ByteReader) throws(E) -> R) throws(E) -> R {
        let span = data.bytes
        return try unsafe span.withUnsafeBytes { (raw) throws(E) -> R in try body(unsafe ByteReader(raw)) }
    }

    /// A copy of the bytes `offset ..< offset + length` as `Data`, or nil when out of range.
    func data(offset: Int, length: Int) -> Data? {
        guard contains(offset: offset, length: length, limit: count) else { return nil }
        // In bounds: checked by `contains` above.
        guard length > 0, let base = unsafe buffer.baseAddress else { return Data() }
        return unsafe Data(bytes: base + offset, count: length)
    }

    /// True when the bytes `offset ..< offset + length` are exactly `key`'s UTF-8; range proven by the caller.
    @unsafe
    func bytes(unchecked offset: Int, length: Int, equal key: String) -> Bool {
        assert(contains(offset: offset, length: length, limit: count))
        let utf8 = key.utf8
        guard utf8.count == length else { return false }
        // Native strings (small or not) lend their UTF-8 contiguously: compare eight bytes at a time.
        let fast: Bool? = unsafe utf8.withContiguousStorageIfAvailable { k in
            var i = 0
            while i &+ 8 <= length {
                // i + 8 <= length: inside both `k` (length bytes) and offset ..< offset + length.
                let a = unsafe buffer.loadUnaligned(fromByteOffset: offset &+ i, as: UInt64.self)
                let b = unsafe UnsafeRawPointer(k.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)
                if a != b { return false }
                i &+= 8
            }
            while i < length {
                // i < length: inside both ranges.
                if unsafe buffer.load(fromByteOffset: offset &+ i, as: UInt8.self) != k[i] { return false }
                i &+= 1
            }
            return true
        }
        if let fast { return fast }
        var i = offset
        for k in utf8 {
            // i < offset + length because key has exactly `length` UTF-8 bytes.
            if unsafe buffer.load(fromByteOffset: i, as: UInt8.self) != k { return false }
            i += 1
        }
        return true
    }

    /// The byte at `offset`, or nil when `offset` is outside `0 ..< count`.
    @inline(__always)
    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        // In bounds: 0 <= offset < count (guard above).
        return unsafe buffer.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The byte at `offset`; the caller has proven `0 <= offset < count`.
    @inline(__always)
    @unsafe
    func byte(unchecked offset: Int) -> UInt8 {
        assert(offset >= 0 && offset < count)
        return unsafe buffer.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The 8 bytes at `offset` as a little-endian word (byte `offset + i` in bits `8i ..< 8i + 8` on
    /// every platform); the caller has proven `offset ..< offset + 8` lies inside `0 ..< count`.
    @inline(__always)
    @unsafe
    func word(unchecked offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count)
        return UInt64(littleEndian: unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The 1 to 8 bytes `offset ..< offset + length` as one word that tells apart any two byte
    /// strings of that length: 4 to 8 bytes as their first and last four (which cover them), 1 to 3 as
    /// their first, middle and last byte (which are all of them). Range proven by the caller.
    @inline(__always)
    @unsafe
    func shortWord(unchecked offset: Int, length: Int) -> UInt64 {
        assert(length >= 1 && length <= 8 && contains(offset: offset, length: length, limit: count))
        let end = offset &+ length
        if length >= 4 {
            // offset ..< offset + 4 and end - 4 ..< end, both inside the range (length >= 4).
            let first = unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let last = unsafe buffer.loadUnaligned(fromByteOffset: end &- 4, as: UInt32.self)
            return UInt64(first) | UInt64(last) &<< 32
        }
        // offset, offset + length / 2 and end - 1 are inside the range (1 <= length <= 3).
        let a = unsafe buffer.load(fromByteOffset: offset, as: UInt8.self)
        let b = unsafe buffer.load(fromByteOffset: offset &+ length &>> 1, as: UInt8.self)
        let c = unsafe buffer.load(fromByteOffset: end &- 1, as: UInt8.self)
        return UInt64(a) | UInt64(b) &<< 8 | UInt64(c) &<< 16
    }

    /// A big-endian unsigned integer of `width` (1...8) bytes at `offset`, or nil when any of its bytes
    /// is outside the buffer.
    @inline(__always)
    func uint(at offset: Int, width: Int) -> UInt64? {
        guard width >= 1, width <= 8, offset >= 0, offset <= count &- width else { return nil }
        // In bounds: offset ..< offset + width ⊂ 0 ..< count (guard above; count - width cannot overflow
        // because count >= 0 and width <= 8).
        return unsafe uint(unchecked: offset, width: width)
    }

    /// A big-endian unsigned integer of `width` (1...8) bytes; the caller has proven
    /// `offset ..< offset + width` lies inside `0 ..< count`.
    @inline(__always)
    @unsafe
    func uint(unchecked offset: Int, width: Int) -> UInt64 {
        assert(width >= 1 && width <= 8 && offset >= 0 && offset + width <= count)
        switch width {
        case 1:
            return UInt64(unsafe buffer.load(fromByteOffset: offset, as: UInt8.self))
        case 2:
            return UInt64(UInt16(bigEndian: unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4:
            return UInt64(UInt32(bigEndian: unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 8:
            return UInt64(bigEndian: unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        default:
            var v: UInt64 = 0
            for i in offset..<offset + width {
                v = v << 8 | UInt64(unsafe buffer.load(fromByteOffset: i, as: UInt8.self))
            }
            return v
        }
    }

    /// A big-endian unsigned integer of `width` (1...8) bytes at `offset`, without a branch on the
    /// width: the 8-byte word that ends at `offset + width` is loaded and `mask` (the low `8 × width`
    /// bits) keeps the integer. The caller has proven `offset + width <= count` and `offset + width >= 8`
    /// (true of any reference list or offset-table entry: both start after the 8-byte header).
    @inline(__always)
    @unsafe
    func uint(unchecked offset: Int, width: Int, mask: UInt64) -> UInt64 {
        assert(width >= 1 && width <= 8 && offset + width >= 8 && offset + width <= count)
        assert(mask == ByteReader.mask(width: width))
        // In bounds: offset + width - 8 >= 0 and (offset + width - 8) + 8 <= count (the caller's proof).
        let word = unsafe buffer.loadUnaligned(fromByteOffset: offset &+ width &- 8, as: UInt64.self)
        return UInt64(bigEndian: word) & mask
    }

    /// Calls `body(i, value)` for each of the `count` big-endian unsigned integers of `width` (1...8)
    /// bytes stored back to back from `offset` (an offset table). Returns false, calling nothing, when
    /// that range is not inside the buffer or starts before byte `8 - width`; the bounds are proven
    /// here once, so the loop reads without a check per entry.
    @inline(__always)
    func forEachUInt<E: Error>(
        offset: Int, count: Int, width: Int, _ body: (Int, UInt64) throws(E) -> Void
    ) throws(E) -> Bool {
        guard width >= 1, width <= 8, count >= 0, offset >= 8 &- width else { return false }
        let (length, overflow) = count.multipliedReportingOverflow(by: width)
        guard !overflow, contains(offset: offset, length: length, limit: self.count) else { return false }
        let mask = ByteReader.mask(width: width)
        var p = offset
        for i in 0..<count {
            // In bounds: p + width = offset + (i + 1) × width <= offset + length <= count (guards above),
            // and p + width >= offset + width >= 8.
            try body(i, unsafe uint(unchecked: p, width: width, mask: mask))
            p &+= width
        }
        return true
    }

    /// The low `8 × width` bits set: the mask `uint(unchecked:width:mask:)` takes for a width of 1...8.
    @inline(__always)
    static func mask(width: Int) -> UInt64 {
        width >= 8 ? .max : (1 << (8 &* UInt64(width))) &- 1
    }

    /// True when `offset ..< offset + length` lies inside `0 ..< limit` and `limit <= count`,
    /// computed without overflow.
    @inline(__always)
    func contains(offset: Int, length: Int, limit: Int) -> Bool {
        offset >= 0 && length >= 0 && limit <= count && offset <= limit && length <= limit &- offset
    }

    /// The bytes `offset ..< offset + length` as a buffer slice, or nil when out of range.
    func slice(offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        guard contains(offset: offset, length: length, limit: count) else { return nil }
        // In bounds: checked by `contains` above.
        return unsafe UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length])
    }

    /// The writer's 64-bit byte hash (`ByteHash`) of `offset ..< offset + length`; range proven by the caller.
    @inline(__always)
    @unsafe
    func hash(unchecked offset: Int, length: Int) -> UInt64 {
        assert(contains(offset: offset, length: length, limit: count))
        // In bounds: the caller's proof.
        return unsafe ByteHash.hash(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset &+ length]))
    }

    /// True when the byte ranges `a ..< a + length` and `b ..< b + length` hold the same bytes; both
    /// ranges proven by the caller.
    @inline(__always)
    @unsafe
    func sameBytes(unchecked a: Int, _ b: Int, length: Int) -> Bool {
        assert(contains(offset: a, length: length, limit: count) && contains(offset: b, length: length, limit: count))
        // In bounds: the caller's proof for both ranges.
        return unsafe ByteHash.same(
            UnsafeRawBufferPointer(rebasing: buffer[a..<a &+ length]),
            UnsafeRawBufferPointer(rebasing: buffer[b..<b &+ length]))
    }

    /// True when every byte of `offset ..< offset + length` is below 0x80; the caller has proven the range.
    @inline(__always)
    @unsafe
    func isASCII(unchecked offset: Int, length: Int) -> Bool {
        assert(contains(offset: offset, length: length, limit: count))
        let end = offset &+ length
        if length >= 16 && length <= 64, let base = unsafe buffer.baseAddress {
            // Four windows of 16 bytes placed by the length alone (`ByteWindows`, the writers'
            // too): each inside offset ..< end, together covering it. No branch depends on the
            // length: a loop of eight bytes at a time mispredicted its exit once a string
            // (measured: 2 of the 7.3 ms of a Codable decode of 212,000 strings of 16 to 56 bytes).
            // In bounds: the range is inside the buffer (the caller's proof), 16 <= length <= 64.
            return unsafe ByteWindows(loading: base + offset, count: length).union & 0x8080_8080_8080_8080 == 0
        }
        if length >= 8 {
            // Eight bytes at a time while eight remain (i + 8 <= end <= count), then the last eight
            // bytes end - 8 ..< end (inside the range because length >= 8), overlapping what was read.
            var bits: UInt64 = 0
            var i = offset
            while i &+ 8 <= end {
                bits |= unsafe buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            bits |= unsafe buffer.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self)
            return bits & 0x8080_8080_8080_8080 == 0
        }
        if length >= 4 {
            // The first and the last four bytes (both inside the range because 4 <= length < 8).
            let first = unsafe buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let last = unsafe buffer.loadUnaligned(fromByteOffset: end &- 4, as: UInt32.self)
            return (first | last) & 0x8080_8080 == 0
        }
        var bits: UInt8 = 0
        var i = offset
        while i < end {
            // offset <= i < end: inside the range.
            bits |= unsafe buffer.load(fromByteOffset: i, as: UInt8.self)
            i &+= 1
        }
        return bits & 0x80 == 0
    }

    /// The bytes `offset ..< offset + length` as a `String` when they are all ASCII (below 0x80), else
    /// nil; the caller has proven the range. One pass checks the bytes, a second copies them: the
    /// `String` is made from an ASCII-flagged `UTF8Span`, so the standard library does not validate again.
    @unsafe
    func asciiString(unchecked offset: Int, length: Int) -> String? {
        guard unsafe isASCII(unchecked: offset, length: length) else { return nil }
        guard length > 0, let base = unsafe buffer.baseAddress else { return "" }
        // In bounds: offset ..< offset + length is inside the buffer (the caller's proof), and every
        // byte is below 0x80 (checked above), which is valid UTF-8 and ASCII as `isKnownASCII` claims.
        let start = unsafe (base + offset).assumingMemoryBound(to: UInt8.self)
        let bytes = unsafe UnsafeBufferPointer(start: start, count: length)
        let span = unsafe bytes.span
        return String(copying: unsafe UTF8Span(unchecked: span, isKnownASCII: true))
    }

    /// Validated UTF-8 bytes decoded as a `String`, or nil when they are not valid UTF-8; range proven.
    @unsafe
    func string(validatingUTF8Unchecked offset: Int, length: Int) -> String? {
        assert(contains(offset: offset, length: length, limit: count))
        let bytes = unsafe UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length])
        return unsafe String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// A copy of the bytes `offset ..< offset + length` as `[UInt8]`; range proven by the caller.
    @unsafe
    func bytes(unchecked offset: Int, length: Int) -> [UInt8] {
        assert(contains(offset: offset, length: length, limit: count))
        return unsafe [UInt8](UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length]))
    }

    /// Decodes `units` UTF-16BE code units at `offset` into a `String`, or returns the index of the first
    /// unpaired surrogate. The caller has proven `offset ..< offset + 2 * units` is in range.
    @unsafe
    func string(utf16BEUnchecked offset: Int, units: Int) -> Result<String, UTF16Failure> {
        assert(units >= 0 && contains(offset: offset, length: units * 2, limit: count))
        // Worst case 3 UTF-8 bytes per unit (a pair: 4 bytes for 2 units).
        var failure: Int? = nil
        let s = unsafe String(unsafeUninitializedCapacity: units * 3) { out in
            var o = 0
            var i = 0
            while i < units {
                // Unit i is at offset + 2i, inside the proven range because i < units.
                let u = UInt32(
                    UInt16(
                        bigEndian: unsafe buffer.loadUnaligned(
                            fromByteOffset: offset + 2 * i, as: UInt16.self)))
                var scalar = u
                if u >= 0xD800 && u <= 0xDFFF {
                    // A high surrogate must be followed by a low one (i + 1 < units keeps it in range).
                    guard u <= 0xDBFF, i + 1 < units else {
                        failure = i
                        return 0
                    }
                    let low = UInt32(
                        UInt16(
                            bigEndian: unsafe buffer.loadUnaligned(
                                fromByteOffset: offset + 2 * (i + 1), as: UInt16.self)))
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        failure = i
                        return 0
                    }
                    scalar = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                    i += 1
                }
                i += 1
                // Output bounds: each consumed unit writes at most 3 bytes, a consumed pair 4 bytes,
                // so o never exceeds 3 * units = out.count.
                if scalar < 0x80 {
                    unsafe out[o] = UInt8(scalar)
                    o += 1
                } else if scalar < 0x800 {
                    unsafe out[o] = UInt8(0xC0 | (scalar >> 6))
                    unsafe out[o + 1] = UInt8(0x80 | (scalar & 0x3F))
                    o += 2
                } else if scalar < 0x10000 {
                    unsafe out[o] = UInt8(0xE0 | (scalar >> 12))
                    unsafe out[o + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                    unsafe out[o + 2] = UInt8(0x80 | (scalar & 0x3F))
                    o += 3
                } else {
                    unsafe out[o] = UInt8(0xF0 | (scalar >> 18))
                    unsafe out[o + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
                    unsafe out[o + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                    unsafe out[o + 3] = UInt8(0x80 | (scalar & 0x3F))
                    o += 4
                }
            }
            return o
        }
        if let failure { return .failure(UTF16Failure(unit: failure)) }
        return .success(s)
    }
}

/// An unpaired surrogate at code unit `unit` of a UTF-16 string.
struct UTF16Failure: Error {
    var unit: Int
}
