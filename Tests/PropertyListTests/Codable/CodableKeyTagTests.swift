// Tests/PropertyListTests/Codable/CodableKeyTagTests.swift - The coders find a key met before by its
// tag (`keyTag`: the byte of a one-byte plain-data key type, such as a synthesized `CodingKeys`) instead
// of its text. Every shape of key that path meets must give the bytes the tree writers give for the
// same dictionaries, built here by hand: single-case key enums (no byte at all), key types with more
// keys than a memo holds (64), a key encoded twice (the last value wins, in the first one's place),
// sorted keys, and key types the tag does not apply to (a `String` in the key). The binary decoder
// must read the values of dictionaries whose keys come in other orders, or are missing.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct CodableKeyTagTests {
    /// A one-byte plain-data key that is not an enum: 256 tags, more than a memo's 64 slots.
    struct ByteKey: CodingKey {
        let byte: UInt8
        init(_ byte: UInt8) { self.byte = byte }
        var stringValue: String { "k\(byte)" }
        init?(stringValue: String) { nil }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// A key holding its text: not plain data, so never tagged.
    struct TextKey: CodingKey {
        let stringValue: String
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// `count` keys `k0 ...`, key `k5` written a second time last (with -1) when `repeats` (the XML
    /// stream then hands the value to the table's route), and a nested dictionary whose key type
    /// holds its text.
    struct Wide: Encodable {
        let count: Int
        let seed: Int
        var repeats = true

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: ByteKey.self)
            for i in 0..<count { try c.encode(seed &+ i, forKey: ByteKey(UInt8(i))) }
            if repeats { try c.encode(-1, forKey: ByteKey(5)) }
            var inner = c.nestedContainer(keyedBy: TextKey.self, forKey: ByteKey(UInt8(count)))
            try inner.encode("x\(seed)", forKey: TextKey("text"))
        }

        func tree(sorted: Bool) -> PlistValue {
            var entries: [(PlistValue, PlistValue)] = (0..<count).map { i in
                (.string("k\(i)"), .int(i == 5 && repeats ? -1 : seed &+ i))
            }
            let inner = PlistValue.dictionary(PlistDictionary([(.string("text"), .string("x\(seed)"))]))
            entries.append((.string("k\(count)"), inner))
            if sorted {
                entries.sort { a, b in
                    guard case .string(let x) = a.0, case .string(let y) = b.0 else { return false }
                    return x.string < y.string
                }
            }
            return .dictionary(PlistDictionary(entries))
        }
    }

    /// Reads keys `k0 ..< k<count>` of a dictionary, each if present.
    struct WideDecoded: Decodable {
        static let count = 100
        var values: [Int?]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: ByteKey.self)
            values = try (0..<Self.count).map { try c.decodeIfPresent(Int.self, forKey: ByteKey(UInt8($0))) }
        }
    }

    @Test func theBinaryDecoderFindsTaggedKeysInAnyOrder() throws {
        // Record 0: keys in order; 1: reversed; 2: the even keys only; 3: in order again. Values are
        // 1000 * record + key.
        let orders: [[Int]] = [
            Array(0..<100), Array((0..<100).reversed()), Array(stride(from: 0, to: 100, by: 2)), Array(0..<100),
        ]
        var records: [PlistValue] = []
        for (r, order) in orders.enumerated() {
            records.append(.dictionary(PlistDictionary(order.map { k in (.string("k\(k)"), .int(r * 1000 + k)) })))
        }
        let bytes = try BinaryPlistWriter().write(.array(records))
        let decoded = try PlistDecoder().decode([WideDecoded].self, from: bytes)
        #expect(decoded.count == 4)
        for (r, order) in orders.enumerated() where r < decoded.count {
            let present = Set(order)
            let expected: [Int?] = (0..<100).map { present.contains($0) ? r * 1000 + $0 : nil }
            #expect(decoded[r].values == expected, "record \(r)")
        }
    }

    /// A synthesized single-case `CodingKeys`: a key type of size 0.
    struct One: Encodable {
        var only: Int
    }

    static func encoder(_ format: PlistFormat, sorted: Bool) -> PlistEncoder {
        var e = PlistEncoder()
        e.outputFormat = format
        e.sortsKeys = sorted
        return e
    }

    static func expected(_ tree: PlistValue, _ format: PlistFormat) throws -> Data {
        format == .xml ? try tree.encoded(as: .xml) : try BinaryPlistWriter().write(tree)
    }

    @Test(arguments: [PlistFormat.binary, .xml], [false, true])
    func moreKeysThanAMemoHoldsAndAKeyWrittenTwice(format: PlistFormat, sorted: Bool) throws {
        // Three values of one type: the tags recorded by the first serve the next two. 100 keys: the
        // memo keeps the first 64, the rest go by their text every time.
        for count in [6, 63, 64, 100, 255] {
            for repeats in [true, false] {
                let values = (0..<3).map { Wide(count: count, seed: $0 &* 1000, repeats: repeats) }
                let tree = PlistValue.array(values.map { $0.tree(sorted: sorted) })
                let bytes = try Self.encoder(format, sorted: sorted).encode(values)
                #expect(
                    bytes == (try Self.expected(tree, format)),
                    "\(count) keys, repeats \(repeats), \(format), sorted \(sorted)")
            }
        }
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func aSingleCaseKeyEnum(format: PlistFormat) throws {
        let values = [One(only: 1), One(only: 2), One(only: 1)]
        let tree = PlistValue.array(values.map { .dictionary(PlistDictionary([(.string("only"), .int($0.only))])) })
        #expect(try Self.encoder(format, sorted: false).encode(values) == (try Self.expected(tree, format)))
    }
}
