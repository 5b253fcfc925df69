// Tests/PropertyListTests/MarkerTests.swift - Every bplist00 marker, read through the lazy and owned APIs.

import Foundation
import PropertyList
import Testing

/// A one-object property list whose root is `object`.
func single(_ object: [UInt8]) -> Data { assemble([object]) }

@Suite struct MarkerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var value: PlistValue
        var testDescription: String { name }
    }

    static let scalars: [Case] = [
        Case(name: "null", bytes: [0x00], value: .null),
        Case(name: "false", bytes: [0x08], value: false),
        Case(name: "true", bytes: [0x09], value: true),
        Case(name: "int 1 byte", bytes: [0x10, 0xFF], value: 255),
        Case(name: "int 2 bytes (unsigned)", bytes: [0x11, 0xFF, 0xFE], value: 65534),
        Case(name: "int 4 bytes (unsigned)", bytes: [0x12, 0xFF, 0xFF, 0xFF, 0xFF], value: .int(UInt32.max)),
        Case(name: "int 8 bytes (signed)", bytes: [0x13] + be(UInt64(bitPattern: -26), 8), value: -26),
        Case(
            name: "int 8 bytes Int64.min", bytes: [0x13, 0x80] + Array(repeating: 0, count: 7), value: .int(Int64.min)),
        Case(
            name: "int 16 bytes UInt64.max",
            bytes: [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8),
            value: .int(UInt64.max)),
        Case(name: "int 16 bytes -1 (signed 128-bit)", bytes: [0x14] + Array(repeating: 0xFF, count: 16), value: -1),
        Case(
            name: "int 16 bytes, non-zero high half", bytes: [0x14] + Array(1...16),
            value: .integer(PlistInteger(Int128(0x0102_0304_0506_0708) << 64 | Int128(0x090a_0b0c_0d0e_0f10)))),
        Case(name: "real 4 bytes", bytes: [0x22] + be(UInt64(Float(1.5).bitPattern), 4), value: 1.5),
        Case(name: "real 8 bytes", bytes: [0x23] + be(0.1.bitPattern, 8), value: 0.1),
        Case(name: "real -0.0", bytes: [0x23] + be((-0.0).bitPattern, 8), value: .real(-0.0)),
        Case(
            name: "date", bytes: [0x33] + be(1.5e9.bitPattern, 8),
            value: .date(Date(timeIntervalSinceReferenceDate: 1.5e9))),
        Case(name: "data", bytes: [0x43, 1, 2, 3], value: .data(Data([1, 2, 3]))),
        Case(
            name: "data, extended count", bytes: [0x4F, 0x10, 0x0F] + Array(repeating: 9, count: 15),
            value: .data(Data(repeating: 9, count: 15))),
        Case(
            name: "data, extended count in 8 bytes", bytes: [0x4F, 0x13] + be(2, 8) + [7, 8],
            value: .data(Data([7, 8]))),
        Case(name: "empty ASCII string", bytes: [0x50], value: ""),
        Case(name: "ASCII string", bytes: ascii("hello"), value: "hello"),
        Case(name: "UTF-16 string", bytes: [0x62, 0x00, 0xE9, 0x00, 0x74], value: "ét"),
        Case(name: "UTF-16 surrogate pair", bytes: [0x62, 0xD8, 0x3D, 0xDE, 0x00], value: "😀"),
        Case(name: "UID 1 byte", bytes: [0x80, 0x07], value: .uid(7)),
        Case(name: "UID 2 bytes", bytes: [0x81, 0x01, 0x00], value: .uid(256)),
        Case(name: "UID 4 bytes", bytes: [0x83, 0xFF, 0xFF, 0xFF, 0xFF], value: .uid(UInt64(UInt32.max))),
        Case(name: "UID 3 bytes", bytes: [0x82, 0x01, 0x00, 0x00], value: .uid(65536)),
    ]

    @Test(arguments: scalars)
    func readsScalar(_ c: Case) throws {
        #expect(try decode(single(c.bytes)) == c.value)
    }

    @Test func lazyObjectsKeepPayloadsInTheInput() throws {
        let data = assemble([[0xA3, 1, 2, 3], ascii("hi"), [0x62, 0x00, 0xE9, 0x00, 0x74], [0x42, 0xCA, 0xFE]])
        let doc = try BinaryPlistDocument(data)
        guard case .array(let refs) = try doc.object(doc.root) else {
            Issue.record("root is not an array")
            return
        }
        #expect(refs.count == 3)
        #expect(Array(refs) == [ObjectRef(1), ObjectRef(2), ObjectRef(3)])
        #expect(try doc.object(refs[0]) == .asciiString(ByteRange(offset: 13, count: 2)))
        #expect(try doc.object(refs[1]) == .utf16String(ByteRange(offset: 16, count: 4)))
        #expect(try doc.object(refs[2]) == .data(ByteRange(offset: 21, count: 2)))
        #expect(try doc.string(refs[0]) == "hi")
        #expect(try doc.string(refs[1]) == "ét")
        #expect(try doc.string(refs[0], equals: "hi"))
        #expect(try !doc.string(refs[0], equals: "ho"))
        #expect(try doc.data(refs[2]) == Data([0xCA, 0xFE]))
        #expect(try doc.string(refs[2]) == nil)
    }

    @Test func readsContainers() throws {
        let objects: [[UInt8]] = [
            [0xD2, 1, 2, 3, 4],  // {"s": set, "d": dict}
            ascii("s"), ascii("d"),
            [0xC2, 5, 6],  // set {1, 2}
            [0xD1, 7, 5],  // {3: 1} (integer key)
            [0x10, 1], [0x10, 2], [0x10, 3],
        ]
        let v = try decode(assemble(objects))
        #expect(v["s"] == .set([1, 2]))
        #expect(v["s"] == .set([2, 1]), "set equality ignores order")
        #expect(v["d"] == .dictionary(PlistDictionary([(3, 1)])))
    }

    @Test func aFillByteIsAnObjectButNotAValue() throws {
        let doc = try BinaryPlistDocument(single([0x0F]))
        #expect(try doc.object(doc.root) == .fill)
        expectFailure(.corrupted, offset: 8) { try doc.value() }
    }

    static let rejected: [(String, [UInt8], PlistError.Code)] = [
        ("int of 32 bytes (0x15)", [0x15] + Array(repeating: 0, count: 32), .corrupted),
        ("real of 2 bytes", [0x21, 0, 0], .corrupted),
        ("real of 16 bytes", [0x24] + Array(repeating: 0, count: 16), .corrupted),
        ("date marker 0x34", [0x34] + Array(repeating: 0, count: 8), .corrupted),
        ("bplist1x URL marker", [0x0C], .unknownMarker),
        ("bplist1x UUID marker", [0x0E], .unknownMarker),
        ("undefined 0x01", [0x01], .unknownMarker),
        ("UTF-8 string marker (bplist1x)", [0x71, 0x41], .unknownMarker),
        ("unused 0x9n", [0x90], .unknownMarker),
        ("ordered set (bplist1x)", [0xB0], .unknownMarker),
        ("unused 0xEn", [0xE0], .unknownMarker),
        ("unused 0xFn", [0xF0], .unknownMarker),
        ("non-ASCII byte in ASCII string", [0x52, 0x41, 0xE9], .invalidString),
        ("lone high surrogate", [0x61, 0xD8, 0x3D], .invalidString),
        ("lone low surrogate", [0x62, 0xDE, 0x00, 0x00, 0x41], .invalidString),
        ("UID wider than 8 bytes with a non-zero high byte", [0x88, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], .limitExceeded),
        ("extended count that is not an int", [0x4F, 0x50], .corrupted),
        ("negative extended count", [0x4F, 0x13] + be(UInt64(bitPattern: -1), 8), .corrupted),
        ("int payload past the region", [0x13, 0, 0], .truncatedObject),
        ("data longer than the file", [0x4F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF], .truncatedObject),
    ]

    @Test func rejectsMalformedMarkers() {
        for (name, bytes, code) in Self.rejected {
            let e = expectFailure(code) { try decode(single(bytes)) }
            #expect(e?.object == 0, "\(name)")
            #expect(e?.offset != nil, "\(name)")
        }
    }

    @Test func uidLimitIsConfigurable() throws {
        let data = single([0x84, 0x01, 0, 0, 0, 0])
        #expect(try decode(data) == .uid(1 << 32))
        expectFailure(.limitExceeded, offset: 8) {
            try decode(data, limits: PlistLimits(maxUID: UInt64(UInt32.max)))
        }
    }

    @Test func asciiStringsMayBeReadAsUTF8WhenAsked() throws {
        let data = single([0x52, 0xC3, 0xA9])  // "é" as UTF-8 bytes in an ASCII marker
        expectFailure(.invalidString, offset: 9) { try decode(data) }
        #expect(try decode(data, options: .init(allowsUTF8InASCIIStrings: true)) == "é")
        expectFailure(.invalidString) {
            try decode(single([0x51, 0xFF]), options: .init(allowsUTF8InASCIIStrings: true))
        }
    }

    @Test func reportsTheOffsetOfAnUnpairedSurrogate() {
        let e = expectFailure(.invalidString, offset: 11) { try decode(single([0x62, 0x00, 0x41, 0xDC, 0x00])) }
        #expect(e?.detail.contains("code unit 1") == true)
    }
}

@Suite struct DuplicateKeyTests {
    /// `{k1: 1, k2: 2}` with two key objects; the value is what the decoder keeps.
    func twoKeys(_ k1: [UInt8], _ k2: [UInt8]) throws -> PlistValue {
        try BinaryPlistDocument(assemble([[0xD2, 1, 2, 3, 4], k1, k2, [0x10, 1], [0x10, 2]])).value()
    }

    @Test func equalTextInTwoEncodingsIsOneKey() throws {
        // "a" as ASCII and as UTF-16: one key, the last value wins (as in the corpus' go-plist case).
        let v = try twoKeys(ascii("a"), [0x61, 0x00, 0x61])
        #expect(v == .dictionary(PlistDictionary([("a", 2)])))
    }

    @Test func equalTextInTwoObjectsIsOneKey() throws {
        #expect(try twoKeys(ascii("k"), ascii("k")) == .dictionary(PlistDictionary([("k", 2)])))
    }

    @Test func keysRepeatedAsSeparateObjectsDecodeAsWritten() throws {
        // Every dictionary with its own key objects (no deduplication), as swift-corelibs-foundation
        // writes archives: keys are reused by their bytes, values stay per dictionary.
        let dicts: [PlistValue] = (0..<300).map { i in
            .dict(["name": .string("n\(i)"), "age": .int(i), "a-longer-key-1": .bool(i % 2 == 0), "é": .int(-i)])
        }
        let value = PlistValue.array(dicts + [.dict(["name": 1, "nam": 2, "names": 3])])
        let data = try BinaryPlistWriter(deduplicate: false).write(value)
        #expect(try BinaryPlistDocument(data).value() == value)
    }

    @Test func repeatedShortKeysDifferingInOneByteStayApart() throws {
        // Keys of 1 to 9 bytes, each with one byte changed at every position, every dictionary with its
        // own key objects: a key of at most 8 bytes is recognised by its length and one word made of
        // some of its bytes (`ByteReader.shortWord`), which must still tell every byte apart.
        var keys: [String] = []
        for length in 1...9 {
            let base = String(repeating: "k", count: length)
            keys.append(base)
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "x")
                keys.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        var dicts: [PlistValue] = []
        for round in 0..<3 {
            var entries: [(PlistValue, PlistValue)] = []
            for (i, k) in keys.enumerated() { entries.append((.string(k), .int(round * 1000 + i))) }
            dicts.append(.dictionary(PlistDictionary(entries)))
        }
        let value = PlistValue.array(dicts)
        let data = try BinaryPlistWriter(deduplicate: false).write(value)
        let decoded = try BinaryPlistDocument(data).value()
        #expect(decoded == value)
        #expect(decoded.arrayValue?.last?.dictionaryValue?.count == keys.count)
    }

    @Test func keysEqualOnlyAsSwiftValuesStayApart() throws {
        // 1 and 1.0, 0.0 and -0.0, "é" and "e\u{301}": different plist values, so two keys each.
        let one = try twoKeys([0x10, 1], [0x23, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(one.dictionaryValue?.count == 2)
        let zeros = try twoKeys([0x23, 0, 0, 0, 0, 0, 0, 0, 0], [0x23, 0x80, 0, 0, 0, 0, 0, 0, 0])
        #expect(zeros.dictionaryValue?.count == 2)
        let accents = try twoKeys([0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01])
        #expect(accents.dictionaryValue?.count == 2)
    }
}
