// Tests/PropertyListTests/TrailerTests.swift - Header, trailer and offset-table rules, one at a time.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// `{"a": 5}`, annotated (50 bytes; the trailer starts at 18).
let smallDictionary = hex(
    """
    62 70 6c 69 73 74 30 30                  | bplist00
    d1 01 02                                 | object 0 @8:  dict, 1 entry, key ref 1, value ref 2
    51 61                                    | object 1 @11: "a"
    10 05                                    | object 2 @13: int 5
    08 0b 0d                                 | offset table @15
    00 00 00 00 00 00                        | trailer @18: unused, sort version
    01 01                                    | offset size 1, ref size 1
    00 00 00 00 00 00 00 03                  | 3 objects
    00 00 00 00 00 00 00 00                  | top object 0
    00 00 00 00 00 00 00 0f                  | offset table at 15
    """)

/// `smallDictionary` with byte `index` replaced by `value`.
func patched(_ data: Data, _ index: Int, _ value: UInt8) -> Data {
    var d = data
    d[index] = value
    return d
}

@Suite struct TrailerTests {
    @Test func readsTheAnnotatedFixture() throws {
        let doc = try BinaryPlistDocument(smallDictionary)
        #expect(doc.objectCount == 3)
        #expect(doc.root == ObjectRef(0))
        #expect(doc.trailer.offsetTableOffset == 15)
        #expect(doc.trailer.offsetIntSize == 1 && doc.trailer.objectRefSize == 1)
        #expect(doc.version == "00")
        #expect(try doc.value() == ["a": 5])
    }

    @Test func acceptsAnyVersionByteAfterBplist0() throws {
        let doc = try BinaryPlistDocument(patched(smallDictionary, 7, UInt8(ascii: "x")))
        #expect(doc.version == "0x")
        #expect(try doc.value() == ["a": 5])
    }

    @Test func rejectsOtherMagic() {
        expectFailure(.notABinaryPlist, offset: 6) {
            try BinaryPlistDocument(patched(smallDictionary, 6, UInt8(ascii: "1")))
        }
        expectFailure(.notABinaryPlist, offset: 0) { try BinaryPlistDocument(patched(smallDictionary, 0, 0x00)) }
        expectFailure(.notABinaryPlist, offset: 0) { try BinaryPlistDocument(Data("bpl".utf8)) }
        expectFailure(.notABinaryPlist, offset: 0) { try BinaryPlistDocument(Data()) }
    }

    @Test func rejectsAHeaderWithoutTrailer() {
        expectFailure(.truncated, offset: 0) { try BinaryPlistDocument(Data("bplist00".utf8)) }
        expectFailure(.truncated) { try BinaryPlistDocument(smallDictionary.prefix(41)) }
    }

    @Test func ignoresUnusedBytesAndSortVersion() throws {
        var d = smallDictionary
        for i in 18..<24 { d[i] = 0xAB }
        #expect(try decode(d) == ["a": 5])
    }

    @Test(arguments: [0, 9, 0xFF] as [UInt8])
    func rejectsOffsetSizeOutsideOneToEight(_ size: UInt8) {
        expectFailure(.invalidTrailer, offset: 24) { try BinaryPlistDocument(patched(smallDictionary, 24, size)) }
    }

    @Test(arguments: [0, 9] as [UInt8])
    func rejectsReferenceSizeOutsideOneToEight(_ size: UInt8) {
        expectFailure(.invalidTrailer, offset: 25) { try BinaryPlistDocument(patched(smallDictionary, 25, size)) }
    }

    @Test func rejectsZeroObjects() {
        expectFailure(.invalidTrailer, offset: 26) { try BinaryPlistDocument(patched(smallDictionary, 33, 0)) }
    }

    @Test func rejectsObjectCountThatDoesNotFillTheTable() {
        // 4 objects × 1 byte would end the table inside the trailer.
        expectFailure(.invalidTrailer, offset: 26) { try BinaryPlistDocument(patched(smallDictionary, 33, 4)) }
        // 2^56 objects: count × size is far larger than the file, with no overflow trap.
        expectFailure(.invalidTrailer, offset: 26) { try BinaryPlistDocument(patched(smallDictionary, 26, 1)) }
        // Count near Int.max with 8-byte offsets: the multiplication overflows and is reported.
        var d = smallDictionary
        d[24] = 8
        d[26] = 0x7F
        expectFailure(.invalidTrailer) { try BinaryPlistDocument(d) }
    }

    @Test func rejectsTopObjectOutOfRange() {
        expectFailure(.badReference, offset: 34) { try BinaryPlistDocument(patched(smallDictionary, 41, 3)) }
        expectFailure(.badReference, offset: 34) { try BinaryPlistDocument(patched(smallDictionary, 34, 0x80)) }
    }

    @Test func rejectsOffsetTableInsideHeaderOrTrailer() {
        expectFailure(.invalidTrailer, offset: 42) { try BinaryPlistDocument(patched(smallDictionary, 49, 4)) }
        expectFailure(.invalidTrailer, offset: 42) { try BinaryPlistDocument(patched(smallDictionary, 49, 20)) }
        expectFailure(.invalidTrailer, offset: 42) { try BinaryPlistDocument(patched(smallDictionary, 42, 0xFF)) }
    }

    @Test func acceptsATopObjectOtherThanZero() throws {
        // Same objects, root = object 1 ("a").
        #expect(try decode(patched(smallDictionary, 41, 1)) == "a")
    }

    @Test func rejectsReferencesTooNarrowForTheObjectCount() {
        // 257 objects: a root array of 256 ints plus itself needs 2-byte references.
        var objects: [[UInt8]] = [[0xAF, 0x11, 0x01, 0x00] + (1...256).flatMap { be(UInt64($0), 2) }]
        objects += (0..<256).map { [0x10, UInt8($0)] }
        #expect(throws: Never.self) { try decode(assemble(objects, refSize: 2)) }
        // The same table declared with 1-byte references is rejected up front.
        expectFailure(.invalidTrailer) { try BinaryPlistDocument(assemble(objects, refSize: 1)) }
    }

    @Test func rejectsOffsetsTooNarrowForTheTablePosition() {
        let big: [UInt8] = [0x4F, 0x11, 0x01, 0x2C] + Array(repeating: 7, count: 300)
        let ok = assemble([big], offsetSize: 2)
        #expect(throws: Never.self) { try decode(ok) }
        expectFailure(.invalidTrailer) { try BinaryPlistDocument(assemble([big], offsetSize: 1)) }
    }

    @Test func acceptsOddOffsetAndReferenceWidths() throws {
        for width: UInt8 in [3, 5, 6, 7] {
            // ["x", "x"] with width-byte references and width-byte offsets.
            let array: [UInt8] = [0xA2] + be(1, Int(width)) + be(1, Int(width))
            let data = assemble([array, ascii("x")], refSize: width, offsetSize: width)
            #expect(try decode(data) == ["x", "x"], "width \(width)")
        }
    }

    @Test func rejectsOffsetTableEntriesOutsideTheObjectRegion() {
        expectFailure(.offsetOutOfRange, offset: 16) { try BinaryPlistDocument(patched(smallDictionary, 16, 3)) }
        expectFailure(.offsetOutOfRange, offset: 17) { try BinaryPlistDocument(patched(smallDictionary, 17, 15)) }
        let e = expectFailure(.offsetOutOfRange) { try BinaryPlistDocument(patched(smallDictionary, 15, 0)) }
        #expect(e?.object == 0)
    }

    @Test func rejectsBytesBetweenTableAndTrailer() {
        var d = smallDictionary
        d.insert(0x00, at: 18)
        expectFailure(.invalidTrailer) { try BinaryPlistDocument(d) }
    }

    @Test func namesAppendedBytesAndRecoversWhenAllowed() throws {
        let appended = smallDictionary + Data("extra!".utf8)
        let e = expectFailure(.trailingData, offset: 50) { try BinaryPlistDocument(appended) }
        #expect(e?.detail.contains("6 bytes") == true)
        let doc = try BinaryPlistDocument(appended, options: .init(allowsTrailingData: true))
        #expect(doc.trailingByteCount == 6)
        #expect(doc.data.count == 50)
        #expect(try doc.value() == ["a": 5])
    }

    @Test func splitsPropertyListsWrittenBackToBack() throws {
        let second = try BinaryPlistWriter().write(["b", 1, true])
        let pieces = try BinaryPlistDocument.documents(in: smallDictionary + second + smallDictionary)
        #expect(pieces.map(\.range) == [0..<50, 50..<50 + second.count, 50 + second.count..<100 + second.count])
        #expect(try pieces.map { try $0.document.value() } == [["a": 5], ["b", 1, true], ["a": 5]])
        expectFailure(.notABinaryPlist, offset: 50) {
            try BinaryPlistDocument.documents(in: smallDictionary + Data("junk".utf8))
        }
    }
}
