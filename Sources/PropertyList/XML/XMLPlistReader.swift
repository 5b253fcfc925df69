// Sources/PropertyList/XML/XMLPlistReader.swift - A strict, dependency-free parser for XML property lists.
//
// Using format information from the public PropertyList-1.0.dtd and CoreFoundation's CFPropertyList.c
// (what it writes and what it accepts). The parser is a byte scanner over the UTF-8 input: one
// pass, an explicit stack of open containers (never the call stack), and text copied only when it
// holds entities, CDATA sections or comments (XMLTextContent.swift). The public API is in
// XMLPlist.swift; UTF-16 and UTF-32 input is transcoded to UTF-8 first (PlistSniffer.swift).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// The elements of the plist vocabulary.
enum XMLPlistElement: String {
    case plist, dict, key, array, string, integer, real, `true`, `false`, date, data

    /// The element's name packed as `packedName(_:_:)` packs it.
    var packed: UInt64 {
        switch self {
        case .plist: 0x74_7369_6c70
        case .dict: 0x7463_6964
        case .key: 0x79_656b
        case .array: 0x79_6172_7261
        case .string: 0x676e_6972_7473
        case .integer: 0x72_6567_6574_6e69
        case .real: 0x6c61_6572
        case .true: 0x6575_7274
        case .false: 0x65_736c_6166
        case .date: 0x6574_6164
        case .data: 0x6174_6164
        }
    }

    /// A tag name of at most seven bytes as an integer, first byte lowest (0 for longer names).
    /// Names hold no zero byte, so equal integers mean equal names.
    @inline(__always) static func packedName(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        guard range.count <= 7, range.lowerBound >= 0, range.upperBound <= bytes.count else { return 0 }
        var v: UInt64 = 0
        var shift: UInt64 = 0
        for k in range {
            v |= UInt64(bytes[k]) << shift
            shift += 8
        }
        return v
    }

    /// The element a tag name (bytes of `bytes[range]`) names, or `nil`.
    static func named(_ bytes: [UInt8], _ range: Range<Int>) -> XMLPlistElement? {
        switch packedName(bytes, range) {
        case 0x7463_6964: .dict
        case 0x79_656b: .key
        case 0x676e_6972_7473: .string
        case 0x72_6567_6574_6e69: .integer
        case 0x6c61_6572: .real
        case 0x6575_7274: .true
        case 0x65_736c_6166: .false
        case 0x6574_6164: .date
        case 0x6174_6164: .data
        case 0x79_6172_7261: .array
        case 0x74_7369_6c70: .plist
        default: nil
        }
    }
}

/// A start tag just read.
struct XMLStartTag {
    /// Offset of its `<`.
    var offset: Int
    /// The byte range of its name.
    var name: Range<Int>
    /// `<name/>`.
    var isEmpty: Bool
}

/// The text content of an element: a slice of the input when it held no markup (its indices are
/// then input offsets), else the decoded bytes.
struct XMLText {
    var bytes: ArraySlice<UInt8>
    /// True when `bytes` is a slice of the input, so its indices are input offsets.
    var isInput: Bool
    /// Offset of the first content byte in the input.
    var start: Int
}

/// One open container on the explicit stack.
struct XMLFrame {
    var isDictionary: Bool
    /// Offset of the start tag's `<`.
    var offset: Int
    /// Array elements, or dictionary values.
    var values: [PlistValue] = []
    /// Dictionary keys (strings), one per value.
    var keys: [String] = []
    /// A dictionary key read and waiting for its value, with its offset.
    var pendingKey: String? = nil
    var pendingKeyOffset = 0
}

struct XMLPlistReader {
    let bytes: [UInt8]
    let limits: PlistLimits
    var i = 0
    var nodes = 0
    /// Set when the input was transcoded from UTF-16 or UTF-32: its declaration names that encoding.
    var ignoresDeclaredEncoding = false
    /// Read `<date>` fields past their range as CoreFoundation does (``XMLPlist/Options``).
    var normalizesDates = false

    init(bytes: [UInt8], limits: PlistLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    var n: Int { bytes.count }

    /// The byte at `k`, or 0 past the end (0 never matches any structural byte we look for).
    @inline(__always) func byte(_ k: Int) -> UInt8 { k >= 0 && k < bytes.count ? bytes[k] : 0 }

    /// Whether the input at `k` starts with `literal`.
    func has(_ literal: String, at k: Int) -> Bool {
        var j = k
        for c in literal.utf8 {
            guard j < n, byte(j) == c else { return false }
            j += 1
        }
        return true
    }

    // MARK: Document

    mutating func parseDocument() throws(PlistError) -> PlistValue {
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

    // MARK: Values

    /// Parses one value whose start tag begins at `i`, with an explicit stack for containers.
    ///
    /// Frames are mutated in place through the stack (`stack[top]`), never copied out, so appending
    /// to a container's arrays stays O(1).
    mutating func parseValue() throws(PlistError) -> PlistValue {
        var stack: [XMLFrame] = []
        while true {
            let value: PlistValue
            let top = stack.count - 1
            if top < 0 {
                let tag = try readStartTag()
                if let child = try openContainer(tag, depth: 0) {
                    stack.append(child)
                    continue
                }
                value = try scalar(tag)
            } else {
                let isDictionary = stack[top].isDictionary
                let what = isDictionary ? "dict" : "array"
                try skipMisc()
                guard i < n else {
                    throw fail(i, "input ends inside <\(what)> (opened at \(lineColumn(stack[top].offset)))")
                }
                guard bytes[i] == UInt8(ascii: "<") else { throw fail(i, "unexpected \(describe(i)) inside <\(what)>") }
                if byte(i + 1) == UInt8(ascii: "/") {
                    if isDictionary && stack[top].pendingKey != nil {
                        throw fail(stack[top].pendingKeyOffset, "<key> without a value")
                    }
                    try readCloseTag(isDictionary ? .dict : .array, openedAt: stack[top].offset)
                    let frame = stack.removeLast()
                    value = isDictionary ? try finishDictionary(frame) : .array(frame.values)
                } else if isDictionary && stack[top].pendingKey == nil {
                    let tag = try readStartTag()
                    guard XMLPlistElement.named(bytes, tag.name) == .key else {
                        throw fail(tag.offset, "expected <key> in <dict>, found <\(name(tag.name))>")
                    }
                    let key = tag.isEmpty ? "" : try string(try readText(tag, .key))
                    stack[top].pendingKey = key
                    stack[top].pendingKeyOffset = tag.offset
                    continue
                } else {
                    let tag = try readStartTag()
                    if let child = try openContainer(tag, depth: stack.count) {
                        stack.append(child)
                        continue
                    }
                    value = try scalar(tag)
                }
            }
            nodes += 1
            guard nodes <= limits.maxValues else {
                throw PlistError(
                    .limitExceeded, offset: i, "\(lineColumn(i)): more than \(limits.maxValues) values")
            }
            let parent = stack.count - 1
            guard parent >= 0 else { return value }
            stack[parent].values.append(value)
            if let key = stack[parent].pendingKey {
                stack[parent].keys.append(key)
                stack[parent].pendingKey = nil
            }
        }
    }

    /// For `<array>` or `<dict>` with content, a new frame; `nil` for anything else (read as a scalar).
    /// `depth` is the number of containers already open.
    mutating func openContainer(_ tag: XMLStartTag, depth: Int) throws(PlistError) -> XMLFrame? {
        let element = XMLPlistElement.named(bytes, tag.name)
        guard element == .array || element == .dict, !tag.isEmpty else { return nil }
        guard depth < limits.maxDepth else {
            throw PlistError(
                .limitExceeded, offset: tag.offset,
                "\(lineColumn(tag.offset)): nesting deeper than \(limits.maxDepth) containers")
        }
        return XMLFrame(isDictionary: element == .dict, offset: tag.offset)
    }

    /// Builds a dictionary (or a UID from a `CF$UID` dictionary) from a closed frame.
    ///
    /// A repeated key keeps its first position and its last value. Small dictionaries compare keys
    /// pairwise; larger ones use a hash table keyed by exact text, so hostile input stays O(n).
    func finishDictionary(_ frame: XMLFrame) throws(PlistError) -> PlistValue {
        let count = frame.keys.count
        var entries: [PlistDictionary.Element] = []
        entries.reserveCapacity(count)
        if count <= 12 {
            for k in 0..<count {
                let key = frame.keys[k]
                if let j = entries.firstIndex(where: {
                    if case .string(let s) = $0.key { s == key } else { false }
                }) {
                    entries[j].value = frame.values[k]
                } else {
                    entries.append((.string(key), frame.values[k]))
                }
            }
        } else {
            var positions: [ExactKey: Int] = [:]
            positions.reserveCapacity(count)
            for k in 0..<count {
                let key = ExactKey(frame.keys[k])
                if let j = positions[key] {
                    entries[j].value = frame.values[k]
                } else {
                    positions[key] = entries.count
                    entries.append((.string(frame.keys[k]), frame.values[k]))
                }
            }
        }
        // <dict><key>CF$UID</key><integer>n</integer></dict> is a UID, as in CoreFoundation.
        if entries.count == 1, case .string(let key) = entries[0].key, key == "CF$UID",
            case .integer(let uid) = entries[0].value
        {
            guard uid >= 0 else { throw fail(frame.offset, "CF$UID \(uid) is negative") }
            guard let u = uid.uint64, u <= limits.maxUID else {
                throw PlistError(
                    .limitExceeded, offset: frame.offset,
                    "\(lineColumn(frame.offset)): CF$UID \(uid) is above the limit \(limits.maxUID)")
            }
            return .uid(u)
        }
        return .dictionary(PlistDictionary(uniqueEntries: entries))
    }

    /// Reads the value of a non-container element (or an empty container) whose start tag was read.
    mutating func scalar(_ tag: XMLStartTag) throws(PlistError) -> PlistValue {
        guard let element = XMLPlistElement.named(bytes, tag.name) else {
            throw fail(tag.offset, "unknown element <\(name(tag.name))>")
        }
        switch element {
        case .array:
            return .array([])
        case .dict:
            return .dictionary(PlistDictionary())
        case .true, .false:
            if !tag.isEmpty {
                let text = try readText(tag, element)
                guard text.bytes.allSatisfy(XMLScan.isWhitespace) else {
                    throw fail(text.start, "<\(element.rawValue)> must be empty")
                }
            }
            return .bool(element == .true)
        case .string:
            if tag.isEmpty { return .string("") }
            return .string(try string(try readText(tag, element)))
        case .data:
            if tag.isEmpty { return .data(Data()) }
            return .data(try base64(try readText(tag, element)))
        case .integer:
            guard !tag.isEmpty else { throw fail(tag.offset, "<integer/> holds no number") }
            return .integer(PlistInteger(try integer(try readText(tag, element))))
        case .real:
            guard !tag.isEmpty else { throw fail(tag.offset, "<real/> holds no number") }
            return .real(try real(try readText(tag, element)))
        case .date:
            guard !tag.isEmpty else { throw fail(tag.offset, "<date/> holds no date") }
            return .date(try date(try readText(tag, element)))
        case .key:
            throw fail(tag.offset, "<key> outside a <dict>, or where a value was expected")
        case .plist:
            throw fail(tag.offset, "<plist> nested inside <plist>")
        }
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

/// A string key compared and hashed by its exact Unicode scalars (not canonical equivalence).
struct ExactKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: ExactKey, b: ExactKey) -> Bool { PlistValue.exactlyEqual(a.text, b.text) }
    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for b in text.utf8 { hasher.combine(b) }
    }
}
