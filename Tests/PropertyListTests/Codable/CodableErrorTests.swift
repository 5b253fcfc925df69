// Tests/PropertyListTests/Codable/CodableErrorTests.swift - Errors users can act on: each failure its own
// DecodingError case, with the full coding path and, underneath, the byte offset and object index;
// encoding errors keep their coding path too.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct CodableErrorTests {
    struct Note: Codable, Equatable { var text: String }
    struct Small: Codable { var value: UInt8 }
    struct Whole: Codable { var value: Int }
    struct Record: Codable {
        var name: String
        var sizes: [Int]
    }
    struct Library: Codable { var records: [Record] }

    func binary(_ value: PlistValue) throws -> Data { try BinaryPlistWriter().write(value) }

    /// The coding path as `(stringValue, intValue)` pairs, for comparison.
    func path(_ keys: [any CodingKey]) -> [String] {
        keys.map { k in k.intValue.map { "[\($0)]" } ?? k.stringValue }
    }

    @Test func wrongTypeIsTypeMismatch() throws {
        let data = try binary(
            .dict(["records": .array([.dict(["name": "a", "sizes": .array([])]), .dict(["name": .int(5)])])]))
        do {
            _ = try PlistDecoder().decode(Library.self, from: data)
            Issue.record("decoded a number as a string")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(path(context.codingPath) == ["records", "[1]", "name"])
            let underlying = try #require(context.underlyingError as? PlistError)
            #expect(underlying.code == .typeMismatch)
            let offset = try #require(underlying.offset)
            let object = try #require(underlying.object)
            // The object named is the integer 5, at the offset named.
            let doc = try BinaryPlistDocument(data)
            #expect(try doc.object(ObjectRef(object)) == .integer(5))
            #expect(data[data.startIndex + offset] == 0x10)
        }
    }

    @Test func missingKeyIsKeyNotFound() throws {
        let data = try binary(.dict(["records": .array([.dict(["name": "a"])])]))
        do {
            _ = try PlistDecoder().decode(Library.self, from: data)
            Issue.record("decoded without a key")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "sizes")
            #expect(path(context.codingPath) == ["records", "[0]"])
            let underlying = try #require(context.underlyingError as? PlistError)
            #expect(underlying.code == .keyNotFound)
            #expect(underlying.offset != nil && underlying.object != nil)
        }
    }

    @Test func numberOutOfRangeIsDataCorrupted() throws {
        for (value, type) in [(PlistValue.int(300), "UInt8"), (.int(-1), "UInt8"), (.real(1.5), "Int")] {
            do {
                if type == "UInt8" {
                    _ = try PlistDecoder().decode(Small.self, from: binary(.dict(["value": value])))
                } else {
                    _ = try PlistDecoder().decode(Whole.self, from: binary(.dict(["value": value])))
                }
                Issue.record("\(value) decoded as \(type)")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(path(context.codingPath) == ["value"])
                let underlying = try #require(context.underlyingError as? PlistError)
                #expect(underlying.code == .numberOutOfRange)
                #expect(underlying.detail.contains(type))
            }
        }
        // In range, the same shapes decode: 255, 0 and an integral real (as Foundation's decoder does).
        #expect(try PlistDecoder().decode(Small.self, from: binary(.dict(["value": .int(255)]))).value == 255)
        #expect(try PlistDecoder().decode(Whole.self, from: binary(.dict(["value": .real(2.0)]))).value == 2)
    }

    @Test func nullForAValueIsValueNotFound() throws {
        for null in [PlistValue.null, "$null"] {
            do {
                _ = try PlistDecoder().decode(Whole.self, from: binary(.dict(["value": null])))
                Issue.record("decoded null as Int")
            } catch DecodingError.valueNotFound(let type, let context) {
                #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
                #expect(path(context.codingPath) == ["value"])
            }
        }
        // Past the end of an array.
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                _ = try c.decode(Int.self)
                _ = try c.decode(Int.self)
            }
        }
        do {
            _ = try PlistDecoder().decode(Pair.self, from: binary(.array([.int(1)])))
            Issue.record("decoded past the end")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(path(context.codingPath) == ["[1]"])
        }
    }

    @Test func containerOfTheWrongKind() throws {
        do {
            _ = try PlistDecoder().decode([Int].self, from: binary(.dict(["a": .int(1)])))
            Issue.record("decoded a dictionary as an array")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect((context.underlyingError as? PlistError)?.code == .typeMismatch)
        }
        do {
            _ = try PlistDecoder().decode(Note.self, from: binary(.array([])))
            Issue.record("decoded an array as a keyed value")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.isEmpty)
        }
    }

    /// Errors from a tree (or a text form) have coding paths but no byte offsets.
    @Test func treeErrorsHaveNoOffsets() throws {
        do {
            _ = try PlistDecoder().decode(
                Library.self, from: PlistValue.dict(["records": .array([.dict(["name": .int(1)])])]))
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(path(context.codingPath) == ["records", "[0]", "name"])
            let underlying = try #require(context.underlyingError as? PlistError)
            #expect(underlying.offset == nil && underlying.object == nil)
        }
    }

    /// The key path of `decode(_:from:at:)` starts the coding path, and a missing component is named.
    @Test func keyPathsInErrors() throws {
        let doc = try BinaryPlistDocument(binary(.dict(["items": .array([.dict(["text": .int(1)])])])))
        do {
            _ = try PlistDecoder().decode(Note.self, from: doc, at: "items.0")
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(path(context.codingPath) == ["items", "[0]", "text"])
        }
        do {
            _ = try PlistDecoder().decode(Note.self, from: doc, at: "items.5")
            Issue.record("decoded")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(path(context.codingPath) == ["items", "[5]"])
        }
        do {
            _ = try PlistDecoder().decode(Note.self, from: doc, at: "things.0")
            Issue.record("decoded")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(path(context.codingPath) == ["things"])
        }
    }

    /// Errors inside a super decoder and a nested container carry their whole path.
    @Test func pathsThroughNestedContainersAndSuper() throws {
        let tree = PlistValue.array([.dict(["breed": "Collie", "super": .dict(["name": .int(3)])])])
        do {
            _ = try PlistDecoder().decode([Dog].self, from: tree)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(path(context.codingPath) == ["[0]", "super", "name"])
        }
        let matrix = PlistValue.dict([
            "name": "m", "rows": .array([.array([.real(1)]), .array([.real(2), "x"])]), "meta": .dict([:]),
        ])
        do {
            _ = try PlistDecoder().decode(Matrix.self, from: matrix)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(path(context.codingPath) == ["rows", "[1]", "[1]"])
        }
    }

    /// Encoding errors keep the coding path of the value (Foundation's encoder loses it).
    @Test func encodingErrorsKeepTheirPath() throws {
        struct Big: Encodable { var values: [String: [UInt128]] }
        do {
            _ = try PlistEncoder().encode(Big(values: ["a": [1, .max]]))
            Issue.record("encoded a UInt128 above Int128.max")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(path(context.codingPath) == ["values", "a", "[1]"])
        }
        // A cycle of class instances ends at the depth limit instead of the stack.
        final class Link: Encodable {
            var next: Link?
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: PlistCodingKeyForTests.self)
                try c.encode(next, forKey: .init("next"))
            }
        }
        let link = Link()
        link.next = link
        defer { link.next = nil }
        do {
            _ = try PlistEncoder().encode(link)
            Issue.record("encoded a cycle")
        } catch EncodingError.invalidValue(_, let context) {
            // Each link is two levels (the Optional and the Link): 256 links reach the limit of 512.
            #expect(context.codingPath.count >= 250)
            #expect((context.underlyingError as? PlistError)?.code == .limitExceeded)
        }
    }

    /// A container used after its value was finished is an error, not a write into another value.
    @Test func staleContainersAreErrors() throws {
        final class Keeper {
            var kept: KeyedEncodingContainer<PlistCodingKeyForTests>?
        }
        struct Leaky: Encodable {
            let keeper: Keeper
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: PlistCodingKeyForTests.self)
                try c.encode(1, forKey: .init("a"))
                keeper.kept = c
            }
        }
        struct Outer: Encodable {
            let keeper: Keeper
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: PlistCodingKeyForTests.self)
                try c.encode(Leaky(keeper: keeper), forKey: .init("leaky"))
                try keeper.kept?.encode(2, forKey: .init("late"))
            }
        }
        #expect(throws: EncodingError.self) { try PlistEncoder().encode(Outer(keeper: Keeper())) }
    }
}
