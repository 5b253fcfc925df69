// Sources/PropertyList/OpenStep/OpenStepPlist.swift - The public face of the OpenStep (old-style,
// NeXTSTEP) text property lists: reading them (and `.strings` files) and writing them where lossless.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Reading and writing old-style OpenStep (NeXTSTEP) text property lists and `.strings` files.
///
/// ```swift
/// let project = try OpenStepPlist.decode(pbxprojData)     // { archiveVersion = 1; objects = { … }; }
/// let strings = try OpenStepPlist.decode(stringsData)     // "key" = "value"; … as a dictionary
/// let text = try OpenStepPlist.encode(value)              // strings, data, arrays, dictionaries only
/// ```
///
/// **What is read** (as CoreFoundation's old-style parser reads it):
/// - `{ key = value; … }` dictionaries (a `;` after every entry; `key;` alone means `key = key;`),
///   `( a, b, … )` arrays (a trailing comma is allowed), `<0fa1 23bc>` data (hex digits in pairs,
///   whitespace between pairs);
/// - strings, quoted with `"` or `'`, or unquoted (letters, digits and `_ $ / : . -`), with the
///   escapes `\a \b \f \n \r \t \v`, `\"`, `\\`, `\` + newline, `\U` + up to four hex digits (a UTF-16
///   unit; a surrogate pair in two escapes makes one character) and `\` + up to three octal digits;
///   any other escaped character stands for itself;
/// - `//` and `/* */` comments, and whitespace including U+2028 and U+2029, between tokens;
/// - a `.strings` file: `"key" = "value";` entries at the top level without braces;
/// - an empty (or whitespace-only) input, which is an empty dictionary;
/// - UTF-8, UTF-16 and UTF-32, with or without a byte-order mark.
///
/// Everything read is a string, data, an array or a dictionary with string keys: the format has no
/// numbers, booleans or dates (`1` is the string `"1"`). The GNUstep extensions `<*I…>`, `<*R…>`,
/// `<*B…>`, `<*D…>` (typed scalars) and `<[ base64 ]>` are not read: CoreFoundation does not read them
/// either. Octal escapes above `\177` (NeXTSTEP Latin characters) are an error here.
///
/// Stricter than CoreFoundation in two places: a lone UTF-16 surrogate written with `\U` is an
/// error (a Swift string cannot hold it), and text after the last entry of a `.strings` file is an
/// error (CoreFoundation stops reading there and ignores it).
///
/// **Errors.** A ``PlistError`` with code `syntax`, the byte ``PlistError/offset`` (in
/// the UTF-8 text; of its transcoding for UTF-16 or UTF-32 input) and a detail that begins
/// `line L, column C:`. Nesting deeper than ``PlistLimits/maxDepth`` or more than
/// ``PlistLimits/maxValues`` values is `limitExceeded`.
package enum OpenStepPlist {
    /// Parses an OpenStep property list or a `.strings` file.
    ///
    /// - Parameters:
    ///   - data: The text, in UTF-8, UTF-16 or UTF-32.
    ///   - limits: Bounds for hostile input (depth and values).
    /// - Returns: The root value: a string, data, an array or a dictionary.
    /// - Throws: ``PlistError`` with code `syntax` (with offset, line and column) or `limitExceeded`.
    /// - Complexity: O(n) in the input size.
    package static func decode(_ data: Data, limits: PlistLimits = .default) throws(PlistError)
        -> PlistValue
    {
        let text = try PlistText(data)
        var reader = OpenStepReader(bytes: text.utf8, limits: limits)
        return try reader.parseDocument()
    }

    /// ``decode(_:limits:)``, also telling whether the text was a `.strings` file (dictionary entries
    /// at the top level, without braces), so that an edited file can be written back in its form.
    package static func decodeTellingForm(_ data: Data, limits: PlistLimits = .default) throws(PlistError)
        -> (value: PlistValue, isStringsFile: Bool)
    {
        let text = try PlistText(data)
        var reader = OpenStepReader(bytes: text.utf8, limits: limits)
        let value = try reader.parseDocument()
        return (value, reader.isStringsFile)
    }

    /// Writes a value as an OpenStep property list, in UTF-8, with tabs for indentation.
    ///
    /// Strings made only of letters, digits and `_ $ / : . -` are written unquoted (except a root
    /// string, so that the output sniffs as OpenStep text), others quoted
    /// (with `\\`, `\"`, `\n`, `\t`, `\r` and octal escapes for other control characters); data as
    /// `<0fa123bc …>`. Reading the output gives the value back.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - budget: How much may be written; checked before anything is.
    /// - Throws: ``PlistError`` with code `unencodable`, naming the key path of the first value
    ///   the format cannot hold: a number, boolean, date, UID, set, null, or a non-string key;
    ///   `limitExceeded` when the value written out in full would pass `budget`.
    package static func encode(_ value: PlistValue, budget: OutputBudget = .default) throws(PlistError) -> Data {
        var out = TextSink.collecting()
        try write(value, budget: budget, into: &out)
        return Data(out.takeBytes())
    }

    /// Writes a value as OpenStep text into `out` as it walks the value (the bytes of
    /// ``encode(_:budget:)``), so the text is never held whole.
    ///
    /// Everything that makes the writer throw is checked before the first byte: the budget, then
    /// (in one walk over the value's distinct nodes) anything OpenStep cannot hold; so an error
    /// leaves `out` untouched.
    ///
    /// - Throws: As ``encode(_:budget:)``, with the same errors. A failed delivery is not an error
    ///   here: it stops `out` (see ``TextSink``).
    ///
    /// With `stringsFile`, a root dictionary is written as a `.strings` file: its entries at the top
    /// level, without braces (anything else is written as usual).
    ///
    /// With ``PlistWriteOptions/OpenStepLayout/xcodeProject(name:)``, a value that is not a `.strings`
    /// file is written in Xcode's `project.pbxproj` layout (`XcodeProjectWriter`).
    package static func write(
        _ value: PlistValue, stringsFile: Bool = false, layout: PlistWriteOptions.OpenStepLayout = .standard,
        budget: OutputBudget = .default, into out: inout TextSink
    ) throws(PlistError) {
        try value.checkExpansion(budget, as: "OpenStep text")
        if value.containsDistinctNode(where: OpenStepWriter.refuses) {
            // The writer's own error (naming the key path), found without writing a byte.
            var discard = TextSink.discarding()
            try OpenStepWriter.write(value, into: &discard)
        }
        if case .xcodeProject(let name) = layout, !(stringsFile && value.kind == .dictionary) {
            // Written whole first: a failure (a nesting past the limit) leaves `out` untouched.
            var project = TextSink.collecting()
            try XcodeProjectWriter.write(value, projectName: name, into: &project)
            out.write(project.takeBytes())
            return
        }
        let entriesOnly = stringsFile && value.kind == .dictionary
        try OpenStepWriter.write(PlistValueTree(), value, stringsFile: entriesOnly, into: &out)
        if !entriesOnly { out.write(0x0A) }
    }

    /// Writes the object `ref` of a binary document as OpenStep text into `out`, reading the document
    /// in place (no ``PlistValue`` tree is built). Everything that makes the writer throw is checked
    /// before the first byte.
    package static func write(
        _ tree: DocumentTree, from ref: ObjectRef, budget: OutputBudget = .default, into out: inout TextSink
    ) throws(PlistError) {
        try PlistTreeMeasure(tree, budget: budget).check(
            ref, as: "OpenStep text", refuses: OpenStepWriter.refuses, failure: OpenStepWriter.failure)
        try OpenStepWriter.write(tree, ref, into: &out)
        out.write(0x0A)
    }
}
