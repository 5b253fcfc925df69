// Sources/PropertyList/JSON/CanonicalJSONWriter.swift - Writes canonical JSON (CanonicalJSON.swift has
// the rules) of any PlistTree: an owned value, or a binary document read in place. An explicit stack
// of frames, one per open container (never the call stack), each walking its children by position.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// How dates and data are written in JSON (``PlistWriteOptions/jsonStyle``): as typed JSON's tagged
/// objects (the default, read back exactly by ``PlistValue/decode(from:as:limits:options:)``; see
/// <doc:TypedJSON>), or as plain JSON values for consumers that know nothing of the tags.
public struct PlistJSONStyle: Sendable, Hashable {
    /// How a date is written.
    public enum Dates: Sendable, Hashable {
        /// `{"$date": "2001-01-01T00:00:00Z"}`.
        case tagged
        /// The RFC 3339 text in UTC as a plain string, `"2001-01-01T00:00:00Z"` (fractions of a
        /// second to the microsecond). A date outside the years 1…9999 (or not finite) stays tagged.
        case iso8601
        /// Seconds since 1970-01-01T00:00:00Z (the Unix epoch) as a plain number. A date that is not
        /// finite stays tagged.
        case seconds
    }

    /// How data is written.
    public enum DataValues: Sendable, Hashable {
        /// `{"$data": "AAEC"}`.
        case tagged
        /// The base64 text as a plain string, `"AAEC"`.
        case base64
    }

    /// How dates are written.
    public var dates: Dates
    /// How data is written.
    public var data: DataValues
    /// Canonical JSON: what the corpus oracles hold, as Python's plistlib and `json` write it (dates
    /// ISO-8601 rounded to whole microseconds, every NaN `"nan"`). Off in typed JSON, which keeps
    /// every bit: a date whole microseconds cannot hold is written as its exact seconds, and a NaN
    /// other than the default with its bit pattern.
    package var isCanonical = false

    public init(dates: Dates = .tagged, data: DataValues = .tagged) {
        self.dates = dates
        self.data = data
    }

    /// Typed JSON: every value reads back as it was (<doc:TypedJSON>).
    public static let typed = PlistJSONStyle()

    /// Canonical JSON: typed JSON with dates rounded to microseconds as plistlib writes them, so that
    /// the text (keys sorted) is byte for byte the corpus oracles' (the `bplist` tool's `to-json`).
    package static let canonical: PlistJSONStyle = {
        var style = PlistJSONStyle()
        style.isCanonical = true
        return style
    }()
}

extension PlistValue {
    /// The JSON text of this value in `style`, ending with a newline, keys sorted (the bplist tool's
    /// `to-json`).
    package func json(style: PlistJSONStyle, budget: OutputBudget = .default) throws(PlistError) -> String {
        var out = TextSink.collecting()
        try writeJSON(into: &out, style: style, sortsKeys: true, budget: budget)
        return String(decoding: out.takeBytes(), as: UTF8.self)
    }

    /// Writes the JSON of this value in `style` into `out` as it walks the value: dictionary keys in
    /// code-point order with `sortsKeys` (canonical JSON), else in the value's order.
    package func writeJSON(into out: inout TextSink, style: PlistJSONStyle, sortsKeys: Bool, budget: OutputBudget)
        throws(PlistError)
    {
        try checkExpansion(budget, as: "JSON")
        try CanonicalJSONWriter(style: style, sortsKeys: sortsKeys).write(PlistValueTree(), self, into: &out)
        out.write(0x0A)
    }
}

extension BinaryPlistDocument {
    /// Writes the canonical JSON (in `style`) of the object `ref` into `out`, reading the document in
    /// place: no ``PlistValue`` tree is built. Everything is checked first (the budget, cycles, every
    /// object's format), so an error writes nothing.
    ///
    /// - Parameter tree: The document as a tree (its options decide how strings are read).
    package static func writeCanonicalJSON(
        _ tree: DocumentTree, from ref: ObjectRef, style: PlistJSONStyle, budget: OutputBudget,
        into out: inout TextSink
    ) throws(PlistError) {
        try PlistTreeMeasure(tree, budget: budget).check(ref, as: "canonical JSON")
        try CanonicalJSONWriter(style: style).write(tree, ref, into: &out)
        out.write(0x0A)
    }
}

/// Writes the canonical JSON of a tree into a sink.
struct CanonicalJSONWriter {
    let style: PlistJSONStyle
    /// Dictionary keys in code-point order (canonical JSON), else in their stored order.
    var sortsKeys = true

    /// An open container: what is left to write of it.
    private enum Frame<Children> {
        /// An array (or a set's members): elements by position; `set`: close the `$set` object too.
        case array(Children, next: Int, level: Int, set: Bool)
        /// A dictionary with string keys, in code-point order of the keys: (escaped key, position).
        case sorted([(key: String, position: Int)], values: Children, next: Int, level: Int)
        /// `{"$dict": [[key, value], …]}`: entries in order, each a two-element array.
        case pairs(keys: Children, values: Children, next: Int, level: Int)
        /// One `[key, value]` of `pairs` at `level`: `phase` 0 writes the key, 1 the value, 2 closes.
        case pair(keys: Children, values: Children, entry: Int, phase: Int, level: Int)
    }

    func write<T: PlistTree>(_ tree: T, _ root: T.Node, into out: inout TextSink) throws(PlistError) {
        var frames: [Frame<T.Children>] = []
        try open(tree, root, level: 0, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.popLast() {
            switch top {
            case .array(let children, let next, let level, let set):
                guard next < children.count else {
                    out.write(CanonicalJSONWriter.close(level, "]"))
                    if set { out.write(CanonicalJSONWriter.close(level - 1, "}")) }
                    continue
                }
                frames.append(.array(children, next: next + 1, level: level, set: set))
                out.write((next == 0 ? "[" : ",") + CanonicalJSONWriter.indent(level + 1))
                try open(tree, children[next], level: level + 1, into: &out, frames: &frames)
            case .sorted(let keys, let values, let next, let level):
                guard next < keys.count else {
                    out.write(CanonicalJSONWriter.close(level, "}"))
                    continue
                }
                frames.append(.sorted(keys, values: values, next: next + 1, level: level))
                out.write((next == 0 ? "{" : ",") + CanonicalJSONWriter.indent(level + 1))
                out.write(keys[next].key)
                out.write(": ")
                try open(tree, values[keys[next].position], level: level + 1, into: &out, frames: &frames)
            case .pairs(let keys, let values, let next, let level):
                // The pairs array is at level + 1, each pair at level + 2.
                guard next < keys.count else {
                    out.write(CanonicalJSONWriter.close(level + 1, "]"))
                    out.write(CanonicalJSONWriter.close(level, "}"))
                    continue
                }
                frames.append(.pairs(keys: keys, values: values, next: next + 1, level: level))
                out.write((next == 0 ? "[" : ",") + CanonicalJSONWriter.indent(level + 2))
                frames.append(.pair(keys: keys, values: values, entry: next, phase: 0, level: level + 2))
            case .pair(let keys, let values, let entry, let phase, let level):
                guard phase < 2 else {
                    out.write(CanonicalJSONWriter.close(level, "]"))
                    continue
                }
                frames.append(.pair(keys: keys, values: values, entry: entry, phase: phase + 1, level: level))
                out.write((phase == 0 ? "[" : ",") + CanonicalJSONWriter.indent(level + 1))
                try open(tree, phase == 0 ? keys[entry] : values[entry], level: level + 1, into: &out, frames: &frames)
            }
        }
    }

    /// Writes `node` when it is a scalar or empty; pushes its frame otherwise.
    private func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, level: Int, into out: inout TextSink, frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(let v):
            scalar(v, level: level, into: &out)
        case .array(let children, _):
            if children.isEmpty {
                out.write("[]")
            } else {
                frames.append(.array(children, next: 0, level: level, set: false))
            }
        case .set(let children, _):
            CanonicalJSONWriter.tagged("$set", level, &out)
            if children.isEmpty {
                out.write("[]")
                out.write(CanonicalJSONWriter.close(level, "}"))
            } else {
                frames.append(.array(children, next: 0, level: level + 1, set: true))
            }
        case .dictionary(let keys, let values, _):
            guard !keys.isEmpty else {
                out.write("{}")
                return
            }
            var keyed: [(key: String, scalars: [UInt32], position: Int)] = []
            keyed.reserveCapacity(keys.count)
            for i in keys.indices {
                guard case .scalar(.string(let k)) = try tree.contents(of: keys[i]) else {
                    keyed = []
                    break
                }
                let text = k.string
                keyed.append((text, text.unicodeScalars.map(\.value), i))
            }
            let isTagLike = keyed.count == 1 && PlistValue.canonicalJSONTags.contains(keyed[0].key)
            if keyed.count != keys.count || isTagLike {
                out.write("{" + CanonicalJSONWriter.indent(level + 1) + "\"$dict\": ")
                frames.append(.pairs(keys: keys, values: values, next: 0, level: level))
                return
            }
            // Python sorts str keys by code point; Swift's String `<` does not, so compare scalars.
            if sortsKeys { keyed.sort { $0.scalars.lexicographicallyPrecedes($1.scalars) } }
            let sorted = keyed.map { entry in
                var s = ""
                CanonicalJSONWriter.appendString(entry.key, to: &s)
                return (key: s, position: entry.position)
            }
            frames.append(.sorted(sorted, values: values, next: 0, level: level))
        }
    }

    /// Writes a scalar at `level`.
    private func scalar(_ v: PlistValue, level: Int, into out: inout TextSink) {
        switch v {
        case .null: out.write("null")
        case .bool(let b): out.write(b ? "true" : "false")
        case .integer(let i): out.write(String(i))
        case .string(let s): CanonicalJSONWriter.writeString(s.string, into: &out)
        case .real(let d):
            CanonicalJSONWriter.tagged("$real", level, &out)
            CanonicalJSONWriter.writeString(
                style.isCanonical ? PlistValue.pythonRepr(d) : PlistValue.typedRealText(d), into: &out)
            out.write(CanonicalJSONWriter.close(level, "}"))
        case .date(let date):
            let x = date.timeIntervalSinceReferenceDate
            switch style.dates {
            case .iso8601:
                if let text = PlistValue.iso8601(secondsSinceReferenceDate: x) {
                    CanonicalJSONWriter.writeString(text, into: &out)
                    return
                }
            case .seconds:
                if x.isFinite {
                    out.write(PlistValue.pythonRepr(x + 978_307_200))
                    return
                }
            case .tagged:
                break
            }
            CanonicalJSONWriter.tagged("$date", level, &out)
            CanonicalJSONWriter.writeString(
                PlistValue.taggedDateText(x, roundingToMicroseconds: style.isCanonical), into: &out)
            out.write(CanonicalJSONWriter.close(level, "}"))
        case .data(let d):
            if style.data == .tagged { CanonicalJSONWriter.tagged("$data", level, &out) }
            out.write(0x22)
            CanonicalJSONWriter.writeBase64(d, into: &out)
            out.write(0x22)
            if style.data == .tagged { out.write(CanonicalJSONWriter.close(level, "}")) }
        case .uid(let u):
            CanonicalJSONWriter.tagged("$uid", level, &out)
            out.write(String(u))
            out.write(CanonicalJSONWriter.close(level, "}"))
        case .array, .set, .dictionary:
            // Containers come as frames (PlistTree never gives one as a scalar).
            break
        }
    }

    private static func indent(_ level: Int) -> String { "\n" + String(repeating: " ", count: level) }

    private static func close(_ level: Int, _ bracket: String) -> String { indent(level) + bracket }

    /// Opens `{"tag": ` at `level`; the caller writes the value and the closing brace.
    private static func tagged(_ tag: String, _ level: Int, _ out: inout TextSink) {
        out.write("{" + indent(level + 1) + "\"" + tag + "\": ")
    }

    /// A JSON string with Python's `ensure_ascii` escapes (lowercase hex, DEL escaped too).
    static func appendString(_ s: String, to out: inout String) {
        var sink = TextSink.collecting(reserving: s.utf8.count &+ 2)
        writeString(s, into: &sink)
        out += String(decoding: sink.takeBytes(), as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `s` as a JSON string with Python's `ensure_ascii` escapes (lowercase hex, DEL escaped too).
    static func writeString(_ s: String, into out: inout TextSink) {
        out.write(0x22)
        for unit in s.utf16 {
            switch unit {
            case 0x22: out.write("\\\"")
            case 0x5C: out.write("\\\\")
            case 0x0A: out.write("\\n")
            case 0x0D: out.write("\\r")
            case 0x09: out.write("\\t")
            case 0x08: out.write("\\b")
            case 0x0C: out.write("\\f")
            case 0x20..<0x7F: out.write(UInt8(truncatingIfNeeded: unit))
            default:
                out.write("\\u")
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.write(hexDigits[Int(truncatingIfNeeded: unit >> UInt16(shift)) & 0xF])
                }
            }
        }
        out.write(0x22)
    }

    /// `data` in base64 with padding and no line breaks (the text of `base64EncodedString()`),
    /// written as it is encoded.
    static func writeBase64(_ data: Data, into out: inout TextSink) {
        TextSink.base64Groups(of: data) { a, b, c, d in
            out.write(a)
            out.write(b)
            out.write(c)
            out.write(d)
        }
    }
}
