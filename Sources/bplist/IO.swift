// Sources/bplist/IO.swift - Reading inputs, writing outputs, and messages on stderr.

import ArgumentParser
import Foundation
import PropertyList
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
            // The tool opts in to mapping: files of 1 MiB or more are memory-mapped, so a lookup or
            // a validation reads only the pages it needs (the library's default reads). The maps are
            // kept until the command ends, which checks them (`changedInput`).
            let file = try FileBytes(contentsOf: url, access: .mappedIfLarge)
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
    static func changedInput() -> PlistError? {
        mappedInputs.withLock { maps in maps.lazy.compactMap { $0.changedError() }.first }
    }

    /// Writes `data` to `path` atomically (a temporary file renamed into place), or to stdout for `-`.
    static func write(_ data: Data, to path: String) throws(ToolError) {
        if path == "-" {
            do {
                try FileHandle.standardOutput.write(contentsOf: data)
            } catch {
                throw ToolError("cannot write standard output: \(error.localizedDescription)")
            }
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ToolError("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    /// Runs `body` with a sink whose bytes go to `path` (standard output for `-`) as it fills, 64 KiB
    /// at a time, so the output is never held whole.
    ///
    /// A file is written atomically, as ``write(_:to:)`` writes one: into a temporary file in the same
    /// directory (created at the first delivery), flushed to disk, then renamed over `path`; when
    /// `body` throws or a write fails, the temporary file is removed and `path` is left as it was.
    /// Standard output gets what `body` wrote up to an error (the writers check everything they can
    /// before their first byte). `beforeOutput` runs once before the first byte reaches standard
    /// output (to erase a progress line on the same terminal).
    static func stream(
        to path: String, beforeOutput: (() -> Void)? = nil, _ body: (inout TextSink) throws -> Void
    ) throws {
        let target: OutputTarget = path == "-" ? StandardOutputTarget(beforeOutput) : AtomicFileTarget(path)
        var sink = TextSink { chunk in target.deliver(chunk) }
        do {
            try body(&sink)
        } catch {
            target.abandon()
            throw error
        }
        let complete = sink.finish()
        try target.commit(complete: complete)
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

/// Where ``IO/stream(to:beforeOutput:_:)`` sends a sink's deliveries.
private protocol OutputTarget: AnyObject {
    /// Writes one delivery; `false` (the reason kept) when it could not.
    func deliver(_ chunk: [UInt8]) -> Bool
    /// Ends a complete output (`complete`: every delivery succeeded); throws the reason otherwise.
    func commit(complete: Bool) throws(ToolError)
    /// Ends an output its producer gave up on.
    func abandon()
}

/// Standard output: each delivery written at once.
private final class StandardOutputTarget: OutputTarget {
    private var beforeOutput: (() -> Void)?
    private var failure: String?

    init(_ beforeOutput: (() -> Void)?) { self.beforeOutput = beforeOutput }

    func deliver(_ chunk: [UInt8]) -> Bool {
        if let first = beforeOutput {
            beforeOutput = nil
            first()
        }
        do {
            try FileHandle.standardOutput.write(contentsOf: chunk)
            return true
        } catch {
            failure = error.localizedDescription
            return false
        }
    }

    func commit(complete: Bool) throws(ToolError) {
        guard complete else { throw ToolError("cannot write standard output: \(failure ?? "write failed")") }
    }

    func abandon() {}
}

/// A file written atomically: a temporary file beside it, renamed over it once complete.
private final class AtomicFileTarget: OutputTarget {
    private let path: String
    private let temporaryPath: String
    private var handle: FileHandle?
    private var failure: String?

    init(_ path: String) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).bplist-\(UUID().uuidString).tmp").path
    }

    /// The temporary file, created on first use.
    private func open() throws -> FileHandle {
        if let handle { return handle }
        let url = URL(fileURLWithPath: temporaryPath)
        try Data().write(to: url)  // creates it (mode 0666 less the umask, as an atomic write does)
        let opened = try FileHandle(forWritingTo: url)
        handle = opened
        return opened
    }

    func deliver(_ chunk: [UInt8]) -> Bool {
        do {
            try open().write(contentsOf: chunk)
            return true
        } catch {
            failure = Self.describe(error)
            return false
        }
    }

    func commit(complete: Bool) throws(ToolError) {
        do {
            guard complete else { throw ToolError(failure ?? "write failed") }
            let file = try open()
            try file.synchronize()
            try file.close()
            handle = nil
            if let errorNumber = AtomicRename.move(temporaryPath, over: path) {
                throw NSError(domain: NSPOSIXErrorDomain, code: Int(errorNumber))
            }
        } catch {
            abandon()
            throw ToolError("cannot write '\(path)': \(Self.describe(error))")
        }
    }

    func abandon() {
        try? handle?.close()
        handle = nil
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    private static func describe(_ error: any Error) -> String {
        (error as? ToolError)?.description ?? error.localizedDescription
    }
}
