// Sources/bplist/Plutil/Plutil.swift - `bplist plutil ARGS…`, and the tool invoked through a link named
// `plutil`: the toolchain plutil's own syntax, verbs, messages and exit status.
//
// The arguments are read as plutil reads them (its verbs take their operands in fixed positions, then
// the common options -s -o -e -r -n and the files), not through ArgumentParser. Messages have plutil's
// form: an argument error is one line and exit status 1; a file's error is `FILE: message` (`<stdin>`
// for '-'), the other files are still processed, and the status is 1 when any failed. Where plutil
// fails we do better (each place is listed in `help`): JSON with dates and data, OpenStep output,
// `--` (plutil ignores it), a replace at an array position (plutil inserts), missing parents with
// `-parents`, crashes on bad dates and appends past the end, and atomic writes.

import ArgumentParser
import Foundation
import PropertyList

enum Plutil {
    /// An error of the arguments (printed alone), or of one file (printed after `FILE: `).
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Runs plutil's command line `arguments` (without the program name); the exit status.
    static func run(_ arguments: [String], name: String) -> Int32 {
        do {
            return try dispatch(arguments, name: name) ? 0 : 1
        } catch let failure as Failure {
            IO.printError(failure.message)
        } catch {
            IO.printError(ToolError.message(for: error))
        }
        return 1
    }

    /// Picks the verb from the first argument (lint when it is none: a file).
    private static func dispatch(_ arguments: [String], name: String) throws -> Bool {
        var args = arguments
        guard let verb = args.popFirst() else { throw Failure("No files specified.") }
        switch verb {
        case "-help":
            IO.printOut(help(name))
            return true
        case "-lint":
            return try Lint(arguments: args).run()
        case "-p":
            return try PrettyPrint(arguments: args).run()
        case "-convert":
            guard let format = args.popFirst() else { throw Failure("Missing format specifier for command.") }
            let emission = try Emission(format)
            var header = false
            if args.first == "-header" {
                guard emission == .objc else { throw Failure("-header is only valid for objc literal conversions.") }
                args.removeFirst()
                header = true
            }
            return try Convert(emission: emission, header: header, arguments: args).run()
        case "-insert", "-replace":
            return try InsertOrReplace(replacing: verb == "-replace", arguments: args).run()
        case "-remove":
            guard let keyPath = args.popFirst() else { throw Failure("'Remove' requires a key path.") }
            return try RemoveValue(keyPath: keyPath, arguments: args).run()
        case "-extract", "-type":
            let missing = "'Extract' requires a key path and a plist format."
            guard let keyPath = args.popFirst() else { throw Failure(missing) }
            var emission: Emission? = .type
            if verb == "-extract" {
                guard let format = args.popFirst() else { throw Failure(missing) }
                emission = try Emission(format)
            }
            var expect: String?
            if args.first == "-expect" {
                args.removeFirst()
                guard let type = args.popFirst() else { throw Failure("-expect requires a type argument.") }
                guard expectTypes.contains(type) else { throw Failure("-expect type [\(type)] not valid.") }
                expect = type
            }
            return try Extract(keyPath: keyPath, emission: emission, expect: expect, arguments: args).run()
        case "-create":
            guard let format = args.popFirst() else { throw Failure("'Create' requires a plist format.") }
            return try CreateFile(emission: try Emission(format) ?? .xml, arguments: args).run()
        default:
            return try Lint(arguments: [verb] + args).run()
        }
    }

    /// The names `-expect` takes.
    static let expectTypes: Swift.Set<String> = [
        "(any)", "bool", "integer", "float", "string", "array", "dictionary", "date", "data",
    ]

    /// The output forms plutil names: `-convert`, `-extract` and `-create` formats. `nil` from the
    /// initialiser means "NoConversion": the input's own form.
    enum Emission: Equatable {
        case openStep, xml, binary, json, swift, objc, raw, type

        init?(_ name: String) throws(Failure) {
            switch name {
            case "NoConversion": return nil
            case "openStep": self = .openStep
            case "xml1": self = .xml
            case "binary1": self = .binary
            case "json": self = .json
            case "swift": self = .swift
            case "objc": self = .objc
            case "raw": self = .raw
            case "type": self = .type
            default: throw Failure("Unknown format specifier: \(name)")
            }
        }

        /// The emission that writes a file back in the form it was read in.
        init(_ form: PlistInput.Form) {
            switch form {
            case .binary: self = .binary
            case .xml: self = .xml
            case .openStep: self = .openStep
            case .json: self = .json
            }
        }
    }

    /// The options every verb after its operands takes, and its files.
    struct Common {
        var paths: [String] = []
        /// `-r`: human-readable JSON (indented, keys sorted).
        var readable = false
        /// `-n`: no newline after raw and type output.
        var newline = true
        /// `-o PATH`.
        var output: String?
        /// `-e EXT`.
        var fileExtension: String?
        /// `-s`.
        var silent = false
        /// `-parents` (ours): insert and replace create missing dictionaries.
        var createParents = false

        /// Reads `arguments`; `--` makes every later argument a file (plutil ignores it: ours works).
        init(_ arguments: [String], allowParents: Bool = false) throws(Failure) {
            var rest = arguments[...]
            var onlyPaths = false
            while let arg = rest.popFirst() {
                if onlyPaths {
                    paths.append(arg)
                    continue
                }
                switch arg {
                case "--": onlyPaths = true
                case "-n": newline = false
                case "-s": silent = true
                case "-r": readable = true
                case "-o":
                    guard let next = rest.popFirst() else { throw Failure("Missing argument for -o.") }
                    output = next
                case "-e":
                    guard let next = rest.popFirst() else { throw Failure("Missing argument for -e.") }
                    fileExtension = next
                case "-parents" where allowParents: createParents = true
                default:
                    if arg.hasPrefix("-") && arg.count > 1 { throw Failure("unrecognized option: \(arg)") }
                    paths.append(arg)
                }
            }
            guard !paths.isEmpty else { throw Failure("No files specified.") }
        }
    }

    /// Runs `body` for each of `paths`, printing a failure as `FILE: message` and going on; whether
    /// all succeeded.
    static func eachFile(_ paths: [String], _ body: (String) throws -> Void) -> Bool {
        var allGood = true
        for path in paths {
            do {
                try body(path)
            } catch {
                allGood = false
                IO.printError("\(path == "-" ? "<stdin>" : path): \(message(for: error))")
            }
        }
        return allGood
    }

    /// A file's error as plutil words it: its own messages as they are, others in parentheses.
    static func message(for error: any Error) -> String {
        switch error {
        case let failure as Failure: return failure.message
        case let plist as PlistError:
            switch plist.code {
            case .unencodable, .limitExceeded: return ToolError.oneLine(plist.detail)
            default: return "(\(ToolError.oneLine(plist.description)))"
            }
        case let tool as ToolError: return "(\(tool.description))"
        default:
            let nsError = error as NSError
            return "(\(nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription))"
        }
    }

    /// The help text (`-help`): plutil's verbs and options, and where this one does better.
    static func help(_ name: String) -> String {
        """
        \(name): [command_option] [other_options] file...
        The file '-' means stdin. This is bplist's plutil: the toolchain plutil's syntax, messages and
        exit status, with the differences listed at the end.
        Command options are (-lint is the default):
         -help                         show this message and exit
         -lint                         check that each file is a property list (prints 'FILE: OK')
         -convert fmt                  rewrite each file in format fmt: xml1 binary1 json swift objc
                                       openStep (objc -header also writes a header)
         -insert keypath -type value   insert a value (see types below); keypath is dot-separated,
                                       '\\.' is a dot inside a key, a number indexes an array (the
                                       last one inserts there; the count appends)
                                       -append: append to the array at keypath instead
         -replace keypath -type value  set the value at keypath (insert it when there is none)
         -remove keypath               remove the value at keypath
         -extract keypath fmt          write the value at keypath as fmt: xml1 binary1 json raw
                                       (-expect type: fail unless the value has that type)
                                       raw: bool as true/false, a number, a string as is, a date in
                                       RFC 3339 (UTC), data in base64, an array's count, a
                                       dictionary's keys (one per line); to stdout unless -o
         -type keypath                 print the type at keypath: bool, integer, float, string,
                                       date, data, dictionary, array (-expect type as above)
         -create fmt                   write an empty dictionary in format fmt
         -p                            print each file in a human-readable form (not stable)
        Types for -insert and -replace: -bool YES|NO|true|false, -integer N, -float N, -string S,
        -date YYYY-MM-DDTHH:MM:SSZ, -data BASE64, -xml PLIST, -json JSON, -array, -dictionary
        (the last two take no value).
        Other options (after the verb's operands):
         -s            silent: no 'OK' from -lint
         -o path       write the result here ('-' for stdout); with several files the last wins
         -e extension  write FILE with this extension instead of over it
         -r            JSON: indented, keys sorted
         -n            no newline after raw and type output
         --            every later argument is a file name
         -parents      -insert/-replace: create missing dictionaries on the way (bplist's)

        Where bplist does better than the toolchain's plutil:
         - JSON output writes dates as RFC 3339 strings and data as base64 strings (plutil fails),
           a single value at the root, UIDs as {"CF$UID": n}, and keeps the file's key order.
         - -convert openStep and -create openStep write OpenStep text (plutil refuses).
         - -replace at an array position replaces the element (plutil on Linux inserts before it).
         - -parents creates missing dictionaries; -insert -append past an array's end, a bad -date
           and -insert into a missing position are errors (plutil crashes).
         - '--' works; files are written atomically (temporary file, flush, rename over the target of
           a symbolic link, permissions kept); key order is kept on every edit.
         - -p prints data bytes as they are (plutil on Linux skips every other byte and drops zeros).
        Exit status: 0 when every file succeeded, 1 otherwise.

        """
    }
}

extension Array {
    /// Removes and returns the first element, or nil when empty.
    mutating func popFirst() -> Element? {
        isEmpty ? nil : removeFirst()
    }
}

/// `bplist plutil ARGS…` in the subcommand list (its help). The arguments are read by ``Plutil``, not
/// ArgumentParser: `BPlistCommand.main()` hands them over before parsing.
struct PlutilCompat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plutil",
        abstract:
            "The toolchain plutil's syntax: -lint, -p, -convert, -insert, -replace, -remove, -extract, -type, -create.",
        discussion: """
            'bplist plutil ARGS…' (or bplist run through a link named 'plutil') takes plutil's arguments \
            and prints what plutil prints, with its messages and exit status, so scripts written for \
            plutil run unchanged; 'bplist plutil -help' lists the verbs and where this one does better \
            (JSON with dates and data, OpenStep output, -replace at an array position, -parents, \
            atomic writes, no crashes).

            Examples:
              bplist plutil -convert xml1 Info.plist
              bplist plutil -replace CFBundleVersion -string 42 Info.plist
              bplist plutil -extract CFBundleIdentifier raw -o - Info.plist
              ln -s "$(command -v bplist)" ~/bin/plutil && plutil -p Info.plist
            """)

    @Argument(parsing: .allUnrecognized, help: "plutil's arguments.")
    var arguments: [String] = []

    func run() throws {
        let status = Plutil.run(arguments, name: "bplist plutil")
        if status != 0 { throw ExitCode(status) }
    }
}
