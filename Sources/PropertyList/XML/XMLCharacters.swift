// Sources/PropertyList/XML/XMLCharacters.swift - Which characters XML 1.0 text can hold, and naming the
// string that holds one it cannot.
//
// XML 1.0 § 2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// No escape helps: a character reference to a character outside Char (`&#1;`) is not well-formed
// either. CoreFoundation writes such characters raw, and no XML parser (plistlib's expat included)
// reads the result, so the writer refuses them.

enum XMLCharacters {
    /// The first scalar of `s` that XML 1.0 cannot hold, if any.
    static func firstInvalidScalar(_ s: String) -> Unicode.Scalar? {
        // Fast path: the UTF-8 of a valid string has no byte below 0x20 other than tab, LF, CR, and
        // U+FFFE/U+FFFF are EF BF BE/BF.
        var suspicious = false
        for b in s.utf8 where (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0xBF || b == 0xBE {
            suspicious = true
            break
        }
        guard suspicious else { return nil }
        return s.unicodeScalars.first { !isXMLChar($0) }
    }

    static func isXMLChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Marks the errors `check` throws, so the writer can name the string's key path afterwards.
    static let marker = "a character XML 1.0 cannot hold"

    /// Throws `unencodable` when `s` holds a character outside XML 1.0's `Char`.
    static func check(_ s: String) throws(PlistError) {
        guard let bad = firstInvalidScalar(s) else { return }
        throw PlistError(.unencodable, "\(marker) (U+\(hex(bad.value)))")
    }

    /// The error of `check` with the key path of the first such string (or key) in `root`.
    static func named(_ error: PlistError, in root: PlistValue) -> PlistError {
        guard error.code == .unencodable, error.detail.hasPrefix(marker) else { return error }
        var work: [(PlistValue, [String])] = [(root, [])]
        while let (value, path) = work.popLast() {
            switch value {
            case .string(let s):
                if let bad = firstInvalidScalar(s.string) { return describe(bad, "the string at \(place(path))") }
            case .array(let elements), .set(let elements):
                for (k, e) in elements.enumerated().reversed() { work.append((e, path + [String(k)])) }
            case .dictionary(let d):
                for (k, e) in d.entries.reversed() {
                    guard case .string(let text) = k else { continue }
                    let key = text.string
                    if let bad = firstInvalidScalar(key) { return describe(bad, "the key \(place(path + [key]))") }
                    work.append((e, path + [key]))
                }
            default: break
            }
        }
        return error
    }

    static func place(_ path: [String]) -> String {
        path.isEmpty ? "the root" : path.map { $0.debugDescription }.joined(separator: " → ")
    }

    static func describe(_ bad: Unicode.Scalar, _ what: String) -> PlistError {
        PlistError(
            .unencodable,
            "\(what) holds U+\(hex(bad.value)), which XML 1.0 cannot hold (no escape exists for it; "
                + "write binary or OpenStep instead)")
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
