// Sources/BinaryPlist/OpenStep/OpenStepWriter.swift - Writes strings, data, arrays and dictionaries
// with string keys as OpenStep text; anything else is an error (the format would lose its type).

internal import FoundationEssentials

struct OpenStepWriter {
    var out: [UInt8] = []

    mutating func write(_ value: PlistValue, indent: Int, path: [String]) throws(BinaryPlistError) {
        switch value {
        case .string(let s):
            // A root string is quoted, so that the output is recognised as OpenStep text (a bare
            // word alone is not: see PlistSniffer).
            writeString(s.string, quoted: path.isEmpty && indent == 0)
        case .data(let d):
            out.append(UInt8(ascii: "<"))
            for (k, b) in d.enumerated() {
                if k > 0 && k % 4 == 0 { out.append(0x20) }
                out.append(OpenStepWriter.hexDigits[Int(b >> 4)])
                out.append(OpenStepWriter.hexDigits[Int(b & 0x0F)])
            }
            out.append(UInt8(ascii: ">"))
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "()".utf8)
                return
            }
            out.append(contentsOf: "(\n".utf8)
            for (k, element) in elements.enumerated() {
                tabs(indent + 1)
                try write(element, indent: indent + 1, path: path + [String(k)])
                out.append(contentsOf: (k + 1 < elements.count ? ",\n" : "\n").utf8)
            }
            tabs(indent)
            out.append(UInt8(ascii: ")"))
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(contentsOf: "{\n".utf8)
            for (key, element) in dictionary.entries {
                guard case .string(let text) = key else {
                    throw unencodable(path, "has a key of kind \(key.kind); OpenStep keys are strings")
                }
                let name = text.string
                tabs(indent + 1)
                writeString(name)
                out.append(contentsOf: " = ".utf8)
                try write(element, indent: indent + 1, path: path + [name])
                out.append(contentsOf: ";\n".utf8)
            }
            tabs(indent)
            out.append(UInt8(ascii: "}"))
        case .null, .bool, .integer, .real, .date, .uid, .set:
            throw unencodable(
                path, "(\(value.kind)) has no OpenStep form (strings, data, arrays and dictionaries only)")
        }
    }

    func unencodable(_ path: [String], _ what: String) -> BinaryPlistError {
        let place = path.isEmpty ? "the root" : "the value at " + path.joined(separator: ".")
        return BinaryPlistError(.unencodable, "\(place) \(what)")
    }

    mutating func tabs(_ count: Int) {
        out.append(contentsOf: repeatElement(0x09, count: count))
    }

    /// Unquoted when every byte may appear in an unquoted string, else quoted with escapes.
    mutating func writeString(_ s: String, quoted: Bool = false) {
        let utf8 = s.utf8
        // Unquoted, unless it would start a comment (`//x`, `/*x`).
        if !quoted && !utf8.isEmpty && utf8.allSatisfy(PlistSniffer.isUnquotedStringByte)
            && !(utf8.starts(with: "//".utf8) || utf8.starts(with: "/*".utf8))
        {
            out.append(contentsOf: utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x00..<0x20, 0x7F:
                // Three octal digits, so a following digit is not read into the escape.
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "0") + (b >> 6))
                out.append(UInt8(ascii: "0") + ((b >> 3) & 7))
                out.append(UInt8(ascii: "0") + (b & 7))
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
