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
    /// A file is written as ``stream(to:beforeOutput:_:)`` writes one: a temporary file in the
    /// directory of the file `path` names (following symbolic links, so a link keeps pointing at the
    /// new content), flushed to disk, given the old file's permissions (and owner, when allowed), then
    /// renamed over it. On any failure the old file is left as it was.
    static func write(_ data: Data, to path: String) throws(ToolError) {
        if path == "-" {
            do {
                try FileHandle.standardOutput.write(contentsOf: data)
            } catch {
                throw ToolError("cannot write standard output: \(error.localizedDescription)")
            }
            return
        }
        let target = AtomicFileTarget(path)
        try target.commit(complete: target.deliver(data))
    }

    /// The file `path` names after following symbolic links (a relative link is read from the link's
    /// directory); `path` itself when it is not a link. A link to a file that does not exist yet
    /// names that file. Stops after 40 links (a loop), as the kernel does.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            if destination.hasPrefix("/") {
                current = destination
            } else {
                current =
                    URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
            }
        }
        return current
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

/// A file written atomically: a temporary file beside it (beside the file a symbolic link names),
/// flushed, given the old file's permissions, renamed over it once complete.
private final class AtomicFileTarget: OutputTarget {
    /// The path as given (for messages).
    private let path: String
    /// The file replaced: `path` with its symbolic links followed.
    private let target: String
    private let temporaryPath: String
    /// The target is not a regular file (`/dev/null`, a named pipe, a terminal): written to directly,
    /// never replaced.
    private let direct: Bool
    private var handle: FileHandle?
    private var failure: String?

    init(_ path: String) {
        self.path = path
        target = IO.resolvingLinks(path)
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        direct = type != nil && type != .typeRegular
        let url = URL(fileURLWithPath: target)
        temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).bplist-\(UUID().uuidString).tmp").path
    }

    /// The temporary file (or a non-regular target itself), created on first use.
    private func open() throws -> FileHandle {
        if let handle { return handle }
        if direct {
            guard let opened = FileHandle(forWritingAtPath: target) else {
                throw ToolError("cannot open '\(path)' for writing")
            }
            handle = opened
            return opened
        }
        let url = URL(fileURLWithPath: temporaryPath)
        try Data().write(to: url)  // creates it (mode 0666 less the umask, as an atomic write does)
        let opened = try FileHandle(forWritingTo: url)
        handle = opened
        return opened
    }

    func deliver(_ chunk: [UInt8]) -> Bool { deliver(bytes: chunk) }

    /// Writes `data` whole (no copy into an array).
    func deliver(_ data: Data) -> Bool { deliver(bytes: data) }

    private func deliver(bytes: some DataProtocol) -> Bool {
        do {
            try open().write(contentsOf: bytes)
            return true
        } catch {
            failure = Self.describe(error)
            return false
        }
    }

    func commit(complete: Bool) throws(ToolError) {
        do {
            guard complete else { throw ToolError(failure ?? "write failed") }
            if direct {
                try open().close()
                handle = nil
                return
            }
            let file = try open()
            try file.synchronize()
            try file.close()
            handle = nil
            keepAttributes()
            if let errorNumber = AtomicRename.move(temporaryPath, over: target) {
                throw NSError(domain: NSPOSIXErrorDomain, code: Int(errorNumber))
            }
            // The rename is durable once the directory is flushed too (best effort: not every file
            // system lets a directory be opened for this).
            let directory = URL(fileURLWithPath: target).deletingLastPathComponent().path
            if let entries = FileHandle(forReadingAtPath: directory) {
                try? entries.synchronize()
                try? entries.close()
            }
        } catch {
            abandon()
            throw ToolError("cannot write '\(path)': \(Self.describe(error))")
        }
    }

    /// Gives the temporary file the permissions of the file it replaces, and its owner and group when
    /// the process may (as root); a new file keeps the mode it was created with (0666 less the umask).
    private func keepAttributes() {
        guard let old = try? FileManager.default.attributesOfItem(atPath: target) else { return }
        if let mode = old[.posixPermissions] {
            try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporaryPath)
        }
        if let owner = old[.ownerAccountID], let group = old[.groupOwnerAccountID] {
            try? FileManager.default.setAttributes(
                [.ownerAccountID: owner, .groupOwnerAccountID: group], ofItemAtPath: temporaryPath)
        }
    }

    func abandon() {
        try? handle?.close()
        handle = nil
        if !direct { try? FileManager.default.removeItem(atPath: temporaryPath) }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? ToolError)?.description ?? error.localizedDescription
    }
}
