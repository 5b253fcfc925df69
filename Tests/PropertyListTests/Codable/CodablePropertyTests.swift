// Tests/PropertyListTests/Codable/CodablePropertyTests.swift - Generated models (nesting, optionals,
// every scalar kind), checked both ways against Foundation's PropertyListEncoder/Decoder on Linux,
// in binary and XML, and for the same tree as Foundation's encoder.
//
// Left out of generation because Foundation gets them wrong (each is tested on its own in
// CodableFoundationParityTests.swift): NaN (not equal to itself), -0.0 (Foundation's binary writer
// merges it with 0.0), the string "$null" (Foundation's decoder reads it as nil) and any string that
// starts with it (Foundation's XML reader rejects `<string>$null…</string>`). XML holds whole
// seconds, so the XML checks compare with the model's dates rounded down.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

struct GeneratedModel: Codable, Equatable {
    var int8: Int8, int16: Int16, int32: Int32, int64: Int64, int: Int
    var uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64, uint: UInt
    var float: Float, double: Double, bool: Bool, string: String
    var date: Date, data: Data, url: URL?, uuid: UUID
    var optionalInt: Int?, optionalString: String?
    var tags: [String]
    var scores: [String: Double]
    var byNumber: [Int: String]
    var shape: Shape?
    var children: [GeneratedModel]

    /// The model as XML holds it: dates in whole seconds.
    var xmlNormalized: GeneratedModel {
        var m = self
        m.date = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
        m.children = children.map(\.xmlNormalized)
        return m
    }
}

struct ModelGenerator {
    var rng: SplitMix64

    mutating func int<T: FixedWidthInteger>(_ type: T.Type) -> T {
        switch Int.random(in: 0...3, using: &rng) {
        case 0: return .min
        case 1: return .max
        case 2: return 0
        default: return T.random(in: .min ... .max, using: &rng)
        }
    }

    mutating func double() -> Double {
        switch Int.random(in: 0...5, using: &rng) {
        case 0: return .infinity
        case 1: return -.greatestFiniteMagnitude
        case 2: return .leastNonzeroMagnitude
        case 3: return Double(Int.random(in: -1000...1000, using: &rng))
        default: return Double.random(in: -1e12...1e12, using: &rng)
        }
    }

    mutating func string() -> String {
        let alphabet = ["a", "Z", "0", " ", "$", "null", "é", "中", "😀", "ß", "\u{7F}", "\t", "<", "&", "\"", "𝄞"]
        let s = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
            alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
        }.joined()
        return s.hasPrefix("$null") ? "!" + s : s
    }

    mutating func model(depth: Int) -> GeneratedModel {
        let urls = [
            testURL("https://example.org/x?y=1"), URL(fileURLWithPath: "/tmp/ä b"),
            testURL("rel/path", relativeTo: testURL("http://h/")),
        ]
        let shapes: [Shape] = [
            .circle(radius: double()), .rectangle(1, -2), .labelled(string(), points: [int(Int.self)]), .empty,
        ]
        var children: [GeneratedModel] = []
        if depth > 0 {
            for _ in 0..<Int.random(in: 0...2, using: &rng) { children.append(model(depth: depth - 1)) }
        }
        let fractional = Bool.random(using: &rng)
        let seconds = Double(Int.random(in: -12_000_000_000...4_000_000_000, using: &rng))
        return GeneratedModel(
            int8: int(Int8.self), int16: int(Int16.self), int32: int(Int32.self), int64: int(Int64.self),
            int: int(Int.self),
            uint8: int(UInt8.self), uint16: int(UInt16.self), uint32: int(UInt32.self), uint64: int(UInt64.self),
            uint: int(UInt.self), float: Float(double()), double: double(), bool: Bool.random(using: &rng),
            string: string(), date: Date(timeIntervalSinceReferenceDate: seconds + (fractional ? 0.25 : 0)),
            data: Data((0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }),
            url: Bool.random(using: &rng) ? urls.randomElement(using: &rng) : nil,
            uuid: UUID(uuid: (int(UInt8.self), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, int(UInt8.self))),
            optionalInt: Bool.random(using: &rng) ? int(Int.self) : nil,
            optionalString: Bool.random(using: &rng) ? string() : nil,
            tags: (0..<Int.random(in: 0...4, using: &rng)).map { _ in string() },
            scores: Dictionary(
                (0..<Int.random(in: 0...4, using: &rng)).map { _ in (string(), double()) },
                uniquingKeysWith: { a, _ in a }),
            byNumber: Dictionary(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in (int(Int.self), string()) },
                uniquingKeysWith: { a, _ in a }),
            shape: Bool.random(using: &rng) ? shapes.randomElement(using: &rng) : nil,
            children: children)
    }
}

@Suite struct CodablePropertyTests {
    static let seeds = Gen.uint64()

    /// Runs `body`, recording what it throws as an issue that names the seed.
    func checking(_ seed: UInt64, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }

    func model(_ seed: UInt64) -> GeneratedModel {
        var g = ModelGenerator(rng: SplitMix64(seed: seed))
        return g.model(depth: 3)
    }

    @Test func oursReadByFoundation() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            checking(seed) {
                let m = model(seed)
                let got1 = try PropertyListDecoder().decode(GeneratedModel.self, from: PlistEncoder().encode(m))
                #expect(got1 == m, "seed \(seed)")
                var xml = PlistEncoder()
                xml.outputFormat = .xml
                let got2 = try PropertyListDecoder().decode(GeneratedModel.self, from: xml.encode(m))
                #expect(got2 == m.xmlNormalized, "seed \(seed)")
            }
        }
    }

    @Test func foundationsReadByOurs() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            checking(seed) {
                let m = model(seed)
                let got3 = try PlistDecoder().decode(GeneratedModel.self, from: foundationEncode(m, .binary))
                #expect(got3 == m, "seed \(seed)")
                let got4 = try PlistDecoder().decode(GeneratedModel.self, from: foundationEncode(m, .xml))
                #expect(got4 == m.xmlNormalized, "seed \(seed)")
            }
        }
    }

    /// The same tree as Foundation's encoder writes, value for value.
    @Test func sameTreeAsFoundation() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            checking(seed) {
                let m = model(seed)
                let theirs = try BinaryPlistDocument(foundationEncode(m, .binary)).value()
                let got5 = try PlistEncoder().encodeValue(m)
                #expect(got5 == theirs, "seed \(seed)")
            }
        }
    }

    /// Ours, round trip through every form and the tree.
    @Test func roundTrips() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            checking(seed) {
                let m = model(seed)
                let got6 = try PlistDecoder().decode(GeneratedModel.self, from: PlistEncoder().encode(m))
                #expect(got6 == m, "seed \(seed)")
                let got7 = try PlistDecoder().decode(GeneratedModel.self, from: PlistEncoder().encodeValue(m))
                #expect(got7 == m, "seed \(seed)")
                var encoder = PlistEncoder()
                encoder.sortsKeys = true
                encoder.compression = .zlib
                encoder.compressionLevel = 1
                encoder.widths = .compact
                let got8 = try PlistDecoder().decode(GeneratedModel.self, from: encoder.encode(m))
                #expect(got8 == m, "seed \(seed)")
            }
        }
    }
}
