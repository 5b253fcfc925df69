// Tests/PropertyListTests/FormsAndEntryPointsTests.swift - The one call that reads any form
// (`PlistValue.decode(from:)`), the one that writes any form (`encoded(as:compression:options:)`),
// typed JSON's lossless rules, and key paths written with interpolation.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

@Suite struct FormsAndEntryPointsTests {
    static let seeds = Gen.int(in: 0...Int.max)

    // MARK: Typed JSON

    @Test(
        "typed JSON: every generated value reads back bit for bit (128-bit integers, UIDs, NaN payloads, dates, sets, non-string keys)"
    )
    func typedJSONRoundTrips() async {
        await propertyCheck(count: 300, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let json = try v.encoded(as: .json)
                let back = try PlistValue.decode(from: json, as: .json)
                #expect(back.value == v, "seed \(seed): \(firstDifference(v, back.value) ?? "")")
                #expect(back.format == .json)
                // Keys keep their order unless asked otherwise.
                let sorted = try v.encoded(as: .json, options: PlistWriteOptions(sortsKeys: true))
                #expect(try PlistValue.decode(from: sorted, as: .json).value == v, "seed \(seed), sorted")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test("typed JSON keeps what canonical JSON rounds: sub-microsecond dates, NaN payloads")
    func typedJSONIsLossless() throws {
        let date = Date(timeIntervalSinceReferenceDate: 5e-07)
        #expect(
            String(decoding: try PlistValue.date(date).encoded(as: .json), as: UTF8.self)
                == "{\n \"$date\": \"5e-07\"\n}\n")
        // Canonical JSON (the corpus oracles, `bplist to-json`) rounds it as plistlib does.
        #expect(try PlistValue.date(date).canonicalJSON() == "{\n \"$date\": \"2001-01-01T00:00:00Z\"\n}\n")
        // A date whole microseconds hold is written as ISO-8601 in both.
        let exact = Date(timeIntervalSinceReferenceDate: 1.5)
        #expect(
            String(decoding: try PlistValue.date(exact).encoded(as: .json), as: UTF8.self)
                == "{\n \"$date\": \"2001-01-01T00:00:01.500000Z\"\n}\n")

        let payload = Double(bitPattern: 0xFFF8_0000_0000_0001)
        let nanText = String(decoding: try PlistValue.real(payload).encoded(as: .json), as: UTF8.self)
        #expect(nanText == "{\n \"$real\": \"nan:0xfff8000000000001\"\n}\n")
        let nanBack = try PlistValue.decode(from: Data(nanText.utf8)).value
        guard case .real(let x) = nanBack else {
            Issue.record("not a real: \(nanBack)")
            return
        }
        #expect(x.bitPattern == 0xFFF8_0000_0000_0001)
        #expect(
            String(decoding: try PlistValue.real(.nan).encoded(as: .json), as: UTF8.self)
                == "{\n \"$real\": \"nan\"\n}\n")
    }

    @Test("plain JSON reads as its natural values; a syntax error says it is JSON, with line and column")
    func plainJSON() throws {
        let read = try PlistValue.decode(
            from: Data(#"{"name": "Ada", "age": 36, "score": 0.5, "tags": [true, null]}"#.utf8))
        #expect(read.format == .json)
        #expect(read.value == ["name": "Ada", "age": 36, "score": 0.5, "tags": [true, .null]])
        let e = #expect(throws: PlistError.self) { try PlistValue.decode(from: Data("{\"a\": [1,\n 2,,]}".utf8)) }
        #expect(e?.code == .syntax)
        #expect(e?.detail.hasPrefix("line 2, column 4:") == true, "\(e?.detail ?? "")")
    }

    // MARK: One call to read, one to write

    @Test(
        "every form and envelope: decode(from:) tells which it was, and encoded(_:) writes the value back the same way")
    func everyFormAndEnvelope() throws {
        // Strings, data, arrays and dictionaries only: what OpenStep holds too.
        let value: PlistValue = ["name": "Ada", "list": ["a", "b"], "blob": .data(Data([0, 1, 0xFF]))]
        for format in PlistFormat.allCases {
            for compression in PlistCompression.allCases {
                let bytes = try value.encoded(as: format, compression: compression)
                let read = try PlistValue.decode(from: bytes)
                #expect(read.format == format, "\(format) \(compression)")
                #expect(read.compression == compression, "\(format) \(compression)")
                #expect(read.value == value, "\(format) \(compression)")
                #expect(try read.encoded(read.value) == bytes, "\(format) \(compression): not written back the same")
                // Given the form, that form is read.
                #expect(try PlistValue.decode(from: bytes, as: format).value == value)
            }
        }
    }

    @Test("the layout of the input is kept: compact widths, a .strings file")
    func layoutIsKept() throws {
        let many = PlistValue.array((0..<70_000).map { .int($0) })
        let compact = try many.encoded(options: PlistWriteOptions(widths: .compact))
        let read = try PlistValue.decode(from: compact)
        #expect(read.writeOptions.widths == .compact)
        #expect(try read.encoded(read.value) == compact)

        let strings = Data("\"greeting\" = \"Hello\";\n\"farewell\" = \"Bye\";\n".utf8)
        let loaded = try PlistValue.decode(from: strings)
        #expect(loaded.format == .openStep)
        #expect(loaded.writeOptions.stringsFile)
        let text = String(decoding: try loaded.encoded(loaded.value), as: UTF8.self)
        #expect(!text.hasPrefix("{"), "\(text)")
        #expect(try PlistValue.decode(from: Data(text.utf8)).value == loaded.value)
    }

    @Test("asking for one form reads that form only: the error is that form's")
    func explicitFormIsRequired() throws {
        let xml = try (["a": 1] as PlistValue).encoded(as: .xml)
        let binary = #expect(throws: PlistError.self) { try PlistValue.decode(from: xml, as: .binary) }
        #expect(binary?.code == .notABinaryPlist)
        let json = #expect(throws: PlistError.self) { try PlistValue.decode(from: xml, as: .json) }
        #expect(json?.code == .syntax)
        let none = #expect(throws: PlistError.self) { try PlistValue.decode(from: Data("%%%".utf8)) }
        #expect(none?.code == .notAPropertyList)
        #expect(none?.detail.hasPrefix("not a property list: starts with 25 25 25") == true, "\(none?.detail ?? "")")
    }

    @Test("sortsKeys orders every form's dictionaries; without it the value's order is kept")
    func sortedKeys() throws {
        let inner: PlistValue = .dictionary(PlistDictionary([(.string("d"), .int(1)), (.string("c"), .int(2))]))
        let value: PlistValue = .dictionary(PlistDictionary([(.string("b"), .int(1)), (.string("a"), inner)]))
        for format: PlistFormat in [.binary, .xml, .json] {
            let sorted = try PlistValue.decode(from: value.encoded(as: format, options: .init(sortsKeys: true))).value
            #expect(sorted.dictionaryValue?.keys == ["a", "b"], "\(format)")
            #expect(sorted["a"]?.dictionaryValue?.keys == ["c", "d"], "\(format)")
            let kept = try PlistValue.decode(from: value.encoded(as: format)).value
            #expect(kept.dictionaryValue?.keys == ["b", "a"], "\(format)")
        }
        let text: PlistValue = .dictionary(PlistDictionary([("b", .string("1")), ("a", .string("2"))]))
        let openStep = String(decoding: try text.encoded(as: .openStep, options: .init(sortsKeys: true)), as: UTF8.self)
        #expect(openStep == "{\n\ta = 2;\n\tb = 1;\n}\n")
    }

    @Test("a compressed envelope is inflated within maxDecompressedBytes, around any form")
    func envelopeLimit() throws {
        let big = PlistValue.string(PlistString(String(repeating: "x", count: 100_000)))
        let packed = try big.encoded(as: .xml, compression: .gzip)
        #expect(try PlistValue.decode(from: packed).value == big)
        var limits = PlistLimits()
        limits.maxDecompressedBytes = 1000
        let e = #expect(throws: PlistError.self) { try PlistValue.decode(from: packed, limits: limits) }
        #expect(e?.code == .limitExceeded)
        // Not inflated when told not to: then it is no form at all.
        let off = #expect(throws: PlistError.self) {
            try PlistValue.decode(from: packed, options: PlistReadOptions(allowsCompression: false))
        }
        #expect(off?.code == .notABinaryPlist)
    }

    @Test("text that starts like a zlib header (`x `, `80`) is read as the text it is")
    func textThatLooksCompressed() throws {
        // (0x78 << 8 | 0x20) and (0x38 << 8 | 0x30) are multiples of 31: valid zlib headers.
        let strings = try PlistValue.decode(from: Data("x = 1;\ny = 2;\n".utf8))
        #expect(strings.format == .openStep)
        #expect(strings.compression == .none)
        #expect(strings.value == ["x": "1", "y": "2"])
        let number = try PlistValue.decode(from: Data("8000".utf8), as: .json)
        #expect(number.value == 8000)
        #expect(try PlistValue.decode(from: Data("80".utf8)).value == "80")
        // A real stream cut short is a compression error; five bytes that neither inflate nor read as
        // text are no property list.
        let big = PlistValue.array((0..<2000).map { .string(PlistString("item \($0) \($0 * 7919 % 10007)")) })
        let packed = try big.encoded(compression: .zlib)
        #expect(packed.count > 2048)
        let cut = #expect(throws: PlistError.self) { try PlistValue.decode(from: packed.prefix(2048)) }
        #expect(cut?.code == .compression)
        let garbage = #expect(throws: PlistError.self) {
            try PlistValue.decode(from: Data([0x78, 0x9C, 0xFF, 0x00, 0x01]))
        }
        #expect(garbage?.code == .notAPropertyList)
    }

    // MARK: What CoreFoundation reads and refuses

    @Test(
        "a whole text that is one unquoted word is an OpenStep string, as CoreFoundation reads it; two words are no property list"
    )
    func bareOpenStepStrings() throws {
        // A UTF-8 byte-order mark, then `bplist00`: not binary (the magic is not at byte 0), a string.
        let bom = try PlistValue.decode(from: Data([0xEF, 0xBB, 0xBF] + Array("bplist00".utf8)))
        #expect(bom.format == .openStep)
        #expect(bom.value == "bplist00")
        #expect(try PlistValue.decode(from: Data("hello\n".utf8)).value == "hello")
        let two = #expect(throws: PlistError.self) { try PlistValue.decode(from: Data("hello world".utf8)) }
        #expect(two?.code == .notAPropertyList)
    }

    @Test(
        "a word starting with a slash, a .strings entry `key;`, and text after a vertical tab or form feed sniff as OpenStep, as CoreFoundation reads them (found by FuzzDifferential)"
    )
    func slashWordsAndKeyShorthandSniffAsOpenStep() throws {
        // `/pl` was notAPropertyList: the sniffer took `/` for the start of a comment only.
        let path = try PlistValue.decode(from: Data("/pl".utf8))
        #expect(path.format == .openStep)
        #expect(path.value == "/pl")
        // `lt;` (a key without a value: the key is its own value) was notAPropertyList too.
        let strings = try PlistValue.decode(from: Data("lt;\nk = v;".utf8))
        #expect(strings.format == .openStep)
        #expect(strings.value == ["lt": "lt", "k": "v"])
        // Vertical tab and form feed are whitespace to the OpenStep reader (and CoreFoundation), so
        // to the sniffer too: ` 01\v` was notAPropertyList.
        let spaced = try PlistValue.decode(from: Data(" 01\u{0B}".utf8))
        #expect(spaced.format == .openStep)
        #expect(spaced.value == "01")
        #expect(try PlistValue.decode(from: Data("\u{0C}a = b;".utf8)).value == ["a": "b"])
        // Comments still sniff as OpenStep, and two bare words are still no property list.
        #expect(try PlistValue.decode(from: Data("// c\na = b;".utf8)).value == ["a": "b"])
        let two = #expect(throws: PlistError.self) { try PlistValue.decode(from: Data("/a /b".utf8)) }
        #expect(two?.code == .notAPropertyList)
    }

    @Test(
        "a fill byte (0x0F) where a value belongs is corrupted, read whole or in place (CoreFoundation refuses the file)"
    )
    func fillByteIsNoValue() throws {
        // bplist00, the object 0F at offset 8, the offset table (one 1-byte entry: 8), the trailer.
        var bytes = Array("bplist00".utf8) + [0x0F, 0x08]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 9]
        let document = try BinaryPlistDocument(Data(bytes))
        let whole = #expect(throws: PlistError.self) { try document.value() }
        #expect(whole?.code == .corrupted)
        #expect(whole?.offset == 8)
        let tree = DocumentTree(document)
        var out = TextSink.collecting()
        let inPlace = #expect(throws: PlistError.self) {
            try BinaryPlistDocument.writeCanonicalJSON(
                tree, from: tree.root, style: .canonical, budget: .default, into: &out)
        }
        #expect(inPlace?.code == .corrupted)
        #expect(inPlace?.offset == 8)
    }

    // MARK: Descriptions

    @Test("a value prints as plutil -p shows it")
    func descriptions() {
        let value: PlistValue = [
            "name": "Ada", "n": 3, "list": [true, .data(Data([0, 1]))], "empty": [:],
            "when": .date(Date(timeIntervalSinceReferenceDate: 0)),
        ]
        #expect(
            value.description == """
                {
                  "name" => "Ada"
                  "n" => 3
                  "list" => [
                    0 => true
                    1 => {length = 2, bytes = 0x0001}
                  ]
                  "empty" => {}
                  "when" => 2001-01-01T00:00:00Z
                }
                """)
        #expect(PlistValue.string("Dee").description == "\"Dee\"")
        #expect("\(PlistValue.uid(7))" == "<CFKeyedArchiverUID>{value = 7}")
    }

    // MARK: Key paths

    @Test(
        "a key-path literal: plutil's form; interpolated values stay one component; run-time text is parsed explicitly")
    func keyPathLiterals() throws {
        let literal: PlistKeyPath = "a\\.b.c"
        #expect(literal.components.map(\.key) == ["a.b", "c"])
        let key = "x.y"
        let i = 12
        let interpolated: PlistKeyPath = "root.\(key).\(i)"
        #expect(interpolated.components.map(\.key) == ["root", "x.y", "12"])
        let escapedAround: PlistKeyPath = "a\\.\(key)\\.b"
        #expect(escapedAround.components.map(\.key) == ["a.x.y.b"])
        let empty: PlistKeyPath = ""
        #expect(empty.isEmpty)
        #expect(PlistKeyPath(parsing: ":a:b\\:c").components.map(\.key) == ["a", "b:c"])
        #expect(PlistKeyPath(parsing: "a.b").components.map(\.key) == ["a", "b"])
        #expect(PlistKeyPath(keys: ["a.b"]).description == "a\\.b")
    }
}
