// Sources/bplist/BPlistSubcommand.swift - Shared error handling of the subcommands.

import ArgumentParser
import PropertyList

/// A subcommand whose failures all become `error: ...` on stderr and exit status 1.
///
/// Implement ``execute()``; `run()` reports any error thrown from it as one line and exits with 1.
/// Throw `ExitCode` directly to choose the status without a message (it is passed through).
protocol BPlistSubcommand: ParsableCommand {
    func execute() throws
}

extension BPlistSubcommand {
    mutating func run() throws {
        do {
            try execute()
        } catch let exit as ExitCode {
            try Self.checkInputsUnchanged()
            throw exit
        } catch {
            try Self.checkInputsUnchanged()
            IO.printError("error: " + ToolError.message(for: error))
            throw ExitCode(1)
        }
        try Self.checkInputsUnchanged()
    }

    /// Fails the command when an input file shrank while it was read (what it printed may be wrong).
    private static func checkInputsUnchanged() throws {
        guard let changed = IO.changedInput() else { return }
        IO.printError("error: " + ToolError.message(for: changed))
        throw ExitCode(1)
    }
}

/// A failure of the tool itself (not of the format core): unreadable files, bad arguments.
struct ToolError: Error, CustomStringConvertible {
    /// A short identifier in the position of a ``PlistError`` code (`io`).
    var code: String
    var description: String

    init(_ description: String, code: String = "io") {
        self.code = code
        self.description = description
    }

    /// One line describing any error: `CODE at byte N (object K): detail` for format errors.
    static func message(for error: any Error) -> String {
        let text: String
        switch error {
        case let e as PlistError: text = e.description
        case let e as ToolError: text = e.description
        default: text = String(describing: error)
        }
        return oneLine(text)
    }

    /// Newlines and other control characters of a message as spaces, so a message is one line.
    static func oneLine(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
    }
}
