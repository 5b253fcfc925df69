// Sources/bplist/Editing/EditCommand.swift - `bplist edit FILE --set KP=VALUE --remove KP …`: many edits in one
// run, applied in the order given, all or nothing.

import ArgumentParser
import PropertyList

struct Edit: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply several edits in order, all or nothing, and write the file back once.",
        discussion: """
            Operations (any number, applied in the order given):
              --set KP=TEXT        set a string (replace, or insert when there is none)
              --set KP:=JSON       set any value given as JSON: 42, 1.5, true, [..], {..}, or \
            {"$date": "2024-01-01T00:00:00Z"}, {"$data": "base64"} for dates and data
              --insert KP=TEXT | KP:=JSON    insert (fails if a key exists; in an array, at a position)
              --replace KP=TEXT | KP:=JSON   replace (fails if there is none)
              --append KP=TEXT | KP:=JSON    append to the array at KP
              --remove KP          remove
            Options: -o PATH (write elsewhere; '-' for standard output), -p/--create-parents (create \
            missing dictionaries, for every operation), --strict, --allow-trailing, --lenient-strings.

            KP is plutil's form ('a.b.0', '\\\\.' for a dot inside a key) or PlistBuddy's (':a:b:0'); \
            it ends at the first '=' (a key holding '=' is edited with the single verbs: set, insert, …). \
            When any operation fails, the file is not written and the error names the key path where \
            it failed. The file is written back once, in the form it was read in, atomically (see \
            'bplist set --help').

            Examples:
              bplist edit Info.plist --set CFBundleVersion=42 --set CFBundleShortVersionString=1.2.0
              bplist edit Info.plist --remove UIRequiredDeviceCapabilities --append CFBundleURLTypes:='{"CFBundleURLSchemes": ["x"]}'
              bplist edit App.entitlements --set 'com\\\\.apple\\\\.security\\\\.app-sandbox:=true' --set 'keychain-access-groups:=[]'
              bplist edit prefs.plist -p --set window.width:=800 --set window.height:=600 -o -

            Exit status: 0 on success; 1 on any error (nothing written); 64 for usage errors.
            """)

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String

    @Argument(
        parsing: .captureForPassthrough,
        help:
            "Operations and options, in order: --set KP=TEXT, --set KP:=JSON, --insert, --replace, --append, --remove KP, -o PATH, -p."
    )
    var operations: [String] = []

    /// The operations read from the arguments, and the options among them.
    struct Plan {
        enum Operation {
            case set, insert, replace, append, remove
        }

        var steps: [(Operation, String)] = []
        var output: String?
        var createParents = false
        var readArguments: [String] = []

        /// The edits, with `createParents` applied to those that can create.
        func edits() throws -> [PlistEdit<PlistValue>] {
            try steps.map { (operation, argument) in
                if operation == .remove { return .remove(at: PlistKeyPath(parsing: argument)) }
                guard let equals = argument.firstIndex(of: "=") else {
                    throw ValidationError("--\(operation) needs KP=TEXT or KP:=JSON, not '\(argument)'")
                }
                var pathText = String(argument[..<equals])
                let text = String(argument[argument.index(after: equals)...])
                let value: PlistValue
                if pathText.hasSuffix(":") {
                    pathText.removeLast()
                    value = try TypedValue.json(text)
                } else {
                    value = .string(PlistString(text))
                }
                let path = PlistKeyPath(parsing: pathText)
                switch operation {
                case .set: return .set(value, at: path, creatingParents: createParents)
                case .insert: return .insert(value, at: path, creatingParents: createParents)
                case .replace: return .replace(value, at: path)
                case .append: return .append(value, to: path, creatingParents: createParents)
                case .remove: return .remove(at: path)
                }
            }
        }
    }

    /// Reads `arguments` (everything after FILE).
    static func plan(_ arguments: [String]) throws -> Plan {
        var plan = Plan()
        var rest = arguments[...]
        func next(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw ValidationError("\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--set": plan.steps.append((.set, try next(argument)))
            case "--insert": plan.steps.append((.insert, try next(argument)))
            case "--replace": plan.steps.append((.replace, try next(argument)))
            case "--append": plan.steps.append((.append, try next(argument)))
            case "--remove": plan.steps.append((.remove, try next(argument)))
            case "-o", "--output": plan.output = try next(argument)
            case "-p", "--create-parents": plan.createParents = true
            case "--strict", "--allow-trailing", "--lenient-strings": plan.readArguments.append(argument)
            default:
                if let value = argument.split(separator: "=", maxSplits: 1).last, argument.hasPrefix("--output=") {
                    plan.output = String(value)
                } else {
                    throw ValidationError("unknown operation or option '\(argument)' (see bplist edit --help)")
                }
            }
        }
        guard !plan.steps.isEmpty else { throw ValidationError("give at least one operation (--set, --remove, …)") }
        return plan
    }

    func validate() throws { _ = try Edit.plan(operations).edits() }

    func execute() throws {
        let plan = try Edit.plan(operations)
        let read = try ReadOptions.parse(plan.readArguments)
        try EditRunner.run(file: file, edits: try plan.edits(), output: plan.output, read: read)
    }
}
