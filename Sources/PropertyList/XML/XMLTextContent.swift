// Sources/PropertyList/XML/XMLTextContent.swift - The text content of XML elements: character data,
// the five predefined entities, numeric character references, CDATA sections and comments.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension XMLPlistReader {
    // MARK: Text

    /// Reads the content of `element` up to and including its end tag. Entities, CDATA sections and
    /// comments are decoded; any other markup is an error.
    mutating func readText(_ tag: XMLStartTag, _ element: XMLPlistElement) throws(PlistError) -> XMLText {
        let start = i
        var buffer: [UInt8] = []
        var copied = false
        var mark = i
        while true {
            // Fast scan to the next markup byte.
            i = bytes.endOfText(from: i)
            guard i < n else {
                throw fail(i, "input ends inside <\(element.rawValue)> (opened at \(lineColumn(tag.offset)))")
            }
            if bytes[i] == UInt8(ascii: "&") {
                if !copied {
                    copied = true
                    buffer.reserveCapacity(i - start + 16)
                }
                bytes.append(mark..<i, to: &buffer)
                try readReference(into: &buffer)
                mark = i
            } else if byte(i + 1) == UInt8(ascii: "/") {
                let end = i
                try readCloseTag(element, openedAt: tag.offset)
                if !copied { return XMLText(input: start..<end) }
                bytes.append(mark..<end, to: &buffer)
                return XMLText(decoded: buffer, start: start)
            } else if byte(i + 1) == UInt8(ascii: "!") && has("<![CDATA[", at: i) {
                copied = true
                bytes.append(mark..<i, to: &buffer)
                let open = i
                i += 9
                let contentStart = i
                while i < n && !(bytes[i] == UInt8(ascii: "]") && has("]]>", at: i)) { i += 1 }
                guard i < n else { throw fail(i, "unterminated CDATA section (opened at \(lineColumn(open)))") }
                bytes.append(contentStart..<i, to: &buffer)
                i += 3
                mark = i
            } else if has("<!--", at: i) {
                copied = true
                bytes.append(mark..<i, to: &buffer)
                try skipComment()
                mark = i
            } else {
                throw fail(i, "markup \(describe(i)) inside <\(element.rawValue)>; only text is allowed")
            }
        }
    }

    /// Decodes `&…;` at `i`, appending its UTF-8.
    mutating func readReference(into buffer: inout [UInt8]) throws(PlistError) {
        let start = i
        i += 1
        if byte(i) == UInt8(ascii: "#") {
            i += 1
            let hex = byte(i) == UInt8(ascii: "x")
            if hex { i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < n && bytes[i] != UInt8(ascii: ";") {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: d = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw fail(i, "unexpected \(describe(i)) in a character reference")
                }
                value = value * (hex ? 16 : 10) + d
                digits += 1
                guard value <= 0x10FFFF else { throw fail(start, "character reference beyond U+10FFFF") }
                i += 1
            }
            guard i < n else { throw fail(start, "unterminated character reference") }
            guard digits > 0 else { throw fail(start, "character reference without digits") }
            guard let scalar = Unicode.Scalar(value) else {
                throw fail(start, "character reference to a surrogate code point")
            }
            i += 1
            UTF8.encode(scalar) { buffer.append($0) }
            return
        }
        let nameStart = i
        while i < n && i - nameStart < 8 && bytes[i] != UInt8(ascii: ";") && XMLScan.isNameByte(bytes[i]) { i += 1 }
        guard byte(i) == UInt8(ascii: ";") else { throw fail(start, "malformed entity reference") }
        let entity = name(nameStart..<i)
        i += 1
        switch entity {
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        case "apos": buffer.append(UInt8(ascii: "'"))
        default: throw fail(start, "unknown entity &\(entity);")
        }
    }

    /// Text as a string value of the sink; invalid UTF-8 is an error at the first bad byte.
    mutating func stringValue(_ text: XMLText) throws(PlistError) -> Sink.Value {
        guard let decoded = text.decoded else { return try stringValue(text.range, ascii: bytes.isASCII(text.range)) }
        return sink.string(try decodedString(decoded, at: text.start))
    }

    /// Text as the key of the innermost open dictionary; invalid UTF-8 is an error at the first bad byte.
    mutating func pushKey(_ text: XMLText) throws(PlistError) {
        guard let decoded = text.decoded else {
            guard sink.pushKey(text.range, ascii: bytes.isASCII(text.range), in: bytes) else {
                throw invalidUTF8(text.range)
            }
            return
        }
        sink.pushKey(try decodedString(decoded, at: text.start))
    }

    /// Decoded text (entities, CDATA sections) as a string; invalid UTF-8 is an error at `start`.
    func decodedString(_ decoded: [UInt8], at start: Int) throws(PlistError) -> PlistString {
        // ASCII (most keys and strings) needs no validation beyond this scan.
        if decoded.allSatisfy({ $0 < 0x80 }) { return PlistString(String(decoding: decoded, as: UTF8.self)) }
        if let s = String(validating: decoded, as: UTF8.self) { return PlistString(s) }
        throw fail(start, "invalid UTF-8")
    }
}
