// Sources/PropertyList/OpenStep/OpenStepReader.swift - The OpenStep (old-style) text parser: a byte
// scanner over UTF-8 text.
//
// Using format information from CoreFoundation's CFOldStylePList.c (what it accepts). Recursion is
// bounded by `PlistLimits.maxDepth`.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

struct OpenStepReader {
    let bytes: [UInt8]
    let limits: PlistLimits
    var i = 0
    var nodes = 0

    init(bytes: [UInt8], limits: PlistLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    var n: Int { bytes.count }

    @inline(__always) func byte(_ k: Int) -> UInt8 { k >= 0 && k < bytes.count ? bytes[k] : 0 }

    // MARK: Document

    /// Whether the document read was a `.strings` file (entries without braces).
    var isStringsFile = false

    mutating func parseDocument() throws(PlistError) -> PlistValue {
        guard try skipSpace() else { return .dictionary(PlistDictionary()) }
        let root = try parseObject(depth: 0)
        guard try skipSpace() else { return root }
        guard case .string = root else { throw fail(i, "unexpected \(describe(i)) after the property list") }
        // A .strings file: dictionary entries without braces.
        isStringsFile = true
        i = 0
        nodes = 0
        let dictionary = try parseDictionaryContent(depth: 0, opened: nil)
        if try skipSpace() { throw fail(i, "unexpected \(describe(i)) after the last entry") }
        return dictionary
    }

    // MARK: Values

    mutating func parseObject(depth: Int) throws(PlistError) -> PlistValue {
        guard depth <= limits.maxDepth else {
            throw PlistError(
                .limitExceeded, offset: i, "\(lineColumn(i)): nesting deeper than \(limits.maxDepth) containers")
        }
        nodes += 1
        guard nodes <= limits.maxValues else {
            throw PlistError(.limitExceeded, offset: i, "\(lineColumn(i)): more than \(limits.maxValues) values")
        }
        guard try skipSpace() else { throw fail(i, "input ends where a value was expected") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            let dictionary = try parseDictionaryContent(depth: depth, opened: start)
            guard try skipSpace(), bytes[i] == UInt8(ascii: "}") else {
                throw fail(
                    i, "expected '}' closing the dictionary opened at \(lineColumn(start)), found \(describe(i))")
            }
            i += 1
            return dictionary
        case UInt8(ascii: "("):
            i += 1
            return try parseArray(depth: depth, opened: start)
        case UInt8(ascii: "<"):
            i += 1
            return try parseData(opened: start)
        default:
            guard let string = try parseString() else {
                throw fail(i, "unexpected \(describe(i)) where a value was expected")
            }
            return .string(string)
        }
    }

    /// Entries `key = value;` until something that is not a string; the caller checks what follows.
    mutating func parseDictionaryContent(depth: Int, opened: Int?) throws(PlistError) -> PlistValue {
        var pairs: [(PlistValue, PlistValue)] = []
        while try skipSpace() {
            let keyOffset = i
            guard let key = try parseString() else { break }
            guard try skipSpace() else { throw fail(i, "input ends after the key at \(lineColumn(keyOffset))") }
            let value: PlistValue
            if bytes[i] == UInt8(ascii: ";") {
                value = .string(key)  // `key;` is `key = key;` (the .strings shortcut)
            } else if bytes[i] == UInt8(ascii: "=") {
                i += 1
                value = try parseObject(depth: depth + 1)
            } else {
                throw fail(i, "expected '=' or ';' after the key at \(lineColumn(keyOffset)), found \(describe(i))")
            }
            guard try skipSpace(), bytes[i] == UInt8(ascii: ";") else {
                throw fail(i, "expected ';' after the entry for key at \(lineColumn(keyOffset)), found \(describe(i))")
            }
            i += 1
            pairs.append((.string(key), value))
        }
        return .dictionary(PlistDictionary(pairs))
    }

    mutating func parseArray(depth: Int, opened: Int) throws(PlistError) -> PlistValue {
        var elements: [PlistValue] = []
        while true {
            guard try skipSpace() else { throw fail(i, "input ends inside the array opened at \(lineColumn(opened))") }
            if bytes[i] == UInt8(ascii: ")") {
                i += 1
                return .array(elements)
            }
            elements.append(try parseObject(depth: depth + 1))
            guard try skipSpace() else { throw fail(i, "input ends inside the array opened at \(lineColumn(opened))") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else if bytes[i] != UInt8(ascii: ")") {
                throw fail(i, "expected ',' or ')' in the array opened at \(lineColumn(opened)), found \(describe(i))")
            }
        }
    }

    mutating func parseData(opened: Int) throws(PlistError) -> PlistValue {
        var out: [UInt8] = []
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: ">") {
                i += 1
                return .data(Data(out))
            }
            if let high = OpenStepReader.hexValue(b) {
                guard let low = OpenStepReader.hexValue(byte(i + 1)) else {
                    throw fail(i + 1, "data holds an odd number of hex digits (a pair is cut at \(describe(i + 1)))")
                }
                out.append(high << 4 | low)
                i += 2
            } else if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || isLineOrParagraphSeparator(i) {
                i += b < 0x80 ? 1 : 3
            } else {
                throw fail(i, "unexpected \(describe(i)) in data (hex digits and whitespace only)")
            }
        }
        throw fail(i, "input ends inside the data opened at \(lineColumn(opened))")
    }

    /// A quoted or unquoted string at `i`, or nil (nothing consumed) when there is none.
    mutating func parseString() throws(PlistError) -> String? {
        let b = byte(i)
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { return try parseQuoted(b) }
        let start = i
        while i < n && PlistSniffer.isUnquotedStringByte(bytes[i]) { i += 1 }
        guard i > start else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    mutating func parseQuoted(_ quote: UInt8) throws(PlistError) -> String {
        let open = i
        i += 1
        var mark = i
        var buffer: [UInt8] = []
        var escaped = false
        while i < n && bytes[i] != quote {
            guard bytes[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            escaped = true
            buffer.append(contentsOf: bytes[mark..<i])
            let escapeStart = i
            i += 1
            guard i < n else { break }
            try readEscape(into: &buffer, at: escapeStart)
            mark = i
        }
        guard i < n else { throw fail(open, "unterminated string (opened at \(lineColumn(open)))") }
        let text: ArraySlice<UInt8>
        if escaped {
            buffer.append(contentsOf: bytes[mark..<i])
            text = buffer[...]
        } else {
            text = bytes[mark..<i]
        }
        i += 1
        if let bad = XMLScan.firstInvalidUTF8(text) {
            throw fail(escaped ? open : bad, "invalid UTF-8 in a string")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The escape after a backslash (`i` is past it), appended to `buffer` as UTF-8.
    mutating func readEscape(into buffer: inout [UInt8], at start: Int) throws(PlistError) {
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = Int(c - UInt8(ascii: "0"))
            var digits = 1
            while digits < 3, i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "7") {
                value = value * 8 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
                digits += 1
            }
            guard value < 0x80 else {
                throw fail(start, "octal escape \\\(String(value, radix: 8)) is a NeXTSTEP Latin character, not read")
            }
            buffer.append(UInt8(value))
        case UInt8(ascii: "U"):
            let unit = readHexUnit()
            if unit >= 0xD800 && unit <= 0xDBFF {
                // A high surrogate must be followed by `\U` and a low one.
                let save = i
                if byte(i) == UInt8(ascii: "\\") && byte(i + 1) == UInt8(ascii: "U") {
                    i += 2
                    let low = readHexUnit()
                    if low >= 0xDC00 && low <= 0xDFFF {
                        let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        appendScalar(scalar, to: &buffer)
                        return
                    }
                }
                i = save
                throw fail(start, "\\U\(hex(unit)) is an unpaired high surrogate")
            }
            guard !(unit >= 0xDC00 && unit <= 0xDFFF) else {
                throw fail(start, "\\U\(hex(unit)) is an unpaired low surrogate")
            }
            appendScalar(UInt32(unit), to: &buffer)
        case UInt8(ascii: "a"): buffer.append(0x07)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "v"): buffer.append(0x0B)
        default:
            // Any other character stands for itself (a whole UTF-8 sequence when not ASCII).
            buffer.append(c)
            while i < n && bytes[i] & 0xC0 == 0x80 && c >= 0xC0 {
                buffer.append(bytes[i])
                i += 1
            }
        }
    }

    /// Up to four hex digits (stopping at the first other character), as CoreFoundation reads `\U`.
    mutating func readHexUnit() -> UInt16 {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, let d = OpenStepReader.hexValue(byte(i)) {
            value = value << 4 | UInt16(d)
            i += 1
            digits += 1
        }
        return value
    }

    func appendScalar(_ value: UInt32, to buffer: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return }
        UTF8.encode(scalar) { buffer.append($0) }
    }

    func hex(_ unit: UInt16) -> String {
        let s = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Skipping

    /// U+2028 or U+2029 at `k` (E2 80 A8 / E2 80 A9).
    func isLineOrParagraphSeparator(_ k: Int) -> Bool {
        byte(k) == 0xE2 && byte(k + 1) == 0x80 && (byte(k + 2) == 0xA8 || byte(k + 2) == 0xA9)
    }

    /// Skips whitespace and comments; true when something else follows.
    mutating func skipSpace() throws(PlistError) -> Bool {
        while i < n {
            let b = bytes[i]
            if (b >= 0x09 && b <= 0x0D) || b == 0x20 {
                i += 1
            } else if isLineOrParagraphSeparator(i) {
                i += 3
            } else if b == UInt8(ascii: "/") && byte(i + 1) == UInt8(ascii: "/") {
                i += 2
                while i < n && bytes[i] != 0x0A && bytes[i] != 0x0D && !isLineOrParagraphSeparator(i) { i += 1 }
            } else if b == UInt8(ascii: "/") && byte(i + 1) == UInt8(ascii: "*") {
                let start = i
                i += 2
                while i < n && !(bytes[i] == UInt8(ascii: "*") && byte(i + 1) == UInt8(ascii: "/")) { i += 1 }
                guard i < n else { throw fail(start, "unterminated comment (opened at \(lineColumn(start)))") }
                i += 2
            } else {
                return true
            }
        }
        return false
    }

    // MARK: Errors

    func describe(_ k: Int) -> String { TextPosition.describe(bytes, k) }

    func lineColumn(_ offset: Int) -> String { TextPosition.lineColumn(bytes, offset) }

    func fail(_ offset: Int, _ detail: String) -> PlistError {
        PlistError(.syntax, offset: offset, "\(lineColumn(offset)): \(detail)")
    }
}
