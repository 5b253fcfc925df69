// Tests/PropertyListTests/XcodeProjectTests.swift - Xcode project files (`project.pbxproj`) read and
// written back in Xcode's layout: byte for byte without edits, only the lines of what an edit names.
//
// The five real projects of ../shared/corpus/pbxproj (objectVersion 46 to 70) are the oracle: Xcode
// wrote them. Expected texts of edits are the original text with lines replaced or inserted by hand.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

enum PbxprojCorpus {
    static let folder = Corpus.root.appendingPathComponent("pbxproj", isDirectory: true)
    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// File name and the project's name (its `.xcodeproj` folder, in SOURCES.md).
    static let projects: [(file: String, name: String)] = [
        ("AFNetworking-AFNetworking-AFNetworking.pbxproj", "AFNetworking"),
        ("SnapKit-SnapKit-Example-iOS.pbxproj", "Example-iOS"),
        ("jessesquires-JSQMessagesViewController-SwiftExample.pbxproj", "SwiftExample"),
        ("kean-Nuke-Nuke.pbxproj", "Nuke"),
        ("pointfreeco-swift-composable-architecture-SyncUps.pbxproj", "SyncUps"),
    ]

    static func text(_ file: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }
}

/// Lines of `text` (the last newline ends the last line).
func pbxLines(_ text: String) -> [String] {
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
}

@Suite(
    "Xcode project files in Xcode's layout",
    .enabled(if: PbxprojCorpus.isPresent, "skipped: the pbxproj corpus is not at ../shared/corpus/pbxproj"))
struct XcodeProjectCorpusTests {
    @Test("read and written back without edits: the same bytes", arguments: PbxprojCorpus.projects.map(\.file))
    func roundTrip(_ file: String) throws {
        let bytes = try Data(contentsOf: PbxprojCorpus.folder.appendingPathComponent(file))
        let project = try PlistValue.decode(from: bytes)
        #expect(project.format == .openStep)
        let name = try #require(PbxprojCorpus.projects.first { $0.file == file }?.name)
        #expect(project.writeOptions.openStepLayout == .xcodeProject(name: name))
        let written = try project.encoded(project.value)
        #expect(written == bytes)
        if written != bytes {
            let a = pbxLines(String(decoding: bytes, as: UTF8.self))
            let b = pbxLines(String(decoding: written, as: UTF8.self))
            let first = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
            Issue.record(
                "first different line \(first + 1): \(a.dropFirst(first).first ?? "-") | \(b.dropFirst(first).first ?? "-")"
            )
        }
    }

    @Test("one value set: one line changes", arguments: PbxprojCorpus.projects.map(\.file))
    func oneValueOneLine(_ file: String) throws {
        let text = try PbxprojCorpus.text(file)
        let project = try PlistValue.decode(from: Data(text.utf8))
        var value = project.value
        try value.set("99", at: "objectVersion")
        let written = String(decoding: try project.encoded(value), as: UTF8.self)
        var expected = pbxLines(text)
        let line = try #require(expected.firstIndex { $0.hasPrefix("\tobjectVersion = ") })
        expected[line] = "\tobjectVersion = 99;"
        #expect(pbxLines(written) == expected)
    }

    @Test("a build setting changed: only its line")
    func buildSetting() throws {
        let text = try PbxprojCorpus.text("SnapKit-SnapKit-Example-iOS.pbxproj")
        let project = try PlistValue.decode(from: Data(text.utf8))
        var value = project.value
        try value.set("6.0", at: "objects.44477D8325D86846009F5E40.buildSettings.SWIFT_VERSION")
        try value.set("Example App", at: "objects.44477D8325D86846009F5E40.buildSettings.PRODUCT_NAME")
        let written = pbxLines(String(decoding: try project.encoded(value), as: UTF8.self))
        var expected = pbxLines(text)
        // The Debug configuration's settings (lines 296 to 320): its SWIFT_VERSION and PRODUCT_NAME.
        let start = try #require(expected.firstIndex { $0.hasPrefix("\t\t44477D8325D86846009F5E40 /* Debug */") })
        let swift = try #require(expected[start...].firstIndex { $0 == "\t\t\t\tSWIFT_VERSION = 5.0;" })
        expected[swift] = "\t\t\t\tSWIFT_VERSION = 6.0;"
        let product = try #require(expected[start...].firstIndex { $0.hasPrefix("\t\t\t\tPRODUCT_NAME = ") })
        expected[product] = "\t\t\t\tPRODUCT_NAME = \"Example App\";"
        #expect(written == expected)
    }

    @Test("a renamed file: its line, and the comments Xcode writes after its id and its build file's")
    func renamedFile() throws {
        let text = try PbxprojCorpus.text("SnapKit-SnapKit-Example-iOS.pbxproj")
        let project = try PlistValue.decode(from: Data(text.utf8))
        var value = project.value
        try value.set("ApplicationDelegate.swift", at: "objects.44477D7125D86845009F5E40.path")
        let written = String(decoding: try project.encoded(value), as: UTF8.self)
        // Every mention of the name is this file's: its path, its comment, its build file's comment.
        let expected = text.replacingOccurrences(of: "AppDelegate.swift", with: "ApplicationDelegate.swift")
        #expect(text.components(separatedBy: "AppDelegate.swift").count - 1 == 6)
        #expect(pbxLines(written) == pbxLines(expected))
    }

    @Test("a new file added to a group and a build phase: four new lines, with Xcode's comments")
    func addedFile() throws {
        let text = try PbxprojCorpus.text("SnapKit-SnapKit-Example-iOS.pbxproj")
        let project = try PlistValue.decode(from: Data(text.utf8))
        var value = project.value
        let fileID = "5D64AC0428D087AD00FFEC29"
        let buildID = "5D64AC0328D087AD00FFEC29"
        try value.insert(
            [
                "isa": "PBXFileReference", "path": "Settings View.swift", "sourceTree": "<group>",
                "lastKnownFileType": "sourcecode.swift",
            ], at: ["objects", .init(fileID)])
        try value.insert(["fileRef": .string(fileID), "isa": "PBXBuildFile"], at: ["objects", .init(buildID)])
        try value.append(.string(fileID), to: "objects.44477D7025D86845009F5E40.children")
        try value.append(.string(buildID), to: "objects.44477D6A25D86845009F5E40.files")
        let written = pbxLines(String(decoding: try project.encoded(value), as: UTF8.self))

        var expected = pbxLines(text)
        func insert(_ line: String, after anchor: String) throws {
            let i = try #require(expected.firstIndex { $0.hasPrefix(anchor) })
            expected.insert(line, at: i + 1)
        }
        try insert(
            "\t\t\(buildID) /* Settings View.swift in Sources */ = {isa = PBXBuildFile; fileRef = \(fileID) "
                + "/* Settings View.swift */; };", after: "\t\t5D64AC0228D087AD00FFEC29 ")
        try insert(
            "\t\t\(fileID) /* Settings View.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; "
                + "path = \"Settings View.swift\"; sourceTree = \"<group>\"; };", after: "\t\t5D64AC0128D087A400FFEC29 "
        )
        try insert(
            "\t\t\t\t\(fileID) /* Settings View.swift */,",
            after: "\t\t\t\t440B452025D869A700334F54 /* SimpleLayoutViewController.swift */,")
        try insert(
            "\t\t\t\t\(buildID) /* Settings View.swift in Sources */,",
            after: "\t\t\t\t44477D7225D86845009F5E40 /* AppDelegate.swift in Sources */,")
        #expect(written == expected)
    }

    @Test("the layout comes from the header, not the name: without it, the standard OpenStep layout")
    func headerNotName() throws {
        let text = try PbxprojCorpus.text("SnapKit-SnapKit-Example-iOS.pbxproj")
        let headless = String(text.drop { $0 != "\n" }.dropFirst())
        let plain = try PlistValue.decode(from: Data(headless.utf8))
        #expect(plain.writeOptions.openStepLayout == .standard)
        #expect(try plain.encoded(plain.value) != Data(headless.utf8))
        let project = try PlistValue.decode(from: Data(text.utf8))
        #expect(plain.value == project.value)
        // Any value written with the layout reads back equal, and writes the same bytes again.
        let written = try project.value.encoded(as: .openStep, options: project.writeOptions)
        #expect(written == Data(text.utf8))
    }
}

@Suite("Xcode project layout: quoting, non-ASCII names, escaped quotes, synchronized groups")
struct XcodeProjectLayoutTests {
    /// A project as Xcode 16 writes one (objectVersion 77): non-ASCII names, escaped quotes, a
    /// synchronized root group with an exception set, a package product.
    static let project = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 77;
        \tobjects = {

        /* Begin PBXBuildFile section */
        \t\t0A0000000000000000000003 /* Café.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0A0000000000000000000002 /* Café.swift */; };
        \t\t0A0000000000000000000011 /* Tagged in Frameworks */ = {isa = PBXBuildFile; productRef = 0A0000000000000000000010 /* Tagged */; };
        /* End PBXBuildFile section */

        /* Begin PBXFileReference section */
        \t\t0A0000000000000000000002 /* Café.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = "Café.swift"; sourceTree = "<group>"; };
        \t\t0A0000000000000000000004 /* Ünïcode App.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = "Ünïcode App.app"; sourceTree = BUILT_PRODUCTS_DIR; };
        /* End PBXFileReference section */

        /* Begin PBXFileSystemSynchronizedBuildFileExceptionSet section */
        \t\t0A0000000000000000000020 /* PBXFileSystemSynchronizedBuildFileExceptionSet */ = {
        \t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;
        \t\t\tmembershipExceptions = (
        \t\t\t\tInfo.plist,
        \t\t\t);
        \t\t\ttarget = 0A0000000000000000000030 /* Ünïcode App */;
        \t\t};
        /* End PBXFileSystemSynchronizedBuildFileExceptionSet section */

        /* Begin PBXFileSystemSynchronizedRootGroup section */
        \t\t0A0000000000000000000021 /* Sources */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (0A0000000000000000000020 /* PBXFileSystemSynchronizedBuildFileExceptionSet */, ); explicitFileTypes = {}; explicitFolders = (); path = Sources; sourceTree = "<group>"; };
        /* End PBXFileSystemSynchronizedRootGroup section */

        /* Begin PBXFrameworksBuildPhase section */
        \t\t0A0000000000000000000033 /* Frameworks */ = {
        \t\t\tisa = PBXFrameworksBuildPhase;
        \t\t\tfiles = (
        \t\t\t\t0A0000000000000000000011 /* Tagged in Frameworks */,
        \t\t\t);
        \t\t};
        /* End PBXFrameworksBuildPhase section */

        /* Begin PBXGroup section */
        \t\t0A0000000000000000000001 = {
        \t\t\tisa = PBXGroup;
        \t\t\tchildren = (
        \t\t\t\t0A0000000000000000000021 /* Sources */,
        \t\t\t\t0A0000000000000000000002 /* Café.swift */,
        \t\t\t\t0A0000000000000000000004 /* Ünïcode App.app */,
        \t\t\t);
        \t\t\tsourceTree = "<group>";
        \t\t};
        /* End PBXGroup section */

        /* Begin PBXNativeTarget section */
        \t\t0A0000000000000000000030 /* Ünïcode App */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = 0A0000000000000000000041 /* Build configuration list for PBXNativeTarget "Ünïcode App" */;
        \t\t\tbuildPhases = (
        \t\t\t\t0A0000000000000000000031 /* Sources */,
        \t\t\t\t0A0000000000000000000033 /* Frameworks */,
        \t\t\t\t0A0000000000000000000032 /* Run "lint" */,
        \t\t\t);
        \t\t\tfileSystemSynchronizedGroups = (
        \t\t\t\t0A0000000000000000000021 /* Sources */,
        \t\t\t);
        \t\t\tname = "Ünïcode App";
        \t\t\tpackageProductDependencies = (
        \t\t\t\t0A0000000000000000000010 /* Tagged */,
        \t\t\t);
        \t\t\tproductName = "Ünïcode App";
        \t\t\tproductReference = 0A0000000000000000000004 /* Ünïcode App.app */;
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        \t\t0A0000000000000000000050 /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tattributes = {
        \t\t\t\tLastUpgradeCheck = 1600;
        \t\t\t\tTargetAttributes = {
        \t\t\t\t\t0A0000000000000000000030 = {
        \t\t\t\t\t\tCreatedOnToolsVersion = 16.0;
        \t\t\t\t\t};
        \t\t\t\t};
        \t\t\t};
        \t\t\tbuildConfigurationList = 0A0000000000000000000040 /* Build configuration list for PBXProject "Café Project" */;
        \t\t\tmainGroup = 0A0000000000000000000001;
        \t\t\tpackageReferences = (
        \t\t\t\t0A0000000000000000000012 /* XCRemoteSwiftPackageReference "swift-tagged" */,
        \t\t\t);
        \t\t\ttargets = (
        \t\t\t\t0A0000000000000000000030 /* Ünïcode App */,
        \t\t\t);
        \t\t};
        /* End PBXProject section */

        /* Begin PBXShellScriptBuildPhase section */
        \t\t0A0000000000000000000032 /* Run "lint" */ = {
        \t\t\tisa = PBXShellScriptBuildPhase;
        \t\t\tname = "Run \\"lint\\"";
        \t\t\tshellScript = "echo \\"a \\\\ b\\"\\n\\tdone\\n";
        \t\t};
        /* End PBXShellScriptBuildPhase section */

        /* Begin PBXSourcesBuildPhase section */
        \t\t0A0000000000000000000031 /* Sources */ = {
        \t\t\tisa = PBXSourcesBuildPhase;
        \t\t\tfiles = (
        \t\t\t\t0A0000000000000000000003 /* Café.swift in Sources */,
        \t\t\t);
        \t\t};
        /* End PBXSourcesBuildPhase section */

        /* Begin XCBuildConfiguration section */
        \t\t0A0000000000000000000042 /* Debug */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\t"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Developer";
        \t\t\t\tDEVELOPMENT_TEAM = "";
        \t\t\t\tINFOPLIST_KEY_CFBundleDisplayName = "Ünïcode ☃";
        \t\t\t\tOTHER_SWIFT_FLAGS = "-D DEBUG";
        \t\t\t\tPRODUCT_NAME = "$(TARGET_NAME)";
        \t\t\t\tTEMPLATE = "___FILEBASENAME___";
        \t\t\t\tURL = "https://example.com/a";
        \t\t\t};
        \t\t\tname = Debug;
        \t\t};
        /* End XCBuildConfiguration section */

        /* Begin XCConfigurationList section */
        \t\t0A0000000000000000000040 /* Build configuration list for PBXProject "Café Project" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\t0A0000000000000000000042 /* Debug */,
        \t\t\t);
        \t\t\tdefaultConfigurationIsVisible = 0;
        \t\t\tdefaultConfigurationName = Debug;
        \t\t};
        \t\t0A0000000000000000000041 /* Build configuration list for PBXNativeTarget "Ünïcode App" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t);
        \t\t\tdefaultConfigurationIsVisible = 0;
        \t\t};
        /* End XCConfigurationList section */

        /* Begin XCRemoteSwiftPackageReference section */
        \t\t0A0000000000000000000012 /* XCRemoteSwiftPackageReference "swift-tagged" */ = {
        \t\t\tisa = XCRemoteSwiftPackageReference;
        \t\t\trepositoryURL = "https://github.com/pointfreeco/swift-tagged.git";
        \t\t\trequirement = {
        \t\t\t\tkind = upToNextMajorVersion;
        \t\t\t\tminimumVersion = 0.10.0;
        \t\t\t};
        \t\t};
        /* End XCRemoteSwiftPackageReference section */

        /* Begin XCSwiftPackageProductDependency section */
        \t\t0A0000000000000000000010 /* Tagged */ = {
        \t\t\tisa = XCSwiftPackageProductDependency;
        \t\t\tpackage = 0A0000000000000000000012 /* XCRemoteSwiftPackageReference "swift-tagged" */;
        \t\t\tproductName = Tagged;
        \t\t};
        /* End XCSwiftPackageProductDependency section */
        \t};
        \trootObject = 0A0000000000000000000050 /* Project object */;
        }

        """

    @Test("a project with non-ASCII names, escaped quotes and a synchronized group writes back byte for byte")
    func roundTrip() throws {
        let bytes = Data(Self.project.utf8)
        let decoded = try PlistValue.decode(from: bytes)
        #expect(decoded.writeOptions.openStepLayout == .xcodeProject(name: "Café Project"))
        #expect(decoded.value["objects"]?["0A0000000000000000000032"]?["name"] == "Run \"lint\"")
        #expect(decoded.value["objects"]?["0A0000000000000000000032"]?["shellScript"] == "echo \"a \\ b\"\n\tdone\n")
        #expect(decoded.value["objects"]?["0A0000000000000000000004"]?["path"] == "Ünïcode App.app")
        let written = try decoded.encoded(decoded.value)
        #expect(String(decoding: written, as: UTF8.self) == Self.project)
    }

    @Test("a value built in code gets Xcode's sections, order and comments")
    func built() throws {
        let value: PlistValue = [
            "rootObject": "B0000000000000000000000B",
            "objects": [
                "A0000000000000000000000A": ["path": "x-y.swift", "isa": "PBXFileReference"],
                "B0000000000000000000000B": ["mainGroup": "C0000000000000000000000C", "isa": "PBXProject"],
                "C0000000000000000000000C": ["isa": "PBXGroup", "children": ["A0000000000000000000000A"]],
            ],
            "archiveVersion": "1",
        ]
        let options = PlistWriteOptions(openStepLayout: .xcodeProject(name: "P"))
        let text = String(decoding: try value.encoded(as: .openStep, options: options), as: UTF8.self)
        let expected = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tobjects = {

            /* Begin PBXFileReference section */
            \t\tA0000000000000000000000A /* x-y.swift */ = {isa = PBXFileReference; path = "x-y.swift"; };
            /* End PBXFileReference section */

            /* Begin PBXGroup section */
            \t\tC0000000000000000000000C = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t\tA0000000000000000000000A /* x-y.swift */,
            \t\t\t);
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXProject section */
            \t\tB0000000000000000000000B /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tmainGroup = C0000000000000000000000C;
            \t\t};
            /* End PBXProject section */
            \t};
            \trootObject = B0000000000000000000000B /* Project object */;
            }

            """
        #expect(text == expected)
        #expect(try PlistValue.decode(from: Data(text.utf8)).value == value)
    }

    @Test("what OpenStep cannot hold is refused in this layout too, naming the key path")
    func refused() throws {
        let value: PlistValue = ["objects": ["A": ["isa": "PBXGroup", "count": 3]]]
        let options = PlistWriteOptions(openStepLayout: .xcodeProject(name: "P"))
        let error = try #require(throws: PlistError.self) { try value.encoded(as: .openStep, options: options) }
        #expect(error.code == .unencodable)
        #expect(error.detail.contains("objects.A.count"))
    }
}
