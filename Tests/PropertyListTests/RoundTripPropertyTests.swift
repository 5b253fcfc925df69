// Tests/PropertyListTests/RoundTripPropertyTests.swift - Properties of write/read over generated values.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

@Suite struct RoundTripPropertyTests {
    /// Seeds for the generator; PropertyBased reports the failing seed (replay with `.fixedSeed`).
    static let seeds = Gen.int(in: 0...Int.max)

    @Test func readingWhatWasWrittenGivesTheSameValue() async {
        await propertyCheck(count: 300, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let data = try BinaryPlistWriter().write(v)
                #expect(try decode(data) == v, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func writingIsDeterministicAndMinimal() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let data = try BinaryPlistWriter().write(v)
                #expect(try BinaryPlistWriter().write(v) == data, "seed \(seed)")
                let doc = try BinaryPlistDocument(data)
                // Object count equals the distinct values, computed by an independent model.
                #expect(doc.objectCount == distinctObjectCount(v), "seed \(seed)")
                // Widths are the smallest power of two that fits.
                let n = doc.objectCount
                #expect(doc.trailer.objectRefSize == (n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : 4), "seed \(seed)")
                let t = doc.trailer.offsetTableOffset
                #expect(doc.trailer.offsetIntSize == (t <= 0xFF ? 1 : t <= 0xFFFF ? 2 : 4), "seed \(seed)")
                #expect(doc.root == ObjectRef(0))
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func compressedRoundTrip() async {
        await propertyCheck(count: 50, input: Self.seeds, Gen.int(in: 0...9)) { seed, level in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let data = try BinaryPlistWriter(compression: .zlib, compressionLevel: level).write(v)
                let doc = try BinaryPlistDocument(data)
                #expect(doc.compression == .zlib)
                #expect(try doc.value() == v, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func lazyLookupAgreesWithTheTree() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .init(nonStringKeys: false))
            let v = g.value()
            do {
                let doc = try BinaryPlistDocument(BinaryPlistWriter().write(v))
                // Every path of string keys / indexes (without dots) reaches the same value lazily.
                var paths: [([String], PlistValue)] = [([], v)]
                var i = 0
                while i < paths.count && i < 200 {
                    let (path, node) = paths[i]
                    i += 1
                    #expect(
                        try doc.ref(at: PlistKeyPath(keys: path)).map { try doc.value(of: $0) } == node,
                        "seed \(seed) path \(path)")
                    switch node {
                    case .array(let xs): paths += xs.enumerated().map { (path + [String($0.offset)], $0.element) }
                    case .dictionary(let d):
                        for (k, x) in d.entries { if let s = k.stringValue { paths.append((path + [s], x)) } }
                    default: break
                    }
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }
}
