// Tests/PropertyListTests/CorpusTests.swift - Conformance against the shared corpus (../shared/corpus).
//
// Read at test time, never copied. Each corpus file is its own test case.
//
//   folder                          what is asserted
//   valid/bplist, valid/keyed       decodes; its canonical JSON equals NAME.json under the rules of
//                                   CANONICAL-JSON.md (compared over parsed JSON, in Swift) and is
//                                   byte-identical to it; the oracle parses back to the same JSON;
//                                   BinaryPlistWriter re-encodes it (plain and zlib) to bytes that
//                                   decode to the same value (bit-exact equality).
//   valid/keyed-xml (XML),          read by `PlistValue.decode(from:)` (format sniffing; the binary
//   invalid-keyed/xml               reader alone rejects them with `notABinaryPlist`); canonical JSON
//                                   equal to NAME.json and byte-identical to it.
//   invalid-keyed                   the property-list layer equals NAME.json (the keyed layer is
//                                   KeyedArchive's to reject).
//   invalid                         rejected with a typed PlistError by a default read
//                                   (open + materialise), within the time limit.
//   ambiguous, valid-unreadable-    no crash, no hang, and the decision below. Every file of these
//   by-plistlib                     folders must have a row (a new file fails `everyFileHasADecision`).
//
// Decisions (what the core does, asserted per file):
//
//   file                                                 decision
//   ambiguous/go-plist-int128-nonzero-high               accepted: full signed 128-bit value
//                                                        0x0102030405060708090a0b0c0d0e0f10 (= plistlib;
//                                                        CF and go-plist keep only the low 64 bits)
//   ambiguous/go-plist-duplicate-dict-keys               accepted: the last value wins ("second value",
//                                                        = plistlib, go-plist; CF keeps the first)
//   ambiguous/cpython-invalid-datetime-infinity          accepted: date +inf (as CF; plistlib rejects)
//   ambiguous/cpython-invalid-datetime-nan               accepted: date NaN (as CF)
//   ambiguous/cpython-too-large-datetime-datetime-overflow   accepted: date 274877906944 s (as CF)
//   ambiguous/cpython-too-large-datetime-timedelta-overflow  accepted: date 140737488355328 s (as CF)
//   ambiguous/swift-foundation-Test_82142612             accepted: a dictionary with a data key (as CF)
//   ambiguous/libplist-fuzz-crash-39f1347115             accepted: {65: "B"}, an integer key (as CF)
//   valid-unreadable-by-plistlib/biplist-sorted          accepted: [set{"a","b","c"}, {a:1, b:2, c:3}]
//   valid-unreadable-by-plistlib/biplist-small_date      accepted: date -63114076800 s (year 0)
//   valid-unreadable-by-plistlib/node-bplist-parser-sample1
//                                                        rejected by default (`invalidString`: UTF-8 in an
//                                                        ASCII string, as plistlib); with
//                                                        `allowsUTF8InASCIIStrings` equals the oracle of
//                                                        valid/bplist/node-bplist-creator-sample1
//   valid-unreadable-by-plistlib/node-bplist-parser-iTunes-small
//                                                        same: rejected by default, lenient read holds
//                                                        "90’s Music"
//
// Every valid file is read with the default limits. valid/bplist/go-plist-uids holds UIDs up to
// 0xFF_FFFF_FFFF: the default `maxUID` (UInt64.max) accepts them; CoreFoundation's UInt32.max limit,
// available as an option, rejects the file with `limitExceeded` (asserted below).

import Foundation
import KeyedArchiveTestSupport
@_spi(Internals) import PropertyList
import Testing

// Without ../shared/corpus every test here is reported as skipped, with the reason (never an empty pass).
@Suite(
    "Corpus conformance", .timeLimit(.minutes(10)),  // a hang guard; AddressSanitizer runs are slow
    .enabled(if: Corpus.isPresent, "the shared corpus is not at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"))
struct CorpusTests {
    // MARK: Valid files

    /// Limits that differ from the defaults for a valid file, and why (see the table above).
    static let limitExceptions: [String: (limits: PlistLimits, reason: String)] = [:]

    static func decodeValid(_ file: CorpusFile) throws -> PlistValue {
        let limits = limitExceptions[file.relativePath]?.limits ?? .default
        return try BinaryPlistDocument(file.bytes(), limits: limits).value()
    }

    @Test("valid file equals its oracle", arguments: Corpus.validBinary + Corpus.invalidKeyed)
    func validMatchesOracle(_ file: CorpusFile) throws {
        let value = try Self.decodeValid(file)
        let json = try value.canonicalJSON()
        let oracle = try file.oracle()
        let difference = CanonicalJSONCompare.diff(oracle, json)
        #expect(difference == nil, "\(difference ?? "")")
        // The rendering reproduces Python's json.dumps exactly, so the tool's output can be diffed as text.
        #expect(json == oracle, "canonical JSON is equal as a value but not byte-identical to the oracle")
    }

    @Test("oracle reads back through PlistValue(canonicalJSON:)", arguments: Corpus.validBinary)
    func oracleParsesBack(_ file: CorpusFile) throws {
        let oracle = try file.oracle()
        let parsed = try PlistValue(canonicalJSON: oracle)
        #expect(try parsed.canonicalJSON() == oracle)
        // Dates are rounded to microseconds in the oracle; everything else is exact.
        let decoded = try Self.decodeValid(file)
        #expect(try CanonicalJSONCompare.diff(decoded.canonicalJSON(), parsed.canonicalJSON()) == nil)
    }

    @Test("valid file re-encodes to bytes that decode to the same value", arguments: Corpus.validBinary)
    func validReencodes(_ file: CorpusFile) throws {
        let value = try Self.decodeValid(file)
        let limits = Self.limitExceptions[file.relativePath]?.limits ?? .default
        let plain = try BinaryPlistWriter().write(value)
        #expect(try BinaryPlistDocument(plain, limits: limits).value() == value)
        let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(value)
        let reopened = try BinaryPlistDocument(packed, limits: limits)
        #expect(reopened.compression == .zlib)
        #expect(try reopened.value() == value)
        let loose = try BinaryPlistWriter(deduplicate: false).write(value)
        #expect(try BinaryPlistDocument(loose, limits: limits).value() == value)
    }

    @Test("CoreFoundation's UID limit, when asked for, rejects 5-byte UIDs")
    func coreFoundationUIDLimit() throws {
        let data = try Data(contentsOf: Corpus.root.appendingPathComponent("valid/bplist/go-plist-uids.bplist"))
        #expect(throws: Never.self) { try BinaryPlistDocument(data).value() }
        let error = #expect(throws: PlistError.self) {
            try BinaryPlistDocument(data, limits: PlistLimits(maxUID: UInt64(UInt32.max))).value()
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test("XML file equals its oracle", arguments: Corpus.validXML + Corpus.invalidKeyedXML)
    func xmlMatchesOracle(_ file: CorpusFile) throws {
        let data = try file.bytes()
        // The binary reader alone refuses XML; the sniffing entry point reads it.
        let error = #expect(throws: PlistError.self) { try BinaryPlistDocument(data) }
        #expect(error?.code == .notABinaryPlist)
        let decoded = try PlistValue.decode(from: data)
        let (value, format) = (decoded.value, decoded.format)
        #expect(format == .xml)
        let json = try value.canonicalJSON()
        let oracle = try file.oracle()
        let difference = CanonicalJSONCompare.diff(oracle, json)
        #expect(difference == nil, "\(difference ?? "")")
        #expect(json == oracle, "canonical JSON is equal as a value but not byte-identical to the oracle")
    }

    // MARK: Invalid files

    @Test("invalid file is rejected with a typed error", arguments: Corpus.invalid)
    func invalidRejected(_ file: CorpusFile) throws {
        let data = try file.bytes()
        let error = #expect(throws: PlistError.self) { try BinaryPlistDocument(data).value() }
        if let error {
            #expect(!error.detail.isEmpty)
            if let offset = error.offset { #expect(offset >= 0) }
        }
    }

    // MARK: Ambiguous files and files plistlib cannot read

    enum Decision: Sendable {
        /// Accepted by a default read, with this value.
        case accept(PlistValue)
        /// Accepted; the value equals the oracle NAME.json beside the file.
        case acceptAsOracle
        /// Rejected by default with `code`; accepted with `allowsUTF8InASCIIStrings`, then checked by `lenient`.
        case rejectUnlessLenient(PlistError.Code, lenient: @Sendable (PlistValue) throws -> Void)
    }

    static func date(_ seconds: Double) -> PlistValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

    static let decisions: [String: Decision] = [
        "ambiguous/go-plist-int128-nonzero-high.bplist": .accept(.integer(0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10)),
        "ambiguous/go-plist-duplicate-dict-keys.bplist": .acceptAsOracle,
        "ambiguous/cpython-invalid-datetime-infinity.bplist": .accept(date(.infinity)),
        "ambiguous/cpython-invalid-datetime-nan.bplist": .accept(date(.nan)),
        "ambiguous/cpython-too-large-datetime-datetime-overflow.bplist": .accept(date(274_877_906_944)),
        "ambiguous/cpython-too-large-datetime-timedelta-overflow.bplist": .accept(date(140_737_488_355_328)),
        "ambiguous/swift-foundation-Test_82142612.bplist": .accept(
            .dictionary(
                PlistDictionary([
                    (
                        .data(Data(base64Encoded: "WWIAAAAAAAABAQA=") ?? Data()),
                        .string("39110FF6-EE38-473D-831B-C395BCC4C399")
                    )
                ]))),
        "ambiguous/libplist-fuzz-crash-39f1347115.bplist": .accept(
            .dictionary(PlistDictionary([(.integer(65), .string("B"))]))),
        "valid-unreadable-by-plistlib/biplist-sorted.bplist": .accept(
            [.set(["a", "b", "c"]), ["a": 1, "b": 2, "c": 3]]),
        "valid-unreadable-by-plistlib/biplist-small_date.bplist": .accept(["MyDate": date(-63_114_076_800)]),
        "valid-unreadable-by-plistlib/node-bplist-parser-sample1.bplist": .rejectUnlessLenient(.invalidString) {
            value in
            let twin = Corpus.root.appendingPathComponent("valid/bplist/node-bplist-creator-sample1.json")
            let oracle = try String(contentsOf: twin, encoding: .utf8)
            #expect(try CanonicalJSONCompare.diff(oracle, value.canonicalJSON()) == nil)
        },
        "valid-unreadable-by-plistlib/node-bplist-parser-iTunes-small.bplist": .rejectUnlessLenient(.invalidString) {
            value throws in
            #expect(try value.canonicalJSON().contains("90\\u2019s Music"))
        },
    ]

    @Test("ambiguous file: no crash, no hang, the documented decision", arguments: Corpus.ambiguous)
    func ambiguous(_ file: CorpusFile) throws { try Self.check(file) }

    @Test("file plistlib cannot read: the documented decision", arguments: Corpus.unreadableByPlistlib)
    func unreadableByPlistlib(_ file: CorpusFile) throws { try Self.check(file) }

    static func check(_ file: CorpusFile) throws {
        let decision = try #require(decisions[file.relativePath], "no decision recorded for \(file)")
        let data = try file.bytes()
        switch decision {
        case .accept(let expected):
            let value = try BinaryPlistDocument(data).value()
            #expect(value == expected)
            try expectRoundTrip(value)
        case .acceptAsOracle:
            let value = try BinaryPlistDocument(data).value()
            #expect(try value.canonicalJSON() == (try file.oracle()))
            try expectRoundTrip(value)
        case .rejectUnlessLenient(let code, let lenient):
            let error = #expect(throws: PlistError.self) { try BinaryPlistDocument(data).value() }
            #expect(error?.code == code)
            let options = PlistReadOptions(allowsUTF8InASCIIStrings: true)
            let value = try BinaryPlistDocument(data, options: options).value()
            try lenient(value)
            try expectRoundTrip(value)
        }
    }

    /// The value survives writing, reading and the canonical JSON form.
    static func expectRoundTrip(_ value: PlistValue) throws {
        #expect(try BinaryPlistDocument(BinaryPlistWriter().write(value)).value() == value)
        let json = try value.canonicalJSON()
        #expect(try PlistValue(canonicalJSON: json).canonicalJSON() == json)
    }

    // MARK: The corpus itself

    @Test("the corpus is present and every ambiguous file has a decision")
    func everyFileHasADecision() throws {
        try #require(Corpus.isPresent, "corpus not found at \(Corpus.root.path) (set KEYEDARCHIVE_CORPUS)")
        let files = Set((Corpus.ambiguous + Corpus.unreadableByPlistlib).map(\.relativePath))
        #expect(files == Set(Self.decisions.keys))
        // SOURCES.md counts; more files are welcome, fewer means the corpus was not found whole.
        #expect(Corpus.validBinary.count >= 239)
        #expect(Corpus.validXML.count >= 14)
        #expect(Corpus.invalid.count >= 129)
        #expect(Corpus.invalidKeyed.count >= 15)
        #expect(Corpus.invalidKeyedXML.count >= 6)
        for file in Corpus.validBinary + Corpus.invalidKeyed + Corpus.validXML + Corpus.invalidKeyedXML {
            #expect(file.hasOracle, "\(file) has no oracle")
        }
    }
}
