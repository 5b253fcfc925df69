// Sources/PropertyList/OpenStep/OpenStepWriter.swift - Writes strings, data, arrays and dictionaries
// with string keys as OpenStep text; anything else is an error (the format would lose its type).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

enum OpenStepWriter {
    /// Writes `value` at `indent` into `out`; `path` names it in errors. Stops early when `out` does.
    static func write(_ value: PlistValue, indent: Int, path: [String], into out: inout TextSink)
        throws(PlistError)
    {
        switch value {
        case .string(let s):
            // A root string is quoted, so that the output is recognised as OpenStep text (a bare
            // word alone is not: see PlistSniffer).
            writeString(s.string, quoted: path.isEmpty && indent == 0, into: &out)
        case .data(let d):
            out.write(UInt8(ascii: "<"))
            for (k, b) in d.enumerated() {
                if k > 0 && k % 4 == 0 { out.write(0x20) }
                out.write(OpenStepWriter.hexDigits[Int(b >> 4)])
                out.write(OpenStepWriter.hexDigits[Int(b & 0x0F)])
            }
            out.write(UInt8(ascii: ">"))
        case .array(let elements):
            guard !elements.isEmpty else {
                out.write("()")
                return
            }
            out.write("(\n")
            for (k, element) in elements.enumerated() {
                guard !out.isStopped else { return }
                out.write(repeating: 0x09, count: indent + 1)
                try write(element, indent: indent + 1, path: path + [String(k)], into: &out)
                out.write(k + 1 < elements.count ? ",\n" : "\n")
            }
            out.write(repeating: 0x09, count: indent)
            out.write(UInt8(ascii: ")"))
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else {
                out.write("{}")
                return
            }
            out.write("{\n")
            for (key, element) in dictionary.entries {
                guard !out.isStopped else { return }
                guard case .string(let text) = key else {
                    throw unencodable(path, "has a key of kind \(key.kind); OpenStep keys are strings")
                }
                let name = text.string
                out.write(repeating: 0x09, count: indent + 1)
                writeString(name, into: &out)
                out.write(" = ")
                try write(element, indent: indent + 1, path: path + [name], into: &out)
                out.write(";\n")
            }
            out.write(repeating: 0x09, count: indent)
            out.write(UInt8(ascii: "}"))
        case .null, .bool, .integer, .real, .date, .uid, .set:
            throw unencodable(
                path, "(\(value.kind)) has no OpenStep form (strings, data, arrays and dictionaries only)")
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
