// Sources/bplist/Validate.swift - `bplist validate FILE...`: check files, one line per bad file.

import ArgumentParser
import Foundation
import PropertyList

struct Validate: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check binary property lists; exit 1 if any is invalid.",
        discussion: """
            Every object in the offset table is decoded (reachable or not), every string is checked, \
            and the tree is materialised (cycles, keys, limits). For each bad file one line \
            'FILE: error: CODE at byte N: detail' is written to standard error. With --allow-trailing, \
            bytes after the property list are reported as 'FILE: warning: ...' and accepted.
            """
    )

    @Argument(help: "The property lists to check ('-' for standard input).")
    var files: [String]

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
    }

    func execute() throws {
        var failures = 0
        for file in files {
            switch Validate.check(file, options: read.documentOptions) {
            case .success(let document):
                if document.trailingByteCount > 0 {
                    let end = document.data.count
                    IO.printError(
                        "\(file): warning: trailingData at byte \(end): \(document.trailingByteCount) bytes "
                            + "follow the property list (accepted with --allow-trailing)")
                }
            case .failure(let problem):
                failures += 1
                IO.printError("\(file): error: \(problem.code) at byte \(problem.offset): \(problem.detail)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// What is wrong with a file, always with a byte offset.
    struct Problem: Error {
        var code: String
        var offset: Int
        var detail: String
    }

    /// Reads and fully checks one file.
    static func check(_ file: String, options: PlistReadOptions) -> Result<BinaryPlistDocument, Problem> {
        let data: Data
        do {
            data = try IO.read(file)
        } catch {
            return .failure(Problem(code: error.code, offset: 0, detail: ToolError.oneLine(error.description)))
        }
        var opened: BinaryPlistDocument? = nil
        do throws(PlistError) {
            let document = try BinaryPlistDocument(data, options: options)
            opened = document
            try fullyCheck(document)
            return .success(document)
        } catch {
            // Every format error is placed: its own offset, else the offset of the object it names.
            let offset = error.offset ?? error.object.flatMap { opened?.offsetOfObject($0) } ?? 0
            var detail = error.detail
            if let object = error.object { detail += " (object \(object))" }
            return .failure(Problem(code: error.code.description, offset: offset, detail: ToolError.oneLine(detail)))
        }
    }

    /// Decodes every object of the offset table and every string, then materialises the tree.
    static func fullyCheck(_ document: BinaryPlistDocument) throws(PlistError) {
        for index in 0..<document.objectCount {
            let ref = ObjectRef(index)
            switch try document.object(ref) {
            case .asciiString, .utf16String: _ = try document.string(ref)
            default: break
            }
        }
        _ = try document.value()
    }
}
