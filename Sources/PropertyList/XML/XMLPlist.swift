// Sources/PropertyList/XML/XMLPlist.swift - The public face of XML property lists: what is read, the
// errors, and the entry points to the reader (XMLPlistReader) and the writer (XMLPlistWriter).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Reading and writing XML property lists.
///
/// ```swift
/// let value = try XMLPlist.decode(xmlData)          // PlistValue
/// let xml = try XMLPlist.encode(value)              // Apple's layout, byte for byte
/// let (any, format) = try PlistValue.decode(from: bytes)  // binary or XML, by sniffing
/// ```
///
/// **What is read.** UTF-8, UTF-16 or UTF-32 input, with or without a byte-order mark (as
/// CoreFoundation reads it; text in UTF-16 or UTF-32 is transcoded to UTF-8 first and its XML
/// declaration's `encoding` is then ignored; in UTF-8 input a declaration naming another encoding is
/// an error), whitespace (only) before the first `<`, an optional XML declaration, `<!DOCTYPE>`, comments and processing
/// instructions, then a `<plist>` root holding exactly one value:
/// - `<dict>` (`<key>` then value, repeated; a repeated key keeps its first position and its last
///   value, like ``PlistDictionary``), `<array>`, and their empty forms `<dict/>`, `<array/>`;
/// - `<string>` and `<key>` text with the five predefined entities, numeric character references
///   (`&#…;`, `&#x…;`), CDATA sections and comments; `<string/>`. Text is taken as it is, with no
///   line-end normalisation, exactly as CoreFoundation reads it;
/// - `<integer>`: decimal or `0x` hexadecimal, optionally signed, exact over the whole `Int128` range;
/// - `<real>`: decimal text, or `nan`, `inf`, `+inf`, `-inf`, `infinity`, `+infinity`, `-infinity`
///   (any case);
/// - `<true/>`, `<false/>`;
/// - `<date>`: `YYYY-MM-DDTHH:MM:SSZ` (UTC), optionally with a fraction of a second;
/// - `<data>`: base64 with whitespace anywhere; padding may be omitted; `<data/>`;
/// - `<dict><key>CF$UID</key><integer>n</integer></dict>`, the way keyed archives spell a UID, reads
///   as ``PlistValue/uid(_:)``, as CoreFoundation does.
///
/// Whitespace around `<integer>`, `<real>` and `<date>` text is ignored. Attributes are parsed and
/// ignored (`version` included).
///
/// **Errors.** Malformed input is a ``PlistError`` with code `syntax`, the byte ``PlistError/offset``
/// of the problem and a detail that begins `line L, column C:` (lines count LF, CR and CRLF;
/// columns count Unicode scalars from 1). Nesting deeper than ``PlistLimits/maxDepth``
/// containers, more than ``PlistLimits/maxValues`` values, or a `CF$UID` above
/// ``PlistLimits/maxUID`` is `limitExceeded`. No input traps; memory stays proportional to
/// the input.
package enum XMLPlist {
    /// Parses an XML property list.
    ///
    /// - Parameters:
    ///   - data: XML in UTF-8 (as Apple and other writers produce it), UTF-16 or UTF-32.
    ///   - limits: Bounds for hostile input (depth, values, UID size).
    ///   - options: What is read beyond the format (``PlistReadOptions/normalizesDates``); exactly
    ///     the format by default.
    /// - Returns: The root value.
    /// - Throws: ``PlistError`` with code `syntax` (with offset, line and column; in UTF-16 or
    ///   UTF-32 input the offset counts bytes of its UTF-8 transcoding) or `limitExceeded`.
    /// - Complexity: O(n) in the input size.
    package static func decode(_ data: Data, limits: PlistLimits = .default, options: PlistReadOptions = .default)
        throws(PlistError) -> PlistValue
    {
        let (encoding, bom) = PlistText.detectEncoding(data)
        if encoding == .utf8 {
            // Read in place; strings longer than 15 bytes are slices of `data` (see ``PlistString``).
            let sink = XMLTreeSink(source: StringSource(data), sourceBase: bom)
            return try XMLInput.read(data, from: bom) { (input) throws(PlistError) -> PlistValue in
                var reader = XMLPlistReader(bytes: input, limits: limits, sink: sink)
                reader.normalizesDates = options.normalizesDates
                return try reader.parseDocument()
            }
        }
        let text = try PlistText(data)
        return try XMLInput.read(text.utf8) { (input) throws(PlistError) -> PlistValue in
            var reader = XMLPlistReader(bytes: input, limits: limits, sink: XMLTreeSink())
            reader.ignoresDeclaredEncoding = true
            reader.normalizesDates = options.normalizesDates
            return try reader.parseDocument()
        }
    }

    /// Reads an XML property list into a Codable decode's tape (XMLTapeSink.swift): the document
    /// checked as ``decode(_:limits:options:)`` checks it, with the same errors, but no `PlistValue`
    /// made; strings stay bytes of `data` until a `Decodable` keeps one.
    static func tape(_ data: Data, limits: PlistLimits, options: PlistReadOptions) throws(PlistError) -> PlistTape {
        // A tape holds at most 2^31 entries, keys included: at most one key per value.
        var bounded = limits
        bounded.maxValues = min(limits.maxValues, PlistTape.maxEntries / 2)
        let (encoding, bom) = PlistText.detectEncoding(data)
        if encoding == .utf8 {
            return try XMLInput.read(data, from: bom) { (input) throws(PlistError) -> PlistTape in
                try tape(input, limits: bounded, options: options, sink: XMLTapeSink(source: data, sourceBase: bom))
            }
        }
        // UTF-16 or UTF-32: the strings are bytes of the UTF-8 transcoding, which the tape keeps.
        let utf8 = try PlistText(data).utf8
        let source = Data(utf8)
        return try XMLInput.read(utf8) { (input) throws(PlistError) -> PlistTape in
            try tape(
                input, limits: bounded, options: options, sink: XMLTapeSink(source: source, sourceBase: 0),
                transcoded: true)
        }
    }

    private static func tape(
        _ input: XMLInput, limits: PlistLimits, options: PlistReadOptions, sink: XMLTapeSink, transcoded: Bool = false
    ) throws(PlistError) -> PlistTape {
        var reader = XMLPlistReader(bytes: input, limits: limits, sink: sink)
        reader.ignoresDeclaredEncoding = transcoded
        reader.normalizesDates = options.normalizesDates
        let root = try reader.parseDocument()
        reader.sink.tape.root = Int(root)
        return reader.sink.tape
    }

    /// Writes a value as an XML property list in Apple's layout: a tab per level, `<true/>`,
    /// `<real>` in the shortest form that reads back exactly, dates in UTC, data in base64 lines.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - sortKeys: Dictionary keys in code-point order (as plistlib and `plutil` write them) instead
    ///     of the order they have in `value`.
    ///   - budget: How much may be written; a value over it is refused before anything is returned
    ///     (text under 64 MiB, an eighth of `maxBytes` and 7 × `maxValues` bytes proves its value
    ///     within the budget; a longer one is measured when it reaches that size).
    /// - Throws: ``PlistError`` with code `unencodable` for `.null`, a non-string dictionary key,
    ///   a date that is not finite or lies outside years -9999…99999, or a character XML 1.0 cannot
    ///   hold; `limitExceeded` when the value written out in full would pass `budget`.
    package static func encode(_ value: PlistValue, sortKeys: Bool = false, budget: OutputBudget = .default)
        throws(PlistError) -> Data
    {
        // Measured only when the text grows past what proves the budget (`write(_:within:)`).
        try XMLPlistWriter(sortKeys: sortKeys).write(value, within: budget)
    }

    /// Writes a value as an XML property list into `out` as it walks the value (the bytes of
    /// ``encode(_:sortKeys:budget:)``), so the text is never held whole.
    ///
    /// Everything that makes the writer throw is checked before the first byte: the budget, then
    /// (in one walk over the value's distinct nodes) anything XML cannot hold; so an error leaves
    /// `out` untouched.
    ///
    /// - Throws: As ``encode(_:sortKeys:budget:)``, with the same errors. A failed delivery is not
    ///   an error here: it stops `out` (see ``TextSink``).
    ///
    /// With `rawCharacters`, characters XML 1.0 cannot hold are written as they are, as CoreFoundation
    /// writes them (`plutil -convert xml1`), instead of being refused.
    package static func write(
        _ value: PlistValue, sortKeys: Bool = false, rawCharacters: Bool = false, budget: OutputBudget = .default,
        into out: inout TextSink
    ) throws(PlistError) {
        try value.checkExpansion(budget, as: "an XML property list")
        let writer = XMLPlistWriter(sortKeys: sortKeys, rawCharacters: rawCharacters)
        if value.containsDistinctNode(where: { XMLPlistWriter.refuses($0, rawCharacters: rawCharacters) }) {
            // The writer's own error (its key path and wording), found without writing a byte.
            var discard = TextSink.discarding()
            try writer.write(value, into: &discard)
        }
        try writer.write(value, into: &out)
    }

    /// Writes the object `ref` of a binary document as an XML property list into `out`, reading the
    /// document in place (no ``PlistValue`` tree is built). Everything that makes the writer throw
    /// (the budget, anything XML cannot hold, cycles, malformed objects) is checked before the first byte.
    package static func write(
        _ tree: DocumentTree, from ref: ObjectRef, sortKeys: Bool = false, rawCharacters: Bool = false,
        budget: OutputBudget = .default, into out: inout TextSink
    ) throws(PlistError) {
        let writer = XMLPlistWriter(sortKeys: sortKeys, rawCharacters: rawCharacters)
        try PlistTreeMeasure(tree, budget: budget).check(
            ref, as: "an XML property list", refuses: writer.refuses, failure: XMLPlistWriter.failure)
        try writer.write(tree, ref, into: &out)
    }

    /// Whether the bytes look like an XML property list: in UTF-8, UTF-16 or UTF-32 (a byte-order mark
    /// optional), whitespace then `<?xml`, `<!DOCTYPE`, `<!--` or `<plist`.
    ///
    /// - Complexity: O(leading whitespace); the rest of the input is not read.
    package static func looksLikeXML(_ data: Data) -> Bool {
        if case .xml = try? PlistSniffer.sniff(data) { return true }
        return false
    }
}
