// Tests/PropertyListTests/Codable/CodableXMLStreamTests.swift - PlistEncoder's XML written as the values
// are encoded (XMLEncoding.swift), against the route it replaced: the object table's tree written by
// the XML writer (`encodeValue`, then `encoded(as: .xml)`). Every value that writes in order stays
// on the stream (checked: `streamedXML` is not nil) and gives the same bytes; every value the stream
// cannot write (out of order, a key twice, what XML cannot hold) leaves it, and `encode` gives the
// table route's bytes or error.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

/// The table route's XML of `value`, or its error.
private func tableXML<T: Encodable>(_ value: T, _ encoder: PlistEncoder) -> Result<Data, any Error> {
    Result {
        try encoder.encodeValue(value).encoded(
            as: .xml, compression: encoder.compression,
            options: PlistWriteOptions(compressionLevel: encoder.compressionLevel))
    }
}

/// An encoder writing XML.
private func xmlEncoder() -> PlistEncoder {
    var encoder = PlistEncoder()
    encoder.outputFormat = .xml
    return encoder
}

/// Checks that `value` stays on the stream and gives the table route's bytes, keys sorted or not.
private func checkStreamed<T: Encodable>(
    _ value: T, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for sorts in [false, true] {
        var encoder = xmlEncoder()
        encoder.sortsKeys = sorts
        let what = "\(label), sortsKeys \(sorts)"
        let expected = try tableXML(value, encoder).get()
        let streamed = try encoder.streamedXML(value)
        #expect(streamed != nil, "\(what): left the stream", sourceLocation: sourceLocation)
        #expect(streamed == expected, "\(what): streamed bytes", sourceLocation: sourceLocation)
        #expect(try encoder.encode(value) == expected, "\(what): encode", sourceLocation: sourceLocation)
    }
}

/// Checks that `value` leaves the stream and that `encode` gives the table route's bytes, or an
/// `EncodingError` with the same coding path.
private func checkAbandoned<T: Encodable>(
    _ value: T, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let encoder = xmlEncoder()
    #expect(try encoder.streamedXML(value) == nil, "\(label): stayed on the stream", sourceLocation: sourceLocation)
    switch tableXML(value, encoder) {
    case .success(let expected):
        #expect(try encoder.encode(value) == expected, "\(label): bytes", sourceLocation: sourceLocation)
    case .failure(let expected as PlistError):
        // The writer's refusal: `encode` reports it as an error of its output step.
        do {
            _ = try encoder.encode(value)
            Issue.record("\(label): no error, the table route threw \(expected)", sourceLocation: sourceLocation)
        } catch EncodingError.invalidValue(_, let got) {
            #expect(got.underlyingError as? PlistError == expected, "\(label)", sourceLocation: sourceLocation)
            #expect(got.debugDescription == "xml output: \(expected)", "\(label)", sourceLocation: sourceLocation)
        }
    case .failure(let expected):
        guard case EncodingError.invalidValue(_, let want) = expected else {
            Issue.record("\(label): the table route threw \(expected)", sourceLocation: sourceLocation)
            return
        }
        do {
            _ = try encoder.encode(value)
            Issue.record("\(label): no error, the table route threw \(expected)", sourceLocation: sourceLocation)
        } catch EncodingError.invalidValue(_, let got) {
            #expect(
                got.codingPath.map(\.stringValue) == want.codingPath.map(\.stringValue), "\(label): coding path",
                sourceLocation: sourceLocation)
            #expect(got.debugDescription == want.debugDescription, "\(label): message", sourceLocation: sourceLocation)
        }
    }
}

private struct Key: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

/// A value whose `encode(to:)` is the closure it holds.
private struct Custom: Encodable {
    let body: (any Encoder) throws -> Void
    func encode(to encoder: any Encoder) throws { try body(encoder) }
}

private struct Leaf: Encodable {
    var name = "leaf & <more>"
    var when = Date(timeIntervalSinceReferenceDate: 86_400.75)
    var bytes = Data((0..<100).map { UInt8($0) })
    var uid = PlistUID(300)
    var ratio: Float = 0.1
    var big = Int128.min
    var huge = UInt128(Int128.max)
    var unsigned = UInt64.max
}

private final class Base: Encodable {
    var id = 7
    var tags = ["a", "b"]
}

private final class Derived: Encodable {
    let base = Base()
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("derived", forKey: "kind")
        try base.encode(to: c.superEncoder())
        try base.encode(to: c.superEncoder(forKey: "named"))
        var u = c.nestedUnkeyedContainer(forKey: "list")
        try base.encode(to: u.superEncoder())
        try u.encode(1)
        _ = u.superEncoder()  // never used: an empty dictionary
    }
}

private struct Nest: Encodable {
    var name = "level"
    var next: [Nest]
}

private enum StreamShape: Encodable {
    case circle(radius: Double)
    case labelled(String, points: [Int])
    case empty
}

@Suite("PlistEncoder: XML written as the values are encoded")
struct CodableXMLStreamTests {
    @Test func valuesInOrderStayOnTheStream() throws {
        try checkStreamed(Leaf(), "leaf")
        try checkStreamed([Leaf(), Leaf()], "leaves")
        try checkStreamed(Derived(), "super encoders")
        try checkStreamed([StreamShape.circle(radius: 2), .labelled("x", points: [1, 2]), .empty], "enums")
        try checkStreamed(["b": [1, 2], "a": [], "é": [3]], "dictionary")
        try checkStreamed([3: "three", -1: "minus one"], "Int-keyed dictionary")
        try checkStreamed([[String: Leaf]](), "empty array")
        try checkStreamed(["k": [String: Int]()], "empty dictionary")
        try checkStreamed([Int?.none, 1], "nil")
        try checkStreamed("a top-level string", "string")
        try checkStreamed(Date(timeIntervalSinceReferenceDate: 0), "date")
        try checkStreamed(PlistUID(9), "uid")
        // Nested deeper than 16 levels: entries indented by more tabs than one store holds.
        var nest = Nest(next: [])
        for _ in 0..<20 { nest = Nest(next: [nest]) }
        try checkStreamed(nest, "20 levels")
        try checkStreamed(["<&>", "tab\t", "\u{7F}", "😀 and more than sixteen bytes"], "text")
        // Nested containers and single-value containers, each used in order.
        try checkStreamed(
            Custom { encoder in
                var c = encoder.container(keyedBy: Key.self)
                var n = c.nestedContainer(keyedBy: Key.self, forKey: "n")
                try n.encode(1, forKey: "one")
                var deeper = n.nestedUnkeyedContainer(forKey: "deeper")
                try deeper.encode(true)
                _ = deeper.nestedContainer(keyedBy: Key.self)
                try c.encode(2, forKey: "after")  // closes n and deeper
                _ = c.nestedUnkeyedContainer(forKey: "unused")
                _ = encoder.container(keyedBy: Key.self)  // the same container again
                try c.encode(
                    Custom {
                        var s = $0.singleValueContainer()
                        try s.encode([1, 2])
                    }, forKey: "single")
                try c.encode(Custom { _ in }, forKey: "nothing")
            }, "nested containers")
    }

    /// Arrays of encodable values are written by the encoder's own loop (`XMLEncodableArray`): the same
    /// bytes, coding paths and errors as `Array.encode(to:)` through an unkeyed container.
    @Test func arraysOfValuesMatchTheContainerLoop() throws {
        try checkStreamed([[Leaf()], [], [Leaf(), Leaf()]], "arrays of arrays")
        try checkStreamed([Leaf?.none, Leaf(), nil], "optionals")
        try checkStreamed(["k": [Nest(next: [Nest(next: [])])]], "in a dictionary")
        try checkStreamed([UInt8(1), 2, 255], "bytes")
        try checkStreamed([Int8(-1), 2], "small integers")
        try checkStreamed([[1.5, 2], [Double]()], "arrays of reals")
        try checkStreamed(
            [
                Custom {
                    var s = $0.singleValueContainer()
                    try s.encode("one")
                },
                Custom {
                    var u = $0.unkeyedContainer()
                    try u.encode(2)
                },
                Custom {
                    var k = $0.container(keyedBy: Key.self)
                    try k.encode(3, forKey: "three")
                },
            ], "elements of every container kind")
        // The coding path of a refusal inside the second element: index 1, then its key.
        try checkAbandoned(
            [["ok": Date(timeIntervalSinceReferenceDate: 0)], ["d": Date(timeIntervalSinceReferenceDate: 1e15)]],
            "a date out of range in the second element")
        try checkAbandoned(
            [
                Custom { _ in },
                Custom { encoder in
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(1, forKey: "a")
                    try c.encode(2, forKey: "a")
                },
            ], "an element writing a key twice")
        struct Refused: Error {}
        let counter = Counter()
        let failing = [Leaf(), Leaf()].map { _ in
            Custom { _ in
                counter.count += 1
                throw Refused()
            }
        }
        #expect(throws: Refused.self) { try xmlEncoder().encode(failing) }
        #expect(counter.count == 1, "the first element's error ends the encode")
    }

    /// A key line met again is copied from its saved snippet: as two 16-byte words when it is short
    /// (with the tabs before it making 16 bytes or more), else by length. Keys of every length from
    /// 1 to 40 bytes, at three depths, each container written twice.
    @Test func keyLinesOfEveryLengthAreCopiedBack() throws {
        let keyed = Custom { encoder in
            var c = encoder.container(keyedBy: Key.self)
            for n in 1...40 {
                let key = String(repeating: "k", count: n - 1) + String(n % 10)
                try c.encode(n, forKey: Key(stringLiteral: key))
            }
        }
        try checkStreamed([keyed, keyed], "depth 1")
        try checkStreamed([[keyed, keyed]], "depth 2")
        try checkStreamed(["a": [[keyed], [keyed]]], "depth 3")
    }

    @Test func generatedModelsStayOnTheStream() async {
        await propertyCheck(count: 60, input: Gen.uint64()) { seed in
            var g = ModelGenerator(rng: SplitMix64(seed: seed))
            let m = g.model(depth: 3)
            do {
                try checkStreamed(m, "seed \(seed)")
                try checkStreamed([m, m], "seed \(seed), twice")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func writesOutOfOrderLeaveTheStream() throws {
        try checkAbandoned(
            Custom { encoder in
                var c = encoder.container(keyedBy: Key.self)
                var n = c.nestedContainer(keyedBy: Key.self, forKey: "n")
                try c.encode(1, forKey: "a")
                try n.encode(2, forKey: "late")  // n was closed by the write above
            }, "nested container used after its parent wrote again")
        try checkAbandoned(
            Custom { encoder in
                var c = encoder.container(keyedBy: Key.self)
                var alias = c  // the same container (one variable may not be mutated inside its own mutation)
                try c.encode(Custom { _ in try alias.encode(1, forKey: "inner") }, forKey: "outer")
            }, "outer container written during a nested encode")
        try checkAbandoned(
            Custom { encoder in
                var c = encoder.container(keyedBy: Key.self)
                try c.encode("first", forKey: "z")
                try c.encode(1, forKey: "a")
                try c.encode("second", forKey: "z")
            }, "a key encoded twice")
        try checkAbandoned(
            Custom { encoder in
                var u = encoder.unkeyedContainer()
                let sup = u.superEncoder()
                try u.encode(1)
                var late = sup.unkeyedContainer()
                try late.encode(2)
            }, "super encoder used after the next element")
        try checkAbandoned(
            Custom { encoder in
                _ = encoder.container(keyedBy: Key.self)
                _ = encoder.unkeyedContainer()
            }, "two kinds of container")
        try checkAbandoned(
            Custom { encoder in
                var s = encoder.singleValueContainer()
                try s.encode(1)
                try s.encode(2)
            }, "a single value twice")
        try checkAbandoned(Custom { _ = $0.singleValueContainer() }, "a single-value container left empty")
        // A value that catches an error of a nested value and goes on.
        try checkAbandoned(
            Custom { encoder in
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(1, forKey: "a")
                try? c.encode(Custom { _ in throw CancellationError() }, forKey: "fails")
                try c.encode(2, forKey: "b")
            }, "a nested error caught")
    }

    @Test func whatXMLCannotHoldIsTheTableRoutesError() throws {
        try checkAbandoned(["ok", "bell \u{07}"], "a control character")
        try checkAbandoned(["k\u{FFFE}": 1], "a key XML cannot hold")
        try checkAbandoned(["d": Date(timeIntervalSinceReferenceDate: 1e15)], "a date out of range")
        try checkAbandoned(["u": UInt128.max], "a UInt128 above Int128.max")
        struct Deep: Encodable { var next: [Deep] }
        var deep = Deep(next: [])
        for _ in 0..<20 { deep = Deep(next: [deep]) }
        var encoder = xmlEncoder()
        encoder.maxDepth = 10
        #expect(try encoder.streamedXML(deep) == nil)
        #expect(throws: EncodingError.self) { try encoder.encode(deep) }
    }

    /// The value's own error is thrown as it is, once, without a second encode.
    @Test func theValuesOwnErrorEndsTheEncode() throws {
        struct Refused: Error {}
        let counter = Counter()
        let value = Custom { encoder in
            counter.count += 1
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(1, forKey: "a")
            throw Refused()
        }
        #expect(throws: Refused.self) { try xmlEncoder().encode(value) }
        #expect(counter.count == 1)
    }

    /// Sorted keys: each dictionary's entries, written as encoded, are put in the order of their keys'
    /// UTF-8 bytes when it closes (nested ones first), as the table sorts them.
    @Test func sortedKeysMatchTheTableRoute() throws {
        var encoder = xmlEncoder()
        encoder.sortsKeys = true
        let value = ["b": [3: "x", 10: "y", -2: "z"], "a": [:], "é": [1: "w"], "Z": [:], "😀": [:], "\u{FF61}": [:]]
        let streamed = try encoder.streamedXML(value)
        #expect(streamed == (try tableXML(value, encoder).get()))
        // The keys in UTF-8 order in the text: "Z" < "a" < "b" < "é" < U+FF61 < "😀" (UTF-16 would put
        // "😀" before U+FF61); "-2" < "10" < "3".
        let text = String(decoding: streamed ?? Data(), as: UTF8.self)
        let keys = text.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.range(of: "<key>"), let close = line.range(of: "</key>") else { return nil }
            return String(line[open.upperBound..<close.lowerBound])
        }
        #expect(keys == ["Z", "a", "b", "-2", "10", "3", "é", "1", "\u{FF61}", "😀"])
    }

    /// Envelopes wrap the streamed text.
    @Test func compressedOutputWrapsTheStream() throws {
        var encoder = xmlEncoder()
        encoder.compression = .zlib
        let wrapped = try encoder.encode(Leaf())
        #expect(try Zlib.inflate(wrapped, limit: 1 << 20) == tableXML(Leaf(), xmlEncoder()).get())
    }
}

private final class Counter {
    var count = 0
}
