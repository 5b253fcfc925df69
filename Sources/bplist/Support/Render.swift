// Sources/bplist/Support/Render.swift - Shared by convert, print, get and unarchive: ANSI colours, buffered
// text output and the one-line forms of scalar values (PlistInput.swift loads the input forms).

import ArgumentParser
import Foundation
import PropertyList

/// ANSI colours, on only when asked for or when stdout is a terminal and `NO_COLOR` is unset.
extension Palette {
    /// `--color` forces colours; `--no-color`, a non-empty `NO_COLOR` or a non-terminal stdout turn them off.
    static func choose(forced: Bool, disabled: Bool) -> Palette {
        if forced { return Palette(enabled: true) }
        if disabled { return Palette(enabled: false) }
        if let noColor = Terminal.environment("NO_COLOR"), !noColor.isEmpty { return Palette(enabled: false) }
        return Palette(enabled: Terminal.stdoutIsTerminal)
    }
}

/// Colour flags shared by print, get and unarchive.
struct ColorOptions: ParsableArguments {
    @Flag(name: .long, help: "Never colour the output (also: a non-empty NO_COLOR environment variable).")
    var noColor = false

    @Flag(name: .long, help: "Colour the output even when standard output is not a terminal.")
    var color = false

    func validate() throws {
        if noColor && color { throw ValidationError("give either --color or --no-color, not both") }
    }

    var palette: Palette { Palette.choose(forced: color, disabled: noColor) }
}
