// Sources/bplist/Reading/TypeCommand.swift - `bplist type FILE KEYPATH [--expect TYPE]`: the type of one value.

import ArgumentParser
import PropertyList

struct TypeCommand: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Print the type of the value at a key path; with --expect, fail when it is another.",
        discussion: """
            Types are plutil's names: bool, integer, float, string, date, data, dictionary, array; and \
            set, uid, null for the kinds plutil does not have. --expect also takes real, boolean, dict \
            (and array matches a set). On a keyed archive (NSKeyedArchiver), a path as 'bplist \
            unarchive' prints it (root.settings.theme) names a value of the object graph, as for 'get'; \
            an object there is 'object'. KEYPATH is plutil's form ('a.b.0', '\\\\.' for a dot inside a key) \
            or PlistBuddy's (':a:b:0'); empty for the root. A binary file is read lazily: only the \
            objects on the way.

            Examples:
              bplist type Info.plist CFBundleVersion                 # string
              bplist type Info.plist CFBundleURLTypes --expect array && echo ok
              bplist type App.entitlements 'com\\\\.apple\\\\.security\\\\.app-sandbox' --expect bool

            Exit status: 0 when the type was printed (and matched --expect); 1 with 'error: the value \
            at KP is a T, expected E' on a mismatch, or 'error: no value at KP: …' when there is no \
            value; 64 for usage errors.
            """)

    @Argument(help: "The property list to read ('-' for standard input).")
    var file: String

    @Argument(help: "The key path (empty for the root).")
    var keyPath: String

    @Option(help: "The type the value must have.")
    var expect: String?

    @OptionGroup var read: ReadOptions

    func validate() throws {
        if let expect, expect != "object", PlutilText.kinds(named: expect) == nil {
            throw ValidationError(
                "--expect \(expect): not a type (bool, integer, float, string, date, data, dictionary, array, set, uid, null, object)"
            )
        }
    }

    func execute() throws {
        let input = try IO.read(file)
        let path = PlistKeyPath(parsing: keyPath)
        if ArchivePaths.isGraphPath(path, in: input) {
            let name = ArchivePaths.typeName(try ArchivePaths.value(input, at: path, text: keyPath))
            if let expect, name != expect,
                PlutilText.kinds(named: expect).map({ kinds in
                    !kinds.contains { PlutilText.typeName($0) == name }
                }) ?? true
            {
                throw ToolError(
                    "the value at \(keyPath) is \(ArchivePaths.article(name)), expected \(expect)", code: "type")
            }
            IO.printOut(name + "\n")
            return
        }
        let kind: PlistKind
        do {
            if PlistInput.sniff(input) == .binary {
                let document = try PlistInput.openBinary(input, read: read)
                kind = try document.object(try document.resolve(path)).kind
            } else {
                kind = try PlistInput.decode(input, read: read).0.value(at: path).kind
            }
        } catch let error as PlistError where [.keyNotFound, .indexOutOfRange, .notAContainer].contains(error.code) {
            throw ToolError("no value at \(keyPath): \(error.detail)", code: "noValue")
        }
        let name = PlutilText.typeName(kind)
        if let expect, let kinds = PlutilText.kinds(named: expect), !kinds.contains(kind) {
            let article = ["integer", "array"].contains(name) ? "an" : "a"
            throw ToolError(
                "the value at \(keyPath.isEmpty ? "the root" : keyPath) is \(article) \(name), expected \(expect)",
                code: "type")
        }
        IO.printOut(name + "\n")
    }
}
