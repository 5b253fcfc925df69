// fuzz/Sources/MakeSeeds/CodableSeeds.swift - Seeds for FuzzCodable: property lists in the shape of
// its model (FuzzModel), in binary and XML, plus a model whose children share one sub-tree.

import Foundation
import PropertyList

extension Seeds {
    /// A value in FuzzModel's layout (every field present), with `children` nested `depth` deep.
    static func codableModel(depth: Int) -> PlistValue {
        let children: PlistValue = depth > 0 ? [codableModel(depth: depth - 1), ["name": "leaf"]] : []
        return .dict([
            "name": .string("model \(depth)"), "count": .int(-42), "small": 255, "ratio": 0.5, "single": 1.5,
            "flag": true,
            "when": .date(Date(timeIntervalSinceReferenceDate: 86_400.5)), "blob": .data(Data([0, 1, 2, 0xFF])),
            "uid": .uid(3), "big": .int(Int128(Int64.max) + 1), "tags": ["a", "b\u{E9}", ""],
            "numbers": [1, -2, 3], "scores": ["x": 1, "y": -1], "byNumber": ["1": "one", "-7": "minus seven"],
            "maybe": ["$null", "x"], "shape": ["labelled": ["_0": "t", "points": [1, 2]]], "children": children,
        ])
    }

    mutating func codable() throws {
        let w = SeedWriter()
        let model = Seeds.codableModel(depth: 2)
        add("codable-model", try w.write(model))
        add("codable-model-xml", try model.encoded(as: .xml))
        // The same with choice 2 (FuzzDifferentialArchive: Codable against PropertyListDecoder).
        add("codable-model-choice2", try w.write(model), config: [0, 0x80])
        add("codable-model-xml-choice2", try model.encoded(as: .xml), config: [0, 0x80])
        add("codable-models-choice3", try w.write([model, ["name": "second"]]), config: [0, 0xC0])
        add("codable-model-minimal", try w.write(["name": "x"]))
        add(
            "codable-shape-nested",
            try w.write(["name": "n", "shape": ["nested": ["_0": ["circle": ["radius": 2.0]]]]]))
        // 20 levels whose two children are one shared object: 2^20 models described once each.
        var shared: PlistValue = ["name": "leaf"]
        for _ in 0..<20 { shared = ["name": "n", "children": [shared, shared]] }
        add("codable-shared-children", try w.write(shared))
    }
}
