// Sources/KeyedArchiveTestSupport/Corpus.swift - Finding the shared conformance corpus at test time.
//
// The corpus lives outside the repository, in `../shared/corpus` next to the package root; nothing
// from it is copied here. `KEYEDARCHIVE_CORPUS` overrides the location. When it is not there, the
// first look says so on standard error, and the tests that need it are skipped (each with a reason).

public import Foundation

/// One file of the corpus, named by its path relative to the corpus root (the test case's name).
public struct CorpusFile: Sendable, CustomStringConvertible {
    public let relativePath: String
    public let url: URL

    public var name: String { url.lastPathComponent }
    /// The name without its last extension (`x.fromxml.bplist` -> `x.fromxml`).
    public var stem: String { url.deletingPathExtension().lastPathComponent }
    public var description: String { relativePath }

    /// `NAME.json` beside the file.
    public var oracleURL: URL { url.deletingPathExtension().appendingPathExtension("json") }
    public var hasOracle: Bool { FileManager.default.fileExists(atPath: oracleURL.path) }

    public func bytes() throws -> Data { try Data(contentsOf: url) }
    public func oracle() throws -> String { try String(contentsOf: oracleURL, encoding: .utf8) }
}

public enum Corpus {
    /// The corpus root: `$KEYEDARCHIVE_CORPUS`, else `<package root>/../shared/corpus`.
    public static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["KEYEDARCHIVE_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is Sources/KeyedArchiveTestSupport/Corpus.swift: three levels below the package
        // root. Symbolic links resolved first: the nested packages (fuzz/, Benchmarks/) compile it
        // through a link to this folder.
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
    }()

    /// Whether the corpus is there (its `valid` folder). The first time it is not, one line on
    /// standard error says where it was looked for: the tests that need it are skipped, not passed.
    public static let isPresent: Bool = {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("valid").path)
        if !present {
            FileHandle.standardError.write(
                Data(
                    ("KeyedArchiveTestSupport: no corpus at \(root.path) (set KEYEDARCHIVE_CORPUS): "
                        + "the tests that read it are skipped\n").utf8))
        }
        return present
    }()

    /// The files of one folder (not recursive) whose names end with `suffix`, sorted by name.
    public static func files(_ folder: String, suffix: String) -> [CorpusFile] {
        guard isPresent else { return [] }
        let dir = root.appendingPathComponent(folder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map {
            CorpusFile(relativePath: folder + "/" + $0, url: dir.appendingPathComponent($0))
        }
    }

    /// The names of a folder's files ending with `suffix` (binary property lists by default), sorted.
    public static func names(_ folder: String, suffix: String = ".bplist") -> [String] {
        files(folder, suffix: suffix).map(\.name)
    }

    /// The bytes of the file `name` in `folder`.
    public static func data(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name))
    }

    /// Every file of a folder that is not an oracle or a note.
    public static func subjects(_ folder: String) -> [CorpusFile] {
        files(folder, suffix: "").filter {
            !$0.name.hasSuffix(".json") && !$0.name.hasSuffix(".md")
                && !$0.url.hasDirectoryPath
                && (try? $0.url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true
        }
    }

    /// Valid binary property lists with oracles: `valid/bplist`, `valid/keyed`.
    public static let validBinary = files("valid/bplist", suffix: ".bplist") + files("valid/keyed", suffix: ".bplist")
    /// XML keyed archives (`valid/keyed-xml`).
    public static let validXML = files("valid/keyed-xml", suffix: ".plist")
    /// XML originals of the malformed keyed archives; oracles cover the plist layer.
    public static let invalidKeyedXML = files("invalid-keyed/xml", suffix: ".plist")
    /// Well-formed property lists that are malformed keyed archives; oracles cover the plist layer.
    public static let invalidKeyed = files("invalid-keyed", suffix: ".bplist")
    public static let invalid = subjects("invalid")
    public static let ambiguous = subjects("ambiguous")
    public static let unreadableByPlistlib = subjects("valid-unreadable-by-plistlib")
}
