// Tests/PropertyListTests/Codable/CodableFuzzRegressionTests.swift - The FuzzCodable findings of
// fuzz/regressions/ (oracle-codable-*), as inline tests of the behaviour the harness now expects.

import Foundation
import PropertyList
import Testing

@Suite struct CodableFuzzRegressionTests {
    struct Model: Codable {
        var name: String
        var children: [Model]?
        var ratio: Double?
    }

    /// `oracle-codable-keypath-malformed-key.bin`: the decoder reads only the keys a type asks for,
    /// so a malformed key object elsewhere in the dictionary does not stop a decode; the key-path
    /// walk of `decode(_:from:at:)` (`BinaryPlistDocument.ref(at:)`) compares every key on its way
    /// and reports the malformed one as a typed error.
    @Test func keyPathWalkReadsEveryKey() throws {
        let data = assembledPlist([
            [0xD3, 1, 2, 3, 4, 5, 6],  // {name: "root", children: [child], <malformed>: "x"}
            [0x54] + Array("name".utf8), [0x58] + Array("children".utf8), [0x18],  // 0x18: an integer of 2^8 bytes
            [0x54] + Array("root".utf8), [0xA1, 7], [0x51, 0x78],
            [0xD1, 1, 8], [0x51, 0x63],  // {name: "c"}
        ])
        let doc = try BinaryPlistDocument(data)
        let model = try PlistDecoder().decode(Model.self, from: doc)
        #expect(model.name == "root" && model.children?.first?.name == "c")
        do {
            _ = try PlistDecoder().decode(Model.self, from: doc, at: "children.0")
            Issue.record("the key-path walk read past a malformed key")
        } catch DecodingError.dataCorrupted(let context) {
            #expect((context.underlyingError as? PlistError)?.code == .corrupted)
        }
    }

    /// `oracle-codable-xml-nan-payload.bin`: a NaN with a payload keeps its bits in binary; XML writes
    /// every NaN as `nan`, so it reads back as a NaN (the harness compares NaNs loosely for XML).
    @Test func nanPayloadsInBinaryAndXML() throws {
        let nan = Double(bitPattern: 0x7FFF_FFFF_FFFF_FFFF)
        let model = Model(name: "n", children: nil, ratio: nan)
        let binary = try PlistDecoder().decode(Model.self, from: PlistEncoder().encode(model))
        #expect(binary.ratio?.bitPattern == nan.bitPattern)
        var xml = PlistEncoder()
        xml.outputFormat = .xml
        let text = try xml.encode(model)
        #expect(String(decoding: text, as: UTF8.self).contains("<real>nan</real>"))
        #expect(try PlistDecoder().decode(Model.self, from: text).ratio?.isNaN == true)
    }
}
