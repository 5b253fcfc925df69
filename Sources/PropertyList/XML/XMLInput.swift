// Sources/PropertyList/XML/XMLInput.swift - Unsafe fence: every read of the XML reader's input bytes.
//
// The reader parses the caller's `Data` in place (UTF-8, the common case) or the transcoding of
// UTF-16/UTF-32 text, borrowed for the length of one decode (`read`): no copy of the input. Every load
// either checks its index itself or runs where a loop condition proved it (`k + 16 <= count`, stated
// beside each use). `XMLInput` is only made inside `read`'s closure and never stored beyond it (the
// reader that holds it is a local of that closure).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The input bytes of one XML decode, borrowed: a random-access collection of `UInt8` whose indices are
/// byte offsets from the start of the text (after any byte-order mark).
@safe struct XMLInput: RandomAccessCollection {
    /// The borrowed bytes; valid only inside the `read` closure that made this value.
    private let base: UnsafeRawBufferPointer
    let count: Int

    private init(_ base: UnsafeRawBufferPointer) {
        unsafe self.base = base
        count = base.count
    }

    /// Runs `body` over `data`'s bytes from `start` on (a byte-order mark skipped), borrowed for the call.
    static func read<R, E: Error>(_ data: Data, from start: Int, _ body: (XMLInput) throws(E) -> R) throws(E) -> R {
        let span = data.bytes
        return try unsafe span.withUnsafeBytes { (raw) throws(E) -> R in
            // 0 <= start <= raw.count (clamped), so the rebased slice lies inside the borrowed bytes.
            let from = Swift.min(Swift.max(start, 0), raw.count)
            return try body(unsafe XMLInput(UnsafeRawBufferPointer(rebasing: raw[from...])))
        }
    }

    /// Runs `body` over `bytes` (a transcoding), borrowed for the call.
    static func read<R, E: Error>(_ bytes: [UInt8], _ body: (XMLInput) throws(E) -> R) throws(E) -> R {
        let span = bytes.span
        return try unsafe span.withUnsafeBytes { (raw) throws(E) -> R in try body(unsafe XMLInput(raw)) }
    }

    // MARK: Collection

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The byte at `k`, which must be in `0 ..< count` (checked).
    @inline(__always)
    subscript(k: Int) -> UInt8 {
        precondition(UInt(bitPattern: k) < UInt(bitPattern: count), "XML input index out of range")
        // 0 <= k < count: checked above.
        return unsafe base.load(fromByteOffset: k, as: UInt8.self)
    }

    // MARK: Reads

    /// The byte at `k`, or 0 outside the input (0 matches none of the structural bytes the reader tests).
    @inline(__always)
    func byte(_ k: Int) -> UInt8 {
        guard UInt(bitPattern: k) < UInt(bitPattern: count) else { return 0 }
        // 0 <= k < count: checked by the guard.
        return unsafe base.load(fromByteOffset: k, as: UInt8.self)
    }

    /// The eight bytes at `k` as a little-endian word (first byte lowest); bytes past the end read as 0.
    @inline(__always)
    func word(_ k: Int) -> UInt64 {
        guard k >= 0, k <= count &- 8 else { return slowWord(k) }
        // k >= 0 and k + 8 <= count: checked by the guard.
        return UInt64(littleEndian: unsafe base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
    }

    private func slowWord(_ k: Int) -> UInt64 {
        var w: UInt64 = 0
        for j in 0..<8 { w |= UInt64(byte(k &+ j)) << (8 &* UInt64(j)) }
        return w
    }

    /// The first offset at or after `k` holding `<` or `&` (the end of character data), or `count`.
    @inline(__always)
    func endOfText(from k: Int) -> Int { scanText(from: k).end }

    /// The end of the character data from `k` (the first `<` or `&`, or `count`), and whether the bytes
    /// before it are all ASCII: 16 bytes at a time, the block holding the end located by words.
    @inline(__always)
    func scanText(from start: Int) -> (end: Int, ascii: Bool) {
        var k = Swift.max(start, 0)
        let lt = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
        let amp = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
        // The OR of the bytes passed: their high bits say whether any is not ASCII.
        var high: UInt64 = 0
        while k <= count &- 16 {
            // k >= 0 and k + 16 <= count: the loop condition.
            let v = unsafe base.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            let w0 = UInt64(littleEndian: unsafe base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            let w1 = UInt64(littleEndian: unsafe base.loadUnaligned(fromByteOffset: k &+ 8, as: UInt64.self))
            if any((v .== lt) .| (v .== amp)) {
                // The block holds the end: its first markup byte, found in its two words. Smart shifts:
                // a shift by 64 gives 0 (no byte before the end).
                let m0 = XMLInput.markupBytes(w0)
                let end: Int
                if m0 != 0 {
                    let lead = m0.trailingZeroBitCount & ~7
                    end = k &+ lead >> 3
                    high |= w0 & (UInt64.max >> (64 &- lead))
                } else {
                    let lead = XMLInput.markupBytes(w1).trailingZeroBitCount & ~7
                    end = k &+ 8 &+ lead >> 3
                    high |= w0 | w1 & (UInt64.max >> (64 &- lead))
                }
                return (end, high & 0x8080_8080_8080_8080 == 0)
            }
            high |= w0 | w1
            k &+= 16
        }
        while k < count {
            // k < count (loop condition), k >= 0.
            let b = unsafe base.load(fromByteOffset: k, as: UInt8.self)
            if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { break }
            high |= UInt64(b)
            k &+= 1
        }
        return (k, high & 0x8080_8080_8080_8080 == 0)
    }

    /// The high bit of each byte of `w` that is `<` or `&`, and possibly of bytes above the first such
    /// byte (the lowest set bit is exact: the borrow of the zero-byte test only runs upwards).
    @inline(__always)
    static func markupBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let a = w ^ 0x3C3C_3C3C_3C3C_3C3C
        let b = w ^ 0x2626_2626_2626_2626
        return ((a &- ones) & ~a | (b &- ones) & ~b) & highs
    }

    /// The bytes `k ..< k + n` (n <= 16) as two little-endian words, zero past `n`; `k ..< k + n` must
    /// lie in the input.
    @inline(__always)
    func shortWords(_ k: Int, _ n: Int) -> (UInt64, UInt64) {
        precondition(n >= 0 && n <= 16 && k >= 0 && k <= count &- n, "XML input range")
        if k <= count &- 16 {
            // k >= 0 and k + 16 <= count: checked above.
            let w0 = UInt64(littleEndian: unsafe base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            let w1 = UInt64(littleEndian: unsafe base.loadUnaligned(fromByteOffset: k &+ 8, as: UInt64.self))
            // Smart shifts: by 64 or more they give 0.
            if n >= 8 { return (w0, w1 & (UInt64.max >> (128 &- 8 &* n))) }
            return (w0 & (UInt64.max >> (64 &- 8 &* n)), 0)
        }
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        for j in 0..<n {
            // k + j < k + n <= count: checked above.
            let b = UInt64(unsafe base.load(fromByteOffset: k &+ j, as: UInt8.self))
            if j < 8 { w0 |= b << (8 &* UInt64(j)) } else { w1 |= b << (8 &* UInt64(j &- 8)) }
        }
        return (w0, w1)
    }

    /// Whether every byte of `r` (clamped to the input) is ASCII.
    func isASCII(_ r: Range<Int>) -> Bool {
        var k = Swift.max(r.lowerBound, 0)
        let end = Swift.min(r.upperBound, count)
        var high: UInt64 = 0
        while k <= end &- 8 {
            // k >= 0 and k + 8 <= end <= count: the loop condition.
            high |= unsafe base.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k &+= 8
        }
        while k < end {
            // 0 <= k < end <= count.
            high |= UInt64(unsafe base.load(fromByteOffset: k, as: UInt8.self))
            k &+= 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The bytes of `r` as a `String`, or nil when they are not valid UTF-8. `r` must lie in the input.
    func validString(_ r: Range<Int>) -> String? {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "XML input range")
        // 0 <= r.lowerBound <= r.upperBound <= count: checked above.
        let bytes = unsafe UnsafeRawBufferPointer(rebasing: base[r]).assumingMemoryBound(to: UInt8.self)
        // Through `UTF8Span`: `String(validating:as:)` is generic over the encoding and looks up the
        // metadata of `UnsafeBufferPointer<UInt8>` on every call (about 330 instructions).
        guard let text = try? UTF8Span(validating: unsafe bytes.span) else { return nil }
        return String(copying: text)
    }

    /// The bytes of `r`, known to be ASCII, as a `String`. `r` must lie in the input.
    func asciiString(_ r: Range<Int>) -> String {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "XML input range")
        // 0 <= r.lowerBound <= r.upperBound <= count: checked above.
        let bytes = unsafe UnsafeRawBufferPointer(rebasing: base[r]).assumingMemoryBound(to: UInt8.self)
        return unsafe String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `r` decoded from base64 in the form writers produce: whitespace only between
    /// lines of whole four-character groups, `=` padding only in the last group. Nil for anything
    /// else (the general path then reads it, and names what is wrong).
    ///
    /// Decoded into a temporary buffer (on the stack for the short runs plists hold) of the size the
    /// groups of `r` bound (three bytes per four characters), then copied once into the `Data`.
    func base64(_ r: Range<Int>) -> Data? {
        guard r.lowerBound >= 0, r.upperBound <= count else { return nil }
        let table = XMLInput.base64Values
        let capacity = r.count / 4 &* 3
        return unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) {
            (dst) -> Data? in
            var k = r.lowerBound
            let end = r.upperBound
            var o = 0
            var finished = false
            while k < end {
                // r lies in the input (checked above), so k < end <= count.
                let b = unsafe base.load(fromByteOffset: k, as: UInt8.self)
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                    k &+= 1
                    continue
                }
                guard !finished, k &+ 4 <= end else { return nil }
                // k + 4 <= end <= count.
                let a = table[Int(b)]
                let b1 = table[Int(unsafe base.load(fromByteOffset: k &+ 1, as: UInt8.self))]
                let c = unsafe base.load(fromByteOffset: k &+ 2, as: UInt8.self)
                let d = unsafe base.load(fromByteOffset: k &+ 3, as: UInt8.self)
                guard a >= 0, b1 >= 0 else { return nil }
                let v2 = table[Int(c)]
                let v3 = table[Int(d)]
                // Each group of four characters (at most r.count / 4 of them) writes at most three
                // bytes, so o + 3 <= capacity <= dst.count before every group's stores.
                if v2 >= 0 && v3 >= 0 {
                    let q = UInt32(a) << 18 | UInt32(b1) << 12 | UInt32(v2) << 6 | UInt32(v3)
                    unsafe dst[o] = UInt8(truncatingIfNeeded: q >> 16)
                    unsafe dst[o &+ 1] = UInt8(truncatingIfNeeded: q >> 8)
                    unsafe dst[o &+ 2] = UInt8(truncatingIfNeeded: q)
                    o &+= 3
                } else if v2 >= 0 && d == UInt8(ascii: "=") {
                    let q = UInt32(a) << 18 | UInt32(b1) << 12 | UInt32(v2) << 6
                    unsafe dst[o] = UInt8(truncatingIfNeeded: q >> 16)
                    unsafe dst[o &+ 1] = UInt8(truncatingIfNeeded: q >> 8)
                    o &+= 2
                    finished = true
                } else if c == UInt8(ascii: "=") && d == UInt8(ascii: "=") {
                    unsafe dst[o] = UInt8(truncatingIfNeeded: (UInt32(a) << 18 | UInt32(b1) << 12) >> 16)
                    o &+= 1
                    finished = true
                } else {
                    return nil
                }
                k &+= 4
            }
            // o <= capacity <= dst.count bytes were written.
            guard o > 0, let start = dst.baseAddress else { return o == 0 ? Data() : nil }
            return unsafe Data(bytes: start, count: o)
        }
    }

    /// The value of each byte as a base64 digit, or -1.
    private static let base64Values: [Int8] = (0..<256).map { b in
        switch b {
        case 0x41...0x5A: Int8(b - 0x41)
        case 0x61...0x7A: Int8(b - 0x61 + 26)
        case 0x30...0x39: Int8(b - 0x30 + 52)
        case 0x2B: 62
        case 0x2F: 63
        default: -1
        }
    }

    /// The hash of the bytes of `r` (`ByteHash`, as a `PlistString` of the same text hashes). `r` must
    /// lie in the input.
    func hash(_ r: Range<Int>) -> UInt64 {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "XML input range")
        // 0 <= r.lowerBound <= r.upperBound <= count: checked above.
        return unsafe ByteHash.hash(UnsafeRawBufferPointer(rebasing: base[r]))
    }

    /// Appends the bytes of `r` to `buffer`. `r` must lie in the input.
    func append(_ r: Range<Int>, to buffer: inout [UInt8]) {
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "XML input range")
        // 0 <= r.lowerBound <= r.upperBound <= count: checked above.
        let bytes = unsafe UnsafeRawBufferPointer(rebasing: base[r]).assumingMemoryBound(to: UInt8.self)
        unsafe buffer.append(contentsOf: bytes)
    }
}
