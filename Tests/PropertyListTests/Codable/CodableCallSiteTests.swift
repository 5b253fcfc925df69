// Tests/PropertyListTests/Codable/CodableCallSiteTests.swift - The call sites of issue 21, compiled and
// checked against what their comments promise.

import Foundation
import PropertyList
import Testing

@Suite struct CodableCallSiteTests {
    struct Settings: Codable, Equatable {
        var theme: String
        var volume: Double
        var recent: [URL]
        var id: UUID
        var updated: Date
        var blob: Data
        var limits: [String: Int]
        var note: String?
    }

    struct Record: Codable, Equatable {
        var name: String
        var size: Int
    }

    static let settings = Settings(
        theme: "dark", volume: 0.75,
        recent: [testURL("https://example.org/a.txt"), URL(fileURLWithPath: "/tmp/b.txt")],
        id: testUUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        updated: Date(timeIntervalSinceReferenceDate: 786_000_000), blob: Data([0, 1, 2, 0xFF]),
        limits: ["files": 10, "depth": 3], note: nil)

    @Test func encodeAndDecodeInEveryForm() throws {
        let settings = Self.settings
        let bytes = try PlistEncoder().encode(settings)  // bplist00, Foundation's layout
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        var encoder = PlistEncoder()
        encoder.outputFormat = .xml  // .binary (default), .xml, .openStep where lossless
        encoder.sortsKeys = true  // default: the order the keys were encoded in
        encoder.userInfo[CodingUserInfoKey(rawValue: "schema")!] = 2
        let xml = try encoder.encode(settings)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.hasPrefix("<?xml"))
        // Sorted: "blob" comes before "id", which comes before "theme".
        let blob = try #require(text.range(of: "<key>blob</key>")).lowerBound
        let id = try #require(text.range(of: "<key>id</key>")).lowerBound
        let theme = try #require(text.range(of: "<key>theme</key>")).lowerBound
        #expect(blob < id && id < theme)
        let back = try PlistDecoder().decode(Settings.self, from: bytes)  // binary, XML, OpenStep, JSON: sniffed
        #expect(back == settings)
        var format = PlistFormat.binary
        let fromXML = try PlistDecoder().decode(Settings.self, from: xml, format: &format)  // tells which form it read
        #expect(format == .xml)
        #expect(fromXML == settings)
        let tree: PlistValue = try PlistEncoder().encodeValue(settings)  // to an in-memory value
        #expect(tree["theme"] == .string("dark"))
        let again = try PlistDecoder().decode(Settings.self, from: tree)  // and from one
        #expect(again == settings)
    }

    /// Binary input in a zlib or gzip envelope is read like plain binary, and OpenStep text and
    /// canonical JSON are sniffed too (JSON through `decode(_:from:)` only).
    @Test func envelopesAndTextForms() throws {
        struct Words: Codable, Equatable {
            var words: [String]
            var count: String
        }
        let value = Words(words: ["alpha", "béta", ""], count: "3")
        let plain = try PlistEncoder().encode(value)
        var zlib = PlistEncoder()
        zlib.compression = .zlib
        zlib.compressionLevel = 6
        let compressed = try zlib.encode(value)
        #expect(compressed.first == 0x78)
        #expect(try PlistDecoder().decode(Words.self, from: compressed) == value)
        // gzip (RFC 1952): the deflate stream of the zlib envelope, with a gzip header and trailer.
        let deflate = compressed.dropFirst(2).dropLast(4)
        var gzip = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]) + deflate
        for word in [crc32(plain), UInt32(plain.count)] {
            gzip += Data((0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) })
        }
        var format = PlistFormat.xml
        #expect(try PlistDecoder().decode(Words.self, from: gzip, format: &format) == value)
        #expect(format == .binary)
        var openStep = PlistEncoder()
        openStep.outputFormat = .openStep
        let text = try openStep.encode(value)
        #expect(String(decoding: text, as: UTF8.self).hasPrefix("{"))
        #expect(try PlistDecoder().decode(Words.self, from: text, format: &format) == value)
        #expect(format == .openStep)
        let json = Data(try PlistEncoder().encodeValue(value).canonicalJSON().utf8)
        #expect(try PlistDecoder().decode(Words.self, from: json) == value)
        // JSON is one of PlistFormat's forms: both calls read it (0.1 refused it when asked the form).
        #expect(try PlistDecoder().decode(Words.self, from: json, format: &format) == value)
        #expect(format == .json)
        // OpenStep holds no numbers or dates: encoding one is an error naming what failed.
        #expect(throws: EncodingError.self) { try openStep.encode(["n": 1]) }
    }

    /// CRC-32 (IEEE), bit by bit: the gzip trailer's checksum.
    func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// XML dates hold whole seconds (as Foundation writes them); binary ones the exact `Double`.
    @Test func xmlDatesAreWholeSeconds() throws {
        var settings = Self.settings
        settings.updated = Date(timeIntervalSinceReferenceDate: 786_000_000.75)
        var encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let fromXML = try PlistDecoder().decode(Settings.self, from: encoder.encode(settings))
        #expect(fromXML.updated == Date(timeIntervalSinceReferenceDate: 786_000_000))
        let fromBinary = try PlistDecoder().decode(Settings.self, from: PlistEncoder().encode(settings))
        #expect(fromBinary.updated == settings.updated)
    }

    @Test func defaultKeyOrderIsEncodingOrder() throws {
        let tree = try PlistEncoder().encodeValue(Self.settings)
        let keys = try #require(tree.dictionaryValue).entries.map { $0.0.stringValue ?? "" }
        // `note` is nil: the synthesized encode(to:) leaves it out.
        #expect(keys == ["theme", "volume", "recent", "id", "updated", "blob", "limits"])
    }

    @Test func userInfoReachesTheValues() throws {
        struct Versioned: Codable {
            var schema: Int
            init(schema: Int) { self.schema = schema }
            init(from decoder: any Decoder) throws {
                schema = decoder.userInfo[CodingUserInfoKey(rawValue: "schema")!] as? Int ?? -1
            }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: PlistCodingKeyForTests.self)
                try c.encode(encoder.userInfo[CodingUserInfoKey(rawValue: "schema")!] as? Int ?? -1, forKey: .init("s"))
            }
        }
        var encoder = PlistEncoder()
        encoder.userInfo[CodingUserInfoKey(rawValue: "schema")!] = 2
        #expect(try encoder.encodeValue(Versioned(schema: 0)) == .dict(["s": .int(2)]))
        var decoder = PlistDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "schema")!] = 7
        #expect(try decoder.decode(Versioned.self, from: PlistValue.dict([:])).schema == 7)
    }

    /// The document call sites, on a file read into memory (the default) and on a mapped one (both
    /// files are over 1 MiB, so `.mappedIfLarge` maps them).
    @Test(arguments: [false, true]) func documentsWholeAndAtAKeyPath(mapped: Bool) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2,000 records with long names for the whole decode; 130,000 small ones, written by the
        // streaming writer, for the key path.
        let records = (0..<2_000).map { Record(name: String(repeating: "r", count: 600) + "\($0)", size: $0 * 3) }
        let arrayURL = dir.appendingPathComponent("records.plist")
        try PlistEncoder().encode(records).write(to: arrayURL)
        let itemsURL = dir.appendingPathComponent("items.plist")
        let sink = try PlistFileSink(path: itemsURL.path)
        var writer = StreamingPlistWriter(to: sink)
        try writer.beginDictionary(count: 1)
        try writer.key("items")
        try writer.beginArray(count: 130_000)
        for i in 0..<130_000 {
            try writer.beginDictionary(count: 2)
            try writer.key("name")
            try writer.string("record \(i)")
            try writer.key("size")
            try writer.int(i * 3)
            try writer.end()
        }
        try writer.end()
        try writer.end()
        try writer.finish()
        try sink.close()

        var url = arrayURL
        let doc =
            mapped
            ? try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge)  // memory-mapped, lazy
            : try BinaryPlistDocument(contentsOf: url)
        #expect(doc.isMemoryMapped == mapped)
        let all = try PlistDecoder().decode([Record].self, from: doc)  // straight from the document
        #expect(all == records)

        url = itemsURL
        let items =
            mapped
            ? try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge)
            : try BinaryPlistDocument(contentsOf: url)
        #expect(items.isMemoryMapped == mapped)
        let one = try PlistDecoder().decode(Record.self, from: items, at: "items.123456")  // only that sub-tree is read
        #expect(one == Record(name: "record 123456", size: 370_368))
        #expect(
            try PlistDecoder().decode(Record.self, from: items, at: ["items", "7"])
                == Record(name: "record 7", size: 21))
    }
}

/// A coding key made from any string, for hand-written coding in tests.
struct PlistCodingKeyForTests: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
