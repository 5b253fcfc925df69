// Sources/PropertyList/XML/XMLPlistWriterScalars.swift - The XML writer's scalars, written straight into
// its output buffer: tags as words, integers and dates as digits, reals in Swift's shortest form
// without a `String`, data as base64 lines; and what the writer refuses (null, dates out of range,
// non-string keys, characters XML 1.0 cannot hold).
//
// Part of `XMLPlistWriter` (XMLPlistWriter.swift has the walk and the containers).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension XMLPlistWriter {
    /// Writes a scalar after its indentation; `path` names it in an error.
    @inline(__always)
    func scalar(
        _ v: PlistValue, indent: Int, into out: inout XMLOutput, path: () throws(PlistError) -> [String]
    ) throws(PlistError) {
        switch v {
        case .string(let text):
            out.append(word: 0x3e67_6e69_7274_733c, 8)  // "<string>"
            guard self.text(text, into: &out) else {
                throw XMLPlistWriter.invalidText(text, "the string at \(XMLCharacters.place(try path()))")
            }
            out.append(words: 0x676e_6972_7473_2f3c, 0x0a3e, 10)  // "</string>\n"
        case .integer(let i): XMLPlistWriter.appendInteger(i, into: &out)
        case .real(let d): XMLPlistWriter.appendReal(d, into: &out)
        case .bool(let b): XMLPlistWriter.appendBool(b, into: &out)
        case .date(let d): try XMLPlistWriter.appendDateElement(d, into: &out)
        case .data(let d): XMLPlistWriter.appendDataElement(d, indent: indent, into: &out)
        case .uid(let u): XMLPlistWriter.appendUID(u, indent: indent, into: &out)
        case .null:
            throw PlistError(.unencodable, "XML property lists have no null (at nesting level \(indent))")
        case .array, .set, .dictionary:
            // Containers come as frames (PlistTree never gives one as a scalar).
            break
        }
    }

    // The elements of the scalars, each ending in a newline (shared with the Codable XML encoder).

    /// `<integer>…</integer>`: exact over the whole `Int128` range.
    @inline(__always)
    static func appendInteger(_ i: PlistInteger, into out: inout XMLOutput) {
        if let v = i.int64 {
            out.appendIntegerElement(v)
            return
        }
        out.append(words: 0x7265_6765_746e_693c, 0x3e, 9)  // "<integer>"
        if let v = i.uint64 {
            out.appendDecimal(v)
        } else {
            out.append(contentsOf: String(i).utf8)
        }
        out.append(words: 0x6567_6574_6e69_2f3c, 0x0a_3e72, 11)  // "</integer>\n"
    }

    /// `<integer>…</integer>` of a 64-bit integer.
    @inline(__always)
    static func appendInteger(_ v: Int64, into out: inout XMLOutput) { out.appendIntegerElement(v) }

    /// `<real>…</real>`: the fewest digits that read back to `d` (`%g`'s `1` for `1.0`), `0.0`/`-0.0`
    /// for zeros, `nan`, `inf`, `-inf`.
    @inline(__always)
    static func appendReal(_ d: Double, into out: inout XMLOutput) {
        if d.isFinite && d != 0 {
            out.appendRealElement(d, dropsPointZero: true)
            return
        }
        out.append(word: 0x3e_6c61_6572_3c, 6)  // "<real>"
        if d.isNaN {
            out.append(word: 0x6e_616e, 3)  // "nan"
        } else if d.isInfinite {
            // "-inf", "inf"
            if d < 0 { out.append(word: 0x66_6e69_2d, 4) } else { out.append(word: 0x66_6e69, 3) }
        } else if d == 0 {
            // "-0.0", "0.0"
            if d.sign == .minus { out.append(word: 0x30_2e30_2d, 4) } else { out.append(word: 0x30_2e30, 3) }
        }
        out.append(word: 0x0a3e_6c61_6572_2f3c, 8)  // "</real>\n"
    }

    /// `<true/>` or `<false/>`.
    @inline(__always)
    static func appendBool(_ b: Bool, into out: inout XMLOutput) {
        if b {
            out.append(word: 0x0a3e_2f65_7572_743c, 8)  // "<true/>\n"
        } else {
            out.append(words: 0x3e2f_6573_6c61_663c, 0x0a, 9)  // "<false/>\n"
        }
    }

    /// `<date>…</date>`; throws for a date XML cannot hold (see ``appendDate(_:into:)``).
    @inline(__always)
    static func appendDateElement(_ d: Date, into out: inout XMLOutput) throws(PlistError) {
        out.append(word: 0x3e_6574_6164_3c, 6)  // "<date>"
        try XMLPlistWriter.appendDate(d, into: &out)
        out.append(word: 0x0a3e_6574_6164_2f3c, 8)  // "</date>\n"
    }

    /// `<data>`, base64 lines indented for `indent`, `</data>`.
    @inline(__always)
    static func appendDataElement(_ d: Data, indent: Int, into out: inout XMLOutput) {
        out.append(word: 0x0a_3e61_7461_643c, 7)  // "<data>\n"
        XMLPlistWriter.appendBase64(d, indent: indent, into: &out)
        out.append(tabs: indent)
        out.append(word: 0x0a3e_6174_6164_2f3c, 8)  // "</data>\n"
    }

    /// A UID as CoreFoundation writes it: `<dict><key>CF$UID</key><integer>u</integer></dict>`.
    static func appendUID(_ u: UInt64, indent: Int, into out: inout XMLOutput) {
        out.append(word: 0x0a_3e74_6369_643c, 7)  // "<dict>\n"
        out.append(tabs: indent &+ 1)
        out.append(words: 0x2446_433e_7965_6b3c, 0x7965_6b2f_3c44_4955, 16)  // "<key>CF$UID</key"
        out.append(word: 0x0a3e, 2)  // ">\n"
        out.append(tabs: indent &+ 1)
        out.append(words: 0x7265_6765_746e_693c, 0x3e, 9)  // "<integer>"
        out.appendDecimal(u)
        out.append(words: 0x6567_6574_6e69_2f3c, 0x0a_3e72, 11)  // "</integer>\n"
        out.append(tabs: indent)
        out.append(word: 0x0a3e_7463_6964_2f3c, 8)  // "</dict>\n"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of `date`, rounded down to the whole second (``dateText(_:)``'s text).
    static func appendDate(_ date: Date, into out: inout XMLOutput) throws(PlistError) {
        let (year, month, day, second) = try dateFields(date)
        if year >= 0 && year <= 9999 {
            // The common case, 20 bytes in three words: "YYYY-MM-", "DDTHH:MM", ":SSZ". Every field is
            // non-negative here (second is in 0..<86_400): unsigned division by constants.
            // The two digits of v (0...99) at `shift`, the tens first: v * 103 >> 10 is v / 10 below 179.
            func digits(_ v: UInt64, _ shift: UInt64) -> UInt64 {
                let tens = (v &* 103) >> 10
                return (0x30 | tens) << shift | (0x30 | (v &- tens &* 10)) << (shift &+ 8)
            }
            let y = UInt64(year)
            let s = UInt64(second)
            let minutes = s / 60
            let w0 =
                digits(y / 100, 0) | digits(y % 100, 16) | 0x2d << 32 | digits(UInt64(month), 40) | 0x2d << 56
            let w1 =
                digits(UInt64(day), 0) | 0x54 << 16 | digits(minutes / 60, 24) | 0x3a << 40 | digits(minutes % 60, 48)
            let w2 = 0x3a | digits(s &- minutes &* 60, 8) | 0x5a << 24
            out.append(words: w0, w1, 16)
            out.append(word: w2, 4)
            return
        }
        // %04d: the width counts the sign.
        if year < 0 {
            out.append(UInt8(ascii: "-"))
            out.appendDecimal(UInt64(-year), minimumDigits: 3)
        } else {
            out.appendDecimal(UInt64(year), minimumDigits: 4)
        }
        out.append(UInt8(ascii: "-"))
        out.appendDecimal(UInt64(month), minimumDigits: 2)
        out.append(UInt8(ascii: "-"))
        out.appendDecimal(UInt64(day), minimumDigits: 2)
        out.append(UInt8(ascii: "T"))
        out.appendDecimal(UInt64(second / 3600), minimumDigits: 2)
        out.append(UInt8(ascii: ":"))
        out.appendDecimal(UInt64(second / 60 % 60), minimumDigits: 2)
        out.append(UInt8(ascii: ":"))
        out.appendDecimal(UInt64(second % 60), minimumDigits: 2)
        out.append(UInt8(ascii: "Z"))
    }

    /// The year, month, day and second of the day of `date`, rounded down to the whole second.
    static func dateFields(_ date: Date) throws(PlistError) -> (Int64, Int64, Int64, Int64) {
        let t = date.timeIntervalSinceReferenceDate
        // 4e12 s is about 126,000 years: far outside the written range, far inside Int64.
        guard t.isFinite, t.magnitude < 4e12 else {
            throw PlistError(.unencodable, "date \(t) s after 2001 cannot be written in XML")
        }
        let whole = Int64(t.rounded(.down))
        var days = whole / 86_400
        var secondOfDay = whole % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = PlistCalendar.civil(daysSince2001: days)
        guard (-9999...99999).contains(year) else {
            throw PlistError(.unencodable, "date in year \(year) cannot be written in XML (years -9999…99999)")
        }
        return (year, month, day, secondOfDay)
    }

    /// Base64 lines of `76 - 8 × min(indent, 8)` characters, each after `min(indent, 8)` tabs and
    /// ending in a newline; nothing at all for empty data.
    static func appendBase64(_ data: Data, indent: Int, into out: inout XMLOutput) {
        let tabCount = Swift.min(Swift.max(indent, 0), 8)
        out.appendBase64(data.span, tabs: tabCount, groupsPerLine: (76 - 8 * tabCount) / 4)
    }

    /// Whether writing `value` would throw: a predicate on one node, for
    /// ``PlistValue/containsDistinctNode(where:)`` (every node the writer would refuse is one of these).
    static func refuses(_ value: PlistValue) -> Bool {
        switch value {
        case .null: return true
        case .date(let d): return (try? dateFields(d)) == nil
        case .string(let s): return s.withUTF8Span { XMLCharacters.holdsInvalid($0) }
        case .dictionary(let d):
            return d.entries.contains { entry in
                guard case .string(let key) = entry.key else { return true }
                return key.withUTF8Span { XMLCharacters.holdsInvalid($0) }
            }
        case .bool, .integer, .real, .data, .uid, .array, .set: return false
        }
    }

    /// ``refuses(_:)``, or with `rawCharacters` only what no XML form exists for (null, a date out of
    /// range, a non-string key).
    static func refuses(_ value: PlistValue, rawCharacters: Bool) -> Bool {
        guard rawCharacters else { return refuses(value) }
        switch value {
        case .null: return true
        case .date(let d): return (try? dateFields(d)) == nil
        case .dictionary(let d): return d.entries.contains { $0.key.kind != .string }
        default: return false
        }
    }

    /// ``refuses(_:)`` for the nodes ``PlistTreeMeasure`` shows (a document read in place).
    func refuses(_ visit: PlistTreeVisit) -> Bool {
        switch visit {
        case .scalar(let v): return XMLPlistWriter.refuses(v, rawCharacters: rawCharacters)
        case .key(let k):
            guard case .string(let key) = k else { return true }
            return !rawCharacters && key.withUTF8Span { XMLCharacters.holdsInvalid($0) }
        case .container: return false
        }
    }

    /// The writer's error for a node ``refuses(_:)-(PlistTreeVisit)`` refuses, at `path`.
    static func failure(_ visit: PlistTreeVisit, _ path: [String]) -> PlistError {
        switch visit {
        case .key(let k):
            guard case .string(let key) = k else {
                return PlistError(
                    .unencodable,
                    "XML dictionary keys must be strings, found a \(k.kind) key at \(XMLCharacters.place(path.dropLast()))"
                )
            }
            if let bad = XMLCharacters.firstInvalidScalar(key.string) {
                return XMLCharacters.describe(bad, "the key \(XMLCharacters.place(path))")
            }
        case .scalar(.string(let s)):
            if let bad = XMLCharacters.firstInvalidScalar(s.string) {
                return XMLCharacters.describe(bad, "the string at \(XMLCharacters.place(path))")
            }
        case .scalar(.null):
            return PlistError(.unencodable, "XML property lists have no null (at \(XMLCharacters.place(path)))")
        case .scalar(.date(let d)):
            do {
                _ = try dateText(d)
            } catch {
                var named = error
                named.detail += " (at \(XMLCharacters.place(path)))"
                return named
            }
        default:
            break
        }
        return PlistError(.unencodable, "\(XMLCharacters.place(path)) cannot be written in XML")
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, rounded down to the whole second.
    static func dateText(_ date: Date) throws(PlistError) -> String {
        var out = XMLOutput(capacity: 32)
        try appendDate(date, into: &out)
        return String(decoding: out.finish(), as: UTF8.self)
    }
}
