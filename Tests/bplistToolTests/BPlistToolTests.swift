// Tests/bplistToolTests/BPlistToolTests.swift - The `bplist` command-line contract, run as a subprocess.
//
// Exit codes and stderr formats are what scripts rely on:
//   to-json FILE            0 + canonical JSON on stdout | 1 + "error: CODE at byte N…" on stderr
//   from-json FILE -o OUT   0 + bplist00 (or zlib) in OUT | 1 + "error: …"
//   validate FILE…          0 | 1 + one "FILE: error: CODE at byte N: detail" line per bad file
//   inspect FILE            0 + summary | 1 + "error: …"
//   usage errors            64 (ArgumentParser)

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite("bplist tool", .timeLimit(.minutes(10)))
struct BPlistToolTests {
    /// One of every kind of value, with the awkward cases of the canonical JSON form.
    static let sample: PlistValue = [
        "string": "plain",
        "unicode": "naïve ☃ 𝄞 \"quoted\" \\ \n\t\u{7F}",
        "int": 42,
        "negative": -7,
        "int128": .integer(PlistInteger(Int128(UInt64.max) * 1000)),
        "real": 0.1,
        "negativeZero": .real(-0.0),
        "nan": .real(.nan),
        "big": 1e16,
        "date": .date(Date(timeIntervalSinceReferenceDate: 1_000_000.25)),
        "data": .data(Data([0, 1, 2, 250, 255])),
        "uid": .uid(7),
        "null": .null,
        "bool": true,
        "array": [1, "two", [3.5]],
        "set": .set(["a", "b"]),
        "intKeys": .dictionary(PlistDictionary([(.integer(1), "one"), (.integer(2), "two")])),
        "$real": "not a tag, because the dictionary has other keys",
        "empty": [:],
        "emptyArray": [],
    ]

    /// Splits a `FILE: error: CODE at byte N: detail` line; nil when the line has another shape.
    static func parseErrorLine(_ line: String) -> (file: String, code: String, offset: Int)? {
        guard
            let m = line.wholeMatch(
                of: #/(?<file>.+): error: (?<code>[A-Za-z]+) at byte (?<offset>\d+): (?<detail>.+)/#),
            let offset = Int(m.offset)
        else { return nil }
        return (String(m.file), String(m.code), offset)
    }

    // MARK: to-json

    @Test func toJSONPrintsCanonicalJSON() throws {
        let dir = try TempDir()
        let path = try dir.write(BinaryPlistWriter().write(Self.sample), "sample.bplist")
        let r = try Tool.run(["to-json", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(try r.stdoutText == Self.sample.canonicalJSON())
        #expect(r.stdout.allSatisfy { $0 < 0x80 }, "canonical JSON is ASCII")
        #expect(try PlistValue(canonicalJSONBytes: r.stdout) == Self.sample)
    }

    @Test func toJSONExactText() throws {
        let dir = try TempDir()
        let value: PlistValue = ["b": [1, .real(0.5)], "a": .date(Date(timeIntervalSinceReferenceDate: 0))]
        let path = try dir.write(BinaryPlistWriter().write(value), "x.bplist")
        let r = try Tool.run(["to-json", path])
        let expected = """
            {
             "a": {
              "$date": "2001-01-01T00:00:00Z"
             },
             "b": [
              1,
              {
               "$real": "0.5"
              }
             ]
            }

            """
        #expect(r.stdoutText == expected)
    }

    @Test func toJSONReadsStdinAndCompressedInput() throws {
        let plain = try BinaryPlistWriter().write(Self.sample)
        let r1 = try Tool.run(["to-json", "-"], stdin: plain)
        #expect(r1.status == 0)
        #expect(try r1.stdoutText == Self.sample.canonicalJSON())

        let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 9).write(Self.sample)
        let dir = try TempDir()
        let r2 = try Tool.run(["to-json", try dir.write(packed, "packed.bplist.z")])
        #expect(r2.status == 0)
        #expect(try r2.stdoutText == Self.sample.canonicalJSON())
    }

    @Test func toJSONReadsXML() throws {
        let value: PlistValue = ["name": "Ada", "list": [1, .real(2.5), true], "uid": .uid(3)]
        let dir = try TempDir()
        let path = try dir.write(XMLPlist.encode(value), "x.plist")
        let r = try Tool.run(["to-json", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try r.stdoutText == value.canonicalJSON())
    }

    @Test func toJSONErrorsAreOneLineWithAnOffset() throws {
        let dir = try TempDir()
        let garbage = try dir.write(Data("not a plist at all, just text".utf8), "garbage")
        let r = try Tool.run(["to-json", garbage])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.hasPrefix("error: notAPropertyList at byte 0"))

        var truncated = try BinaryPlistWriter().write(Self.sample)
        truncated.removeLast(5)
        let r2 = try Tool.run(["to-json", try dir.write(truncated, "truncated")])
        #expect(r2.status == 1)
        #expect(r2.stderrLines.count == 1)
        #expect(r2.stderr.wholeMatch(of: #/error: [A-Za-z]+ at byte \d+.*\n/#) != nil, "\(r2.stderr)")

        let missing = try Tool.run(["to-json", dir.file("does-not-exist").path])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.count == 1)
        #expect(missing.stderr.hasPrefix("error: "))
    }

    // MARK: from-json

    @Test func fromJSONWritesBinaryAndZlib() throws {
        let dir = try TempDir()
        let json = try dir.write(Data(Self.sample.canonicalJSON().utf8), "in.json")
        let out = dir.file("out.bplist").path
        let r = try Tool.run(["from-json", json, "-o", out])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPlistDocument(bytes).value() == Self.sample)

        let packedPath = dir.file("out.bplist.z").path
        let r2 = try Tool.run(["from-json", json, "-o", packedPath, "--compress", "zlib", "--level", "9"])
        #expect(r2.status == 0)
        let packed = try Data(contentsOf: URL(fileURLWithPath: packedPath))
        #expect(PlistCompression.detect(packed) == .zlib)
        let doc = try BinaryPlistDocument(packed)
        #expect(doc.compression == .zlib)
        #expect(try doc.value() == Self.sample)

        // stdin in, stdout out.
        let r3 = try Tool.run(["from-json", "-", "-o", "-"], stdin: Data(Self.sample.canonicalJSON().utf8))
        #expect(r3.status == 0)
        #expect(try BinaryPlistDocument(r3.stdout).value() == Self.sample)
    }

    @Test func fromJSONRoundTripsToJSON() throws {
        let dir = try TempDir()
        let original = try dir.write(BinaryPlistWriter().write(Self.sample), "a.bplist")
        let json = try Tool.run(["to-json", original])
        let back = dir.file("b.bplist").path
        let r = try Tool.run(["from-json", "-", "-o", back], stdin: json.stdout)
        #expect(r.status == 0)
        let again = try Tool.run(["to-json", back])
        #expect(again.stdout == json.stdout)
    }

    @Test func fromJSONSyntaxErrorHasOffsetLineAndColumn() throws {
        let dir = try TempDir()
        let bad = try dir.write(Data("{\n \"a\": [1, 2,]\n}".utf8), "bad.json")
        let out = dir.file("never.bplist").path
        let r = try Tool.run(["from-json", bad, "-o", out])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.hasPrefix("error: syntax at byte 14: line 2, column 13"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func fromJSONUsageErrors() throws {
        let dir = try TempDir()
        let json = try dir.write(Data("1".utf8), "one.json")
        // --level without --compress zlib, and a missing -o: ArgumentParser's usage exit code.
        #expect(try Tool.run(["from-json", json, "-o", dir.file("x").path, "--level", "3"]).status == 64)
        #expect(try Tool.run(["from-json", json]).status == 64)
        #expect(try Tool.run(["from-json", json, "-o", dir.file("x").path, "--compress", "lz4"]).status == 64)
    }

    // MARK: validate

    @Test func validateAcceptsValidFiles() throws {
        let dir = try TempDir()
        let a = try dir.write(BinaryPlistWriter().write(Self.sample), "a.bplist")
        let b = try dir.write(BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(["x": 1]), "b.bplist")
        let r = try Tool.run(["validate", a, b])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
    }

    @Test func validateReportsOneLinePerBadFile() throws {
        let dir = try TempDir()
        let good = try dir.write(BinaryPlistWriter().write(Self.sample), "good.bplist")
        let text = try dir.write(Data("hello".utf8), "text.bplist")
        // A one-element array whose element is itself: a cycle.
        let cycle = try dir.write(
            Data(
                [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xA1, 0x00, 0x08]
                    + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
                    + [0, 0, 0, 0, 0, 0, 0, 10]),
            "cycle.bplist")
        let missing = dir.file("missing.bplist").path
        // "hello" is a valid OpenStep property list (a string): --binary requires the binary form.
        let r = try Tool.run(["validate", "--binary", good, text, cycle, missing])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let lines = r.stderrLines
        #expect(lines.count == 3, "\(r.stderr)")
        var byFile: [String: (code: String, offset: Int)] = [:]
        for line in lines {
            let m = try #require(Self.parseErrorLine(line), "bad stderr line: \(line)")
            byFile[m.file] = (m.code, m.offset)
        }
        #expect(byFile[text]?.code == "notABinaryPlist")
        #expect(byFile[cycle]?.code == "cycle")
        #expect(byFile[cycle]?.offset == 8)
        #expect(byFile[missing]?.code == "io")
        #expect(byFile[good] == nil)
        let anyForm = try Tool.run(["validate", "--verbose", good, text])
        #expect(anyForm.status == 0, "\(anyForm.stderr)")
        #expect(anyForm.stdoutText == "\(good): OK (binary)\n\(text): OK (OpenStep text)\n")
    }

    @Test func validateTrailingBytes() throws {
        let dir = try TempDir()
        let plist = try BinaryPlistWriter().write(["k": "v"])
        let path = try dir.write(plist + Data("APPENDED".utf8), "appended.bplist")
        let strict = try Tool.run(["validate", path])
        #expect(strict.status == 1)
        let m = try #require(strict.stderrLines.first.flatMap(Self.parseErrorLine), "\(strict.stderr)")
        #expect(m.code == "trailingData")
        #expect(m.offset == plist.count)
        #expect(strict.stderrLines.count == 1)

        let lenient = try Tool.run(["validate", "--allow-trailing", path])
        #expect(lenient.status == 0)
        #expect(lenient.stderrLines.count == 1)
        #expect(lenient.stderr.hasPrefix("\(path): warning: trailingData at byte \(plist.count): 8 bytes"))
    }

    @Test func usageErrorKeepsExitCode64() throws {
        #expect(try Tool.run(["validate"]).status == 64)
        #expect(try Tool.run(["no-such-command"]).status == 64)
        #expect(try Tool.run(["--help"]).status == 0)
    }

    // MARK: inspect

    @Test func inspectSummarises() throws {
        let dir = try TempDir()
        let value: PlistValue = ["a": ["same", "same", "same"], "b": [[["deep"]]], "n": 1]
        let path = try dir.write(BinaryPlistWriter(deduplicate: false).write(value), "loose.bplist")
        let r = try Tool.run(["inspect", path])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdoutText
        for label in ["header:", "trailer:", "widths:", "objects:", "duplicates:", "depth:", "tree:", "envelope:"] {
            #expect(out.contains("\n" + label) || out.hasPrefix(label), "missing \(label) in\n\(out)")
        }
        #expect(out.contains("bplist00"))
        #expect(out.contains("3× \"same\""), "\(out)")
        #expect(out.contains("depth:       4"), "\(out)")
        #expect(out.contains("string (ASCII)"))

        let packed = try dir.write(BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(value), "packed")
        let r2 = try Tool.run(["inspect", packed])
        #expect(r2.status == 0)
        #expect(r2.stdoutText.contains("envelope:    zlib"))

        // "nope" is an OpenStep string: --binary requires the binary form.
        let bad = try Tool.run(["inspect", "--binary", try dir.write(Data("nope".utf8), "bad")])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: notABinaryPlist at byte 0"))
    }
}
