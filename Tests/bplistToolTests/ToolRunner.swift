// Tests/bplistToolTests/ToolRunner.swift - Runs the built `bplist` executable as a subprocess.

import Foundation
import PropertyList
import Testing

/// The result of one run of the tool.
struct ToolResult: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// The lines of stderr, without the final empty one.
    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

enum Tool {
    /// The `bplist` executable: `$BPLIST_EXECUTABLE`, else next to the running test bundle (the
    /// products directory), looking a few levels up from both the test binary and `Bundle.main`.
    static let executable: URL? = {
        let fm = FileManager.default
        if let path = ProcessInfo.processInfo.environment["BPLIST_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var starts: [URL] = [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent()]
            .compactMap { $0 }
        if let arg0 = CommandLine.arguments.first {
            let cwd = URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true)
            let url = URL(fileURLWithPath: arg0, relativeTo: cwd).standardizedFileURL.resolvingSymlinksInPath()
            starts.append(url.deletingLastPathComponent())
        }
        for start in starts {
            var dir = start.resolvingSymlinksInPath()
            // The test binary may sit inside a bundle (…/X.xctest/Contents/MacOS) or directly in the products dir.
            for _ in 0..<4 {
                let candidate = dir.appendingPathComponent("bplist")
                var isDir: ObjCBool = false
                if fm.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue,
                    fm.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                dir.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// Runs `bplist args…`, feeding `stdin` (if any); stdout and stderr go through temporary files,
    /// so large outputs cannot deadlock a pipe. With `stdoutPath`, standard output goes to that file
    /// instead (e.g. `/dev/full`) and the result's `stdout` is empty.
    static func run(
        _ args: [String], stdin: Data? = nil, stdoutPath: String? = nil, executable other: URL? = nil,
        directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ToolResult {
        let exe: URL
        if let other {
            exe = other
        } else {
            exe = try #require(executable, "bplist executable not found next to the test bundle; set BPLIST_EXECUTABLE")
        }
        let dir = try TempDir()
        let outURL = dir.file("stdout")
        let errURL = dir.file("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = exe
        process.arguments = args
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out =
            if let stdoutPath { try #require(FileHandle(forWritingAtPath: stdoutPath)) } else {
                try FileHandle(forWritingTo: outURL)
            }
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = dir.file("stdin")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolResult(
            status: process.terminationStatus, stdout: stdoutPath == nil ? try Data(contentsOf: outURL) : Data(),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}

/// A temporary directory, removed when the value is released.
final class TempDir: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bplist-tool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `data` to `name` and returns its path.
    func write(_ data: Data, _ name: String) throws -> String {
        let u = file(name)
        try data.write(to: u)
        return u.path
    }
}
