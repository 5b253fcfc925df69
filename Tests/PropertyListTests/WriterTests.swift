// Tests/PropertyListTests/WriterTests.swift - Exact bytes, deduplication, widths, determinism.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct WriterTests {
    @Test func writesTheAnnotatedFixtureByteForByte() throws {
        #expect(try BinaryPlistWriter().write(["a": 5]) == smallDictionary)
    }

    @Test func rootIsObjectZeroAndObjectsFollowInPreOrder() throws {
        // ["p", ["q"], "r"]: pre-order numbering is root, "p", ["q"], "q", "r".
        let data = try BinaryPlistWriter().write(["p", ["q"], "r"])
        let doc = try BinaryPlistDocument(data)
        #expect(doc.root == ObjectRef(0))
        #expect(doc.objectCount == 5)
        #expect(try doc.string(ObjectRef(1)) == "p")
        #expect(try doc.object(ObjectRef(2)).kind == .array)
        #expect(try doc.string(ObjectRef(3)) == "q")
        #expect(try doc.string(ObjectRef(4)) == "r")
    }

    /// Number of objects in the written file.
    func objectCount(_ v: PlistValue, deduplicate: Bool = true) throws -> Int {
        try BinaryPlistDocument(BinaryPlistWriter(deduplicate: deduplicate).write(v)).objectCount
    }

    @Test func deduplicatesEqualValuesOnly() throws {
        #expect(try objectCount(["x", "x", "x"]) == 2)
        // 1, 1.0 and true are three different values.
        #expect(try objectCount([1, 1.0, true, 1, 1.0, true]) == 4)
        // -0.0 and 0.0 differ by bit pattern; two NaNs with the same bits are one value.
        #expect(try objectCount([.real(0.0), .real(-0.0), .real(.nan), .real(.nan)]) == 4)
        // Dates, data and UIDs by value.
        let date = PlistValue.date(Date(timeIntervalSinceReferenceDate: 3))
        #expect(try objectCount([date, date, .data(Data([1])), .data(Data([1])), .uid(3), .uid(3), 3]) == 5)
        // Equal containers are written once too.
        #expect(try objectCount([["k": [1]], ["k": [1]]]) == 5)
        // ASCII and UTF-16 strings with different text stay apart.
        #expect(try objectCount(["é", "e", "é"]) == 3)
        // Without deduplication every occurrence is its own object.
        #expect(try objectCount(["x", "x", "x"], deduplicate: false) == 4)
    }

    @Test func keepsNegativeZeroAndNaNPayloads() throws {
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let v: PlistValue = [.real(-0.0), .real(0.0), .real(nan)]
        guard case .array(let back) = try decode(BinaryPlistWriter().write(v)) else {
            Issue.record("not an array")
            return
        }
        #expect(back.map { $0.doubleValue?.bitPattern } == [(-0.0).bitPattern, 0.0.bitPattern, nan.bitPattern])
    }

    @Test func picksTheSmallestReferenceWidth() throws {
        // n distinct ints in an array: n + 1 objects.
        func refSize(_ n: Int) throws -> Int {
            try BinaryPlistDocument(BinaryPlistWriter().write(.array((0..<n).map { .int($0) }))).trailer.objectRefSize
        }
        #expect(try refSize(254) == 1)  // 255 objects
        #expect(try refSize(255) == 2)  // 256 objects
        #expect(try refSize(65534) == 2)
        #expect(try refSize(65535) == 4)
    }

    @Test func picksTheSmallestOffsetWidth() throws {
        func offsetSize(_ bytes: Int) throws -> Int {
            try BinaryPlistDocument(BinaryPlistWriter().write(.data(Data(count: bytes)))).trailer.offsetIntSize
        }
        #expect(try offsetSize(200) == 1)
        #expect(try offsetSize(300) == 2)
        #expect(try offsetSize(70_000) == 4)
    }

    @Test func compactWidthsUseTheFewestBytes() throws {
        func widths(_ n: Int) throws -> (refs: Int, offsets: Int) {
            let value = PlistValue.array((0..<n).map { .int($0) })
            let data = try BinaryPlistWriter(widths: .compact).write(value)
            let document = try BinaryPlistDocument(data)
            #expect(try document.value() == value)
            return (document.trailer.objectRefSize, document.trailer.offsetIntSize)
        }
        #expect(try widths(254) == (1, 2))  // 255 objects; offsets reach 8 + 254 × 2 + 3
        #expect(try widths(65535) == (3, 3))  // 65,536 objects: 3-byte refs, ~300 KB of objects
        // The same value with powers of two: 4-byte refs and offsets.
        let wide = try BinaryPlistWriter().write(.array((0..<65535).map { .int($0) }))
        #expect(try BinaryPlistDocument(wide).trailer.objectRefSize == 4)
    }

    @Test func utf16StringsMixingScalarsOfEveryLength() throws {
        // 1-, 2-, 3- and 4-byte UTF-8 scalars in one string, written as UTF-16BE with a surrogate pair.
        let s = "aé€😀z"
        let data = try BinaryPlistWriter().write(.string(s))
        let payload = Array(data[8..<Int(data.count - 32 - 1)])
        #expect(payload == [0x66, 0x00, 0x61, 0x00, 0xE9, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00, 0x00, 0x7A])
        #expect(try BinaryPlistDocument(data).value() == .string(s))
    }

    @Test func integerWidths() throws {
        func marker(_ v: PlistValue) throws -> [UInt8] {
            let data = try BinaryPlistWriter().write(v)
            return Array(data[8..<Int(data.count - 32 - 1)])
        }
        #expect(try marker(0) == [0x10, 0x00])
        #expect(try marker(255) == [0x10, 0xFF])
        #expect(try marker(256) == [0x11, 0x01, 0x00])
        #expect(try marker(.int(UInt32.max)) == [0x12, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try marker(.int(UInt64(UInt32.max) + 1)) == [0x13, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(try marker(-1) == [0x13] + Array(repeating: 0xFF, count: 8))
        #expect(
            try marker(.int(UInt64.max)) == [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8))
        #expect(try marker(.integer(.min)) == [0x14, 0x80] + Array(repeating: 0, count: 15))
    }

    @Test func stringEncodings() throws {
        func marker(_ s: String) throws -> [UInt8] {
            let data = try BinaryPlistWriter().write(.string(s))
            return Array(data[8..<Int(data.count - 32 - 1)])
        }
        #expect(try marker("ab") == [0x52, 0x61, 0x62])
        #expect(try marker("é") == [0x61, 0x00, 0xE9])
        #expect(try marker("😀") == [0x62, 0xD8, 0x3D, 0xDE, 0x00])
        #expect(
            try marker(String(repeating: "z", count: 15)) == [0x5F, 0x10, 0x0F] + Array(repeating: 0x7A, count: 15))
    }

    @Test func dropsObjectsNotReachableFromTheRoot() throws {
        var b = ObjectTableBuilder()
        _ = b.addString("orphan")
        let x = b.addInt(7)
        let root = try b.addArray([x, x])
        let doc = try BinaryPlistDocument(b.finish(root: root))
        #expect(doc.objectCount == 2)
        #expect(try doc.value() == [7, 7])
    }

    @Test func builderRejectsForeignReferencesAndUnevenDictionaries() throws {
        var a = ObjectTableBuilder()
        var b = ObjectTableBuilder()
        let x = a.addInt(1)
        _ = a.addInt(2)
        let y = a.addInt(3)
        _ = b.addInt(1)
        #expect(throws: PlistError.self) { try b.addArray([y]) }
        #expect(throws: PlistError.self) { try b.finish(root: y) }
        #expect(throws: PlistError.self) { try a.addDictionary(keys: [x, y], values: [x]) }
    }

    @Test func outputIsDeterministic() throws {
        let v: PlistValue = [
            "z": 1, "a": [.date(Date(timeIntervalSinceReferenceDate: 0)), "é", .data(Data([1, 2]))], "m": .uid(9),
        ]
        let first = try BinaryPlistWriter().write(v)
        for _ in 0..<5 { #expect(try BinaryPlistWriter().write(v) == first) }
        // Entry order is kept as given.
        guard case .dictionary(let d) = try decode(first) else { return }
        #expect(d.keys == ["z", "a", "m"])
    }

    @Test func writesFloat32AndNullThroughTheBuilder() throws {
        var b = ObjectTableBuilder()
        let f = b.addFloat(1.5)
        let n = b.addNull()
        let root = try b.addArray([f, n, b.addFloat(1.5)])
        let data = try b.finish(root: root)
        #expect(data.contains(0x22))
        #expect(try decode(data) == [1.5, .null, 1.5])
    }
}
