// Sources/PropertyList/JSON/CanonicalJSONParser.swift - Reads canonical JSON (CanonicalJSON.swift
// describes the form) into a PlistValue, with an explicit stack; errors are `syntax` with the byte
// offset, line and column.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A strict JSON parser producing `PlistValue`s, with an explicit stack.
struct CanonicalJSONParser {
    let bytes: [UInt8]
    /// The deepest nesting of arrays and objects accepted (``PlistLimits/maxDepth``).
    let maxDepth: Int
    var i = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// A container being filled. Its elements (and, for an object, its keys) are the tail of the
    /// parser's shared `values`/`keys` stacks from `base`/`keyBase` on, so appending never copies.
    private struct Frame {
        var isObject: Bool
        var base: Int
        var keyBase: Int
        /// The key whose value is being parsed (objects only).
        var key = ""
        /// Where that value starts.
        var valueStart = 0
        /// The first value of an object, when it is a number and the key a `$real`/`$date` tag.
        var deferred: Deferred? = nil
    }

    /// A number that is only meaningful if the object turns out to be a `$real`/`$date` tag.
    private struct Deferred {
        var text: String
        var error: PlistError?
    }

    private enum Scalar {
        case value(PlistValue)
        case number(text: String, value: PlistValue?, error: PlistError?)
    }

    mutating func parseDocument() throws(PlistError) -> PlistValue {
        var stack: [Frame] = []
        var values: [PlistValue] = []
        var keys: [String] = []
        var produced: PlistValue
        parse: while true {
            // Parse one value: a scalar, or the opening of a container.
            skipWhitespace()
            let start = i
            guard let c = peek() else { throw fail(i, "expected a value, found the end of the input") }
            switch c {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isObject = c == UInt8(ascii: "{")
                i += 1
                skipWhitespace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    produced = isObject ? .dictionary(PlistDictionary()) : .array([])
                } else {
                    guard stack.count < maxDepth else {
                        throw PlistError(
                            .limitExceeded, offset: start, "JSON containers nested deeper than \(maxDepth) levels")
                    }
                    var frame = Frame(isObject: isObject, base: values.count, keyBase: keys.count)
                    if isObject {
                        frame.key = try parseKey()
                        frame.valueStart = i
                    }
                    stack.append(frame)
                    continue parse
                }
            default:
                switch try parseScalar() {
                case .value(let v):
                    produced = v
                case .number(let text, let value, let error):
                    // In the first entry of an object, a number may be the payload of a tag.
                    if let top = stack.last, top.isObject, values.count == top.base,
                        top.key == "$real" || top.key == "$date"
                    {
                        stack[stack.count - 1].deferred = Deferred(text: text, error: error)
                        produced = value ?? .null
                    } else if let value {
                        produced = value
                    } else {
                        throw error ?? fail(start, "invalid number")
                    }
                }
            }
            // Hand the value to the enclosing containers, closing those that end here.
            while let top = stack.last {
                values.append(produced)
                if top.isObject { keys.append(top.key) }
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    i += 1
                    if top.isObject {
                        if values.count == top.base + 1, let error = top.deferred?.error { throw error }
                        stack[stack.count - 1].key = try parseKey()
                        stack[stack.count - 1].valueStart = i
                    }
                    continue parse
                }
                let close = top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard peek() == close else {
                    throw fail(i, top.isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
                }
                i += 1
                stack.removeLast()
                let elements = Array(values[top.base...])
                values.removeSubrange(top.base...)
                if top.isObject {
                    let names = Array(keys[top.keyBase...])
                    keys.removeSubrange(top.keyBase...)
                    produced = try finishObject(names, elements, valueStart: top.valueStart, deferred: top.deferred)
                } else {
                    produced = .array(elements)
                }
            }
            skipWhitespace()
            guard i == bytes.count else { throw fail(i, "unexpected text after the JSON value") }
            return produced
        }
    }

    /// Builds a dictionary, or the tagged value a one-key object stands for.
    private func finishObject(_ names: [String], _ values: [PlistValue], valueStart: Int, deferred: Deferred?)
        throws(PlistError) -> PlistValue
    {
        guard names.count == 1, PlistValue.canonicalJSONTags.contains(names[0]) else {
            return .dictionary(PlistDictionary(zip(names, values).map { (PlistValue.string($0), $1) }))
        }
        let tag = names[0]
        let v = values[0]
        switch tag {
        case "$real":
            if let deferred {
                guard let d = Double(deferred.text) else { throw fail(valueStart, "invalid $real number") }
                return .real(d)
            }
            guard case .string(let s) = v, let d = PlistValue.parseReal(s.string) else {
                throw fail(valueStart, "$real needs a number or a string such as \"0.5\", \"nan\", \"-inf\"")
            }
            return .real(d)
        case "$date":
            if let deferred {
                guard let d = Double(deferred.text) else { throw fail(valueStart, "invalid $date number") }
                return .date(Date(timeIntervalSinceReferenceDate: d))
            }
            guard case .string(let s) = v,
                let d = PlistValue.secondsSinceReferenceDate(iso8601: s.string) ?? PlistValue.parseReal(s.string)
            else {
                throw fail(
                    valueStart, "$date needs seconds since 2001 or an ISO-8601 string \"YYYY-MM-DDTHH:MM:SS[.ffffff]Z\""
                )
            }
            return .date(Date(timeIntervalSinceReferenceDate: d))
        case "$data":
            guard case .string(let s) = v, let d = Data(base64Encoded: s.string) else {
                throw fail(valueStart, "$data needs a base64 string (standard alphabet, with padding)")
            }
            return .data(d)
        case "$uid":
            guard case .integer(let n) = v, let u = UInt64(exactly: n) else {
                throw fail(valueStart, "$uid needs an integer in 0...\(UInt64.max)")
            }
            return .uid(u)
        case "$set":
            guard case .array(let members) = v else { throw fail(valueStart, "$set needs an array") }
            return .set(members)
        default:  // "$dict"
            guard case .array(let pairs) = v else { throw fail(valueStart, "$dict needs an array of [key, value]") }
            var out: [(PlistValue, PlistValue)] = []
            out.reserveCapacity(pairs.count)
            for p in pairs {
                guard case .array(let kv) = p, kv.count == 2 else {
                    throw fail(valueStart, "$dict needs an array of two-element [key, value] arrays")
                }
                out.append((kv[0], kv[1]))
            }
            return .dictionary(PlistDictionary(out))
        }
    }

    // MARK: Tokens

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
            i += 1
        }
    }

    /// `"key"` followed by `:`.
    private mutating func parseKey() throws(PlistError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw fail(i, "expected a string key in an object") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw fail(i, "expected ':' after an object key") }
        i += 1
        skipWhitespace()
        return key
    }

    private mutating func parseScalar() throws(PlistError) -> Scalar {
        let start = i
        guard let c = peek() else { throw fail(i, "expected a value, found the end of the input") }
        switch c {
        case UInt8(ascii: "\""): return .value(.string(try parseString()))
        case UInt8(ascii: "t"):
            try literal("true")
            return .value(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return .value(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return .value(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw fail(start, "unexpected character \(describe(c))")
        }
    }

    private mutating func literal(_ word: String) throws(PlistError) {
        let start = i
        for w in word.utf8 {
            guard i < bytes.count, bytes[i] == w else { throw fail(start, "invalid literal (expected \(word))") }
            i += 1
        }
    }

    private mutating func parseNumber() throws(PlistError) -> Scalar {
        let start = i
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard isDigit(peek()) else { throw fail(i, "expected a digit in a number") }
        if peek() == UInt8(ascii: "0") {
            i += 1
            if isDigit(peek()) { throw fail(i, "a number must not have a leading zero") }
        } else {
            while isDigit(peek()) { i += 1 }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard isDigit(peek()) else { throw fail(i, "expected a digit after the decimal point") }
            while isDigit(peek()) { i += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek()) else { throw fail(i, "expected a digit in the exponent") }
            while isDigit(peek()) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if !isInteger {
            guard let d = Double(text) else { throw fail(start, "invalid number") }
            return .number(text: text, value: .real(d), error: nil)
        }
        // Exact integer, accumulated negatively so that Int128.min fits.
        var v: Int128 = 0
        let negative = bytes[start] == UInt8(ascii: "-")
        for b in bytes[(negative ? start + 1 : start)..<i] {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int128(b - 0x30))
            guard !o1, !o2 else {
                return .number(
                    text: text, value: nil, error: fail(start, "integer \(text) is outside the signed 128-bit range"))
            }
            v = s
        }
        if !negative {
            guard v != Int128.min else {
                return .number(
                    text: text, value: nil, error: fail(start, "integer \(text) is outside the signed 128-bit range"))
            }
            v = -v
        }
        return .number(text: text, value: .integer(PlistInteger(v)), error: nil)
    }

    private mutating func parseString() throws(PlistError) -> String {
        let open = i
        i += 1  // the opening quote
        var out = ""
        var runStart = i
        func flush(_ p: Int) throws(PlistError) {
            guard runStart < p else { return }
            guard let s = String(validating: bytes[runStart..<p], as: UTF8.self) else {
                throw fail(runStart, "invalid UTF-8 in a string")
            }
            out += s
        }
        while true {
            guard i < bytes.count else { throw fail(open, "unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                try flush(i)
                i += 1
                return out
            }
            if c < 0x20 { throw fail(i, "unescaped control character \(describe(c)) in a string") }
            if c != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            try flush(i)
            let escape = i
            i += 1
            guard i < bytes.count else { throw fail(open, "unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out += "\""
            case UInt8(ascii: "\\"): out += "\\"
            case UInt8(ascii: "/"): out += "/"
            case UInt8(ascii: "b"): out += "\u{08}"
            case UInt8(ascii: "f"): out += "\u{0C}"
            case UInt8(ascii: "n"): out += "\n"
            case UInt8(ascii: "r"): out += "\r"
            case UInt8(ascii: "t"): out += "\t"
            case UInt8(ascii: "u"):
                let unit = try hex4()
                var scalar: UInt32 = UInt32(unit)
                if (0xD800..<0xDC00).contains(unit) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail(escape, "unpaired high surrogate \\u\(String(unit, radix: 16))")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw fail(escape, "high surrogate \\u\(String(unit, radix: 16)) is not followed by a low one")
                    }
                    scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(unit) {
                    throw fail(escape, "unpaired low surrogate \\u\(String(unit, radix: 16))")
                }
                guard let s = Unicode.Scalar(scalar) else { throw fail(escape, "invalid \\u escape") }
                out.unicodeScalars.append(s)
            default:
                throw fail(escape, "invalid escape \\\(describe(e))")
            }
            runStart = i
        }
    }

    private mutating func hex4() throws(PlistError) -> UInt16 {
        var v: UInt16 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw fail(i, "\\u needs four hex digits") }
            let c = bytes[i]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: throw fail(i, "\\u needs four hex digits, found \(describe(c))")
            }
            v = v << 4 | UInt16(d)
            i += 1
        }
        return v
    }

    private func describe(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
    }

    /// A `syntax` error at byte `offset`, with its 1-based line and column (in bytes) in the detail.
    func fail(_ offset: Int, _ detail: String) -> PlistError {
        var line = 1
        var lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return PlistError(.syntax, offset: offset, "line \(line), column \(offset - lineStart + 1): \(detail)")
    }
}

extension PlistValue {
    /// A real from a `$real` string: anything Python's `float()` accepts that Swift parses too
    /// (`"0.5"`, `"1e+16"`, `"-0.0"`, `"nan"`, `"inf"`, `"-inf"`, `"infinity"`).
    static func parseReal(_ s: String) -> Double? {
        let t = s.lowercased()
        // Typed JSON's NaN with its bit pattern: `nan:0x7ff8000000000001`.
        if t.hasPrefix("nan:0x"), t.utf8.count == 22, let bits = UInt64(t.dropFirst(6), radix: 16) {
            let x = Double(bitPattern: bits)
            return x.isNaN ? x : nil
        }
        switch t {
        case "nan", "+nan": return .nan
        case "-nan": return -Double.nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            // Decimal text only (no hex floats, no whitespace).
            guard !t.isEmpty, t.utf8.allSatisfy({ "0123456789.e+-".utf8.contains($0) }) else { return nil }
            return Double(t)
        }
    }
}
