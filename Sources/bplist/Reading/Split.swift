// Sources/bplist/Reading/Split.swift - `bplist split FILE [-o DIR]`: property lists written back to back.

import ArgumentParser
import Foundation
@_spi(Internals) import PropertyList

struct Split: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "Split property lists written back to back (one appended to another) into files.",
        discussion: """
            Each piece is a complete bplist00 that ends where its trailer says it ends; the next \
            piece starts right after it. Pieces are written, in order, to DIR/NAME-1.bplist, \
            DIR/NAME-2.bplist, … (NAME is FILE's name without its extension, 'stdin' for '-'), and \
            one line per piece is printed: 'NAME-K.bplist: bytes START..<END (N bytes, M objects)'. \
            A zlib or gzip input is inflated first and the inflated bytes are split. Bytes after the \
            last piece that are not a property list are reported with their offset; the pieces \
            before them are still written.

            Examples:
              bplist split appended.archive -o pieces/
              bplist split --dry-run appended.archive
              bplist split --name session appended.archive -o /tmp

            Exit status: 0 when the whole input was split into property lists; 1 with \
            'error: CODE at byte N: detail' when bytes at N are not a property list (pieces before \
            N are written) or when the input cannot be read or a piece cannot be written; 64 for \
            usage errors.
            """
    )

    @Argument(help: "The file to split ('-' for standard input).")
    var file: String

    @Option(name: .shortAndLong, help: "The directory to write the pieces into (created if missing).")
    var output: String = "."

    @Option(help: "The base name of the pieces (default: FILE's name without extension).")
    var name: String?

    @Flag(help: "Only report the pieces; write nothing.")
    var dryRun = false

    func execute() throws {
        var input = try IO.read(file)
        if let envelope = PlistCompression.detect(input) {
            do {
                input = try Zlib.inflate(input, limit: PlistLimits.default.maxDecompressedBytes)
            } catch {
                throw ToolError("\(error.description) (\(envelope.rawValue) envelope)", code: error.code.description)
            }
        }
        let base = name ?? Split.baseName(of: file)
        if !dryRun {
            do {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: output), withIntermediateDirectories: true)
            } catch {
                throw ToolError("cannot create directory '\(output)': \(error.localizedDescription)")
            }
        }
        var start = 0
        var piece = 0
        let options = PlistReadOptions(allowsTrailingData: true, allowsCompression: false)
        guard !input.isEmpty else {
            throw ToolError("notABinaryPlist at byte 0: the input is empty", code: "notABinaryPlist")
        }
        while start < input.count {
            let rest = input[(input.startIndex + start)...]
            let document: BinaryPlistDocument
            do {
                document = try BinaryPlistDocument(rest, options: options)
            } catch {
                let offset = start + (error.offset ?? 0)
                let after = piece == 0 ? "" : " after piece \(piece)"
                throw ToolError(
                    "\(error.code) at byte \(offset): \(input.count - start) bytes at byte \(start)\(after) "
                        + "are not a property list: \(error.detail)",
                    code: error.code.description)
            }
            let length = document.data.count
            piece += 1
            let pieceName = "\(base)-\(piece).bplist"
            if !dryRun {
                let path = URL(fileURLWithPath: output).appendingPathComponent(pieceName).path
                try IO.write(Data(rest.prefix(length)), to: path)
            }
            IO.printOut(
                "\(pieceName): bytes \(start)..<\(start + length) (\(length) bytes, \(document.objectCount) objects)\n")
            start += length
        }
    }

    /// `appended` for `dir/appended.archive`; `stdin` for `-`.
    static func baseName(of path: String) -> String {
        guard path != "-" else { return "stdin" }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return name.isEmpty ? "piece" : name
    }
}
