// Sources/bplist/Support/PlutilText.swift - The texts `plutil` prints for a value: its type name, its raw form
// (`-extract KP raw`), and the order it sorts dictionary keys in. Shared by `get --raw`, `type` and
// `bplist plutil`.

import Foundation
import PropertyList

enum PlutilText {
    /// `plutil`'s name of a kind (`-type`, `-expect`): bool, integer, float, string, date, data,
    /// dictionary, array. The kinds `plutil` has no name for: set (an array to Foundation), uid, null.
    static func typeName(_ kind: PlistKind) -> String {
        switch kind {
        case .bool: "bool"
        case .integer: "integer"
        case .real: "float"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .dictionary: "dictionary"
        case .array: "array"
        case .set: "set"
        case .uid: "uid"
        case .null: "null"
        }
    }

    /// The kinds a type name accepted by `--expect` stands for (`plutil`'s names and ours: `real`,
    /// `boolean` and `dict` too; `array` also matches a set, as Foundation reads sets as arrays).
    static func kinds(named name: String) -> Set<PlistKind>? {
        switch name.lowercased() {
        case "bool", "boolean": [.bool]
        case "integer", "int": [.integer]
        case "float", "real": [.real]
        case "string": [.string]
        case "date": [.date]
        case "data": [.data]
        case "dictionary", "dict": [.dictionary]
        case "array": [.array, .set]
        case "set": [.set]
        case "uid": [.uid]
        case "null": [.null]
        default: nil
        }
    }

    /// `plutil -extract KP raw`: a bool as `true`/`false`, an integer in decimal, a real as `%f`
    /// (`1.500000`), a string as it is, a date in RFC 3339 (UTC, whole seconds), data in base64, an
    /// array's element count, a dictionary's keys one per line in `plutil`'s order; `nil` for a UID
    /// or null, which have no raw form.
    static func raw(_ value: PlistValue) -> String? {
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .real(let d): return String(format: "%f", d)
        case .string(let s): return s.string
        case .date(let d): return rfc3339(d)
        case .data(let d): return d.base64EncodedString()
        case .array(let a), .set(let a): return String(a.count)
        case .dictionary(let d): return d.keys.compactMap(\.stringValue).sorted(by: keyPrecedes).joined(separator: "\n")
        case .uid, .null: return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC (whole seconds, rounded down), as `plutil` prints a raw date; a
    /// date outside the years 1…9999 (or not finite) as its seconds since 2001.
    static func rfc3339(_ date: Date) -> String {
        let x = date.timeIntervalSinceReferenceDate
        guard x.isFinite, let text = PlistValue.iso8601(secondsSinceReferenceDate: x.rounded(.down)) else {
            return "\(x)"
        }
        return text
    }

    /// Whether `a` sorts before `b` as `plutil` sorts dictionary keys (`-p`, raw keys, Swift and
    /// Objective-C literals): numbers by value, case ignored, then exact order to break ties.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        a.compare(
            b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: nil, locale: Locale(identifier: ""))
            == .orderedAscending
    }
}
