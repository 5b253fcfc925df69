// Tests/PropertyListTests/ShortestRealTests.swift - Reals as text: the XML writer's `<real>` and the
// canonical JSON's Python `repr` come from our own shortest-digits printer (Schubfach); every one is
// checked against Swift's `description` (the standard library's own printer, a separate algorithm) on
// the doubles where printers go wrong, and on random bit patterns and everyday magnitudes.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite("Shortest reals")
struct ShortestRealTests {
    /// Doubles where a shortest-digits printer goes wrong: the smallest subnormals, both sides of every
    /// power of two (the binade's lowest significand has a narrower gap below), of every power of ten,
    /// of 2^53 and 1e-4 (where the layout changes), ties between two candidates ((2^52 + j) / 4), and
    /// integers.
    static func hardCases() -> [Double] {
        var values: [Double] = []
        for t in UInt64(1)...3000 { values.append(Double(bitPattern: t)) }
        values.append(Double.leastNormalMagnitude.nextDown)
        for e in -1074...1023 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            values += [p, p.nextUp, p.nextDown, p.nextUp.nextUp]
        }
        var p10 = 1e-323
        while p10.isFinite {
            values += [p10, p10.nextUp, p10.nextDown]
            p10 *= 10
        }
        for j in 0..<3000 {
            values += [(4_503_599_627_370_496 + Double(j)) / 4, Double(j), Double(j) / 8, Double(j) / 100]
        }
        let twoTo53 = 9_007_199_254_740_992.0
        values += [twoTo53, twoTo53.nextDown, twoTo53.nextUp, 1e16, 1e16.nextDown, 1e-4, 1e-4.nextDown, 1e-4.nextUp]
        values += [Double.greatestFiniteMagnitude, 0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 123_456.789, 5e-324, 9.5e15]
        return values
    }

    /// Random bit patterns (every exponent alike) and everyday magnitudes, from a fixed seed.
    static func randomCases(_ count: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(2 * count)
        while values.count < 2 * count {
            let bits = Double(bitPattern: random.next())
            if bits.isFinite && bits != 0 { values.append(bits) }
            values.append(Double.random(in: -1e6...1e6, using: &random))
        }
        return values
    }

    /// What `<real>` holds: `description`, a trailing `.0` dropped as `%g` does.
    static func expectedXML(_ d: Double) -> String {
        let text = d.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Writes `values` (with their negations) as one XML array and checks each `<real>` line.
    static func checkXML(_ values: [Double]) throws {
        let all = values.flatMap { [$0, -$0] }.filter { $0.isFinite && $0 != 0 }
        let data = try XMLPlist.encode(.array(all.map { PlistValue.real($0) }))
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let reals = lines.compactMap { line -> Substring? in
            guard let open = line.range(of: "<real>"), let close = line.range(of: "</real>") else { return nil }
            return line[open.upperBound..<close.lowerBound]
        }
        try #require(reals.count == all.count)
        var mismatches = 0
        for (value, text) in zip(all, reals) where text != expectedXML(value) {
            mismatches += 1
            if mismatches <= 5 {
                let bits = String(value.bitPattern, radix: 16)
                Issue.record("bits 0x\(bits): wrote \(text), expected \(expectedXML(value))")
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(all.count) reals differ from description")
    }

    @Test("<real> holds description's digits and layout on the hard cases")
    func xmlHardCases() throws {
        try Self.checkXML(Self.hardCases())
    }

    @Test("<real> holds description's digits and layout on 400,000 random doubles")
    func xmlRandom() throws {
        try Self.checkXML(Self.randomCases(200_000, seed: 0x5eed_d1_6175))
    }

    @Test("<real> examples, written out")
    func xmlExamples() throws {
        let cases: [(Double, String)] = [
            (1, "1"), (-1, "-1"), (0.1, "0.1"), (123, "123"), (1e15, "1000000000000000"),
            (9_007_199_254_740_992, "9007199254740992"), (9_007_199_254_740_994, "9.007199254740994e+15"),
            (1e16, "1e+16"), (1e-4, "0.0001"), (1.2e-5, "1.2e-05"), (5e-324, "5e-324"), (1e-323, "1e-323"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (0.1 + 0.2, "0.30000000000000004"),
            (1_125_899_906_842_624.25, "1125899906842624.2"), (1_125_899_906_842_624.75, "1125899906842624.8"),
            (-2.5e-5, "-2.5e-05"), (1e100, "1e+100"), (123_456.789, "123456.789"), (0.001234, "0.001234"),
        ]
        let data = try XMLPlist.encode(.array(cases.map { PlistValue.real($0.0) }))
        let text = String(decoding: data, as: UTF8.self)
        let expected = cases.map { "\t<real>\($0.1)</real>\n" }.joined()
        #expect(text.contains("<array>\n" + expected + "</array>"))
    }

    @Test("Python repr: reads back exactly, with description's digits, in Python's layout")
    func pythonRepr() throws {
        // Python's layout, as `python3 -c 'print(repr(x))'` prints it.
        let python: [(Double, String)] = [
            (1e16, "1e+16"), (1e-5, "1e-05"), (1e-4, "0.0001"), (1_234_567_890_123_456, "1234567890123456.0"),
            (9_007_199_254_740_994, "9007199254740994.0"), (1e22, "1e+22"), (-0.5, "-0.5"), (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"), (123.0, "123.0"), (1.5e300, "1.5e+300"), (-1.2e-7, "-1.2e-07"),
        ]
        for (value, text) in python { #expect(PlistValue.pythonRepr(value) == text, "\(value)") }
        for value in Self.hardCases() + Self.randomCases(20_000, seed: 7) {
            let text = PlistValue.pythonRepr(value)
            #expect(Double(text) == value, "\(text)")
            #expect(Self.significantDigits(text) == Self.significantDigits(value.description), "\(text)")
        }
    }

    @Test("<integer> digits: every length, both sides of every power of ten, the extremes, random")
    func xmlIntegers() throws {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, .max, .min, .max - 1, .min + 1]
        var p: Int64 = 1
        for _ in 0..<18 {
            p *= 10
            values += [p - 1, p, p + 1, -(p - 1), -p, 9 * p, 5 * p + 3]
        }
        var random = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let bits = random.next()
            values.append(Int64(bitPattern: bits >> (bits & 63)))
        }
        let data = try XMLPlist.encode(.array(values.map { PlistValue.integer(PlistInteger($0)) }))
        let expected = values.map { "\t<integer>\($0)</integer>\n" }.joined()
        #expect(String(decoding: data, as: UTF8.self).contains("<array>\n" + expected + "</array>"))
    }

    /// The significant digits of a number's text (no sign, point, exponent, leading or trailing zeros).
    static func significantDigits(_ text: String) -> String {
        let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first ?? ""
        let digits = mantissa.filter(\.isNumber)
        return String(digits.drop(while: { $0 == "0" }).reversed().drop(while: { $0 == "0" }).reversed())
    }
}
