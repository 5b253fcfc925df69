// Tests/bplistToolTests/TypedStreamCorpusStringsTests.swift - `bplist unarchive --json` of a real
// typedstream carries every string python-typedstream finds in it (issue 31: the one-time code's
// `displayCode`, texts that were shown only inside an escaped description).
//
// The expectation is python-typedstream's (LGPL-3.0, installed outside the repository by
// `scripts/typedstream-strings --setup`), computed when the test runs: neither its code nor the
// corpus's strings are stored here. The typedstreams are every real one under the shared corpus
// (`$KEYEDARCHIVE_CORPUS`, else `../shared/corpus` beside the package) and under the folders named in
// `$KEYEDARCHIVE_TYPEDSTREAMS` (separated by `:`): whole files, and data values of property lists.
// Each missing piece (corpus, typedstreams in it, the Python reader) skips the test, saying which.

import Foundation
import PropertyList
import Testing
import TypedStream

@Suite struct TypedStreamCorpusStringsTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shared corpus, and the extra folders of `$KEYEDARCHIVE_TYPEDSTREAMS`.
    static let roots: [URL] = {
        let env = ProcessInfo.processInfo.environment
        let corpus =
            env["KEYEDARCHIVE_CORPUS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? package.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let extra = (env["KEYEDARCHIVE_TYPEDSTREAMS"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0))
        }
        return ([corpus] + extra).filter { FileManager.default.fileExists(atPath: $0.path) }
    }()

    /// Every typedstream found under the roots: its name (a file, or a file and the place of a data
    /// value in it) and its bytes.
    static let typedStreams: [(name: String, bytes: Data)] = {
        var found: [(String, Data)] = []
        for root in roots {
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = files?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                    let data = try? Data(contentsOf: url), data.count <= 1 << 26
                else { continue }
                let name = String(url.path.dropFirst(root.path.count))
                if TypedStreamArchive.isTypedStream(data) {
                    found.append((name, data))
                } else if let plist = try? PlistValue.decode(from: data).value {
                    // Each distinct node once, so a plist that shares sub-trees cannot make this slow.
                    var n = 0
                    _ = plist.containsDistinctNode { value in
                        if case .data(let d) = value, TypedStreamArchive.isTypedStream(d) {
                            found.append(("\(name) (data value \(n))", d))
                            n += 1
                        }
                        return false
                    }
                }
            }
        }
        return found
    }()

    /// Whether python-typedstream answers (`scripts/typedstream-strings` with no file).
    static let pythonReaderAvailable: Bool = {
        (try? run(script: [])).map { $0.status == 0 } ?? false
    }()

    static func run(script arguments: [String]) throws -> (status: Int32, stdout: Data) {
        let dir = try TempDir()
        let out = dir.file("stdout")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = package.appendingPathComponent("scripts/typedstream-strings")
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try Data(contentsOf: out))
    }

    /// Every string in a value: dictionary keys and string values.
    static func strings(in value: PlistValue) -> Set<String> {
        var out = Set<String>()
        _ = value.containsDistinctNode { v in
            if let s = v.stringValue { out.insert(s) }
            return false
        }
        return out
    }

    @Test(
        .enabled(if: !roots.isEmpty, "the shared corpus is not beside the package (nor $KEYEDARCHIVE_TYPEDSTREAMS)"),
        .enabled(
            if: roots.isEmpty || !typedStreams.isEmpty,
            "no real typedstream in the corpus (files or data values); $KEYEDARCHIVE_TYPEDSTREAMS adds folders"),
        .enabled(
            if: typedStreams.isEmpty || pythonReaderAvailable,
            "python-typedstream is not installed: run scripts/typedstream-strings --setup"))
    func everyStringThePythonReaderFindsIsInTheJSON() throws {
        let dir = try TempDir()
        var paths: [String: String] = [:]
        for (i, stream) in Self.typedStreams.enumerated() {
            paths[try dir.write(stream.bytes, "\(i).typedstream")] = stream.name
        }
        let expected = try Self.run(script: paths.keys.sorted())
        #expect(expected.status == 0)
        var checkedStrings = 0
        var readByPython = 0
        for line in String(decoding: expected.stdout, as: UTF8.self).split(separator: "\n") {
            let entry = try PlistValue(canonicalJSON: String(line))
            let path = try #require(entry["file"]?.stringValue)
            let name = paths[path] ?? path
            // A stream the Python reader refuses has no expectation.
            guard let pythonStrings = entry["strings"]?.arrayValue?.compactMap(\.stringValue) else { continue }
            readByPython += 1
            let r = try Tool.run(["unarchive", "--json", path])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            guard r.status == 0 else { continue }
            let ours = Self.strings(in: try PlistValue(canonicalJSONBytes: r.stdout))
            let missing = Set(pythonStrings).subtracting(ours)
            #expect(missing.isEmpty, "\(name): not in the --json output: \(missing.sorted())")
            checkedStrings += pythonStrings.count
        }
        #expect(readByPython > 0, "python-typedstream read none of the \(paths.count) typedstreams")
        print("typedstream strings: \(checkedStrings) strings of \(readByPython) typedstreams checked")
    }
}
