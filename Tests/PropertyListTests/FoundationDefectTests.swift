// Tests/PropertyListTests/FoundationDefectTests.swift - The Foundation defects FuzzDifferential met,
// each as its minimal input (fuzz/README.md, "Foundation defects: minimal reproducers"): what ours
// reads, and what Foundation on Linux (Swift 6.3) gets wrong. When a Foundation test here starts to
// fail, Foundation was fixed: move the class from "Foundation defect" to "equal" in fuzz/README.md
// and the DocC article "Where we differ from Foundation". The defects that trap Foundation (a set, a
// UID dictionary key; the keyed-archive traps) cannot run in this process: their inputs are kept in
// fuzz/regressions/ and replay with FUZZ_DIFF_ASK_ALL=1.

import Foundation
import PropertyList
import Testing

@Suite("Foundation defects the differential fuzzer found")
struct FoundationDefectTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    @Test("JSON: a trailing comma is a syntax error; JSONSerialization reads [1]")
    func jsonTrailingComma() throws {
        let data = Self.json("[1,]")
        #expect(throws: PlistError.self) { try PlistValue.decode(from: data, as: .json) }
        let theirs = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? [Int]
        #expect(theirs == [1])
    }

    @Test("JSON: text after a NUL is a syntax error; JSONSerialization stops at the NUL")
    func jsonStopsAtNUL() throws {
        let data = Data([0x31, 0x00, 0x78])  // 1, NUL, x
        #expect(throws: PlistError.self) { try PlistValue.decode(from: data, as: .json) }
        let theirs = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? Int
        #expect(theirs == 1)
    }

    @Test("JSON: 92.3372036854775808 is correctly rounded; JSONSerialization is one unit off")
    func jsonRealRounding() throws {
        let data = Self.json("92.3372036854775808")
        let ours = try PlistValue.decode(from: data, as: .json).value
        guard case .real(let value) = ours else {
            Issue.record("not a real: \(ours)")
            return
        }
        #expect(value.bitPattern == 0x4057_1594_bec4_4de1)
        #expect(value == Double("92.3372036854775808"))  // Swift's own parser rounds correctly
        let theirs = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? NSNumber
        #expect(theirs?.doubleValue.bitPattern == 0x4057_1594_bec4_4de0)
    }

    @Test("JSON: Int64.min is an integer; JSONSerialization reads a Double")
    func jsonInt64Min() throws {
        let data = Self.json("-9223372036854775808")
        #expect(try PlistValue.decode(from: data, as: .json).value == .int(Int64.min))
        let theirs = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? NSNumber
        #expect(theirs.map { String(cString: $0.objCType) } == "d")
    }

    @Test("OpenStep: a syntax error is an error; CoreFoundation returns the entries read before it")
    func openStepStringsPrefix() throws {
        for text in ["a = b;\n%", "/* x"] {
            let data = Data(text.utf8)
            #expect(throws: PlistError.self) { try PlistValue.decode(from: data, as: .openStep) }
            let theirs = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
            #expect(theirs == (text.hasPrefix("a") ? ["a": "b"] : [:]))
        }
    }

    @Test("OpenStep: an unterminated quote is an error; CoreFoundation skips it and reads on")
    func openStepUnterminatedQuote() throws {
        let data = Data("{a = {b = c;'}; d = e;}".utf8)
        #expect(throws: PlistError.self) { try PlistValue.decode(from: data, as: .openStep) }
        let theirs = try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
        #expect(theirs?["d"] as? String == "e")
        #expect((theirs?["a"] as? NSDictionary)?["b"] as? String == "c")
    }

    @Test("OpenStep in UTF-16: <data> with a non-ASCII character is an error; CoreFoundation reads its low byte")
    func openStepUTF16DataLowByte() throws {
        var data = Data([0xFF, 0xFE])
        for unit in "k = <0fa\u{2331} 23>;".utf16 { data += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(throws: PlistError.self) { try PlistValue.decode(from: data, as: .openStep) }
        let theirs = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Data]
        #expect(theirs?["k"] == Data([0x0F, 0xA1, 0x23]))
    }

    @Test("XML: a DOCTYPE's quoted literal may hold '>'; CoreFoundation ends the DOCTYPE there")
    func xmlDoctypeEndsEarly() throws {
        let text = """
            <?xml version="1.0"?><!DOCTYPE plist PUBLIC "-<array/>//x" "y"><plist><dict/></plist>
            """
        let data = Data(text.utf8)
        #expect(try PlistValue.decode(from: data).value == .dictionary(PlistDictionary()))
        #expect(throws: (any Error).self) { try PropertyListSerialization.propertyList(from: data, format: nil) }
    }

    @Test("Binary: an empty UTF-16 string is \"\"; CoreFoundation refuses the file")
    func binaryEmptyUTF16String() throws {
        // bplist00, object 0 = 0x60 (UTF-16 string of length 0), offset table, trailer.
        var bytes = Array("bplist00".utf8) + [0x60, 0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, 0, 9]
        let data = Data(bytes)
        #expect(try PlistValue.decode(from: data).value == .string(""))
        #expect(throws: (any Error).self) { try PropertyListSerialization.propertyList(from: data, format: nil) }
    }
}
