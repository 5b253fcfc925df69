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
        var out = XMLOutput(capacity: 1 << 16)  // it grows as needed
        try walkValue(value, into: &out, drainingAt: .max) { _ in .max }
        return out.finish()
    }

    /// Writes the XML property list of a value into `out` as it walks the value.
    ///
    /// An `unencodable` value is found where the walk meets it: what came before it has been
    /// written. ``XMLPlist/write(_:sortKeys:budget:into:)`` checks first, so that nothing is.
    package func write(_ value: PlistValue, into sink: inout TextSink) throws(PlistError) {
        let chunk = Swift.min(sink.capacity, TextSink.defaultCapacity)
        var out = XMLOutput(capacity: chunk &+ 4096)
        do {
            try walkValue(value, into: &out, drainingAt: chunk) { buffer in
                buffer.drain(into: &sink)
                return sink.isStopped ? nil : chunk
            }
        } catch {
            out.drain(into: &sink)
            throw error
        }
        out.drain(into: &sink)
    }

    /// Writes the XML property list of the tree at `root` into `sink` as it walks it (the document
    /// read in place, or an owned value): the text goes through a buffer handed to `sink` each time it
    /// passes the sink's capacity, and once more at the end (also when the walk throws).
    func write<T: PlistTree>(_ tree: T, _ root: T.Node, into sink: inout TextSink) throws(PlistError) {
        let chunk = Swift.min(sink.capacity, TextSink.defaultCapacity)
        var out = XMLOutput(capacity: chunk &+ 4096)
        do {
            try walk(tree, root, into: &out, drainingAt: chunk) { buffer in
                buffer.drain(into: &sink)
                return !sink.isStopped
            }
        } catch {
            out.drain(into: &sink)
            throw error
        }
        out.drain(into: &sink)
    }

    /// An open container: what is left to write of it.
    struct Frame<Children> {
        /// An array's (or a set's) elements, or a dictionary's values.
        var elements: Children
        /// A dictionary's keys (for an array, its elements again, unused).
        var keys: Children
        /// The order in which a dictionary's entries are written when its keys are sorted (else empty:
        /// their own order).
        var order: [Int]
        var isDictionary: Bool
        /// The next element or entry to write (its place in `order` when sorting).
        var next: Int
        var indent: Int
    }

    /// Walks the tree at `root`, writing into `out`; after each value, when `out` holds `drainingAt`
    /// bytes or more, hands it to `drain`, which returns false to stop the walk (a failed delivery).
    func walk<T: PlistTree>(
        _ tree: T, _ root: T.Node, into out: inout XMLOutput, drainingAt: Int, _ drain: (inout XMLOutput) -> Bool
    ) throws(PlistError) {
        out.append(contentsOf: XMLPlistWriter.header.utf8)
        var frames: [Frame<T.Children>] = []
        try open(tree, root, indent: 0, into: &out, frames: &frames)
        while let t = frames.indices.last {
            if out.count >= drainingAt { guard drain(&out) else { return } }
            let next = frames[t].next
            let indent = frames[t].indent
            if frames[t].isDictionary {
                guard next < frames[t].keys.count else {
                    out.append(tabs: indent)
                    out.append(word: 0x0a3e_7463_6964_2f3c, 8)  // "</dict>\n"
                    frames.removeLast()
                    continue
                }
                frames[t].next = next &+ 1
                let position = frames[t].order.isEmpty ? next : frames[t].order[next]
                let contents = try tree.contents(of: frames[t].keys[position])
                guard case .scalar(.string(let key)) = contents else {
                    throw PlistError(.unencodable, "XML dictionary keys must be strings, found a \(contents.kind) key")
                }
                out.append(tabs: indent &+ 1)
                out.append(word: 0x3e_7965_6b3c, 5)  // "<key>"
                guard text(key, into: &out) else {
                    throw XMLPlistWriter.invalidText(key, "the key \(XMLCharacters.place(try path(tree, frames)))")
                }
                out.append(word: 0x0a_3e79_656b_2f3c, 7)  // "</key>\n"
                out.append(tabs: indent &+ 1)
                try open(tree, frames[t].elements[position], indent: indent &+ 1, into: &out, frames: &frames)
            } else {
                guard next < frames[t].elements.count else {
                    out.append(tabs: indent)
                    out.append(words: 0x3e79_6172_7261_2f3c, 0x0a, 9)  // "</array>\n"
                    frames.removeLast()
                    continue
                }
                frames[t].next = next &+ 1
                out.append(tabs: indent &+ 1)
                try open(tree, frames[t].elements[next], indent: indent &+ 1, into: &out, frames: &frames)
            }
        }
        out.append(words: 0x3e74_7369_6c70_2f3c, 0x0a, 9)  // "</plist>\n"
    }

    /// The key path of the node being written: each frame's `next` has moved past its child.
    func path<T: PlistTree>(_ tree: T, _ frames: [Frame<T.Children>]) throws(PlistError) -> [String] {
        var path: [String] = []
        for frame in frames {
            let index = frame.next - 1
            guard frame.isDictionary else {
                path.append(String(index))
                continue
            }
            let position = frame.order.isEmpty ? index : frame.order[index]
            if case .scalar(.string(let key)) = try tree.contents(of: frame.keys[position]) {
                path.append(key.string)
            } else {
                path.append("?")
            }
        }
        return path
    }

    /// Writes `s` as XML text, checked unless `rawCharacters` (``appendText(_:checked:into:)``). No
    /// closure for the failure: one that captured `s` made the walk copy each string it wrote; the
    /// caller names the place (``invalidText(_:_:)``).
    @inline(__always)
    func text(_ s: PlistString, into out: inout XMLOutput) -> Bool {
        let checked = !rawCharacters
        return s.withUTF8Span { Self.appendText($0, checked: checked, into: &out) }
    }

    /// The error for text `s`, which holds a character XML 1.0 cannot hold, at `place` ("the key …").
    @inline(never)
    static func invalidText(_ s: PlistString, _ place: String) -> PlistError {
        XMLCharacters.describe(XMLCharacters.firstInvalidScalar(s.string) ?? " ", place)
    }

    /// Writes the UTF-8 `text` as XML text (`&`, `<`, `>` escaped): copied as it is while it is scanned,
    /// and written again escaped only when the scan found something to escape. When `checked`, text
    /// that may hold a character XML 1.0 cannot hold (the scan flags the bytes they start with) is
    /// checked; when it does, nothing of it is written and the result is false.
    @inline(__always)
    static func appendText(_ text: Span<UInt8>, checked: Bool, into out: inout XMLOutput) -> Bool {
        let mark = out.count
        let found = out.appendScanning(text)
        if found.suspicious && checked && XMLCharacters.holdsInvalid(text) {
            out.truncate(mark)
            return false
        }
        if found.escapes {
            out.truncate(mark)
            out.appendEscaped(text)
        }
        return true
    }

    static let header =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        + "<plist version=\"1.0\">\n"

    /// Writes one node after its indentation; a non-empty container pushes its frame instead.
    private func open<T: PlistTree>(
        _ tree: T, _ node: T.Node, indent: Int, into out: inout XMLOutput, frames: inout [Frame<T.Children>]
    ) throws(PlistError) {
        switch try tree.contents(of: node) {
        case .scalar(let v):
            try scalar(v, indent: indent, into: &out) { () throws(PlistError) -> [String] in try path(tree, frames) }
        case .array(let children, _), .set(let children, _):
            guard !children.isEmpty else {
                out.append(words: 0x3e2f_7961_7272_613c, 0x0a, 9)  // "<array/>\n"
                return
            }
            out.append(word: 0x0a3e_7961_7272_613c, 8)  // "<array>\n"
            frames.append(
                Frame(elements: children, keys: children, order: [], isDictionary: false, next: 0, indent: indent))
        case .dictionary(let keys, let values, _):
            guard !keys.isEmpty else {
                out.append(word: 0x0a3e_2f74_6369_643c, 8)  // "<dict/>\n"
                return
            }
            var order: [Int] = []
            if sortKeys {
                var named: [(key: String, position: Int)] = []
                named.reserveCapacity(keys.count)
                for i in keys.indices {
                    let contents = try tree.contents(of: keys[i])
                    guard case .scalar(.string(let key)) = contents else {
                        throw PlistError(
                            .unencodable, "XML dictionary keys must be strings, found a \(contents.kind) key")
                    }
                    named.append((key.string, i))
                }
                named.sort { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
                order = named.map(\.position)
            }
            out.append(word: 0x0a_3e74_6369_643c, 7)  // "<dict>\n"
            frames.append(
                Frame(elements: values, keys: keys, order: order, isDictionary: true, next: 0, indent: indent))
        }
    }
}
