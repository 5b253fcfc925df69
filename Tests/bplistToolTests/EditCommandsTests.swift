// Tests/bplistToolTests/EditCommandsTests.swift - insert, replace, set, remove, append, edit, type and
// create, run as a subprocess: every form written back as it was read, key order, symbolic links and
// permissions kept, nothing written on an error.
//
//   insert|replace|set|remove|append FILE KP [value] [-o OUT] [-p]   0 | 1 + "error: CODE at key path KP: …"
//   edit FILE --set KP=V --remove KP …                                0 | 1 (nothing written)
//   type FILE KP [--expect T]                                         0 + type | 1
//   create FILE [--format F] [--root R] [--force]                     0 | 1 when FILE exists

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite("bplist editing commands", .timeLimit(.minutes(10)))
struct EditCommandsTests {
    static let info: PlistValue = [
        "CFBundleIdentifier": "com.example.app", "CFBundleVersion": "41",
        "UIRequiredDeviceCapabilities": ["arm64"], "zeta": 1, "alpha": 2,
    ]

    /// The string keys of the root dictionary of `path`'s file, in order.
    static func keys(_ path: String) throws -> [String] {
        try value(path).dictionaryValue?.keys.compactMap(\.stringValue) ?? []
    }

    static func value(_ path: String) throws -> PlistValue {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if try PlistSniffer.sniff(data) == .json { return try PlistValue(canonicalJSONBytes: data) }
        return try PlistValue.decode(from: data).value
    }

    /// `info` written in each form the tool writes back.
    static func files(in dir: TempDir) throws -> [(name: String, path: String)] {
        var out: [(String, String)] = []
        out.append(("binary", try dir.write(try BinaryPlistWriter().write(info), "a.bplist")))
        out.append(
            (
                "zlib",
                try dir.write(try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(info), "a.zlib")
            ))
        out.append(
            ("gzip", try dir.write(try BinaryPlistWriter(compression: .gzip, compressionLevel: 1).write(info), "a.gz")))
        out.append(("xml", try dir.write(try XMLPlist.encode(info), "a.xml")))
        out.append(("json", try dir.write(Data(try info.canonicalJSON().utf8), "a.json")))
        let strings = Data("\"CFBundleIdentifier\" = \"x\";\n\"zeta\" = \"1\";\n\"alpha\" = \"2\";\n".utf8)
        out.append(("strings", try dir.write(strings, "a.strings")))
        let openStep = Data("{ CFBundleIdentifier = x; zeta = 1; alpha = 2; }".utf8)
        out.append(("openstep", try dir.write(openStep, "a.plist")))
        return out
    }

    @Test("set, insert, remove in every form: the form is kept, and the key order")
    func everyFormKeepsFormAndOrder() throws {
        let dir = try TempDir()
        for (name, path) in try Self.files(in: dir) {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let envelope = PlistCompression.detect(before)
            let formBefore = try PlistSniffer.sniff(before)
            for args in [
                ["set", path, "zeta", "--string", "9"], ["insert", path, "new", "--string", "n"],
                ["remove", path, "alpha"],
            ] {
                let r = try Tool.run(args)
                #expect(r.status == 0, "\(name) \(args): \(r.stderr)")
            }
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(try PlistSniffer.sniff(after) == formBefore, "\(name): form changed")
            #expect(PlistCompression.detect(after) == envelope, "\(name): envelope changed")
            let keys = try Self.keys(path)
            var expected = ["CFBundleIdentifier", "CFBundleVersion", "UIRequiredDeviceCapabilities", "zeta", "new"]
            if name == "strings" || name == "openstep" {
                expected.removeAll { $0 == "CFBundleVersion" || $0 == "UIRequiredDeviceCapabilities" }
            }
            // Canonical JSON sorts its keys (by code point); every other form keeps the file's order.
            if name == "json" { expected.sort { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) } }
            #expect(keys == expected, "\(name): \(keys)")
            #expect(try Self.value(path)["zeta"] == "9")
            if name == "strings" {
                #expect(!String(decoding: after, as: UTF8.self).contains("{"), "a .strings file stays one")
            }
        }
    }

    @Test("binary keeps compact widths (3-byte references) when it had them")
    func compactWidthsKept() throws {
        let dir = try TempDir()
        let big = PlistValue.array((0..<70_000).map { .int($0) })
        let path = try dir.write(try BinaryPlistWriter(widths: .compact).write(big), "big.bplist")
        #expect(try BinaryPlistDocument(try Data(contentsOf: URL(fileURLWithPath: path))).trailer.objectRefSize == 3)
        #expect(try Tool.run(["append", path, "", "--integer", "1"]).status == 0)
        let document = try BinaryPlistDocument(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(document.trailer.objectRefSize == 3)
        #expect(try document.value().arrayValue?.count == 70_001)
    }

    @Test("a symbolic link survives, the target is replaced, its permissions are kept; no temporary file stays")
    func symlinkAndMode() throws {
        let dir = try TempDir()
        let target = try dir.write(try XMLPlist.encode(Self.info), "real.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let link = dir.file("link.plist").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.plist")
        let r = try Tool.run(["set", link, "CFBundleVersion", "--string", "42"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.plist")
        #expect(try Self.value(target)["CFBundleVersion"] == "42")
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["link.plist", "real.plist"])
    }

    @Test("an error writes nothing: the file is byte for byte the same, and no temporary file stays")
    func errorWritesNothing() throws {
        let dir = try TempDir()
        let path = try dir.write(try BinaryPlistWriter().write(Self.info), "a.bplist")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases: [([String], String)] = [
            (["insert", path, "zeta", "--integer", "1"], "error: alreadyExists at key path zeta: "),
            (["replace", path, "nope", "--integer", "1"], "error: keyNotFound at key path nope: "),
            (["remove", path, "zeta.x"], "error: notAContainer at key path zeta: "),
            (
                ["set", path, "UIRequiredDeviceCapabilities.5", "--string", "x"],
                "error: indexOutOfRange at key path UIRequiredDeviceCapabilities.5: "
            ),
            (["edit", path, "--set", "a=1", "--remove", "nope"], "error: keyNotFound at key path nope: "),
        ]
        for (args, prefix) in cases {
            let r = try Tool.run(args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix(prefix), "\(args): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["a.bplist"])
        // A usage error: a value that does not read.
        let usage = try Tool.run(["set", path, "zeta", "--integer", "12abc"])
        #expect(usage.status == 1)
        #expect(usage.stderr.contains("not an integer"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("typed values: each option makes its kind; negative numbers need no '='")
    func typedValues() throws {
        let dir = try TempDir()
        let path = try dir.write(try BinaryPlistWriter().write([:]), "t.bplist")
        let cases: [([String], PlistValue)] = [
            (["--string", "-x"], "-x"), (["--integer", "-5"], -5), (["--integer", "0x10"], 16),
            (["--integer", "170141183460469231731687303715884105727"], .integer(PlistInteger(Int128.max))),
            (["--real", "-1.5"], -1.5), (["--bool", "yes"], true), (["--bool", "0"], false),
            (["--date", "2020-01-02T03:04:05Z"], .date(Date(timeIntervalSinceReferenceDate: 599_627_045))),
            (["--data", "AAEC"], .data(Data([0, 1, 2]))),
            (["--json", "{\"a\": [1, 2.5, null]}"], ["a": [1, 2.5, .null]]),
            (["--xml", "<array><true/></array>"], [true]), (["--array"], []), (["--dictionary"], [:]),
        ]
        for (i, (option, expected)) in cases.enumerated() {
            let r = try Tool.run(["set", path, "k\(i)"] + option)
            #expect(r.status == 0, "\(option): \(r.stderr)")
            #expect(try Self.value(path)["k\(i)"] == expected, "\(option)")
        }
        let none = try Tool.run(["set", path, "x"])
        #expect(none.status == 64)
        let two = try Tool.run(["set", path, "x", "--string", "a", "--integer", "1"])
        #expect(two.status == 64)
    }

    @Test("append creates the array with -p; edit applies in order; -o writes elsewhere, -o - to stdout")
    func appendEditOutput() throws {
        let dir = try TempDir()
        let path = try dir.write(try XMLPlist.encode(Self.info), "a.xml")
        #expect(try Tool.run(["append", path, "UIRequiredDeviceCapabilities", "--string", "metal"]).status == 0)
        #expect(try Self.value(path)["UIRequiredDeviceCapabilities"] == ["arm64", "metal"])
        #expect(try Tool.run(["append", path, "groups.list", "--string", "g"]).status == 1)
        #expect(try Tool.run(["append", path, "groups.list", "--string", "g", "-p"]).status == 0)
        #expect(try Self.value(path)[keyPath: "groups.list"] == ["g"])
        let r = try Tool.run([
            "edit", path, "--set", "CFBundleVersion=42", "--set", "n:=[1, {\"$date\": \"2020-01-01T00:00:00Z\"}]",
            "--remove", "alpha", "--insert", "UIRequiredDeviceCapabilities.0=x86_64", "-p", "--set", "a.b.c:=true",
            "--set", "com\\.apple\\.x:=false",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let v = try Self.value(path)
        #expect(v["CFBundleVersion"] == "42")
        #expect(v[keyPath: "n.1"] == .date(Date(timeIntervalSinceReferenceDate: 599_529_600)))
        #expect(v["alpha"] == nil)
        #expect(v[keyPath: "UIRequiredDeviceCapabilities"] == ["x86_64", "arm64", "metal"])
        #expect(v[keyPath: "a.b.c"] == true)
        #expect(v[keyPath: ["com.apple.x"]] == false)
        let other = dir.file("out.xml").path
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Tool.run(["set", path, "zeta", "--integer", "7", "-o", other]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Self.value(other)["zeta"] == 7)
        let stdout = try Tool.run(["set", path, "zeta", "--integer", "8", "-o", "-"])
        #expect(stdout.stdoutText.hasPrefix("<?xml"))
        #expect(try XMLPlist.decode(stdout.stdout)["zeta"] == 8)
        // From standard input to standard output.
        let piped = try Tool.run(["set", "-", "k", "--bool", "true"], stdin: try BinaryPlistWriter().write([:]))
        #expect(try BinaryPlistDocument(piped.stdout).value() == ["k": true])
    }

    @Test("PlistBuddy paths and plutil escapes name the same keys")
    func keyPathForms() throws {
        let dir = try TempDir()
        let path = try dir.write(
            try XMLPlist.encode(["com.apple.security.app-sandbox": false, "a": ["b": [1, 2]]]), "e.plist")
        #expect(try Tool.run(["set", path, "com\\.apple\\.security\\.app-sandbox", "--bool", "true"]).status == 0)
        #expect(try Tool.run(["replace", path, ":a:b:1", "--integer", "5"]).status == 0)
        let v = try Self.value(path)
        #expect(v[keyPath: ["com.apple.security.app-sandbox"]] == true)
        #expect(v[keyPath: "a.b"] == [1, 5])
        #expect(try Tool.run(["get", path, ":a:b:1"]).stdoutText == "5\n")
    }

    @Test("type prints plutil's names; --expect fails on a mismatch")
    func typeCommand() throws {
        let dir = try TempDir()
        let path = try dir.write(
            try BinaryPlistWriter().write(["s": "x", "r": 1.5, "a": .set([1]), "u": .uid(3)]), "t.bplist")
        #expect(try Tool.run(["type", path, "s"]).stdoutText == "string\n")
        #expect(try Tool.run(["type", path, "r"]).stdoutText == "float\n")
        #expect(try Tool.run(["type", path, "a"]).stdoutText == "set\n")
        #expect(try Tool.run(["type", path, ""]).stdoutText == "dictionary\n")
        #expect(try Tool.run(["type", path, "r", "--expect", "real"]).status == 0)
        let mismatch = try Tool.run(["type", path, "u", "--expect", "integer"])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderrLines == ["error: the value at u is a uid, expected integer"])
        let missing = try Tool.run(["type", path, "nope"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: no value at nope: "))
        #expect(try Tool.run(["type", path, "s", "--expect", "nonsense"]).status == 64)
    }

    @Test("create: every form, refuses an existing file without --force")
    func createCommand() throws {
        let dir = try TempDir()
        for (format, expected) in [("binary", PlistFormat.binary), ("xml", .xml), ("openstep", .openStep)] {
            let path = dir.file("c.\(format)").path
            #expect(try Tool.run(["create", path, "--format", format]).status == 0)
            #expect(try PlistValue.decode(from: try Data(contentsOf: URL(fileURLWithPath: path))).format == expected)
            #expect(try PlistValue.decode(from: try Data(contentsOf: URL(fileURLWithPath: path))).value == [:])
        }
        let json = dir.file("c.json").path
        #expect(try Tool.run(["create", json, "--format", "json", "--root", "array"]).status == 0)
        #expect(try Self.value(json) == [])
        let again = try Tool.run(["create", json])
        #expect(again.status == 1)
        #expect(again.stderr.contains("exists"))
        #expect(try Tool.run(["create", json, "--force"]).status == 0)
        #expect(try Self.value(json) == [:])
    }

    @Test(
        "every editing verb's --help has examples",
        arguments: ["insert", "replace", "set", "remove", "append", "edit", "type", "create", "diff", "get", "plutil"])
    func helpHasExamples(_ verb: String) throws {
        let r = try Tool.run([verb, "--help"])
        #expect(r.status == 0)
        #expect(r.stdoutText.contains("Examples:"), "\(verb)")
        #expect(r.stdoutText.contains("bplist \(verb)") || r.stdoutText.contains("plutil"), "\(verb)")
    }
}

@Suite("writing to a file that is not a regular file", .timeLimit(.minutes(10)))
struct NonRegularOutputTests {
    @Test("-o a named pipe writes into it and leaves it a pipe (never renamed over)")
    func namedPipe() throws {
        let dir = try TempDir()
        let fifo = dir.file("pipe").path
        let mkfifo = try Tool.run([fifo], executable: URL(fileURLWithPath: "/usr/bin/mkfifo"))
        #expect(mkfifo.status == 0)
        let input = try dir.write(try BinaryPlistWriter().write(["k": "v"]), "in.bplist")
        let out = dir.file("out.txt")
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, out.path]
        try reader.run()
        let r = try Tool.run(["convert", input, "--to", "json", "-o", fifo])
        reader.waitUntilExit()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "{\n \"k\": \"v\"\n}\n")
        let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(type == .typeSocket || type == FileAttributeType(rawValue: "NSFileTypePipe") || type != .typeRegular)
    }
}
