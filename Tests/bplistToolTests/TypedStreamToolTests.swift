// Tests/bplistToolTests/TypedStreamToolTests.swift - typedstream input: `unarchive` and `print` show
// it like a keyed archive, `inspect` summarises it, a typedstream in a data value is decoded in place.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing
import TypedStream

@Suite struct TypedStreamToolTests {
    typealias A = MessageBody.Attribute

    /// A message body with an attachment, a mention and a link.
    static let body = TypedStreamSamples.attributedBody(
        "\u{FFFC}hi Sam https://ex.test/x",
        runs: [
            (1, [(A.fileTransferGUID, .string("AT_0_GUID")), (A.partIndex, .int(0))]),
            (3, [(A.partIndex, .int(1))]),
            (3, [(A.partIndex, .int(1)), (A.mention, .string("+15550100"))]),
            (1, [(A.partIndex, .int(1))]),
            (17, [(A.partIndex, .int(1)), (A.link, .url("https://ex.test/x"))]),
        ], mutable: true)

    /// Two top-level groups; an object of an unknown class named twice; an NSArray.
    static var graph: Data {
        var w = TypedStreamWriter()
        let object = (number: 0, name: "NSObject", version: 0)
        w.beginGroup("i")
        w.integer(7)
        w.beginGroup("@@")
        w.beginObject([(1, "XWZThing", 3), object])
        w.beginGroup("i@")
        w.integer(42)
        w.beginObject([(2, "NSString", 1), object])
        w.beginGroup("+")
        w.unsharedString(Array("inner".utf8))
        w.endObject()
        w.endObject()
        w.beginObject([(3, "NSArray", 0), object])
        w.beginGroup("i")
        w.integer(2)
        w.beginGroup("@")
        w.objectReference(0)
        w.beginGroup("@")
        w.objectReference(1)
        w.endObject()
        return w.data
    }

    func write(_ data: Data, _ name: String, in dir: TempDir) throws -> String {
        let url = dir.file(name)
        try data.write(to: url)
        return url.path
    }

    @Test func unarchiveShowsAMessageBody() throws {
        let dir = try TempDir()
        let path = try write(TypedStreamToolTests.body, "body.typedstream", in: dir)
        let r = try Tool.run(["unarchive", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.hasPrefix("NSMutableAttributedString \"\u{FFFC}hi Sam https://ex.test/x\" {"))
        #expect(
            r.stdoutText.contains(
                "\"Sam\" => {__kIMMentionConfirmedMention: \"+15550100\", __kIMMessagePartAttributeName: 1}"))
        #expect(r.stdoutText.contains("__kIMLinkAttributeName: https://ex.test/x"))
        // print shows the same.
        let p = try Tool.run(["print", path])
        #expect(p.status == 0)
        #expect(p.stdoutText == r.stdoutText)
        // --json: the typed value and its runs.
        let j = try Tool.run(["unarchive", "--json", path])
        #expect(j.status == 0)
        let json = try PlistValue(canonicalJSONBytes: j.stdout)
        #expect(json["$class"] == .string("NSMutableAttributedString"))
        #expect(json["string"] == .string("\u{FFFC}hi Sam https://ex.test/x"))
        let runs = try #require(json["runs"]?.arrayValue)
        #expect(runs.map { $0["length"] } == [1, 3, 3, 1, 17])
        #expect(runs[2]["attributes"]?["__kIMMentionConfirmedMention"] == "+15550100")
        #expect(runs[4]["attributes"]?["__kIMLinkAttributeName"] == ["$url": "https://ex.test/x"])
    }

    @Test func unknownObjectsSharedObjectsAndGroups() throws {
        let dir = try TempDir()
        let path = try write(TypedStreamToolTests.graph, "graph.typedstream", in: dir)
        let r = try Tool.run(["unarchive", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdoutText == """
                {
                  "group 0 (i)" => 7
                  "group 1 (@@)" => [
                    0 => XWZThing #0 {
                      0 i: 42
                      1 @: "inner"
                    }
                    1 => [
                      0 => <ref #0 XWZThing>
                      1 => "inner"
                    ]
                  ]
                }

                """)
        let j = try Tool.run(["unarchive", "--json", path])
        let json = try PlistValue(canonicalJSONBytes: j.stdout)
        let group = try #require(json["group 1 (@@)"]?.arrayValue)
        #expect(group[0]["$class"] == .string("XWZThing"))
        #expect(group[0]["$id"] == .int(0))
        #expect(group[0]["0 i"] == .int(42))
        #expect(group[1].arrayValue?.first?["$ref"] == .int(0))
    }

    @Test func inspectSummarisesTheStream() throws {
        let dir = try TempDir()
        let path = try write(TypedStreamToolTests.body, "body.typedstream", in: dir)
        let r = try Tool.run(["inspect", path])
        #expect(r.status == 0, "\(r.stderr)")
        let text = r.stdoutText
        #expect(
            text.contains(
                "format:      typedstream (NSArchiver), streamer version 4, little-endian, system version 1000"))
        #expect(text.contains("groups:      1 at the top level"))
        #expect(text.contains("NSMutableAttributedString v0 : NSAttributedString : NSObject"))
        #expect(text.contains("NSString v1 : NSObject"))
        #expect(text.contains("root:        NSMutableAttributedString"))
        let big = try write(TypedStreamWriter(byteOrder: .bigEndian).data, "empty.typedstream", in: dir)
        let e = try Tool.run(["inspect", big])
        #expect(e.status == 0)
        #expect(e.stdoutText.contains("big-endian"))
        #expect(e.stdoutText.contains("groups:      0 at the top level"))
    }

    @Test func aTypedStreamInAPropertyListIsDecodedInPlace() throws {
        // Messages keeps the history of an edited message as a plist whose entries hold bodies.
        let summary: PlistValue = [
            "ec": ["0": [["t": .data(TypedStreamToolTests.body), "d": 700_000_000.0] as PlistValue] as PlistValue]
        ]
        let dir = try TempDir()
        let path = try write(try BinaryPlistWriter().write(summary), "summary.plist", in: dir)
        let r = try Tool.run(["print", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.contains("\"$nested\" => {"))
        #expect(r.stdoutText.contains("\"$class\" => \"NSMutableAttributedString\""))
        let raw = try Tool.run(["print", "--no-expand-nested", path])
        #expect(raw.stdoutText.contains("{length = \(TypedStreamToolTests.body.count), bytes = 0x040b7374"))
        // A keyed archive with the body in a data field.
        let holder = ArchivedInstance(className: "XWZEdit", fields: ["body": .data(TypedStreamToolTests.body)])
        let keyed = try write(
            try KeyedArchiver.archivedData(withRootObject: AnyArchived.object(holder)), "edit.plist", in: dir)
        let u = try Tool.run(["unarchive", keyed])
        #expect(u.status == 0, "\(u.stderr)")
        #expect(u.stdoutText.contains("\"$class\" => \"NSMutableAttributedString\""))
        // One that does not read stays data, with a warning.
        var broken = TypedStreamToolTests.body
        broken.removeLast(5)
        let bad = try write(try BinaryPlistWriter().write(["t": .data(broken)]), "bad.plist", in: dir)
        let b = try Tool.run(["print", bad])
        #expect(b.status == 0)
        #expect(b.stdoutText.contains("{length = \(broken.count)"))
        #expect(b.stderr.contains("warning: typedstream at t: truncated"))
    }

    @Test func aMalformedStreamIsOneErrorLineWithItsOffset() throws {
        let dir = try TempDir()
        var b = [UInt8](TypedStreamToolTests.graph)
        b[19] = 0x80  // a reserved tag where the first group's value is
        let path = try write(Data(b), "bad.typedstream", in: dir)
        for command in ["unarchive", "print", "inspect"] {
            let r = try Tool.run([command, path])
            #expect(r.status == 1)
            #expect(
                r.stderrLines == ["error: unexpectedTag at byte 19: tag 0x80 (reserved) where an integer is expected"],
                "\(command)")
        }
    }
}
