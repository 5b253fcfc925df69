// Tests/bplistToolTests/StreamedOutputTests.swift - The commands that write an expanded form write it as
// they walk: outputs of many buffers are the library's whole outputs byte for byte, files are still
// replaced atomically, and a failed write is an error line, not a crash.

import Foundation
import PropertyList
import Testing

@Suite("bplist streamed output", .timeLimit(.minutes(10)))
struct StreamedOutputTests {
    /// About 1.7 MB of canonical JSON (some 26 buffers of 64 KiB): strings needing escapes, numbers,
    /// data, dates, and one sub-tree referenced 200 times (written 200 times).
    static let value: PlistValue = {
        let shared: PlistValue = ["kind": "shared & <escaped> \"text\"", "bytes": .data(Data(0..<255))]
        let records: [PlistValue] = (0..<6000).map { i in
            [
                "id": .int(i), "name": .string("user-\(i) é€😀\n"), "score": .real(Double(i) / 7),
                "when": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400)),
                "blob": .data(Data((0..<40).map { UInt8(truncatingIfNeeded: $0 &* i) })),
            ]
        }
        return ["records": .array(records), "shared": .array(Array(repeating: shared, count: 200))]
    }()

    /// The same shape with strings and data only (OpenStep's kinds).
    static let textValue: PlistValue = {
        let records: [PlistValue] = (0..<8000).map { i in
            [
                "name": .string("user \(i) \"quoted\"\t"),
                "blob": .data(Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &+ i) })),
            ]
        }
        return ["records": .array(records)]
    }()

    @Test("to-json, convert --to json|xml|openstep and get --json write the library's whole output, byte for byte")
    func largeOutputsAreTheWholeOutputs() throws {
        let dir = try TempDir()
        let path = try BPlistCommandsTests.write(Self.value, "big.bplist", in: dir)
        let json = try Self.value.canonicalJSON()
        #expect(json.utf8.count > 1_500_000, "spans many 64 KiB buffers")

        let toJSON = try Tool.run(["to-json", path])
        #expect(toJSON.status == 0 && toJSON.stderr.isEmpty, "\(toJSON.stderr)")
        #expect(toJSON.stdout == Data(json.utf8))

        let convertJSON = try Tool.run(["convert", path, "--to", "json"])
        #expect(convertJSON.status == 0)
        #expect(convertJSON.stdout == Data(json.utf8))

        let xml = try Tool.run(["convert", path, "--to", "xml"])
        #expect(xml.status == 0 && xml.stderr.isEmpty, "\(xml.stderr)")
        #expect(xml.stdout == (try XMLPlist.encode(Self.value)))

        let get = try Tool.run(["get", path, "records", "--json"])
        #expect(get.status == 0)
        #expect(get.stdout == Data(try Self.value["records"].map { try $0.canonicalJSON() }?.utf8 ?? "".utf8))

        let textPath = try BPlistCommandsTests.write(Self.textValue, "text.bplist", in: dir)
        let openStep = try Tool.run(["convert", textPath, "--to", "openstep"])
        #expect(openStep.status == 0 && openStep.stderr.isEmpty, "\(openStep.stderr)")
        let expected = try OpenStepPlist.encode(Self.textValue)
        #expect(expected.count > 1_000_000)
        #expect(openStep.stdout == expected)
    }

    @Test("print writes every line of a tree far larger than its buffer")
    func printWritesTheWholeTree() throws {
        let dir = try TempDir()
        let strings: [PlistValue] = (0..<40_000).map { .string("line \($0) of the tree, padded to be longer") }
        let path = try BPlistCommandsTests.write(.array(strings), "lines.bplist", in: dir)
        let r = try Tool.run(["print", "--no-color", path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(r.stdout.count > 1_500_000)
        #expect(lines.count == 40_000 + 3, "[, 40,000 elements, ], and the empty string after the last newline")
        #expect(lines.first == "[" && lines.dropLast().last == "]" && lines.last == "")
        #expect(lines[1] == "  0 => \"line 0 of the tree, padded to be longer\"")
        #expect(lines[40_000] == "  39999 => \"line 39999 of the tree, padded to be longer\"")
    }

    @Test("unarchive --json of a large archive is the canonical JSON of what it prints")
    func unarchiveJSONIsCanonical() throws {
        let dir = try TempDir()
        // An NSArray of 20,000 strings: $objects = [$null, array, class, strings...].
        let count = 20_000
        var objects: [PlistValue] = [
            "$null",
            ["$class": .uid(2), "NS.objects": .array((0..<count).map { .uid(UInt64($0 + 3)) })],
            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ]
        objects += (0..<count).map { .string("element \($0) with some length to it") }
        let archive: PlistValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        let path = try BPlistCommandsTests.write(archive, "big.archive", in: dir)
        let r = try Tool.run(["unarchive", "--json", path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.count > 600_000)
        let expected: PlistValue = ["root": .array((0..<count).map { .string("element \($0) with some length to it") })]
        #expect(r.stdoutText == (try expected.canonicalJSON()))
    }

    @Test("convert -o replaces a file whole, leaves it untouched on a refusal, and leaves no temporary file")
    func fileOutputIsAtomic() throws {
        let dir = try TempDir()
        let input = try BPlistCommandsTests.write(Self.value, "big.bplist", in: dir)
        let output = dir.file("out.xml").path
        try Data("previous contents\n".utf8).write(to: URL(fileURLWithPath: output))

        // null has no XML form: refused before the first byte, so the old file stays.
        let refused = try BPlistCommandsTests.write(["records": [1, 2, .null]], "null.bplist", in: dir)
        let r = try Tool.run(["convert", refused, "--to", "xml", "-o", output])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("error: unencodable"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("previous contents\n".utf8))

        let ok = try Tool.run(["convert", input, "--to", "xml", "-o", output])
        #expect(ok.status == 0 && ok.stdout.isEmpty && ok.stderr.isEmpty, "\(ok.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == (try XMLPlist.encode(Self.value)))

        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        #expect(names == ["big.bplist", "null.bplist", "out.xml"], "no temporary file left: \(names)")
    }

    @Test("-o in a missing directory is one error line, and nothing is created")
    func unwritableDestination() throws {
        let dir = try TempDir()
        let input = try BPlistCommandsTests.write(["a": "b"], "in.bplist", in: dir)
        let output = dir.file("missing/out.json").path
        let r = try Tool.run(["convert", input, "--to", "json", "-o", output])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.hasPrefix("error: cannot write '\(output)'"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("missing").path))
    }

    @Test(
        "a failed write to standard output (a full device) is one error line and status 1, not a crash",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullStandardOutput() throws {
        let dir = try TempDir()
        let path = try BPlistCommandsTests.write(Self.value, "big.bplist", in: dir)
        for args in [["to-json", path], ["convert", path, "--to", "xml"], ["print", "--no-color", path]] {
            let r = try Tool.run(args, stdoutPath: "/dev/full")
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderrLines.count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: cannot write standard output"), "\(args): \(r.stderr)")
        }
    }
}
