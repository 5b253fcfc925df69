// Sources/PropertyList/XML/XMLPlistWriter.swift - Writes XML property lists in CoreFoundation's layout.
//
// Using format information from CoreFoundation's CFPropertyList.c (`_CFAppendXML0`,
// `_XMLPlistAppendDataUsingBase64`): the header and DOCTYPE, one tab per level, empty containers as
// `<array/>`/`<dict/>`, base64 lines of 76 - 8 × indent characters each indented like the
// `<data>` tag (at most eight tabs), dates as `%04d-%02d-%02dT%02d:%02d:%02dZ`, UIDs as `CF$UID`
// dictionaries, and only `&`, `<`, `>` escaped in text.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Writes a ``PlistValue`` as an XML property list, laid out as CoreFoundation lays it out.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
/// <plist version="1.0">
/// <dict>
/// 	<key>name</key>
/// 	<string>Ada &amp; Charles</string>
/// 	<key>photo</key>
/// 	<data>
/// 	iVBORw0KGgo=
/// 	</data>
/// </dict>
/// </plist>
/// ```
///
/// The XML form cannot say everything the binary form can, so some values are mapped or refused:
/// - **Sets** are written as `<array>` (XML has no set element; CoreFoundation has no XML sets either).
///   Reading the result gives an ``PlistValue/array(_:)``.
/// - **UIDs** are written as `<dict><key>CF$UID</key><integer>n</integer></dict>`, which every reader
///   (ours included) turns back into a UID. Conversely, an ordinary dictionary with that single entry
///   reads back as a UID.
/// - **Dates** have whole seconds: a fraction is dropped, rounding down to the earlier second, as
///   CoreFoundation does. Years from -9999 to 99999 are written (`%04d` for the year); other dates,
///   and non-finite ones, are `unencodable`.
/// - **Reals** are written with the fewest digits that read back to the same `Double` (`0.1`, `1`,
///   `1.5e-07`, `1e+16`), `0.0`/`-0.0` for zeros, and `nan`, `inf`, `-inf`.
/// - **Integers** are exact over the whole `Int128` range.
/// - **Null** has no XML form and is `unencodable`; so is a dictionary key that is not a string.
///
/// Dictionary entries are written in their order; set ``sortKeys`` to order them as
/// CoreFoundation does (by UTF-16 code units), which reproduces Apple's output byte for byte.
/// Strings are written as they are, with only `&`, `<` and `>` escaped, exactly like
/// CoreFoundation. A string or key holding a character XML 1.0 cannot hold (a control character
/// other than tab, LF and CR, U+FFFE, U+FFFF) is `unencodable`, with its key path: CoreFoundation
/// writes such characters raw, which no XML parser reads, and no escape exists for them.
package struct XMLPlistWriter: Sendable {
    /// Write dictionary entries sorted by key (UTF-16 code-unit order), as CoreFoundation does.
    /// Off by default: entries keep their order.
    package var sortKeys: Bool
    /// Write characters XML 1.0 cannot hold as they are, as CoreFoundation does (its own reader, and
    /// ours, read them back; standard XML parsers do not). Off by default: they are `unencodable`.
    package var rawCharacters: Bool

    package init(sortKeys: Bool = false, rawCharacters: Bool = false) {
        self.sortKeys = sortKeys
        self.rawCharacters = rawCharacters
    }

    /// Writes the XML property list of a value.
    ///
    /// - Throws: ``PlistError`` with code `unencodable` for `.null`, a non-string dictionary
    ///   key, a date that is not finite or outside years -9999…99999, or a string holding a character
    ///   XML 1.0 cannot hold (naming its key path).
    /// - Complexity: O(size of the value); nesting uses an explicit stack, not the call stack.
    package func write(_ value: PlistValue) throws(PlistError) -> Data {
        var out = TextSink.collecting()
        try write(value, into: &out)
        return Data(out.takeBytes())
    }

    /// Writes the XML property list of a value into `out` as it walks the value.
    ///
    /// An `unencodable` value is found where the walk meets it: what came before it has been
    /// written. ``XMLPlist/write(_:sortKeys:budget:into:)`` checks first, so that nothing is.
    package func write(_ value: PlistValue, into out: inout TextSink) throws(PlistError) {
        try write(PlistValueTree(), value, into: &out)
    }

    /// Writes the XML property list of the tree at `root` into `out` as it walks it (the document
    /// read in place, or an owned value).
    func write<T: PlistTree>(_ tree: T, _ root: T.Node, into out: inout TextSink) throws(PlistError) {
        out.write(XMLPlistWriter.header)
        var frames: [Frame<T.Children>] = []
        try open(tree, root, indent: 0, into: &out, frames: &frames)
        while !out.isStopped, let top = frames.popLast() {
            switch top {
            case .array(let children, let next, let indent):
                guard next < children.count else {
                    out.tabs(indent)
                    out.write("</array>\n")
                    continue
                }
                frames.append(.array(children, next: next + 1, indent: indent))
                out.tabs(indent + 1)
                try open(tree, children[next], indent: indent + 1, into: &out, frames: &frames)
            case .dictionary(let keys, let values, let next, let indent):
                guard next < keys.count else {
                    out.tabs(indent)
                    out.write("</dict>\n")
                    continue
                }
                frames.append(.dictionary(keys, values: values, next: next + 1, indent: indent))
                if !rawCharacters, let bad = XMLCharacters.firstInvalidScalar(keys[next].key) {
                    throw XMLCharacters.describe(bad, "the key \(XMLCharacters.place(XMLPlistWriter.path(frames)))")
                }
                out.tabs(indent + 1)
                out.write("<key>")
                out.xmlEscaped(keys[next].key)
                out.write("</key>\n")
                out.tabs(indent + 1)
                try open(tree, values[keys[next].position], indent: indent + 1, into: &out, frames: &frames)
            }
        }
        out.write("</plist>\n")
    }

    /// An open container: what is left to write of it.
    enum Frame<Children> {
        case array(Children, next: Int, indent: Int)
        /// A dictionary's entries in the order they are written: (key, position in `values`).
        case dictionary([(key: String, position: Int)], values: Children, next: Int, indent: Int)
    }

    /// Whether writing `value` would throw: a predicate on one node, for
    /// ``PlistValue/containsDistinctNode(where:)`` (every node the writer would refuse is one of these).
    static func refuses(_ value: PlistValue) -> Bool {
        switch value {
        case .null: return true
        case .date(let d): return (try? dateText(d)) == nil
        case .string(let s): return XMLCharacters.firstInvalidScalar(s.string) != nil
        case .dictionary(let d):
            return d.entries.contains { entry in
                guard case .string(let key) = entry.key else { return true }
                return XMLCharacters.firstInvalidScalar(key.string) != nil
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
        case .date(let d): return (try? dateText(d)) == nil
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
            return !rawCharacters && XMLCharacters.firstInvalidScalar(key.string) != nil
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

    /// The key path of the node being written: each frame's `next` has moved past its child.
    private static func path<C>(_ frames: [Frame<C>]) -> [String] {
        frames.map { frame in
            switch frame {
            case .array(_, let next, _): String(next - 1)
            case .dictionary(let keys, _, let next, _): keys[next - 1].key
            }
        }
    }

    static let header =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        + "<plist version=\"1.0\">\n"

    /// Writes one node after its indentation; a non-empty container pushes its frame instead.
    private func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, indent: Int, into out: inout TextSink, frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(let v):
            if !rawCharacters, case .string(let text) = v, let bad = XMLCharacters.firstInvalidScalar(text.string) {
                throw XMLCharacters.describe(bad, "the string at \(XMLCharacters.place(XMLPlistWriter.path(frames)))")
            }
            try scalar(v, indent: indent, into: &out)
        case .array(let children, _), .set(let children, _):
            guard !children.isEmpty else {
                out.write("<array/>\n")
                return
            }
            out.write("<array>\n")
            frames.append(.array(children, next: 0, indent: indent))
        case .dictionary(let keys, let values, _):
            guard !keys.isEmpty else {
                out.write("<dict/>\n")
                return
            }
            var entries: [(key: String, position: Int)] = []
            entries.reserveCapacity(keys.count)
            for i in keys.indices {
                let contents = try tree.contents(of: keys[i])
                guard case .scalar(.string(let key)) = contents else {
                    throw PlistError(.unencodable, "XML dictionary keys must be strings, found a \(contents.kind) key")
                }
                entries.append((key.string, i))
            }
            if sortKeys {
                entries.sort { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            }
            out.write("<dict>\n")
            frames.append(.dictionary(entries, values: values, next: 0, indent: indent))
        }
    }

    /// Writes a scalar after its indentation.
    private func scalar(_ v: PlistValue, indent: Int, into out: inout TextSink) throws(PlistError) {
        switch v {
        case .null:
            throw PlistError(.unencodable, "XML property lists have no null (at nesting level \(indent))")
        case .bool(let b):
            out.write(b ? "<true/>\n" : "<false/>\n")
        case .integer(let i):
            out.write("<integer>")
            out.write(String(i))
            out.write("</integer>\n")
        case .real(let d):
            out.write("<real>")
            out.write(XMLPlistWriter.realText(d))
            out.write("</real>\n")
        case .date(let d):
            out.write("<date>")
            out.write(try XMLPlistWriter.dateText(d))
            out.write("</date>\n")
        case .data(let d):
            out.write("<data>\n")
            out.xmlBase64(d, indent: indent)
            out.tabs(indent)
            out.write("</data>\n")
        case .string(let text):
            let s = text.string
            out.write("<string>")
            out.xmlEscaped(s)
            out.write("</string>\n")
        case .uid(let u):
            out.write("<dict>\n")
            out.tabs(indent + 1)
            out.write("<key>CF$UID</key>\n")
            out.tabs(indent + 1)
            out.write("<integer>")
            out.write(String(u))
            out.write("</integer>\n")
            out.tabs(indent)
            out.write("</dict>\n")
        case .array, .set, .dictionary:
            // Containers come as frames (PlistTree never gives one as a scalar).
            break
        }
    }

    /// The shortest text that reads back as the same double; `nan`, `inf`, `-inf`; `1` for 1.0.
    static func realText(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        // Swift's description is the shortest round-trip form; drop a trailing ".0" as %g does.
        let s = d.description
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, rounded down to the whole second.
    static func dateText(_ date: Date) throws(PlistError) -> String {
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
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        // %04d: the width counts the sign.
        let yearText = year < 0 ? "-" + pad(-year, 3) : pad(year, 4)
        return yearText + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
    }
}

/// The few writes of XML text beyond plain bytes.
extension TextSink {
    mutating func tabs(_ count: Int) {
        write(repeating: 0x09, count: count)
    }

    /// Text with `&`, `<`, `>` escaped (CoreFoundation's `_appendEscapedString`).
    mutating func xmlEscaped(_ s: String) {
        let utf8 = s.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else {
            write(s)
            return
        }
        for b in utf8 {
            switch b {
            case 0x26: write("&amp;")
            case 0x3C: write("&lt;")
            case 0x3E: write("&gt;")
            default: write(b)
            }
        }
    }

    /// Base64 lines of `76 - 8 × min(indent, 8)` characters, each after `min(indent, 8)` tabs and
    /// ending in a newline; nothing at all for empty data.
    mutating func xmlBase64(_ data: Data, indent: Int) {
        let tabCount = min(max(indent, 0), 8)
        let lineLength = 76 - 8 * tabCount  // a multiple of 4: lines break between groups
        var line: [UInt8] = []
        line.reserveCapacity(lineLength)
        func flush(_ out: inout TextSink, _ line: inout [UInt8]) {
            out.tabs(tabCount)
            out.write(line)
            out.write(0x0A)
            line.removeAll(keepingCapacity: true)
        }
        TextSink.base64Groups(of: data) { a, b, c, d in
            line.append(a)
            line.append(b)
            line.append(c)
            line.append(d)
            if line.count >= lineLength { flush(&self, &line) }
        }
        if !line.isEmpty { flush(&self, &line) }
    }
}
