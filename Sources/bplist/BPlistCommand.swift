// Sources/bplist/BPlistCommand.swift - The `bplist` tool: entry point and subcommand list.
//
// Exit codes are a contract that scripts rely on: 0 on success, 1 for any failure (with one
// `error: ...` line on stderr, or one `FILE: error: CODE at byte N: detail` line per bad file for
// `validate`). ArgumentParser's own usage errors keep its exit code 64.
//
// To add a command: write a `BPlistSubcommand` in its own file and list it in `subcommands` below.

import ArgumentParser
import Foundation

@main
struct BPlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bplist",
        abstract: "Read, write and check binary property lists (bplist00) and NSKeyedArchiver archives.",
        discussion: """
            Input FILE may be '-' for standard input. Plain, zlib- and gzip-compressed property lists \
            are read alike. Exit status: 0 on success, 1 on any error, 64 for usage errors.
            """,
        subcommands: [
            ToJSON.self, FromJSON.self, Validate.self, Inspect.self, Bench.self, Convert.self, Print.self, Get.self,
            Unarchive.self, Split.self, Generate.self,
            // Editing, plutil's syntax, structural diff (issue 25).
            Insert.self, Replace.self, SetValue.self, Remove.self, Append.self, Edit.self, TypeCommand.self,
            Create.self, Diff.self, PlutilCompat.self,
            // Property lists in git: merge driver, text conversion (issue 32).
            Merge.self, TextConv.self,
        ]
    )

    /// Run through a link named `plutil`, or as `bplist plutil …`: plutil's own syntax, read by
    /// ``Plutil`` (not ArgumentParser, whose rules plutil's arguments do not follow).
    static func main() {
        let arguments = CommandLine.arguments
        if URL(fileURLWithPath: arguments.first ?? "").lastPathComponent == "plutil" {
            exit(withError: ExitCode(Plutil.run(Array(arguments.dropFirst()), name: "plutil")))
        }
        // `bplist plutil --help` is this command's help; plutil's own is `-help`.
        if arguments.count > 1, arguments[1] == "plutil",
            !(arguments.count == 3 && ["--help", "-h"].contains(arguments[2]))
        {
            exit(withError: ExitCode(Plutil.run(Array(arguments.dropFirst(2)), name: "bplist plutil")))
        }
        main(nil)
    }
}
