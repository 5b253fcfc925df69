// Tests/bplistToolTests/UnarchiveStructuredJSONTests.swift - `bplist unarchive --json` renders every
// typed value as structure, nested values included (issue 29 point 9, issue 31 point 3): no `…`, no
// description standing for a value. Fixtures and expected JSON are written by hand.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing
@_spi(Internals) import TypedStream

@Suite struct UnarchiveStructuredJSONTests {
    static func classDescription(_ chain: [String]) -> PlistValue {
        ["$classname": .string(PlistString(chain[0])), "$classes": .array(chain.map { .string(PlistString($0)) })]
    }

    static func archive(_ objects: [PlistValue]) -> PlistValue {
        ["$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": .array(objects)]
    }

    /// A note whose body is an NSMutableAttributedString of two runs: the first with an NSColor, a
    /// dictionary holding a dictionary holding an array, and an object of the archive (also the
    /// note's owner); the second with a Messages one-time-code dictionary. The colour is also the
    /// note's tint.
    static let note: PlistValue = archive([
        "$null",
        ["$class": .uid(2), "body": .uid(3), "tint": .uid(12), "owner": .uid(10)],
        classDescription(["XWZNote", "NSObject"]),
        ["$class": .uid(4), "NSString": .uid(5), "NSAttributes": .uid(6), "NSAttributeInfo": .uid(7)],
        classDescription(["NSMutableAttributedString", "NSAttributedString", "NSObject"]),
        "Hi you",
        ["$class": .uid(8), "NS.objects": [.uid(9), .uid(16)]],
        .data(Data([3, 0, 3, 1])),  // runs: 3 units of dictionary 0, 3 units of dictionary 1
        classDescription(["NSArray", "NSObject"]),
        [
            "$class": .uid(18), "NS.keys": [.uid(19), .uid(20), .uid(21)],
            "NS.objects": [.uid(12), .uid(13), .uid(10)],
        ],
        ["$class": .uid(11), "blur": 2],
        classDescription(["XWZShadow", "NSObject"]),
        ["$class": .uid(22), "NSColorSpace": 2, "NSRGB": .data(Data("1 0 0.5\0".utf8))],
        ["$class": .uid(18), "NS.keys": [.uid(23), .uid(24)], "NS.objects": [.uid(25), .uid(14)]],
        ["$class": .uid(18), "NS.keys": [.uid(26), .uid(27)], "NS.objects": [.uid(28), .uid(15)]],
        ["$class": .uid(8), "NS.objects": [.uid(29), .uid(30)]],
        ["$class": .uid(18), "NS.keys": [.uid(31)], "NS.objects": [.uid(17)]],
        ["$class": .uid(18), "NS.keys": [.uid(32), .uid(33)], "NS.objects": [.uid(25), .uid(25)]],
        classDescription(["NSDictionary", "NSObject"]),
        "NSColor", "XWZLink", "XWZShadow",
        classDescription(["NSColor", "NSObject"]),
        "code", "nested", "1234", "depth", "list", 2, "a", .real(7.5),
        "__kIMOneTimeCodeAttributeName", "displayCode", "code",
    ])

    @Test func aKeyedAttributedStringIsStructureAllTheWayDown() throws {
        let dir = try TempDir()
        let path = try dir.write(BinaryPlistWriter().write(Self.note), "note.archive")
        let r = try Tool.run(["unarchive", "--json", path])
        #expect(r.status == 0, "\(r.stderr)")
        let color =
            #"{"$class": "NSColor", "colorSpace": 2, "components": [{"$real": "1.0"}, {"$real": "0.0"}, {"$real": "0.5"}]}"#
        let expected = try PlistValue(
            canonicalJSON: """
                {"root": {
                  "$class": "XWZNote", "$id": 1,
                  "body": {
                    "$class": "NSMutableAttributedString",
                    "string": "Hi you",
                    "runs": [
                      {"location": 0, "length": 3, "attributes": {
                        "NSColor": \(color),
                        "XWZLink": {"code": "1234", "nested": {"depth": 2, "list": ["a", {"$real": "7.5"}]}},
                        "XWZShadow": {"$class": "XWZShadow", "$id": 10, "blur": 2}
                      }},
                      {"location": 3, "length": 3, "attributes": {
                        "__kIMOneTimeCodeAttributeName": {"code": "1234", "displayCode": "1234"}
                      }}
                    ]
                  },
                  "tint": \(color),
                  "owner": {"$ref": 10, "$class": "XWZShadow"}
                }}
                """)
        let json = try PlistValue(canonicalJSONBytes: r.stdout)
        #expect(json == expected, "\(r.stdoutText)")
        #expect(!r.stdoutText.contains("…") && !r.stdoutText.contains("$value"), "\(r.stdoutText)")
        // The text form keeps its one-line descriptions.
        let text = try Tool.run(["unarchive", "--no-color", path]).stdoutText
        #expect(text.contains("tint: NSColor device RGB 1 0 0.5"), "\(text)")
        #expect(text.contains("\"you\" => {__kIMOneTimeCodeAttributeName: "), "\(text)")
    }

    /// A Messages body (typedstream): the string, and each run's range and attributes as structure.
    @Test func aTypedStreamMessageBodyIsStructure() throws {
        typealias A = MessageBody.Attribute
        let body = TypedStreamSamples.attributedBody(
            "hi Sam",
            runs: [
                (3, [(A.partIndex, .int(0))]),
                (3, [(A.partIndex, .int(0)), (A.mention, .string("+15550100")), (A.link, .url("https://ex.test/x"))]),
            ], mutable: true)
        let dir = try TempDir()
        let r = try Tool.run(["unarchive", "--json", try dir.write(body, "body.typedstream")])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try PlistValue(
            canonicalJSON: """
                {"$class": "NSMutableAttributedString", "string": "hi Sam", "runs": [
                  {"location": 0, "length": 3, "attributes": {"__kIMMessagePartAttributeName": 0}},
                  {"location": 3, "length": 3, "attributes": {
                    "__kIMMessagePartAttributeName": 0,
                    "__kIMMentionConfirmedMention": "+15550100",
                    "__kIMLinkAttributeName": {"$url": "https://ex.test/x"}
                  }}
                ]}
                """)
        #expect(try PlistValue(canonicalJSONBytes: r.stdout) == expected, "\(r.stdoutText)")
    }

    /// An attributed string whose attribute holds an NSArray holding the next one twice, 40 levels
    /// deep: a typed value of 2^40 values in a few hundred bytes. `--json` refuses it at once.
    @Test func sharedValuesInsideATypedValueCannotExplode() throws {
        var w = TypedStreamWriter()
        let object = (number: 0, name: "NSObject", version: 0)
        let string = [(number: 1, name: "NSString", version: 1), object]
        func stringObject(_ s: String) {
            w.beginObject(string)
            w.beginGroup("+")
            w.unsharedString(Array(s.utf8))
            w.endObject()
        }
        w.beginGroup("@")
        w.beginObject([(2, "NSAttributedString", 0), object])
        w.beginGroup("@")
        stringObject("boom")
        w.beginGroup("iI")
        w.integer(1)
        w.integer(4)
        w.beginGroup("@")
        w.beginObject([(3, "NSDictionary", 0), object])
        w.beginGroup("i")
        w.integer(1)
        w.beginGroup("@")
        stringObject("k")
        var arrays: [Int] = []
        for _ in 0..<40 {
            w.beginGroup("@")
            arrays.append(w.beginObject([(4, "NSArray", 0), object]))
            w.beginGroup("i")
            w.integer(2)
        }
        w.beginGroup("@")
        stringObject("leaf")
        w.beginGroup("@")
        w.objectReference(arrays[39] + 1)  // the leaf string
        for level in (0..<40).reversed() {
            w.endObject()
            if level > 0 {
                w.beginGroup("@")
                w.objectReference(arrays[level])
            }
        }
        w.endObject()
        w.endObject()
        let dir = try TempDir()
        let path = try dir.write(w.data, "boom.typedstream")
        let start = ContinuousClock.now
        let r = try Tool.run(["unarchive", "--json", path])
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(r.status == 1, "\(r.stdoutText.prefix(200))")
        #expect(r.stderr.contains("limitExceeded"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        // The text form shows it in a line, elided.
        let text = try Tool.run(["unarchive", path])
        #expect(text.status == 0, "\(text.stderr)")
    }
}
