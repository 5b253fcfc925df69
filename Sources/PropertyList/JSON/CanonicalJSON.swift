// Sources/PropertyList/JSON/CanonicalJSON.swift - PlistValue <-> the corpus's canonical JSON.
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
// stack. This file holds the public API and the text of numbers and dates; the writer is in
// CanonicalJSONWriter.swift, the parser in CanonicalJSONParser.swift.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

extension PlistValue {
    /// The canonical JSON text of this value, ending with a newline.
    ///
    /// The text is exactly what the corpus oracles hold (Python's `json.dumps(indent=1,
    /// sort_keys=True, ensure_ascii=True)`), so it can be compared byte for byte with them. Shared
    /// sub-trees are written out once per reference; the output is pure ASCII.
    ///
    /// - Parameter budget: How much may be written; checked before anything is.
    /// - Throws: ``PlistError`` with code `limitExceeded` when the value written out in full
    ///   (shared sub-trees repeated) would pass `budget`.
    package func canonicalJSON(budget: OutputBudget = .default) throws(PlistError) -> String {
        var out = TextSink.collecting()
        try writeCanonicalJSON(into: &out, budget: budget)
        return String(decoding: out.takeBytes(), as: UTF8.self)
    }

    /// Writes the canonical JSON text of this value (the bytes of ``canonicalJSON(budget:)``) into
    /// `out` as it walks the value: the text is never held whole.
    ///
    /// - Throws: `limitExceeded` when the value written out in full would pass `budget`, before
    ///   anything is written. Nothing else: a failed delivery stops `out` (see ``TextSink``).
    package func writeCanonicalJSON(into out: inout TextSink, budget: OutputBudget = .default)
        throws(PlistError)
    {
        try writeJSON(into: &out, style: .canonical, sortsKeys: true, budget: budget)
    }

    /// Reads canonical JSON back into a value.
    ///
    /// Accepts any RFC 8259 JSON text and maps it as ``canonicalJSON(budget:)`` writes it: a JSON integer
    /// is an exact ``PlistValue/integer(_:)`` (128-bit range), a number with a fraction or exponent a
    /// ``PlistValue/real(_:)``, an
    /// object with exactly one of the keys `$real`, `$date`, `$data`, `$uid`, `$set`, `$dict` the
    /// tagged value (reals and dates as a number or a string; dates also as ISO-8601), any other
    /// object a dictionary with string keys (a repeated key keeps its last value).
    ///
    /// - Throws: ``PlistError`` with code `syntax`: `offset` is the byte offset (in the UTF-8
    ///   text) of the problem, and the detail gives its line and column.
    package init(canonicalJSON text: String) throws(PlistError) {
        var parser = CanonicalJSONParser(bytes: Array(text.utf8), maxDepth: PlistLimits.default.maxDepth)
        self = try parser.parseDocument()
    }

    /// Reads canonical JSON from UTF-8 bytes (invalid UTF-8 is a `syntax` error).
    package init(canonicalJSONBytes bytes: some Sequence<UInt8>) throws(PlistError) {
        var parser = CanonicalJSONParser(bytes: Array(bytes), maxDepth: PlistLimits.default.maxDepth)
        self = try parser.parseDocument()
    }

    /// Reads JSON text (UTF-8) as ``PlistValue/decode(from:as:limits:options:)`` reads the JSON form:
    /// typed JSON exactly, any other JSON as its natural values.
    ///
    /// - Throws: `syntax` (offset, line and column), `limitExceeded` past ``PlistLimits/maxDepth``.
    package init(json data: Data, limits: PlistLimits = .default) throws(PlistError) {
        var parser = CanonicalJSONParser(bytes: [UInt8](data), maxDepth: limits.maxDepth)
        self = try parser.parseDocument()
    }

    /// The tags of the canonical JSON form: an object with exactly one of these keys is a tagged value.
    package static let canonicalJSONTags: Set<String> = ["$real", "$date", "$data", "$uid", "$set", "$dict"]
}

// MARK: - Numbers and dates as text

extension PlistValue {
    /// Python's `repr(float)`: the shortest digits that round-trip, in Python's layout
    /// (`1e+16`, `1e-05`, `0.0001`, `1234567890123456.0`, `-0.0`, `nan`, `inf`, `-inf`).
    package static func pythonRepr(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        let sign = x.sign == .minus ? "-" : ""
        if x == 0 { return sign + "0.0" }
        // The digits Swift's description prints (the fewest that read back, the closest of them).
        let shortest = ShortestDigits(x)
        let d = String(shortest.significand)
        let n = d.utf8.count
        // value = 0.d1d2d3... × 10^decpt
        let decpt = shortest.exponent + n
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
    package static func iso8601(secondsSinceReferenceDate x: Double) -> String? {
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

    /// The text of a typed-JSON real: Python's `repr` (``pythonRepr(_:)``), except a NaN other than
    /// the default one (another sign or payload), written `nan:0x` and its 16 hex digits, so that
    /// every bit of the double survives.
    package static func typedRealText(_ x: Double) -> String {
        guard x.isNaN, x.bitPattern != Double.nan.bitPattern else { return pythonRepr(x) }
        let hex = String(x.bitPattern, radix: 16)
        return "nan:0x" + String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// The text of a tagged date: ISO-8601 when whole microseconds hold the date exactly (or, with
    /// `roundingToMicroseconds`, always within years 1…9999, as plistlib writes it); otherwise its
    /// seconds since 2001 in the shortest form that reads back to the same double (`"5e-07"`, `"nan"`).
    package static func taggedDateText(_ x: Double, roundingToMicroseconds: Bool) -> String {
        if let text = iso8601(secondsSinceReferenceDate: x),
            roundingToMicroseconds || secondsSinceReferenceDate(iso8601: text)?.bitPattern == x.bitPattern
        {
            return text
        }
        return roundingToMicroseconds ? pythonRepr(x) : typedRealText(x)
    }

    /// Seconds since 2001-01-01T00:00:00Z of `YYYY-MM-DDTHH:MM:SS[.f...][Z]`, or `nil` when malformed.
    package static func secondsSinceReferenceDate(iso8601 text: String) -> Double? {
        guard case .seconds(let x) = PlistISO8601.parse(Array(text.utf8), .json) else { return nil }
        return x
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
