// Tests/PropertyListTests/Support/CorpusFiles.swift - Finding the shared conformance corpus at test time.
//
// The corpus lives outside the repository, in `../shared/corpus` next to the package root; nothing
// from it is copied here. `KEYEDARCHIVE_CORPUS` overrides the location.

import Foundation
import Testing

/// One file of the corpus, named by its path relative to the corpus root (the test case's name).
struct CorpusFile: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    let relativePath: String
    let url: URL

    var name: String { url.lastPathComponent }
    /// The name without its last extension (`x.fromxml.bplist` -> `x.fromxml`).
    var stem: String { url.deletingPathExtension().lastPathComponent }
    var testDescription: String { relativePath }
    var description: String { relativePath }

    /// `NAME.json` beside the file.
    var oracleURL: URL { url.deletingPathExtension().appendingPathExtension("json") }
    var hasOracle: Bool { FileManager.default.fileExists(atPath: oracleURL.path) }

    func bytes() throws -> Data { try Data(contentsOf: url) }
    func oracle() throws -> String { try String(contentsOf: oracleURL, encoding: .utf8) }
}

enum Corpus {
    /// The corpus root: `$KEYEDARCHIVE_CORPUS`, else `<package root>/../shared/corpus`.
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["KEYEDARCHIVE_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is Tests/PropertyListTests/Support/CorpusFiles.swift: four levels below the package root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
    }()

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("valid").path) }

    /// The files of one folder (not recursive) whose names end with `suffix`, sorted by name.
    static func files(_ folder: String, suffix: String) -> [CorpusFile] {
        let dir = root.appendingPathComponent(folder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map {
            CorpusFile(relativePath: folder + "/" + $0, url: dir.appendingPathComponent($0))
        }
    }

    /// Every file of a folder that is not an oracle or a note.
    static func subjects(_ folder: String) -> [CorpusFile] {
        files(folder, suffix: "").filter {
            !$0.name.hasSuffix(".json") && !$0.name.hasSuffix(".md")
                && !$0.url.hasDirectoryPath
                && (try? $0.url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true
        }
    }

    /// Valid binary property lists with oracles: `valid/bplist`, `valid/keyed`.
    static let validBinary = files("valid/bplist", suffix: ".bplist") + files("valid/keyed", suffix: ".bplist")
    /// XML keyed archives (`valid/keyed-xml`).
    static let validXML = files("valid/keyed-xml", suffix: ".plist")
    /// XML originals of the malformed keyed archives; oracles cover the plist layer.
    static let invalidKeyedXML = files("invalid-keyed/xml", suffix: ".plist")
    /// Well-formed property lists that are malformed keyed archives; oracles cover the plist layer.
    static let invalidKeyed = files("invalid-keyed", suffix: ".bplist")
    static let invalid = subjects("invalid")
    static let ambiguous = subjects("ambiguous")
    static let unreadableByPlistlib = subjects("valid-unreadable-by-plistlib")
}
