// Sources/PropertyList/Text/TreePrinter.swift - The indented tree of `plutil -p`, written from any
// PlistTree (a decoded value, or a binary document read in place): `PlistValue.description`, and the
// bplist tool's `print` and `get` (in colour).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Prints a tree as an indented tree like `plutil -p`, without recursion (any depth); one frame per
/// open container, walking its children by position.
///
/// ```
/// {
///   "name" => "Ada"
///   "list" => [
///     0 => 1
///     1 => <set> [
///       0 => "x"
///     ]
///   ]
/// }
/// ```
package struct PlistTreePrinter {
    package var palette: Palette
    /// Called every 4,096 lines with the lines written and an estimate of the total.
    package var progress: ((Int, Int) -> Void)?
    /// Called for each data value printed as data, with its key path (to report a nested plist that
    /// did not decode).
    package var onData: ((PlistValue, [String]) -> Void)?

    package init(
        palette: Palette, progress: ((Int, Int) -> Void)? = nil, onData: ((PlistValue, [String]) -> Void)? = nil
    ) {
        self.palette = palette
        self.progress = progress
        self.onData = onData
    }

    private struct Frame<Children> {
        var keys: Children?
        var values: Children
        var next = 0
        var indent: Int
        var close: String
        /// The current child's key path component.
        var component = ""
    }

    /// Prints `value`.
    package func print(_ value: PlistValue, into out: inout TextSink) {
        // An owned value reads without errors.
        try? print(PlistValueTree(), value, into: &out)
    }

    /// Prints the tree at `root`.
    package func print<T: PlistTree>(_ tree: T, _ root: T.Node, into out: inout TextSink) throws(PlistError) {
        var frames: [Frame<T.Children>] = []
        var lines = 0
        try open(tree, root, prefix: "", indent: 0, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.indices.last {
            lines &+= 1
            if lines & 0xFFF == 0 { progress?(lines, lines + frames.count) }
            let next = frames[top].next
            guard next < frames[top].values.count else {
                let done = frames.removeLast()
                out.line(String(repeating: "  ", count: done.indent) + palette.paint(done.close, .punctuation))
                continue
            }
            frames[top].next += 1
            let indent = frames[top].indent + 1
            let label: String
            if let keys = frames[top].keys {
                let key = try tree.contents(of: keys[next])
                if case .scalar(let k) = key {
                    frames[top].component = k.stringValue ?? "\(k)"
                    if let s = k.stringValue {
                        label = palette.paint(Render.quoted(s), .key)
                    } else {
                        label = Render.scalar(k, palette) ?? palette.paint("<\(k.kind.rawValue) key>", .marker)
                    }
                } else {
                    frames[top].component = "<\(key.kind.rawValue) key>"
                    label = palette.paint("<\(key.kind.rawValue) key>", .marker)
                }
            } else {
                frames[top].component = String(next)
                label = palette.paint(String(next), .punctuation)
            }
            let prefix = String(repeating: "  ", count: indent) + label + palette.paint(" => ", .punctuation)
            try open(tree, frames[top].values[next], prefix: prefix, indent: indent, into: &out, frames: &frames)
        }
    }

    /// Prints a scalar or an empty container on one line; opens the frame of any other container.
    private func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, prefix: String, indent: Int, into out: inout TextSink,
        frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        let p = palette
        let openText: String
        let close: String
        let keys: T.Children?
        let values: T.Children
        switch try tree.contents(of: node) {
        case .scalar(let v):
            if case .data = v, let onData { onData(v, frames.map(\.component)) }
            out.line(prefix + (Render.scalar(v, p) ?? ""))
            return
        case .array(let children, _):
            (openText, close, keys, values) = ("[", "]", nil, children)
        case .set(let children, _):
            (openText, close, keys, values) = (p.paint("<set>", .marker) + " [", "]", nil, children)
        case .dictionary(let k, let v, _):
            (openText, close, keys, values) = ("{", "}", k, v)
        }
        if values.isEmpty {
            out.line(prefix + p.paint(openText == "{" ? "{}" : openText + "]", .punctuation))
            return
        }
        out.line(prefix + (openText == "{" || openText == "[" ? p.paint(openText, .punctuation) : openText))
        frames.append(Frame(keys: keys, values: values, indent: indent, close: close))
    }
}

/// ANSI colours for the roles of a printed tree (off: plain text).
package struct Palette: Sendable {
    package enum Role: String, Sendable {
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

    package var enabled: Bool

    package init(enabled: Bool) { self.enabled = enabled }

    package func paint(_ text: String, _ role: Role) -> String {
        enabled ? "\u{1B}[\(role.rawValue)m" + text + "\u{1B}[0m" : text
    }
}

extension TextSink {
    /// `text` and a newline (the renderers write lines).
    package mutating func line(_ text: String) {
        write(text)
        write(0x0A)
    }
}

/// The one-line forms of scalar values, as `print` shows them.
package enum Render {
    /// `"text"` with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}` for other control characters.
    package static func quoted(_ s: String) -> String {
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
    package static func data(_ d: Data) -> String {
        let bytes = [UInt8](d)
        let shown: String
        if bytes.count <= 32 {
            shown = hex(bytes[...])
        } else {
            shown = hex(bytes[..<16]) + " ... " + hex(bytes[(bytes.count - 8)...])
        }
        return "{length = \(bytes.count), bytes = 0x\(shown)}"
    }

    package static func hex(_ bytes: ArraySlice<UInt8>) -> String {
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
    package static func date(_ d: Date) -> String {
        let x = d.timeIntervalSinceReferenceDate
        return PlistValue.iso8601(secondsSinceReferenceDate: x) ?? "\(PlistValue.pythonRepr(x)) s since 2001"
    }

    package static func uid(_ u: UInt64) -> String { "<CFKeyedArchiverUID>{value = \(u)}" }

    /// A scalar as one coloured token; nil for containers.
    package static func scalar(_ v: PlistValue, _ p: Palette) -> String? {
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

extension PlistValue: CustomStringConvertible {
    /// The value as `plutil -p` shows it: scalars on one line (`"text"`, `42`, `0.5`, `true`,
    /// `2001-01-01T00:00:00Z`, `{length = 3, bytes = 0x000102}`, `<CFKeyedArchiverUID>{value = 7}`),
    /// containers as an indented tree of `key => value` and `index => value` lines.
    public var description: String {
        var out = TextSink.collecting()
        PlistTreePrinter(palette: Palette(enabled: false)).print(self, into: &out)
        var bytes = out.takeBytes()
        if bytes.last == 0x0A { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
