// Sources/PropertyList/Format/PlistSniffer.swift - The one place that tells the forms of a property
// list apart by their first bytes, and turns UTF-16 and UTF-32 text into the UTF-8 the text readers read.
//
// Facts from CoreFoundation's CFPropertyList.c (`encodingForXMLData`, `parseXMLPropertyList`,
// `_CFPropertyListCreateWithData`): binary is tried first; then the text encoding is taken from a
// byte-order mark (UTF-32 BE/LE, UTF-8, UTF-16 LE/BE, in that order), or, without one, a zero in
// the first two bytes means UTF-16; the XML parser allows only space, tab, CR and LF before the
// first `<` (anything else is "Unexpected character"); when XML fails, the old-style (OpenStep)
// parser is tried on the same text.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The encodings of text property lists.
package enum PlistTextEncoding: String, Sendable, Hashable {
    case utf8 = "UTF-8"
    case utf16BE = "UTF-16BE"
    case utf16LE = "UTF-16LE"
    case utf32BE = "UTF-32BE"
    case utf32LE = "UTF-32LE"
}

/// Text in UTF-8 made from an input in any ``PlistTextEncoding``, with the byte-order mark dropped.
package struct PlistText: Sendable {
    /// The UTF-8 text: the input without its byte-order mark (one copy) when it was UTF-8, else
    /// its transcoding (made straight into this array).
    package var utf8: [UInt8]
    /// The encoding of the input.
    package var encoding: PlistTextEncoding
    /// Bytes of byte-order mark skipped at the start of the input.
    package var bomLength: Int

    /// Whether the bytes were transcoded (offsets in errors then count bytes of the UTF-8 text).
    package var isTranscoded: Bool { encoding != .utf8 }

    /// The encoding of `data` and the length of its byte-order mark, as CoreFoundation decides it
    /// (BOMs), extended to BOM-less UTF-16 and UTF-32 by the zero bytes of an ASCII first character.
    package static func detectEncoding(_ data: Data) -> (PlistTextEncoding, bomLength: Int) {
        let s = data.startIndex
        func b(_ k: Int) -> Int { k < data.count ? Int(data[s + k]) : -1 }
        if data.count >= 4 {
            if b(0) == 0 && b(1) == 0 && b(2) == 0xFE && b(3) == 0xFF { return (.utf32BE, 4) }
            if b(0) == 0xFF && b(1) == 0xFE && b(2) == 0 && b(3) == 0 { return (.utf32LE, 4) }
        }
        if b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF { return (.utf8, 3) }
        if b(0) == 0xFF && b(1) == 0xFE { return (.utf16LE, 2) }
        if b(0) == 0xFE && b(1) == 0xFF { return (.utf16BE, 2) }
        if data.count >= 4 {
            if b(0) == 0 && b(1) == 0 && b(2) == 0 && b(3) != 0 { return (.utf32BE, 0) }
            if b(0) != 0 && b(1) == 0 && b(2) == 0 && b(3) == 0 { return (.utf32LE, 0) }
        }
        if data.count >= 2 {
            if b(0) == 0 && b(1) != 0 { return (.utf16BE, 0) }
            if b(0) != 0 && b(1) == 0 { return (.utf16LE, 0) }
        }
        return (.utf8, 0)
    }

    /// The text of `data` as UTF-8, transcoded when it is UTF-16 or UTF-32.
    ///
    /// - Throws: `syntax` at the input offset of an unpaired surrogate, a value above U+10FFFF or
    ///   a last code unit cut short.
    package init(_ data: Data) throws(PlistError) {
        let (encoding, bom) = PlistText.detectEncoding(data)
        self.encoding = encoding
        self.bomLength = bom
        switch encoding {
        case .utf8:
            utf8 = [UInt8](data.dropFirst(bom))
        case .utf16BE, .utf16LE:
            utf8 = try PlistText.transcodeUTF16(data, from: bom, bigEndian: encoding == .utf16BE)
        case .utf32BE, .utf32LE:
            utf8 = try PlistText.transcodeUTF32(data, from: bom, bigEndian: encoding == .utf32BE)
        }
    }

    static func transcodeUTF16(_ data: Data, from start: Int, bigEndian: Bool) throws(PlistError) -> [UInt8] {
        let s = data.startIndex
        let count = data.count
        guard (count - start) % 2 == 0 else {
            throw PlistError(.syntax, offset: count - 1, "UTF-16 text ends in the middle of a code unit")
        }
        func unit(_ k: Int) -> UInt16 {
            let hi = UInt16(data[s + k + (bigEndian ? 0 : 1)])
            let lo = UInt16(data[s + k + (bigEndian ? 1 : 0)])
            return hi << 8 | lo
        }
        var out: [UInt8] = []
        out.reserveCapacity((count - start) / 2)
        var k = start
        while k < count {
            let u = unit(k)
            var scalarValue = UInt32(u)
            if u >= 0xD800 && u <= 0xDBFF {
                guard k + 4 <= count, case let low = unit(k + 2), low >= 0xDC00 && low <= 0xDFFF else {
                    throw PlistError(.syntax, offset: k, "UTF-16 text holds an unpaired high surrogate")
                }
                scalarValue = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                k += 4
            } else if u >= 0xDC00 && u <= 0xDFFF {
                throw PlistError(.syntax, offset: k, "UTF-16 text holds an unpaired low surrogate")
            } else {
                k += 2
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw PlistError(.syntax, offset: k, "UTF-16 text holds an invalid scalar")
            }
            out.append(contentsOf: UTF8.encode(scalar) ?? [])
        }
        return out
    }

    static func transcodeUTF32(_ data: Data, from start: Int, bigEndian: Bool) throws(PlistError) -> [UInt8] {
        let s = data.startIndex
        let count = data.count
        guard (count - start) % 4 == 0 else {
            throw PlistError(.syntax, offset: count - 1, "UTF-32 text ends in the middle of a code unit")
        }
        var out: [UInt8] = []
        out.reserveCapacity((count - start) / 4)
        var k = start
        while k < count {
            var v: UInt32 = 0
            for j in 0..<4 {
                let byte = UInt32(data[s + k + (bigEndian ? j : 3 - j)])
                v = v << 8 | byte
            }
            guard let scalar = Unicode.Scalar(v) else {
                throw PlistError(
                    .syntax, offset: k,
                    "UTF-32 text holds 0x\(String(v, radix: 16, uppercase: true)), not a Unicode scalar")
            }
            out.append(contentsOf: UTF8.encode(scalar) ?? [])
            k += 4
        }
        return out
    }
}

extension UTF8 {
    /// The UTF-8 bytes of one scalar.
    fileprivate static func encode(_ scalar: Unicode.Scalar) -> [UInt8]? {
        var bytes: [UInt8] = []
        UTF8.encode(scalar) { bytes.append($0) }
        return bytes
    }
}

/// The forms of a property list, told apart by their first bytes.
package enum PlistSniffer {
    /// What an input is.
    package enum Kind: Sendable, Hashable {
        /// `bplist0?`, or a zlib or gzip envelope (which is inflated and checked by the binary reader).
        case binary
        /// XML (`<?xml`, `<!DOCTYPE`, `<!--` or `<plist` after whitespace), in the given encoding.
        case xml(PlistTextEncoding)
        /// Old-style OpenStep text (`{`, `(`, `"`, `'`, `<` data, a comment, `key =` or `key;` of a `.strings` file,
        /// or a whole text that is one unquoted string).
        case openStep(PlistTextEncoding)
        /// JSON (UTF-8 text starting with `[`, or `{` followed by a `"key":`; `{}` alone is OpenStep,
        /// and the same empty dictionary).
        case json

        /// The form.
        package var format: PlistFormat {
            switch self {
            case .binary: .binary
            case .xml: .xml
            case .openStep: .openStep
            case .json: .json
            }
        }
    }

    /// Which form `data` is in.
    ///
    /// - Throws: `notAPropertyList` with a detail `not a property list: starts with 3C 21 41 … ("<!A")`
    ///   when it is none of them (an empty input says so).
    /// - Complexity: O(leading whitespace and comments); the rest of the input is not read.
    /// With `envelopes` false, a zlib or gzip header is not taken for binary input (the text forms'
    /// sniffing, when the bytes did not inflate).
    package static func sniff(_ data: Data, envelopes: Bool = true) throws(PlistError) -> Kind {
        guard !data.isEmpty else {
            throw PlistError(.notAPropertyList, offset: 0, "not a property list: the input is empty")
        }
        if data.starts(with: "bplist".utf8) || (envelopes && PlistCompression.envelope(of: data) != nil) {
            return .binary
        }
        let (encoding, bom) = PlistText.detectEncoding(data)
        let head = asciiHead(data, encoding: encoding, skipping: bom)
        var k = 0
        while k < head.count && isWhitespace(head[k]) { k += 1 }
        let rest = head[k...]
        if rest.starts(with: "<?xml".utf8) || rest.starts(with: "<!DOCTYPE".utf8) || rest.starts(with: "<!--".utf8)
            || rest.starts(with: "<plist".utf8)
        {
            return .xml(encoding)
        }
        // The old-style parser's whitespace is wider than XML's: vertical tab and form feed too, as
        // the OpenStep reader skips them (and CoreFoundation).
        var m = k
        while m < head.count && isOpenStepSpace(head[m]) { m += 1 }
        let text = head[m...]
        if let first = text.first {
            switch first {
            case UInt8(ascii: "["):
                if encoding == .utf8 { return .json }
            case UInt8(ascii: "{"):
                if encoding == .utf8 && looksLikeJSONObject(text) { return .json }
                return .openStep(encoding)
            case UInt8(ascii: "("), UInt8(ascii: "\""), UInt8(ascii: "'"):
                return .openStep(encoding)
            case UInt8(ascii: "<"):
                let next = text.dropFirst().first ?? 0
                if next == UInt8(ascii: ">") || isHexDigit(next) || isWhitespace(next) { return .openStep(encoding) }
            case UInt8(ascii: "/"):
                let next = text.dropFirst().first ?? 0
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") { return .openStep(encoding) }
            default:
                break
            }
            // `key = value;` or `key;` of a .strings file with an unquoted key, or a whole text that
            // is one unquoted string (`hello`, `/usr/bin`, `bplist00` after a byte-order mark):
            // CoreFoundation reads them with its old-style parser, after the binary and XML readers
            // refuse them.
            var j = text.startIndex
            while j < text.endIndex && isUnquotedStringByte(text[j]) { j += 1 }
            if j > text.startIndex {
                while j < text.endIndex && isOpenStepSpace(text[j]) { j += 1 }
                if j < text.endIndex && (text[j] == UInt8(ascii: "=") || text[j] == UInt8(ascii: ";")) {
                    return .openStep(encoding)
                }
                if j == text.endIndex && head.count < 256 { return .openStep(encoding) }
            }
        }
        throw PlistError(.notAPropertyList, offset: 0, "not a property list: " + describeStart(data))
    }

    /// `starts with 3C 21 41 42 … ("<!AB")`: the first eight bytes in hex and as ASCII.
    package static func describeStart(_ data: Data) -> String {
        let shown = data.prefix(8)
        let hex = shown.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        let text = String(
            shown.map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "." })
        return "starts with \(hex)\(data.count > 8 ? " …" : "") (\"\(text)\")"
    }

    /// The first characters of the text (up to 256 after any leading whitespace), as bytes when
    /// ASCII and 0xFF otherwise.
    static func asciiHead(_ data: Data, encoding: PlistTextEncoding, skipping bom: Int) -> [UInt8] {
        let width: Int
        switch encoding {
        case .utf8: width = 1
        case .utf16BE, .utf16LE: width = 2
        case .utf32BE, .utf32LE: width = 4
        }
        let s = data.startIndex
        var out: [UInt8] = []
        var k = bom
        var leading = 0  // whitespace before the first other character, which does not count
        while k + width <= data.count && out.count - leading < 256 {
            var v: UInt32 = 0
            for j in 0..<width {
                let index: Int
                switch encoding {
                case .utf8, .utf16BE, .utf32BE: index = j
                case .utf16LE, .utf32LE: index = width - 1 - j
                }
                v = v << 8 | UInt32(data[s + k + index])
            }
            if out.count == leading && v < 0x80 && isWhitespace(UInt8(v)) { leading += 1 }
            out.append(v < 0x80 ? UInt8(v) : 0xFF)
            k += width
        }
        return out
    }

    /// After `{`: a quoted key then `:`.
    static func looksLikeJSONObject(_ rest: ArraySlice<UInt8>) -> Bool {
        var j = rest.startIndex + 1
        while j < rest.endIndex && isWhitespace(rest[j]) { j += 1 }
        guard j < rest.endIndex else { return false }
        // `{}` is an empty dictionary in both forms: it is taken as OpenStep, which the library reads.
        if rest[j] == UInt8(ascii: "}") { return false }
        guard rest[j] == UInt8(ascii: "\"") else { return false }
        j += 1
        while j < rest.endIndex && rest[j] != UInt8(ascii: "\"") {
            if rest[j] == UInt8(ascii: "\\") { j += 1 }
            j += 1
        }
        j += 1
        while j < rest.endIndex && isWhitespace(rest[j]) { j += 1 }
        return j < rest.endIndex && rest[j] == UInt8(ascii: ":")
    }

    @inline(__always) static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// The OpenStep reader's whitespace: tab, line feed, vertical tab, form feed, carriage return, space.
    @inline(__always) static func isOpenStepSpace(_ b: UInt8) -> Bool {
        (b >= 0x09 && b <= 0x0D) || b == 0x20
    }

    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66)
    }

    /// The characters of an unquoted OpenStep string (CFOldStylePList.c's `isValidUnquotedStringCharacter`).
    @inline(__always) static func isUnquotedStringByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b == 0x24 || b == 0x2F
            || b == 0x3A || b == 0x2E || b == 0x2D
    }
}
