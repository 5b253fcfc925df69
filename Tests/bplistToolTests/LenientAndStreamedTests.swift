// Tests/bplistToolTests/LenientAndStreamedTests.swift - Reading what Apple's tools read (lone UTF-16
// surrogates, XML dates past their range) unless --strict; the text conversions of binary files, which
// walk the document instead of decoding it, write what the decoded value writes; plain JSON styles.

import Foundation
import PropertyList
import Testing

@Suite("lenient reading and streamed conversions", .timeLimit(.minutes(10)))
struct LenientAndStreamedTests {
    /// A binary plist whose string at `outer.inner.1` holds a lone high surrogate before "x".
    static func loneSurrogateFile() throws -> Data {
        var bytes = [UInt8](try BinaryPlistWriter().write(["outer": ["inner": ["ok", "éx"]]]))
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == [0x00, 0xE9, 0x00, 0x78] })
        bytes[at] = 0xD8
        return Data(bytes)
    }

    @Test(
        "a lone surrogate: read as U+FFFD with a warning naming its key path; --strict refuses",
        arguments: [
            ["to-json"], ["print", "--no-color"], ["convert", "--to", "xml"], ["get", "--json", "_", "outer"],
            ["set", "_", "k", "--string", "v", "-o", "-"], ["plutil", "-p"],
        ])
    func loneSurrogates(_ command: [String]) throws {
        let dir = try TempDir()
        let path = try dir.write(try Self.loneSurrogateFile(), "lone.bplist")
        var args = command.contains("_") ? command.map { $0 == "_" ? path : $0 } : command + [path]
        if command.first == "set" { args = ["set", path, "k", "--string", "v", "-o", "-"] }
        let lenient = try Tool.run(args)
        #expect(lenient.status == 0, "\(args): \(lenient.stderr)")
        #expect(
            lenient.stderr.contains("warning: outer.inner.1: a lone UTF-16 surrogate"), "\(args): \(lenient.stderr)")
        if command.first == "to-json" { #expect(lenient.stdoutText.contains("\\ufffdx")) }
        guard command.first != "plutil" else { return }
        let strictArgs = args.count > 1 ? [args[0], "--strict"] + args.dropFirst() : args
        let strict = try Tool.run(Array(strictArgs))
        #expect(strict.status == 1, "\(strictArgs)")
        #expect(strict.stderr.contains("invalidString"), "\(strict.stderr)")
    }

    @Test("XML dates past their range count on by default, as CoreFoundation reads them; --strict refuses")
    func xmlDates() throws {
        let dir = try TempDir()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>\
            <date>2020-13-01T00:00:00Z</date><date>2020-02-30T24:00:60Z</date><date>12345-01-01T00:00:00Z</date>\
            <date>-0001-01-01T00:00:00Z</date></array></plist>
            """
        let path = try dir.write(Data(xml.utf8), "d.plist")
        let r = try Tool.run(["to-json", "--dates", "seconds", path])
        #expect(r.status == 0, "\(r.stderr)")
        // 2021-01-01, 2020-03-02T00:01:00 (Feb 30 = Mar 1, 24:00 the next day, second 60 the next
        // minute), year 12345 and year -1 (seconds since 1970), as the toolchain's plutil reads them.
        let expected: [Double] = [1_609_459_200, 1_583_107_260, 327_403_382_400, -62_198_755_200]
        let parsed = try JSONSerialization.jsonObject(with: r.stdout) as? [Double]
        #expect(parsed == expected)
        let strict = try Tool.run(["to-json", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("out of range"))
    }

    /// A value with every kind the text forms hold, and sharing.
    static let sample: PlistValue = {
        let shared: PlistValue = ["s": "shared", "n": [1, 2]]
        return [
            "a": shared, "b": shared, "r": 1.5, "d": .date(Date(timeIntervalSinceReferenceDate: 12)),
            "data": .data(Data([0, 1, 2, 254])), "u": "Zürich 🎉", "list": [true, false, 0, -1, "x"],
        ]
    }()

    @Test(
        "to-json, convert, print and get --json of a binary file (walked in place) write what the decoded value writes")
    func streamedEqualsDecoded() throws {
        let dir = try TempDir()
        let binary = try dir.write(try BinaryPlistWriter().write(Self.sample), "s.bplist")
        // The same value as XML (entries in the same order): read by decoding, never walked.
        let json = try dir.write(try XMLPlist.encode(Self.sample), "s.xml")
        let commands: [[String]] = [
            ["to-json"], ["to-json", "--dates", "iso8601", "--data", "base64"], ["convert", "--to", "xml"],
            ["convert", "--to", "json", "--dates", "seconds"], ["print", "--no-color"], ["get", "--json", "a"],
            ["get", "--no-color", "b"], ["plutil", "-p"], ["plutil", "-convert", "json", "-r", "-o", "-"],
            ["plutil", "-convert", "xml1", "-o", "-"],
        ]
        for command in commands {
            let isGet = command.first == "get"
            let a = try Tool.run(isGet ? [command[0]] + [binary] + command.dropFirst() : command + [binary])
            let b = try Tool.run(isGet ? [command[0]] + [json] + command.dropFirst() : command + [json])
            #expect(a.status == 0, "\(command): \(a.stderr)")
            #expect(a.stdout == b.stdout, "\(command)")
        }
    }

    @Test("plain JSON styles: RFC 3339 or Unix seconds for dates, base64 strings for data; from-json reads them back")
    func plainJSON() throws {
        let dir = try TempDir()
        let path = try dir.write(
            try BinaryPlistWriter().write(["d": .date(Date(timeIntervalSinceReferenceDate: 0)), "b": .data(Data([1]))]),
            "p.bplist")
        let iso = try Tool.run(["to-json", "--dates", "iso8601", "--data", "base64", path])
        #expect(iso.stdoutText == "{\n \"b\": \"AQ==\",\n \"d\": \"2001-01-01T00:00:00Z\"\n}\n")
        let seconds = try Tool.run(["convert", path, "--to", "json", "--dates", "seconds"])
        #expect(seconds.stdoutText.contains("\"d\": 978307200.0"))
        #expect(try Tool.run(["convert", path, "--to", "xml", "--dates", "iso8601"]).status == 64)
        // from-json reads the plain form (strings and numbers) as well as the canonical one.
        let plain = try dir.write(iso.stdout, "plain.json")
        let back = dir.file("back.bplist").path
        #expect(try Tool.run(["from-json", plain, "-o", back]).status == 0)
        #expect(
            try BinaryPlistDocument(try Data(contentsOf: URL(fileURLWithPath: back))).value() == [
                "b": "AQ==", "d": "2001-01-01T00:00:00Z",
            ])
    }

    @Test("get --raw prints what plutil -extract raw prints")
    func getRaw() throws {
        let dir = try TempDir()
        let value: PlistValue = [
            "t": true, "i": -3, "r": 1.5, "s": "text", "d": .date(Date(timeIntervalSinceReferenceDate: 599_627_045.75)),
            "b": .data(Data([0, 1, 0x0A, 0xFF])), "a": [1, 2, 3], "o": ["b": 1, "A": 2, "a10": 3, "a9": 4],
            "u": .uid(1),
        ]
        let path = try dir.write(try BinaryPlistWriter().write(value), "r.bplist")
        let expected = [
            "t": "true", "i": "-3", "r": "1.500000", "s": "text", "d": "2020-01-02T03:04:05Z", "b": "AAEK/w==",
            "a": "3",
            "o": "A\na9\na10\nb",
        ]
        for (key, text) in expected {
            #expect(try Tool.run(["get", "--raw", path, key]).stdoutText == text + "\n", "\(key)")
        }
        #expect(try Tool.run(["get", "--raw", "-n", path, "i"]).stdoutText == "-3")
        let uid = try Tool.run(["get", "--raw", path, "u"])
        #expect(uid.status == 1)
        #expect(uid.stderr.contains("no raw form"))
    }
}
