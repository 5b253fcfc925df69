// Sources/bplist/Support/IO.swift - Reading inputs, writing outputs, and messages on stderr.

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
        // A pipe, a device or a process substitution (`<(git show HEAD:Info.plist)`): read to its end.
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if let type, type != .typeRegular, type != .typeSymbolicLink {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw ToolError("cannot read '\(path)'") }
            defer { try? handle.close() }
            return handle.readDataToEndOfFile()
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

    /// Writes `data` to `path` atomically, or to stdout for `-`.
    ///
    /// A file goes through the library's one atomic write (`AtomicFile`): a temporary file in the
    /// directory of the file `path` names (following symbolic links, so a link keeps pointing at the
    /// new content), given the old file's permissions (and owner, when allowed), flushed to disk,
    /// renamed over it, the directory flushed. On any failure the old file is left as it was and the
    /// temporary file is removed.
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
            try AtomicFile.write(data, to: path)
        } catch {
            throw ToolError(error.detail)
        }
    }

    /// The file `path` names after following symbolic links (`AtomicFile.resolvingLinks`): the file a
    /// write to `path` replaces.
    static func resolvingLinks(_ path: String) -> String {
        AtomicFile.resolvingLinks(path)
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
    var maxOutputNodes = OutputBudget.default.maxValues

    @Option(name: .long, help: "Refuse to write more than about this many bytes (checked before writing).")
    var maxOutputBytes = OutputBudget.default.maxBytes

    var budget: OutputBudget { OutputBudget(maxValues: maxOutputNodes, maxBytes: maxOutputBytes) }

    /// The budget for an input of `input.count` bytes: a limit left at its default grows with the
    /// input (a node per input byte, 16 bytes of text per input byte), so a large real file converts
    /// without flags while a tiny hostile one still stops at the defaults.
    func budget(for input: Data) -> OutputBudget {
        OutputBudget.scaled(
            OutputBudget(maxValues: maxOutputNodes, maxBytes: maxOutputBytes), inputBytes: input.count,
            nodesGiven: maxOutputNodes != OutputBudget.default.maxValues,
            bytesGiven: maxOutputBytes != OutputBudget.default.maxBytes)
    }

    /// `value` with its nested plists decoded in place (within the budget), each one that stays data
    /// reported as a warning line on stderr.
    func expandingNested(_ value: PlistValue) -> PlistValue {
        let expanded = value.expandingNestedPlists(budget: budget)
        for issue in expanded.issues { IO.printError("warning: \(issue)") }
        return expanded.value
    }
}

/// How the commands read: by default, every file the toolchain's `plutil` reads; `--strict`, only what
/// the format allows.
struct ReadOptions: ParsableArguments {
    @Flag(name: .long, help: "Accept bytes after the property list (they are reported, not read).")
    var allowTrailing = false

    @Flag(
        name: .long,
        help: """
            Also read ASCII-marked (0x5n) binary strings holding bytes above 0x7F, as UTF-8 (some \
            non-Apple writers emit them).
            """)
    var lenientStrings = false

    @Flag(
        name: .long,
        help: """
            Refuse what the format forbids instead of reading it as Apple's tools do: unpaired UTF-16 \
            surrogates in binary strings (read as U+FFFD by default, with a warning naming the key \
            path) and XML dates with fields past their range (by default they count on, as \
            CoreFoundation reads them: month 13 is the next January, 24:00:00 the next day).
            """)
    var strict = false

    func validate() throws {
        if strict && lenientStrings { throw ValidationError("give either --strict or --lenient-strings, not both") }
    }

    /// How binary documents are opened (lone surrogates are read leniently only through
    /// `PlistInput`, which warns where: the strict read comes first).
    var documentOptions: PlistReadOptions {
        PlistReadOptions(
            allowsTrailingData: allowTrailing, allowsUTF8InASCIIStrings: lenientStrings,
            replacesLoneSurrogates: !strict,
            normalizesDates: !strict)
    }

    /// The strict reading (the library's defaults, with --allow-trailing and --lenient-strings).
    static let strictDefault = ReadOptions.parseOrDefault(["--strict"])

    /// The defaults of the command line (lenient).
    static let standard = ReadOptions.parseOrDefault([])

    private static func parseOrDefault(_ arguments: [String]) -> ReadOptions {
        (try? ReadOptions.parse(arguments)) ?? ReadOptions()
    }
}

extension OutputBudget {
    /// `budget` with each limit not given explicitly raised to what an input of `inputBytes` bytes
    /// can expand to without sharing (one node per input byte, 16 bytes of text per input byte).
    static func scaled(_ budget: OutputBudget, inputBytes: Int, nodesGiven: Bool = false, bytesGiven: Bool = false)
        -> OutputBudget
    {
        var result = budget
        if !nodesGiven { result.maxValues = max(budget.maxValues, inputBytes) }
        if !bytesGiven {
            result.maxBytes = max(budget.maxBytes, inputBytes.multipliedReportingOverflow(by: 16).partialValue)
        }
        return result
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

/// A file written through the library's atomic write (`AtomicFile`): a temporary file beside it
/// (beside the file a symbolic link names), created at the first delivery, renamed over it once
/// complete. A target that is not a regular file (`/dev/null`, a pipe) is written directly.
private final class AtomicFileTarget: OutputTarget {
    private let file: AtomicFile
    private var failure: PlistError?

    init(_ path: String) { file = AtomicFile(path: path) }

    func deliver(_ chunk: [UInt8]) -> Bool {
        do {
            try file.write(chunk.span)
            return true
        } catch {
            failure = error
            return false
        }
    }

    func commit(complete: Bool) throws(ToolError) {
        do throws(PlistError) {
            guard complete else { throw failure ?? PlistError(.io, "cannot write '\(file.path)': write failed") }
            try file.commit()
        } catch {
            file.abandon()
            throw ToolError(error.detail)
        }
    }

    func abandon() { file.abandon() }
}
