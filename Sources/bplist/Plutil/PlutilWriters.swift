// Sources/bplist/Plutil/PlutilWriters.swift - plutil's JSON (Foundation's JSONSerialization layout:
// compact, or -r indented with sorted keys) and its -p text, written from any PlistTree (a binary
// document in place, or a value), one frame per open container.

import Foundation
import PropertyList

/// plutil's JSON. Where plutil fails, this writes: a date as an RFC 3339 string, data as a base64
/// string, a UID as `{"CF$UID": n}`, a set as an array, a scalar at the root. Reals that are not finite
/// and non-string keys are refused, as plutil refuses them. Dictionary keys keep their order (-r sorts
/// them as plutil does).
enum PlutilJSON {
    private struct Frame<Children> {
        /// Escaped keys and their positions (nil for an array).
        var keys: [(text: String, position: Int)]?
        var values: Children
        var next = 0
        var indent: Int
    }

    static func write<T: PlistTree>(
        _ tree: T, _ root: T.Node, readable: Bool, budget: OutputBudget, into out: inout TextSink
    ) throws(PlistError) {
        try PlistTreeMeasure(tree, budget: budget).check(
            root, as: "JSON",
            refuses: { visit in
                switch visit {
                case .key(let k): k.kind != .string
                case .scalar(.real(let d)): !d.isFinite
                default: false
                }
            },
            failure: { visit, _ in
                if case .key = visit {
                    return PlistError(.unencodable, "Dictionaries are required to have string keys in property lists")
                }
                return PlistError(.unencodable, "Invalid object in plist for JSON format")
            })
        var frames: [Frame<T.Children>] = []
        try open(tree, root, indent: 0, readable: readable, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.indices.last {
            let next = frames[top].next
            let indent = frames[top].indent
            let count = frames[top].values.count
            guard next < count else {
                let isArray = frames.removeLast().keys == nil
                if readable {
                    out.write("\n")
                    out.write(repeating: 0x20, count: indent)
                }
                out.write(isArray ? "]" : "}")
                continue
            }
            frames[top].next += 1
            if next > 0 { out.write(readable ? ",\n" : ",") }
            if readable && (next > 0 || frames[top].keys == nil) { out.write(repeating: 0x20, count: indent + 2) }
            let child: T.Node
            if let keys = frames[top].keys {
                out.write(keys[next].text)
                out.write(readable ? " : " : ":")
                child = frames[top].values[keys[next].position]
            } else {
                child = frames[top].values[next]
            }
            try open(tree, child, indent: indent + 2, readable: readable, into: &out, frames: &frames)
        }
    }

    /// Writes a scalar, or the opening of a container (pushing its frame).
    private static func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, indent: Int, readable: Bool, into out: inout TextSink,
        frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(.uid(let u)):
            out.write(
                readable
                    ? "{\n" + String(repeating: " ", count: indent + 2) + "\"CF$UID\" : \(u)\n"
                        + String(repeating: " ", count: indent) + "}" : "{\"CF$UID\":\(u)}")
        case .scalar(let v):
            out.write(scalar(v))
        case .array(let children, _), .set(let children, _):
            out.write(readable ? "[\n" : "[")
            frames.append(Frame(keys: nil, values: children, indent: indent))
        case .dictionary(let keys, let values, _):
            var entries: [(text: String, raw: String, position: Int)] = []
            for i in keys.indices {
                guard case .scalar(.string(let key)) = try tree.contents(of: keys[i]) else { continue }
                entries.append((string(key.string), key.string, i))
            }
            if readable { entries.sort { PlutilText.keyPrecedes($0.raw, $1.raw) } }
            out.write(readable ? "{\n" : "{")
            if readable && !entries.isEmpty { out.write(repeating: 0x20, count: indent + 2) }
            frames.append(Frame(keys: entries.map { ($0.text, $0.position) }, values: values, indent: indent))
        }
    }

    /// One scalar as JSONSerialization writes it (dates and data as plain strings).
    static func scalar(_ v: PlistValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .real(let d):
            let text = d.description
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        case .string(let s): return string(s.string)
        case .date(let d):
            let x = d.timeIntervalSinceReferenceDate
            return string(PlistValue.iso8601(secondsSinceReferenceDate: x) ?? PlutilText.rfc3339(d))
        case .data(let d): return string(d.base64EncodedString())
        case .uid(let u): return "{\"CF$UID\":\(u)}"
        case .array, .set, .dictionary: return ""
        }
    }

    /// A JSON string as JSONSerialization escapes it: `"`, `\`, `/`, the named controls, other
    /// controls as `\u00xx`; everything else as it is (UTF-8).
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// plutil's `-p` text: `{` / `[` on the line of their label, entries `"key" => value` (keys sorted as
/// plutil sorts them) and `N => value`, indented by two spaces per level.
enum PlutilPrinter {
    private struct Frame<Children> {
        /// Labels (`"key"` or a scalar key's text) and positions; nil for an array.
        var keys: [(label: String, position: Int)]?
        var values: Children
        var next = 0
        var indent: Int
    }

    /// Prints the tree at `root` to standard output (after checking it against the output budget).
    static func print<T: PlistTree>(_ tree: T, _ root: T.Node, inputBytes: Int) throws {
        try PlistTreeMeasure(tree, budget: .scaled(.default, inputBytes: inputBytes)).check(
            root, as: "plutil -p output")
        try IO.stream(to: "-") { out in
            var frames: [Frame<T.Children>] = []
            try open(tree, root, indent: 2, into: &out, frames: &frames)
            while !out.isStopped, let top = frames.indices.last {
                let next = frames[top].next
                let indent = frames[top].indent
                guard next < frames[top].values.count else {
                    let isArray = frames.removeLast().keys == nil
                    out.write(repeating: 0x20, count: indent - 2)
                    out.write(isArray ? "]\n" : "}\n")
                    continue
                }
                frames[top].next += 1
                out.write(repeating: 0x20, count: indent)
                let child: T.Node
                if let keys = frames[top].keys {
                    out.write(keys[next].label + " => ")
                    child = frames[top].values[keys[next].position]
                } else {
                    out.write("\(next) => ")
                    child = frames[top].values[next]
                }
                try open(tree, child, indent: indent + 2, into: &out, frames: &frames)
            }
        }
    }

    private static func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, indent: Int, into out: inout TextSink, frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(let v):
            out.write(scalar(v) + "\n")
        case .array(let children, _), .set(let children, _):
            out.write("[\n")
            frames.append(Frame(keys: nil, values: children, indent: indent))
        case .dictionary(let keys, let values, _):
            var entries: [(sort: String, label: String, position: Int)] = []
            for i in keys.indices {
                guard case .scalar(let key) = try tree.contents(of: keys[i]) else { continue }
                if let text = key.stringValue {
                    entries.append((text, "\"\(text)\"", i))
                } else {
                    let text = scalar(key)
                    entries.append((text, text, i))
                }
            }
            entries.sort { PlutilText.keyPrecedes($0.sort, $1.sort) }
            out.write("{\n")
            frames.append(Frame(keys: entries.map { ($0.label, $0.position) }, values: values, indent: indent))
        }
    }

    /// One scalar as `plutil -p` shows it.
    static func scalar(_ v: PlistValue) -> String {
        switch v {
        case .string(let s): return "\"\(s.string)\""
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .real(let d): return d.description
        case .date(let d):
            let text = d.description
            return text.hasPrefix("<") ? Render.date(d) : text
        case .data(let d):
            let bytes = [UInt8](d)
            let shown =
                bytes.count <= 24
                ? Render.hex(bytes[...]) : Render.hex(bytes[..<8]) + "... " + Render.hex(bytes[(bytes.count - 8)...])
            return "{length = \(bytes.count), bytes = 0x\(shown)}"
        case .uid(let u): return "<CFKeyedArchiverUID>{value = \(u)}"
        case .null: return "<null>"
        case .array, .set, .dictionary: return ""
        }
    }
}
