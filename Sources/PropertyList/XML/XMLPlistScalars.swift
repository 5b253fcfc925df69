// Sources/PropertyList/XML/XMLPlistScalars.swift - The XML property-list parser's scalar values
// (strings, integers, reals, dates, base64 data), skipping of markup, and error positions.
//
// Part of `XMLPlistReader` (XMLPlistReader.swift has the document, containers and tags).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension XMLPlistReader {
    // MARK: Scalars

    /// The offset to report for position `k` of `text`.
    func offset(_ k: Int, in text: XMLText) -> Int { text.isInput ? k : text.start }

    /// The bytes of `t` without leading and trailing XML whitespace.
    func trimmed<C: RandomAccessCollection<UInt8>>(_ t: C) -> Range<Int> where C.Index == Int {
        var lo = t.startIndex
        var hi = t.endIndex
        while lo < hi && XMLScan.isWhitespace(t[lo]) { lo += 1 }
        while hi > lo && XMLScan.isWhitespace(t[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// `[+-]` then decimal digits or `0x` and hex digits, exact in `Int128`.
    func integer(_ text: XMLText) throws(PlistError) -> Int128 {
        if let decoded = text.decoded { return try integer(decoded[...], text) }
        return try integer(bytes[text.range], text)
    }

    func integer<C: RandomAccessCollection<UInt8>>(_ t: C, _ text: XMLText) throws(PlistError) -> Int128
    where C.Index == Int {
        let r = trimmed(t)
        var k = r.lowerBound
        guard k < r.upperBound else { throw fail(offset(k, in: text), "<integer> holds no number") }
        var negative = false
        if t[k] == UInt8(ascii: "-") || t[k] == UInt8(ascii: "+") {
            negative = t[k] == UInt8(ascii: "-")
            k += 1
        }
        var radix: UInt128 = 10
        if k + 1 < r.upperBound, t[k] == UInt8(ascii: "0"),
            t[k + 1] == UInt8(ascii: "x") || t[k + 1] == UInt8(ascii: "X")
        {
            radix = 16
            k += 2
        }
        guard k < r.upperBound else { throw fail(offset(k, in: text), "<integer> has no digits") }
        var magnitude: UInt128 = 0
        while k < r.upperBound {
            let b = t[k]
            let d: UInt128
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt128(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: d = UInt128(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: d = UInt128(b - UInt8(ascii: "A") + 10)
            default: throw fail(offset(k, in: text), "unexpected \(describeByte(b)) in <integer>")
            }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(d)
            guard !o1, !o2 else { throw fail(offset(r.lowerBound, in: text), "<integer> does not fit in 128 bits") }
            magnitude = s
            k += 1
        }
        let limit = UInt128(Int128.max)
        if negative {
            guard magnitude <= limit + 1 else {
                throw fail(offset(r.lowerBound, in: text), "<integer> is below the signed 128-bit range")
            }
            return magnitude == limit + 1 ? Int128.min : -Int128(magnitude)
        }
        guard magnitude <= limit else {
            throw fail(offset(r.lowerBound, in: text), "<integer> is above the signed 128-bit range")
        }
        return Int128(magnitude)
    }

    /// Decimal text, or `nan`, `inf`, `infinity` (signed, any case).
    func real(_ text: XMLText) throws(PlistError) -> Double {
        if let decoded = text.decoded { return try real(decoded[...], text) }
        return try real(bytes[text.range], text)
    }

    func real<C: RandomAccessCollection<UInt8>>(_ all: C, _ text: XMLText) throws(PlistError) -> Double
    where C.Index == Int {
        let r = trimmed(all)
        let t = all[r]
        let at = offset(r.lowerBound, in: text)
        guard !t.isEmpty, t.count <= 64 else {
            throw fail(at, t.isEmpty ? "<real> holds no number" : "<real> text too long")
        }
        var body = t[...]
        var negative = false
        if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        let notANumber = { () -> PlistError in
            self.fail(at, "<real> is not a number: \"\(String(decoding: t, as: UTF8.self))\"")
        }
        if let first = body.first, first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "i") {
            // ASCII lower case by setting bit 5 (letters only are compared).
            let word = String(decoding: body.map { $0 | 0x20 }, as: UTF8.self)
            switch word {
            case "nan": return negative ? -Double.nan : .nan
            case "inf", "infinity": return negative ? -.infinity : .infinity
            default: throw notANumber()
            }
        }
        // Decimal only: digits, one optional point, an optional exponent; no hex floats.
        var sawDigit = false
        var sawPoint = false
        var sawExponent = false
        var previous: UInt8 = 0
        for b in body {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: ".") where !sawPoint && !sawExponent: sawPoint = true
            case UInt8(ascii: "e") where sawDigit && !sawExponent, UInt8(ascii: "E") where sawDigit && !sawExponent:
                sawExponent = true
            case UInt8(ascii: "+") where previous | 0x20 == UInt8(ascii: "e"),
                UInt8(ascii: "-") where previous | 0x20 == UInt8(ascii: "e"):
                break
            default: throw notANumber()
            }
            previous = b
        }
        guard let d = Double(String(decoding: body, as: UTF8.self)) else { throw notANumber() }
        return negative ? -d : d
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (UTC), the year optionally negative and of 1 to 9 digits
    /// (`PlistISO8601`, shared with canonical JSON).
    func date(_ text: XMLText) throws(PlistError) -> Date {
        if let decoded = text.decoded { return try date(decoded[...], text) }
        return try date(bytes[text.range], text)
    }

    func date<C: RandomAccessCollection<UInt8>>(_ t: C, _ text: XMLText) throws(PlistError) -> Date
    where C.Index == Int {
        let r = trimmed(t)
        switch PlistISO8601.parse(t[r], normalizesDates ? .coreFoundationXML : .xml) {
        case .seconds(let x):
            return Date(timeIntervalSinceReferenceDate: x)
        case .outOfRange:
            throw fail(offset(r.lowerBound, in: text), "<date> has a field out of range")
        case .malformed:
            throw fail(
                offset(r.lowerBound, in: text),
                "<date> is not YYYY-MM-DDTHH:MM:SSZ: \"\(String(decoding: t[r], as: UTF8.self))\"")
        }
    }

    /// Base64 with whitespace anywhere; padding optional but, when present, correct.
    func base64(_ text: XMLText) throws(PlistError) -> Data {
        if let decoded = text.decoded { return try base64(decoded[...], text) }
        return try base64(bytes[text.range], text)
    }

    func base64<C: RandomAccessCollection<UInt8>>(_ t: C, _ text: XMLText) throws(PlistError) -> Data
    where C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(t.count / 4 * 3 + 3)
        var quantum: UInt32 = 0
        var sextets = 0
        var total = 0
        var padding = 0
        var k = t.startIndex
        while k < t.endIndex {
            let b = t[k]
            if XMLScan.isWhitespace(b) {
                k += 1
                continue
            }
            if b == UInt8(ascii: "=") {
                padding += 1
                guard padding <= 2, sextets >= 2 else { throw fail(offset(k, in: text), "misplaced '=' in <data>") }
                k += 1
                continue
            }
            let v = XMLScan.base64Value(b)
            guard v >= 0 else { throw fail(offset(k, in: text), "\(describeByte(b)) is not base64 in <data>") }
            guard padding == 0 else { throw fail(offset(k, in: text), "base64 continues after '=' padding in <data>") }
            quantum = quantum << 6 | UInt32(v)
            sextets += 1
            total += 1
            if sextets == 4 {
                out.append(UInt8(truncatingIfNeeded: quantum >> 16))
                out.append(UInt8(truncatingIfNeeded: quantum >> 8))
                out.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
                sextets = 0
            }
            k += 1
        }
        switch sextets {
        case 0:
            guard padding == 0 else { throw fail(offset(t.endIndex, in: text), "misplaced '=' in <data>") }
        case 2:
            guard padding == 0 || padding == 2 else {
                throw fail(offset(t.endIndex, in: text), "wrong '=' padding in <data>")
            }
            out.append(UInt8(truncatingIfNeeded: quantum >> 4))
        case 3:
            guard padding <= 1 else { throw fail(offset(t.endIndex, in: text), "wrong '=' padding in <data>") }
            out.append(UInt8(truncatingIfNeeded: quantum >> 10))
            out.append(UInt8(truncatingIfNeeded: quantum >> 2))
        default:
            throw fail(offset(t.endIndex, in: text), "base64 in <data> ends with a lone character (\(total) in all)")
        }
        return Data(out)
    }

    // MARK: Skipping

    mutating func skipWhitespace() {
        while i < n && XMLScan.isWhitespace(bytes[i]) { i += 1 }
    }

    /// Whitespace, comments and processing instructions between elements.
    mutating func skipMisc() throws(PlistError) {
        while true {
            skipWhitespace()
            guard byte(i) == UInt8(ascii: "<") else { return }
            let next = byte(i + 1)
            if next == UInt8(ascii: "!") && has("<!--", at: i) {
                try skipComment()
            } else if next == UInt8(ascii: "?") {
                try skipProcessingInstruction()
            } else {
                return
            }
        }
    }

    /// `<!-- … -->` at `i`.
    mutating func skipComment() throws(PlistError) {
        let start = i
        i += 4
        while i < n && !(bytes[i] == UInt8(ascii: "-") && has("-->", at: i)) { i += 1 }
        guard i < n else { throw fail(i, "unterminated comment (opened at \(lineColumn(start)))") }
        i += 3
    }

    /// `<? … ?>` at `i`; an XML declaration must name UTF-8 (or ASCII) if it names an encoding.
    mutating func skipProcessingInstruction() throws(PlistError) {
        let start = i
        i += 2
        while i < n && !(bytes[i] == UInt8(ascii: "?") && byte(i + 1) == UInt8(ascii: ">")) { i += 1 }
        guard i < n else { throw fail(i, "unterminated processing instruction (opened at \(lineColumn(start)))") }
        let bodyEnd = i
        i += 2
        // Only the XML declaration matters: `<?xml` then whitespace.
        guard !ignoresDeclaredEncoding, has("<?xml", at: start), XMLScan.isWhitespace(byte(start + 5)) else { return }
        var k = start + 5
        while k + 8 <= bodyEnd && !has("encoding", at: k) { k += 1 }
        guard k + 8 <= bodyEnd else { return }
        k += 8
        while k < bodyEnd && (XMLScan.isWhitespace(bytes[k]) || bytes[k] == UInt8(ascii: "=")) { k += 1 }
        let quote = byte(k)
        guard k < bodyEnd, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return }
        k += 1
        let valueStart = k
        while k < bodyEnd && bytes[k] != quote { k += 1 }
        let encoding = String(decoding: bytes[valueStart..<k], as: UTF8.self).lowercased()
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
            throw fail(start, "unsupported encoding \"\(encoding)\"; XML property lists are read as UTF-8")
        }
    }

    /// `<!DOCTYPE …>` at `i`. An internal subset (`[` … `]`) is an error, as in CoreFoundation
    /// (whose `skipDTD` stops at `[` and then requires `>`): its declarations could define entities
    /// that neither reader expands, so a file that needs them reads nowhere.
    mutating func skipDoctype() throws(PlistError) {
        let start = i
        i += 9
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                i += 1
                while i < n && bytes[i] != b { i += 1 }
            } else if b == UInt8(ascii: "[") {
                throw fail(i, "a <!DOCTYPE> with an internal subset ([…]) is not read (nor by CoreFoundation)")
            } else if b == UInt8(ascii: ">") {
                i += 1
                return
            }
            i += 1
        }
        throw fail(n, "unterminated <!DOCTYPE> (opened at \(lineColumn(start)))")
    }

    // MARK: Errors

    func name(_ range: Range<Int>) -> String {
        let r = max(0, min(range.lowerBound, n))..<max(0, min(range.upperBound, n, range.lowerBound + 64))
        return String(decoding: bytes[r], as: UTF8.self)
    }

    func describe(_ k: Int) -> String { TextPosition.describe(bytes, k) }

    func describeByte(_ b: UInt8) -> String { TextPosition.describe(b) }

    /// `line L, column C` of a byte offset (lines end at LF, CR or CRLF; columns count scalars).
    func lineColumn(_ offset: Int) -> String { TextPosition.lineColumn(bytes, offset) }

    func fail(_ offset: Int, _ detail: String) -> PlistError {
        PlistError(.syntax, offset: offset, "\(lineColumn(offset)): \(detail)")
    }
}
