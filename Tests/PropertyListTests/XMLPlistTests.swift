// Tests/PropertyListTests/XMLPlistTests.swift - XML property lists: corpus, round trips, Foundation
// both ways, exact layout, and malformed input (typed errors with offset, line and column).

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

// MARK: - Corpus location

/// The `.plist` files of a corpus folder (`Corpus`), by path relative to the corpus root.
private func xmlCorpusFiles(_ folder: String) -> [String] {
    Corpus.files(folder, suffix: ".plist").map(\.relativePath)
}

private func corpusURL(_ relativePath: String) -> URL { Corpus.root.appendingPathComponent(relativePath) }

// MARK: - Random values (seeded)

/// Random values the XML form can hold exactly: no null, string keys only, whole-second dates,
/// the one canonical NaN, no sets (they become arrays), and no `CF$UID` key.
private struct XMLValueGenerator {
    var rng: SplitMix64
    /// Restrict to what Foundation's `PropertyListSerialization` represents: no UIDs, integers in
    /// `Int64`, NaN-free, dates in 1900...2100, no CR or control characters, and no -0.0 (its XML
    /// writer prints -0.0 as `0.0`).
    var foundation = false

    init(seed: UInt64, foundation: Bool = false) {
        rng = SplitMix64(seed: seed)
        self.foundation = foundation
    }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }

    mutating func string() -> String {
        var pieces = ["a", "Z", "0", " ", "&", "<", ">", "\"", "'", "]]>", "é", "日本", "🐕", "\t", "\n", "$"]
        // Foundation's [String: Any] merges canonically equivalent keys ("é" and "e\u{301}").
        // (U+0000 and U+0001 are not XML 1.0 characters: the writer refuses them, see TextFormatTests.)
        if !foundation { pieces += ["e\u{301}", "\r", "\r\n", "\u{85}", "\u{7F}", "&amp;"] }
        var s = ""
        for _ in 0..<int(0...6) { s += pieces[int(0...(pieces.count - 1))] }
        return s
    }

    mutating func integer() -> Int128 {
        switch int(0...5) {
        case 0: return Int128(int(-10...10))
        case 1: return Int128(Int64.random(in: .min ... .max, using: &rng))
        case 2: return [Int128(Int64.max), Int128(Int64.min), 0, -1][int(0...3)]
        case 3 where !foundation: return [Int128.max, Int128.min, Int128(UInt64.max), -Int128(UInt64.max)][int(0...3)]
        case 4 where !foundation:
            return Int128(bitPattern: UInt128(rng.next()) << 64 | UInt128(rng.next()))
        default: return Int128(int(-100_000...100_000))
        }
    }

    mutating func real() -> Double {
        switch int(0...6) {
        case 0:
            let special: [Double] = [
                0.0, -0.0, 1.0, -1.5, 0.1, 1e16, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity,
                -.infinity,
            ]
            let d = special[int(0...(special.count - 1))]
            return foundation && d == 0 ? 0.0 : d
        case 1 where !foundation: return .nan
        case 2, 3:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite && !(foundation && d == 0) { return d }
            }
        default: return Double(int(-1_000_000...1_000_000)) / 64
        }
    }

    mutating func date() -> Date {
        let range: ClosedRange<Int> = foundation ? -3_000_000_000...3_000_000_000 : -300_000_000_000...3_000_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double(int(range)))
    }

    mutating func data() -> Data {
        let count = [0, 1, 2, 3, 44, 45, 46, 57, 200][int(0...8)]
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    mutating func scalar() -> PlistValue {
        switch int(0...7) {
        case 0: return .bool(int(0...1) == 1)
        case 1: return .integer(PlistInteger(integer()))
        case 2: return .real(real())
        case 3: return .date(date())
        case 4: return .data(data())
        case 5 where !foundation: return .uid(UInt64(int(0...Int(UInt32.max))))
        default: return .string(string())
        }
    }

    mutating func value(depth: Int = 0) -> PlistValue {
        guard depth < 5, int(0...2) == 0 || depth == 0 else { return scalar() }
        switch int(0...2) {
        case 0:
            return .array((0..<int(0...6)).map { _ in value(depth: depth + 1) })
        case 1:
            var d = PlistDictionary()
            for _ in 0..<int(0...6) {
                var key = string()
                if key == "CF$UID" { key += "!" }
                d[key] = value(depth: depth + 1)
            }
            return .dictionary(d)
        default:
            return scalar()
        }
    }
}

// MARK: - Foundation bridging (reading back uses InteropTests' `plistValue(fromFoundation:)`)

private func xmlFoundationObject(_ v: PlistValue) -> Any {
    switch v {
    case .bool(let b): return b
    case .integer(let i): return NSNumber(value: Int64(truncatingIfNeeded: i.int128))
    case .real(let d): return NSNumber(value: d)
    case .date(let d): return d
    case .data(let d): return d
    case .string(let s): return s.string
    case .array(let xs), .set(let xs): return xs.map(xmlFoundationObject)
    case .dictionary(let d):
        var out: [String: Any] = [:]
        for (k, x) in d.entries { out[k.stringValue ?? ""] = xmlFoundationObject(x) }
        return out
    case .null, .uid: return "unsupported"
    }
}

// MARK: - Helpers

private func xml(_ body: String) -> Data {
    Data(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<plist version=\"1.0\">\n" + body + "\n</plist>\n").utf8)
}

private func decodeXML(_ text: String, limits: PlistLimits = .default) throws(PlistError) -> PlistValue {
    try XMLPlist.decode(Data(text.utf8), limits: limits)
}

/// The error `body` throws, or nil (recorded as an issue) when it returns a value.
@discardableResult
private func xmlError(
    _ code: PlistError.Code, _ body: () throws(PlistError) -> PlistValue,
    sourceLocation: SourceLocation = #_sourceLocation
) -> PlistError? {
    do {
        let v = try body()
        Issue.record("expected \(code), got \(v)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.offset != nil, "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail.hasPrefix("line "), "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail.contains(", column "), "\(error)", sourceLocation: sourceLocation)
        return error
    }
}

// MARK: - Corpus

// Without ../shared/corpus every test here is reported as skipped, with the reason (never an empty pass).
@Suite(.enabled(if: Corpus.isPresent, "the shared corpus is not at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"))
struct XMLPlistCorpusTests {
    static let validXML = xmlCorpusFiles("valid/keyed-xml")
    static let invalidKeyedXML = xmlCorpusFiles("invalid-keyed/xml")

    @Test func corpusIsPresent() {
        #expect(Self.validXML.count >= 14, "corpus at \(Corpus.root.path)")
        #expect(Self.invalidKeyedXML.count >= 6)
    }

    @Test("keyed-xml file equals its binary twin and its oracle", arguments: validXML)
    func validFileEqualsBinaryTwin(_ path: String) throws {
        let url = corpusURL(path)
        let value = try XMLPlist.decode(try Data(contentsOf: url))
        let stem = url.deletingPathExtension().lastPathComponent
        let twin = Corpus.root.appendingPathComponent("valid/keyed/\(stem).fromxml.bplist")
        if FileManager.default.fileExists(atPath: twin.path) {
            let binary = try BinaryPlistDocument(try Data(contentsOf: twin)).value()
            #expect(value == binary)
        }
        let oracle = url.deletingPathExtension().appendingPathExtension("json")
        if FileManager.default.fileExists(atPath: oracle.path) {
            #expect(try value.canonicalJSON() == (try String(contentsOf: oracle, encoding: .utf8)))
        }
        // Sniffing finds XML, and the same value.
        let decoded = try PlistValue.decode(from: try Data(contentsOf: url))
        let (sniffed, format) = (decoded.value, decoded.format)
        #expect(format == .xml)
        #expect(sniffed == value)
    }

    @Test("keyed-xml file is rewritten byte for byte with sorted keys", arguments: validXML)
    func validFileRewritesIdentically(_ path: String) throws {
        let original = try Data(contentsOf: corpusURL(path))
        let value = try XMLPlist.decode(original)
        let written = try XMLPlistWriter(sortKeys: true).write(value)
        #expect(
            written == original,
            "first difference at byte \(zip(written, original).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, original.count))"
        )
    }

    @Test("invalid-keyed XML file is a well-formed property list", arguments: invalidKeyedXML)
    func invalidKeyedFileParses(_ path: String) throws {
        let url = corpusURL(path)
        let value = try XMLPlist.decode(try Data(contentsOf: url))
        let oracle = url.deletingPathExtension().appendingPathExtension("json")
        if FileManager.default.fileExists(atPath: oracle.path) {
            #expect(try value.canonicalJSON() == (try String(contentsOf: oracle, encoding: .utf8)))
        }
    }
}

// MARK: - Round trips and Foundation

@Suite struct XMLPlistRoundTripTests {
    @Test func generatedValuesRoundTrip() throws {
        let base = propertySeed()
        for k in 0..<300 {
            let seed = base &+ UInt64(k)
            var g = XMLValueGenerator(seed: seed)
            let v = g.value()
            let first = try XMLPlist.encode(v)
            let back = try XMLPlist.decode(first)
            #expect(back == v, "seed \(seed)")
            let second = try XMLPlist.encode(back)
            #expect(second == first, "seed \(seed): writing is not stable")
            // The binary writer and reader agree with the XML ones.
            #expect(try BinaryPlistDocument(try BinaryPlistWriter().write(back)).value() == v, "seed \(seed)")
        }
    }

    @Test func foundationReadsWhatWeWrite() throws {
        let base = propertySeed()
        for k in 0..<150 {
            let seed = base &+ UInt64(k)
            var g = XMLValueGenerator(seed: seed, foundation: true)
            let v = g.value()
            let data = try XMLPlist.encode(v)
            let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            #expect(
                plistValue(fromFoundation: object) == v, "seed \(seed)\n\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test func weReadWhatFoundationWrites() throws {
        let base = propertySeed()
        for k in 0..<150 {
            let seed = base &+ UInt64(k)
            var g = XMLValueGenerator(seed: seed, foundation: true)
            let v = g.value()
            let data = try PropertyListSerialization.data(
                fromPropertyList: xmlFoundationObject(v), format: .xml, options: 0)
            let decoded = try PlistValue.decode(from: data)
            let (back, format) = (decoded.value, decoded.format)
            #expect(format == .xml)
            #expect(back == v, "seed \(seed)\n\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test func setsAreWrittenAsArrays() throws {
        let v = PlistValue.set([1, "a", .set([true])])
        #expect(try XMLPlist.decode(try XMLPlist.encode(v)) == .array([1, "a", .array([true])]))
    }

    @Test func uidsRoundTripAsCFUIDDictionaries() throws {
        let v: PlistValue = ["root": .uid(1), "max": .uid(UInt64(UInt32.max)), "list": [.uid(0)]]
        let data = try XMLPlist.encode(v)
        #expect(String(decoding: data, as: UTF8.self).contains("<key>CF$UID</key>"))
        #expect(try XMLPlist.decode(data) == v)
    }

    @Test func datesKeepWholeSecondsRoundingDown() throws {
        let cases: [(Double, String)] = [
            (0.9, "2001-01-01T00:00:00Z"),
            (-0.5, "2000-12-31T23:59:59Z"),
            (-63_113_990_400, "0000-12-31T00:00:00Z"),
            (-63_145_612_800, "-001-12-31T00:00:00Z"),
            (694_224_000.25, "2023-01-01T00:00:00Z"),
        ]
        for (seconds, text) in cases {
            let data = try XMLPlist.encode(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            #expect(String(decoding: data, as: UTF8.self).contains("<date>\(text)</date>"), "\(seconds)")
            let back = try XMLPlist.decode(data)
            #expect(back == .date(Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))), "\(seconds)")
        }
    }

    @Test func realsAreShortestAndExact() throws {
        let cases: [(Double, String)] = [
            (1, "1"), (1.5, "1.5"), (0.1, "0.1"), (0, "0.0"), (-0.0, "-0.0"), (1e16, "1e+16"),
            (.leastNonzeroMagnitude, "5e-324"), (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (-2, "-2"),
        ]
        for (d, text) in cases {
            let data = try XMLPlist.encode(.real(d))
            #expect(String(decoding: data, as: UTF8.self).contains("<real>\(text)</real>"), "\(d)")
            #expect(try XMLPlist.decode(data) == .real(d), "\(d)")
        }
    }
}

// MARK: - Writer layout

@Suite struct XMLPlistWriterTests {
    @Test func writesAppleLayout() throws {
        let bytes = Data((0..<60).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let v: PlistValue = [
            "a": [1, 2.5, true, false],
            "d": .data(bytes),
            "e": [],
            "f": .dictionary(PlistDictionary()),
            "s": "x<&>y\"'",
            "t": .date(Date(timeIntervalSinceReferenceDate: 0.9)),
            "u": .uid(7),
            "z": .data(Data()),
        ]
        let b64 = bytes.base64EncodedString()
        // At one tab of indentation a base64 line holds 76 - 8 = 68 characters.
        let lines = stride(from: 0, to: b64.count, by: 68).map { start -> String in
            let from = b64.index(b64.startIndex, offsetBy: start)
            let to = b64.index(from, offsetBy: min(68, b64.count - start))
            return "\t" + b64[from..<to] + "\n"
        }.joined()
        let expected =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<plist version=\"1.0\">\n"
            + "<dict>\n"
            + "\t<key>a</key>\n\t<array>\n\t\t<integer>1</integer>\n\t\t<real>2.5</real>\n\t\t<true/>\n\t\t<false/>\n\t</array>\n"
            + "\t<key>d</key>\n\t<data>\n" + lines + "\t</data>\n"
            + "\t<key>e</key>\n\t<array/>\n"
            + "\t<key>f</key>\n\t<dict/>\n"
            + "\t<key>s</key>\n\t<string>x&lt;&amp;&gt;y\"'</string>\n"
            + "\t<key>t</key>\n\t<date>2001-01-01T00:00:00Z</date>\n"
            + "\t<key>u</key>\n\t<dict>\n\t\t<key>CF$UID</key>\n\t\t<integer>7</integer>\n\t</dict>\n"
            + "\t<key>z</key>\n\t<data>\n\t</data>\n"
            + "</dict>\n"
            + "</plist>\n"
        let written = String(decoding: try XMLPlist.encode(v), as: UTF8.self)
        #expect(lines.split(separator: "\n").count == 2)
        #expect(written == expected)
    }

    @Test func deepDataLinesStopShrinkingAtEightTabs() throws {
        var v: PlistValue = .data(Data(repeating: 0xAB, count: 31))
        for _ in 0..<10 { v = [v] }
        let text = String(decoding: try XMLPlist.encode(v), as: UTF8.self)
        // At depth 10 the tag has ten tabs; its lines have eight and hold 76 - 64 = 12 characters.
        #expect(text.contains("\t\t\t\t\t\t\t\t\t\t<data>\n\t\t\t\t\t\t\t\tq6urq6urq6ur\n"))
        #expect(text.contains("\n\t\t\t\t\t\t\t\tq6urqw==\n\t\t\t\t\t\t\t\t\t\t</data>\n"))
        #expect(try XMLPlist.decode(Data(text.utf8)) == v)
    }

    @Test func keysKeepTheirOrderUnlessSorted() throws {
        let v: PlistValue = ["b": 1, "a": 2, "B": 3]
        let plain = String(decoding: try XMLPlist.encode(v), as: UTF8.self)
        let sorted = String(decoding: try XMLPlistWriter(sortKeys: true).write(v), as: UTF8.self)
        func order(_ s: String) -> [String] {
            s.split(separator: "\n").filter { $0.contains("<key>") }.map { String($0) }
        }
        #expect(order(plain) == ["\t<key>b</key>", "\t<key>a</key>", "\t<key>B</key>"])
        #expect(order(sorted) == ["\t<key>B</key>", "\t<key>a</key>", "\t<key>b</key>"])
    }

    @Test func integersAreExactTo128Bits() throws {
        for i in [Int128.max, Int128.min, Int128(UInt64.max), -1, 0] {
            let data = try XMLPlist.encode(.integer(PlistInteger(i)))
            #expect(String(decoding: data, as: UTF8.self).contains("<integer>\(i)</integer>"))
            #expect(try XMLPlist.decode(data) == .integer(PlistInteger(i)))
        }
    }

    @Test func refusesWhatXMLCannotSay() {
        let cases: [PlistValue] = [
            .null, [.null], .dictionary(PlistDictionary([(PlistValue.integer(1), PlistValue.bool(true))])),
            .date(Date(timeIntervalSinceReferenceDate: .nan)), .date(Date(timeIntervalSinceReferenceDate: 1e15)),
            .date(Date(timeIntervalSinceReferenceDate: .infinity)),
        ]
        for v in cases {
            #expect(throws: PlistError.self, "\(v)") { try XMLPlist.encode(v) }
            do {
                _ = try XMLPlist.encode(v)
            } catch {
                #expect(error.code == .unencodable)
            }
        }
    }

    @Test func veryDeepValuesDoNotUseTheCallStack() throws {
        var v: PlistValue = "leaf"
        for _ in 0..<5_000 { v = [v] }
        let data = try XMLPlist.encode(v)
        let unlimited = PlistLimits(maxDepth: 10_000)
        #expect(try XMLPlist.decode(data, limits: unlimited) == v)
    }
}

// MARK: - Reader

@Suite struct XMLPlistReaderTests {
    @Test func readsEveryElement() throws {
        let v = try XMLPlist.decode(
            xml(
                """
                <dict>
                    <key>s</key><string>a &lt;&gt;&amp;&quot;&apos; &#65;&#x42; &#x1F415; <![CDATA[<raw & ]]]]>x<!-- c --></string>
                    <key>empty</key><string/>
                    <key>i</key><array><integer>42</integer><integer> -0x10 </integer><integer>+7</integer>
                        <integer>0XfF</integer><integer>-170141183460469231731687303715884105728</integer>
                        <integer>170141183460469231731687303715884105727</integer></array>
                    <key>r</key><array><real>1.5</real><real>-0</real><real>NaN</real><real>+inf</real><real>-Infinity</real>
                        <real>1E3</real><real>.5</real></array>
                    <key>b</key><array><true/><false/><true></true></array>
                    <key>d</key><array><date>2001-01-01T00:00:01Z</date><date> 1970-01-01T00:00:00.5Z </date></array>
                    <key>data</key><array><data>
                        AAEC
                        Aw==
                    </data><data/><data>QQ</data><data></data></array>
                    <key>c</key><array/><key>e</key><dict/>
                    <key>uid</key><dict><key>CF$UID</key><integer>5</integer></dict>
                    <key>notUID</key><dict><key>CF$UID</key><string>5</string></dict>
                    <key>nearUID</key><array><dict><key>CF$UIX</key><integer>5</integer></dict>
                        <dict><key>CF$UI</key><integer>5</integer></dict><dict><key>CF$UIDs</key><integer>5</integer></dict>
                        <dict><key>CF$UID</key><integer>5</integer><key>CF$UID</key><integer>6</integer></dict></array>
                    <key>dup</key><integer>1</integer><key>dup</key><integer>2</integer>
                </dict>
                """))
        #expect(v["s"] == "a <>&\"' AB 🐕 <raw & ]]x")
        #expect(v["empty"] == "")
        #expect(
            v["i"] == [42, -16, 7, 255, .integer(.min), .integer(.max)])
        #expect(v["r"] == [1.5, .real(-0.0), .real(.nan), .real(.infinity), .real(-.infinity), 1000.0, 0.5])
        #expect(v["b"] == [true, false, true])
        #expect(
            v["d"] == [
                .date(Date(timeIntervalSinceReferenceDate: 1)),
                .date(Date(timeIntervalSinceReferenceDate: -978_307_200 + 0.5)),
            ])
        #expect(v["data"] == [.data(Data([0, 1, 2, 3])), .data(Data()), .data(Data([0x41])), .data(Data())])
        #expect(v["c"] == [])
        #expect(v["e"] == .dictionary(PlistDictionary()))
        #expect(v["uid"] == .uid(5))
        #expect(v["notUID"] == ["CF$UID": "5"])
        // Keys one byte off are keys; a repeated CF$UID is merged (the last value) and then a UID.
        #expect(v["nearUID"] == [["CF$UIX": 5], ["CF$UI": 5], ["CF$UIDs": 5], .uid(6)])
        #expect(v["dup"] == 2)
        #expect(v.dictionaryValue?.keys.last == "dup")
    }

    @Test func acceptsBOMCommentsPIsAndBareProlog() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes += Array(
            "\r\n<!-- before --><?xml-stylesheet x?>\n<!DOCTYPE plist SYSTEM \"a]>\">\n<plist><!--a--><true/><?pi?></plist><!-- after -->\n"
                .utf8)
        #expect(try XMLPlist.decode(Data(bytes)) == true)
        #expect(try decodeXML("<plist version='1.0' ><string>x</string ></plist >") == "x")
    }

    @Test func textIsTakenAsItIs() throws {
        #expect(try decodeXML("<plist><string>a\r\nb\rc\u{1}</string></plist>") == "a\r\nb\rc\u{1}")
        #expect(try decodeXML("<plist><string> </string></plist>") == " ")
    }

    @Test func largeDictionariesWithRepeatedKeys() throws {
        var body = "<dict>"
        for k in 0..<2000 { body += "<key>k\(k % 1000)</key><integer>\(k)</integer>" }
        body += "<key>e\u{301}</key><integer>1</integer><key>é</key><integer>2</integer></dict>"
        let v = try XMLPlist.decode(xml(body))
        #expect(v.dictionaryValue?.count == 1002)
        #expect(v["k0"] == 1000)
        #expect(v["k999"] == 1999)
        #expect(v.dictionaryValue?.keys.first == "k0")
        #expect(v["e\u{301}"] == 1)
        #expect(v["é"] == 2)
    }

    @Test func depthLimit() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        }
        #expect(throws: Never.self) { try decodeXML("<plist>\(nested(512))</plist>") }
        let error = xmlError(.limitExceeded) { () throws(PlistError) in
            try decodeXML("<plist>\(nested(513))</plist>")
        }
        #expect(error?.offset == 7 + 512 * 7)
        let small = PlistLimits(maxDepth: 2)
        #expect(throws: Never.self) { try decodeXML("<plist><dict><key>a</key><array/></dict></plist>", limits: small) }
        xmlError(.limitExceeded) { () throws(PlistError) in
            try decodeXML(
                "<plist><dict><key>a</key><array><dict/><array><true/></array></array></dict></plist>", limits: small)
        }
        // Deep nesting from a hostile input of a few hundred kilobytes: an error, not a stack overflow.
        xmlError(.limitExceeded) { () throws(PlistError) in try decodeXML("<plist>\(nested(100_000))</plist>") }
    }

    @Test func uidLimits() {
        var narrow = PlistLimits()
        narrow.maxUID = UInt64(UInt32.max)
        xmlError(.limitExceeded) { () throws(PlistError) in
            try decodeXML("<plist><dict><key>CF$UID</key><integer>4294967296</integer></dict></plist>", limits: narrow)
        }
        // Beyond the 8 bytes a binary UID can hold, whatever the limit.
        xmlError(.limitExceeded) { () throws(PlistError) in
            try decodeXML("<plist><dict><key>CF$UID</key><integer>18446744073709551616</integer></dict></plist>")
        }
        xmlError(.syntax) { () throws(PlistError) in
            try decodeXML("<plist><dict><key>CF$UID</key><integer>-1</integer></dict></plist>")
        }
        var wide = PlistLimits()
        wide.maxUID = .max
        #expect(
            (try? decodeXML("<plist><dict><key>CF$UID</key><integer>4294967296</integer></dict></plist>", limits: wide))
                == .uid(4_294_967_296))
    }

    /// (what, document, where the error is: the first occurrence of this text, or nil for the end).
    static let malformed: [(String, String, String?)] = [
        ("empty input", "", nil),
        ("only whitespace", " \n ", nil),
        ("missing plist root", "<?xml version=\"1.0\"?>\n<dict/>", "<dict/>"),
        ("text before the root", "hello<plist><true/></plist>", "hello"),
        ("unclosed plist", "<plist><true/>", nil),
        ("unclosed dict", "<plist><dict><key>a</key><true/>", nil),
        ("unclosed array", "<plist><array><true/>", nil),
        ("unclosed string", "<plist><string>abc", nil),
        ("unclosed start tag", "<plist><string", nil),
        ("mismatched close tag", "<plist><array></dict></plist>", "</dict>"),
        ("mismatched string close", "<plist><string>a</strin></plist>", "</strin>"),
        ("two root values", "<plist><true/><false/></plist>", "<false/>"),
        ("empty plist element", "<plist/>", "<plist/>"),
        ("plist without a value", "<plist>  </plist>", "</plist>"),
        ("text in plist", "<plist>x<true/></plist>", "x<true/>"),
        ("text in array", "<plist><array>x</array></plist>", "x</array>"),
        ("content after the root", "<plist><true/></plist>x", "x"),
        ("second root element", "<plist><true/></plist><plist><true/></plist>", "<plist><true/></plist>\u{0}"),
        ("unknown element", "<plist><foo/></plist>", "<foo/>"),
        ("non-key in dict", "<plist><dict><string>a</string></dict></plist>", "<string>"),
        ("key without value", "<plist><dict><key>a</key></dict></plist>", "<key>"),
        ("key outside dict", "<plist><key>a</key></plist>", "<key>"),
        ("nested plist", "<plist><array><plist/></array></plist>", "<plist/>"),
        ("unknown entity", "<plist><string>a &foo; b</string></plist>", "&foo"),
        ("bare ampersand", "<plist><string>a & b</string></plist>", "& b"),
        ("unterminated entity", "<plist><string>&amp</string></plist>", "&amp"),
        ("surrogate reference", "<plist><string>&#xD800;</string></plist>", "&#x"),
        ("reference beyond Unicode", "<plist><string>&#x110000;</string></plist>", "&#x"),
        ("empty reference", "<plist><string>&#;</string></plist>", "&#"),
        ("bad decimal reference", "<plist><string>&#1a;</string></plist>", "a;"),
        ("markup in string", "<plist><string>a<b/></string></plist>", "<b/>"),
        ("unterminated CDATA", "<plist><string><![CDATA[abc</string></plist>", nil),
        ("unterminated comment", "<plist><!-- abc <true/></plist>", nil),
        ("unterminated PI", "<?xml version=\"1.0\"", nil),
        ("unterminated DOCTYPE", "<!DOCTYPE plist <true/>", nil),
        ("DOCTYPE with an internal subset", "<!DOCTYPE plist [ <!ENTITY x \"y\"> ]><plist><true/></plist>", "[ <!"),
        ("two DOCTYPEs", "<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>", "<!DOCTYPE plist><plist>"),
        ("unsupported encoding", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>", "<?xml"),
        ("UTF-16 text cut after its first character", "\u{FEFF}", nil),
        ("unquoted attribute", "<plist version=1.0><true/></plist>", "1.0"),
        ("attribute without space", "<plist a=\"1\"b=\"2\"><true/></plist>", "b="),
        ("slash without >", "<plist><true/ ></plist>", " ></plist>"),
        ("invalid UTF-8 in string", "<plist><string>a\u{FFFD}</string></plist>", "\u{FFFD}"),
        ("text in true", "<plist><true>yes</true></plist>", "yes"),
        ("empty integer", "<plist><integer></integer></plist>", "</integer>"),
        ("self-closing integer", "<plist><integer/></plist>", "<integer/>"),
        ("integer with letters", "<plist><integer>12a</integer></plist>", "a<"),
        ("hex prefix only", "<plist><integer>0x</integer></plist>", "</integer>"),
        ("integer above 128 bits", "<plist><integer>170141183460469231731687303715884105728</integer></plist>", "17"),
        ("integer below 128 bits", "<plist><integer>-170141183460469231731687303715884105729</integer></plist>", "-17"),
        ("hex integer over 128 bits", "<plist><integer>0x1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF</integer></plist>", "0x"),
        ("huge decimal", "<plist><integer>\(String(repeating: "9", count: 200))</integer></plist>", "99"),
        ("real with two points", "<plist><real>1.2.3</real></plist>", "1.2"),
        ("hex real", "<plist><real>0x1p3</real></plist>", "0x"),
        ("empty real", "<plist><real> </real></plist>", "</real>"),
        ("real exponent only", "<plist><real>e5</real></plist>", "e5"),
        ("real dangling exponent", "<plist><real>1e</real></plist>", "1e"),
        ("date month 13", "<plist><date>2020-13-01T00:00:00Z</date></plist>", "2020"),
        ("date February 29 in 2021", "<plist><date>2021-02-29T00:00:00Z</date></plist>", "2021"),
        ("date without Z", "<plist><date>2020-01-01T00:00:00</date></plist>", "2020"),
        ("date with a space", "<plist><date>2020-01-01 00:00:00Z</date></plist>", "2020"),
        ("date second 60", "<plist><date>2020-01-01T00:00:60Z</date></plist>", "2020"),
        ("empty date", "<plist><date/></plist>", "<date/>"),
        ("base64 bad character", "<plist><data>AAE!</data></plist>", "!"),
        ("base64 lone character", "<plist><data>AAECA</data></plist>", "</data>"),
        ("base64 wrong padding", "<plist><data>QQ=</data></plist>", "</data>"),
        ("base64 padding in the middle", "<plist><data>QQ==QQ==</data></plist>", "QQ==<"),
        ("base64 early padding", "<plist><data>Q===</data></plist>", "==="),
        ("entity in an attribute with <", "<plist a=\"<\"><true/></plist>", "<\">"),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputIsASyntaxError(_ index: Int) {
        let (what, text, marker) = Self.malformed[index]
        var bytes = Array(text.utf8)
        // Markers that cannot be typed as text.
        if what == "UTF-16 text cut after its first character" { bytes = [0xFF, 0xFE, 0x3C, 0x00] }
        if what == "invalid UTF-8 in string" {
            bytes = Array("<plist><string>a".utf8) + [0xFF] + Array("</string></plist>".utf8)
        }
        let error = xmlError(.syntax) { () throws(PlistError) in try XMLPlist.decode(Data(bytes)) }
        guard let error, let offset = error.offset else { return }
        var expected = bytes.count
        if what == "UTF-16 text cut after its first character" {
            expected = 1  // after the "<" in the UTF-8 transcoding
        } else if what == "invalid UTF-8 in string" {
            expected = 16
        } else if what == "second root element" {
            expected = text.utf8.count / 2
        } else if let marker, let r = text.range(of: marker) {
            expected = text.utf8.distance(from: text.startIndex, to: r.lowerBound)
        }
        #expect(offset == expected, "\(what): \(error)")
    }

    @Test func errorsGiveLineAndColumn() {
        let text = "<plist>\n<array>\r\n\t<true/>\r  <é/> <bogus/>\n</array></plist>"
        let error = xmlError(.syntax) { () throws(PlistError) in try decodeXML(text) }
        // <é/> has a name that is not a plist element; line 4 (CR ends line 3), column 3.
        #expect(error?.detail.hasPrefix("line 4, column 3:") == true, "\(String(describing: error))")
        let later = xmlError(.syntax) { () throws(PlistError) in
            try decodeXML(
                "<plist>\n<array>\n<true/> <é/><bogus/>\n</array></plist>".replacingOccurrences(of: "<é/>", with: "é"))
        }
        #expect(later?.detail.hasPrefix("line 3, column 9:") == true, "\(String(describing: later))")
    }

    @Test func everyTruncationIsAnErrorNeverATrap() throws {
        let full = try XMLPlist.encode([
            "a": [1, -2.5, true, false, .date(Date(timeIntervalSinceReferenceDate: 3))],
            "b": .data(Data(0..<40)), "c": "x&y<z>é🐕", "d": .uid(3), "e": [], "f": .dictionary(PlistDictionary()),
        ])
        let bytes = Array(full)
        let endOfRoot = bytes.count - 1  // everything up to "</plist>", without the final newline
        for cut in 0..<bytes.count {
            let prefix = Data(bytes[0..<cut])
            if cut < endOfRoot {
                xmlError(.syntax) { () throws(PlistError) in try XMLPlist.decode(prefix) }
            } else {
                #expect(throws: Never.self) { try XMLPlist.decode(prefix) }
            }
        }
    }

    @Test func everySingleByteMutationIsAValueOrAnError() throws {
        let full = Array(
            try XMLPlist.encode([
                "a": [1, 2.5, true], "b": .data(Data(0..<10)), "c": "x&y", "d": .uid(3), "e": .date(Date()),
            ]))
        var rng = SplitMix64(seed: propertySeed())
        let replacements: [UInt8] = Array("<>/&;#x=\"' \n!?[]-0aZ".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for k in 0..<full.count {
            for _ in 0..<3 {
                var bytes = full
                bytes[k] = replacements[Int.random(in: 0..<replacements.count, using: &rng)]
                do {
                    _ = try XMLPlist.decode(Data(bytes))
                } catch {
                    #expect(error.code == .syntax || error.code == .limitExceeded, "\(error)")
                    #expect(error.offset.map { $0 >= 0 && $0 <= bytes.count } == true)
                }
            }
        }
    }
}

// MARK: - Sniffing

@Suite struct PlistFormatSniffingTests {
    @Test func sniffsXMLAndBinary() throws {
        let v: PlistValue = ["k": [1, "two", .data(Data([3]))]]
        let xmlData = try XMLPlist.encode(v)
        let binary = try BinaryPlistWriter().write(v)
        let zlib = try BinaryPlistWriter(compression: .zlib, compressionLevel: -1).write(v)
        #expect(try PlistValue.decode(from: xmlData).pair == (v, .xml))
        #expect(try PlistValue.decode(from: binary).pair == (v, .binary))
        #expect(try PlistValue.decode(from: zlib).pair == (v, .binary))
        #expect(try PlistValue.decode(from: zlib).compression == .zlib)
        #expect(try PlistValue.decode(from: binary).compression == PlistCompression.none)
        #expect(try PlistValue.decode(from: Data("\u{FEFF}  \n<plist><true/></plist>".utf8)).pair == (true, .xml))
        #expect(try PlistValue.decode(from: Data("<!-- c --><plist><true/></plist>".utf8)).pair == (true, .xml))
        #expect(XMLPlist.looksLikeXML(Data("<!DOCTYPE plist><plist/>".utf8)))
        #expect(!XMLPlist.looksLikeXML(binary))
        #expect(!XMLPlist.looksLikeXML(Data("<dict/>".utf8)))
        #expect(!XMLPlist.looksLikeXML(Data()))
        // A slice of a larger buffer.
        let padded = Data([0, 0]) + xmlData
        #expect(try PlistValue.decode(from: padded[2...]).pair == (v, .xml))
    }

    @Test func neitherFormatIsAnError() throws {
        // One unquoted word is an OpenStep string (as CoreFoundation and plutil read it); a word, a
        // space and another are no property list.
        let word = String(repeating: "x", count: 64)
        #expect(try PlistValue.decode(from: Data(word.utf8)).pair == (.string(PlistString(word)), .openStep))
        do {
            _ = try PlistValue.decode(from: Data((word + " " + word).utf8))
            Issue.record("decoded garbage")
        } catch {
            #expect(error.code == .notAPropertyList)
        }
        do {
            _ = try PlistValue.decode(from: Data("<plist><oops/></plist>".utf8))
            Issue.record("decoded a bad XML plist")
        } catch {
            #expect(error.code == .syntax)
        }
    }
}
