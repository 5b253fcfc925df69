// Sources/PropertyList/XML/XMLDigits.swift - Unsafe fence: decimal digits as the XML writer stores them.
//
// Integers eight digits to a word (the halves, quarters and digits of a number below 10^8 split in
// parallel lanes of one 64-bit word) and reals in `description`'s layout from ``ShortestDigits``, stored
// as whole words at a pointer into `XMLOutput`'s room, whose 16 bytes of slack take the bytes a word
// store writes past the digits. Split from XMLOutput.swift (the buffer itself) by what it holds.

extension XMLOutput {
    /// The number of decimal digits of `v` (1 for 0): floor(log10(2^bits)) from the bit length, one more
    /// when `v` reaches the next power of ten.
    @inline(__always)
    static func digitCount(_ v: UInt64) -> Int {
        // v | 1 has v's digit count (a power of ten is even), and 1 for 0.
        let w = v | 1
        let bits = 64 &- w.leadingZeroBitCount
        // t <= 19: an index of powersOfTen.
        let t = (bits &* 1233) >> 12
        return w >= powersOfTen[t] ? t &+ 1 : t
    }

    /// The eight decimal digits of `x` (< 10^8, leading zeros included) as ASCII, the first in the lowest
    /// byte: the halves, quarters and digits split in parallel lanes of one word.
    @inline(__always)
    static func eightDigits(_ x: UInt64) -> UInt64 {
        let high = x / 10_000
        // Two 32-bit lanes of at most 9999 each: x * 10486 >> 20 is x / 100 below 43699, and no product
        // reaches the next lane's bits that the mask keeps.
        var v = high | (x &- high &* 10_000) << 32
        let hundreds = (v &* 10_486) >> 20 & 0x0000_007F_0000_007F
        // Four 16-bit lanes of at most 99: x * 103 >> 10 is x / 10 below 179.
        v = hundreds | (v &- hundreds &* 100) << 16
        let tens = (v &* 103) >> 10 & 0x000F_000F_000F_000F
        v = tens | (v &- tens &* 10) << 8
        return v | 0x3030_3030_3030_3030
    }

    /// Stores the last `digits` (1...20) decimal digits of `v` at `p ..< p + digits`, leading zeros where
    /// `v` has fewer digits, in words of eight; it may write up to 8 bytes past them.
    @unsafe @inline(__always)
    static func store(_ v: UInt64, digits n: Int, at p: UnsafeMutableRawPointer) {
        // Every store is a word at an offset below n; the caller's room or slack takes n + 8 bytes.
        if n <= 8 {
            let w = eightDigits(v % 100_000_000) >> UInt64((8 &- n) &* 8)
            unsafe p.storeBytes(of: w.littleEndian, as: UInt64.self)
        } else if n <= 16 {
            let high = v / 100_000_000 % 100_000_000
            let low = v % 100_000_000
            unsafe p.storeBytes(of: (eightDigits(high) >> UInt64((16 &- n) &* 8)).littleEndian, as: UInt64.self)
            unsafe p.storeBytes(of: eightDigits(low).littleEndian, toByteOffset: n &- 8, as: UInt64.self)
        } else {
            let top = v / 10_000_000_000_000_000
            let rest = v &- top &* 10_000_000_000_000_000
            let high = rest / 100_000_000
            let low = rest &- high &* 100_000_000
            unsafe p.storeBytes(of: (eightDigits(top) >> UInt64((24 &- n) &* 8)).littleEndian, as: UInt64.self)
            unsafe p.storeBytes(of: eightDigits(high).littleEndian, toByteOffset: n &- 16, as: UInt64.self)
            unsafe p.storeBytes(of: eightDigits(low).littleEndian, toByteOffset: n &- 8, as: UInt64.self)
        }
    }

    /// Writes `v` as ``appendShortest(_:dropsPointZero:)`` describes at `p`, which must have 34 writable
    /// bytes; returns how many of them are kept (at most 24).
    @unsafe @inline(__always)
    static func writeShortest(_ v: Double, dropsPointZero: Bool, at p: UnsafeMutableRawPointer) -> Int {
        let shortest = ShortestDigits(v)
        let f = shortest.significand
        let n = XMLOutput.digitCount(f)
        // The decimal exponent of the first digit: v = d.ddd * 10^e.
        let e = shortest.exponent &+ n &- 1
        // At most 24 bytes are kept (a sign, 17 digits, and "0.000" or "." and "e-308"); the word stores
        // below reach 34 bytes at most (the caller's room).
        var at = 0
        if v.sign == .minus {
            unsafe p.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            at = 1
        }
        if e >= -4 && v.magnitude <= 9_007_199_254_740_992 {
            if e >= n &- 1 {
                // An integer (e <= 15): its digits, the zeros the exponent adds, ".0".
                unsafe XMLOutput.store(f, digits: n, at: p + at)
                at &+= n
                let zeros: UInt64 = 0x3030_3030_3030_3030
                unsafe p.storeBytes(of: zeros, toByteOffset: at, as: UInt64.self)
                unsafe p.storeBytes(of: zeros, toByteOffset: at &+ 8, as: UInt64.self)
                at &+= e &- (n &- 1)
                if !dropsPointZero {
                    unsafe p.storeBytes(of: UInt16(0x302e).littleEndian, toByteOffset: at, as: UInt16.self)  // ".0"
                    at &+= 2
                }
            } else if e >= 0 {
                // The digits, then the last n - 1 - e (at most 16) moved one byte on for the point after
                // the first e + 1: both words loaded before either is stored.
                unsafe XMLOutput.store(f, digits: n, at: p + at)
                let point = at &+ e &+ 1
                let tail0 = unsafe p.loadUnaligned(fromByteOffset: point, as: UInt64.self)
                let tail1 = unsafe p.loadUnaligned(fromByteOffset: point &+ 8, as: UInt64.self)
                unsafe p.storeBytes(of: tail0, toByteOffset: point &+ 1, as: UInt64.self)
                unsafe p.storeBytes(of: tail1, toByteOffset: point &+ 9, as: UInt64.self)
                unsafe p.storeBytes(of: UInt8(ascii: "."), toByteOffset: point, as: UInt8.self)
                at &+= n &+ 1
            } else {
                // "0." and -e - 1 zeros (e in -4 ... -1), then the digits.
                unsafe p.storeBytes(of: UInt64(0x3030_3030_2e30).littleEndian, toByteOffset: at, as: UInt64.self)
                at &+= 1 &- e
                unsafe XMLOutput.store(f, digits: n, at: p + at)
                at &+= n
            }
        } else {
            // d[.ddd]e±XX (two exponent digits at least): the digits one byte on, the first moved back
            // before the point.
            unsafe XMLOutput.store(f, digits: n, at: p + (at &+ 1))
            let first = unsafe p.load(fromByteOffset: at &+ 1, as: UInt8.self)
            unsafe p.storeBytes(of: first, toByteOffset: at, as: UInt8.self)
            if n > 1 {
                unsafe p.storeBytes(of: UInt8(ascii: "."), toByteOffset: at &+ 1, as: UInt8.self)
                at &+= n &+ 1
            } else {
                at &+= 1
            }
            let sign: UInt16 = e < 0 ? 0x2d65 : 0x2b65  // "e-", "e+"
            unsafe p.storeBytes(of: sign.littleEndian, toByteOffset: at, as: UInt16.self)
            at &+= 2
            let magnitude = UInt64(e.magnitude)
            let digits = magnitude < 100 ? 2 : 3
            unsafe XMLOutput.store(magnitude, digits: digits, at: p + at)
            at &+= digits
        }
        return at
    }

    /// 10^k for k in 0...19.
    static let powersOfTen: [UInt64] = [
        1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]
}
