// Tests/PropertyListTests/Codable/CodableHostileInputTests.swift - Bad input gets a typed error: shared
// sub-trees that would expand to 2^40 values stop at the value budget, cycles and deep nesting are
// errors, and every truncation and mutation of an encoded model decodes or throws a DecodingError.

import Foundation
import KeyedArchiveTestSupport
@_spi(Internals) import PropertyList
import Testing

/// A recursive model: a node is an array of nodes (a leaf is an empty array).
struct Node: Codable, Equatable {
    var children: [Node]
    init(children: [Node]) { self.children = children }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        children = []
        while !c.isAtEnd { children.append(try c.decode(Node.self)) }
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for child in children { try c.encode(child) }
    }
}

/// A hand-assembled bplist00: `objects` are the encoded objects in order (1-byte references),
/// object 0 the root.
func assembledPlist(_ objects: [[UInt8]]) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for o in objects {
        offsets.append(bytes.count)
        bytes += o
    }
    let table = bytes.count
    let offsetSize = table < 256 ? 1 : 2
    for off in offsets {
        if offsetSize == 1 { bytes.append(UInt8(off)) } else { bytes += [UInt8(off >> 8), UInt8(off & 0xFF)] }
    }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
    func bigEndian(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    bytes += bigEndian(objects.count) + bigEndian(0) + bigEndian(table)
    return Data(bytes)
}

@Suite struct CodableHostileInputTests {
    /// 40 levels of `[x, x]`: 2^40 leaves described in about 130 bytes. Each shared level is
    /// decoded once per reference, so the decode stops at the value budget with `limitExceeded`.
    @Test func expansionStopsAtTheBudget() throws {
        // Object i is [i+1, i+1]; object 40 is the empty array.
        var objects: [[UInt8]] = (0..<40).map { i in [0xA2, UInt8(i + 1), UInt8(i + 1)] }
        objects.append([0xA0])
        let data = assembledPlist(objects)
        #expect(data.count < 256)
        let decoder = PlistDecoder()
        let budget = decoder.valueBudget(forInputBytes: data.count)
        #expect(budget < 1 << 21)
        do {
            _ = try decoder.decode(Node.self, from: data)
            Issue.record("decoded 2^40 values")
        } catch DecodingError.dataCorrupted(let context) {
            let underlying = try #require(context.underlyingError as? PlistError)
            #expect(underlying.code == .limitExceeded)
        }
        // The same shape, 10 levels (2^11 - 1 values), is within budget and decodes.
        var small: [[UInt8]] = (0..<10).map { i in [0xA2, UInt8(i + 1), UInt8(i + 1)] }
        small.append([0xA0])
        let node = try decoder.decode(Node.self, from: assembledPlist(small))
        var depth = 0
        var n = node
        while let first = n.children.first {
            depth += 1
            n = first
        }
        #expect(depth == 10)
        // PlistLimits.maxValues caps the budget too.
        var strict = PlistDecoder()
        strict.limits.maxValues = 100
        #expect(throws: DecodingError.self) { try strict.decode(Node.self, from: assembledPlist(small)) }
    }

    /// An array that contains itself, directly or through another, is a `cycle` error.
    @Test func cyclesAreErrors() throws {
        for objects: [[UInt8]] in [
            [[0xA1, 0x00]], [[0xA1, 0x01], [0xA1, 0x00]], [[0xD1, 0x01, 0x02], [0x51, 0x61], [0xA1, 0x00]],
        ] {
            let data = assembledPlist(objects)
            do {
                if objects[0][0] == 0xD1 {
                    _ = try PlistDecoder().decode([String: Node].self, from: data)
                } else {
                    _ = try PlistDecoder().decode(Node.self, from: data)
                }
                Issue.record("decoded a cycle")
            } catch DecodingError.dataCorrupted(let context) {
                #expect((context.underlyingError as? PlistError)?.code == .cycle)
            }
        }
    }

    /// A key held twice (two string objects with one text) is read at its last occurrence, as
    /// `ref(at:)` and `value()` read it, also after the memo learned the key's position.
    @Test func repeatedKeysReadTheLastOccurrence() throws {
        struct Named: Decodable, Equatable { var name: String }
        let data = assembledPlist([
            [0xA2, 1, 2],  // [obj1, obj2]
            [0xD1, 3, 4],  // {name: "a"}
            [0xD2, 3, 5, 6, 7],  // {name: "b", name: "c"}
            [0x54] + Array("name".utf8), [0x51, 0x61], [0x54] + Array("name".utf8), [0x51, 0x62], [0x51, 0x63],
        ])
        #expect(try PlistDecoder().decode([Named].self, from: data) == [Named(name: "a"), Named(name: "c")])
        let doc = try BinaryPlistDocument(data)
        #expect(try doc.lookup("1.name") == "c")
        #expect(try PlistDecoder().decode(Named.self, from: doc, at: "1") == Named(name: "c"))
        #expect(try PlistDecoder().decode(String.self, from: doc, at: "1.name") == "c")
    }

    /// Nesting deeper than `PlistLimits.maxDepth` is `limitExceeded`, never a stack overflow.
    @Test func depthIsBounded() throws {
        var value = PlistValue.array([])
        for _ in 0..<600 { value = .array([value]) }
        let data = try BinaryPlistWriter().write(value)
        do {
            _ = try PlistDecoder().decode(Node.self, from: data)
            Issue.record("decoded 600 levels")
        } catch DecodingError.dataCorrupted(let context) {
            #expect((context.underlyingError as? PlistError)?.code == .limitExceeded)
            #expect(context.codingPath.count >= 500)
        }
        var deep = PlistDecoder()
        deep.limits.maxDepth = 700
        var n = try deep.decode(Node.self, from: data)
        var depth = 0
        while let first = n.children.first {
            depth += 1
            n = first
        }
        #expect(depth == 600)
    }

    /// Every truncation of an encoded model gives a value or a DecodingError.
    @Test func everyTruncation() throws {
        let bytes = try PlistEncoder().encode(makeEverything())
        var decoded = 0
        for n in 0..<bytes.count {
            do {
                _ = try PlistDecoder().decode(Everything.self, from: bytes.prefix(n))
                decoded += 1
            } catch is DecodingError {
            } catch {
                Issue.record("truncation to \(n) bytes threw \(type(of: error)): \(error)")
            }
        }
        #expect(decoded == 0)
    }

    /// Thousands of byte mutations give a value or a DecodingError (seeded; PROPERTY_SEED replays).
    @Test func byteMutations() throws {
        let original = try PlistEncoder().encode(makeEverything())
        let seed = propertySeed()
        var rng = SplitMix64(seed: seed)
        var decodedCount = 0
        for _ in 0..<3_000 {
            var bytes = [UInt8](original)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] =
                    Int.random(in: 0...2, using: &rng) == 0 ? UInt8.random(in: 0...255, using: &rng) : bytes[i] ^ 0xFF
            }
            do {
                _ = try PlistDecoder().decode(Everything.self, from: Data(bytes))
                decodedCount += 1
            } catch is DecodingError {
            } catch {
                Issue.record("seed \(seed): a mutation threw \(type(of: error)): \(error)")
            }
        }
        // Mutations of payload bytes (a string's letters, a number) still decode.
        #expect(decodedCount > 0, "seed \(seed)")
    }
}
