// Tests/PropertyListTests/Codable/CodableArrayLoopTests.swift - Arrays of encodable values are written by
// the encoders' own element loop (`EncodableArray`: one loop on the concrete unkeyed container, each
// element read where it lies in the array's storage). Checked against the loop it replaces: the same
// elements in a type that is not an `Array` and encodes exactly as `Array.encode(to:)` does (an unkeyed
// container, one `encode` per element), so it takes the standard library's route. Bytes, coding paths
// and errors must be the same, in binary and XML, keys sorted or not.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

/// `elements`, encoded as `Array.encode(to:)` encodes an array, but not an `Array`.
private struct ElementLoop<Element: Encodable>: Encodable {
    var elements: [Element]
    init(_ elements: [Element]) { self.elements = elements }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(element) }
    }
}

private struct Record: Encodable {
    var name: String
    var when: Date
    var bytes: Data
    var tags: [String]
    var score: Double?
}

/// An element that throws its own error, with the coding path it was given.
private struct Refusing: Encodable {
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(UInt128.max)  // above Int128.max: an EncodingError at this element's path
    }
}

private func encoders() -> [(String, PlistEncoder)] {
    var result: [(String, PlistEncoder)] = []
    for format in [PlistFormat.binary, .xml] {
        for sorts in [false, true] {
            var encoder = PlistEncoder()
            encoder.outputFormat = format
            encoder.sortsKeys = sorts
            result.append(("\(format), sortsKeys \(sorts)", encoder))
        }
    }
    return result
}

/// Checks that `array` and `loop` (the same elements through the standard library's loop) encode to
/// the same bytes, or fail with the same coding path and message, with every encoder.
private func checkSame<A: Encodable, B: Encodable>(
    _ array: A, _ loop: B, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    for (name, encoder) in encoders() {
        let what = "\(label), \(name)"
        switch (Result { try encoder.encode(array) }, Result { try encoder.encode(loop) }) {
        case (.success(let got), .success(let want)):
            #expect(got == want, "\(what): bytes", sourceLocation: sourceLocation)
        case (.failure(EncodingError.invalidValue(_, let got)), .failure(EncodingError.invalidValue(_, let want))):
            #expect(
                got.codingPath.map(\.stringValue) == want.codingPath.map(\.stringValue), "\(what): coding path",
                sourceLocation: sourceLocation)
            #expect(got.debugDescription == want.debugDescription, "\(what): message", sourceLocation: sourceLocation)
        case (let got, let want):
            Issue.record("\(what): \(got) against \(want)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("PlistEncoder: arrays of values through the encoders' own loop")
struct CodableArrayLoopTests {
    fileprivate static func records(_ n: Int) -> [Record] {
        var result: [Record] = []
        for i in 0..<n {
            let bytes = Data((0..<(i % 40)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let tags = (0..<(i % 4)).map { "tag \($0)" }
            let score: Double? = i % 3 == 0 ? nil : Double(i) / 7
            let when = Date(timeIntervalSinceReferenceDate: Double(i) * 3_600)
            result.append(Record(name: "record \(i) <&>", when: when, bytes: bytes, tags: tags, score: score))
        }
        return result
    }

    @Test func recordsNestingAndScalars() {
        let few = Self.records(5)
        checkSame(few, ElementLoop(few), "records")
        checkSame([Record](), ElementLoop([Record]()), "no records")
        checkSame(
            [few, [], few], ElementLoop([ElementLoop(few), ElementLoop([]), ElementLoop(few)]), "arrays of arrays")
        checkSame(["k": few], ["k": ElementLoop(few)], "in a dictionary")
        checkSame([few[0], nil, few[1]] as [Record?], ElementLoop([few[0], nil, few[1]] as [Record?]), "optionals")
        checkSame([Int8(-1), 0, 127], ElementLoop([Int8(-1), 0, 127]), "small integers")
        checkSame([UInt64.max, 0], ElementLoop([UInt64.max, 0]), "large integers")
        let dates = [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -1e9)]
        checkSame(dates, ElementLoop(dates), "dates")
        checkSame([Data([1, 2, 3]), Data()], ElementLoop([Data([1, 2, 3]), Data()]), "data")
        checkSame([["a": 1], [:]], ElementLoop([["a": 1], [String: Int]()]), "dictionaries")
        checkSame(
            [Shape.circle(radius: 1), .labelled("x", points: [1]), .empty],
            ElementLoop([Shape.circle(radius: 1), .labelled("x", points: [1]), .empty]), "enums")
        // The same record twice: shared objects in the binary form, written twice in XML.
        checkSame([few[1], few[1]], ElementLoop([few[1], few[1]]), "repeated")
    }

    /// More than 512 root elements: the binary encoder sizes its tables from the first 256 (the same
    /// container, so the same sizing either way).
    @Test func largeRootArrays() {
        let many = Self.records(600)
        checkSame(many, ElementLoop(many), "600 records")
    }

    @Test func generatedModels() async {
        await propertyCheck(count: 40, input: Gen.uint64()) { seed in
            var g = ModelGenerator(rng: SplitMix64(seed: seed))
            let models = (0..<3).map { _ in g.model(depth: 2) }
            checkSame(models, ElementLoop(models), "seed \(seed)")
        }
    }

    /// An element's error: the same coding path (its index, then inside it) and message either way.
    @Test func errorsInsideElements() {
        checkSame([Refusing()], ElementLoop([Refusing()]), "first element")
        checkSame(
            [[Refusing?.none], [nil, Refusing()]],
            ElementLoop([ElementLoop([Refusing?.none]), ElementLoop([nil, Refusing()])]),
            "second element of the second array")
        checkSame(["k": [Refusing()]], ["k": ElementLoop([Refusing()])], "under a key")
        // The element's own error ends the encode after the elements before it, once.
        struct Refused: Error {}
        struct Counting: Encodable {
            let counter: Counter
            func encode(to encoder: any Encoder) throws {
                counter.count += 1
                throw Refused()
            }
        }
        for (name, encoder) in encoders() {
            let counter = Counter()
            #expect(throws: Refused.self, "\(name)") {
                try encoder.encode([Counting(counter: counter), Counting(counter: counter)])
            }
            #expect(counter.count == 1, "\(name): the first element's error ends the encode")
        }
    }
}

private final class Counter {
    var count = 0
}
