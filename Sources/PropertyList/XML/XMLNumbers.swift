// Sources/PropertyList/XML/XMLNumbers.swift - Decimal reals read without `String`: the exact conversion
// of a decimal of up to 19 significant digits to the nearest `Double`.
//
// Two steps, each exact where it answers, and a fallback (nil) everywhere else:
// 1. When the digits fit in 53 bits and the power of ten is at most 10^22, both are exact doubles and
//    one multiplication or division rounds once: the correctly rounded result.
// 2. Otherwise the 64-bit digits are multiplied by the leading 128 bits of 5^q (`powersOfFive`), which
//    gives the leading bits of the exact product with a known error bound; when those bits decide
//    the rounding they are the answer (the method of Eisel and Lemire, "Number Parsing at a Gigabyte
//    per Second", 2021), and when they cannot (the product's truncated bits could carry into the
//    rounding bit), nil. Results that are zero, subnormal or infinite also give nil.
// The general path (`XMLPlistReader.real`, Swift's own conversion) reads whatever gives nil.

enum XMLNumbers {
    /// 10^0 ... 10^22, each exactly a `Double`.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// A decimal real (`[+-]digits[.digits][(e|E)[+-]digits]`, at least one digit before the exponent)
    /// at `start`, read exactly, and the offset after it; nil for what the general path must read:
    /// more than 19 significant digits, a longer exponent, results steps 1 and 2 above do not prove.
    /// The caller checks that the real ends where the number does (`</real>` follows).
    @inline(__always)
    static func parseDouble(_ t: XMLInput, from start: Int) -> (value: Double, end: Int)? {
        var k = start
        var b = t.byte(k)
        var negative = false
        if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
            negative = b == UInt8(ascii: "-")
            k += 1
            b = t.byte(k)
        }
        var digits: UInt64 = 0
        var significant = 0
        var sawDigit = false
        var exponent = 0
        // Digits dropped after 19 significant ones would make the value inexact: give up then.
        while case let d = b &- UInt8(ascii: "0"), d < 10 {
            sawDigit = true
            if digits != 0 || d != 0 {
                guard significant < 19 else { return nil }
                digits = digits &* 10 &+ UInt64(d)
                significant += 1
            }
            k += 1
            b = t.byte(k)
        }
        if b == UInt8(ascii: ".") {
            k += 1
            b = t.byte(k)
            while case let d = b &- UInt8(ascii: "0"), d < 10 {
                sawDigit = true
                if digits != 0 || d != 0 {
                    guard significant < 19 else { return nil }
                    digits = digits &* 10 &+ UInt64(d)
                    significant += 1
                }
                exponent -= 1
                k += 1
                b = t.byte(k)
            }
        }
        guard sawDigit else { return nil }
        if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            k += 1
            b = t.byte(k)
            var negativeExponent = false
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                negativeExponent = b == UInt8(ascii: "-")
                k += 1
                b = t.byte(k)
            }
            var e = 0
            var exponentDigits = 0
            while case let d = b &- UInt8(ascii: "0"), d < 10 {
                guard exponentDigits < 5 else { return nil }
                e = e * 10 + Int(d)
                exponentDigits += 1
                k += 1
                b = t.byte(k)
            }
            guard exponentDigits > 0 else { return nil }
            exponent += negativeExponent ? -e : e
        }
        // The general path refuses text over 64 bytes.
        guard k - start <= 64 else { return nil }
        if digits == 0 { return (negative ? -0.0 : 0.0, k) }
        guard let magnitude = exactDouble(digits, exponent) else { return nil }
        return (negative ? -magnitude : magnitude, k)
    }

    /// The `Double` nearest to `w` × 10^`q` (w > 0), when steps 1 or 2 prove it; nil otherwise.
    static func exactDouble(_ w: UInt64, _ q: Int) -> Double? {
        if w <= 1 << 53 && q >= -22 && q <= 22 {
            let d = Double(w)
            return q >= 0 ? d * exactPowersOfTen[q] : d / exactPowersOfTen[-q]
        }
        guard q >= -342 && q <= 308 else { return nil }
        let lz = w.leadingZeroBitCount
        let normal = w << lz
        let index = 2 &* (q &+ 342)
        var (high, low) = normal.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits decide the result (52 stored, the implicit one, a rounding bit and the bit that tells
        // which way the product was normalised); when the 9 bits below them are all ones, a carry from
        // the truncated part of 5^q could change them: the second word of 5^q is added in.
        if high & 0x1FF == 0x1FF {
            let (second, _) = normal.multipliedFullWidth(by: powersOfFive[index &+ 1])
            let (sum, carry) = low.addingReportingOverflow(second)
            low = sum
            if carry { high &+= 1 }
            // Still undecided: an error of one unit in the last place of 128 bits could carry (only
            // outside -27...55, where 5^q is not held exactly).
            if high & 0x1FF == 0x1FF && low == UInt64.max && (q < -27 || q > 55) { return nil }
        }
        let upper = Int(high >> 63)
        let shift = UInt64(upper &+ 9)
        var mantissa = high >> shift
        // floor(q × log2(10)) + 63, plus the normalisation, biased by 1023.
        var power2 = ((217_706 &* q) >> 16) &+ 63 &+ upper &- lz &+ 1023
        guard power2 > 0 else { return nil }  // subnormal or zero: the general path
        // Exactly halfway between two doubles (possible only for -4 <= q <= 23): round to even.
        if low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa &+= mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 &+= 1
        }
        mantissa &= ~(1 << 52)
        guard power2 < 0x7FF else { return nil }  // infinite: the general path
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
