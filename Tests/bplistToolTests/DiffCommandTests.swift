// Tests/bplistToolTests/DiffCommandTests.swift - `bplist diff`: structural differences by key path,
// exit status, any forms, and git's external diff driver in a real repository.
//
//   diff A B               0 (equal) | 1 + one line per difference | 2 + "error: …"
//   diff --git <7 args>    0 + "diff --git a/P b/P" header and the lines (what git expects of a driver)

import Foundation
import PropertyList
import Testing

@Suite("bplist diff", .timeLimit(.minutes(10)))
struct DiffCommandTests {
    static let before: PlistValue = [
        "CFBundleVersion": "41", "list": [1, 2, 3, 4, 5], "nested": ["a": 1, "b": ["x": true]], "gone": "bye",
        "set": .set(["a", "b"]), "kind": 1,
    ]
    static let after: PlistValue = [
        "CFBundleVersion": "42", "list": [1, 9, 2, 3, 5, 6], "nested": ["a": 1, "b": ["x": false], "c": [1]],
        "set": .set(["b", "c"]), "kind": "1",
    ]

    @Test("differences by key path, in document order; an insertion in an array is one addition")
    func lines() throws {
        let dir = try TempDir()
        let a = try dir.write(try BinaryPlistWriter().write(Self.before), "a.bplist")
        let b = try dir.write(
            try BinaryPlistWriter(compression: .gzip, compressionLevel: 1).write(Self.after), "b.plist")
        let r = try Tool.run(["diff", a, b])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stdoutText.split(separator: "\n").map(String.init) == [
                "~ CFBundleVersion: \"41\" -> \"42\"",
                "+ list.1: 9",
                "- list.3: 4",
                "+ list.5: 6",
                "~ nested.b.x: true -> false",
                "+ nested.c: [1]",
                "- gone: \"bye\"",
                "- set: \"a\"",
                "+ set: \"c\"",
                "~ kind: 1 -> \"1\" (integer -> string)",
            ])
        #expect(r.stderr.isEmpty)
    }

    @Test("equal values in different forms and key orders: exit 0, nothing printed; --order reports the order")
    func equal() throws {
        let dir = try TempDir()
        let a = try dir.write(try BinaryPlistWriter().write(["x": 1, "y": [true]]), "a.bplist")
        let b = try dir.write(Data("{\"y\": [true], \"x\": 1}".utf8), "b.json")
        let same = try Tool.run(["diff", a, b])
        #expect(same.status == 0)
        #expect(same.stdout.isEmpty)
        let order = try Tool.run(["diff", "--order", a, b])
        #expect(order.status == 1)
        #expect(order.stdoutText == "= (root): keys reordered\n")
    }

    @Test("an unreadable input is exit 2 with one error line")
    func errors() throws {
        let dir = try TempDir()
        let a = try dir.write(Data("not a plist".utf8), "a")
        let r = try Tool.run(["diff", a, dir.file("missing").path])
        #expect(r.status == 2)
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].hasPrefix("error: "))
        #expect(try Tool.run(["diff", a]).status == 64)
    }

    @Test("git's external diff driver: a real repository with the README's .gitattributes lines")
    func gitDriver() throws {
        let dir = try TempDir()
        let exe = try #require(Tool.executable)
        func git(_ args: [String]) throws -> ToolResult {
            try Tool.run(
                ["-c", "user.name=t", "-c", "user.email=t@e", "-C", dir.url.path] + args,
                executable: URL(fileURLWithPath: "/usr/bin/git"))
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else {
            Issue.record("git is not installed at /usr/bin/git")
            return
        }
        #expect(try git(["init", "-q"]).status == 0)
        try Data("*.plist diff=plist\n".utf8).write(to: dir.file(".gitattributes"))
        #expect(try git(["config", "diff.plist.command", "\(exe.path) diff --git"]).status == 0)
        try BinaryPlistWriter().write(Self.before).write(to: dir.file("Info.plist"))
        #expect(try git(["add", "."]).status == 0)
        #expect(try git(["commit", "-qm", "one"]).status == 0)
        try BinaryPlistWriter().write(Self.after).write(to: dir.file("Info.plist"))
        let r = try git(["diff"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "diff --git a/Info.plist b/Info.plist")
        #expect(lines.contains("~ CFBundleVersion: \"41\" -> \"42\""))
        #expect(lines.contains("+ list.1: 9"))
        // A new file: the other side is /dev/null, every entry is an addition.
        try XMLPlist.encode(["k": "v"]).write(to: dir.file("New.plist"))
        #expect(try git(["add", "-N", "New.plist"]).status == 0)
        let added = try git(["diff", "--", "New.plist"])
        #expect(added.stdoutText.contains("+ k: \"v\""), "\(added.stdoutText) \(added.stderr)")
    }
}
