// Sources/PropertyList/OpenStep/OpenStepWriter.swift - Writes strings, data, arrays and dictionaries
// with string keys as OpenStep text; anything else is an error (the format would lose its type).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

enum OpenStepWriter {
    /// An open container: what is left to write of it.
    private enum Frame<Children> {
        case array(Children, next: Int, indent: Int)
        /// A dictionary: its keys as text (in entry order) and its values.
        case dictionary([String], values: Children, next: Int, indent: Int)
    }

    /// Writes `value` into `out`; an error names the key path of what the format cannot hold.
    static func write(_ value: PlistValue, into out: inout TextSink) throws(PlistError) {
        try write(PlistValueTree(), value, into: &out)
    }

    /// Writes the tree at `root` into `out` as it walks it; stops early when `out` does. With
    /// `stringsFile` (a root dictionary only), the root's entries are written without braces.
    static func write<T: PlistTree>(_ tree: T, _ root: T.Node, stringsFile: Bool = false, into out: inout TextSink)
        throws(PlistError)
    {
        var frames: [Frame<T.Children>] = []
        // Indentation -1: the root dictionary's entries at the left margin, and no braces.
        try open(tree, root, indent: stringsFile ? -1 : 0, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.popLast() {
            switch top {
            case .array(let children, let next, let indent):
                if next > 0 { out.write(next < children.count ? ",\n" : "\n") }
                guard next < children.count else {
                    out.write(repeating: 0x09, count: indent)
                    out.write(UInt8(ascii: ")"))
                    continue
                }
                frames.append(.array(children, next: next + 1, indent: indent))
                out.write(repeating: 0x09, count: indent + 1)
                try open(tree, children[next], indent: indent + 1, into: &out, frames: &frames)
            case .dictionary(let keys, let values, let next, let indent):
                if next > 0 { out.write(";\n") }
                guard next < keys.count else {
                    if indent >= 0 {
                        out.write(repeating: 0x09, count: indent)
                        out.write(UInt8(ascii: "}"))
                    }
                    continue
                }
                frames.append(.dictionary(keys, values: values, next: next + 1, indent: indent))
                out.write(repeating: 0x09, count: indent + 1)
                writeString(keys[next], into: &out)
                out.write(" = ")
                try open(tree, values[next], indent: indent + 1, into: &out, frames: &frames)
            }
        }
    }

    /// The key path of the node being written (each frame's `next` has moved past its child).
    private static func path<C>(_ frames: [Frame<C>]) -> [String] {
        frames.map { frame in
            switch frame {
            case .array(_, let next, _): String(next - 1)
            case .dictionary(let keys, _, let next, _): keys[next - 1]
            }
        }
    }

    /// Writes a scalar, or the opening of a container (pushing its frame).
    private static func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, indent: Int, into out: inout TextSink, frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(.string(let s)):
            // A root string is quoted, so that the output is recognised as OpenStep text (a bare
            // word alone is not: see PlistSniffer).
            writeString(s.string, quoted: frames.isEmpty && indent <= 0, into: &out)
        case .scalar(.data(let d)):
            out.write(UInt8(ascii: "<"))
            for (k, b) in d.enumerated() {
                if k > 0 && k % 4 == 0 { out.write(0x20) }
                out.write(OpenStepWriter.hexDigits[Int(b >> 4)])
                out.write(OpenStepWriter.hexDigits[Int(b & 0x0F)])
            }
            out.write(UInt8(ascii: ">"))
        case .array(let children, _):
            guard !children.isEmpty else {
                out.write("()")
                return
            }
            out.write("(\n")
            frames.append(.array(children, next: 0, indent: indent))
        case .dictionary(let keys, let values, _):
            guard !keys.isEmpty else {
                if indent >= 0 { out.write("{}") }
                return
            }
            var names: [String] = []
            names.reserveCapacity(keys.count)
            for i in keys.indices {
                let key = try tree.contents(of: keys[i])
                guard case .scalar(.string(let text)) = key else {
                    throw unencodable(path(frames), "has a key of kind \(key.kind); OpenStep keys are strings")
                }
                names.append(text.string)
            }
            if indent >= 0 { out.write("{\n") }
            frames.append(.dictionary(names, values: values, next: 0, indent: indent))
        case let contents:
            throw unencodable(
                path(frames), "(\(contents.kind)) has no OpenStep form (strings, data, arrays and dictionaries only)")
        }
    }

    /// ``refuses(_:)`` for the nodes ``PlistTreeMeasure`` shows (a document read in place).
    static func refuses(_ visit: PlistTreeVisit) -> Bool {
        switch visit {
        case .scalar(.string), .scalar(.data), .key(.string), .container(.array), .container(.dictionary): false
        default: true
        }
    }

    /// The writer's error for a node ``refuses(_:)-(PlistTreeVisit)`` refuses, at `path`.
    static func failure(_ visit: PlistTreeVisit, _ path: [String]) -> PlistError {
        switch visit {
        case .key(let k): unencodable(Array(path.dropLast()), "has a key of kind \(k.kind); OpenStep keys are strings")
        case .scalar(let v):
            unencodable(path, "(\(v.kind)) has no OpenStep form (strings, data, arrays and dictionaries only)")
        case .container(let kind):
            unencodable(path, "(\(kind)) has no OpenStep form (strings, data, arrays and dictionaries only)")
        }
    }

    /// Whether writing `value` would throw: a predicate on one node, for
    /// ``PlistValue/containsDistinctNode(where:)`` (every node the writer would refuse is one of these).
    static func refuses(_ value: PlistValue) -> Bool {
        switch value {
        case .string, .data, .array: return false
        case .dictionary(let d):
            return d.entries.contains { entry in
                if case .string = entry.key { return false }
                return true
            }
        case .null, .bool, .integer, .real, .date, .uid, .set: return true
        }
    }

    static func unencodable(_ path: [String], _ what: String) -> PlistError {
        let place = path.isEmpty ? "the root" : "the value at " + path.joined(separator: ".")
        return PlistError(.unencodable, "\(place) \(what)")
    }

    /// Unquoted when every byte may appear in an unquoted string, else quoted with escapes.
    static func writeString(_ s: String, quoted: Bool = false, into out: inout TextSink) {
        let utf8 = s.utf8
        // Unquoted, unless it would start a comment (`//x`, `/*x`).
        if !quoted && !utf8.isEmpty && utf8.allSatisfy(PlistSniffer.isUnquotedStringByte)
            && !(utf8.starts(with: "//".utf8) || utf8.starts(with: "/*".utf8))
        {
            out.write(s)
            return
        }
        out.write(UInt8(ascii: "\""))
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): out.write("\\\"")
            case UInt8(ascii: "\\"): out.write("\\\\")
            case 0x0A: out.write("\\n")
            case 0x09: out.write("\\t")
            case 0x0D: out.write("\\r")
            case 0x00..<0x20, 0x7F:
                // Three octal digits, so a following digit is not read into the escape.
                out.write(UInt8(ascii: "\\"))
                out.write(UInt8(ascii: "0") + (b >> 6))
                out.write(UInt8(ascii: "0") + ((b >> 3) & 7))
                out.write(UInt8(ascii: "0") + (b & 7))
            default: out.write(b)
            }
        }
        out.write(UInt8(ascii: "\""))
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
