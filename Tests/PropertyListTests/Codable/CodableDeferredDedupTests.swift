// Tests/PropertyListTests/Codable/CodableDeferredDedupTests.swift - The Codable encoder's numbers are
// deduplicated in batches (ObjectTableBuilder.addDeferred); its output must be the bytes the tree
// writer, which deduplicates each value as it is added, writes for the same tree.
//
// The expected trees are built here by hand from the models, not by the encoder, and written by
// `BinaryPlistWriter`. Sizes straddle the batch of 32 so that equal numbers meet within a batch,
// across batches, and across containers closed between batches.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct CodableDeferredDedupTests {
    struct Reading: Codable {
        var sensor: Int
        var value: Double
        var at: Int64
        var small: Int8
        var history: [Int]
        var levels: [Double]
    }

    /// Readings with values that repeat at several periods (7, 5, 3) and some that do not.
    static func readings(_ n: Int) -> [Reading] {
        var out: [Reading] = []
        for i in 0..<n {
            let history: [Int] = (0..<(i % 4)).map { $0 * 10 }
            let levels: [Double] = [Double(i % 2), -0.0, 0.0]
            let value = Double(i % 5) * 0.5
            let at = Int64(i) * 1_000_003
            out.append(
                Reading(sensor: i % 7, value: value, at: at, small: Int8(i % 3), history: history, levels: levels))
        }
        return out
    }

    static func tree(_ readings: [Reading]) -> PlistValue {
        var items: [PlistValue] = []
        for r in readings {
            let history: [PlistValue] = r.history.map { .int($0) }
            let levels: [PlistValue] = r.levels.map { .real($0) }
            let entries: [(PlistValue, PlistValue)] = [
                ("sensor", .int(r.sensor)), ("value", .real(r.value)), ("at", .int(r.at)),
                ("small", .int(r.small)), ("history", .array(history)), ("levels", .array(levels)),
            ]
            items.append(.dictionary(PlistDictionary(entries)))
        }
        return .array(items)
    }

    // 513 and 2,000: past twice `ObjectTableBuilder.sampledChildren`, where both writers size their
    // tables from the root's first 256 elements (`reserveRest`) and then fill them past that estimate.
    @Test(arguments: [0, 1, 2, 31, 32, 33, 64, 65, 257, 513, 2000])
    func binaryOutputIsTheTreeWritersBytes(count: Int) throws {
        let readings = Self.readings(count)
        let expected = try BinaryPlistWriter().write(Self.tree(readings))
        #expect(try PlistEncoder().encode(readings) == expected)
    }

    @Test func aTreeOfTheEncoderIsTheModelsTree() throws {
        // encodeValue goes through the same builder, then turns its objects into a tree.
        let readings = Self.readings(100)
        #expect(try PlistEncoder().encodeValue(readings) == Self.tree(readings))
    }

    @Test func unkeyedNumbersAcrossBatchesAreWrittenOnce() throws {
        // 1,000 numbers alternating between ints and reals, 10 distinct of each.
        let numbers = (0..<500).map { i in Pair(int: i % 10, real: Double(i % 10) + 0.25) }
        let data = try PlistEncoder().encode(Alternating(pairs: numbers))
        let document = try BinaryPlistDocument(data)
        // The array, 10 integers and 10 reals.
        #expect(document.objectCount == 21)
        let expected: PlistValue = .array(numbers.flatMap { p -> [PlistValue] in [.int(p.int), .real(p.real)] })
        #expect(data == (try BinaryPlistWriter().write(expected)))
    }

    @Test func equalArraysOfDeferredNumbersAreOneObject() throws {
        // The inner arrays name their numbers by the first object of each value, so they are equal.
        let data = try PlistEncoder().encode([[1, 2, 3], [1, 2, 3], [3, 2, 1]] as [[Int]])
        // Outer array, two distinct inner arrays, three integers.
        #expect(try BinaryPlistDocument(data).objectCount == 6)
        #expect(data == (try BinaryPlistWriter().write([[1, 2, 3], [1, 2, 3], [3, 2, 1]])))
    }

    @Test func aNumberAtTheRootIsWritten() throws {
        #expect(try PlistEncoder().encode(42) == (try BinaryPlistWriter().write(.int(42))))
        #expect(try PlistEncoder().encode(2.5) == (try BinaryPlistWriter().write(.real(2.5))))
        #expect(try PlistEncoder().encodeValue(Int64(-7)) == .int(-7))
    }

    @Test func deferredAndImmediateAddsOfOneValueMeet() throws {
        // In an unkeyed container Int, Int64 and Double are deferred, Int16 and UInt8 added at once;
        // in a keyed one all are added at once. Every 7 is one object, and so is every 2.5.
        let data = try PlistEncoder().encode(Sevens(a: 7, b: 7, c: 7, d: 7, e: 2.5))
        // The dictionary, 6 keys, the array, one 7, one 2.5.
        #expect(try BinaryPlistDocument(data).objectCount == 10)
        let expected: PlistValue = .dict([
            "a": 7, "b": 7, "c": 7, "d": 7, "e": .real(2.5), "all": [7, 7, 7, 7, 7, .real(2.5)],
        ])
        #expect(data == (try BinaryPlistWriter().write(expected)))
    }

    @Test func xmlOutputHasEveryNumber() throws {
        var encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let readings = Self.readings(70)
        let xml = try encoder.encode(readings)
        #expect(try XMLPlist.decode(xml) == Self.tree(readings))
    }

    struct Pair { var int: Int, real: Double }

    struct Alternating: Encodable {
        var pairs: [Pair]
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            for p in pairs {
                try c.encode(p.int)
                try c.encode(p.real)
            }
        }
    }

    struct Sevens: Encodable {
        var a: Int, b: Int64, c: Int16, d: UInt8, e: Double
        enum CodingKeys: String, CodingKey { case a, b, c, d, e, all }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(a, forKey: .a)
            try keyed.encode(b, forKey: .b)
            try keyed.encode(c, forKey: .c)
            try keyed.encode(d, forKey: .d)
            try keyed.encode(e, forKey: .e)
            var all = keyed.nestedUnkeyedContainer(forKey: .all)
            try all.encode(c)
            try all.encode(a)
            try all.encode(d)
            try all.encode(b)
            try all.encode(a)
            try all.encode(e)
        }
    }
}
