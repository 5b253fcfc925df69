// Sources/bplist/Git/TextConv.swift - `bplist textconv FILE`: any property list or archive as stable
// text, one value a line, for git's `textconv` (git log -p, git blame, git diff of binary files).

import ArgumentParser
import Foundation
import KeyedArchive
@_spi(Internals) import PropertyList

struct TextConv: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "textconv",
        abstract: "Print any property list or archive as stable text, for git's textconv.",
        discussion: """
            The text is the same for the same content, whatever the form (binary, compressed, XML, \
            OpenStep, JSON): a property list prints as 'bplist print' shows it without colours, data \
            values that hold a property list or an archive decoded in place; a keyed archive \
            (NSKeyedArchiver) or a typedstream (NSArchiver) prints as 'bplist unarchive' shows its \
            object graph. Dictionaries keep their order in the file; --sort-keys sorts them, so that \
            files whose writers order keys differently read the same. An empty file prints nothing.

            As git's textconv (.gitattributes: '*.plist diff=plist'; git config: \
            'diff.plist.textconv "bplist textconv"'), 'git diff', 'git log -p' and 'git blame' show \
            these lines instead of 'Binary files differ'.

            Examples:
              bplist textconv Preferences.plist
              bplist textconv --sort-keys Info.plist

            Exit status: 0 on success; 1 on any error ('error: …' on standard error); 64 for usage \
            errors.
            """)

    @Argument(help: "The file to print ('-' for standard input).")
    var file: String

    @Flag(help: "Print dictionary entries sorted by key instead of in file order.")
    var sortKeys = false

    @OptionGroup var read: ReadOptions

    @OptionGroup var outputBudget: OutputOptions

    func execute() throws {
        let input = try IO.read(file)
        if input.isEmpty { return }
        if TypedStreamTool.isTypedStream(input) || KeyedArchiveGraph.isKeyedArchive(input) {
            // `unarchive` reads the file itself: standard input, read already, goes through a file.
            var path = file
            var temporary: URL? = nil
            if file == "-" {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("bplist-textconv-\(UUID())")
                try input.write(to: url)
                temporary = url
                path = url.path
            }
            defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
            let unarchive = try Unarchive.parse([path, "--no-color"] + outputBudget.arguments)
            try unarchive.execute()
            return
        }
        var value = try PlistInput.decode(input, read: read).0
        if sortKeys { value = value.sortingKeys() }
        let budget = outputBudget.budget(for: input)
        let nested = NestedPlistTree(base: PlistValueTree(), budget: budget)
        try PlistTreeMeasure(nested, budget: budget).check(.base(value), as: "an indented tree")
        try IO.stream(to: "-") { out in
            try PlistTreePrinter(palette: Palette(enabled: false)).print(nested, .base(value), into: &out)
        }
    }
}

extension OutputOptions {
    /// These options as command-line arguments (to hand them to another command).
    var arguments: [String] {
        var out: [String] = []
        if maxOutputNodes != OutputBudget.default.maxValues { out += ["--max-output-nodes", String(maxOutputNodes)] }
        if maxOutputBytes != OutputBudget.default.maxBytes { out += ["--max-output-bytes", String(maxOutputBytes)] }
        return out
    }
}
