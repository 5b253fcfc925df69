// Sources/bplist/Get.swift - `bplist get FILE KEYPATH`: one value, read lazily.

import ArgumentParser
import PropertyList

struct Get: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value at a key path, reading only the objects on the way.",
        discussion: """
            KEYPATH is a list of components separated by '.' (or --separator): a dictionary key, or \
            a decimal index into an array or set. An empty KEYPATH is the root. A binary input is \
            not decoded as a whole: only the objects along the path and the value found are read. \
            Strings print unquoted, numbers, booleans, dates (ISO-8601) and UIDs plainly, \
            containers as the 'print' tree; --json prints the canonical JSON of the value instead.

            Examples:
              bplist get archive.bplist '$top.root'
              bplist get archive.bplist '$objects.3.name'
              bplist get Info.plist CFBundleIdentifier
              bplist get --json archive.bplist '$objects'
              bplist get --separator / prefs.plist 'com.example.app/window/0'

            Exit status: 0 when a value was printed; 1 with 'error: no value at KEYPATH' when a key \
            is missing, an index is out of range or the path goes through a scalar; 1 with \
            'error: CODE at byte N: detail' when the input is not a valid property list; 64 for \
            usage errors.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input).")
    var file: String

    @Argument(help: "The key path, e.g. '$objects.3.name' (empty for the root).")
    var keyPath: String

    @Option(help: "The character between key path components.")
    var separator: String = "."

    @Flag(help: "Print the value as canonical JSON.")
    var json = false

    @OptionGroup var colors: ColorOptions

    @OptionGroup var read: ReadOptions

    @OptionGroup var outputBudget: OutputOptions

    func validate() throws {
        guard separator.count == 1 else { throw ValidationError("--separator must be one character") }
    }

    func execute() throws {
        let input = try IO.read(file)
        let components =
            keyPath.isEmpty
            ? [] : keyPath.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        let found: PlistValue?
        if PlistInput.sniff(input) == .binary {
            let document = try BinaryPlistDocument(input, options: read.documentOptions)
            found = try document.ref(at: components).map { ref throws(PlistError) in try document.value(of: ref) }
        } else {
            found = try PlistInput.decode(input, options: read.documentOptions).0.value(at: components)
        }
        guard let value = found else {
            throw ToolError("no value at \(keyPath)", code: "noValue")
        }
        if json {
            try IO.stream(to: "-") { out in try value.writeCanonicalJSON(into: &out, budget: outputBudget.budget) }
            return
        }
        switch value {
        case .string(let s): IO.printOut(s.string + "\n")
        case .array, .set, .dictionary:
            try IO.stream(to: "-") { out in PlistTreePrinter(palette: colors.palette).print(value, into: &out) }
        default:
            IO.printOut((Render.scalar(value, Palette(enabled: false)) ?? "") + "\n")
        }
    }
}
