// Sources/bplist/Editing/EditCommands.swift - `bplist insert|replace|set|remove|append FILE KEYPATH …`: one edit
// each, written back in the form the file was read in (see Editing.swift).

import ArgumentParser
import PropertyList

/// What every single-edit verb says about key paths, writing back and exit status.
private let editDiscussion = """
    KEYPATH is plutil's form ('a.b.0', '\\\\.' for a dot inside a key) or PlistBuddy's when it starts \
    with ':' (':a:b:0'). A component is a dictionary key, or a decimal position in an array. The file \
    is written back in the form it was read in: binary stays binary (same compression envelope and \
    widths rule), XML stays XML (CoreFoundation's layout, UTF-8), OpenStep text stays OpenStep (a \
    .strings file stays one; comments are not kept), JSON stays canonical JSON. Dictionary keys keep \
    their order (a new key goes last). The write is atomic: a temporary file in the same directory, \
    flushed to disk, then renamed over the file (over the target of a symbolic link, so the link \
    survives), with the old file's permissions. -o PATH writes elsewhere, -o - to standard output. \
    An error writes nothing.

    Exit status: 0 on success; 1 on any error, with one line 'error: CODE at key path KP: detail' \
    (keyNotFound, alreadyExists, notAContainer, indexOutOfRange) or 'error: CODE at byte N: detail' for a \
    file that does not read; 64 for usage errors.
    """

struct Insert: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Insert a value: a new dictionary key, or an array element at a position (fails if a key exists).",
        discussion: """
            In a dictionary the key must not exist yet; in an array the position may be 0 to the \
            count (the elements from there on move up; the count appends).

            Examples:
              bplist insert Info.plist CFBundleName --string Example
              bplist insert App.entitlements 'com\\\\.apple\\\\.security\\\\.app-sandbox' --bool true
              bplist insert Info.plist UIRequiredDeviceCapabilities.0 --string arm64
              bplist insert Info.plist :CFBundleURLTypes:0 --json '{"CFBundleURLSchemes": ["example"]}'
              bplist insert prefs.plist window.frame.origin --json '[0, 0]' --create-parents

            """ + editDiscussion)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(help: "Where to insert.")
    var keyPath: String

    @OptionGroup var value: ValueOptions

    @OptionGroup var target: EditOutputOptions

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let edit = PlistEdit<PlistValue>.insert(
            try value.value(), at: PlistKeyPath(parsing: keyPath), creatingParents: target.createParents)
        try EditRunner.run(file: file, edits: [edit], output: target.output, read: read)
    }
}

struct Replace: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the value at a key path (fails if there is none).",
        discussion: """
            A dictionary entry keeps its place; an array element is replaced, not inserted before \
            (unlike 'plutil -replace' on Linux, which inserts at an array position).

            Examples:
              bplist replace Info.plist CFBundleVersion --string 42
              bplist replace Info.plist UIRequiredDeviceCapabilities.0 --string arm64
              bplist replace settings.bplist volume --real 0.75

            """ + editDiscussion)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(help: "The value to replace.")
    var keyPath: String

    @OptionGroup var value: ValueOptions

    @Option(name: .shortAndLong, help: "Write the result here instead of over FILE ('-' for standard output).")
    var output: String?

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let edit = PlistEdit<PlistValue>.replace(try value.value(), at: PlistKeyPath(parsing: keyPath))
        try EditRunner.run(file: file, edits: [edit], output: output, read: read)
    }
}

struct SetValue: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set the value at a key path: replace it, or insert it when there is none.",
        discussion: """
            A new dictionary key goes last; in an array, the position just past the end appends.

            Examples:
              bplist set Info.plist CFBundleVersion --string 42
              bplist set Info.plist CFBundleShortVersionString --string 1.2.0 -o build/Info.plist
              bplist set prefs.plist window.size --json '{"w": 800, "h": 600}' -p
              bplist set Info.plist :NSAppTransportSecurity:NSAllowsArbitraryLoads --bool false -p

            """ + editDiscussion)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(help: "Where to set.")
    var keyPath: String

    @OptionGroup var value: ValueOptions

    @OptionGroup var target: EditOutputOptions

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let edit = PlistEdit<PlistValue>.set(
            try value.value(), at: PlistKeyPath(parsing: keyPath), creatingParents: target.createParents)
        try EditRunner.run(file: file, edits: [edit], output: target.output, read: read)
    }
}

struct Remove: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove the value at a key path (fails if there is none).",
        discussion: """
            A dictionary's other entries keep their order; an array's later elements move down.

            Examples:
              bplist remove Info.plist UIRequiredDeviceCapabilities
              bplist remove Info.plist CFBundleURLTypes.0
              bplist remove App.entitlements 'com\\\\.apple\\\\.security\\\\.get-task-allow'

            """ + editDiscussion)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(help: "The value to remove.")
    var keyPath: String

    @Option(name: .shortAndLong, help: "Write the result here instead of over FILE ('-' for standard output).")
    var output: String?

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let edit = PlistEdit<PlistValue>.remove(at: PlistKeyPath(parsing: keyPath))
        try EditRunner.run(file: file, edits: [edit], output: output, read: read)
    }
}

struct Append: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Append a value to the array at a key path.",
        discussion: """
            KEYPATH names the array (an empty KEYPATH: the root). With --create-parents, a missing \
            array is created (holding the value), and so are missing dictionaries on the way.

            Examples:
              bplist append Info.plist UIRequiredDeviceCapabilities --string metal
              bplist append Info.plist CFBundleURLTypes.0.CFBundleURLSchemes --string example
              bplist append App.entitlements 'com\\\\.apple\\\\.security\\\\.application-groups' --string group.x -p

            """ + editDiscussion)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(help: "The array.")
    var keyPath: String

    @OptionGroup var value: ValueOptions

    @OptionGroup var target: EditOutputOptions

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let edit = PlistEdit<PlistValue>.append(
            try value.value(), to: PlistKeyPath(parsing: keyPath), creatingParents: target.createParents)
        try EditRunner.run(file: file, edits: [edit], output: target.output, read: read)
    }
}
