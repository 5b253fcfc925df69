// Sources/bplist/Reading/Get.swift - `bplist get FILE KEYPATH`: one value, read lazily.

import ArgumentParser
import KeyedArchive
import PropertyList

struct Get: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value at a key path, reading only the objects on the way.",
        discussion: """
            KEYPATH is a list of components separated by '.' (plutil's form: '\\.' is a dot inside a \
            key), or PlistBuddy's form when it starts with ':' (':CFBundleURLTypes:0'); with \
            --separator, components are split at that character and nothing is escaped. On a keyed \
            archive (NSKeyedArchiver), a path that does not start with one of the archive's own keys \
            ($top, $objects, $archiver, $version) names a value of its object graph, as 'bplist \
            unarchive' prints it and the editing verbs take it (root.settings.theme). A component is \
            a dictionary key, or a decimal position in an array or set. An empty KEYPATH is the root. \
            A binary input is not decoded as a whole: only the objects along the path and the value \
            found are read. Strings print unquoted, numbers, booleans, dates (ISO-8601) and UIDs \
            plainly, containers as the 'print' tree; --json prints the JSON of the value instead \
            (canonical, or plain with --dates/--data), --raw prints what 'plutil -extract KEYPATH \
            raw' prints (a bool as true/false, a real as %f, a date in RFC 3339, data in base64, an \
            array's count, a dictionary's keys sorted).

            Examples:
              bplist get archive.bplist '$top.root'
              bplist get archive.bplist '$objects.3.name'
              bplist get Settings.archive root.settings.theme   # the paths 'bplist unarchive' prints
              bplist get Info.plist CFBundleIdentifier
              bplist get App.entitlements 'com\\.apple\\.security\\.app-sandbox'
              bplist get Info.plist :CFBundleURLTypes:0:CFBundleURLSchemes
              bplist get --raw Info.plist CFBundleURLTypes        # 1 (the count)
              bplist get --json archive.bplist '$objects'
              bplist get --separator / prefs.plist 'com.example.app/window/0'

            Exit status: 0 when a value was printed; 1 with 'error: no value at KEYPATH: …' (saying \
            which key is missing, which position is out of range or which value is not a container); \
            1 with 'error: CODE at byte N: detail' when the input is not a valid property list; 64 for \
            usage errors.
            """
    )

    @Argument(help: "The property list to read ('-' for standard input).")
    var file: String

    @Argument(help: "The key path, e.g. '$objects.3.name' (empty for the root).")
    var keyPath: String

    @Option(help: "The character between key path components (then nothing is escaped).")
    var separator: String = "."

    @Flag(help: "Print the value as JSON (canonical unless --dates/--data).")
    var json = false

    @Flag(help: "Print the value as 'plutil -extract KEYPATH raw' does.")
    var raw = false

    @Flag(name: .short, help: "With --raw: no newline after the value.")
    var n = false

    @OptionGroup var style: JSONStyleOptions

    @OptionGroup var colors: ColorOptions

    @OptionGroup var read: ReadOptions

    @OptionGroup var outputBudget: OutputOptions

    func validate() throws {
        guard separator.count == 1 else { throw ValidationError("--separator must be one character") }
        if json && raw { throw ValidationError("give either --json or --raw, not both") }
        if n && !raw { throw ValidationError("-n goes with --raw") }
    }

    /// The key path as given: plutil's or PlistBuddy's form, or split at --separator.
    var path: PlistKeyPath {
        if separator == "." { return PlistKeyPath(parsing: keyPath) }
        return PlistKeyPath(
            keys: keyPath.isEmpty
                ? [] : keyPath.split(separator: separator, omittingEmptySubsequences: false).map(String.init))
    }

    func execute() throws {
        let input = try IO.read(file)
        let path = self.path
        if ArchivePaths.isGraphPath(path, in: input) {
            try showArchived(
                ArchivePaths.value(input, at: path, text: keyPath), inputBytes: input.count,
                budget: outputBudget.budget(for: input))
            return
        }
        if PlistInput.sniff(input) == .binary {
            let document = try PlistInput.openBinary(input, read: read)
            let ref = try found(try document.walkingLazily(path))
            let tree = PlistInput.tree(document, read: read)
            defer { PlistInput.warnRepairs(tree) }
            if json {
                // The sub-tree is written as it is read, not decoded first.
                try IO.stream(to: "-") { out in
                    try BinaryPlistDocument.writeCanonicalJSON(
                        tree, from: ref, style: style.style, budget: outputBudget.budget(for: input), into: &out)
                }
                return
            }
            try show(tree, ref, kind: try tree.contents(of: ref).kind, budget: outputBudget.budget(for: input))
            return
        }
        let decoded = try PlistInput.decode(input, read: read).0
        let value = try found(Result { () throws(PlistError) in try decoded.value(at: path) })
        if json {
            try IO.stream(to: "-") { out in
                try value.writeJSON(
                    into: &out, style: style.style, sortsKeys: true, budget: outputBudget.budget(for: input))
            }
            return
        }
        try show(PlistValueTree(), value, kind: value.kind, budget: outputBudget.budget(for: input))
    }

    /// Prints a value of an archive's object graph: a property-list value as any other; an object
    /// (or a Foundation value with no property-list form) in one line as `bplist unarchive` shows it,
    /// or with --json in the shape of `bplist unarchive --json`.
    private func showArchived(_ value: AnyArchived, inputBytes: Int, budget: OutputBudget) throws {
        if let plain = ArchivePaths.plistValue(value) {
            if json {
                try IO.stream(to: "-") { out in
                    try plain.writeJSON(into: &out, style: style.style, sortsKeys: true, budget: budget)
                }
                return
            }
            try show(PlistValueTree(), plain, kind: plain.kind, budget: budget)
            return
        }
        if raw {
            throw ToolError(
                "the value at \(keyPath) is \(ArchivePaths.article(ArchivePaths.typeName(value))) with no "
                    + "property-list form (--raw); 'bplist get --json' or 'bplist unarchive' shows it",
                code: "noRaw")
        }
        if json {
            let rendered = try ArchiveJSON.render(
                value, depth: 0, maxDepth: 64, budget: ArchiveJSON.Budget(budget, inputBytes: inputBytes),
                part: { _, _ in nil })
            try IO.stream(to: "-") { out in try rendered.writeCanonicalJSON(into: &out, budget: budget) }
            return
        }
        IO.printOut(value.description + "\n")
    }

    /// The value found, or the `noValue` error saying why there is none.
    private func found<T>(_ result: Result<T, PlistError>) throws -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error) where [.keyNotFound, .indexOutOfRange, .notAContainer].contains(error.code):
            throw ToolError("no value at \(keyPath): \(error.detail)", code: "noValue")
        case .failure(let error): throw error
        }
    }

    /// Prints the node: raw, as a scalar line, or as the tree of 'print'.
    private func show<T: PlistTree>(_ tree: T, _ node: T.Node, kind: PlistKind, budget: OutputBudget) throws {
        if raw {
            // A container's raw form needs its elements' count or keys only: small, decoded here.
            guard let text = PlutilText.raw(try Self.shallowValue(tree, node)) else {
                throw ToolError("the value at \(keyPath) is a \(kind) and has no raw form", code: "noRaw")
            }
            IO.printOut(n ? text : text + "\n")
            return
        }
        switch try tree.contents(of: node) {
        case .scalar(.string(let s)):
            IO.printOut(s.string + "\n")
        case .scalar(let v):
            IO.printOut((Render.scalar(v, Palette(enabled: false)) ?? "") + "\n")
        default:
            try PlistTreeMeasure(tree, budget: budget).check(node, as: "an indented tree")
            try IO.stream(to: "-") { out in try PlistTreePrinter(palette: colors.palette).print(tree, node, into: &out)
            }
        }
    }

    /// The node as a value whose containers hold only their keys (what the raw form shows).
    static func shallowValue<T: PlistTree>(_ tree: T, _ node: T.Node) throws(PlistError) -> PlistValue {
        switch try tree.contents(of: node) {
        case .scalar(let v): return v
        case .array(let c, _): return .array(Array(repeating: .null, count: c.count))
        case .set(let c, _): return .set(Array(repeating: .null, count: c.count))
        case .dictionary(let keys, _, _):
            var pairs: [(PlistValue, PlistValue)] = []
            for k in keys {
                if case .scalar(let key) = try tree.contents(of: k) { pairs.append((key, .null)) }
            }
            return .dictionary(PlistDictionary(pairs))
        }
    }
}

extension BinaryPlistDocument {
    /// The object at `path` or the error saying where the path ends (format errors thrown).
    func walkingLazily(_ path: PlistKeyPath) throws(PlistError) -> Result<ObjectRef, PlistError> {
        do {
            return .success(try resolve(path))
        } catch {
            if [.keyNotFound, .indexOutOfRange, .notAContainer].contains(error.code) { return .failure(error) }
            throw error
        }
    }
}
