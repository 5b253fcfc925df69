// Tests/PropertyListTests/Support/CanonicalJSONCompare.swift - The corpus's JSON equality, in Swift.
//
// A port of the rules of corpus/compare_json.py (CANONICAL-JSON.md), over JSON parsed by a small
// parser of its own (deliberately not the one in PropertyList, so the core's reader and writer are
// checked against an independent reading):
// - objects by key set and value, arrays element by element, strings by Unicode scalars;
// - integers exactly, never equal to a boolean or a non-integer number;
// - {"$real": x}: bit-identical IEEE doubles (-0.0 != 0.0), or both NaN;
// - {"$date": x}: seconds or ISO-8601, equal within one microsecond (or both NaN);
// - {"$data": b}: decoded bytes; {"$uid": n}: exact integers; {"$set"}/{"$dict"}: structurally.

import Foundation

/// A parsed JSON value; numbers keep their text so integers stay exact at any size.
indirect enum CorpusJSON: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([CorpusJSON])
    case object([(key: String, value: CorpusJSON)])

    /// Parses JSON text (RFC 8259); nil when malformed.
    static func parse(_ text: String) -> CorpusJSON? {
        var p = Parser(bytes: Array(text.utf8))
        guard let v = p.value() else { return nil }
        p.skipSpace()
        return p.i == p.bytes.count ? v : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        }

        mutating func value() -> CorpusJSON? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var entries: [(key: String, value: CorpusJSON)] = []
                var position: [[UInt8]: Int] = [:]  // by UTF-8 bytes: Python's key identity
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(entries)
                }
                while true {
                    skipSpace()
                    guard case .string(let k)? = value() else { return nil }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                    guard let v = value() else { return nil }
                    if let p = position[Array(k.utf8)] {
                        entries[p].value = v  // a repeated key keeps the last value, as json.loads does
                    } else {
                        position[Array(k.utf8)] = entries.count
                        entries.append((k, v))
                    }
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    i += 1
                    if bytes[i - 1] == UInt8(ascii: "}") { return .object(entries) }
                    guard bytes[i - 1] == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [CorpusJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(elements)
                }
                while true {
                    guard let v = value() else { return nil }
                    elements.append(v)
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    i += 1
                    if bytes[i - 1] == UInt8(ascii: "]") { return .array(elements) }
                    guard bytes[i - 1] == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "\""):
                return string()
            default:
                for (word, v) in [("true", CorpusJSON.bool(true)), ("false", .bool(false)), ("null", .null)]
                where bytes[i...].starts(with: word.utf8) {
                    i += word.utf8.count
                    return v
                }
                let start = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                return Double(text) == nil ? nil : .number(text)
            }
        }

        mutating func string() -> CorpusJSON? {
            i += 1
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flushRaw() {
                units += String(decoding: raw, as: UTF8.self).utf16
                raw = []
            }
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "\"") {
                    flushRaw()
                    return .string(String(decoding: units, as: UTF16.self))
                }
                guard c == UInt8(ascii: "\\") else {
                    raw.append(c)
                    continue
                }
                flushRaw()
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count,
                        let u = UInt16(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    units.append(u)
                    i += 4
                default: units.append(UInt16(e))
                }
            }
            return nil
        }
    }

    /// Strings compare by Unicode scalars (Python's `==`), not by Swift's canonical equivalence.
    static func sameText(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }
}

/// The first difference between two canonical JSON values, or nil when they are equal.
enum CanonicalJSONCompare {
    static let tags: Set<String> = ["$real", "$date", "$data", "$uid", "$set", "$dict"]

    static func diff(_ expected: String, _ actual: String) -> String? {
        guard let a = CorpusJSON.parse(expected) else { return "expected text is not JSON" }
        guard let b = CorpusJSON.parse(actual) else { return "actual text is not JSON" }
        return diff(a, b, "$")
    }

    static func tag(_ v: CorpusJSON) -> String? {
        if case .object(let entries) = v, entries.count == 1, tags.contains(entries[0].key) { return entries[0].key }
        return nil
    }

    static func diff(_ a: CorpusJSON, _ b: CorpusJSON, _ path: String) -> String? {
        let ta = tag(a)
        let tb = tag(b)
        if ta != nil || tb != nil {
            guard ta == tb, let t = ta, case .object(let ea) = a, case .object(let eb) = b else {
                return "\(path): \(ta ?? "\(a)") vs \(tb ?? "\(b)")"
            }
            let x = ea[0].value
            let y = eb[0].value
            switch t {
            case "$real":
                guard let fx = real(x), let fy = real(y) else { return "\(path): bad $real \(x) / \(y)" }
                if fx.isNaN && fy.isNaN { return nil }
                return fx.bitPattern == fy.bitPattern ? nil : "\(path): real \(x) vs \(y)"
            case "$date":
                guard let sx = dateSeconds(x), let sy = dateSeconds(y) else { return "\(path): bad $date \(x) / \(y)" }
                if sx == sy || (sx.isNaN && sy.isNaN) || abs(sx - sy) <= 1e-6 { return nil }
                return "\(path): date \(x) vs \(y)"
            case "$data":
                guard case .string(let sx) = x, case .string(let sy) = y, let dx = Data(base64Encoded: sx),
                    let dy = Data(base64Encoded: sy)
                else { return "\(path): bad $data" }
                return dx == dy ? nil : "\(path): data differs"
            case "$uid":
                guard let ix = integer(x), let iy = integer(y), ix == iy else { return "\(path): uid \(x) vs \(y)" }
                return nil
            default:
                return diff(x, y, path + t)
            }
        }
        switch (a, b) {
        case (.null, .null): return nil
        case (.bool(let x), .bool(let y)): return x == y ? nil : "\(path): \(x) vs \(y)"
        case (.string(let x), .string(let y)):
            return CorpusJSON.sameText(x, y) ? nil : "\(path): \(x.debugDescription) vs \(y.debugDescription)"
        case (.number(let x), .number(let y)):
            switch (integer(a), integer(b)) {
            case (let ix?, let iy?): return ix == iy ? nil : "\(path): \(x) vs \(y)"
            case (nil, nil): return Double(x) == Double(y) ? nil : "\(path): \(x) vs \(y)"
            default: return "\(path): int vs float (\(x) vs \(y))"
            }
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) elements" }
            for (k, (u, v)) in zip(x, y).enumerated() {
                if let d = diff(u, v, "\(path)[\(k)]") { return d }
            }
            return nil
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) keys" }
            var index: [[UInt8]: Int] = [:]
            for (i, e) in y.enumerated() { index[Array(e.key.utf8)] = i }
            for (k, u) in x {
                guard let v = index[Array(k.utf8)].map({ y[$0].value }) else {
                    return "\(path): key \(k.debugDescription) missing"
                }
                if let d = diff(u, v, "\(path).\(k)") { return d }
            }
            return nil
        default:
            return "\(path): different types \(a) vs \(b)"
        }
    }

    /// An integer number's canonical digits (no fraction, no exponent), or nil.
    static func integer(_ v: CorpusJSON) -> String? {
        guard case .number(let t) = v, !t.contains(where: { ".eE".contains($0) }) else { return nil }
        var digits = Substring(t)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        while digits.count > 1, digits.hasPrefix("0") { digits = digits.dropFirst() }
        return (negative && digits != "0" ? "-" : "") + digits
    }

    /// A `$real` payload: a number, or a string that Python's float() accepts.
    static func real(_ v: CorpusJSON) -> Double? {
        switch v {
        case .number(let t): return Double(t)
        case .string(let s):
            switch s.lowercased() {
            case "nan", "+nan", "-nan": return .nan
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return Double(s)
            }
        default: return nil
        }
    }

    /// A `$date` payload in seconds since 2001: a number, a float string, or ISO-8601.
    static func dateSeconds(_ v: CorpusJSON) -> Double? {
        if let d = real(v) { return d }
        guard case .string(let s) = v else { return nil }
        return isoSeconds(s)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.ffffff][Z]` in the proleptic Gregorian calendar (Python's datetime),
    /// counted day by day from 2001 (Foundation's calendar switches to Julian before 1582).
    static func isoSeconds(_ s: String) -> Double? {
        let text = s.hasSuffix("Z") ? String(s.dropLast()) : s
        let parts = text.split(separator: "T")
        guard parts.count == 2 else { return nil }
        let ymd = parts[0].split(separator: "-").compactMap { Int($0) }
        let hms = parts[1].split(separator: ":")
        guard ymd.count == 3, hms.count == 3, let h = Int(hms[0]), let m = Int(hms[1]), let sec = Double(hms[2])
        else { return nil }
        func leap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
        var days = 0
        if ymd[0] >= 2001 {
            for y in 2001..<ymd[0] { days += leap(y) ? 366 : 365 }
        } else {
            for y in ymd[0]..<2001 { days -= leap(y) ? 366 : 365 }
        }
        let monthDays = [31, leap(ymd[0]) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        days += monthDays.prefix(ymd[1] - 1).reduce(0, +) + ymd[2] - 1
        return Double(days * 86_400 + h * 3600 + m * 60) + sec
    }
}
