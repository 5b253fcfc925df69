// Sources/bplist/Editing/Create.swift - `bplist create FILE [--format F] [--root R]`: an empty property list.

import ArgumentParser
import Foundation
import PropertyList

struct Create: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Create an empty property list (a dictionary, or an array) in any form.",
        discussion: """
            FILE must not exist yet (--force replaces it; '-' writes to standard output). The file is \
            written atomically. Then edit it with set, insert, append or edit.

            Examples:
              bplist create Info.plist
              bplist create settings.bplist --format binary && bplist set settings.bplist volume --real 0.5
              bplist create Localizable.strings --format openstep
              bplist create list.json --format json --root array

            Exit status: 0 on success; 1 on any error (an existing FILE without --force); 64 for \
            usage errors.
            """)

    enum Root: String, ExpressibleByArgument, CaseIterable {
        case dictionary, array
    }

    @Argument(help: "The file to create ('-' for standard output).")
    var file: String

    @Option(help: "The form: binary, xml (the default), json or openstep.")
    var format: PlistFormat = .xml

    @Option(help: "The root: dictionary (the default) or array.")
    var root: Root = .dictionary

    @Flag(help: "Replace FILE when it exists.")
    var force = false

    func execute() throws {
        if file != "-", !force, FileManager.default.fileExists(atPath: IO.resolvingLinks(file)) {
            throw ToolError("'\(file)' exists; give --force to replace it")
        }
        if file == "-" && format == .binary && Terminal.stdoutIsTerminal {
            throw ToolError(
                "refusing to write a binary property list to a terminal; redirect standard output", code: "usage")
        }
        let value: PlistValue = root == .array ? .array([]) : .dictionary(PlistDictionary())
        try IO.write(try PlistInput.encode(value, as: format), to: file)
    }
}
