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
        // The scalars are walked only when the bytes hold one.
        guard holdsInvalid(s.utf8.span) else { return nil }
        return s.unicodeScalars.first { !isXMLChar($0) }
    }

    /// Whether the valid UTF-8 `text` holds a scalar XML 1.0 cannot hold. In valid UTF-8 those are
    /// the C0 controls other than tab, LF and CR (one byte each) and U+FFFE and U+FFFF (`EF BF BE`,
    /// `EF BF BF`; `EF` only ever leads a scalar); surrogates cannot occur. Not inlined: the writers
    /// call it only for text their scan flagged, and inlined it grew their hot loops.
    @inline(never)
    static func holdsInvalid(_ text: Span<UInt8>) -> Bool {
        var i = 0
        while i < text.count {
            let b = text[i]
            if b < 0x20 {
                if b != 0x09 && b != 0x0A && b != 0x0D { return true }
            } else if b == 0xEF && i &+ 2 < text.count && text[i &+ 1] == 0xBF && text[i &+ 2] >= 0xBE {
                return true
            }
            i &+= 1
        }
        return false
    }

    static func isXMLChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    static func place(_ path: some Collection<String>) -> String {
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
