// Tests/PropertyListTests/CanonicalJSONTests.swift - PlistValue <-> canonical JSON, case by case.

import Foundation
import PropertyList
import Testing

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    @Test(
        "reals print as Python's repr",
        arguments: [
            (0.5, "0.5"), (1e16, "1e+16"), (1234567890123456.0, "1234567890123456.0"), (9.1e15, "9100000000000000.0"),
            (0.0001, "0.0001"), (0.00001, "1e-05"), (-0.0, "-0.0"), (0.0, "0.0"), (1.0, "1.0"), (100.0, "100.0"),
            (Double(Float(0.1)), "0.10000000149011612"), (Double.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (.infinity, "inf"), (-.infinity, "-inf"),
            (.nan, "nan"), (-1.5e-7, "-1.5e-07"), (123.456, "123.456"), (1e22, "1e+22"),
        ] as [(Double, String)])
    func pythonRepr(_ x: Double, _ repr: String) {
        #expect(PlistValue.pythonRepr(x) == repr)
        if !x.isNaN {
            #expect(PlistValue.parseRealForTesting(repr)?.bitPattern == x.bitPattern)
        }
    }

    @Test(
        "dates print as plistlib's ISO-8601, rounded to microseconds",
        arguments: [
            (0.0, "2001-01-01T00:00:00Z"), (-1.0, "2000-12-31T23:59:59Z"), (-0.5, "2000-12-31T23:59:59.500000Z"),
            (0.0000005, "2001-01-01T00:00:00Z"), (0.0000015, "2001-01-01T00:00:00.000002Z"),
            (-978_307_200.0, "1970-01-01T00:00:00Z"), (-63_113_904_000.0, "0001-01-01T00:00:00Z"),
            (252_423_993_599.0, "9999-12-31T23:59:59Z"), (951_782_400.0, "2031-02-29T00:00:00Z"),
        ] as [(Double, String)])
    func iso8601(_ seconds: Double, _ text: String) {
        if text == "2031-02-29T00:00:00Z" {
            // 2031 is not a leap year: the same instant is 2031-03-01.
            #expect(PlistValue.iso8601(secondsSinceReferenceDate: seconds) == "2031-03-01T00:00:00Z")
            #expect(PlistValue.secondsSinceReferenceDate(iso8601: text) == nil)
            return
        }
        #expect(PlistValue.iso8601(secondsSinceReferenceDate: seconds) == text)
        let back = PlistValue.secondsSinceReferenceDate(iso8601: text)
        #expect(back.map { abs($0 - seconds) <= 1e-6 } == true)
    }

    @Test("dates outside years 1...9999 print as seconds")
    func datesOutOfRange() throws {
        for x in [-63_114_076_800.0, 1e15, .nan, .infinity, -.infinity] {
            let v = PlistValue.date(Date(timeIntervalSinceReferenceDate: x))
            let json = try v.canonicalJSON()
            #expect(json == "{\n \"$date\": \"\(PlistValue.pythonRepr(x))\"\n}\n")
            #expect(try PlistValue(canonicalJSON: json) == v)
        }
    }

    @Test("strings use Python's ensure_ascii escapes")
    func strings() throws {
        let v: PlistValue = "a\"b\\c\n\t\u{1}\u{7F}é☃𝄞/"
        #expect(try v.canonicalJSON() == "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\\u00e9\\u2603\\ud834\\udd1e/\"\n")
        #expect(try PlistValue(canonicalJSON: v.canonicalJSON()) == v)
        #expect(try PlistValue(canonicalJSON: #""\ud834\uDD1E\/""#) == "𝄞/")
    }

    @Test("keys sort by code point, not by Swift's String order")
    func keyOrder() throws {
        // By scalar (Python), U+FF21 < U+1F600; by UTF-16 code unit the emoji (0xD83D…) would come first.
        let v: PlistValue = ["😀": 1, "Ａ": 2, "b": 3, "B": 4, "é": 5]
        let keys = try v.canonicalJSON().split(separator: "\n").filter { $0.hasPrefix(" \"") }.map {
            $0.split(separator: "\"")[1]
        }
        #expect(keys == ["B", "b", "\\u00e9", "\\uff21", "\\ud83d\\ude00"])
    }

    @Test("integers are exact over the whole 128-bit range")
    func integers() throws {
        for i in [Int128.min, Int128.min + 1, -1, 0, Int128(UInt64.max) + 1, Int128.max] {
            let json = try PlistValue.integer(PlistInteger(i)).canonicalJSON()
            #expect(json == String(i) + "\n")
            #expect(try PlistValue(canonicalJSON: json) == .integer(PlistInteger(i)))
        }
        let tooBig = "170141183460469231731687303715884105728"
        let e = #expect(throws: PlistError.self) { try PlistValue(canonicalJSON: tooBig) }
        #expect(e?.code == .syntax)
        #expect(e?.offset == 0)
        // Inside a $real, any size is fine: it is a double.
        #expect(try PlistValue(canonicalJSON: #"{"$real": \#(tooBig)}"#) == .real(1.7014118346046923e38))
        // Beside other keys, "$real" is an ordinary key, and the integer must fit again.
        let e2 = #expect(throws: PlistError.self) {
            try PlistValue(canonicalJSON: #"{"$real": \#(tooBig), "x": 1}"#)
        }
        #expect(e2?.code == .syntax)
        #expect(try PlistValue(canonicalJSON: #"{"$real": 1, "x": 1}"#) == ["$real": 1, "x": 1])
    }

    @Test("tagged values read in all their forms")
    func tagged() throws {
        #expect(try PlistValue(canonicalJSON: #"{"$real": 1}"#) == .real(1))
        #expect(try PlistValue(canonicalJSON: #"{"$real": "-0.0"}"#) == .real(-0.0))
        #expect(try PlistValue(canonicalJSON: #"{"$real": 2.5e-3}"#) == .real(0.0025))
        #expect(try PlistValue(canonicalJSON: #"{"$date": 1.5}"#) == .date(Date(timeIntervalSinceReferenceDate: 1.5)))
        #expect(
            try PlistValue(canonicalJSON: #"{"$date": "-1.5"}"#) == .date(Date(timeIntervalSinceReferenceDate: -1.5)))
        #expect(try PlistValue(canonicalJSON: #"{"$data": "AAH/"}"#) == .data(Data([0, 1, 255])))
        #expect(try PlistValue(canonicalJSON: #"{"$uid": 18446744073709551615}"#) == .uid(.max))
        #expect(try PlistValue(canonicalJSON: #"{"$set": [1, "a"]}"#) == .set(["a", 1]))
        #expect(
            try PlistValue(canonicalJSON: #"{"$dict": [[1, "one"], [{"$data": ""}, null]]}"#)
                == .dictionary(PlistDictionary([(.integer(1), "one"), (.data(Data()), .null)])))
        #expect(try PlistValue(canonicalJSON: #"{"a": 1, "a": 2}"#) == ["a": 2])
        #expect(try PlistValue(canonicalJSON: " 1.5 ") == .real(1.5))
    }

    @Test("a dictionary whose only key is a tag is written as $dict")
    func tagLikeKeys() throws {
        for tag in PlistValue.canonicalJSONTags.sorted() {
            let v: PlistValue = .dictionary(PlistDictionary([(.string(tag), .integer(1))]))
            let json = try v.canonicalJSON()
            #expect(json.contains("\"$dict\""))
            #expect(try PlistValue(canonicalJSON: json) == v)
        }
    }

    @Test(
        "malformed JSON is a syntax error at the right byte",
        arguments: [
            ("", 0), ("[1,]", 3), ("[1 2]", 3), ("{\"a\" 1}", 5), ("{\"a\":1,}", 7), ("01", 1), ("-", 1), ("1.", 2),
            ("1e", 2), ("\"abc", 0), ("\"a\u{1}\"", 2), ("\"\\x\"", 1), ("\"\\ud800\"", 1), ("\"\\udc00\"", 1),
            ("\"\\u12G4\"", 5), ("tru", 0), ("[1] x", 4), ("{\"$uid\": -1}", 9), ("{\"$uid\": 1.5}", 9),
            ("{\"$real\": true}", 10), ("{\"$date\": \"2001-13-01T00:00:00Z\"}", 10), ("{\"$data\": \"@@\"}", 10),
            ("{\"$set\": 1}", 9), ("{\"$dict\": [[1]]}", 10), ("[\n  1,\n  x]", 9), ("{1: 2}", 1),
        ] as [(String, Int)])
    func syntaxErrors(_ text: String, _ offset: Int) {
        let e = #expect(throws: PlistError.self) { try PlistValue(canonicalJSON: text) }
        #expect(e?.code == .syntax)
        #expect(e?.offset == offset, "\(e?.description ?? "")")
        #expect(e?.detail.hasPrefix("line ") == true)
    }

    @Test("line and column are reported")
    func lineAndColumn() {
        let e = #expect(throws: PlistError.self) { try PlistValue(canonicalJSON: "[\n  1,\n  x]") }
        #expect(e?.detail.hasPrefix("line 3, column 3:") == true, "\(e?.detail ?? "")")
    }

    @Test("invalid UTF-8 is a syntax error")
    func invalidUTF8() {
        let e = #expect(throws: PlistError.self) { try PlistValue(canonicalJSONBytes: [0x22, 0xFF, 0x22]) }
        #expect(e?.code == .syntax)
        #expect(e?.offset == 1)
    }

    @Test("deep nesting does not use the call stack")
    func deepNesting() throws {
        var v: PlistValue = 1
        for _ in 0..<1000 { v = [v] }
        let json = try v.canonicalJSON()
        // Deeper than PlistLimits.maxDepth (512) is limitExceeded, as in every other reader; within a
        // raised limit, the parser's stack is on the heap.
        let e = #expect(throws: PlistError.self) {
            try PlistValue(canonicalJSON: String(repeating: "[", count: 20_000))
        }
        #expect(e?.code == .limitExceeded)
        #expect(try PlistValue(json: Data(json.utf8), limits: PlistLimits(maxDepth: 2000)) == v)
        let shallow = #expect(throws: PlistError.self) {
            try PlistValue(json: Data(json.utf8), limits: PlistLimits(maxDepth: 999))
        }
        #expect(shallow?.code == .limitExceeded)
    }
}

extension PlistValue {
    /// `$real` strings go through the parser, as the tool reads them.
    static func parseRealForTesting(_ s: String) -> Double? {
        guard case .real(let d)? = try? PlistValue(canonicalJSON: "{\"$real\": \"\(s)\"}") else { return nil }
        return d
    }
}
