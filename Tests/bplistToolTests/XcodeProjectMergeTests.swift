// Tests/bplistToolTests/XcodeProjectMergeTests.swift - `bplist merge` on two branches of a real Xcode
// project (the five of ../shared/corpus/pbxproj): one branch adds a file to the main group and the
// first target's sources, the other adds another file the same way and changes a build setting. The
// merge has no conflict, and the merged file is the base plus exactly the lines both branches added
// (written here by hand, in Xcode's layout) and the one changed setting.

import Foundation
import PropertyList
import Testing

enum ProjectCorpus {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["KEYEDARCHIVE_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path).appendingPathComponent("pbxproj")
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/pbxproj")
    }()
    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.path) }
    static let files = [
        "AFNetworking-AFNetworking-AFNetworking.pbxproj", "SnapKit-SnapKit-Example-iOS.pbxproj",
        "jessesquires-JSQMessagesViewController-SwiftExample.pbxproj", "kean-Nuke-Nuke.pbxproj",
        "pointfreeco-swift-composable-architecture-SyncUps.pbxproj",
    ]
}

@Suite(
    "bplist merge on Xcode projects", .timeLimit(.minutes(10)),
    .enabled(if: ProjectCorpus.isPresent, "skipped: the pbxproj corpus is not at ../shared/corpus/pbxproj"))
struct XcodeProjectMergeTests {
    /// The places a new file goes: the main group, the first target's sources phase, the project's
    /// first build configuration.
    struct Places {
        var mainGroup: String
        var sources: String
        var configuration: String
    }

    static func places(_ project: PlistValue) throws -> Places {
        let objects = try #require(project["objects"]?.dictionaryValue)
        let root = try #require(project["rootObject"]?.stringValue)
        let mainGroup = try #require(objects[root]?["mainGroup"]?.stringValue)
        let targets = try #require(objects[root]?["targets"]?.arrayValue).compactMap(\.stringValue)
        var phases: [String] = []
        for target in targets {
            phases += objects[target]?["buildPhases"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        let sources = try #require(phases.first { objects[$0]?["isa"] == "PBXSourcesBuildPhase" })
        let list = try #require(objects[root]?["buildConfigurationList"]?.stringValue)
        let configuration = try #require(objects[list]?["buildConfigurations"]?[0]?.stringValue)
        return Places(mainGroup: mainGroup, sources: sources, configuration: configuration)
    }

    /// The edits that add `name` with ids `file` and `build` (what Xcode does when a file is added).
    static func addFile(_ name: String, file: String, build: String, _ p: Places) -> [String] {
        [
            "--set",
            "objects.\(file):={\"isa\": \"PBXFileReference\", \"lastKnownFileType\": \"sourcecode.swift\", "
                + "\"path\": \"\(name)\", \"sourceTree\": \"<group>\"}",
            "--set", "objects.\(build):={\"isa\": \"PBXBuildFile\", \"fileRef\": \"\(file)\"}",
            "--append", "objects.\(p.mainGroup).children=\(file)",
            "--append", "objects.\(p.sources).files=\(build)",
        ]
    }

    /// The lines Xcode writes for a file added with `addFile` (the sources phase is named Sources).
    static func lines(_ name: String, file: String, build: String) -> [String] {
        [
            "\t\t\(build) /* \(name) in Sources */ = {isa = PBXBuildFile; fileRef = \(file) /* \(name) */; };",
            "\t\t\(file) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; "
                + "path = \(name); sourceTree = \"<group>\"; };",
            "\t\t\t\t\(file) /* \(name) */,",
            "\t\t\t\t\(build) /* \(name) in Sources */,",
        ]
    }

    /// Lines of `b` not in `a` and of `a` not in `b`, as multisets.
    static func lineChanges(_ a: String, _ b: String) -> (added: [String], removed: [String]) {
        var counts: [Substring: Int] = [:]
        for line in a.split(separator: "\n") { counts[line, default: 0] += 1 }
        var added: [String] = []
        for line in b.split(separator: "\n") {
            if let c = counts[line], c > 0 { counts[line] = c - 1 } else { added.append(String(line)) }
        }
        let removed = counts.flatMap { line, c in Array(repeating: String(line), count: c) }
        return (added.sorted(), removed.sorted())
    }

    @Test("two branches adding files and changing a setting merge without conflicts", arguments: ProjectCorpus.files)
    func branches(_ file: String) throws {
        let dir = try TempDir()
        let original = try Data(contentsOf: ProjectCorpus.folder.appendingPathComponent(file))
        let p = try Self.places(try PlistValue.decode(from: original).value)
        let base = try dir.write(original, "base.pbxproj")
        let ours = try dir.write(original, "ours.pbxproj")
        let theirs = try dir.write(original, "theirs.pbxproj")
        let a = ("Ours.swift", "0A0A0A0A0A0A0A0A0A0A0A01", "0A0A0A0A0A0A0A0A0A0A0A02")
        let b = ("Theirs.swift", "FFFFFFFFFFFFFFFFFFFFFF01", "FFFFFFFFFFFFFFFFFFFFFF02")
        let r1 = try Tool.run(["edit", ours] + Self.addFile(a.0, file: a.1, build: a.2, p))
        #expect(r1.status == 0, "\(r1.stderr)")
        let setting = "objects.\(p.configuration).buildSettings.MERGE_TEST_SETTING=YES"
        let r2 = try Tool.run(["edit", theirs] + Self.addFile(b.0, file: b.1, build: b.2, p) + ["--set", setting])
        #expect(r2.status == 0, "\(r2.stderr)")

        let merge = try Tool.run(["merge", base, ours, theirs])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stderr.isEmpty)
        let merged = try String(contentsOf: URL(fileURLWithPath: ours), encoding: .utf8)
        let changes = Self.lineChanges(String(decoding: original, as: UTF8.self), merged)
        let expected =
            Self.lines(a.0, file: a.1, build: a.2) + Self.lines(b.0, file: b.1, build: b.2)
            + ["\t\t\t\tMERGE_TEST_SETTING = YES;"]
        #expect(changes.added == expected.sorted())
        #expect(changes.removed.isEmpty)
        // Each side's lines are where Xcode puts them: the build files in their section, by id.
        let lines = merged.split(separator: "\n").map(String.init)
        let end = try #require(lines.firstIndex(of: "/* End PBXBuildFile section */"))
        #expect(lines[end - 1] == expected[4])
    }
}
