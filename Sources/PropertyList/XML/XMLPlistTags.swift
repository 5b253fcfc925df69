// Sources/PropertyList/XML/XMLPlistTags.swift - The XML property-list parser's general path: the
// document around the root, start and end tags in every form the grammar allows (attributes,
// whitespace, empty elements), and one step inside a container for whatever the fast path
// (`XMLPlistReader.fastStep`) does not read, with every error and its position.
//
// Part of `XMLPlistReader` (XMLPlistReader.swift has the value loop and the containers).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension XMLPlistReader {
    // MARK: Document

    mutating func parseDocument() throws(PlistError) -> Sink.Value {
        if byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF {
            i = 3
        } else if (byte(0) == 0xFE && byte(1) == 0xFF) || (byte(0) == 0xFF && byte(1) == 0xFE) {
            throw fail(0, "UTF-16 input is not supported; XML property lists are read as UTF-8")
        }
        var sawDoctype = false
        while true {
            skipWhitespace()
            guard i < n else { throw fail(i, "no <plist> root element") }
            guard bytes[i] == UInt8(ascii: "<") else {
                throw fail(i, "unexpected \(describe(i)) before the <plist> root element")
            }
            if has("<?", at: i) {
                try skipProcessingInstruction()
            } else if has("<!--", at: i) {
                try skipComment()
            } else if has("<!DOCTYPE", at: i) {
                guard !sawDoctype else { throw fail(i, "a second <!DOCTYPE>") }
                sawDoctype = true
                try skipDoctype()
            } else if byte(i + 1) == UInt8(ascii: "!") {
                throw fail(i, "unexpected markup declaration before the <plist> root element")
            } else if byte(i + 1) == UInt8(ascii: "/") {
                throw fail(i, "close tag before the <plist> root element")
            } else {
                break
            }
        }
        let root = try readStartTag()
        guard XMLPlistElement.named(bytes, root.name) == .plist else {
            throw fail(root.offset, "the root element is <\(name(root.name))>, expected <plist>")
        }
        guard !root.isEmpty else { throw fail(root.offset, "<plist/> holds no value") }
        try skipMisc()
        guard i < n else { throw fail(i, "input ends inside <plist> (opened at \(lineColumn(root.offset)))") }
        guard bytes[i] == UInt8(ascii: "<"), byte(i + 1) != UInt8(ascii: "/") else {
            if bytes[i] == UInt8(ascii: "<") { throw fail(i, "<plist> holds no value") }
            throw fail(i, "unexpected \(describe(i)) inside <plist>")
        }
        let value = try parseValue()
        try skipMisc()
        guard i < n else { throw fail(i, "input ends inside <plist> (opened at \(lineColumn(root.offset)))") }
        guard has("</", at: i) else {
            if bytes[i] == UInt8(ascii: "<") { throw fail(i, "<plist> holds more than one value") }
            throw fail(i, "unexpected \(describe(i)) inside <plist>")
        }
        try readCloseTag(.plist, openedAt: root.offset)
        // After the root: only whitespace, comments and processing instructions.
        while true {
            skipWhitespace()
            guard i < n else { break }
            if has("<!--", at: i) {
                try skipComment()
            } else if has("<?", at: i) {
                try skipProcessingInstruction()
            } else {
                throw fail(i, "unexpected \(describe(i)) after the </plist> end tag")
            }
        }
        return value
    }

    // MARK: One step inside a container

    /// Reads what follows inside the open container `top`, in any form: a close tag (the container's
    /// value), a key (nil), a container's start tag (a new frame; nil) or a scalar (its value).
    mutating func generalStep(_ top: Int) throws(PlistError) -> Sink.Value? {
        let isDictionary = frames[top].isDictionary
        let what = isDictionary ? "dict" : "array"
        try skipMisc()
        guard i < n else {
            throw fail(i, "input ends inside <\(what)> (opened at \(lineColumn(frames[top].offset)))")
        }
        guard bytes[i] == UInt8(ascii: "<") else { throw fail(i, "unexpected \(describe(i)) inside <\(what)>") }
        if byte(i + 1) == UInt8(ascii: "/") {
            if isDictionary && frames[top].hasKey {
                throw fail(frames[top].pendingKeyOffset, "<key> without a value")
            }
            try readCloseTag(isDictionary ? .dict : .array, openedAt: frames[top].offset)
            let frame = frames.removeLast()
            return isDictionary ? try finishDictionary(frame) : sink.finishArray(itemsFrom: frame.start)
        }
        if isDictionary && !frames[top].hasKey {
            let tag = try readStartTag()
            guard XMLPlistElement.named(bytes, tag.name) == .key else {
                throw fail(tag.offset, "expected <key> in <dict>, found <\(name(tag.name))>")
            }
            if tag.isEmpty {
                sink.pushKey(PlistString(""))
            } else {
                try pushKey(try readText(tag, .key))
            }
            keyPushed(top: top, at: tag.offset)
            return nil
        }
        let tag = try readStartTag()
        if let child = try openContainer(tag, depth: frames.count) {
            frames.append(child)
            return nil
        }
        return try scalar(tag)
    }

    /// Reads the value of a non-container element (or an empty container) whose start tag was read.
    mutating func scalar(_ tag: XMLStartTag) throws(PlistError) -> Sink.Value {
        guard let element = XMLPlistElement.named(bytes, tag.name) else {
            throw fail(tag.offset, "unknown element <\(name(tag.name))>")
        }
        switch element {
        case .array:
            return sink.emptyArray()
        case .dict:
            return sink.emptyDictionary()
        case .true, .false:
            if !tag.isEmpty {
                let text = try readText(tag, element)
                guard isAllWhitespace(text) else { throw fail(text.start, "<\(element.rawValue)> must be empty") }
            }
            return sink.bool(element == .true)
        case .string:
            if tag.isEmpty { return sink.string(PlistString("")) }
            return try stringValue(try readText(tag, element))
        case .data:
            if tag.isEmpty { return sink.data(Data()) }
            return sink.data(try base64(try readText(tag, element)))
        case .integer:
            guard !tag.isEmpty else { throw fail(tag.offset, "<integer/> holds no number") }
            return sink.integer(PlistInteger(try integer(try readText(tag, element))))
        case .real:
            guard !tag.isEmpty else { throw fail(tag.offset, "<real/> holds no number") }
            return sink.real(try real(try readText(tag, element)))
        case .date:
            guard !tag.isEmpty else { throw fail(tag.offset, "<date/> holds no date") }
            return sink.date(try date(try readText(tag, element)))
        case .key:
            throw fail(tag.offset, "<key> outside a <dict>, or where a value was expected")
        case .plist:
            throw fail(tag.offset, "<plist> nested inside <plist>")
        }
    }

    /// Whether the text is XML whitespace only.
    func isAllWhitespace(_ text: XMLText) -> Bool {
        if let decoded = text.decoded { return decoded.allSatisfy(XMLScan.isWhitespace) }
        return bytes[text.range].allSatisfy(XMLScan.isWhitespace)
    }

    // MARK: Tags

    /// Reads `<name attr="v" …>` or `<name …/>` at `i`.
    mutating func readStartTag() throws(PlistError) -> XMLStartTag {
        let start = i
        guard byte(i) == UInt8(ascii: "<") else { throw fail(i, "expected a start tag, found \(describe(i))") }
        i += 1
        guard i < n else { throw fail(i, "input ends inside a tag") }
        guard XMLScan.isNameStart(bytes[i]) else { throw fail(i, "expected an element name, found \(describe(i))") }
        let nameStart = i
        while i < n && XMLScan.isNameByte(bytes[i]) { i += 1 }
        let nameRange = nameStart..<i
        while true {
            let hadSpace = i < n && XMLScan.isWhitespace(bytes[i])
            skipWhitespace()
            guard i < n else {
                throw fail(i, "input ends inside the tag <\(name(nameRange))> (at \(lineColumn(start)))")
            }
            let b = bytes[i]
            if b == UInt8(ascii: ">") {
                i += 1
                return XMLStartTag(offset: start, name: nameRange, isEmpty: false)
            }
            if b == UInt8(ascii: "/") {
                guard byte(i + 1) == UInt8(ascii: ">") else {
                    throw fail(i + 1, "expected '>' after '/' in <\(name(nameRange))>, found \(describe(i + 1))")
                }
                i += 2
                return XMLStartTag(offset: start, name: nameRange, isEmpty: true)
            }
            guard hadSpace, XMLScan.isNameStart(b) else {
                throw fail(i, "unexpected \(describe(i)) in the tag <\(name(nameRange))>")
            }
            // An attribute: name = "value" | 'value'. Parsed for well-formedness, then ignored.
            while i < n && XMLScan.isNameByte(bytes[i]) { i += 1 }
            skipWhitespace()
            guard byte(i) == UInt8(ascii: "=") else {
                throw fail(i, "expected '=' after an attribute name, found \(describe(i))")
            }
            i += 1
            skipWhitespace()
            let quote = byte(i)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw fail(i, "expected a quoted attribute value, found \(describe(i))")
            }
            let valueStart = i
            i += 1
            while i < n && bytes[i] != quote {
                guard bytes[i] != UInt8(ascii: "<") else { throw fail(i, "'<' inside an attribute value") }
                i += 1
            }
            guard i < n else { throw fail(i, "unterminated attribute value (opened at \(lineColumn(valueStart)))") }
            i += 1
        }
    }

    /// Reads `</name>` at `i` and checks that it closes `element`.
    mutating func readCloseTag(_ element: XMLPlistElement, openedAt open: Int) throws(PlistError) {
        let start = i
        guard byte(i) == UInt8(ascii: "<"), byte(i + 1) == UInt8(ascii: "/") else {
            throw fail(i, "expected </\(element.rawValue)>, found \(describe(i))")
        }
        i += 2
        let nameStart = i
        while i < n && XMLScan.isNameByte(bytes[i]) { i += 1 }
        let closing = nameStart..<i
        guard XMLPlistElement.packedName(bytes, closing) == element.packed else {
            throw fail(
                start,
                "</\(name(closing))> does not close <\(element.rawValue)> (opened at \(lineColumn(open)))")
        }
        skipWhitespace()
        guard i < n else { throw fail(i, "input ends inside </\(element.rawValue)>") }
        guard bytes[i] == UInt8(ascii: ">") else {
            throw fail(i, "expected '>' to end </\(element.rawValue)>, found \(describe(i))")
        }
        i += 1
    }
}
