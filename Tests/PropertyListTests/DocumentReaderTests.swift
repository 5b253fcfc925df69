// Tests/PropertyListTests/DocumentReaderTests.swift - One borrow of the input for a batch of reads.

import Foundation
import PropertyList
import Testing

@Suite struct DocumentReaderTests {
    /// `{"name": "Ada", "tags": ["x", "été", "x"], "blob": <CAFE>}`, written by our writer (deduplicated).
    let data: Data
    let doc: BinaryPlistDocument

    init() throws {
        let value = PlistValue.dict([
            "name": "Ada", "tags": .array(["x", "été", "x"]), "blob": .data(Data([0xCA, 0xFE])),
        ])
        data = try BinaryPlistWriter().write(value)
        doc = try BinaryPlistDocument(data)
    }

    @Test func readsWhatTheDocumentReads() throws {
        let (keys, values) = try #require(
            try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) in
                guard case .dictionary(let k, let v) = try r.object(doc.root) else { return nil }
                return (k, v)
            } as (ReferenceList, ReferenceList)?)
        try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) in
            #expect(r.references(in: keys) == Array(keys))
            #expect(r.references(in: values) == Array(values))
            for i in 0..<keys.count {
                #expect(r.reference(at: i, in: keys) == keys[i])
                #expect(try r.object(values[i]) == doc.object(values[i]))
                #expect(try r.string(keys[i]) == doc.string(keys[i]))
            }
            let names = try r.references(in: keys).map { (k) throws(PlistError) in try r.string(k) ?? "" }
            #expect(names == ["name", "tags", "blob"])
            #expect(try r.string(keys[0], equals: "name"))
            #expect(try !r.string(keys[0], equals: "nam"))
            #expect(try !r.string(keys[0], equals: "namex"))
            #expect(try !r.string(values[2], equals: "name"), "data is not a string")
            guard case .data(let blob) = try r.object(values[2]) else {
                Issue.record("blob is not data")
                return
            }
            #expect(r.bytes(blob) == Data([0xCA, 0xFE]))
        }
    }

    @Test func stringOfADecodedObjectNeedsNoSecondScan() throws {
        guard case .dictionary(_, let values) = try doc.object(doc.root),
            case .array(let tags) = try doc.object(values[1])
        else {
            Issue.record("unexpected shape")
            return
        }
        for ref in tags {
            let object = try doc.object(ref)
            #expect(try doc.string(object) == doc.string(ref))
        }
        #expect(try doc.string(PlistObject.integer(3)) == nil)
        #expect(try doc.string(doc.object(tags[1])) == "été", "a UTF-16 string")
    }

    @Test func positionFindsAReferenceFromAStartAndWrapsAround() throws {
        guard case .dictionary(_, let values) = try doc.object(doc.root),
            case .array(let tags) = try doc.object(values[1])
        else {
            Issue.record("unexpected shape")
            return
        }
        doc.withReader { (r: borrowing BinaryPlistDocument.Reader) in
            // Deduplicated: "x" is one object referenced at positions 0 and 2.
            #expect(tags[0] == tags[2])
            #expect(r.position(of: tags[0], in: tags) == 0)
            #expect(r.position(of: tags[0], in: tags, from: 1) == 2)
            #expect(r.position(of: tags[1], in: tags, from: 2) == 1, "wraps around")
            #expect(r.position(of: tags[0], in: tags, from: 99) == 0, "a start past the end begins at 0")
            #expect(r.position(of: ObjectRef(9999), in: tags) == nil)
            #expect(r.position(of: tags[0], in: .empty) == nil)
            #expect(r.references(in: .empty).isEmpty)
        }
    }

    @Test func aStringRangeOfAnotherDocumentIsAnErrorNotARead() throws {
        let small = try BinaryPlistDocument(BinaryPlistWriter().write("a"))
        let far = PlistObject.asciiString(ByteRange(offset: data.count - 40, count: 30))
        #expect(throws: PlistError.self) { try small.string(far) }
        let inHeader = PlistObject.asciiString(ByteRange(offset: 0, count: 6))
        let error = try #require(throws: PlistError.self) { try small.string(inHeader) }
        #expect(error.code == .offsetOutOfRange)
    }

    @Test(arguments: [0, 1, 14, 15, 16, 255, 256, 70_000])
    func asciiStringsOfEveryCountForm(length: Int) throws {
        // Inline counts (< 15), 1-byte and 2-byte extended counts (read directly) and a 4-byte one
        // (through the scanner) all read the same.
        let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let doc = try BinaryPlistDocument(BinaryPlistWriter().write(.string(text)))
        #expect(try doc.string(doc.root) == text)
        #expect(try doc.string(doc.root, equals: text))
        #expect(try !doc.string(doc.root, equals: text + "x"))
    }

    @Test func asciiStringErrorsStillComeFromTheScanner() throws {
        // 0x5F with an extended count of 200 bytes where only 2 follow: truncated, not a short read.
        let truncated = single([0x5F, 0x10, 200, 0x61, 0x62])
        let error = try #require(throws: PlistError.self) {
            try BinaryPlistDocument(truncated).string(ObjectRef(0))
        }
        #expect(error.code == .truncatedObject)
        // A byte above 0x7F in an ASCII string is invalidString, unless asked to read it as UTF-8.
        let latin = single([0x52, 0xC3, 0xA9])
        let invalid = try #require(throws: PlistError.self) {
            try BinaryPlistDocument(latin).string(ObjectRef(0))
        }
        #expect(invalid.code == .invalidString)
        let lenient = try BinaryPlistDocument(latin, options: .init(allowsUTF8InASCIIStrings: true))
        #expect(try lenient.string(ObjectRef(0)) == "é")
    }

    @Test func uidsAreReadWithoutAnObjectAndOthersAreNil() throws {
        let doc = try BinaryPlistDocument(BinaryPlistWriter().write(.array([.uid(0), .uid(300), "s", 7])))
        guard case .array(let refs) = try doc.object(doc.root) else {
            Issue.record("root is not an array")
            return
        }
        try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws in
            #expect(try r.uid(refs[0]) == 0)
            #expect(try r.uid(refs[1]) == 300)
            #expect(try r.uid(refs[2]) == nil)
            #expect(try r.uid(refs[3]) == nil)
            let error = try #require(throws: PlistError.self) { try r.uid(ObjectRef(99)) }
            #expect(error.code == .badReference)
        }
        // A UID over the limit is the scanner's error, also on this path.
        let strict = try BinaryPlistDocument(
            BinaryPlistWriter().write(.uid(70_000)), limits: PlistLimits(maxUID: 65_535))
        let error = try #require(throws: PlistError.self) {
            try strict.withReader { (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) in
                try r.uid(strict.root)
            }
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func bytesOutsideTheInputAreEmpty() {
        doc.withReader { (r: borrowing BinaryPlistDocument.Reader) in
            #expect(r.bytes(ByteRange(offset: data.count, count: 4)).isEmpty)
            #expect(r.bytes(ByteRange(offset: -1, count: 4)).isEmpty)
        }
    }

    /// A bplist whose root array holds `objects`, each given as its encoded bytes (2-byte references
    /// and offsets), so that one value can be written in every encoding the format allows.
    static func rawArray(_ objects: [[UInt8]]) -> Data {
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be64(_ v: Int) -> [UInt8] { (0..<8).map { UInt8(v >> (8 * (7 - $0)) & 0xFF) } }
        var out = Array("bplist00".utf8)
        var offsets = [out.count]
        out += [0xAF, 0x11] + be16(objects.count)
        for i in objects.indices { out += be16(i + 1) }
        for o in objects {
            offsets.append(out.count)
            out += o
        }
        let tableOffset = out.count
        for off in offsets { out += be16(off) }
        out += [0, 0, 0, 0, 0, 0, 2, 2] + be64(objects.count + 1) + be64(0) + be64(tableOffset)
        return Data(out)
    }

    /// A marker with a count: inline below 15 (unless `extended`), else followed by a 1-byte int.
    static func header(_ high: UInt8, _ count: Int, extended: Bool = false) -> [UInt8] {
        count < 15 && !extended ? [high | UInt8(count)] : [high | 0x0F, 0x10, UInt8(count)]
    }

    @Test func aKeyProbeAnswersAsTheStringComparisonInEveryEncoding() throws {
        let keys = [
            "", "a", "nam", "name", "namf", "names", "yearsOld", "yearsOle", "nickname", "fourteen_chars",
            "fourteen_charz", "fifteen_chars__", "a_much_longer_key_here", "$class", "$$class", "été",
        ]
        // Every key as ASCII (inline count and the extended count a writer may also use) and as UTF-16,
        // then objects that are no string at all.
        var objects: [[UInt8]] = []
        for key in keys {
            let utf16 = key.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            if key.utf8.allSatisfy({ $0 < 0x80 }) {
                objects.append(Self.header(0x50, key.utf8.count) + Array(key.utf8))
                objects.append(Self.header(0x50, key.utf8.count, extended: true) + Array(key.utf8))
            }
            objects.append(Self.header(0x60, key.utf16.count) + utf16)
        }
        objects += [[0x10, 0x05], [0x08], [0x44, 0x6E, 0x61, 0x6D, 0x65], [0x80, 0x01]]
        let data = Self.rawArray(objects)
        let doc = try BinaryPlistDocument(data)
        guard case .array(let refs) = try doc.object(doc.root) else {
            Issue.record("root is not an array")
            return
        }
        try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws in
            for key in keys {
                let probe = BinaryPlistDocument.KeyProbe(key)
                for ref in refs {
                    let expected = try r.string(ref).map { Array($0.utf8) == Array(key.utf8) } ?? false
                    #expect(try r.string(ref, matches: probe, key) == expected, "key \(key), object \(ref.index)")
                    #expect(try r.string(ref, equals: key) == expected, "key \(key), object \(ref.index)")
                }
            }
            // A reference outside the document is the same error as for the string comparison.
            let error = try #require(throws: PlistError.self) {
                try r.string(ObjectRef(9999), matches: BinaryPlistDocument.KeyProbe("name"), "name")
            }
            #expect(error.code == .badReference)
        }
        // The matches counted: each key equals itself in each of its encodings, and nothing else.
        try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws in
            for key in keys {
                let probe = BinaryPlistDocument.KeyProbe(key)
                let hits = try refs.filter { (ref) throws in try r.string(ref, matches: probe, key) }.count
                #expect(hits == (key.utf8.allSatisfy { $0 < 0x80 } ? 3 : 1), "key \(key)")
            }
        }
    }
}
