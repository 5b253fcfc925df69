// Sources/bplist/Render.swift - Shared by convert, print, get and unarchive: ANSI colours, buffered
// text output and the one-line forms of scalar values (PlistInput.swift loads the input forms).

import ArgumentParser
import Foundation
import PropertyList

/// ANSI colours, on only when asked for or when stdout is a terminal and `NO_COLOR` is unset.
struct Palette {
    enum Role: String {
        case key = "36"
        case string = "32"
        case number = "34"
        case literal = "35"
        case date = "33"
        case data = "33;2"
        case marker = "35;1"
        case className = "1"
        case punctuation = "2"
    }

    var enabled: Bool

    /// `--color` forces colours; `--no-color`, a non-empty `NO_COLOR` or a non-terminal stdout turn them off.
    static func choose(forced: Bool, disabled: Bool) -> Palette {
        if forced { return Palette(enabled: true) }
        if disabled { return Palette(enabled: false) }
        if let noColor = Terminal.environment("NO_COLOR"), !noColor.isEmpty { return Palette(enabled: false) }
        return Palette(enabled: Terminal.stdoutIsTerminal)
    }

    func paint(_ text: String, _ role: Role) -> String {
        enabled ? "\u{1B}[\(role.rawValue)m" + text + "\u{1B}[0m" : text
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

extension TextSink {
    /// `text` and a newline (the renderers write lines).
    mutating func line(_ text: String) {
        write(text)
        write(0x0A)
    }
}

/// The one-line forms of scalar values, as `print` shows them.
enum Render {
    /// `"text"` with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}` for other control characters.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `{length = 5, bytes = 0x000102faff}`; above 32 bytes the first 16 and last 8, around ` ... `.
    static func data(_ d: Data) -> String {
        let bytes = [UInt8](d)
        let shown: String
        if bytes.count <= 32 {
            shown = hex(bytes[...])
        } else {
            shown = hex(bytes[..<16]) + " ... " + hex(bytes[(bytes.count - 8)...])
        }
        return "{length = \(bytes.count), bytes = 0x\(shown)}"
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ISO-8601 in UTC (`2001-01-01T00:00:00Z`), or seconds since 2001 outside years 1...9999.
    static func date(_ d: Date) -> String {
        let x = d.timeIntervalSinceReferenceDate
        return PlistValue.iso8601(secondsSinceReferenceDate: x) ?? "\(PlistValue.pythonRepr(x)) s since 2001"
    }

    static func uid(_ u: UInt64) -> String { "<CFKeyedArchiverUID>{value = \(u)}" }

    /// A scalar as one coloured token; nil for containers.
    static func scalar(_ v: PlistValue, _ p: Palette) -> String? {
        switch v {
        case .null: return p.paint("<null>", .literal)
        case .bool(let b): return p.paint(b ? "true" : "false", .literal)
        case .integer(let i): return p.paint(String(i), .number)
        case .real(let x): return p.paint(PlistValue.pythonRepr(x), .number)
        case .date(let d): return p.paint(date(d), .date)
        case .data(let d): return p.paint(data(d), .data)
        case .string(let s): return p.paint(quoted(s.string), .string)
        case .uid(let u): return p.paint(uid(u), .marker)
        case .array, .set, .dictionary: return nil
        }
    }
}
