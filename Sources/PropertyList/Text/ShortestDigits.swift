// Sources/PropertyList/Text/ShortestDigits.swift - The fewest decimal digits that read back as a given double,
// the closest of them to it (ties to an even last digit): what Swift's `description` prints, found without
// making text, by the Schubfach method (R. Giulietti, "The Schubfach way to render doubles", 2020).
//
// A finite positive double is v = c * 2^q. Every real in its rounding interval (half-way to each
// neighbour; the ends included when c is even) reads back as v. Scaled by 10^-k, with k chosen so that
// the interval is 1 to 10 units wide, the interval holds at most one multiple of 10 and at least one of
// s = floor(v * 10^-k) and s + 1: the multiple of 10 is the shortest answer when there is one, else the
// closer of s and s + 1 that lies inside. The scaled values are computed as 4 * v * 10^-k rounded to odd
// (the floor, its lowest bit set when inexact) from a 126-bit 10^-k (ShortestDigitsTable.swift), which
// keeps every comparison with a multiple of 4 exact.

struct ShortestDigits {
    /// The significant digits without trailing zeros: 1 to 17 of them.
    var significand: UInt64
    /// `v = significand * 10^exponent`.
    var exponent: Int

    @inline(__always)
    init(significand: UInt64, exponent: Int) {
        self.significand = significand
        self.exponent = exponent
    }

    /// The shortest digits of a finite, non-zero `v`'s magnitude.
    @inline(__always)
    init(_ v: Double) {
        let bits = v.bitPattern
        let fraction = bits & (1 << 52 &- 1)
        let biased = Int(truncatingIfNeeded: bits >> 52 & 0x7ff)
        if biased == 0 {
            self = Self.scaled(c: fraction, q: -1074)
            return
        }
        let c = fraction | 1 << 52
        let q = biased &- 1075
        // An integer below 2^53 is its own shortest form: its interval is at most one unit wide.
        if q <= 0 && q > -53 {
            let f = c >> UInt64(-q)
            if f << UInt64(-q) == c {
                self = Self.trimmed(f, exponent: 0)
                return
            }
        }
        self = Self.scaled(c: c, q: q)
    }

    /// `significand * 10^exponent` without the trailing zeros of `significand` (> 0).
    @inline(__always)
    static func trimmed(_ significand: UInt64, exponent: Int) -> ShortestDigits {
        var f = significand
        var e = exponent
        // f != 0: no caller passes 0 (zero is handled before), but 0 would otherwise loop forever.
        while f != 0 {
            let q = f / 10
            if q &* 10 != f { break }
            f = q
            e &+= 1
        }
        return ShortestDigits(significand: f, exponent: e)
    }

    /// The digits of `c * 2^q`, `c` in 1 ..< 2^53.
    static func scaled(c: UInt64, q: Int) -> ShortestDigits {
        // An odd c rounds half-way points away, so the interval's ends are outside it.
        let outside: UInt64 = c & 1
        let cb = c << 2
        let cbr = cb &+ 2
        let cbl: UInt64
        let k: Int
        if c != 1 << 52 || q == -1074 {
            cbl = cb &- 2
            k = (q &* 661_971_961_083) >> 41  // floor(q * log10(2))
        } else {
            // The lowest c of a binade: the gap below is half the gap above.
            cbl = cb &- 1
            k = (q &* 661_971_961_083 &- 274_743_187_321) >> 41  // floor(log10(3/4 * 2^q))
        }
        // h in 1...5: 10^-k * 2^q is 1 to 40/3, so cb << h < 2^60.
        let h = q &+ ((-k) &* 913_124_641_741) >> 38 &+ 2  // q + floor(-k * log2(10)) + 2
        let index = 2 &* (-k &- scaleMin)
        let g1 = scales[index]
        let g0 = scales[index &+ 1]
        let vb = roundedToOdd(g1, g0, cb << UInt64(h))
        let vbl = roundedToOdd(g1, g0, cbl << UInt64(h))
        let vbr = roundedToOdd(g1, g0, cbr << UInt64(h))

        // The interval (4 * its ends: vbl, vbr) holds fewer than ten units: a multiple of 10 in it is
        // 10 * floor(s / 10) or the next one, and is the shortest answer.
        let s = vb >> 2
        let sp10 = s / 10 &* 10
        let tp10 = sp10 &+ 10
        let spIn = vbl &+ outside <= sp10 << 2
        let tpIn = tp10 << 2 &+ outside <= vbr
        if spIn != tpIn {
            return trimmed(spIn ? sp10 : tp10, exponent: k)
        }
        // Else s or s + 1, the one inside; both inside: the closer, an even one on a tie. Neither is a
        // multiple of 10 here (one inside would have been the answer above), so nothing to trim.
        let t = s &+ 1
        let sIn = vbl &+ outside <= s << 2
        let tIn = t << 2 &+ outside <= vbr
        if sIn != tIn {
            return ShortestDigits(significand: sIn ? s : t, exponent: k)
        }
        let distance = Int64(bitPattern: vb &- (s &+ t) << 1)
        return ShortestDigits(significand: distance < 0 || distance == 0 && s & 1 == 0 ? s : t, exponent: k)
    }

    /// floor(g * cp / 2^127) with its lowest bit set when the dropped part is not zero, for
    /// g = g1 * 2^63 + g0 (2^125 < g <= 2^126) and cp < 2^60.
    @inline(__always)
    static func roundedToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let y = g1.multipliedFullWidth(by: cp)
        // y.low >> 1 < 2^63 and x1 < 2^59: no overflow.
        let z = y.low >> 1 &+ x1
        let floor = y.high &+ z >> 63
        return floor | ((z & (1 << 63 &- 1)) &+ (1 << 63 &- 1)) >> 63
    }
}
