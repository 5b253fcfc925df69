// Sources/bplist/Editing/Convert.swift - `bplist convert FILE --to binary|xml|json`: any form to any form.

import ArgumentParser
import Foundation
import PropertyList

struct Convert: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a property list between binary (bplist00), XML, OpenStep text and canonical JSON.",
        discussion: """
            The input form is sniffed: binary (plain, zlib or gzip), XML or OpenStep text (UTF-8, \
            UTF-16 or UTF-32; .strings files too), or canonical JSON (text starting with '[', or '{' \
            then '"key":'). JSON output is the canonical JSON of 'to-json'. OpenStep output holds only \
            strings, data, arrays and dictionaries (anything else is an 'unencodable' error naming \
            the key path). Text forms go to standard output when no -o is given; binary goes to standard output only when it \
            is not a terminal (otherwise give -o). Output files are written atomically (a symbolic \
            link keeps pointing at the new file, whose permissions are the old one's). A binary file \
            converts to a text form as it is read, without building its value in memory. \
            --dates and --data write plain JSON values (see 'bplist to-json --help').

            Examples:
              bplist convert Info.plist --to xml
              bplist convert settings.xml --to binary -o settings.bplist
              bplist convert archive.bplist --to json > archive.json
              bplist convert project.pbxproj --to openstep
              bplist convert archive.json --to binary --compress zlib -o archive.bplist.z
              bplist convert prefs.plist --to json --dates iso8601 --data base64
              cat a.plist | bplist convert - --to binary | xxd | head

            Exit status: 0 on success; 1 on any error, with one line 'error: CODE at byte N: detail' \
            on standard error (or 'error: unencodable: …' when the value has no form in the target, \
            such as null in XML); 64 for usage errors.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input; binary, zlib, gzip, XML or JSON).")
    var file: String

    @Option(name: .long, help: "The form to write: binary, xml, json or openstep.")
    var to: PlistFormat

    @Option(name: .shortAndLong, help: "Where to write ('-' for standard output, the default for xml and json).")
    var output: String?

    @Option(help: "Wrap binary output in a compression envelope (none, zlib or gzip).")
    var compress: PlistCompression = .none

    @OptionGroup var read: ReadOptions

    @OptionGroup var style: JSONStyleOptions

    @OptionGroup var outputBudget: OutputOptions

    func validate() throws {
        if compress != .none && to != .binary { throw ValidationError("--compress needs --to binary") }
        if (style.dates != .tagged || style.data != .tagged) && to != .json {
            throw ValidationError("--dates and --data need --to json")
        }
    }

    func execute() throws {
        let destination = output ?? "-"
        if destination == "-" && to == .binary && Terminal.stdoutIsTerminal {
            throw ToolError(
                "refusing to write a binary property list to a terminal; give -o OUT or redirect standard output",
                code: "usage")
        }
        let input = try IO.read(file)
        let progress = Progress("convert", inputBytes: input.count)
        defer { progress.finish() }
        let budget = outputBudget.budget(for: input)
        // The text forms of a binary file are written as the file is read (no PlistValue tree): the
        // budget, every object and anything the form cannot hold are checked before the first byte.
        if to != .binary, PlistInput.sniff(input) == .binary {
            let tree = PlistInput.tree(try PlistInput.openBinary(input, read: read), read: read)
            progress.phase("converting")
            let jsonStyle = style.style
            try IO.stream(to: destination, beforeOutput: progress.erasingBeforeTerminalOutput) { out throws in
                switch to {
                case .xml: try XMLPlist.write(tree, from: tree.root, budget: budget, into: &out)
                case .json:
                    try BinaryPlistDocument.writeCanonicalJSON(
                        tree, from: tree.root, style: jsonStyle, budget: budget, into: &out)
                case .openStep: try OpenStepPlist.write(tree, from: tree.root, budget: budget, into: &out)
                case .binary: break
                }
            }
            PlistInput.warnRepairs(tree)
            return
        }
        progress.phase("decoding")
        let (value, _) = try PlistInput.decode(input, read: read)
        progress.phase("encoding")
        // The text forms are written as they are produced (the budget and anything the form cannot
        // hold are checked before the first byte); binary needs the whole tree first (object table,
        // offsets, trailer) and is written whole.
        let write: (inout TextSink) throws -> Void
        switch to {
        case .binary:
            let bytes = try value.encoded(compression: compress)
            progress.phase("writing")
            progress.finish()
            try IO.write(bytes, to: destination)
            return
        case .xml: write = { out throws in try XMLPlist.write(value, budget: budget, into: &out) }
        case .json:
            write = { [style] out throws in
                try value.writeJSON(into: &out, style: style.style, sortsKeys: true, budget: budget)
            }
        case .openStep: write = { out throws in try OpenStepPlist.write(value, budget: budget, into: &out) }
        }
        try IO.stream(to: destination, beforeOutput: progress.erasingBeforeTerminalOutput, write)
    }
}
