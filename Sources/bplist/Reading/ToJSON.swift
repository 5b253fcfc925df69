// Sources/bplist/Reading/ToJSON.swift - `bplist to-json FILE`: a property list as canonical JSON.

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
            decoded as {"$nested": value} (then the output is no longer the file's canonical form). \
            For consumers that want plain JSON, --dates iso8601|seconds writes dates as RFC 3339 \
            strings or Unix-epoch seconds and --data base64 writes data as base64 strings (from-json \
            then reads them back as strings and numbers). A binary file is converted as it is read, \
            without building its whole value in memory (not with --expand-nested).

            Examples:
              bplist to-json Info.plist
              bplist to-json --dates iso8601 --data base64 prefs.plist | jq .
              bplist to-json archive.bplist > archive.json && bplist from-json archive.json -o copy.bplist

            Exit status: 0 on success; 1 on any error, with one line 'error: CODE at byte N: detail' \
            on standard error; 64 for usage errors.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input; binary, zlib, gzip, XML, OpenStep or JSON).")
    var file: String

    @OptionGroup var read: ReadOptions

    @Flag(name: .long, help: "Write data values that hold a binary property list decoded, as {\"$nested\": value}.")
    var expandNested = false

    @OptionGroup var style: JSONStyleOptions

    @OptionGroup var outputBudget: OutputOptions

    func execute() throws {
        let data = try IO.read(file)
        // Written as it is produced: the budget and every object are checked before the first byte.
        if !expandNested, PlistInput.sniff(data) == .binary {
            let tree = PlistInput.tree(try PlistInput.openBinary(data, read: read), read: read)
            try IO.stream(to: "-") { out in
                try BinaryPlistDocument.writeCanonicalJSON(
                    tree, from: tree.root, style: style.style, budget: outputBudget.budget(for: data), into: &out)
            }
            PlistInput.warnRepairs(tree)
            return
        }
        var value = try PlistInput.decode(data, read: read).0
        if expandNested { value = outputBudget.expandingNested(value) }
        try IO.stream(to: "-") { out in
            try value.writeJSON(into: &out, style: style.style, sortsKeys: true, budget: outputBudget.budget(for: data))
        }
    }
}

/// `--dates` and `--data`: plain JSON for consumers that do not know canonical JSON's tags.
struct JSONStyleOptions: ParsableArguments {
    enum Dates: String, ExpressibleByArgument, CaseIterable {
        case tagged, iso8601, seconds
    }

    enum DataValues: String, ExpressibleByArgument, CaseIterable {
        case tagged, base64
    }

    @Option(
        help: """
            How dates are written: tagged ({"$date": "…"}, the default), iso8601 (a plain RFC 3339 \
            string in UTC) or seconds (a plain number of seconds since 1970). Dates outside the years \
            1-9999 (or not finite) stay tagged.
            """)
    var dates: Dates = .tagged

    @Option(help: "How data is written: tagged ({\"$data\": \"…\"}, the default) or base64 (a plain string).")
    var data: DataValues = .tagged

    /// Canonical JSON (dates rounded to microseconds, as the corpus oracles and plistlib write them),
    /// with plain dates or data when asked.
    var style: PlistJSONStyle {
        var style = PlistJSONStyle.canonical
        style.dates = dates == .iso8601 ? .iso8601 : dates == .seconds ? .seconds : .tagged
        style.data = data == .base64 ? .base64 : .tagged
        return style
    }
}
