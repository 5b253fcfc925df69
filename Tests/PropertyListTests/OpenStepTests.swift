// Tests/PropertyListTests/OpenStepTests.swift - OpenStep (old-style) text property lists and .strings
// files: reading (checked against Foundation's own parser), writing, round trips, errors.
//
// The corpus holds no project.pbxproj or .strings file, so the inputs are generated here in the
// shapes Xcode and genstrings write.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// Foundation's reading of a property list, as a PlistValue (strings, data, arrays, dictionaries).
private func foundationValue(_ data: Data) throws -> PlistValue {
    func convert(_ any: Any) -> PlistValue {
        switch any {
        case let s as String: return .string(s)
        case let d as Data: return .data(d)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]: return .dictionary(PlistDictionary(d.map { (.string($0.key), convert($0.value)) }))
        default: return .null
        }
    }
    return convert(try PropertyListSerialization.propertyList(from: data, format: nil))
}

/// A small project file in the shape Xcode writes (the first line is Xcode's encoding comment).
let pbxproj = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 56;
    \tobjects = {

    /* Begin PBXBuildFile section */
    \t\t8D1107320486CEB800E47090 /* main.m in Sources */ = {isa = PBXBuildFile; fileRef = 29B97316FDCFA39411CA2CEA /* main.m */; };
    /* End PBXBuildFile section */

    /* Begin PBXFileReference section */
    \t\t29B97316FDCFA39411CA2CEA /* main.m */ = {isa = PBXFileReference; fileEncoding = 4; lastKnownFileType = sourcecode.c.objc; path = main.m; sourceTree = "<group>"; };
    \t\tA1 = {isa = PBXFileReference; name = "My App.app"; path = "$(BUILT_PRODUCTS_DIR)/My App.app"; sourceTree = BUILT_PRODUCTS_DIR; };
    /* End PBXFileReference section */
    \t\tB2 = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tOTHER_LDFLAGS = (
    \t\t\t\t\t"-ObjC",
    \t\t\t\t\t"-framework",
    \t\t\t\t\tFoundation,
    \t\t\t\t);
    \t\t\t\tPRODUCT_NAME = "\\"quoted\\" name\\n";
    \t\t\t\tINFOPLIST_KEY_NSHumanReadableCopyright = "© 2024 Ünïcode \\U2603 \\UD83D\\UDE00";
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t};
    \trootObject = 29B97316FDCFA39411CA2CEA /* Project object */;
    }

    """

let stringsFile = """
    /* Title of the window */
    "WINDOW_TITLE" = "Réglages";

    // A line comment
    "GREETING %@" = "Bonjour, %@ !\\n\\t\\"tab\\"";
    unquoted_key = 'single quoted';
    "SAME";
    "OCTAL" = "a\\101\\012b";

    """

@Suite struct OpenStepReaderTests {
    @Test func readsAProjectFileAsFoundationDoes() throws {
        let ours = try OpenStepPlist.decode(Data(pbxproj.utf8))
        #expect(ours == (try foundationValue(Data(pbxproj.utf8))))
        #expect(ours["objectVersion"] == "56")
        let settings = ours["objects"]?["B2"]?["buildSettings"]
        #expect(settings?["OTHER_LDFLAGS"] == ["-ObjC", "-framework", "Foundation"])
        #expect(settings?["PRODUCT_NAME"] == "\"quoted\" name\n")
        #expect(settings?["INFOPLIST_KEY_NSHumanReadableCopyright"] == "© 2024 Ünïcode ☃ 😀")
        #expect(try PlistValue.decode(from: Data(pbxproj.utf8)).pair == (ours, .openStep))
    }

    @Test func readsAStringsFileInEveryEncoding() throws {
        let expected: PlistValue = [
            "WINDOW_TITLE": "Réglages", "GREETING %@": "Bonjour, %@ !\n\t\"tab\"", "unquoted_key": "single quoted",
            "SAME": "SAME", "OCTAL": "aA\nb",
        ]
        let encodings: [(String, Data)] = [
            ("UTF-8", Data(stringsFile.utf8)),
            ("UTF-16 with BOM", stringsFile.data(using: .utf16) ?? Data()),
            ("UTF-16LE", stringsFile.data(using: .utf16LittleEndian) ?? Data()),
            ("UTF-16BE", stringsFile.data(using: .utf16BigEndian) ?? Data()),
        ]
        for (what, data) in encodings {
            #expect(try OpenStepPlist.decode(data) == expected, "\(what)")
        }
        // CoreFoundation reads the first two (without a BOM it skips two bytes all the same, so it
        // loses the first character of BOM-less UTF-16; we read it whole).
        for (what, data) in encodings.prefix(2) {
            #expect(try foundationValue(data) == expected, "\(what)")
        }
    }

    @Test func scalarsAndShapes() throws {
        let cases: [(String, PlistValue)] = [
            ("", [:]),
            ("  // only a comment\n", [:]),
            ("{}", [:]),
            ("()", []),
            ("(a, b,)", ["a", "b"]),
            ("<>", .data(Data())),
            ("<0fA1 23\n bc>", .data(Data([0x0F, 0xA1, 0x23, 0xBC]))),
            ("\"\"", ""),
            ("abc", "abc"),
            ("{ a = (1, <00>, {}); }", ["a": ["1", .data(Data([0])), [:]]]),
            ("{ a = 1; a = 2; }", ["a": "2"]),
            ("\"\\U00e9\\u\\q\\\\\"", "éuq\\"),
            ("\"\\0\\07\\1234\"", "\u{0}\u{7}S4"),
            ("/* a */ ( /* b */ x /* c */ , // d\n y )", ["x", "y"]),
        ]
        for (text, expected) in cases {
            #expect(try OpenStepPlist.decode(Data(text.utf8)) == expected, "\(text)")
            // Foundation refuses empty data outright (an empty file is an empty dictionary to its parser).
            if !text.isEmpty {
                #expect(try foundationValue(Data(text.utf8)) == expected, "Foundation: \(text)")
            }
        }
    }

    static let malformed: [(String, String)] = [
        ("{ a = b }", "line 1, column 9:"),
        ("{ a = b;", "line 1, column 9:"),
        ("(a b)", "line 1, column 4:"),
        ("(a,\n  ;)", "line 2, column 3:"),
        ("<0f1>", "line 1, column 5:"),
        ("<0g>", "line 1, column 3:"),
        ("\"abc", "line 1, column 1:"),
        ("/* open", "line 1, column 1:"),
        ("{ a = b; } junk", "line 1, column 12:"),
        ("\"k\" = \"v\"; }", "line 1, column 12:"),
        ("\"\\UD800x\"", "line 1, column 2:"),
        ("\"\\UDC00\"", "line 1, column 2:"),
        ("\"\\200\"", "line 1, column 2:"),
        ("{ = b; }", "line 1, column 3:"),
        ("{ a b; }", "line 1, column 5:"),
    ]

    @Test(arguments: 0..<malformed.count)
    func errorsHaveLineAndColumn(_ index: Int) {
        let (text, prefix) = Self.malformed[index]
        do {
            let v = try OpenStepPlist.decode(Data(text.utf8))
            Issue.record("\(text) read as \(v)")
        } catch {
            #expect(error.code == .syntax, "\(error)")
            #expect(error.offset != nil)
            #expect(error.detail.hasPrefix(prefix), "\(text): \(error.detail)")
        }
    }

    @Test func limits() {
        let deep = String(repeating: "(", count: 600) + String(repeating: ")", count: 600)
        #expect(throws: PlistError.self) { try OpenStepPlist.decode(Data(deep.utf8)) }
        var limits = PlistLimits.default
        limits.maxValues = 3
        #expect(throws: PlistError.self) { try OpenStepPlist.decode(Data("(a, b, c)".utf8), limits: limits) }
    }
}

@Suite struct OpenStepWriterTests {
    @Test func projectFileAndStringsFileRoundTrip() throws {
        for text in [pbxproj, stringsFile] {
            let value = try OpenStepPlist.decode(Data(text.utf8))
            let written = try OpenStepPlist.encode(value)
            #expect(try OpenStepPlist.decode(written) == value)
            #expect(try foundationValue(written) == value)
        }
    }

    @Test func layoutAndQuoting() throws {
        let value: PlistValue = [
            "plain": "a.b/c:d-e_f$", "comment-like": "//x", "spaced": "a b", "empty": "",
            "escapes": "q\"b\\n\nt\tc\u{1}d7",
            "data": .data(Data([0, 1, 2, 3, 0xAB])), "list": ["x", []], "dict": [:],
        ]
        let text = String(decoding: try OpenStepPlist.encode(value), as: UTF8.self)
        #expect(
            text == """
                {
                \tplain = a.b/c:d-e_f$;
                \tcomment-like = "//x";
                \tspaced = "a b";
                \tempty = "";
                \tescapes = "q\\"b\\\\n\\nt\\tc\\001d7";
                \tdata = <00010203 ab>;
                \tlist = (
                \t\tx,
                \t\t()
                \t);
                \tdict = {};
                }

                """)
        #expect(try OpenStepPlist.decode(Data(text.utf8)) == value)
    }

    @Test func randomValuesRoundTrip() throws {
        let seed = propertySeed()
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("ab zé\"\\\n\t\u{1}\u{7F}/$😀=;{}()<>,'")
        func string() -> String {
            String((0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
        }
        func value(_ depth: Int) -> PlistValue {
            switch Int.random(in: 0..<(depth > 3 ? 2 : 4), using: &rng) {
            case 0: return .string(string())
            case 1:
                return .data(
                    Data((0..<Int.random(in: 0...9, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
            case 2: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth + 1) })
            default:
                return .dictionary(
                    PlistDictionary(
                        (0..<Int.random(in: 0...4, using: &rng)).map { _ in (.string(string()), value(depth + 1)) }))
            }
        }
        for _ in 0..<300 {
            let v = value(0)
            let written = try OpenStepPlist.encode(v)
            #expect(try OpenStepPlist.decode(written) == v, "seed \(seed): \(v)")
        }
    }

    @Test func valuesWithoutAnOpenStepFormAreErrorsNamingThem() {
        let cases: [(PlistValue, String)] = [
            (["a": ["b", 1]], "the value at a.1 (integer) has no OpenStep form"),
            (.bool(true), "the root (bool) has no OpenStep form"),
            (["d": .date(Date(timeIntervalSinceReferenceDate: 0))], "the value at d (date) has no OpenStep form"),
            ([.dictionary(PlistDictionary([(.integer(1), "x")]))], "the value at 0 has a key of kind integer"),
        ]
        for (value, prefix) in cases {
            do {
                _ = try OpenStepPlist.encode(value)
                Issue.record("wrote \(value)")
            } catch {
                #expect(error.code == .unencodable)
                #expect(error.detail.hasPrefix(prefix), "\(error.detail)")
            }
        }
    }
}

@Suite struct OpenStepCorpusTests {
    /// Every corpus file whose value OpenStep text can hold (strings, data, arrays, dictionaries)
    /// round-trips through it; among them the expected values of swift-foundation's old-style
    /// octal and Unicode escape tests, which hold every control character.
    @Test(.enabled(if: Corpus.isPresent, "corpus not found at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"))
    func representableCorpusFilesRoundTrip() throws {
        var roundTripped: [String] = []
        for file in Corpus.validBinary {
            let value = try BinaryPlistDocument(file.bytes()).value()
            guard let text = try? OpenStepPlist.encode(value) else { continue }
            #expect(try OpenStepPlist.decode(text) == value, "\(file)")
            #expect(try PlistValue.decode(from: text).pair == (value, .openStep), "\(file)")
            roundTripped.append(file.name)
        }
        #expect(roundTripped.contains("swift-foundation-oldStylePlist-octal-expected.bplist"), "\(roundTripped)")
        #expect(roundTripped.contains("swift-foundation-oldStylePlist-unicode-expected.bplist"), "\(roundTripped)")
        #expect(roundTripped.count >= 10, "\(roundTripped)")
    }
}
