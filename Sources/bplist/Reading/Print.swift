// Sources/bplist/Reading/Print.swift - `bplist print FILE`: an indented tree like `plutil -p`.

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
        // A binary file is walked in place (no PlistValue tree); other forms are decoded first.
        if PlistInput.sniff(input) == .binary {
            let tree = PlistInput.tree(try PlistInput.openBinary(input, read: read), read: read)
            try print(tree, tree.root, budget: outputBudget.budget(for: input), progress: progress)
            PlistInput.warnRepairs(tree)
        } else {
            let value = try PlistInput.decode(input, read: read).0
            try print(PlistValueTree(), value, budget: outputBudget.budget(for: input), progress: progress)
        }
    }

    /// Checks the tree (budget, cycles, every object), then prints it; nested plists shown decoded
    /// unless --no-expand-nested.
    private func print<T: PlistTree>(_ tree: T, _ root: T.Node, budget: OutputBudget, progress: Progress) throws {
        if expandNested {
            let nested = NestedPlistTree(base: tree, budget: budget)
            try PlistTreeMeasure(nested, budget: budget).check(.base(root), as: "an indented tree")
            progress.phase("printing")
            let printer = PlistTreePrinter(palette: colors.palette, progress: { progress.update(done: $0, of: $1) }) {
                data, path in
                // A data value left as data: say why, when it looked like a property list or a
                // typedstream.
                if case .data(let bytes) = data, TypedStreamTool.isTypedStream(bytes) {
                    var issue: String?
                    if TypedStreamTool.resolved(bytes, issue: &issue) == nil {
                        let place = path.isEmpty ? "the root" : path.joined(separator: ".")
                        IO.printError("warning: typedstream at \(place): \(issue ?? "")")
                    }
                    return
                }
                for issue in NestedPlistTree<T>.issues(of: data, budget: budget) {
                    IO.printError(
                        "warning: \(NestedPlistIssue(keyPath: PlistKeyPath(keys: path).appending(issue.keyPath), error: issue.error))"
                    )
                }
            }
            try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
                try printer.print(nested, .base(root), into: &out)
            }
        } else {
            try PlistTreeMeasure(tree, budget: budget).check(root, as: "an indented tree")
            progress.phase("printing")
            try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
                try PlistTreePrinter(palette: colors.palette, progress: { progress.update(done: $0, of: $1) }).print(
                    tree, root, into: &out)
            }
        }
    }
}
