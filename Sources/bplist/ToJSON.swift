// Sources/bplist/ToJSON.swift - `bplist to-json FILE`: a property list as canonical JSON.

import ArgumentParser
import PropertyList

struct ToJSON: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "to-json",
        abstract: "Print a binary property list as canonical JSON.",
        discussion: """
            Canonical JSON: the same value always prints the same bytes, so outputs compare with diff. \
            Sorted keys, exact integers, null; the types JSON lacks are tagged objects: \
            {"$real": ...}, {"$date": ...}, {"$data": base64}, {"$uid": n}, {"$set": [...]}, \
            {"$dict": [[key, value], ...]} for non-string keys. `bplist from-json` reads it back. \
            With --expand-nested, a data value that is itself a binary property list is written \
            decoded as {"$nested": value} (then the output is no longer the file's canonical form).
            """
    )

    @Argument(help: "The property list to read ('-' for standard input; binary, zlib, gzip, XML, OpenStep or JSON).")
    var file: String

    @OptionGroup var read: ReadOptions

    @Flag(name: .long, help: "Write data values that hold a binary property list decoded, as {\"$nested\": value}.")
    var expandNested = false

    @OptionGroup var outputBudget: OutputOptions

    func execute() throws {
        let data = try IO.read(file)
        var value = try PlistInput.decode(data, options: read.documentOptions).0
        if expandNested { value = outputBudget.expandingNested(value) }
        // Written as it is produced: the budget is checked before the first byte.
        try IO.stream(to: "-") { out in try value.writeCanonicalJSON(into: &out, budget: outputBudget.budget) }
    }
}
