// Sources/bplist/Print.swift - `bplist print FILE`: an indented tree like `plutil -p`.

import ArgumentParser
import PropertyList

struct Print: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a property list as an indented tree, like 'plutil -p'.",
        discussion: """
            Dictionaries print as { "key" => value } in file order, arrays with their indices \
            (0 => value), sets as <set> [ … ], strings quoted and escaped, reals in their shortest \
            exact form, dates in ISO-8601 (UTC), data as {length = N, bytes = 0x…} (first 16 and \
            last 8 bytes above 32), UIDs as <CFKeyedArchiverUID>{value = N}, null as <null>. \
            Colours are used only when standard output is a terminal and NO_COLOR is unset (or \
            with --color). Binary (plain, zlib, gzip), XML and canonical JSON input are read. \
            A data value that is itself a binary property list (a keyed archive in a preferences \
            file, say) prints decoded, as { "$nested" => … } (a keyed archive as its objects, the way \
            'bplist unarchive' shows them), up to 8 levels deep; one that does not \
            decode stays data, with a warning naming its key path (--no-expand-nested: print data as data). \
            A typedstream (NSArchiver) prints as 'bplist unarchive' shows it, and so does one held in a \
            data value.

            Examples:
              bplist print Info.plist
              bplist print --no-color archive.bplist | less
              bplist print --color archive.bplist | less -R

            Exit status: 0 on success; 1 on any error, with one line 'error: CODE at byte N: detail' \
            on standard error; 64 for usage errors.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input).")
    var file: String

    @OptionGroup var colors: ColorOptions

    @OptionGroup var read: ReadOptions

    @OptionGroup var outputBudget: OutputOptions

    @Flag(
        name: .customLong("expand-nested"), inversion: .prefixedNo,
        help: "Print data values that hold a binary property list decoded, as { \"$nested\" => … }.")
    var expandNested = true

    func execute() throws {
        let input = try IO.read(file)
        let progress = Progress("print", inputBytes: input.count)
        defer { progress.finish() }
        if TypedStreamTool.isTypedStream(input) {
            try TypedStreamTool.show(
                input, json: false, maxDepth: 512, expandNested: expandNested, palette: colors.palette,
                budget: outputBudget.budget, progress: progress)
            return
        }
        progress.phase("decoding")
        var (value, _) = try PlistInput.decode(input, options: read.documentOptions)
        try value.checkExpansion(outputBudget.budget, as: "an indented tree")
        if expandNested {
            let expanded = outputBudget.expandingNested(value)
            // Only when something was nested (== is memoised by shared storage: cheap on a DAG). The
            // budget is checked again: the nested plists add what they hold.
            if expanded != value {
                try expanded.checkExpansion(outputBudget.budget, as: "an indented tree")
                value = ArchiveView.unarchivingNested(expanded)
            }
            value = try TypedStreamTool.expandingTypedStreams(value, budget: outputBudget.budget)
        }
        progress.phase("printing")
        try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
            PlistTreePrinter(palette: colors.palette, progress: progress).print(value, into: &out)
        }
    }
}
