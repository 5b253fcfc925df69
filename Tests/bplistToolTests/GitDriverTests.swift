// Tests/bplistToolTests/GitDriverTests.swift - Real git with the drivers the README configures: `git
// merge` merges property lists (XML, binary) and an Xcode project structurally through `bplist merge`,
// and stops with conflict markers where both branches changed one value; `git diff` shows binary
// property lists through `bplist textconv` and `bplist diff --git`.

import Foundation
import PropertyList
import Testing

/// A temporary git repository with the README's configuration, run with no global or system config.
struct GitRepository {
    let dir: TempDir
    let bplist: String

    init() throws {
        dir = try TempDir()
        bplist = try #require(Tool.executable?.path, "bplist executable not found")
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Test")
        try git("config", "user.email", "test@example.com")
        try git("config", "merge.plist.name", "property lists, by key path")
        try git("config", "merge.plist.driver", "\(bplist) merge --marker-size %L %O %A %B")
        try git("config", "diff.plist.textconv", "\(bplist) textconv")
        try git("config", "diff.plistdiff.command", "\(bplist) diff --git")
        try write(
            "*.plist merge=plist diff=plist\n*.pbxproj merge=plist\n*.prefs merge=plist diff=plistdiff\n",
            ".gitattributes")
    }

    /// Runs git; returns its status, standard output and standard error.
    @discardableResult
    func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        process.currentDirectoryURL = dir.url
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.url.path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_PAGER"] = "cat"
        env["LC_ALL"] = "C"
        process.environment = env
        let out = dir.file(".git-out")
        let err = dir.file(".git-err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return (
            process.terminationStatus, try String(contentsOf: out, encoding: .utf8),
            try String(contentsOf: err, encoding: .utf8)
        )
    }

    func git(_ args: String...) throws {
        let r = try run(args)
        if r.status != 0 { Issue.record("git \(args.joined(separator: " ")) failed: \(r.err)") }
    }

    func write(_ text: String, _ name: String) throws { try Data(text.utf8).write(to: dir.file(name)) }
    func write(_ value: PlistValue, _ name: String, as format: PlistFormat) throws {
        try value.encoded(as: format).write(to: dir.file(name))
    }
    func read(_ name: String) throws -> Data { try Data(contentsOf: dir.file(name)) }
    func commit(_ message: String) throws {
        try git("add", "-A")
        try git("commit", "-q", "-m", message)
    }
}

@Suite("git with bplist's merge and diff drivers", .timeLimit(.minutes(10)))
struct GitDriverTests {
    static let info: PlistValue = [
        "CFBundleName": "App", "CFBundleVersion": "1", "UIBackgroundModes": ["audio"],
    ]
    static let prefs: PlistValue = ["theme": "light", "volume": 7, "recent": ["a.txt"]]

    @Test("git merge: independent changes to XML, binary and Xcode project files merge without conflicts")
    func cleanMerge() throws {
        let repo = try GitRepository()
        try repo.write(Self.info, "Info.plist", as: .xml)
        try repo.write(Self.prefs, "settings.prefs", as: .binary)
        let project = ProjectCorpus.folder.appendingPathComponent("SnapKit-SnapKit-Example-iOS.pbxproj")
        let hasProject = FileManager.default.fileExists(atPath: project.path)
        if hasProject {
            try Data(contentsOf: project).write(to: repo.dir.file("project.pbxproj"))
        } else {
            Issue.record("skipped the Xcode project part: no ../shared/corpus/pbxproj")
        }
        try repo.commit("base")

        try repo.git("checkout", "-q", "-b", "feature")
        try repo.write(
            ["CFBundleName": "App", "CFBundleVersion": "2", "UIBackgroundModes": ["audio", "fetch"]], "Info.plist",
            as: .xml)
        try repo.write(["theme": "light", "volume": 7, "recent": ["a.txt", "b.txt"]], "settings.prefs", as: .binary)
        if hasProject {
            let r = try Tool.run([
                "set", repo.dir.file("project.pbxproj").path,
                "objects.44477D8325D86846009F5E40.buildSettings.SWIFT_VERSION", "--string", "6.0",
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try repo.commit("feature")

        try repo.git("checkout", "-q", "main")
        try repo.write(
            ["CFBundleName": "App", "CFBundleVersion": "1", "UIBackgroundModes": ["audio"], "NSCameraUsage": "scan"],
            "Info.plist", as: .xml)
        try repo.write(["theme": "dark", "volume": 7, "recent": ["a.txt"]], "settings.prefs", as: .binary)
        if hasProject {
            let r = try Tool.run([
                "set", repo.dir.file("project.pbxproj").path,
                "objects.44477D8425D86846009F5E40.buildSettings.SWIFT_VERSION", "--string", "5.9",
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try repo.commit("main")

        let merge = try repo.run(["merge", "-q", "--no-edit", "feature"])
        #expect(merge.status == 0, "\(merge.out)\(merge.err)")
        let info = try PlistValue.decode(from: try repo.read("Info.plist"))
        #expect(info.format == .xml)
        #expect(
            info.value
                == [
                    "CFBundleName": "App", "CFBundleVersion": "2", "UIBackgroundModes": ["audio", "fetch"],
                    "NSCameraUsage": "scan",
                ])
        let prefs = try PlistValue.decode(from: try repo.read("settings.prefs"))
        #expect(prefs.format == .binary)
        #expect(prefs.value == ["theme": "dark", "volume": 7, "recent": ["a.txt", "b.txt"]])
        if hasProject {
            let text = String(decoding: try repo.read("project.pbxproj"), as: UTF8.self)
            #expect(text.components(separatedBy: "SWIFT_VERSION = 6.0;").count == 2)
            #expect(text.components(separatedBy: "SWIFT_VERSION = 5.9;").count == 2)
            #expect(text.hasPrefix("// !$*UTF8*$!\n"))
        }
        #expect(try repo.run(["status", "--porcelain"]).out.isEmpty)
    }

    @Test("git merge: one value changed on both branches stops with markers around its entry")
    func conflictingMerge() throws {
        let repo = try GitRepository()
        try repo.write(Self.info, "Info.plist", as: .xml)
        try repo.commit("base")
        try repo.git("checkout", "-q", "-b", "feature")
        try repo.write(
            ["CFBundleName": "Theirs", "CFBundleVersion": "1", "UIBackgroundModes": ["audio"]], "Info.plist", as: .xml)
        try repo.commit("feature")
        try repo.git("checkout", "-q", "main")
        try repo.write(
            ["CFBundleName": "Ours", "CFBundleVersion": "1", "UIBackgroundModes": ["audio"]], "Info.plist", as: .xml)
        try repo.commit("main")

        let merge = try repo.run(["merge", "--no-edit", "feature"])
        #expect(merge.status != 0)
        #expect(merge.err.contains("conflict: CFBundleName: ours changed, theirs changed"))
        #expect(merge.out.contains("CONFLICT (content): Merge conflict in Info.plist"))
        let text = String(decoding: try repo.read("Info.plist"), as: UTF8.self)
        #expect(
            text.contains(
                "<<<<<<< ours\n\t<key>CFBundleName</key>\n\t<string>Ours</string>\n=======\n"
                    + "\t<key>CFBundleName</key>\n\t<string>Theirs</string>\n>>>>>>> theirs\n"))
        #expect(try repo.run(["status", "--porcelain"]).out.contains("UU Info.plist"))
    }

    @Test("git diff: binary property lists through textconv and through bplist diff --git")
    func diffs() throws {
        let repo = try GitRepository()
        try repo.write(Self.prefs, "binary.plist", as: .binary)
        try repo.write(Self.prefs, "settings.prefs", as: .binary)
        try repo.commit("base")
        try repo.write(["theme": "light", "volume": 9, "recent": ["a.txt"]], "binary.plist", as: .binary)
        try repo.write(["theme": "light", "volume": 9, "recent": ["a.txt"]], "settings.prefs", as: .binary)

        let textconv = try repo.run(["diff", "binary.plist"])
        #expect(textconv.status == 0, "\(textconv.err)")
        #expect(textconv.out.contains("-  \"volume\" => 7\n+  \"volume\" => 9\n"), "\(textconv.out)")
        #expect(!textconv.out.contains("Binary files"))

        let external = try repo.run(["diff", "--ext-diff", "settings.prefs"])
        #expect(external.status == 0, "\(external.err)")
        #expect(
            external.out
                == "diff --git a/settings.prefs b/settings.prefs\n--- a/settings.prefs\n+++ b/settings.prefs\n"
                + "~ volume: 7 -> 9\n")

        // git log -p goes through textconv too.
        try repo.commit("volume")
        let log = try repo.run(["log", "-p", "-1", "--format=", "binary.plist"])
        #expect(log.out.contains("+  \"volume\" => 9"))
    }
}
