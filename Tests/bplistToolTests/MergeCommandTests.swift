// Tests/bplistToolTests/MergeCommandTests.swift - `bplist merge BASE OURS THEIRS` on every form: clean
// merges written over OURS in its form, conflicts listed on stderr and marked around the entry in text
// forms (resolvable, and read back after), OURS kept in binary, archives merged through their graphs,
// Xcode projects merged in Xcode's layout, hostile input refused without a crash.

import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite("bplist merge", .timeLimit(.minutes(10)))
struct MergeCommandTests {
    static let xmlHead = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func xml(_ body: String) -> Data { Data((xmlHead + body + "</plist>\n").utf8) }

    /// Runs the merge on three files written in `dir`; returns the run and OURS' bytes after it.
    static func merge(_ base: Data, _ ours: Data, _ theirs: Data, in dir: TempDir, _ extra: [String] = []) throws
        -> (ToolResult, Data)
    {
        let b = try dir.write(base, "base")
        let o = try dir.write(ours, "ours")
        let t = try dir.write(theirs, "theirs")
        let r = try Tool.run(["merge"] + extra + [b, o, t])
        return (r, try Data(contentsOf: URL(fileURLWithPath: o)))
    }

    @Test("XML: independent changes merge over OURS; ours' order, theirs' new key where theirs put it")
    func xmlClean() throws {
        let dir = try TempDir()
        let base = Self.xml(
            "<dict>\n\t<key>A</key>\n\t<string>1</string>\n\t<key>B</key>\n\t<string>2</string>\n</dict>\n")
        let ours = Self.xml(
            "<dict>\n\t<key>A</key>\n\t<string>one</string>\n\t<key>B</key>\n\t<string>2</string>\n"
                + "\t<key>Z</key>\n\t<true/>\n</dict>\n")
        let theirs = Self.xml(
            "<dict>\n\t<key>A</key>\n\t<string>1</string>\n\t<key>N</key>\n\t<integer>5</integer>\n"
                + "\t<key>B</key>\n\t<string>2</string>\n</dict>\n")
        let (r, merged) = try Self.merge(base, ours, theirs, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(
            merged
                == Self.xml(
                    "<dict>\n\t<key>A</key>\n\t<string>one</string>\n\t<key>N</key>\n\t<integer>5</integer>\n"
                        + "\t<key>B</key>\n\t<string>2</string>\n\t<key>Z</key>\n\t<true/>\n</dict>\n"))
    }

    @Test("XML: a conflict is listed and marked around its entry; either side read back after resolving")
    func xmlConflict() throws {
        let dir = try TempDir()
        let base = Self.xml(
            "<dict>\n\t<key>V</key>\n\t<string>1</string>\n\t<key>W</key>\n\t<string>w</string>\n</dict>\n")
        let ours = Self.xml(
            "<dict>\n\t<key>V</key>\n\t<string>2</string>\n\t<key>W</key>\n\t<string>w</string>\n</dict>\n")
        let theirs = Self.xml(
            "<dict>\n\t<key>V</key>\n\t<array>\n\t\t<string>3</string>\n\t</array>\n\t<key>W</key>\n\t<string>x</string>\n</dict>\n"
        )
        let (r, merged) = try Self.merge(base, ours, theirs, in: dir)
        #expect(r.status == 1)
        #expect(r.stderrLines == ["conflict: V: ours changed, theirs changed", "1 conflict marked in the file"])
        let text = String(decoding: merged, as: UTF8.self)
        #expect(
            text
                == Self.xmlHead + """
                    <dict>
                    <<<<<<< ours
                    \t<key>V</key>
                    \t<string>2</string>
                    =======
                    \t<key>V</key>
                    \t<array>
                    \t\t<string>3</string>
                    \t</array>
                    >>>>>>> theirs
                    \t<key>W</key>
                    \t<string>x</string>
                    </dict>
                    </plist>

                    """)
        #expect(
            try PlistValue.decode(from: Data(Self.resolve(text, taking: .ours).utf8)).value == ["V": "2", "W": "x"])
        #expect(
            try PlistValue.decode(from: Data(Self.resolve(text, taking: .theirs).utf8)).value == ["V": ["3"], "W": "x"])
    }

    enum Side { case ours, theirs }

    /// `text` with each conflict block replaced by one side's lines.
    static func resolve(_ text: String, taking side: Side) -> String {
        var out: [Substring] = []
        var state = 0  // 0 outside, 1 in ours, 2 in theirs
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<<<<<<<") {
                state = 1
            } else if line.hasPrefix("=======") && state == 1 {
                state = 2
            } else if line.hasPrefix(">>>>>>>") && state == 2 {
                state = 0
            } else if state == 0 || (state == 1 && side == .ours) || (state == 2 && side == .theirs) {
                out.append(line)
            }
        }
        return out.joined(separator: "\n")
    }

    @Test("JSON: the conflict block takes the commas with it; both sides read back")
    func jsonConflict() throws {
        let dir = try TempDir()
        let base = Data(#"{"a": 1, "b": 2, "c": 3}"#.utf8)
        let ours = Data(#"{"a": 1, "b": 20, "c": 3}"#.utf8)
        let theirs = Data(#"{"a": 1, "c": 3, "d": 4}"#.utf8)
        let (r, merged) = try Self.merge(base, ours, theirs, in: dir)
        #expect(r.status == 1)
        #expect(r.stderrLines.first == "conflict: b: ours changed, theirs removed")
        let text = String(decoding: merged, as: UTF8.self)
        #expect(text.contains("<<<<<<< ours"))
        #expect(
            try PlistValue.decode(from: Data(Self.resolve(text, taking: .ours).utf8)).value == [
                "a": 1, "b": 20, "c": 3, "d": 4,
            ])
        #expect(
            try PlistValue.decode(from: Data(Self.resolve(text, taking: .theirs).utf8)).value == [
                "a": 1, "c": 3, "d": 4,
            ])
    }

    @Test("binary in a zlib envelope: merged, written binary and compressed; a conflict keeps ours")
    func binary() throws {
        let dir = try TempDir()
        let base: PlistValue = ["count": 1, "items": ["a", "b"], "name": "x"]
        let ours: PlistValue = ["count": 2, "items": ["a", "b"], "name": "x"]
        let theirs: PlistValue = ["count": 1, "items": ["a", "b", "c"], "name": "y"]
        let (r, merged) = try Self.merge(
            try base.encoded(compression: .zlib), try ours.encoded(compression: .zlib),
            try theirs.encoded(compression: .zlib), in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let read = try PlistValue.decode(from: merged)
        #expect(read.format == .binary && read.compression == .zlib)
        #expect(read.value == ["count": 2, "items": ["a", "b", "c"], "name": "y"])

        let clash: PlistValue = ["count": 3, "items": ["a", "b"], "name": "x"]
        let (r2, merged2) = try Self.merge(try base.encoded(), try ours.encoded(), try clash.encoded(), in: dir)
        #expect(r2.status == 1)
        #expect(
            r2.stderrLines == [
                "conflict: count: ours changed, theirs changed", "1 conflict; our side kept where they conflict",
            ])
        #expect(try PlistValue.decode(from: merged2).value == ours)
    }

    @Test(".strings files stay .strings files; -o writes elsewhere and leaves OURS alone")
    func strings() throws {
        let dir = try TempDir()
        let base = Data("\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n".utf8)
        let ours = Data("\"hello\" = \"Hi\";\n\"bye\" = \"Bye\";\n".utf8)
        let theirs = Data("\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n\"thanks\" = \"Thanks\";\n".utf8)
        let out = dir.file("out").path
        let (r, after) = try Self.merge(base, ours, theirs, in: dir, ["-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(after == ours)
        let merged = try PlistValue.decode(from: try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(merged.writeOptions.stringsFile)
        #expect(merged.value == ["hello": "Hi", "bye": "Bye", "thanks": "Thanks"])
    }

    @Test("an empty BASE (git's add/add) merges what both added")
    func emptyBase() throws {
        let dir = try TempDir()
        let (r, merged) = try Self.merge(
            Data(), Self.xml("<dict>\n\t<key>a</key>\n\t<string>1</string>\n</dict>\n"),
            Self.xml("<dict>\n\t<key>b</key>\n\t<string>2</string>\n</dict>\n"), in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PlistValue.decode(from: merged).value == ["a": "1", "b": "2"])
    }

    @Test("keyed archives merge through their object graphs; Foundation reads the result")
    func archives() throws {
        let dir = try TempDir()
        let root = NSMutableDictionary(dictionary: [
            "theme": "light", "volume": 7, "recent": NSMutableArray(array: ["a.txt", "b.txt"]),
        ])
        let base = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let o = try dir.write(base, "ours")
        let t = try dir.write(base, "theirs")
        let b = try dir.write(base, "base")
        #expect(try Tool.run(["set", o, "root.theme", "--string", "dark"]).status == 0)
        #expect(try Tool.run(["append", t, "root.recent", "--string", "c.txt"]).status == 0)
        #expect(try Tool.run(["set", t, "root.volume", "--integer", "9"]).status == 0)
        let r = try Tool.run(["merge", b, o, t])
        #expect(r.status == 0, "\(r.stderr)")
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: URL(fileURLWithPath: o)))
        unarchiver.requiresSecureCoding = false
        let merged = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSDictionary
        #expect(merged?["theme"] as? String == "dark")
        #expect(merged?["volume"] as? Int == 9)
        #expect((merged?["recent"] as? [Any])?.compactMap { $0 as? String } == ["a.txt", "b.txt", "c.txt"])

        // Both changed the theme: a conflict by the graph's path, ours kept.
        #expect(try Tool.run(["set", t, "root.theme", "--string", "blue"]).status == 0)
        let o2 = try dir.write(try Data(contentsOf: URL(fileURLWithPath: o)), "ours2")
        let r2 = try Tool.run(["merge", b, o2, t])
        #expect(r2.status == 1)
        #expect(r2.stderrLines.first == "conflict: root.theme: ours changed, theirs changed")
        let graph = try KeyedArchiveGraph(try Data(contentsOf: URL(fileURLWithPath: o2)))
        #expect(try graph.value(at: "root.theme") == "dark")
    }

    @Test("hostile input: not property lists, or huge arrays changed everywhere, never a crash")
    func hostile() throws {
        let dir = try TempDir()
        let (r, after) = try Self.merge(
            Data("bplist00garbage".utf8), Data([0xFF, 0xFE, 0x00]), Data("{".utf8), in: dir)
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("error: "))
        #expect(after == Data([0xFF, 0xFE, 0x00]))

        let n = 100_000
        let base = PlistValue.array((0..<n).map { .integer(PlistInteger($0)) })
        let ours = PlistValue.array((0..<n).map { $0 % 3 == 0 ? .string("o\($0)") : .integer(PlistInteger($0)) })
        let theirs = PlistValue.array((0..<n).map { $0 % 5 == 0 ? .string("t\($0)") : .integer(PlistInteger($0)) })
        let (r2, merged) = try Self.merge(try base.encoded(), try ours.encoded(), try theirs.encoded(), in: dir)
        #expect(r2.status == 0 || r2.status == 1, "\(r2.stderr)")
        #expect(try PlistValue.decode(from: merged).value.arrayValue?.count ?? 0 >= n)
    }
}
