// Tests/bplistToolTests/TextFormatCommandTests.swift - The commands on every form the sniffer knows:
// UTF-16 XML, OpenStep text and .strings files, `convert --to openstep`, `--lenient-strings` on lone
// surrogates, and the error for input that is no property list.

import Foundation
import PropertyList
import Testing

@Suite("bplist text forms") struct TextFormatCommandTests {
    @Test func utf16XMLReadsInEveryCommand() throws {
        let dir = try TempDir()
        let xml = String(decoding: try XMLPlist.encode(["k": "é", "n": 1]), as: UTF8.self)
        let path = try dir.write(xml.data(using: .utf16) ?? Data(), "utf16.plist")
        let json = try Tool.run(["to-json", path])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdoutText == "{\n \"k\": \"\\u00e9\",\n \"n\": 1\n}\n")
        #expect(try Tool.run(["get", path, "k"]).status == 0)
        #expect(try Tool.run(["print", path]).status == 0)
    }

    @Test func convertToOpenStepAndBack() throws {
        let dir = try TempDir()
        let strings = try dir.write(Data("/* c */\n\"a\" = \"x y\";\nb = (1, <0f>);\n".utf8), "Localizable.strings")
        let r = try Tool.run(["convert", strings, "--to", "openstep"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == "{\n\ta = \"x y\";\n\tb = (\n\t\t1,\n\t\t<0f>\n\t);\n}\n")
        let back = try dir.write(r.stdout, "back.plist")
        let binary = try Tool.run(["convert", back, "--to", "binary", "-o", dir.file("out.bplist").path])
        #expect(binary.status == 0, "\(binary.stderr)")
        let value = try BinaryPlistDocument(Data(contentsOf: dir.file("out.bplist"))).value()
        #expect(value == ["a": "x y", "b": ["1", .data(Data([0x0F]))]])
        // An integer has no OpenStep form.
        let numbers = try dir.write(BinaryPlistWriter().write(["n": 1]), "n.bplist")
        let refused = try Tool.run(["convert", numbers, "--to", "openstep"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("unencodable"))
        #expect(refused.stderr.contains("the value at n (integer)"))
    }

    @Test func lenientStringsReadsLoneSurrogates() throws {
        var bytes = [UInt8](try BinaryPlistWriter().write(["k": "éx"]))
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == [0x00, 0xE9, 0x00, 0x78] })
        bytes[at] = 0xDC
        let dir = try TempDir()
        let path = try dir.write(Data(bytes), "lone.bplist")
        let strict = try Tool.run(["to-json", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("invalidString"))
        // Read as Apple's tools read it by default, with a warning naming the key path.
        let lenient = try Tool.run(["to-json", path])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdoutText == "{\n \"k\": \"\\ufffdx\"\n}\n")
        #expect(lenient.stderrLines.count == 1 && lenient.stderr.hasPrefix("warning: k: a lone UTF-16 surrogate"))
    }

    @Test func xmlOfControlCharactersIsRefusedByName() throws {
        let dir = try TempDir()
        let path = try dir.write(Data("{ a = \"x\\001\"; }".utf8), "ctl.plist")
        let r = try Tool.run(["convert", path, "--to", "xml"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("the string at \"a\" holds U+0001"), "\(r.stderr)")
    }
}
