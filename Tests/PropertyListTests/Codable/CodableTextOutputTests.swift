// Tests/PropertyListTests/Codable/CodableTextOutputTests.swift - PlistEncoder's text forms and
// encodeValue, made from the object table without a binary copy, against the binary round trip they
// replaced: the binary output read back (`BinaryPlistDocument.value()`) and written in the form by the
// same writers. Same bytes for every form, envelope and key order; the same tree; the same errors.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

/// What `PlistEncoder` did before: binary, read back, written in `form`.
private func roundTripOracle(
    _ encoder: PlistEncoder, _ binary: Data
) throws(PlistError) -> (tree: PlistValue, text: Result<Data, PlistError>) {
    let limits = PlistLimits(maxDepth: .max, maxObjects: .max / 16, maxValues: .max)
    let tree = try BinaryPlistDocument(binary, limits: limits).value()
    let text = Result { () throws(PlistError) -> Data in
        try tree.encoded(
            as: encoder.outputFormat, compression: encoder.compression,
            options: PlistWriteOptions(compressionLevel: encoder.compressionLevel))
    }
    return (tree, text)
}

/// Checks `value` in every form, envelope and key order against the round trip.
private func checkAgainstRoundTrip<T: Encodable>(
    _ value: T, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for sorts in [false, true] {
        var binaryEncoder = PlistEncoder()
        binaryEncoder.sortsKeys = sorts
        let binary = try binaryEncoder.encode(value)
        let tree = try binaryEncoder.encodeValue(value)
        for compression in [PlistCompression.none, .zlib] {
            for form in [PlistFormat.binary, .xml, .openStep, .json] {
                var encoder = binaryEncoder
                encoder.outputFormat = form
                encoder.compression = compression
                encoder.compressionLevel = 1
                let oracle = try roundTripOracle(encoder, binary)
                let what = "\(label), \(form), \(compression), sortsKeys \(sorts)"
                #expect(tree == oracle.tree, "\(what): tree", sourceLocation: sourceLocation)
                #expect(
                    tree.sameShape(as: oracle.tree), "\(what): tree kinds", sourceLocation: sourceLocation)
                if form == .binary {
                    let plain = try encoder.encode(value)
                    let expected = try compression.wrap(binary, level: 1)
                    #expect(plain == expected, "\(what)", sourceLocation: sourceLocation)
                    continue
                }
                switch oracle.text {
                case .success(let expected):
                    let got = try encoder.encode(value)
                    #expect(got == expected, "\(what): bytes", sourceLocation: sourceLocation)
                case .failure(let expected):
                    do {
                        _ = try encoder.encode(value)
                        Issue.record(
                            "\(what): no error, the round trip threw \(expected)", sourceLocation: sourceLocation)
                    } catch EncodingError.invalidValue(_, let context) {
                        let underlying = context.underlyingError as? PlistError
                        #expect(underlying?.code == expected.code, "\(what)", sourceLocation: sourceLocation)
                        #expect(
                            underlying?.description == expected.description, "\(what)", sourceLocation: sourceLocation)
                        #expect(context.codingPath.isEmpty, "\(what)", sourceLocation: sourceLocation)
                        #expect(
                            context.debugDescription == "\(form) output: \(expected)", "\(what)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }
}

extension PlistValue {
    /// The same kinds at the same places (`==` compares reals by bits, strings by text; this adds the
    /// case of every node, so an integer never passes for a real or a set for an array).
    fileprivate func sameShape(as other: PlistValue) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)), (.set(let a), .set(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameShape(as: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count
                && zip(a.entries, b.entries).allSatisfy {
                    $0.key.sameShape(as: $1.key) && $0.value.sameShape(as: $1.value)
                }
        default:
            return kind == other.kind && self == other
        }
    }
}

// MARK: - Models

/// Everything the encoder writes in one value: nested and super encoders, shared values, edge numbers.
private struct Kitchen: Encodable {
    struct Point: Encodable, Hashable {
        var x: Int, y: Double, label: String
    }

    final class Base: Encodable {
        var id = 7
        var note = "base note, longer than fifteen bytes"
    }

    final class Derived: Encodable {
        let base = Base()
        var extra: [String] = ["é", "中文字符串超过十五个字节的长度", ""]
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: PlistKey.self)
            try c.encode(extra, forKey: "extra")
            try base.encode(to: c.superEncoder())
            try base.encode(to: c.superEncoder(forKey: "named"))
            var u = c.nestedUnkeyedContainer(forKey: "list")
            try base.encode(to: u.superEncoder())
            try u.encode(1)
        }
    }

    struct PlistKey: CodingKey, ExpressibleByStringLiteral {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(stringLiteral value: String) { stringValue = value }
    }

    struct Empty: Encodable {}

    struct EmptyContainers: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: PlistKey.self)
            _ = c.nestedContainer(keyedBy: PlistKey.self, forKey: "keyed")
            _ = c.nestedUnkeyedContainer(forKey: "unkeyed")
            var u = c.nestedUnkeyedContainer(forKey: "nested")
            _ = u.nestedUnkeyedContainer()
            _ = u.nestedContainer(keyedBy: PlistKey.self)
            try c.encode(Empty(), forKey: "empty")
            try c.encode([Int](), forKey: "noInts")
            try c.encode([String: Int](), forKey: "noEntries")
            try c.encode(Data(), forKey: "noBytes")
            try c.encode("", forKey: "")
        }
    }

    /// A key encoded twice (the last value wins) and keys in an order sorting changes.
    struct Rewritten: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: PlistKey.self)
            try c.encode("first", forKey: "z")
            try c.encode(1, forKey: "é")
            try c.encode(2, forKey: "Z")
            try c.encode("second", forKey: "z")
            try c.encode(3, forKey: "a")
            try c.encodeNil(forKey: "nothing")
            var nested = c.nestedContainer(keyedBy: PlistKey.self, forKey: "m")
            try nested.encode(true, forKey: "b")
            try nested.encode(false, forKey: "a")
        }
    }

    var point = Point(x: -1, y: 0.5, label: "a label that is long enough to be sliced")
    lazy var points: [Point] = [point, point, Point(x: 2, y: -0.0, label: "a"), point]
    var matrix: [[Int]] = [[1, 2, 3], [1, 2, 3], [], [Int.min, Int.max]]
    var ints: [Int] = [0, 1, -1, 255, 256, 65_535, 65_536, Int(Int32.max), Int(UInt32.max), Int.max, Int.min]
    var unsigned: [UInt64] = [0, UInt64(Int64.max), UInt64(Int64.max) + 1, .max]
    var int128: [Int128] = [.min, .max, 0, -1, Int128(UInt64.max) + 1]
    var uint128: [UInt128] = [0, UInt128(Int128.max)]
    var narrow: [Int8] = [.min, -1, 0, .max]
    var doubles: [Double] = [
        .nan, -.nan, .signalingNaN, .infinity, -.infinity, 0.0, -0.0, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, 0.1, 1e300, -Double.leastNormalMagnitude / 4,
    ]
    var floats: [Float] = [.nan, .infinity, -.infinity, -0.0, 0.1, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
    var float: Float = 3.14159
    var dates: [Date] = [
        Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -63_114_076_800.5),
        Date(timeIntervalSinceReferenceDate: 1e9 + 0.125), .distantFuture, .distantPast,
        Date(timeIntervalSinceReferenceDate: 0),
    ]
    var data: [Data] = [
        Data(), Data([0]), Data(repeating: 0xAB, count: 14), Data(repeating: 0xCD, count: 15),
        Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }), Data([0]),
    ]
    var uids: [PlistUID] = [PlistUID(0), PlistUID(255), PlistUID(256), PlistUID(.max), PlistUID(0)]
    var strings: [String] = [
        "", "a", "fifteen bytes!!", "sixteen bytes!!!", "é", "ééééééééé", "😀", "𝄞 and more than fifteen bytes",
        "<&>\"'", "tab\tnew\nline\r", "\u{7F}", "$null", "a label that is long enough to be sliced", "a",
    ]
    var byNumber: [Int: String] = [10: "ten", 2: "two", -1: "minus one", 100: "ten"]
    var scores: [String: Double] = ["b": 1, "a": 2, "é": .nan, "Z": -0.0, "": 0]
    var optional: Int? = nil
    var bools = [true, false, true]
    var derived = Derived()
    var empties = EmptyContainers()
    var empty = Empty()
    var rewritten = Rewritten()
    var url = testURL("rel/path", relativeTo: testURL("http://h/"))
    var uuid = testUUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
}

/// Only what OpenStep holds (strings, data, arrays, dictionaries), so that its bytes are compared too.
private struct StringsOnly: Encodable {
    var name = "name"
    var names = ["a", "a", "longer than fifteen bytes here", "é中😀", "", "quote \" and \\ backslash"]
    var nested: [String: [String]] = ["x": ["1"], "y": [], "": ["a"]]
    var blob = Data([1, 2, 3])
    var list: [[String: String]] = [["k": "v"], ["k": "v"], [:]]
}

@Suite("PlistEncoder: text forms and trees from the object table (no binary copy)")
struct CodableTextOutputTests {
    @Test func kitchenSinkMatchesTheBinaryRoundTrip() throws {
        var k = Kitchen()
        _ = k.points
        try checkAgainstRoundTrip(k, "kitchen")
    }

    @Test func stringsOnlyMatchesTheBinaryRoundTripInEveryForm() throws {
        try checkAgainstRoundTrip(StringsOnly(), "strings only")
        var e = PlistEncoder()
        e.outputFormat = .openStep
        #expect(try !e.encode(StringsOnly()).isEmpty)
    }

    @Test func topLevelScalarsMatchTheBinaryRoundTrip() throws {
        try checkAgainstRoundTrip("top", "string")
        try checkAgainstRoundTrip("a top-level string longer than fifteen", "long string")
        try checkAgainstRoundTrip(Int.min, "int")
        try checkAgainstRoundTrip(UInt64.max, "uint64")
        try checkAgainstRoundTrip(Int128.min, "int128")
        try checkAgainstRoundTrip(Float.nan, "float")
        try checkAgainstRoundTrip(Double.infinity, "double")
        try checkAgainstRoundTrip(true, "bool")
        try checkAgainstRoundTrip(Date(timeIntervalSinceReferenceDate: 12.5), "date")
        try checkAgainstRoundTrip(Data([9, 8, 7]), "data")
        try checkAgainstRoundTrip(PlistUID(42), "uid")
        try checkAgainstRoundTrip([Int](), "empty array")
        try checkAgainstRoundTrip([String: Int](), "empty dictionary")
        try checkAgainstRoundTrip(Kitchen.Empty(), "empty struct")
        try checkAgainstRoundTrip(Optional<Int>.none, "nil")
    }

    @Test func generatedModelsMatchTheBinaryRoundTrip() async {
        await propertyCheck(count: 40, input: Gen.uint64()) { seed in
            var g = ModelGenerator(rng: SplitMix64(seed: seed))
            let m = g.model(depth: 3)
            do {
                try checkAgainstRoundTrip(m, "seed \(seed)")
                // The same model many times: every container after the first is a shared object.
                try checkAgainstRoundTrip([m, m, m], "seed \(seed), repeated")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// A shared sub-tree is one value in the tree (not a copy per reference), as the reader's memo
    /// made it.
    @Test func sharedContainersAreSharedInTheTree() throws {
        let row = Array(0..<100)
        let tree = try PlistEncoder().encodeValue([row, row, row])
        guard case .array(let rows) = tree, rows.count == 3 else {
            Issue.record("not three rows: \(tree)")
            return
        }
        #expect(rows[0] == rows[2])
        #expect(rows[0].arrayValue?.count == 100)
    }

    /// Errors keep their coding path; the output step's errors are the writer's, as before.
    @Test func errorsStayTyped() throws {
        struct Deep: Encodable {
            var next: [Deep]
        }
        var deep = Deep(next: [])
        for _ in 0..<20 { deep = Deep(next: [deep]) }
        for form in [PlistFormat.xml, .openStep, .json] {
            var encoder = PlistEncoder()
            encoder.outputFormat = form
            encoder.maxDepth = 10
            do {
                _ = try encoder.encode(deep)
                Issue.record("\(form): no error")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.count >= 9, "\(form)")
                #expect((context.underlyingError as? PlistError)?.code == .limitExceeded, "\(form)")
            }
            do {
                _ = try encoder.encodeValue(deep)
                Issue.record("\(form): no error")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.count >= 9, "\(form)")
            }
        }
        var openStep = PlistEncoder()
        openStep.outputFormat = .openStep
        do {
            _ = try openStep.encode(["n": 1])
            Issue.record("OpenStep wrote an integer")
        } catch EncodingError.invalidValue(_, let context) {
            #expect((context.underlyingError as? PlistError)?.code == .unencodable)
            #expect(context.debugDescription.hasPrefix("openStep output: "))
        }
    }
}
