// Sources/PropertyList/XML/XMLOutput.swift - Unsafe fence: the XML writer's output buffer.
//
// A block from `malloc` that grows with `realloc` (on Linux a large block is remapped, not copied),
// handed over as `Data` without a copy (`finish`) or drained into a `TextSink` as the writer goes.
// Every store first makes room for what it writes (`room`, a comparison with the capacity; the block
// always keeps 16 bytes of slack past the room asked for, so the word stores of short tags and
// digits may write up to 16 bytes and count fewer). Text is copied in bulk and classified in the same
// pass, 16 bytes at a time in SIMD registers: the bytes XML escapes (`&`, `<`, `>`) and those that need
// a closer look (control characters, and 0xEF, the lead byte of U+FFFE and U+FFFF).

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

/// The bytes of an XML property list as it is written.
@safe struct XMLOutput: ~Copyable {
    /// `capacity + slack` bytes from `malloc`, of which `0 ..< count` are written.
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0
    /// Bytes past `capacity` that a word store may touch (and not count).
    private static let slack = 16
    /// Runs of bytes saved to be written again (the Codable XML encoder's `<key>` lines): a block from
    /// `malloc` (none until the first), each run stored as its length (8 bytes) and its bytes, of which
    /// `snippetsUsed` bytes of `snippetsCapacity` are used.
    private var snippets: UnsafeMutableRawPointer? = nil
    private var snippetsUsed = 0
    private var snippetsCapacity = 0

    init(capacity: Int) {
        let n = Swift.max(capacity, 256)
        precondition(n <= Int.max / 4, "XML output size")
        guard let block = unsafe SpareBlock.allocate(n &+ XMLOutput.slack) else {
            preconditionFailure("out of memory (\(n) bytes)")
        }
        unsafe base = block.base
        self.capacity = unsafe block.size &- XMLOutput.slack
    }

    deinit {
        unsafe SpareBlock.give(base, size: capacity &+ XMLOutput.slack)
        unsafe free(snippets)
    }

    /// The address of the next `n` bytes (with `slack` more behind them); grows as needed.
    @inline(__always)
    private mutating func room(_ n: Int) -> UnsafeMutableRawPointer {
        precondition(n >= 0 && n <= Int.max / 4 &- count, "XML output size")
        if n > capacity &- count { grow(count &+ n) }
        // count + n <= capacity now: the n bytes from `count`, and `slack` more, are inside the block.
        return unsafe base + count
    }

    /// `room(n)` for the stores of tags, digits and tabs, whose `n` is a small constant (at most
    /// 64): `count` never passes `capacity`, which `grow` keeps below `Int.max / 4`, so `count + n`
    /// cannot overflow and the size check of `room` has nothing to catch (measured: a tenth of the
    /// instructions of a Codable XML encode of a million numbers went to it).
    @inline(__always)
    private mutating func smallRoom(_ n: Int) -> UnsafeMutableRawPointer {
        assert(n >= 0 && n <= 64, "smallRoom takes at most 64 bytes")
        if n > capacity &- count { grow(count &+ n) }
        // count + n <= capacity now: the n bytes from `count`, and `slack` more, are inside the block.
        return unsafe base + count
    }

    /// Makes room for `total` bytes in all (written and to come), so that the writes up to that size do
    /// not grow the block again.
    mutating func reserve(_ total: Int) {
        if total > capacity && total <= Int.max / 4 { grow(total) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = Swift.max(needed, capacity &* 2)
        // The bound `smallRoom` relies on (no allocation gets near it).
        precondition(newCapacity > 0 && newCapacity <= Int.max / 4, "XML output size")
        let block = unsafe SpareBlock.Block(base: base, size: capacity &+ XMLOutput.slack)
        guard let grown = unsafe SpareBlock.reallocate(block, used: count, to: newCapacity &+ XMLOutput.slack) else {
            preconditionFailure("out of memory (\(newCapacity) bytes)")
        }
        unsafe base = grown.base
        capacity = unsafe grown.size &- XMLOutput.slack
    }

    // MARK: Stores

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        let p = unsafe smallRoom(1)
        unsafe p.storeBytes(of: byte, as: UInt8.self)
        count &+= 1
    }

    /// The low `n` bytes (n <= 8) of `w`, first byte lowest.
    @inline(__always)
    mutating func append(word w: UInt64, _ n: Int) {
        let p = unsafe smallRoom(n)
        // 8 bytes from p are inside the block (n bytes of room and 16 of slack); n of them are counted.
        unsafe p.storeBytes(of: w.littleEndian, toByteOffset: 0, as: UInt64.self)
        count &+= n
    }

    /// The low `n` bytes (8 <= n <= 16) of the words `w0`, `w1`, first byte lowest.
    @inline(__always)
    mutating func append(words w0: UInt64, _ w1: UInt64, _ n: Int) {
        let p = unsafe smallRoom(n)
        // 16 bytes from p are inside the block (n bytes of room and 16 of slack); n of them are counted.
        unsafe p.storeBytes(of: w0.littleEndian, toByteOffset: 0, as: UInt64.self)
        unsafe p.storeBytes(of: w1.littleEndian, toByteOffset: 8, as: UInt64.self)
        count &+= n
    }

    /// `n` tabs.
    @inline(__always)
    mutating func append(tabs n: Int) {
        guard n > 0 else { return }
        if n <= 16 {
            append(words: 0x0909_0909_0909_0909, 0x0909_0909_0909_0909, n)
            return
        }
        let p = unsafe room(n)
        // n bytes of room at p.
        unsafe p.initializeMemory(as: UInt8.self, repeating: 0x09, count: n)
        count &+= n
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

    /// `bytes`, as they are (a `String`'s UTF-8, or any collection).
    mutating func append(contentsOf bytes: some Collection<UInt8>) {
        let n = bytes.count
        let p = unsafe room(n)
        var k = 0
        for b in bytes where k < n {
            // k < n: inside the n bytes of room at p.
            unsafe p.storeBytes(of: b, toByteOffset: k, as: UInt8.self)
            k &+= 1
        }
        count &+= k
    }

    /// `bytes` in base64 (RFC 4648, padded with `=`) as lines of at most `groupsPerLine` (>= 1) groups
    /// of four characters, each after `tabCount` (0...8) tabs and ending in a newline; nothing for no
    /// bytes. Every whole group of three bytes is read and stored as one word, with one check for room
    /// for all the lines.
    mutating func appendBase64(_ bytes: Span<UInt8>, tabs tabCount: Int, groupsPerLine: Int) {
        let n = bytes.count
        guard n > 0, groupsPerLine > 0, tabCount >= 0, tabCount <= 8 else { return }
        let groups = n / 3 &+ (n % 3 == 0 ? 0 : 1)
        let lines = groups / groupsPerLine &+ (groups % groupsPerLine == 0 ? 0 : 1)
        // total <= 13 * groups <= 13 * (n + 2) / 3: no overflow for any count of bytes in memory.
        let total = groups &* 4 &+ lines &* (tabCount &+ 1)
        let p = unsafe room(total)
        unsafe bytes.withUnsafeBytes { src in
            unsafe TextSink.base64Alphabet.withUnsafeBufferPointer { alphabet in
                guard let s = src.baseAddress, let table = alphabet.baseAddress, alphabet.count == 64 else { return }
                // Every index below is a 6-bit value: inside the 64 entries of `table`.
                @inline(__always) func group(_ q: UInt32) -> UInt32 {
                    let c0 = UInt32(unsafe table[Int(q >> 18 & 0x3F)])
                    let c1 = UInt32(unsafe table[Int(q >> 12 & 0x3F)])
                    let c2 = UInt32(unsafe table[Int(q >> 6 & 0x3F)])
                    let c3 = UInt32(unsafe table[Int(q & 0x3F)])
                    return c0 | c1 << 8 | c2 << 16 | c3 << 24
                }
                // The stores stay inside the `total` bytes of room at p, except the tabs' word, which may
                // reach 8 - tabCount bytes further, no more than 3 past `total` (a line holds at least a
                // group and its newline past its tabs): inside the slack.
                var at = 0
                var k = 0
                var inLine = 0
                while k &+ 3 <= n {
                    if inLine == 0 {
                        unsafe p.storeBytes(of: UInt64(0x0909_0909_0909_0909), toByteOffset: at, as: UInt64.self)
                        at &+= tabCount
                    }
                    // k + 2 < n: the three bytes are inside src.
                    let q =
                        UInt32(unsafe s.load(fromByteOffset: k, as: UInt8.self)) << 16
                        | UInt32(unsafe s.load(fromByteOffset: k &+ 1, as: UInt8.self)) << 8
                        | UInt32(unsafe s.load(fromByteOffset: k &+ 2, as: UInt8.self))
                    unsafe p.storeBytes(of: group(q).littleEndian, toByteOffset: at, as: UInt32.self)
                    at &+= 4
                    k &+= 3
                    inLine &+= 1
                    if inLine == groupsPerLine {
                        unsafe p.storeBytes(of: UInt8(0x0A), toByteOffset: at, as: UInt8.self)
                        at &+= 1
                        inLine = 0
                    }
                }
                if k < n {
                    // One or two bytes left (k < n < k + 3): the last group, padded.
                    if inLine == 0 {
                        unsafe p.storeBytes(of: UInt64(0x0909_0909_0909_0909), toByteOffset: at, as: UInt64.self)
                        at &+= tabCount
                    }
                    let two = k &+ 1 < n
                    var q = UInt32(unsafe s.load(fromByteOffset: k, as: UInt8.self)) << 16
                    if two { q |= UInt32(unsafe s.load(fromByteOffset: k &+ 1, as: UInt8.self)) << 8 }
                    let padding: UInt32 = two ? 0x3D00_0000 : 0x3D3D_0000  // "=" or "=="
                    let mask: UInt32 = two ? 0x00FF_FFFF : 0x0000_FFFF
                    unsafe p.storeBytes(of: (group(q) & mask | padding).littleEndian, toByteOffset: at, as: UInt32.self)
                    at &+= 4
                    inLine &+= 1
                }
                if inLine != 0 {
                    unsafe p.storeBytes(of: UInt8(0x0A), toByteOffset: at, as: UInt8.self)
                }
            }
        }
        count &+= total
    }

    /// What `appendScanning` found in the text it copied.
    struct TextClass {
        /// A `&`, `<` or `>`: the text must be written escaped.
        var escapes = false
        /// A control character (tab, LF, CR included) or 0xEF: the text may hold a character XML 1.0
        /// cannot hold, which the caller checks.
        var suspicious = false
    }

    /// Copies `bytes` as they are and classifies them for XML text (16 bytes at a time): the caller
    /// drops the copy (`truncate`) when they need escaping or hold a character XML cannot hold.
    mutating func appendScanning(_ bytes: Span<UInt8>) -> TextClass {
        let n = bytes.count
        if n <= 16 {
            // Short text (keys, names): its bytes in two words, zero past n, tested and stored whole.
            let (w0, w1) = unsafe bytes.withUnsafeBytes { src in unsafe XMLOutput.shortWords(src) }
            // The high bit of each of the first n bytes: the zero bytes past n test as control characters,
            // and the tests' borrows only run upwards, so masking them off leaves the first n exact.
            // Smart shifts: by 64 or more they give 0.
            let highs: UInt64 = 0x8080_8080_8080_8080
            let m0 = n >= 8 ? highs : highs & ~(UInt64.max << (8 &* UInt64(n)))
            let m1 = n >= 16 ? highs : highs & ~(UInt64.max << (8 &* UInt64(Swift.max(n &- 8, 0))))
            append(words: w0, w1, n)
            return TextClass(
                escapes: (XMLOutput.escapeBytes(w0) & m0) | (XMLOutput.escapeBytes(w1) & m1) != 0,
                suspicious: (XMLOutput.controlOrEF(w0) & m0) | (XMLOutput.controlOrEF(w1) & m1) != 0)
        }
        let p = unsafe room(n)
        let found = unsafe bytes.withUnsafeBytes { src in
            // room reserved n (== src.count > 16) bytes at p.
            unsafe XMLOutput.copyClassifying(src, to: p)
        }
        count &+= n
        return found
    }

    /// The bytes of `src` (at most 16) as two words, the first byte lowest, zero past them: loaded as
    /// two overlapping words, halves or bytes, each inside `src`, with no call to `memcpy` for a length
    /// it cannot know (a tenth of the short path's instructions went to it).
    @inline(__always)
    private static func shortWords(_ src: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = src.count
        guard n > 0, n <= 16, let s = src.baseAddress else { return (0, 0) }
        if n >= 8 {
            // Bytes 0 ..< 8 and n - 8 ..< n (8 <= n <= 16: both inside src); the second word's first
            // 16 - n bytes repeat the first word's last ones and are shifted out.
            let head = UInt64(littleEndian: unsafe s.loadUnaligned(as: UInt64.self))
            let tail = UInt64(littleEndian: unsafe s.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
            return (head, tail &>> UInt64((16 &- n) &* 8))
        }
        if n >= 4 {
            // Bytes 0 ..< 4 and n - 4 ..< n (4 <= n < 8: both inside src); the bytes both hold are
            // equal, so OR keeps them.
            let head = UInt64(UInt32(littleEndian: unsafe s.loadUnaligned(as: UInt32.self)))
            let tail = UInt64(UInt32(littleEndian: unsafe s.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)))
            return (head | tail &<< UInt64((n &- 4) &* 8), 0)
        }
        // 1 <= n <= 3: the first, middle and last bytes (some the same byte).
        let first = UInt64(unsafe s.load(as: UInt8.self))
        let middle = UInt64(unsafe s.load(fromByteOffset: n >> 1, as: UInt8.self))
        let last = UInt64(unsafe s.load(fromByteOffset: n &- 1, as: UInt8.self))
        return (first | middle &<< UInt64((n >> 1) &* 8) | last &<< UInt64((n &- 1) &* 8), 0)
    }

    /// Copies `src` (more than 16 bytes) to `dst` 16 bytes at a time, classifying each block as it goes
    /// through the registers: one pass over the text, no second read of the copy. The last block is the
    /// final 16 bytes, overlapping the one before (classes are ORed, so counting a byte twice is harmless).
    @inline(__always)
    private static func copyClassifying(_ src: UnsafeRawBufferPointer, to dst: UnsafeMutableRawPointer)
        -> TextClass
    {
        let n = src.count
        guard n >= 16, let s = src.baseAddress else { return TextClass() }
        let amp = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
        let lt = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
        let gt = SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
        let space = SIMD16<UInt8>(repeating: 0x20)
        let ef = SIMD16<UInt8>(repeating: 0xEF)
        var escapes = SIMDMask<SIMD16<Int8>>(repeating: false)
        var suspicious = SIMDMask<SIMD16<Int8>>(repeating: false)
        var k = 0
        while true {
            // k + 16 <= n: the loop's bound below, and the final block starts at n - 16 >= 0.
            let v = unsafe s.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            unsafe dst.storeBytes(of: v, toByteOffset: k, as: SIMD16<UInt8>.self)
            escapes = escapes .| (v .== amp) .| (v .== lt) .| (v .== gt)
            suspicious = suspicious .| (v .< space) .| (v .== ef)
            if k == n &- 16 { break }
            k = Swift.min(k &+ 16, n &- 16)
        }
        return TextClass(escapes: XMLOutput.anyLane(escapes), suspicious: XMLOutput.anyLane(suspicious))
    }

    /// Whether any lane of `mask` is set, as two words (the standard library's `any` reduces lane by
    /// lane through a generic `min` that is not inlined: about 60 instructions a call).
    @inline(__always)
    private static func anyLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        // A SIMDMask<SIMD16<Int8>> is 16 lanes of 0 or -1 bytes (its storage, SIMD16<Int8>): the same 16
        // bytes as two 8-byte words, both BitwiseCopyable.
        let words = unsafe unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Drops the bytes from `mark` on (written by the caller after it took `mark = count`).
    mutating func truncate(_ mark: Int) {
        precondition(mark >= 0 && mark <= count, "XML output mark")
        count = mark
    }

    /// Non-zero when a byte of `w` is below 0x20 or is 0xEF (exact as to whether one is: the zero-byte
    /// test's borrows only run upwards from such a byte).
    @inline(__always)
    private static func controlOrEF(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let ef = w ^ 0xEFEF_EFEF_EFEF_EFEF
        return ((w &- 0x2020_2020_2020_2020) & ~w | (ef &- ones) & ~ef) & highs
    }

    /// Non-zero when a byte of `w` is `&`, `<` or `>`.
    @inline(__always)
    private static func escapeBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let a = w ^ 0x2626_2626_2626_2626
        let b = w ^ 0x3C3C_3C3C_3C3C_3C3C
        let c = w ^ 0x3E3E_3E3E_3E3E_3E3E
        return ((a &- ones) & ~a | (b &- ones) & ~b | (c &- ones) & ~c) & 0x8080_8080_8080_8080
    }

    /// `bytes` with `&`, `<`, `>` escaped (`&amp;`, `&lt;`, `&gt;`): runs without them copied whole.
    mutating func appendEscaped(_ bytes: Span<UInt8>) {
        unsafe bytes.withUnsafeBytes { raw in
            let n = raw.count
            guard let src = raw.baseAddress else { return }
            var run = 0
            for k in 0..<n {
                // k < n = raw.count.
                let b = unsafe src.load(fromByteOffset: k, as: UInt8.self)
                let escape: (UInt64, Int)
                switch b {
                case UInt8(ascii: "&"): escape = (0x3B_706D_6126, 5)  // "&amp;"
                case UInt8(ascii: "<"): escape = (0x3B_746C_26, 4)  // "&lt;"
                case UInt8(ascii: ">"): escape = (0x3B_7467_26, 4)  // "&gt;"
                default: continue
                }
                let length = k &- run
                let p = unsafe room(length)
                // room reserved `length` bytes at p; run ..< k lies inside the lent bytes (run <= k < n).
                if length > 0 { unsafe p.copyMemory(from: src + run, byteCount: length) }
                count &+= length
                append(word: escape.0, escape.1)
                run = k &+ 1
            }
            let length = n &- run
            let p = unsafe room(length)
            // room reserved `length` bytes at p; run ..< n lies inside the lent bytes.
            if length > 0 { unsafe p.copyMemory(from: src + run, byteCount: length) }
            count &+= length
        }
    }

    // MARK: Numbers

    /// The decimal digits of `v`, with a `-` when it is negative.
    mutating func appendDecimal(_ v: Int64) {
        if v < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(v.magnitude)
    }

    /// The decimal digits of `v`.
    @inline(__always)
    mutating func appendDecimal(_ v: UInt64) {
        let digits = XMLOutput.digitCount(v)
        let p = unsafe smallRoom(digits)
        // room reserved `digits` bytes at p, and the slack behind them takes the 8 bytes store may
        // write past them.
        unsafe XMLOutput.store(v, digits: digits, at: p)
        count &+= digits
    }

    /// The decimal digits of `v`, with leading zeros to `minimumDigits` (at most 20) digits.
    @inline(__always)
    mutating func appendDecimal(_ v: UInt64, minimumDigits: Int) {
        // store writes the last n <= 20 digits of v, zero-padded.
        let digits = Swift.min(20, Swift.max(minimumDigits, XMLOutput.digitCount(v)))
        let p = unsafe smallRoom(digits)
        // As in appendDecimal(_:): room reserved `digits` bytes at p, the slack takes the 8 past them.
        unsafe XMLOutput.store(v, digits: digits, at: p)
        count &+= digits
    }

    /// `v` as Swift's `description` writes it, for a finite, non-zero value: the shortest digits that read
    /// back exactly (``ShortestDigits``), plain from 0.0001 up to 2^53 (`0.00012`, `123.0`,
    /// `9007199254740992.0`), else `1.2e-05`, `1e+16`; `dropsPointZero` drops a trailing `.0` as `%g` does.
    mutating func appendShortest(_ v: Double, dropsPointZero: Bool) {
        // At most 24 bytes are kept; writeShortest's word stores reach 34 bytes at most, inside the 32
        // asked for and the slack behind them.
        let p = unsafe smallRoom(32)
        count &+= unsafe XMLOutput.writeShortest(v, dropsPointZero: dropsPointZero, at: p)
    }

    /// `<real>`, `v` as ``appendShortest(_:dropsPointZero:)`` writes it, `</real>` and a line end, with
    /// one check for room.
    @inline(__always)
    mutating func appendRealElement(_ v: Double, dropsPointZero: Bool) {
        // 6 + 24 + 8 bytes are kept at most; the word stores reach 6 + 34 bytes, then 6 + 24 + 8: inside
        // the 48 asked for and the slack behind them.
        let p = unsafe smallRoom(48)
        unsafe p.storeBytes(of: UInt64(0x3e_6c61_6572_3c).littleEndian, as: UInt64.self)  // "<real>"
        let written = unsafe XMLOutput.writeShortest(v, dropsPointZero: dropsPointZero, at: p + 6)
        let at = 6 &+ written
        unsafe p.storeBytes(of: UInt64(0x0a3e_6c61_6572_2f3c).littleEndian, toByteOffset: at, as: UInt64.self)
        count &+= at &+ 8  // "</real>\n"
    }

    /// `<integer>`, the decimal digits of `v` (with a `-` when it is negative), `</integer>` and a line
    /// end, with one check for room.
    @inline(__always)
    mutating func appendIntegerElement(_ v: Int64) {
        // 9 + 1 + 19 + 11 bytes are kept at most; the stores reach 16 bytes from 0, 8 past the digits,
        // and 16 from the end tag: inside the 48 asked for and the slack behind them.
        let p = unsafe smallRoom(48)
        unsafe p.storeBytes(of: UInt64(0x7265_6765_746e_693c).littleEndian, as: UInt64.self)  // "<integer"
        unsafe p.storeBytes(of: UInt64(0x3e).littleEndian, toByteOffset: 8, as: UInt64.self)  // ">"
        var at = 9
        if v < 0 {
            unsafe p.storeBytes(of: UInt8(ascii: "-"), toByteOffset: at, as: UInt8.self)
            at = 10
        }
        let m = v.magnitude
        let digits = XMLOutput.digitCount(m)
        unsafe XMLOutput.store(m, digits: digits, at: p + at)
        at &+= digits
        // "</integer>\n"
        unsafe p.storeBytes(of: UInt64(0x6567_6574_6e69_2f3c).littleEndian, toByteOffset: at, as: UInt64.self)
        unsafe p.storeBytes(of: UInt64(0x0a_3e72).littleEndian, toByteOffset: at &+ 8, as: UInt64.self)
        count &+= at &+ 11
    }

    // MARK: Snippets

    /// Saves the bytes written from `mark` on (`mark` a `count` read before) to be written again;
    /// returns the snippet's place, for ``appendSnippet(_:)``.
    mutating func saveSnippet(from mark: Int) -> Int {
        let length = mark >= 0 && mark < count ? count &- mark : 0
        let at = snippetsUsed
        let needed = at &+ 8 &+ length
        if needed > snippetsCapacity {
            let newCapacity = Swift.max(needed, snippetsCapacity &* 2, 256)
            guard let p = unsafe realloc(snippets, newCapacity &+ XMLOutput.snippetSlack) else {
                preconditionFailure("out of memory (\(newCapacity) bytes)")
            }
            unsafe snippets = p
            snippetsCapacity = newCapacity
        }
        guard let block = unsafe snippets else { return at }
        // at + 8 + length <= snippetsCapacity: the length and the bytes fit in the block; mark ..< count is
        // written (length is 0 otherwise). storeBytes takes any alignment.
        unsafe block.storeBytes(of: length, toByteOffset: at, as: Int.self)
        unsafe (block + (at &+ 8)).copyMemory(from: base + mark, byteCount: length)
        // The slack behind the last snippet, zeroed: every byte a 32-byte load from a snippet's start
        // reads is initialised (needed + 32 <= snippetsCapacity + snippetSlack, the block's size).
        unsafe (block + needed).initializeMemory(as: UInt8.self, repeating: 0, count: XMLOutput.snippetSlack)
        snippetsUsed = needed
        return at
    }

    /// Bytes the snippet block keeps past its capacity, so that a short snippet is read as two 16-byte
    /// words whatever its length.
    private static let snippetSlack = 32

    /// Writes the snippet saved at `at` between `tabs` tabs before and `tabs` after (a dictionary
    /// entry's indentation, key line and its value's indentation), with one check for room.
    @inline(__always)
    mutating func appendSnippet(_ at: Int, tabs: Int) {
        guard tabs >= 0 && tabs <= 16 else {
            append(tabs: tabs)
            appendSnippet(at)
            append(tabs: tabs)
            return
        }
        precondition(at >= 0 && at <= snippetsUsed &- 8, "no snippet at \(at)")
        guard let block = unsafe snippets else { return }
        // As appendSnippet(_:); room reserves the tabs, the snippet and the tabs again (16 bytes of slack
        // behind them take the whole-word stores of the tabs).
        let length = unsafe block.loadUnaligned(fromByteOffset: at, as: Int.self)
        let p = unsafe room(tabs &+ length &+ tabs)
        let word: UInt64 = 0x0909_0909_0909_0909
        unsafe p.storeBytes(of: word, toByteOffset: 0, as: UInt64.self)
        unsafe p.storeBytes(of: word, toByteOffset: 8, as: UInt64.self)
        if length <= 32 && tabs &+ length >= 16 {
            // A short key line (most are): 32 bytes from the snippet's start as two words, no `memcpy`
            // call. They are inside the block and initialised (the snippet, then the next one or the
            // zeroed slack: at + 8 + 32 <= snippetsCapacity + snippetSlack). Stored at p + tabs, they end
            // at most at p + 2 tabs + length + 16 (tabs + length >= 16): inside the room and its slack;
            // the bytes past the snippet are overwritten by the tabs below, or left past `count`.
            let source = unsafe block + (at &+ 8)
            let low = unsafe source.loadUnaligned(as: SIMD16<UInt8>.self)
            let high = unsafe source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
            unsafe p.storeBytes(of: low, toByteOffset: tabs, as: SIMD16<UInt8>.self)
            unsafe p.storeBytes(of: high, toByteOffset: tabs &+ 16, as: SIMD16<UInt8>.self)
        } else {
            unsafe (p + tabs).copyMemory(from: block + (at &+ 8), byteCount: length)
        }
        unsafe p.storeBytes(of: word, toByteOffset: tabs &+ length, as: UInt64.self)
        unsafe p.storeBytes(of: word, toByteOffset: tabs &+ length &+ 8, as: UInt64.self)
        count &+= tabs &+ length &+ tabs
    }

    /// Writes the snippet saved at `at` (a place ``saveSnippet(from:)`` returned) again.
    @inline(__always)
    mutating func appendSnippet(_ at: Int) {
        precondition(at >= 0 && at <= snippetsUsed &- 8, "no snippet at \(at)")
        guard let block = unsafe snippets else { return }
        // A snippet starts at `at` (saveSnippet returned it): its length, then that many bytes, all inside
        // the used part of the block; room reserves `length` bytes at p.
        let length = unsafe block.loadUnaligned(fromByteOffset: at, as: Int.self)
        let p = unsafe room(length)
        unsafe p.copyMemory(from: block + (at &+ 8), byteCount: length)
        count &+= length
    }

    // MARK: Reordering

    /// Puts the runs of bytes that start at `starts` (ascending; the last runs to the end of the
    /// output) in the order of their `keys`' UTF-8 bytes: a dictionary's entries, written in the order
    /// they were encoded, sorted by key. Nothing moves when they are in order already.
    mutating func sortRuns(starts: [Int], keys: [String]) {
        let n = starts.count
        guard n > 1 && keys.count == n, let first = starts.first, first >= 0, first <= count else { return }
        var sorted = true
        for i in 1..<n where !keys[i &- 1].utf8.lexicographicallyPrecedes(keys[i].utf8) {
            sorted = false
            break
        }
        if sorted { return }
        let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        let length = count &- first
        // The runs lie inside first ..< count: the starts ascend from `first` and none passes `count`.
        for i in 1..<n where starts[i] < starts[i &- 1] || starts[i] > count { return }
        let copy = unsafe Array(UnsafeRawBufferPointer(start: base + first, count: length))
        var at = first
        unsafe copy.withUnsafeBytes { src in
            guard let s = src.baseAddress else { return }
            for i in order {
                let start = starts[i] &- first
                let end = (i &+ 1 < n ? starts[i &+ 1] : count) &- first
                // start ..< end is inside the copy (0 ... length), and the runs' lengths add up to `length`,
                // so at + (end - start) <= count: inside the written part of the block.
                unsafe (base + at).copyMemory(from: s + start, byteCount: end &- start)
                at &+= end &- start
            }
        }
    }

    // MARK: Handing over

    /// The written bytes as `Data`, which takes the block and gives it back when it is freed
    /// (`SpareBlock`: the next writer of that size takes it, its pages faulted in already). A block more
    /// than twice the size of its text is shrunk to size; a closer one is kept whole, so that it fits
    /// the next text of that size.
    consuming func finish() -> Data {
        let block = unsafe SpareBlock.Block(base: base, size: capacity &+ XMLOutput.slack)
        let n = count
        unsafe free(snippets)
        discard self
        return unsafe SpareBlock.data(block, count: n)
    }

    /// The written bytes as `Data` (as ``finish()``), leaving this buffer empty with a small new block.
    mutating func take() -> Data {
        var taken = XMLOutput(capacity: 0)
        swap(&self, &taken)
        return taken.finish()
    }

    /// Hands the written bytes to `sink` and empties the buffer.
    mutating func drain(into sink: inout TextSink) {
        guard count > 0 else { return }
        // 0 ..< count is written and inside the block; the buffer lives for the call.
        let bytes = unsafe UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        unsafe sink.write(bytes)
        count = 0
    }
}
