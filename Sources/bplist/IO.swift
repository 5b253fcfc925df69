// Sources/bplist/IO.swift - Reading inputs, writing outputs, and messages on stderr.

import ArgumentParser
import BinaryPlist
import Foundation
import Synchronization

enum IO {
    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String) throws(ToolError) -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ToolError("cannot read '\(path)': no such file")
        }
        if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
            throw ToolError("cannot read '\(path)': it is a directory")
        }
        do {
            // Files of 1 MiB or more are memory-mapped: a lookup or a validation reads only the pages
            // it needs. The maps are kept until the command ends, which checks them (`changedInput`).
            let file = try FileBytes(contentsOf: url)
            if let mapping = file.mapping { mappedInputs.withLock { $0.append(mapping) } }
            return file.data
        } catch {
            throw ToolError("cannot read '\(path)': \(error.detail)")
        }
    }

    /// The maps of the input files read so far.
    private static let mappedInputs = Mutex<[FileMapping]>([])

    /// `fileChanged` when an input file shrank while the command read it through its map (the reads
    /// that touched the vanished pages saw zeros instead of crashing the tool on SIGBUS).
    static func changedInput() -> BinaryPlistError? {
        mappedInputs.withLock { maps in maps.lazy.compactMap { $0.changedError() }.first }
    }

    /// Writes `data` to `path` atomically (a temporary file renamed into place), or to stdout for `-`.
    static func write(_ data: Data, to path: String) throws(ToolError) {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ToolError("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes text to standard output as is.
    static func printOut(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes one line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Options shared by the commands that read property lists.
/// How much a command that writes an expanded form (JSON, XML, OpenStep, a tree) may write.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            Refuse to write more than this many nodes: a shared sub-tree is written once per reference, \
            so a tiny hostile file can expand without bound. Checked before writing.
            """)
    var maxOutputNodes = OutputBudget.default.maxNodes

    @Option(name: .long, help: "Refuse to write more than about this many bytes (checked before writing).")
    var maxOutputBytes = OutputBudget.default.maxBytes

    var budget: OutputBudget { OutputBudget(maxNodes: maxOutputNodes, maxBytes: maxOutputBytes) }

    /// `value` with its nested plists decoded in place (within the budget), each one that stays data
    /// reported as a warning line on stderr.
    func expandingNested(_ value: PlistValue) -> PlistValue {
        let expanded = value.expandingNestedPlists(budget: budget)
        for issue in expanded.issues { IO.printError("warning: \(issue)") }
        return expanded.value
    }
}

struct ReadOptions: ParsableArguments {
    @Flag(name: .long, help: "Accept bytes after the property list (they are reported, not read).")
    var allowTrailing = false

    @Flag(
        name: .long,
        help: """
            Read strings as CoreFoundation does: ASCII-marked (0x5n) strings holding bytes above 0x7F \
            as UTF-8, and unpaired UTF-16 surrogates as U+FFFD.
            """)
    var lenientStrings = false

    var documentOptions: BinaryPlistDocument.Options {
        BinaryPlistDocument.Options(
            allowTrailingData: allowTrailing, asciiStringsMayBeUTF8: lenientStrings,
            replacesLoneSurrogates: lenientStrings)
    }
}
