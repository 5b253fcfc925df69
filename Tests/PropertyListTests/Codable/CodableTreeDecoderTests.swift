// Tests/PropertyListTests/Codable/CodableTreeDecoderTests.swift - The tree decoder (a `PlistValue`
// decoded in place, as OpenStep and JSON are) against the binary decoder (the same tree written as a
// binary property list and decoded from that, as `decode(_:from: PlistValue)` did before): the same
// values, and for failures the same `DecodingError` case, coding path and `PlistError` code and
// detail (the binary errors also carry byte offsets, which a tree has not).

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

/// What a decode gave: the value's full description, or the error's kind, path and detail.
func treeOutcome<T>(_ body: () throws -> T) -> String {
    do {
        return "value " + String(reflecting: try body())
    } catch {
        return describeFailure(error)
    }
}

/// A `DecodingError` without byte offsets: its case, the type or key, the coding path and the
/// `PlistError` code and detail (or the message when the error is not a `PlistError`).
func describeFailure(_ error: any Error) -> String {
    func context(_ c: DecodingError.Context) -> String {
        let path = describeCodingPath(c.codingPath)
        if let p = c.underlyingError as? PlistError { return "\(path) \(p.code) \(p.detail)" }
        return "\(path) \(c.debugDescription)"
    }
    switch error {
    case DecodingError.typeMismatch(let type, let c): return "typeMismatch \(type) " + context(c)
    case DecodingError.valueNotFound(let type, let c): return "valueNotFound \(type) " + context(c)
    case DecodingError.keyNotFound(let key, let c): return "keyNotFound \(key.stringValue) " + context(c)
    case DecodingError.dataCorrupted(let c): return "dataCorrupted " + context(c)
    default: return "other \(error)"
    }
}

/// Decodes whatever a value holds through the `Decoder` API, recording every attempt and every
/// failure: keyed (every key, `decodeNil`, a missing key, `superDecoder`), unkeyed (every element,
/// `decodeNil`, one past the end), and each scalar type in turn.
struct Probe: Decodable, Equatable, CustomStringConvertible {
    var log: [String] = []
    var description: String { log.joined(separator: "; ") }

    init(from decoder: any Decoder) throws {
        log.append("path " + describeCodingPath(decoder.codingPath))
        if let c = try? decoder.container(keyedBy: PlistCodingKey.self) {
            log.append("keys " + c.allKeys.map(\.stringValue).joined(separator: ","))
            for key in c.allKeys {
                log.append("nil \(key.stringValue) " + treeOutcome { try c.decodeNil(forKey: key) })
                log.append(treeOutcome { try c.decode(Probe.self, forKey: key) })
                log.append(treeOutcome { try c.decodeIfPresent(Int8.self, forKey: key) })
                log.append(treeOutcome { try c.nestedUnkeyedContainer(forKey: key).count })
                log.append(treeOutcome { try c.decode([String: Bool].self, forKey: key).sorted { $0.key < $1.key } })
            }
            log.append(treeOutcome { try c.decode(String.self, forKey: PlistCodingKey("absent key")) })
            log.append(treeOutcome { try c.superDecoder().codingPath.count })
            log.append(treeOutcome { try c.decodeIfPresent(Date.self, forKey: PlistCodingKey("absent key")) })
            return
        }
        log.append(treeOutcome { try decoder.container(keyedBy: PlistCodingKey.self).allKeys.count })
        if var u = try? decoder.unkeyedContainer() {
            log.append("count \(u.count ?? -1)")
            while !u.isAtEnd {
                if try u.decodeNil() {
                    log.append("nil")
                    continue
                }
                log.append(treeOutcome { try u.decode(Probe.self) })
            }
            log.append(treeOutcome { try u.decode(Int.self) })
            return
        }
        log.append(treeOutcome { try decoder.unkeyedContainer().count })
        let s = try decoder.singleValueContainer()
        log.append("nil \(s.decodeNil())")
        log.append(treeOutcome { try s.decode(String.self) })
        log.append(treeOutcome { try s.decode(Int.self) })
        log.append(treeOutcome { try s.decode(UInt8.self) })
        log.append(treeOutcome { try s.decode(Int64.self) })
        log.append(treeOutcome { try s.decode(UInt64.self) })
        log.append(treeOutcome { try s.decode(Int128.self) })
        log.append(treeOutcome { try s.decode(Double.self) })
        log.append(treeOutcome { try s.decode(Float.self) })
        log.append(treeOutcome { try s.decode(Bool.self) })
        log.append(treeOutcome { try s.decode(Date.self).timeIntervalSinceReferenceDate.bitPattern })
        log.append(treeOutcome { try s.decode(Data.self) })
        log.append(treeOutcome { try s.decode(PlistUID.self) })
        log.append(treeOutcome { try s.decode([Int].self) })
    }
}

/// What a decode gave: the value, or its failure as `describeFailure` writes it.
enum Decoded<T> {
    case value(T)
    case failure(String)

    init(_ body: () throws -> T) {
        do {
            self = .value(try body())
        } catch {
            self = .failure(describeFailure(error))
        }
    }

    /// Whether two outcomes are the same: equal values by `same`, or the same failure.
    func same(as other: Decoded<T>, by same: (T, T) -> Bool) -> Bool {
        switch (self, other) {
        case (.value(let a), .value(let b)): same(a, b)
        case (.failure(let a), .failure(let b)): a == b
        default: false
        }
    }
}

/// Decodes `tree` as `T` by the tree decoder and by the binary one (the tree written as a binary
/// property list, opened with the decoder's limits, as `decode(_:from: PlistValue)` did before), and
/// records an issue naming both outcomes when they differ.
func expectSamePaths<T: Decodable>(
    _ type: T.Type, _ tree: PlistValue, decoder: PlistDecoder = PlistDecoder(), _ note: String = "",
    same: (T, T) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    var limits = decoder.limits
    limits.maxObjects = max(limits.maxObjects, Int.max / 16)
    let document = try BinaryPlistDocument(BinaryPlistWriter().write(tree), limits: limits)
    let viaTree = Decoded { try decoder.decode(T.self, from: tree) }
    let viaBinary = Decoded { try decoder.decode(T.self, from: document) }
    let agree = viaTree.same(as: viaBinary, by: same)
    #expect(agree, "\(note) tree: \(viaTree) binary: \(viaBinary)", sourceLocation: sourceLocation)
}

func expectSamePaths<T: Decodable & Equatable>(
    _ type: T.Type, _ tree: PlistValue, decoder: PlistDecoder = PlistDecoder(), _ note: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try expectSamePaths(type, tree, decoder: decoder, note, same: ==, sourceLocation: sourceLocation)
}

@Suite struct CodableTreeDecoderTests {
    static let seeds = Gen.uint64()

    /// Every model of the Codable tests decodes to the same value by both paths.
    @Test func modelsDecodeTheSame() throws {
        let everything = try PlistEncoder().encodeValue(makeEverything())
        try expectSamePaths(Everything.self, everything)
        #expect(try PlistDecoder().decode(Everything.self, from: everything) == makeEverything())
        for model in [Scalars.minimums, Scalars.maximums] {
            try expectSamePaths(Scalars.self, try PlistEncoder().encodeValue(model))
        }
        let matrix = Matrix(name: "m", rows: [[1, 2], [], [3.5]], meta: ["author": "ada"])
        try expectSamePaths(Matrix.self, try PlistEncoder().encodeValue(matrix))
        try expectSamePaths(Probe.self, everything)
        try expectSamePaths(Top.self, PlistValue.dict(["root": .uid(7)]))
        try expectSamePaths(Top.self, PlistValue.dict(["root": 7]))
    }

    struct Top: Codable, Equatable { var root: PlistUID }

    /// Generated models, as values and as `Probe`s, and every model with one leaf replaced by a
    /// generated scalar (a failure somewhere inside): the same outcome, error for error.
    @Test func generatedModelsDecodeTheSame() async {
        await propertyCheck(count: 30, input: Self.seeds) { seed in
            do {
                var models = ModelGenerator(rng: SplitMix64(seed: seed))
                let tree = try PlistEncoder().encodeValue(models.model(depth: 3))
                try expectSamePaths(GeneratedModel.self, tree, "seed \(seed)")
                try expectSamePaths(Probe.self, tree, "seed \(seed)")
                var values = PlistGenerator(seed: seed)
                for _ in 0..<8 {
                    let mutated = replacingOneLeaf(of: tree, with: values.scalar(), choosing: &values)
                    // A NaN leaf makes `==` false: compare what the models encode to (reals by bits).
                    try expectSamePaths(GeneratedModel.self, mutated, "seed \(seed)") { a, b in
                        (try? PlistEncoder().encodeValue(a)) == (try? PlistEncoder().encodeValue(b))
                    }
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// Generated property lists (every kind: sets, UIDs, null, 128-bit integers, NaN, non-string
    /// keys) decoded as `Probe`, as string-keyed dictionaries and as arrays.
    ///
    /// Without keys that differ only by Unicode normalisation ("é" and "e\u{301}" in one
    /// dictionary): the binary decoder's key memo matches its slots by `String ==` (canonical
    /// equivalence) and tells such keys apart by where it last found them, so it can read one for the
    /// other; the tree decoder compares exact text (`keysAreExactText`).
    @Test func generatedValuesDecodeTheSame() async {
        await propertyCheck(count: 50, input: Self.seeds) { seed in
            do {
                var g = PlistGenerator(seed: seed, profile: GenerationProfile(decomposedText: false))
                let tree = g.value()
                try expectSamePaths(Probe.self, tree, "seed \(seed)")
                try expectSamePaths([String: Probe].self, tree, "seed \(seed)")
                try expectSamePaths([Int: [String]].self, tree, "seed \(seed)")
                try expectSamePaths([Double].self, tree, "seed \(seed)") { a, b in
                    a.map(\.bitPattern) == b.map(\.bitPattern)
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// Keys are exact text: "é" and "e\u{301}" are two keys, each read as itself, in either order.
    @Test func keysAreExactText() throws {
        struct Both: Decodable, Equatable {
            var composed: Int
            var decomposed: Int
            init(composed: Int, decomposed: Int) { (self.composed, self.decomposed) = (composed, decomposed) }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: PlistCodingKey.self)
                composed = try c.decode(Int.self, forKey: PlistCodingKey("\u{E9}"))
                decomposed = try c.decode(Int.self, forKey: PlistCodingKey("e\u{301}"))
            }
        }
        let first = PlistValue.dict(["\u{E9}": 1, "e\u{301}": 2])
        let second = PlistValue.dict(["e\u{301}": 2, "\u{E9}": 1])
        for tree in [first, second] {
            #expect(try PlistDecoder().decode(Both.self, from: tree) == Both(composed: 1, decomposed: 2))
            #expect(try PlistDecoder().decode([Both].self, from: [tree, tree]).count == 2)
        }
    }

    /// The decoder's settings hold on the tree path: `userInfo`, the depth limit and the value budget.
    @Test func settingsHold() throws {
        struct Reads: Decodable {
            var seen: String
            init(from decoder: any Decoder) throws {
                seen = CodingUserInfoKey(rawValue: "k").flatMap { decoder.userInfo[$0] as? String } ?? "none"
            }
        }
        var decoder = PlistDecoder()
        decoder.userInfo[try #require(CodingUserInfoKey(rawValue: "k"))] = "yes"
        #expect(try decoder.decode(Reads.self, from: PlistValue.dict(["a": 1])).seen == "yes")

        var nested: PlistValue = []
        for _ in 0..<20 { nested = .array([nested]) }
        var shallow = PlistDecoder()
        shallow.limits.maxDepth = 10
        try expectSamePaths(Node.self, nested, decoder: shallow)
        let a = treeOutcome { try shallow.decode(Node.self, from: nested) }
        #expect(a.hasPrefix("dataCorrupted") && a.contains("limitExceeded"))
        #expect(try PlistDecoder().decode(Node.self, from: nested).children.count == 1)

        var strict = PlistDecoder()
        strict.limits.maxValues = 10
        let wide = PlistValue.array(Array(repeating: .int(1), count: 50))
        #expect(treeOutcome { try strict.decode([Int].self, from: wide) }.contains("limitExceeded"))
    }

    /// Hostile trees: nesting far past the limit is an error, not a crash; 40 levels of a shared
    /// `[x, x]` (2^40 leaves) stop at the value budget.
    @Test func hostileTreesAreErrors() throws {
        var deep: PlistValue = []
        for _ in 0..<2_000 { deep = .array([deep]) }
        let outcome = treeOutcome { try PlistDecoder().decode(Node.self, from: deep) }
        #expect(outcome.hasPrefix("dataCorrupted") && outcome.contains("limitExceeded"))

        var shared: PlistValue = []
        for _ in 0..<40 { shared = .array([shared, shared]) }
        // The budget is capped low to keep the test short; without a cap it is 2^20 plus 64 per
        // distinct value (about 120 here), never 2^40.
        var capped = PlistDecoder()
        capped.limits.maxValues = 50_000
        let expanded = treeOutcome { try capped.decode(Node.self, from: shared) }
        #expect(expanded.hasPrefix("dataCorrupted") && expanded.contains("limitExceeded"))

        // Deep XML: the reader's own depth limit.
        let xml = Data(
            ("<plist>" + String(repeating: "<array>", count: 5_000) + String(repeating: "</array>", count: 5_000)
                + "</plist>").utf8)
        #expect(treeOutcome { try PlistDecoder().decode(Node.self, from: xml) }.hasPrefix("dataCorrupted"))
    }

    /// Every text form decodes (XML through its tape, JSON and OpenStep through the tree) to what the
    /// binary form gives.
    @Test func textFormsDecodeTheSame() throws {
        let everything = makeEverything()
        let binary = try PlistDecoder().decode(Everything.self, from: PlistEncoder().encode(everything))
        for form in [PlistFormat.xml, .json] {
            var encoder = PlistEncoder()
            encoder.outputFormat = form
            var read = PlistFormat.binary
            let got = try PlistDecoder().decode(Everything.self, from: encoder.encode(everything), format: &read)
            #expect(read == form)
            #expect(got == binary)
        }
        let words = try PlistValue.dict(["a": ["x", "y"], "b": "z"]).encoded(as: .openStep)
        let read = try PlistDecoder().decode([String: PlistWords].self, from: words)
        #expect(read == ["a": .list(["x", "y"]), "b": .word("z")])
    }
}

/// A string or a list of strings (what OpenStep holds).
enum PlistWords: Decodable, Equatable {
    case word(String), list([String])
    init(from decoder: any Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            self = .word(s)
        } else {
            self = .list(try decoder.singleValueContainer().decode([String].self))
        }
    }
}

/// `tree` with one leaf (chosen by `g`) replaced by `leaf`.
func replacingOneLeaf(of tree: PlistValue, with leaf: PlistValue, choosing g: inout PlistGenerator) -> PlistValue {
    switch tree {
    case .array(let a) where !a.isEmpty:
        var copy = a
        let i = g.int(0...a.count - 1)
        copy[i] = replacingOneLeaf(of: a[i], with: leaf, choosing: &g)
        return .array(copy)
    case .dictionary(let d) where !d.isEmpty:
        var copy = d
        let i = g.int(0...d.count - 1)
        copy[d.entries[i].key] = replacingOneLeaf(of: d.entries[i].value, with: leaf, choosing: &g)
        return .dictionary(copy)
    default:
        return leaf
    }
}
