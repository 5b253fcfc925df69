// Tests/PropertyListTests/Codable/CodableXMLTapeTests.swift - XML decoded straight from its bytes (the
// reader's tape, XMLTapeSink) against the same document read into a tree first and decoded from that
// (XMLTreeSink, then the tree flattened): the same values, and for failures the same `DecodingError`
// case, coding path and `PlistError` code and detail; malformed documents fail with the tree
// reader's error, offset for offset.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

/// Decodes `xml` as `T` straight from the bytes and through its tree, and records an issue naming
/// both outcomes when they differ. Returns the outcome, for the caller's own expectations.
@discardableResult
func expectTapeMatchesTree<T: Decodable>(
    _ type: T.Type, _ xml: Data, decoder: PlistDecoder = PlistDecoder(), _ note: String = "",
    same: (T, T) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) -> Decoded<T> {
    let viaTape = Decoded { try decoder.decode(T.self, from: xml) }
    let viaTree = Decoded { () throws -> T in
        let tree: PlistValue
        do throws(PlistError) {
            tree = try PlistValue.decode(from: xml, limits: decoder.limits, options: decoder.options).value
        } catch {
            // As `PlistDecoder` reports a reader's error: `dataCorrupted` at the root, the error beneath.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
        return try decoder.decode(T.self, from: tree)
    }
    let agree = viaTape.same(as: viaTree, by: same)
    #expect(agree, "\(note) tape: \(viaTape) tree: \(viaTree)", sourceLocation: sourceLocation)
    return viaTape
}

@discardableResult
func expectTapeMatchesTree<T: Decodable & Equatable>(
    _ type: T.Type, _ xml: Data, decoder: PlistDecoder = PlistDecoder(), _ note: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Decoded<T> {
    expectTapeMatchesTree(type, xml, decoder: decoder, note, same: ==, sourceLocation: sourceLocation)
}

/// The XML document of `value` (in Apple's layout).
func xmlDocument(_ value: PlistValue) throws -> Data { try value.encoded(as: .xml) }

/// `value` with the characters XML 1.0 cannot hold (C0 controls but tab, LF and CR; U+FFFE, U+FFFF)
/// taken out of its strings and keys, so that any generated value has an XML document.
func xmlHoldable(_ value: PlistValue) -> PlistValue {
    func text(_ s: PlistString) -> PlistString {
        let kept = s.string.unicodeScalars.filter { c in
            !(c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") && c.value != 0xFFFE && c.value != 0xFFFF
        }
        return PlistString(String(String.UnicodeScalarView(kept)))
    }
    switch value {
    case .string(let s): return .string(text(s))
    case .array(let a): return .array(a.map(xmlHoldable))
    case .set(let a): return .set(a.map(xmlHoldable))
    case .dictionary(let d):
        var out = PlistDictionary()
        for e in d.entries { out[xmlHoldable(e.key)] = xmlHoldable(e.value) }
        return .dictionary(out)
    default: return value
    }
}

/// An XML document with `body` as the root value.
func xmlDocument(body: String) -> Data {
    Data(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n" + body + "\n</plist>\n").utf8)
}

extension Decoded {
    var value: T? {
        if case .value(let v) = self { return v }
        return nil
    }
}

@Suite struct CodableXMLTapeTests {
    static let seeds = Gen.uint64()

    /// The Codable tests' models, written as XML by our encoder and by Foundation's.
    @Test func modelsDecodeTheSame() throws {
        var encoder = PlistEncoder()
        encoder.outputFormat = .xml
        let everything = try encoder.encode(makeEverything())
        #expect(expectTapeMatchesTree(Everything.self, everything).value == makeEverything())
        expectTapeMatchesTree(Probe.self, everything)
        let foundation = try foundationEncode(makeEverything(), .xml)
        #expect(expectTapeMatchesTree(Everything.self, foundation).value == makeEverything())
        for model in [Scalars.minimums, Scalars.maximums] {
            expectTapeMatchesTree(Scalars.self, try encoder.encode(model))
        }
    }

    /// Generated property lists (every kind XML holds: UIDs as `CF$UID` dictionaries, 128-bit integers,
    /// NaN, text needing entities) as `Probe`s, string-keyed dictionaries and arrays, and generated
    /// models with one leaf replaced (a failure somewhere inside): the same outcome, error for error.
    @Test func generatedDocumentsDecodeTheSame() async {
        await propertyCheck(count: 40, input: Self.seeds) { seed in
            do {
                var g = PlistGenerator(
                    seed: seed, profile: GenerationProfile(sets: false, null: false, nonStringKeys: false))
                let xml = try xmlDocument(xmlHoldable(g.value()))
                expectTapeMatchesTree(Probe.self, xml, "seed \(seed)")
                expectTapeMatchesTree([String: Probe].self, xml, "seed \(seed)")
                expectTapeMatchesTree([Int: [String]].self, xml, "seed \(seed)")
                expectTapeMatchesTree([Double].self, xml, "seed \(seed)") { a, b in
                    a.map(\.bitPattern) == b.map(\.bitPattern)
                }
                var models = ModelGenerator(rng: SplitMix64(seed: seed))
                let tree = xmlHoldable(try PlistEncoder().encodeValue(models.model(depth: 3)))
                expectTapeMatchesTree(GeneratedModel.self, try xmlDocument(tree), "seed \(seed)")
                for _ in 0..<4 {
                    let mutated = replacingOneLeaf(of: tree, with: xmlHoldable(g.scalar()), choosing: &g)
                    let document = try xmlDocument(mutated)
                    expectTapeMatchesTree(GeneratedModel.self, document, "seed \(seed)") { a, b in
                        (try? PlistEncoder().encodeValue(a)) == (try? PlistEncoder().encodeValue(b))
                    }
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// Text the reader decodes (entities, character references, CDATA sections, comments), in keys
    /// and in values; long, non-ASCII and empty strings; `<string/>`; the string `$null`.
    @Test func decodedTextReadsAsWritten() throws {
        struct Text: Decodable, Equatable {
            var plain: String
            var entities: String
            var cdata: String
            var long: String
            var accents: String
            var empty: String
            var nothing: String?
            var ampersand: String
            enum CodingKeys: String, CodingKey {
                case plain, entities, cdata, long, accents, empty, nothing, ampersand = "a&b"
            }
        }
        let long = String(repeating: "0123456789", count: 30)
        let xml = xmlDocument(
            body: """
                <dict>
                \t<key>plain</key><string>x</string>
                \t<key>entities</key><string>&lt;tag attr=&quot;1&quot;&gt; &amp; &#233;&#x1F600;</string>
                \t<key>c<!-- a comment -->data</key><string><![CDATA[<raw> & ]]>text</string>
                \t<key>long</key><string>\(long)</string>
                \t<key>accents</key><string>éàü — 日本語 — 🎉</string>
                \t<key>empty</key><string/>
                \t<key>nothing</key><string>$null</string>
                \t<key>a&amp;b</key><string>key with an entity</string>
                </dict>
                """)
        let read = try #require(expectTapeMatchesTree(Text.self, xml).value)
        #expect(read.entities == "<tag attr=\"1\"> & é😀")
        #expect(read.cdata == "<raw> & text")
        #expect(read.long == long)
        #expect(read.accents == "éàü — 日本語 — 🎉")
        #expect(read.empty == "")
        #expect(read.nothing == nil)
        #expect(read.ampersand == "key with an entity")
        // The same document transcoded to UTF-16 (its strings then come from the transcoding).
        let utf16 = try #require(String(data: xml, encoding: .utf8)?.data(using: .utf16))
        #expect(expectTapeMatchesTree(Text.self, utf16).value == read)
    }

    /// A repeated key keeps its first position and its last value, in keyed containers, in
    /// dictionaries and in `allKeys`, as the tree reader merges it.
    @Test func repeatedKeysKeepTheLastValue() throws {
        struct Pair: Decodable, Equatable {
            var a: Int
            var b: Int
        }
        let xml = xmlDocument(
            body: """
                <array>
                <dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer></dict>
                <dict><key>a</key><integer>4</integer><key>b</key><integer>5</integer></dict>
                <dict><key>a</key><integer>6</integer><key>b</key><integer>7</integer><key>b</key><integer>8</integer></dict>
                <dict><key>&#97;</key><integer>9</integer><key>b</key><integer>10</integer><key>a</key><integer>11</integer></dict>
                </array>
                """)
        #expect(
            expectTapeMatchesTree([Pair].self, xml).value == [
                Pair(a: 3, b: 2), Pair(a: 4, b: 5), Pair(a: 6, b: 8), Pair(a: 11, b: 10),
            ])
        #expect(expectTapeMatchesTree([[String: Int]].self, xml).value?.first == ["a": 3, "b": 2])
        expectTapeMatchesTree([Probe].self, xml)
    }

    /// `CF$UID` dictionaries are UIDs (one key, or the key repeated: its last value); with another key
    /// beside it, or a non-integer value, a dictionary; a negative or too large UID is the reader's
    /// error.
    @Test func uidDictionaries() throws {
        struct UIDs: Decodable, Equatable {
            var one: PlistUID
            var repeated: PlistUID
            var mixed: [String: Int]
            var text: [String: String]
        }
        let xml = xmlDocument(
            body: """
                <dict>
                <key>one</key><dict><key>CF$UID</key><integer>7</integer></dict>
                <key>repeated</key><dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>
                <key>mixed</key><dict><key>CF$UID</key><integer>1</integer><key>x</key><integer>2</integer></dict>
                <key>text</key><dict><key>CF$UID</key><string>1</string></dict>
                </dict>
                """)
        #expect(
            expectTapeMatchesTree(UIDs.self, xml).value
                == UIDs(one: PlistUID(7), repeated: PlistUID(2), mixed: ["CF$UID": 1, "x": 2], text: ["CF$UID": "1"]))
        for bad in ["-1", "99999999999999999999"] {
            let document = xmlDocument(body: "<dict><key>CF$UID</key><integer>\(bad)</integer></dict>")
            let outcome = expectTapeMatchesTree(PlistUID.self, document)
            #expect(outcome.value == nil)
        }
    }

    /// Every scalar form: hexadecimal, signed and 128-bit integers, special reals, dates with fractions,
    /// data with whitespace and without padding, empty containers.
    @Test func scalarForms() throws {
        let xml = xmlDocument(
            body: """
                <array>
                <integer>0x7F</integer><integer>-42</integer><integer>+17</integer>
                <integer>170141183460469231731687303715884105727</integer>
                <integer>-170141183460469231731687303715884105728</integer>
                <real>nan</real><real>-inf</real><real>1e308</real><real>-0.0</real><real> 2.5 </real>
                <true/><false/>
                <date>2001-01-01T00:00:00Z</date><date>1969-07-20T20:17:40.5Z</date>
                <data>
                AAEC
                AwQ=
                </data><data>AA</data><data/>
                <dict/><array/><dict></dict><array></array>
                </array>
                """)
        expectTapeMatchesTree(Probe.self, xml)
        expectTapeMatchesTree([Int128].self, xml)
        expectTapeMatchesTree([Data].self, xml)
        let decoded = expectTapeMatchesTree([Double].self, xml) { a, b in a.map(\.bitPattern) == b.map(\.bitPattern) }
        #expect(decoded.value == nil)  // a date is not a number
    }

    /// A malformed document fails with the tree reader's error: the same code, offset and detail,
    /// under `dataCorrupted`.
    @Test func malformedDocumentsFailAsTheReaderDoes() throws {
        let bodies = [
            "<dict><key>a</key></dict>",
            "<dict><key>a</key><integer>1</integer>",
            "<array><integer>1x</integer></array>",
            "<array><real>1..2</real></array>",
            "<array><date>2001-13-01T00:00:00Z</date></array>",
            "<array><data>A===</data></array>",
            "<array><string>&bogus;</string></array>",
            "<array><string>a</strin></array>",
            "<dict><string>a</string></dict>",
            "<array><key>a</key></array>",
            "<array><unknown/></array>",
        ]
        var documents = bodies.map { xmlDocument(body: $0) }
        documents.append(
            Data("<plist><array><string>".utf8) + Data([0xC3, 0x28]) + Data("</string></array></plist>".utf8))
        documents.append(Data("<plist><dict><key>".utf8) + Data([0xFF]) + Data("</key><true/></dict></plist>".utf8))
        for document in documents {
            let expected: PlistError
            do {
                _ = try PlistValue.decode(from: document)
                Issue.record("read: \(String(decoding: document, as: UTF8.self))")
                continue
            } catch {
                expected = error
            }
            do {
                _ = try PlistDecoder().decode(Probe.self, from: document)
                Issue.record("decoded: \(String(decoding: document, as: UTF8.self))")
            } catch DecodingError.dataCorrupted(let context) {
                let underlying = context.underlyingError as? PlistError
                #expect(underlying?.code == expected.code)
                #expect(underlying?.offset == expected.offset)
                #expect(underlying?.detail == expected.detail)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The decoder's limits hold on the tape: depth, values, and the value budget.
    @Test func limitsHold() throws {
        var shallow = PlistDecoder()
        shallow.limits.maxDepth = 10
        let deep = xmlDocument(body: String(repeating: "<array>", count: 20) + String(repeating: "</array>", count: 20))
        let outcome = expectTapeMatchesTree(Node.self, deep, decoder: shallow)
        #expect(outcome.value == nil)
        #expect(expectTapeMatchesTree(Node.self, deep).value != nil)

        var strict = PlistDecoder()
        strict.limits.maxValues = 10
        let wide = xmlDocument(body: "<array>" + String(repeating: "<integer>1</integer>", count: 50) + "</array>")
        #expect(expectTapeMatchesTree([Int].self, wide, decoder: strict).value == nil)
        #expect(expectTapeMatchesTree([Int].self, wide).value == Array(repeating: 1, count: 50))
    }

    /// A decoder kept past the top-level decode (a type that stores it) reads its strings again from the
    /// document (the lent input is gone; the tape holds the bytes).
    @Test func aKeptDecoderStillReads() throws {
        final class Keeper: Decodable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        let xml = xmlDocument(body: "<dict><key>name</key><string>a string longer than fifteen bytes</string></dict>")
        let keeper = try PlistDecoder().decode(Keeper.self, from: xml)
        struct Named: Decodable { var name: String }
        #expect(try Named(from: keeper.decoder).name == "a string longer than fifteen bytes")
    }
}
