// Tests/PropertyListTests/DocumentTreeWriterTests.swift - The text writers walking a binary document in
// place write exactly what they write from the decoded PlistValue (the oracle: the value writers,
// themselves checked against the corpus's plistlib oracles), and refuse the same inputs.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct DocumentTreeWriterTests {
    enum Form: CaseIterable { case json, xml, openStep }

    /// The text of `form` from the value (nil when the writer refuses it, with the error's code).
    static func fromValue(_ value: PlistValue, _ form: Form, budget: OutputBudget = .default) -> Result<
        String, PlistError
    > {
        Result { () throws(PlistError) -> String in
            switch form {
            case .json: return try value.canonicalJSON(budget: budget)
            case .xml: return String(decoding: try XMLPlist.encode(value, budget: budget), as: UTF8.self)
            case .openStep: return String(decoding: try OpenStepPlist.encode(value, budget: budget), as: UTF8.self)
            }
        }
    }

    /// The text of `form` from the document read in place.
    static func fromDocument(
        _ document: BinaryPlistDocument, _ form: Form, budget: OutputBudget = .default,
        style: PlistJSONStyle = .canonical
    ) -> Result<String, PlistError> {
        Result { () throws(PlistError) -> String in
            let tree = DocumentTree(document)
            var out = TextSink.collecting()
            switch form {
            case .json:
                try BinaryPlistDocument.writeCanonicalJSON(
                    tree, from: tree.root, style: style, budget: budget, into: &out)
            case .xml: try XMLPlist.write(tree, from: tree.root, budget: budget, into: &out)
            case .openStep: try OpenStepPlist.write(tree, from: tree.root, budget: budget, into: &out)
            }
            return String(decoding: out.takeBytes(), as: UTF8.self)
        }
    }

    static func expectSame(_ value: PlistValue, _ document: BinaryPlistDocument, _ what: String) {
        for form in Form.allCases {
            switch (fromValue(value, form), fromDocument(document, form)) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(what) \(form): the document's text differs from the value's")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code, "\(what) \(form): \(a) vs \(b)")
            case (let a, let b):
                Issue.record("\(what) \(form): value \(a), document \(b)")
            }
        }
    }

    @Test("random values: JSON, XML and OpenStep of the document equal those of the value, or fail alike")
    func randomValues() throws {
        let seed = propertySeed()
        var generator = PlistGenerator(seed: seed)
        for round in 0..<300 {
            let value = generator.value()
            let document = try BinaryPlistDocument(try BinaryPlistWriter().write(value))
            Self.expectSame(try document.value(), document, "seed \(seed) round \(round)")
        }
    }

    @Test(
        "corpus: every valid binary file writes the same text read in place",
        .enabled(if: Corpus.isPresent, "the shared corpus is not at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"))
    func corpus() throws {
        for file in Corpus.validBinary {
            let document = try BinaryPlistDocument(try file.bytes())
            Self.expectSame(try document.value(), document, file.name)
        }
    }

    @Test("the doubling chain (2^41 nodes written out) is refused before writing, read in place too")
    func doublingChain() throws {
        let document = try BinaryPlistDocument(DoublingChain.bytes)
        for form in Form.allCases {
            guard case .failure(let error) = Self.fromDocument(document, form) else {
                Issue.record("\(form) wrote the doubling chain")
                continue
            }
            #expect(error.code == .limitExceeded)
            #expect(error.detail.contains("maxValues"))
        }
    }

    @Test("a cycle is a cycle error before anything is written")
    func cycle() throws {
        // Object 0: an array holding object 1; object 1: an array holding object 0.
        let data = assemble([[0xA1, 1], [0xA1, 0]])
        let document = try BinaryPlistDocument(data)
        guard case .failure(let error) = Self.fromDocument(document, .json) else {
            Issue.record("wrote a cycle")
            return
        }
        #expect(error.code == .cycle)
    }

    @Test("nesting deeper than maxDepth is limitExceeded, read in place")
    func depth() throws {
        // 600 arrays, each holding the next; the last is empty.
        let n = 600
        let objects: [[UInt8]] = (0..<n).map { i in i == n - 1 ? [0xA0] : [0xA1] + be(UInt64(i + 1), 2) }
        let document = try BinaryPlistDocument(assemble(objects, refSize: 2))
        guard case .failure(let error) = Self.fromDocument(document, .json) else {
            Issue.record("wrote 600 levels")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(error.detail.contains("maxDepth"))
    }

    @Test("errors of what the form cannot hold name the key path, as the value writers do")
    func refusalsNamePaths() throws {
        let value: PlistValue = ["a": ["ok", "bad\u{1}"], "n": 1]
        let document = try BinaryPlistDocument(try BinaryPlistWriter().write(value))
        guard case .failure(let xml) = Self.fromDocument(document, .xml) else {
            Issue.record("XML wrote U+0001")
            return
        }
        #expect(xml.code == .unencodable)
        #expect(xml.detail.contains("\"a\" → \"1\""), "\(xml)")
        guard case .failure(let openStep) = Self.fromDocument(document, .openStep) else {
            Issue.record("OpenStep wrote an integer")
            return
        }
        #expect(openStep.detail.contains("the value at n"), "\(openStep)")
    }

    @Test("JSON styles: plain dates (RFC 3339 or Unix seconds) and base64 data")
    func jsonStyles() throws {
        let value: PlistValue = ["d": .date(Date(timeIntervalSinceReferenceDate: 1.5)), "b": .data(Data([0, 1, 2]))]
        let plain = PlistJSONStyle(dates: .iso8601, data: .base64)
        #expect(try value.json(style: plain) == "{\n \"b\": \"AAEC\",\n \"d\": \"2001-01-01T00:00:01.500000Z\"\n}\n")
        let seconds = try value.json(style: PlistJSONStyle(dates: .seconds))
        #expect(seconds == "{\n \"b\": {\n  \"$data\": \"AAEC\"\n },\n \"d\": 978307201.5\n}\n")
        // Foundation reads both as plain JSON.
        let parsed = try JSONSerialization.jsonObject(with: Data(seconds.utf8)) as? [String: Any]
        #expect(parsed?["d"] as? Double == 978_307_201.5)
        // The canonical reader reads the plain forms back as a string and a number.
        #expect(try PlistValue(canonicalJSON: try value.json(style: plain))["b"] == "AAEC")
        // Out of range for RFC 3339: the date stays tagged.
        let old: PlistValue = [.date(Date(timeIntervalSinceReferenceDate: -1e12))]
        #expect(try old.json(style: plain).contains("$date"))
        // Read in place, the same text.
        let document = try BinaryPlistDocument(try BinaryPlistWriter().write(value))
        #expect(try Self.fromDocument(document, .json, style: plain).get() == (try value.json(style: plain)))
    }

    @Test("a lone surrogate read in place: an error by default, U+FFFD and a recorded repair when lenient")
    func loneSurrogate() throws {
        let data = try LoneSurrogateTests.fileWithLoneSurrogate(0xD800)
        let document = try BinaryPlistDocument(data)
        guard case .failure(let strict) = Self.fromDocument(document, .json) else {
            Issue.record("strict wrote it")
            return
        }
        #expect(strict.code == .invalidString)
        let tree = DocumentTree(document, replacingLoneSurrogates: true)
        var out = TextSink.collecting()
        try BinaryPlistDocument.writeCanonicalJSON(
            tree, from: tree.root, style: .canonical, budget: .default, into: &out)
        #expect(String(decoding: out.takeBytes(), as: UTF8.self) == "{\n \"k\": \"\\ufffdx\"\n}\n")
        #expect(tree.repairs.refs.count == 1)
        let paths = try document.keyPaths(to: tree.repairs.refs)
        #expect(paths.values.map(\.description) == ["k"])
    }
}
