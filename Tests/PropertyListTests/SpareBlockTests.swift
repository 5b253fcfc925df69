// Tests/PropertyListTests/SpareBlockTests.swift - The writers' output blocks given back and reused
// (`SpareBlock`): an output that is still held is never written over, one freed is reused intact, and a
// write that fails gives its block back in a usable state.
//
// Every output here is over the 4 MiB from which a block is kept, and each is checked by reading it
// back (the readers share no code with the writers' buffers) against the value it was written from.
// Whether a block was in fact reused is the benchmarks' affair (Benchmarks/README.md, round 4 session
// 16: the page faults of an encode); other tests may take the kept block at any time, which these
// checks do not depend on.

import Foundation
import PropertyList
import Testing

@Suite struct SpareBlockTests {
    /// An array of `count` distinct strings tagged `tag`: about 30 bytes each in binary, 40 in XML.
    static func strings(_ tag: String, count: Int = 180_000) -> PlistValue { .array(elements(tag, count: count)) }

    static func elements(_ tag: String, count: Int = 180_000) -> [PlistValue] {
        (0..<count).map { .string("\(tag)-\($0)-abcdefghijklmnop") }
    }

    /// Dictionaries with shared keys, which the binary writer deduplicates (its exact-sized block).
    static func records(_ tag: String, count: Int = 120_000) -> PlistValue {
        .array(
            (0..<count).map { i -> PlistValue in
                ["name": .string("\(tag) record \(i)"), "n": .integer(PlistInteger(Int64(i))), "ok": true]
            })
    }

    struct Row: Codable, Equatable {
        var name: String
        var n: Int
    }

    static func rows(_ tag: String, count: Int = 120_000) -> [Row] {
        (0..<count).map { Row(name: "\(tag)-\($0)-abcdefghij", n: $0) }
    }

    @Test func heldOutputsAreNeverWrittenOverByLaterWrites() throws {
        // Each kind of writer's block: the XML text, the binary writer's growing block (an array of
        // strings) and its exact-sized one (deduplicated dictionaries), the Codable encoder's table.
        // A block given back first, for the writes below to take (unless another test takes it).
        _ = try XMLPlist.encode(Self.strings("seed"))
        let a = Self.strings("a")
        let b = Self.strings("b")
        let xmlA = try XMLPlist.encode(a)
        let xmlB = try XMLPlist.encode(b)
        #expect(xmlA.count > 4 << 20 && xmlB.count > 4 << 20)
        let binA = try BinaryPlistWriter().write(a)
        let binB = try BinaryPlistWriter().write(b)
        #expect(binA.count > 4 << 20)
        let ra = Self.records("a")
        let rb = Self.records("b")
        let recA = try BinaryPlistWriter().write(ra)
        let recB = try BinaryPlistWriter().write(rb)
        #expect(recA.count > 4 << 20)
        let rowsA = Self.rows("a")
        let rowsB = Self.rows("b")
        let codA = try PlistEncoder().encode(rowsA)
        let codB = try PlistEncoder().encode(rowsB)
        #expect(codA.count > 4 << 20)

        #expect(try XMLPlist.decode(xmlA) == a)
        #expect(try XMLPlist.decode(xmlB) == b)
        #expect(try BinaryPlistDocument(binA).value() == a)
        #expect(try BinaryPlistDocument(binB).value() == b)
        #expect(try BinaryPlistDocument(recA).value() == ra)
        #expect(try BinaryPlistDocument(recB).value() == rb)
        #expect(try PlistDecoder().decode([Row].self, from: codA) == rowsA)
        #expect(try PlistDecoder().decode([Row].self, from: codB) == rowsB)
    }

    @Test func aFreedOutputsBlockIsReusedIntact() throws {
        // Written and dropped in turn, so that each write may take the block the one before gave back,
        // a longer one after a shorter one and the other way round.
        for (round, count) in [180_000, 150_000, 200_000, 120_000].enumerated() {
            let v = Self.strings("r\(round)", count: count)
            let xml = try XMLPlist.encode(v)
            #expect(try XMLPlist.decode(xml) == v, "XML, round \(round)")
            let bin = try BinaryPlistWriter().write(v)
            #expect(try BinaryPlistDocument(bin).value() == v, "binary, round \(round)")
            let rows = Self.rows("r\(round)", count: count / 2)
            var encoder = PlistEncoder()
            encoder.outputFormat = .xml
            let coded = try encoder.encode(rows)
            #expect(try PlistDecoder().decode([Row].self, from: coded) == rows, "Codable XML, round \(round)")
        }
    }

    @Test func aWriteThatFailsLeavesItsBlockUsable() throws {
        // XML cannot hold U+0001: the writer stops after more than 4 MiB of text and its block goes back.
        var elements = Self.elements("bad")
        elements.append(.string("control \u{1} character"))
        #expect(throws: PlistError.self) { try XMLPlist.encode(.array(elements)) }
        let good = Self.strings("good")
        let xml = try XMLPlist.encode(good)
        #expect(try XMLPlist.decode(xml) == good)
    }
}
