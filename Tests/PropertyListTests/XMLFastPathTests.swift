// Tests/PropertyListTests/XMLFastPathTests.swift - The XML reader's and writer's fast paths against their
// general paths: escapes, entities, CDATA, comments, non-ASCII, UTF-16, text crossing the 16-byte scan
// blocks, numbers read and written without String, malformed input cut or changed at every byte.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

/// A document around `body`, in Apple's layout.
private func document(_ body: String) -> Data {
    Data(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<plist version=\"1.0\">\n" + body + "\n</plist>\n").utf8)
}

/// The same document with a space before the `>` of every tag: legal XML that no tag matches in its exact
/// form, so the reader takes its general path everywhere.
private func generalForm(_ data: Data) -> Data {
    var out: [UInt8] = []
    var inTag = false
    var previous: UInt8 = 0
    for b in data {
        if b == UInt8(ascii: "<") { inTag = true }
        if b == UInt8(ascii: ">") && inTag {
            // Not after "/" (an empty element), "?" or "-" (declarations, comments), "]" (CDATA).
            if ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "-"), UInt8(ascii: "]")].contains(previous) {
                out.append(UInt8(ascii: " "))
            }
            inTag = false
        }
        out.append(b)
        previous = b
    }
    return Data(out)
}

/// The value both paths read from `data` (recorded as an issue when they differ).
private func decodeBothWays(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> PlistValue {
    let fast = try XMLPlist.decode(data)
    let general = try XMLPlist.decode(generalForm(data))
    #expect(fast == general, "fast and general paths differ", sourceLocation: sourceLocation)
    return fast
}

/// What decoding gives: the value, or the error's code and offset. Never a crash.
private enum Outcome: Equatable {
    case value(PlistValue)
    case failure(PlistError.Code)
}

private func outcome(_ data: Data) -> Outcome {
    do {
        return .value(try XMLPlist.decode(data))
    } catch {
        #expect(error.offset.map { $0 >= 0 && $0 <= data.count } ?? true, "\(error)")
        return .failure(error.code)
    }
}

@Suite struct XMLFastPathReaderTests {
    @Test func entitiesAndCharacterReferencesInStringsAndKeys() throws {
        let v = try decodeBothWays(
            document(
                """
                <dict>
                \t<key>a&amp;b</key>
                \t<string>x &lt;&gt; &amp; &quot;&apos; &#65;&#x41;&#x1F415; y</string>
                \t<key>&#65;BC</key>
                \t<string>&#x10FFFF;</string>
                </dict>
                """))
        #expect(v["a&b"] == "x <> & \"' AA🐕 y")
        #expect(v["ABC"] == .string("\u{10FFFF}"))
    }

    @Test func cdataAndCommentsInText() throws {
        // Not both ways: the general form would put a space inside the CDATA section's "<b>".
        let v = try XMLPlist.decode(
            document("<array><string>a<![CDATA[<b> & ]]>c<!-- note -->d</string><string><!--x--></string></array>"))
        #expect(v == ["a<b> & cd", ""])
    }

    @Test func nonASCIIAroundTheInlineLimit() throws {
        // 1 to 40 bytes of two-byte characters and ASCII: inline strings, the 16-byte cache, slices.
        for n in 1...40 {
            let text = String(repeating: "é", count: n / 2) + String(repeating: "x", count: n % 2)
            let v = try decodeBothWays(document("<dict><key>\(text)</key><string>\(text)</string></dict>"))
            #expect(v[text] == .string(text), "\(n) bytes")
        }
    }

    @Test func invalidUTF8IsAnErrorAtItsFirstByte() throws {
        for length in [3, 15, 16, 17, 40] {
            for bad in [0, length / 2, length - 1] {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[bad] = 0xFF
                let head = Array("<?xml version=\"1.0\"?><plist><string>".utf8)
                let data = Data(head + bytes + Array("</string></plist>".utf8))
                #expect(throws: PlistError.self) { try XMLPlist.decode(data) }
                do {
                    _ = try XMLPlist.decode(data)
                } catch {
                    #expect(error.code == .syntax)
                    #expect(error.offset == head.count + bad, "\(length) bytes, bad at \(bad): \(error)")
                    #expect(error.detail.hasSuffix("invalid UTF-8"))
                }
            }
        }
    }

    @Test func utf16InputReadsAsUTF8Does() throws {
        let text =
            String(
                decoding: document("<dict><key>é</key><string>\(String(repeating: "xyz€", count: 9))</string></dict>"),
                as: UTF8.self)
        let expected = try XMLPlist.decode(Data(text.utf8))
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16] {
            let data = try #require(text.data(using: encoding))
            #expect(try XMLPlist.decode(data) == expected, "\(encoding)")
        }
    }

    @Test func textCrossingScanBlocks() throws {
        // A markup byte (an entity) at every position of strings up to 70 bytes, in plain and escaped form.
        for length in 0...70 {
            for at in stride(from: 0, to: max(length, 1), by: 5) {
                var plain = Array(repeating: "q", count: length)
                if length > 0 { plain[at] = "&" }
                let s = plain.joined()
                let escaped = s.replacingOccurrences(of: "&", with: "&amp;")
                let unescaped = s.replacingOccurrences(of: "&", with: "")
                let v = try decodeBothWays(
                    document("<array><string>\(escaped)</string><string>\(unescaped)</string></array>"))
                #expect(v[0] == .string(s), "\(length) bytes, & at \(at)")
                #expect(v[1] == .string(unescaped), "\(length) bytes")
                #expect(try XMLPlist.decode(try XMLPlist.encode(v)) == v)
            }
        }
    }

    @Test func integersAtTheFastPathLimits() throws {
        let texts = [
            "0", "-0", "7", "-7", "999999999999999999", "-999999999999999999", "1000000000000000000",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
            "-170141183460469231731687303715884105728", "170141183460469231731687303715884105727",
            "000000000000000000000042", "+5", " 5 ", "0x7f", "-0X10",
        ]
        for t in texts {
            let v = try decodeBothWays(document("<array><integer>\(t)</integer></array>"))
            let trimmed = t.trimmingCharacters(in: .whitespaces)
            let expected: Int128 =
                trimmed.lowercased().contains("x")
                ? (trimmed.hasPrefix("-") ? -1 : 1)
                    * Int128(trimmed.lowercased().replacingOccurrences(of: "-", with: "").dropFirst(2), radix: 16)!
                : Int128(trimmed)!
            #expect(v[0] == .integer(PlistInteger(expected)), "\(t)")
        }
    }

    @Test func realsReadExactlyAsSwiftReadsThem() throws {
        var rng = SplitMix64(seed: propertySeed())
        var texts: [String] = [
            "0", "-0", "0.0", ".5", "5.", "1e5", "1E+05", "-1.e-3", "123456789012345678", "1e22",
            "1e23", "9007199254740993", "9007199254740993.0", "4.9406564584124654e-324", "2.2250738585072014e-308",
            "1.7976931348623157e308", "1.7976931348623158e308", "1e-400", "1e400", "0.1", "0.30000000000000004",
            "1234567890123456789012", "00000.00000001",
        ]
        for _ in 0..<3000 {
            let bits = rng.next()
            let d = Double(bitPattern: bits)
            if d.isFinite { texts.append(d.description) }
            let digits = String(rng.next() % 10_000_000_000_000_000_000)
            let exponent = Int(rng.next() % 700) - 350
            texts.append("\(digits)e\(exponent)")
            // Halfway between two doubles: 2^53 + an odd number, scaled by a power of two written exactly.
            let odd = (UInt64(1) << 53) + 2 * (rng.next() % (1 << 20)) + 1
            texts.append(String(odd))
        }
        let body = "<array>" + texts.map { "<real>\($0)</real>" }.joined() + "</array>"
        let v = try decodeBothWays(document(body))
        guard case .array(let values) = v else { throw PlistError(.syntax, "not an array") }
        for (t, value) in zip(texts, values) {
            let expected = try #require(Double(t))
            #expect(value == .real(expected), "\(t)")
            if case .real(let d) = value { #expect(d.bitPattern == expected.bitPattern, "\(t)") }
        }
    }

    @Test func repeatedKeysKeepTheirFirstPlaceAndLastValue() throws {
        for width in [3, 12, 13, 40] {
            var body = "<dict>"
            for k in 0..<width { body += "<key>k\(k % (width - 1))</key><integer>\(k)</integer>" }
            body += "</dict>"
            let v = try decodeBothWays(document(body))
            guard case .dictionary(let d) = v else { throw PlistError(.syntax, "not a dictionary") }
            #expect(d.count == width - 1)
            #expect(d.entries.first?.key == "k0")
            #expect(d["k0"] == .integer(PlistInteger(width - 1)))
        }
        #expect(try decodeBothWays(document("<dict><key>CF$UID</key><integer>7</integer></dict>")) == .uid(7))
    }

    @Test func malformedInputCutAtEveryByteThrows() throws {
        let whole = document(
            "<dict><key>a&amp;</key><array><string>héllo wörld, 20 bytes+</string><integer>-42</integer>"
                + "<real>1.5</real><true/><false/><date>2020-01-02T03:04:05Z</date><data>AAEC</data>"
                + "<dict/><array/></array></dict>")
        #expect(outcome(whole) != .failure(.syntax))
        // Without its last byte (a newline) the document is whole.
        for cut in 0..<(whole.count - 1) {
            #expect(outcome(whole.prefix(cut)) == .failure(.syntax), "cut at \(cut)")
        }
    }

    @Test func malformedInputChangedAtEveryByteNeverCrashes() throws {
        let whole = document(
            "<dict><key>k</key><array><string>a&lt;b 0123456789abcdef</string><integer>12</integer>"
                + "<real>-0.5e3</real><true/><date>2020-01-02T03:04:05Z</date><data>AAEC</data></array></dict>")
        let replacements: [UInt8] = [
            0, 0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
            UInt8(ascii: "/"), UInt8(ascii: "x"), 0xC3, 0xFF,
        ]
        for k in 0..<whole.count {
            for r in replacements {
                var changed = whole
                changed[changed.startIndex + k] = r
                // A value, or an error with its offset in the input: the same either way on both paths
                // when the change left every tag in its exact form.
                _ = outcome(changed)
            }
        }
    }

    @Test func limitsHoldOnTheFastPath() throws {
        var limits = PlistLimits.default
        limits.maxDepth = 4
        let deep = document(String(repeating: "<array>", count: 5) + String(repeating: "</array>", count: 5))
        #expect(throws: PlistError.self) { try XMLPlist.decode(deep, limits: limits) }
        limits = .default
        limits.maxValues = 10
        let wide = document("<array>" + String(repeating: "<integer>1</integer>", count: 10) + "</array>")
        do {
            _ = try XMLPlist.decode(wide, limits: limits)
            Issue.record("more than maxValues values read")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }
}

@Suite struct XMLFastPathWriterTests {
    @Test func textIsEscapedAndCopiedAtEveryLength() throws {
        for length in 0...70 {
            for special in ["&", "<", ">", "é", "\t", "\u{FF01}"] {
                for at in [0, length / 2, max(length - 1, 0)] where length > 0 {
                    var chars = Array(repeating: "m", count: length)
                    chars[at] = special
                    let s = chars.joined()
                    let v: PlistValue = [
                        .string(s), .dictionary(PlistDictionary([(PlistValue.string(s), PlistValue.integer(1))])),
                    ]
                    let data = try XMLPlist.encode(v)
                    let text = String(decoding: data, as: UTF8.self)
                    let escaped = s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                        of: "<", with: "&lt;"
                    )
                    .replacingOccurrences(of: ">", with: "&gt;")
                    #expect(text.contains("<string>\(escaped)</string>"), "\(length) \(special) at \(at)")
                    #expect(text.contains("<key>\(escaped)</key>"), "\(length) \(special) at \(at)")
                    #expect(try XMLPlist.decode(data) == v)
                }
            }
        }
    }

    /// Short text (up to 16 bytes) is read as overlapping words, halves or bytes: every byte of every
    /// length lands in its place, and a special character is found at every position.
    @Test func shortTextKeepsEveryByteInPlace() throws {
        let letters = Array("abcdefghijklmnopqrst")
        for length in 0...18 {
            let s = String(letters.prefix(length))
            let v: PlistValue = [
                .string(s), .dictionary(PlistDictionary([(PlistValue.string(s), PlistValue.integer(1))])),
            ]
            let text = String(decoding: try XMLPlist.encode(v), as: UTF8.self)
            #expect(text.contains("<string>\(s)</string>"), "\(length)")
            #expect(text.contains("<key>\(s)</key>"), "\(length)")
            for at in 0..<length {
                var chars = letters.prefix(length).map(String.init)
                chars[at] = "<"
                let t = chars.joined()
                let written = String(decoding: try XMLPlist.encode(.string(t)), as: UTF8.self)
                #expect(
                    written.contains("<string>\(t.replacingOccurrences(of: "<", with: "&lt;"))</string>"),
                    "\(length) at \(at)")
            }
        }
    }

    @Test func charactersXMLCannotHoldAreRefusedAtEveryLength() throws {
        for length in [1, 7, 8, 15, 16, 17, 33] {
            for bad in ["\u{1}", "\u{FFFE}", "\u{FFFF}", "\u{1F}"] {
                let s = String(repeating: "a", count: length - 1) + bad
                for v: PlistValue in [
                    .string(s), .dictionary(PlistDictionary([(PlistValue.string(s), PlistValue.integer(1))])),
                ] {
                    do throws(PlistError) {
                        _ = try XMLPlist.encode(v)
                        Issue.record(
                            "\(length) bytes ending in U+\(String(bad.unicodeScalars.first!.value, radix: 16)) written")
                    } catch {
                        #expect(error.code == .unencodable)
                    }
                }
            }
        }
    }

    /// An array of strings read in place from a binary input is written in one run through its input;
    /// a string in it that XML cannot hold is refused with its place, as an owned one is.
    @Test func aSlicedStringXMLCannotHoldIsNamed() throws {
        let input = try BinaryPlistWriter().write(["an ordinary string, long", "bad \u{1} string here, long enough"])
        let value = try BinaryPlistDocument(input).value()
        do throws(PlistError) {
            _ = try XMLPlist.encode(value)
            Issue.record("U+0001 written")
        } catch {
            #expect(error.code == .unencodable)
            #expect(error.detail.hasPrefix("the string at \"1\" holds U+0001"), "\(error.detail)")
        }
    }

    /// The scan flags control bytes and `BE`/`BF` bytes as suspicious; text flagged that holds only XML
    /// characters (U+FFFD is `EF BF BD`, U+0FFE `E0 BF BE`, U+1FFFE `F0 9F BF BE`: only `EF BF BE` and
    /// `EF BF BF` are U+FFFE and U+FFFF) is written and reads back, by the tree's writer and the
    /// Codable encoder, as a string and as a key.
    @Test func suspiciousButValidTextIsWritten() throws {
        struct Row: Codable, Equatable {
            var text: String
            var keyed: [String: Int]
        }
        for length in [1, 8, 16, 17, 33] {
            for near in ["\u{FFFD}", "\u{FFEF}", "\u{0FFE}", "\u{0FFF}", "\u{1FFFE}", "\u{10FFFF}", "\t\u{FFFC}\n"] {
                let s = String(repeating: "a", count: length - 1) + near
                let v = PlistValue.dictionary(PlistDictionary([(.string("k"), .string(s)), (.string(s), .integer(1))]))
                #expect(try XMLPlist.decode(XMLPlist.encode(v)) == v, "\(length) \(near.debugDescription)")
                var xml = PlistEncoder()
                xml.outputFormat = .xml
                let row = Row(text: s, keyed: [s: 1])
                #expect(try PlistDecoder().decode(Row.self, from: xml.encode(row)) == row)
            }
        }
    }

    /// Text over 16 bytes is copied and classified 16 bytes at a time, the last block overlapping the one
    /// before: a byte to escape, or one XML cannot hold, is found at every position of every block, in
    /// strings sliced from an XML input (an array of them is written in one run) and in owned strings.
    @Test func everyPositionOfLongTextIsClassified() throws {
        for length in 17...50 {
            for at in 0..<length {
                var chars = Array(repeating: UInt8(ascii: "m"), count: length)
                chars[at] = UInt8(ascii: ">")
                let raw = String(decoding: chars, as: UTF8.self)
                let escaped = raw.replacingOccurrences(of: ">", with: "&gt;")
                // '>' may stand unescaped in XML text, so the reader slices these strings from its input.
                let input = Data(
                    ("<plist version=\"1.0\"><array><string>\(raw)</string><string>\(raw)</string></array></plist>")
                        .utf8)
                let sliced = try XMLPlist.decode(input)
                let text = String(decoding: try XMLPlist.encode(sliced), as: UTF8.self)
                #expect(
                    text.contains("\t<string>\(escaped)</string>\n\t<string>\(escaped)</string>"), "\(length) at \(at)")
                let owned = String(decoding: try XMLPlist.encode(.string(raw)), as: UTF8.self)
                #expect(owned.contains("<string>\(escaped)</string>"), "\(length) at \(at)")

                var bad = Array(repeating: "a", count: length - 2)
                bad.insert("\u{FFFE}", at: min(at, bad.count))  // 3 bytes: EF BF BE
                do throws(PlistError) {
                    _ = try XMLPlist.encode(.string(bad.joined()))
                    Issue.record("U+FFFE at \(at) of \(length + 1) bytes written")
                } catch {
                    #expect(error.code == .unencodable)
                }
            }
        }
    }

    @Test func realsAreSwiftsShortestForm() throws {
        var rng = SplitMix64(seed: propertySeed())
        var values: [Double] = [
            0.0, -0.0, 1.0, -1.0, 0.1, 100.0, 1e16, 1e-7, 1.5e300, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, .nan, .infinity, -.infinity, 123456789.0,
        ]
        for _ in 0..<2000 { values.append(Double(bitPattern: rng.next())) }
        for d in values {
            let text = String(decoding: try XMLPlist.encode(.real(d)), as: UTF8.self)
            let expected: String
            if d.isNaN {
                expected = "nan"
            } else if d.isInfinite {
                expected = d < 0 ? "-inf" : "inf"
            } else if d == 0 {
                expected = d.sign == .minus ? "-0.0" : "0.0"
            } else {
                let s = d.description
                expected = s.hasSuffix(".0") ? String(s.dropLast(2)) : s
            }
            #expect(text.contains("<real>\(expected)</real>"), "\(d.bitPattern)")
        }
    }

    /// `<date>` text in the proleptic Gregorian calendar: every day of years 1 to 400 (one whole cycle of
    /// the calendar, which repeats every 400 years), each the day after the one before by the leap-year
    /// rule; and every day from 1890 to 2110 at a different second, and random instants over years
    /// 1583...9999, against Foundation's ISO 8601 format (its own calendar arithmetic; before 1583 it
    /// switches to the Julian calendar, as property lists do not).
    @Test func datesFollowTheGregorianCalendarDayByDay() throws {
        var instants: [Double] = []
        var expected: [String] = []
        var (year, month, day) = (1, 1, 1)
        for n in 0..<146_097 {
            instants.append(-63_113_904_000 + Double(n) * 86_400)
            expected.append(
                String(repeating: "0", count: 4 - String(year).count) + "\(year)-" + (month < 10 ? "0" : "")
                    + "\(month)-" + (day < 10 ? "0" : "") + "\(day)T00:00:00Z")
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let length = month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
            day += 1
            if day > length { (day, month) = (1, month + 1) }
            if month > 12 { (month, year) = (1, year + 1) }
        }
        #expect((year, month, day) == (401, 1, 1))
        let from = -3_503_865_600.0  // 1890-01-01
        var foundation: [Double] = []
        for n in 0..<(221 * 366) where from + Double(n) * 86_400 < 3_502_569_600 {  // to 2110
            foundation.append(from + Double(n) * 86_400 + Double(n % 86_400))
        }
        var rng = SplitMix64(seed: propertySeed())
        for _ in 0..<20_000 {
            // 1583-01-01 ..< 10000-01-01, whole seconds.
            foundation.append(Double(Int64(rng.next() % 265_614_854_400) - 13_190_860_800))
        }
        instants += foundation
        expected += foundation.map { Date(timeIntervalSinceReferenceDate: $0).ISO8601Format() }
        let data = try XMLPlist.encode(.array(instants.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }))
        let written = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> Substring? in
            guard let open = line.range(of: "<date>"), let close = line.range(of: "</date>") else { return nil }
            return line[open.upperBound..<close.lowerBound]
        }
        try #require(written.count == instants.count)
        var mismatches = 0
        for (n, text) in written.enumerated() where text != expected[n] {
            mismatches += 1
            if mismatches <= 5 { Issue.record("\(instants[n]): wrote \(text), expected \(expected[n])") }
        }
        #expect(mismatches == 0, "\(mismatches) of \(instants.count) dates differ")
    }

    @Test func integersDatesAndDataAreWrittenAsBefore() throws {
        let integers: [PlistInteger] = [
            0, -1, 9, 10, 99, 100, PlistInteger(Int64.max), PlistInteger(Int64.min),
            PlistInteger(UInt64.max), PlistInteger(Int128.min), PlistInteger(Int128.max),
        ]
        for i in integers {
            #expect(
                String(decoding: try XMLPlist.encode(.integer(i)), as: UTF8.self).contains("<integer>\(i)</integer>"))
        }
        let dates: [(Double, String)] = [
            (0, "2001-01-01T00:00:00Z"), (-0.5, "2000-12-31T23:59:59Z"), (59.999, "2001-01-01T00:00:59Z"),
            (-978_307_200, "1970-01-01T00:00:00Z"), (-63_113_904_000, "0001-01-01T00:00:00Z"),
            (252_423_993_599, "9999-12-31T23:59:59Z"),
            // Outside the three-word fast path: each field zero-padded to its width (%04d counts the sign).
            (252_423_993_600, "10000-01-01T00:00:00Z"), (-63_177_062_400 + 3_723, "-001-01-01T01:02:03Z"),
            (-63_145_526_400, "0000-01-01T00:00:00Z"),
        ]
        for (t, text) in dates {
            let date = Date(timeIntervalSinceReferenceDate: t)
            let written = String(decoding: try XMLPlist.encode(.date(date)), as: UTF8.self)
            #expect(written.contains("<date>\(text)</date>"), "\(t): \(written)")
        }
        // Years outside 0...9999 (written digit by digit) read back as written.
        for t in [-63_200_000_000.0, -300_000_000_000, 252_423_993_600, 3e12] {
            let v = PlistValue.date(Date(timeIntervalSinceReferenceDate: t))
            #expect(try XMLPlist.decode(try XMLPlist.encode(v)) == v, "\(t)")
        }
        for length in [0, 1, 2, 3, 4, 5, 16, 17, 18, 44, 45, 46, 56, 57, 58, 100, 114, 115, 301] {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            for depth in [0, 1, 7, 8, 9] {
                var v = PlistValue.data(bytes)
                for _ in 0..<depth { v = [v] }
                let text = String(decoding: try XMLPlist.encode(v), as: UTF8.self)
                let tabs = min(depth, 8)
                let perLine = 76 - 8 * tabs
                let b64 = bytes.base64EncodedString()
                var lines = ""
                var rest = Substring(b64)
                while !rest.isEmpty {
                    lines += String(repeating: "\t", count: tabs) + rest.prefix(perLine) + "\n"
                    rest = rest.dropFirst(perLine)
                }
                let tagIndent = String(repeating: "\t", count: depth)
                #expect(text.contains("<data>\n\(lines)\(tagIndent)</data>"), "\(length) bytes at depth \(depth)")
                #expect(try XMLPlist.decode(text.data(using: .utf8)!) == v)
            }
        }
    }

    @Test func streamingWritesTheBytesEncodeReturns() throws {
        var g = PlistGenerator(seed: propertySeed(), profile: .xmlSafe)
        for _ in 0..<50 {
            let v = xmlSafe(g.value())
            guard let whole = try? XMLPlist.encode(v) else { continue }
            for capacity in [1, 7, 64, 1 << 16] {
                var chunks = Data()
                var sink = TextSink(capacity: capacity) { bytes in
                    chunks.append(contentsOf: bytes)
                    return true
                }
                try XMLPlist.write(v, into: &sink)
                let delivered = sink.finish()
                #expect(delivered)
                #expect(chunks == whole, "capacity \(capacity)")
            }
        }
    }

    @Test func writeThenReadRoundTripsGeneratedValues() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .xmlSafe)
            let v = xmlSafe(g.value())
            do {
                let data = try XMLPlist.encode(v)
                #expect(try XMLPlist.decode(data) == xmlForm(v), "seed \(seed)")
                #expect(try XMLPlist.decode(generalForm(data)) == xmlForm(v), "seed \(seed)")
                #expect(try XMLPlist.encode(try XMLPlist.decode(data)) == data, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }
}

/// What XML keeps of a value: sets become arrays, dates lose their fraction (rounded down).
private func xmlForm(_ v: PlistValue) -> PlistValue {
    switch v {
    case .set(let xs), .array(let xs): return .array(xs.map(xmlForm))
    case .dictionary(let d): return .dictionary(PlistDictionary(d.entries.map { ($0.key, xmlForm($0.value)) }))
    case .date(let d):
        return .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    default: return v
    }
}

/// The value with U+0000 (which XML 1.0 cannot hold; the generator's alphabet has it) made "0".
private func xmlSafe(_ v: PlistValue) -> PlistValue {
    switch v {
    case .string(let s): return .string(s.string.replacingOccurrences(of: "\u{0}", with: "0"))
    case .array(let xs): return .array(xs.map(xmlSafe))
    case .set(let xs): return .set(xs.map(xmlSafe))
    case .dictionary(let d): return .dictionary(PlistDictionary(d.entries.map { (xmlSafe($0.key), xmlSafe($0.value)) }))
    default: return v
    }
}

extension GenerationProfile {
    /// Values XML holds: no null, no non-string keys, no NaN (XML keeps no NaN payload).
    static let xmlSafe = GenerationProfile(
        sets: true, uids: true, null: false, int128: true, nan: false, fractionalDates: true, nonStringKeys: false)
}
