// Tests/bplistToolTests/BPlistCommandsTests.swift - convert, print, get, unarchive and split, run
// as a subprocess on inputs the tests write themselves.
//
//   convert FILE --to binary|xml|json [-o OUT] [--compress zlib]   0 | 1 + "error: …" | 64
//   print FILE                      0 + tree | 1 + "error: CODE at byte N: …"
//   get FILE KEYPATH                0 + value | 1 + "error: no value at KEYPATH: why"
//   unarchive FILE [--json]         0 + object graph | 1 + "error: CODE at byte N …"
//   split FILE [-o DIR]             0 + one line per piece | 1 + "error: CODE at byte N: …"

import Foundation
import KeyedArchive
@_spi(Internals) import PropertyList
import Testing

/// An NSKeyedArchiver archive assembled by hand: `$objects[0]` is `$null`, one class description
/// per class, objects as dictionaries with `$class`.
struct ArchiveBuilder {
    var objects: [PlistValue] = ["$null"]
    private var classes: [String: UInt64] = [:]

    /// Appends a value to `$objects` and returns its UID.
    mutating func add(_ value: PlistValue) -> PlistValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// Reserves a slot, for objects that refer to themselves through others.
    mutating func reserve() -> PlistValue { add("placeholder") }

    mutating func classUID(_ name: String, chain: [String]) -> PlistValue {
        if let u = classes[name] { return .uid(u) }
        let description: PlistValue = [
            "$classname": .string(name),
            "$classes": .array((chain.isEmpty ? [name, "NSObject"] : chain).map { .string($0) }),
        ]
        guard case .uid(let u) = add(description) else { return .null }
        classes[name] = u
        return .uid(u)
    }

    /// An object of `className` with `fields`, stored at `slot` (a reserved UID) or appended.
    @discardableResult
    mutating func object(
        _ className: String, chain: [String] = [], _ fields: [(String, PlistValue)], at slot: PlistValue? = nil
    ) -> PlistValue {
        let cls = classUID(className, chain: chain)
        let dict = PlistValue.dictionary(
            PlistDictionary([(PlistValue.string("$class"), cls)] + fields.map { (PlistValue.string($0.0), $0.1) }))
        if case .uid(let u)? = slot {
            objects[Int(u)] = dict
            return .uid(u)
        }
        return add(dict)
    }

    mutating func array(_ items: [PlistValue]) -> PlistValue {
        object("NSArray", chain: ["NSArray", "NSObject"], [("NS.objects", .array(items))])
    }

    func archive(top: [(String, PlistValue)]) -> PlistValue {
        [
            "$archiver": "NSKeyedArchiver", "$version": 100_000,
            "$top": .dictionary(PlistDictionary(top.map { (PlistValue.string($0.0), $0.1) })),
            "$objects": .array(objects),
        ]
    }
}

@Suite("bplist commands", .timeLimit(.minutes(10)))
struct BPlistCommandsTests {
    static let esc = "\u{1B}["

    /// A person with a dog that points back to her (a cycle), the dog also among her pets
    /// (shared), and one of each Foundation value class.
    static func personArchive() -> PlistValue {
        var b = ArchiveBuilder()
        let person = b.reserve()
        let name = b.add("Ada")
        let dog = b.object("XWZDog", [("name", b.add("Rex")), ("owner", person)])
        let pets = b.array([dog])
        let born = b.object("NSDate", [("NS.time", .real(86_400))])
        let id = b.object("NSUUID", [("NS.uuidbytes", .data(Data(repeating: 0xAB, count: 16)))])
        let home = b.object("NSURL", [("NS.base", .uid(0)), ("NS.relative", b.add("https://example.com/ada"))])
        let tags = b.object("NSSet", [("NS.objects", .array([b.add("x")]))])
        let info = b.object(
            "NSMutableDictionary", chain: ["NSMutableDictionary", "NSDictionary", "NSObject"],
            [("NS.keys", .array([b.add("age")])), ("NS.objects", .array([b.add(36)]))])
        b.object(
            "XWZPerson",
            [
                ("name", name), ("dog", dog), ("pets", pets), ("born", born), ("id", id), ("home", home),
                ("tags", tags), ("info", info), ("nothing", .uid(0)), ("$$secret", b.add(.real(0.5))),
            ], at: person)
        return b.archive(top: [("root", person)])
    }

    static func write(_ value: PlistValue, _ name: String, in dir: TempDir) throws -> String {
        try dir.write(BinaryPlistWriter().write(value), name)
    }

    // MARK: help

    @Test(arguments: ["convert", "print", "get", "unarchive", "split"])
    func helpHasExamplesAndExitCodes(_ command: String) throws {
        let r = try Tool.run([command, "--help"])
        #expect(r.status == 0)
        #expect(r.stdoutText.contains("Examples:"))
        #expect(r.stdoutText.contains("Exit status:"))
        #expect(r.stdoutText.contains("bplist \(command) "))
    }

    // MARK: convert

    @Test func convertBinaryToXMLAndJSON() throws {
        let dir = try TempDir()
        let value: PlistValue = [
            "name": "Ada", "list": [1, .real(2.5), true], "uid": .uid(3), "data": .data(Data([1, 2])),
        ]
        let path = try Self.write(value, "v.bplist", in: dir)
        let xml = try Tool.run(["convert", path, "--to", "xml"])
        #expect(xml.status == 0)
        #expect(xml.stderr.isEmpty)
        #expect(xml.stdout == (try XMLPlist.encode(value)))
        let json = try Tool.run(["convert", path, "--to", "json"])
        #expect(json.status == 0)
        #expect(try json.stdoutText == value.canonicalJSON())
    }

    @Test func convertXMLAndJSONToBinary() throws {
        let dir = try TempDir()
        let value: PlistValue = ["a": [1, 2, 3], "b": .date(Date(timeIntervalSinceReferenceDate: 10))]
        let xmlPath = try dir.write(XMLPlist.encode(value), "v.plist")
        let out = dir.file("out.bplist").path
        let r = try Tool.run(["convert", xmlPath, "--to", "binary", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(written.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPlistDocument(written).value() == value)

        // JSON in, zlib-compressed binary to stdout (not a terminal here).
        let jsonPath = try dir.write(Data(value.canonicalJSON().utf8), "v.json")
        let z = try Tool.run(["convert", jsonPath, "--to", "binary", "--compress", "zlib"])
        #expect(z.status == 0, "\(z.stderr)")
        #expect(z.stdout.first == 0x78)
        #expect(try BinaryPlistDocument(z.stdout).value() == value)
        #expect(try BinaryPlistDocument(z.stdout).compression == .zlib)
    }

    @Test func convertErrors() throws {
        let dir = try TempDir()
        let garbage = try dir.write(Data("definitely not a plist".utf8), "garbage")
        let r = try Tool.run(["convert", garbage, "--to", "xml"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(
            r.stderrLines == [
                "error: notAPropertyList at byte 0: not a property list: starts with 64 65 66 69 6E 69 74 65 … (\"definite\")"
            ])

        var truncated = try BinaryPlistWriter().write(["k": "v", "n": 1])
        truncated.removeLast(3)
        let t = try Tool.run(["convert", try dir.write(truncated, "t.bplist"), "--to", "json"])
        #expect(t.status == 1)
        #expect(t.stderrLines.count == 1)
        #expect(t.stderr.contains(#/^error: [A-Za-z]+ at byte \d+/#))

        let badXML = try dir.write(Data("<plist><dict><key>a</key></plist>".utf8), "bad.plist")
        let x = try Tool.run(["convert", badXML, "--to", "json"])
        #expect(x.status == 1)
        #expect(x.stderrLines.count == 1)
        #expect(x.stderr.hasPrefix("error: syntax at byte "))

        let null = try Self.write(["a": .null], "null.bplist", in: dir)
        let n = try Tool.run(["convert", null, "--to", "xml"])
        #expect(n.status == 1)
        #expect(n.stderrLines.count == 1)
        #expect(n.stderr.hasPrefix("error: unencodable"))

        let usage = try Tool.run(["convert", null, "--to", "xml", "--compress", "zlib"])
        #expect(usage.status == 64)
        #expect(try Tool.run(["convert", null, "--to", "yaml"]).status == 64)
    }

    // MARK: print

    @Test func printExactTree() throws {
        let dir = try TempDir()
        let value: PlistValue = [
            "name": "Ada \"A\"", "list": [1, .real(0.5), [:]], "when": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "bytes": .data(Data([0, 1, 0xFF])), "ref": .uid(7), "tags": .set(["x"]), "none": .null, "ok": false,
            "ints": .dictionary(PlistDictionary([(.integer(1), "one")])),
        ]
        let r = try Tool.run(["print", try Self.write(value, "v.bplist", in: dir)])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let expected = """
            {
              "name" => "Ada \\"A\\""
              "list" => [
                0 => 1
                1 => 0.5
                2 => {}
              ]
              "when" => 2001-01-01T00:00:00Z
              "bytes" => {length = 3, bytes = 0x0001ff}
              "ref" => <CFKeyedArchiverUID>{value = 7}
              "tags" => <set> [
                0 => "x"
              ]
              "none" => <null>
              "ok" => false
              "ints" => {
                1 => "one"
              }
            }

            """
        #expect(r.stdoutText == expected)
        #expect(!r.stdoutText.contains(Self.esc), "no colour when stdout is not a terminal")
    }

    @Test func printTruncatesLongDataAndReadsXML() throws {
        let dir = try TempDir()
        let value: PlistValue = ["blob": .data(Data((0..<100).map { UInt8($0) }))]
        let r = try Tool.run(["print", try dir.write(XMLPlist.encode(value), "v.plist")])
        #expect(r.status == 0)
        #expect(
            r.stdoutText.contains(
                "\"blob\" => {length = 100, bytes = 0x000102030405060708090a0b0c0d0e0f ... 5c5d5e5f60616263}"))
    }

    @Test func printAndGetReadStandardInput() throws {
        let bytes = try BinaryPlistWriter(compression: .zlib, compressionLevel: 9).write(["k": ["v"]])
        let r = try Tool.run(["print", "-"], stdin: bytes)
        #expect(r.status == 0)
        #expect(r.stdoutText == "{\n  \"k\" => [\n    0 => \"v\"\n  ]\n}\n")
        let g = try Tool.run(["get", "-", "k.0"], stdin: bytes)
        #expect(g.stdoutText == "v\n")
    }

    @Test func printColours() throws {
        let dir = try TempDir()
        let path = try Self.write(["k": "v", "n": 1], "v.bplist", in: dir)
        let forced = try Tool.run(["print", "--color", path])
        #expect(forced.status == 0)
        #expect(forced.stdoutText.contains(Self.esc + "32m\"v\"" + Self.esc + "0m"))
        let plain = try Tool.run(["print", "--no-color", path])
        #expect(!plain.stdoutText.contains(Self.esc))
        #expect(try Tool.run(["print", "--color", "--no-color", path]).status == 64)
    }

    @Test func printErrorIsOneLineWithOffset() throws {
        let dir = try TempDir()
        var bytes = try BinaryPlistWriter().write(["k": [1, 2, 3]])
        bytes.append(contentsOf: [0, 1, 2, 3])
        let r = try Tool.run(["print", try dir.write(bytes, "trailing.bplist")])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1)
        let offset = bytes.count - 4
        #expect(r.stderr.hasPrefix("error: trailingData at byte \(offset): "))
        let ok = try Tool.run(["print", "--allow-trailing", try dir.write(bytes, "trailing2.bplist")])
        #expect(ok.status == 0)
    }

    // MARK: get

    @Test func getScalarsAndContainers() throws {
        let dir = try TempDir()
        let path = try Self.write(Self.personArchive(), "person.archive", in: dir)
        let name = try Tool.run(["get", path, "$objects.2"])
        #expect(name.status == 0)
        #expect(name.stdoutText == "Ada\n")
        let root = try Tool.run(["get", path, "$top.root"])
        #expect(root.stdoutText == "<CFKeyedArchiverUID>{value = 1}\n")
        let version = try Tool.run(["get", path, "$version"])
        #expect(version.stdoutText == "100000\n")
        let time = try Tool.run(["get", path, "$objects.9.NS.time"])
        #expect(time.status == 1, "NS.time contains the separator")
        let time2 = try Tool.run(["get", "--separator", "/", path, "$objects/9/NS.time"])
        #expect(time2.status == 0, "\(time2.stderr)")
        #expect(time2.stdoutText == "86400.0\n")
        let dog = try Tool.run(["get", path, "$objects.5"])
        #expect(dog.status == 0)
        #expect(dog.stdoutText.hasPrefix("{\n  \"$class\" => <CFKeyedArchiverUID>{value = 4}\n"))
        let json = try Tool.run(["get", "--json", path, "$objects.5.name"])
        #expect(json.stdoutText == "{\n \"$uid\": 3\n}\n")
        let whole = try Tool.run(["get", "--json", path, ""])
        #expect(try whole.stdoutText == Self.personArchive().canonicalJSON())
    }

    @Test func getMissingValue() throws {
        let dir = try TempDir()
        let path = try Self.write(Self.personArchive(), "person.archive", in: dir)
        let reasons = [
            "$objects.99": "position 99 is out of range", "$top.nope": "$top has no key \"nope\"",
            "$version.x": "$version is an integer", "$objects.-1": "position -1 is out of range",
        ]
        for (keyPath, reason) in reasons {
            let r = try Tool.run(["get", path, keyPath])
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty)
            #expect(r.stderrLines.count == 1)
            #expect(r.stderr.hasPrefix("error: no value at \(keyPath): "), "\(r.stderr)")
            #expect(r.stderr.contains(reason), "\(r.stderr)")
        }
        let bad = try Tool.run(["get", try dir.write(Data("bplist00".utf8), "short"), "a"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: truncated at byte 0: "))
    }

    @Test func getReadsXML() throws {
        let dir = try TempDir()
        let value: PlistValue = ["people": [["name": "Ada"], ["name": "Grace"]]]
        let r = try Tool.run(["get", try dir.write(XMLPlist.encode(value), "v.plist"), "people.1.name"])
        #expect(r.status == 0)
        #expect(r.stdoutText == "Grace\n")
    }

    // MARK: unarchive

    @Test func unarchiveText() throws {
        let dir = try TempDir()
        let r = try Tool.run(["unarchive", try Self.write(Self.personArchive(), "person.archive", in: dir)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let expected = """
            XWZPerson #1 {
              name: "Ada"
              dog: XWZDog #5 {
                name: "Rex"
                owner: <ref #1 XWZPerson>
              }
              pets: [
                0 => <ref #5 XWZDog>
              ]
              born: 2001-01-02T00:00:00Z
              id: UUID(ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB)
              home: URL(https://example.com/ada)
              tags: <set> [
                0 => "x"
              ]
              info: {
                "age" => 36
              }
              nothing: nil
              $secret: 0.5
            }

            """
        #expect(r.stdoutText == expected)
    }

    @Test func unarchiveJSON() throws {
        let dir = try TempDir()
        let r = try Tool.run(["unarchive", "--json", try Self.write(Self.personArchive(), "person.archive", in: dir)])
        #expect(r.status == 0, "\(r.stderr)")
        let value = try PlistValue(canonicalJSONBytes: r.stdout)
        #expect(try r.stdoutText == value.canonicalJSON(), "the output is canonical JSON")
        let root = try #require(value.dictionaryValue?["root"]?.dictionaryValue)
        #expect(root["$class"] == "XWZPerson")
        #expect(root["$id"] == 1)
        #expect(root["name"] == "Ada")
        #expect(root["$$secret"] == .real(0.5))
        #expect(root["nothing"] == .null)
        #expect(root["born"] == .date(Date(timeIntervalSinceReferenceDate: 86_400)))
        #expect(root["id"] == ["$uuid": "ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB"])
        #expect(root["home"] == ["$url": "https://example.com/ada"])
        #expect(root["tags"] == .set(["x"]))
        #expect(root["info"] == ["age": 36])
        let dog = try #require(root["dog"]?.dictionaryValue)
        #expect(dog["$class"] == "XWZDog")
        #expect(dog["owner"] == ["$ref": 1, "$class": "XWZPerson"])
        #expect(root["pets"] == [["$ref": 5, "$class": "XWZDog"]])
    }

    @Test func unarchiveSharedCollectionsTopKeysAndDepth() throws {
        var b = ArchiveBuilder()
        let list = b.array([b.add("a")])
        var node = b.object("XWZLeaf", [])
        for _ in 0..<5 { node = b.object("XWZNode", [("list", list), ("next", node)]) }
        let dir = try TempDir()
        let path = try Self.write(b.archive(top: [("first", node), ("second", list)]), "multi.archive", in: dir)
        let r = try Tool.run(["unarchive", path, "--max-depth", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "{")
        #expect(lines[1] == "  \"first\" => XWZNode {")
        #expect(lines.contains("        next: <depth limit #8 XWZNode>"))
        #expect(lines.contains("    list: #3 ["), "the shared array is marked where it is first printed")
        #expect(lines.contains("      list: <ref #3 NSArray>"))
        #expect(lines.contains("  \"second\" => <ref #3 NSArray>"))

        let json = try Tool.run(["unarchive", "--json", path])
        let value = try PlistValue(canonicalJSONBytes: json.stdout)
        #expect(value.dictionaryValue?["second"] == ["$ref": 3, "$class": "NSArray"])
        let first = try #require(value.dictionaryValue?["first"]?.dictionaryValue)
        #expect(first["list"] == ["$id": 3, "$class": "NSArray", "$value": ["a"]])
    }

    @Test func unarchiveDeepChainAtTheLargestDepth() throws {
        var b = ArchiveBuilder()
        var node = b.object("XWZLeaf", [])
        for _ in 0..<2_500 { node = b.object("XWZNode", [("next", node)]) }
        let dir = try TempDir()
        let path = try Self.write(b.archive(top: [("root", node)]), "deep.archive", in: dir)
        let r = try Tool.run(["unarchive", "--max-depth", "2000", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.contains("next: <depth limit #"))
        let j = try Tool.run(["unarchive", "--json", "--max-depth", "2000", path])
        #expect(j.status == 0, "\(j.stderr)")
        #expect(j.stdoutText.contains("\"$truncated\": "))
        #expect(try Tool.run(["unarchive", "--max-depth", "2001", path]).status == 64)
    }

    @Test func unarchiveErrors() throws {
        let dir = try TempDir()
        let plain = try Self.write(["not": "an archive"], "plain.bplist", in: dir)
        let r = try Tool.run(["unarchive", plain])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains(#/^error: notAKeyedArchive at byte \d+: /#))

        var b = ArchiveBuilder()
        let bad = b.add(["name": "no $class here"])
        let corrupt = try Self.write(b.archive(top: [("root", bad)]), "corrupt.archive", in: dir)
        let c = try Tool.run(["unarchive", corrupt])
        #expect(c.status == 1)
        #expect(c.stderrLines.count == 1)
        #expect(c.stderr.contains(#/^error: corrupted at byte \d+ \(UID 1\): /#))

        let garbage = try Tool.run(["unarchive", try dir.write(Data([1, 2, 3]), "garbage")])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.hasPrefix("error: notABinaryPlist at byte 0: "))
    }

    @Test func unarchiveReadsXML() throws {
        let dir = try TempDir()
        let path = try dir.write(XMLPlist.encode(Self.personArchive()), "person.xml")
        let r = try Tool.run(["unarchive", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.hasPrefix("XWZPerson #1 {\n  name: \"Ada\"\n"))
    }

    // MARK: split

    @Test func splitBackToBackArchives() throws {
        let dir = try TempDir()
        let first = try BinaryPlistWriter().write(Self.personArchive())
        let second = try BinaryPlistWriter().write(["session": "token", "n": 2])
        let path = try dir.write(first + second, "appended.archive")
        let out = dir.file("pieces").path
        let r = try Tool.run(["split", path, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let n1 = try BinaryPlistDocument(first).objectCount
        let n2 = try BinaryPlistDocument(second).objectCount
        let total = first.count + second.count
        #expect(
            r.stdoutText == """
                appended-1.bplist: bytes 0..<\(first.count) (\(first.count) bytes, \(n1) objects)
                appended-2.bplist: bytes \(first.count)..<\(total) (\(second.count) bytes, \(n2) objects)

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/appended-1.bplist")) == first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/appended-2.bplist")) == second)

        let dry = try Tool.run(["split", "--dry-run", "--name", "x", path, "-o", dir.file("none").path])
        #expect(dry.status == 0)
        #expect(dry.stdoutText.hasPrefix("x-1.bplist: bytes 0..<"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("none").path))
    }

    @Test func splitReportsTrailingGarbage() throws {
        let dir = try TempDir()
        let first = try BinaryPlistWriter().write(["a": 1])
        let second = try BinaryPlistWriter().write(["b": 2])
        let path = try dir.write(first + second + Data("junk!".utf8), "junk.bin")
        let out = dir.file("out").path
        let r = try Tool.run(["split", path, "-o", out])
        #expect(r.status == 1)
        #expect(r.stdoutText.split(separator: "\n").count == 2, "pieces before the garbage are reported")
        #expect(r.stderrLines.count == 1)
        let offset = first.count + second.count
        #expect(r.stderr.hasPrefix("error: notABinaryPlist at byte \(offset): 5 bytes at byte \(offset) after piece 2"))
        #expect(FileManager.default.fileExists(atPath: out + "/junk-1.bplist"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/junk-2.bplist")) == second)

        let none = try Tool.run(["split", try dir.write(Data("nothing".utf8), "n"), "--dry-run"])
        #expect(none.status == 1)
        #expect(
            none.stderrLines == [
                "error: notABinaryPlist at byte 0: 7 bytes at byte 0 are not a property list: 7 bytes are too short for the bplist0? header"
            ])
    }

    // MARK: progress

    @Test func noProgressOnStderrWhenNotATerminal() throws {
        let dir = try TempDir()
        // Above the 16 MiB threshold: still nothing on stderr, which is a file here.
        let big: PlistValue = ["blob": .data(Data(repeating: 7, count: 17 << 20)), "n": 1]
        let path = try Self.write(big, "big.bplist", in: dir)
        let printed = try Tool.run(["print", path])
        #expect(printed.status == 0)
        #expect(printed.stderr.isEmpty)
        #expect(printed.stdoutText.contains("{length = 17825792, bytes = 0x07070707"))
        let converted = try Tool.run(["convert", path, "--to", "binary", "-o", dir.file("copy.bplist").path])
        #expect(converted.status == 0)
        #expect(converted.stderr.isEmpty)
        let unarchived = try Tool.run(["unarchive", path])
        #expect(unarchived.status == 1)
        #expect(unarchived.stderrLines.count == 1, "only the error line, no progress")
    }
}

/// The commands that write an expanded form stop at the output budget on the 202-byte doubling chain
/// (2^41 nodes written out), quickly and with a typed error, instead of growing without bound.
@Suite struct OutputBudgetCommandTests {
    static var chain: Data {
        // The same bytes as Tests/PropertyListTests/OutputBudgetTests.swift: object i is [i+1, i+1].
        var out = Data("bplist00".utf8)
        var offsets: [Int] = []
        for i in 0..<41 {
            offsets.append(out.count)
            out.append(contentsOf: i == 40 ? [0xA0] : [0xA2, UInt8(i + 1), UInt8(i + 1)])
        }
        let table = out.count
        for o in offsets { out.append(UInt8(o)) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, 1, 1])
        for v in [UInt64(41), 0, UInt64(table)] {
            out.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) })
        }
        return out
    }

    @Test(arguments: [
        ["to-json"], ["print"], ["convert", "--to", "xml"], ["convert", "--to", "json"], ["get", "--json"],
    ])
    func refusesTheDoublingChain(_ command: [String]) throws {
        let dir = try TempDir()
        let path = try dir.write(Self.chain, "chain.bplist")
        var args = [command[0], path] + command.dropFirst()
        if command[0] == "get" { args = ["get", path, "0", "--json"] }
        let started = ContinuousClock.now
        let r = try Tool.run(args)
        let elapsed = ContinuousClock.now - started
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("limitExceeded") && r.stderr.contains("maxValues"), "\(r.stderr)")
        // Not a timing test of speed: a bound on "it stopped instead of expanding 2^41 nodes".
        #expect(elapsed < .seconds(30))
    }

    @Test func aLargerBudgetIsAFlagAway() throws {
        let dir = try TempDir()
        let x: PlistValue = ["a", "b"]
        let path = try BPlistCommandsTests.write([x, x, [x]], "small.bplist", in: dir)
        #expect(try Tool.run(["to-json", path, "--max-output-nodes", "10"]).status == 1)
        #expect(try Tool.run(["to-json", path, "--max-output-nodes", "11"]).status == 0)
    }
}

/// Archives inside a preferences file, as a Terminal theme keeps its colours and fonts: `print`
/// shows them decoded under their outer keys; `to-json` only with --expand-nested.
@Suite struct NestedPlistCommandTests {
    /// An NSKeyedArchiver archive of a dictionary, made by Foundation (NSColor does not exist on Linux).
    static func archive(_ object: [String: Any]) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: NSDictionary(dictionary: object), requiringSecureCoding: false)
    }

    /// A Terminal-theme-like XML plist: an NSColor and an NSFont archived in Apple's layout (by our
    /// archiver: Foundation on Linux has neither class), a dictionary archived by Foundation, and
    /// data that claims to be a bplist but is not.
    static func theme() throws -> Data {
        let theme: [String: Any] = [
            "name": "Basic",
            "BackgroundColor": try KeyedArchiver.archivedData(withRootObject: ArchivedColor.rgb(0.035, 0.011, 0)),
            "Font": try KeyedArchiver.archivedData(withRootObject: ArchivedFont(name: "Menlo-Regular", size: 11)),
            "Settings": try archive(["NSName": "Menlo-Regular", "NSSize": 11.0]),
            "Broken": Data("bplist00 not really".utf8),
        ]
        return try PropertyListSerialization.data(fromPropertyList: theme, format: .xml, options: 0)
    }

    @Test func printShowsNestedArchivesDecoded() throws {
        let dir = try TempDir()
        let path = try dir.write(try Self.theme(), "Basic.terminal")
        let r = try Tool.run(["print", "--no-color", path])
        #expect(r.status == 0)
        let text = r.stdoutText
        #expect(text.contains("\"BackgroundColor\" => {") && text.contains("\"$nested\" => {"))
        // Typed, as `bplist unarchive` shows them: the colour and the font by class and value, never
        // their archive's internal field names.
        #expect(text.contains("\"$class\" => \"NSColor\"") && text.contains("\"$class\" => \"NSFont\""), "\(text)")
        #expect(text.contains("Menlo-Regular") && !text.contains("NSRGB") && !text.contains("$objects"), "\(text)")
        #expect(r.stderr.contains("warning: nested property list at Broken"), "\(r.stderr)")
        let plain = try Tool.run(["print", "--no-color", "--no-expand-nested", path])
        #expect(!plain.stdoutText.contains("$nested") && plain.stderr.isEmpty)
    }

    @Test func toJSONExpandsOnlyWhenAsked() throws {
        let dir = try TempDir()
        let path = try dir.write(try Self.theme(), "Basic.terminal")
        let canonical = try Tool.run(["to-json", path])
        #expect(canonical.status == 0 && !canonical.stdoutText.contains("\"$nested\""))
        let expanded = try Tool.run(["to-json", "--expand-nested", path])
        #expect(expanded.status == 0)
        #expect(expanded.stdoutText.contains("\"$nested\"") && expanded.stdoutText.contains("Menlo-Regular"))
    }
}

/// An archived object whose field holds a binary plist, as Xcode's `codablePlistRepresentation` does.
final class NestedStateHolder: KeyedArchivable {
    static let archiveClassName = "XWZStateHolder"
    var state: Data
    init(state: Data) { self.state = state }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(state, forKey: "state") }
    init(from coder: KeyedUnarchiver) throws { state = try coder.decode(Data.self, forKey: "state") }
}

@Suite struct NestedPlistUnarchiveTests {
    @Test func unarchiveShowsANestedPlistFieldDecoded() throws {
        let dir = try TempDir()
        let inner: PlistValue = ["itemState": ["path", "expanded"], "scroll": .real(272)]
        let holder = NestedStateHolder(state: try BinaryPlistWriter().write(inner))
        let path = try dir.write(try KeyedArchiver.archivedData(withRootObject: holder), "state.archive")
        let r = try Tool.run(["unarchive", "--no-color", path])
        #expect(r.status == 0)
        #expect(
            r.stdoutText.contains("\"$nested\" => {") && r.stdoutText.contains("\"itemState\" => ["), "\(r.stdoutText)")
        let plain = try Tool.run(["unarchive", "--no-color", "--no-expand-nested", path])
        #expect(plain.status == 0 && !plain.stdoutText.contains("$nested") && plain.stdoutText.contains("length ="))
        let broken = NestedStateHolder(state: Data("bplist00 but truncated".utf8))
        let brokenPath = try dir.write(try KeyedArchiver.archivedData(withRootObject: broken), "broken.archive")
        let b = try Tool.run(["unarchive", "--no-color", brokenPath])
        #expect(b.status == 0 && b.stderr.contains("warning: nested property list"), "\(b.stderr)")
    }
}
