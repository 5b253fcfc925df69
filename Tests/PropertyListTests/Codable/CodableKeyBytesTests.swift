// Tests/PropertyListTests/Codable/CodableKeyBytesTests.swift - Keys that are canonically equivalent
// but not the same bytes ("é" precomposed and "e" + U+0301, "K" and the Kelvin sign) are two keys
// to the Codable coders, as they are to the property list: `String ==` equates them, and the key
// memos once used it, so the second dictionary of a type lost its key (decode) or was written with
// the first dictionary's key (encode).

import Foundation
import PropertyList
import Testing

/// Every entry of a keyed container, in order, with its key's exact text.
struct KeyPairs: Codable {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var pairs: [(key: String, value: Int)]

    init(_ pairs: [(key: String, value: Int)]) { self.pairs = pairs }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        pairs = try c.allKeys.map { ($0.stringValue, try c.decode(Int.self, forKey: $0)) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for (k, v) in pairs { try c.encode(v, forKey: AnyKey(stringValue: k)) }
    }

    /// The pairs as (UTF-8 bytes of the key, value), sorted: comparable without `String ==`.
    var bytes: [[UInt8]] {
        pairs.map { Array($0.key.utf8) + [0xFF, UInt8(truncatingIfNeeded: $0.value)] }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }
}

@Suite("Codable keys are compared by their bytes")
struct CodableKeyBytesTests {
    static let precomposed = "\u{E9}"  // é
    static let decomposed = "e\u{301}"  // e + combining acute accent
    static let kelvin = "\u{212A}"  // canonically equivalent to "K"

    @Test("precondition: String == equates the keys this suite keeps apart")
    func stringEqualityEquates() {
        #expect(Self.precomposed == Self.decomposed)
        #expect(Self.kelvin == "K")
        #expect(Array(Self.precomposed.utf8) != Array(Self.decomposed.utf8))
    }

    @Test(
        "a second dictionary of the same type keeps its own key",
        arguments: [PlistFormat.binary, .xml, .json])
    func decodeSecondDictionary(form: PlistFormat) throws {
        for (first, second) in [(Self.precomposed, Self.decomposed), ("K", Self.kelvin), (Self.kelvin, "K")] {
            let value: PlistValue = .array([
                .dictionary(PlistDictionary([(.string(first), 1)])),
                .dictionary(PlistDictionary([(.string(second), 2)])),
            ])
            let data = try value.encoded(as: form)
            let decoded = try PlistDecoder().decode([KeyPairs].self, from: data)
            #expect(decoded.count == 2)
            #expect(decoded.map(\.bytes) == [KeyPairs([(first, 1)]).bytes, KeyPairs([(second, 2)]).bytes])
        }
    }

    @Test("one dictionary holding both keys reads both values, with and without the memo")
    func decodeBothKeys() throws {
        // 2 keys (memo), and 70 keys (past the memo's 64 slots: the large-dictionary index).
        for filler in [0, 68] {
            var entries: [(PlistValue, PlistValue)] = (0..<filler).map { (.string("k\($0)"), .int($0 % 100)) }
            entries += [(.string(Self.precomposed), 101), (.string(Self.decomposed), 102)]
            let data = try PlistValue.dictionary(PlistDictionary(entries)).encoded(as: .binary)
            let decoded = try PlistDecoder().decode(KeyPairs.self, from: data)
            #expect(decoded.pairs.count == filler + 2)
            let accents = decoded.pairs.filter { !$0.key.hasPrefix("k") }.map { (Array($0.key.utf8), $0.value) }
            #expect(accents.count == 2)
            #expect(accents.contains { $0.0 == [0xC3, 0xA9] && $0.1 == 101 })
            #expect(accents.contains { $0.0 == [0x65, 0xCC, 0x81] && $0.1 == 102 })
        }
    }

    @Test(
        "the encoder writes each dictionary's own key",
        arguments: [PlistFormat.binary, .xml, .json])
    func encodeSecondDictionary(form: PlistFormat) throws {
        var encoder = PlistEncoder()
        encoder.outputFormat = form
        let models = [
            KeyPairs([(Self.precomposed, 1)]), KeyPairs([(Self.decomposed, 2)]), KeyPairs([("K", 3)]),
            KeyPairs([(Self.kelvin, 4)]),
        ]
        let data = try encoder.encode(models)
        let read = try PlistValue.decode(from: data).value
        guard case .array(let dictionaries) = read else {
            Issue.record("not an array: \(read)")
            return
        }
        let keys = dictionaries.map { d -> [UInt8] in
            guard case .dictionary(let dict) = d, let key = dict.keys.first?.stringValue else { return [] }
            return Array(key.utf8)
        }
        #expect(keys == [[0xC3, 0xA9], [0x65, 0xCC, 0x81], [0x4B], [0xE2, 0x84, 0xAA]])
        // And the two keys of one container, encoded one after the other, are two entries.
        let both = try encoder.encode(KeyPairs([(Self.precomposed, 1), (Self.decomposed, 2)]))
        let back = try PlistDecoder().decode(KeyPairs.self, from: both)
        #expect(back.bytes == KeyPairs([(Self.precomposed, 1), (Self.decomposed, 2)]).bytes)
    }
}
