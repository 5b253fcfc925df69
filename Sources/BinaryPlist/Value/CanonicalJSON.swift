// Sources/BinaryPlist/Value/CanonicalJSON.swift - PlistValue <-> the corpus's canonical JSON.
//
// The rendering is the one of the corpus oracles (`corpus/CANONICAL-JSON.md`, the docstring of
// `corpus/make_oracle.py`): byte for byte what Python writes with
// `json.dumps(v, indent=1, sort_keys=True, ensure_ascii=True) + "\n"`.
//
//   plist value                  JSON
//   dictionary, string keys      object, keys sorted by Unicode scalar value
//   dictionary, any other key    {"$dict": [[key, value], ...]} in entry order
//   array / set                  array / {"$set": [...]}
//   string                       string (non-ASCII as \uXXXX, astral characters as surrogate pairs)
//   integer (up to 128-bit)      JSON integer, exact
//   real                         {"$real": "<Python repr>"}: "0.5", "1e+16", "-0.0", "nan", "inf", "-inf"
//   date                         {"$date": "YYYY-MM-DDTHH:MM:SS[.ffffff]Z"} (UTC, rounded to whole
//                                microseconds as plistlib does) when the year is 1...9999; otherwise
//                                {"$date": "<repr of the seconds since 2001>"}, e.g. "nan", "-63114076800.0"
//   data                         {"$data": "<base64 with padding>"}
//   UID                          {"$uid": n}
//   null                         null
//
// One case the corpus never meets: a string-keyed dictionary whose only key is one of the tags
// ("$real", "$date", "$data", "$uid", "$set", "$dict") is written in the `$dict` form, so that it
// cannot be read back as a tagged value.
//
// Both directions work without recursion (explicit stacks), so nesting depth never touches the call
// stack.

import FoundationEssentials

extension PlistValue {
    /// The canonical JSON text of this value, ending with a newline.
    ///
    /// The text is exactly what the corpus oracles hold (Python's `json.dumps(indent=1,
    /// sort_keys=True, ensure_ascii=True)`), so it can be compared byte for byte with them. Shared
    /// sub-trees are written out once per reference; the output is pure ASCII.
    public func canonicalJSON() -> String {
        var out = CanonicalJSONWriter()
        out.write(self)
        out.text.append("\n")
        return out.text
    }

    /// Reads canonical JSON back into a value.
    ///
    /// Accepts any RFC 8259 JSON text and maps it as ``canonicalJSON()`` writes it: a JSON integer
    /// is an exact ``PlistValue/integer(_:)`` (128-bit range), a number with a fraction or exponent a
    /// ``PlistValue/real(_:)``, an
    /// object with exactly one of the keys `$real`, `$date`, `$data`, `$uid`, `$set`, `$dict` the
    /// tagged value (reals and dates as a number or a string; dates also as ISO-8601), any other
    /// object a dictionary with string keys (a repeated key keeps its last value).
    ///
    /// - Throws: ``BinaryPlistError`` with code `syntax`: `offset` is the byte offset (in the UTF-8
    ///   text) of the problem, and the detail gives its line and column.
    public init(canonicalJSON text: String) throws(BinaryPlistError) {
        var parser = CanonicalJSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }

    /// Reads canonical JSON from UTF-8 bytes (invalid UTF-8 is a `syntax` error).
    public init(canonicalJSONBytes bytes: some Sequence<UInt8>) throws(BinaryPlistError) {
        var parser = CanonicalJSONParser(bytes: Array(bytes))
        self = try parser.parseDocument()
    }

    /// The tags of the canonical JSON form: an object with exactly one of these keys is a tagged value.
    public static let canonicalJSONTags: Set<String> = ["$real", "$date", "$data", "$uid", "$set", "$dict"]
}

// MARK: - Numbers and dates as text

extension PlistValue {
    /// Python's `repr(float)`: the shortest digits that round-trip, in Python's layout
    /// (`1e+16`, `1e-05`, `0.0001`, `1234567890123456.0`, `-0.0`, `nan`, `inf`, `-inf`).
    public static func pythonRepr(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        let sign = x.sign == .minus ? "-" : ""
        if x == 0 { return sign + "0.0" }
        // Swift's description is also shortest-round-trip; take its digits and decimal exponent.
        var digits: [UInt8] = []
        var pointPosition: Int? = nil
        var exponent = 0
        var sawExponent = false
        var exponentText: [UInt8] = []
        for c in x.magnitude.description.utf8 {
            if sawExponent {
                exponentText.append(c)
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                sawExponent = true
            } else if c == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(c)
            }
        }
        if sawExponent { exponent = Int(String(decoding: exponentText, as: UTF8.self)) ?? 0 }
        // value = 0.d1d2d3... × 10^decpt
        var decpt = (pointPosition ?? digits.count) + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            decpt -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        let d = String(decoding: digits, as: UTF8.self)
        let n = digits.count
        if decpt <= -4 || decpt > 16 {
            var s = sign + String(d.prefix(1))
            if n > 1 { s += "." + String(d.dropFirst()) }
            let e = decpt - 1
            let magnitude = String(e.magnitude)
            return s + (e < 0 ? "e-" : "e+") + (magnitude.count < 2 ? "0" : "") + magnitude
        }
        if decpt <= 0 { return sign + "0." + String(repeating: "0", count: -decpt) + d }
        if decpt >= n { return sign + d + String(repeating: "0", count: decpt - n) + ".0" }
        return sign + String(d.prefix(decpt)) + "." + String(d.dropFirst(decpt))
    }

    /// A date as the oracles write it: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (UTC), rounded to whole
    /// microseconds like plistlib; `nil` when the year is outside 1...9999 or the date is not finite.
    public static func iso8601(secondsSinceReferenceDate x: Double) -> String? {
        // Year 1 starts 63113904000 s before 2001; year 10000 starts 252423993600 s after it.
        guard x.isFinite, x > -63_113_904_001, x < 252_423_993_601 else { return nil }
        // timedelta(seconds=x): whole seconds, then the fraction rounded half-to-even to microseconds.
        let whole = x.rounded(.towardZero)
        let micros = ((x - whole) * 1_000_000).rounded(.toNearestOrEven)
        let total = Int64(whole) * 1_000_000 + Int64(micros)
        var seconds = total / 1_000_000
        var micro = total % 1_000_000
        if micro < 0 {
            micro += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = PlistCalendar.civil(daysSince2001: days)
        guard (1...9999).contains(year) else { return nil }
        var s = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        s += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micro != 0 { s += "." + pad(micro, 6) }
        return s + "Z"
    }

    /// Seconds since 2001-01-01T00:00:00Z of `YYYY-MM-DDTHH:MM:SS[.f...][Z]`, or `nil` when malformed.
    public static func secondsSinceReferenceDate(iso8601 text: String) -> Double? {
        guard case .seconds(let x) = PlistISO8601.parse(Array(text.utf8), .json) else { return nil }
        return x
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

// MARK: - Writer

/// Appends the canonical JSON of a value tree to `text`, with an explicit stack.
struct CanonicalJSONWriter {
    var text = ""

    private enum Work {
        case value(PlistValue, level: Int)
        case text(String)
    }

    mutating func write(_ root: PlistValue) {
        var work: [Work] = [.value(root, level: 0)]
        while let item = work.popLast() {
            switch item {
            case .text(let s):
                text += s
            case .value(let v, let level):
                switch v {
                case .null: text += "null"
                case .bool(let b): text += b ? "true" : "false"
                case .integer(let i): text += String(i)
                case .string(let s): appendString(s)
                case .real(let d):
                    tagged("$real", level)
                    appendString(PlistValue.pythonRepr(d))
                    work.append(.text(close(level, "}")))
                case .date(let date):
                    let x = date.timeIntervalSinceReferenceDate
                    tagged("$date", level)
                    appendString(PlistValue.iso8601(secondsSinceReferenceDate: x) ?? PlistValue.pythonRepr(x))
                    work.append(.text(close(level, "}")))
                case .data(let d):
                    tagged("$data", level)
                    appendString(d.base64EncodedString())
                    work.append(.text(close(level, "}")))
                case .uid(let u):
                    tagged("$uid", level)
                    text += String(u)
                    work.append(.text(close(level, "}")))
                case .array(let elements):
                    pushArray(elements, level, &work)
                case .set(let members):
                    tagged("$set", level)
                    work.append(.text(close(level, "}")))
                    pushArray(members, level + 1, &work)
                case .dictionary(let d):
                    pushDictionary(d, level, &work)
                }
            }
        }
    }

    private func indent(_ level: Int) -> String { "\n" + String(repeating: " ", count: level) }

    private func close(_ level: Int, _ bracket: String) -> String { indent(level) + bracket }

    /// Opens `{"tag": ` at `level`; the caller writes the value and pushes the closing brace.
    private mutating func tagged(_ tag: String, _ level: Int) {
        text += "{" + indent(level + 1) + "\"" + tag + "\": "
    }

    private func pushArray(_ elements: [PlistValue], _ level: Int, _ work: inout [Work]) {
        if elements.isEmpty {
            work.append(.text("[]"))
            return
        }
        work.append(.text(close(level, "]")))
        for (i, e) in elements.enumerated().reversed() {
            work.append(.value(e, level: level + 1))
            work.append(.text((i == 0 ? "[" : ",") + indent(level + 1)))
        }
    }

    private func pushDictionary(_ d: PlistDictionary, _ level: Int, _ work: inout [Work]) {
        if d.isEmpty {
            work.append(.text("{}"))
            return
        }
        var keyed: [(key: String, scalars: [UInt32], value: PlistValue)] = []
        keyed.reserveCapacity(d.count)
        for e in d.entries {
            guard case .string(let k) = e.key else {
                keyed = []
                break
            }
            keyed.append((k, k.unicodeScalars.map(\.value), e.value))
        }
        let isTagLike = keyed.count == 1 && PlistValue.canonicalJSONTags.contains(keyed[0].key)
        if keyed.count != d.count || isTagLike {
            // {"$dict": [[key, value], ...]} in entry order.
            let pairs = d.entries.map { PlistValue.array([$0.key, $0.value]) }
            work.append(.text(close(level, "}")))
            pushArray(pairs, level + 1, &work)
            work.append(.text("{" + indent(level + 1) + "\"$dict\": "))
            return
        }
        // Python sorts str keys by code point; Swift's String `<` does not, so compare scalars.
        keyed.sort { $0.scalars.lexicographicallyPrecedes($1.scalars) }
        work.append(.text(close(level, "}")))
        for (i, e) in keyed.enumerated().reversed() {
            work.append(.value(e.value, level: level + 1))
            var s = ""
            CanonicalJSONWriter.appendString(e.key, to: &s)
            work.append(.text((i == 0 ? "{" : ",") + indent(level + 1) + s + ": "))
        }
    }

    private mutating func appendString(_ s: String) { CanonicalJSONWriter.appendString(s, to: &text) }

    /// A JSON string with Python's `ensure_ascii` escapes (lowercase hex, DEL escaped too).
    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        var run = ""
        for unit in s.utf16 {
            switch unit {
            case 0x22: run += "\\\""
            case 0x5C: run += "\\\\"
            case 0x0A: run += "\\n"
            case 0x0D: run += "\\r"
            case 0x09: run += "\\t"
            case 0x08: run += "\\b"
            case 0x0C: run += "\\f"
            case 0x20..<0x7F: run.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let h = String(unit, radix: 16)
                run += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            }
        }
        out += run
        out += "\""
    }
}

// MARK: - Parser

/// A strict JSON parser producing `PlistValue`s, with an explicit stack.
struct CanonicalJSONParser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

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
        var error: BinaryPlistError?
    }

    private enum Scalar {
        case value(PlistValue)
        case number(text: String, value: PlistValue?, error: BinaryPlistError?)
    }

    mutating func parseDocument() throws(BinaryPlistError) -> PlistValue {
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
                    guard stack.count < 10_000 else { throw fail(start, "nesting deeper than 10000 levels") }
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
        throws(BinaryPlistError) -> PlistValue
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
            guard case .string(let s) = v, let d = PlistValue.parseReal(s) else {
                throw fail(valueStart, "$real needs a number or a string such as \"0.5\", \"nan\", \"-inf\"")
            }
            return .real(d)
        case "$date":
            if let deferred {
                guard let d = Double(deferred.text) else { throw fail(valueStart, "invalid $date number") }
                return .date(Date(timeIntervalSinceReferenceDate: d))
            }
            guard case .string(let s) = v,
                let d = PlistValue.secondsSinceReferenceDate(iso8601: s) ?? PlistValue.parseReal(s)
            else {
                throw fail(
                    valueStart, "$date needs seconds since 2001 or an ISO-8601 string \"YYYY-MM-DDTHH:MM:SS[.ffffff]Z\""
                )
            }
            return .date(Date(timeIntervalSinceReferenceDate: d))
        case "$data":
            guard case .string(let s) = v, let d = Data(base64Encoded: s) else {
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
    private mutating func parseKey() throws(BinaryPlistError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw fail(i, "expected a string key in an object") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw fail(i, "expected ':' after an object key") }
        i += 1
        skipWhitespace()
        return key
    }

    private mutating func parseScalar() throws(BinaryPlistError) -> Scalar {
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

    private mutating func literal(_ word: String) throws(BinaryPlistError) {
        let start = i
        for w in word.utf8 {
            guard i < bytes.count, bytes[i] == w else { throw fail(start, "invalid literal (expected \(word))") }
            i += 1
        }
    }

    private mutating func parseNumber() throws(BinaryPlistError) -> Scalar {
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

    private mutating func parseString() throws(BinaryPlistError) -> String {
        let open = i
        i += 1  // the opening quote
        var out = ""
        var runStart = i
        func flush(_ p: Int) throws(BinaryPlistError) {
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

    private mutating func hex4() throws(BinaryPlistError) -> UInt16 {
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
    func fail(_ offset: Int, _ detail: String) -> BinaryPlistError {
        var line = 1
        var lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return BinaryPlistError(.syntax, offset: offset, "line \(line), column \(offset - lineStart + 1): \(detail)")
    }
}

extension PlistValue {
    /// A real from a `$real` string: anything Python's `float()` accepts that Swift parses too
    /// (`"0.5"`, `"1e+16"`, `"-0.0"`, `"nan"`, `"inf"`, `"-inf"`, `"infinity"`).
    static func parseReal(_ s: String) -> Double? {
        let t = s.lowercased()
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
