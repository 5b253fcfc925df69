// Sources/PropertyList/XML/XMLPlistReader.swift - A strict, dependency-free parser for XML property lists.
//
// Using format information from the public PropertyList-1.0.dtd and CoreFoundation's CFPropertyList.c
// (what it writes and what it accepts). The parser is a byte scanner over the UTF-8 input: one
// pass, an explicit stack of open containers (never the call stack), and text copied only when it
// holds entities, CDATA sections or comments (XMLTextContent.swift). The public API is in
// XMLPlist.swift; UTF-16 and UTF-32 input is transcoded to UTF-8 first (PlistSniffer.swift).

internal import FoundationEssentials

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
            guard nodes <= limits.maxNodes else {
                throw PlistError(
                    .limitExceeded, offset: i, "\(lineColumn(i)): more than \(limits.maxNodes) values")
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

    // MARK: Scalars

    /// The offset to report for position `k` of `text`.
    func offset(_ k: Int, in text: XMLText) -> Int { text.isInput ? k : text.start }

    /// The text without leading and trailing XML whitespace.
    func trimmed(_ text: XMLText) -> Range<Int> {
        var lo = text.bytes.startIndex
        var hi = text.bytes.endIndex
        while lo < hi && XMLScan.isWhitespace(text.bytes[lo]) { lo += 1 }
        while hi > lo && XMLScan.isWhitespace(text.bytes[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// `[+-]` then decimal digits or `0x` and hex digits, exact in `Int128`.
    func integer(_ text: XMLText) throws(PlistError) -> Int128 {
        let t = text.bytes
        let r = trimmed(text)
        var k = r.lowerBound
        guard k < r.upperBound else { throw fail(offset(k, in: text), "<integer> holds no number") }
        var negative = false
        if t[k] == UInt8(ascii: "-") || t[k] == UInt8(ascii: "+") {
            negative = t[k] == UInt8(ascii: "-")
            k += 1
        }
        var radix: UInt128 = 10
        if k + 1 < r.upperBound, t[k] == UInt8(ascii: "0"),
            t[k + 1] == UInt8(ascii: "x") || t[k + 1] == UInt8(ascii: "X")
        {
            radix = 16
            k += 2
        }
        guard k < r.upperBound else { throw fail(offset(k, in: text), "<integer> has no digits") }
        var magnitude: UInt128 = 0
        while k < r.upperBound {
            let b = t[k]
            let d: UInt128
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt128(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: d = UInt128(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: d = UInt128(b - UInt8(ascii: "A") + 10)
            default: throw fail(offset(k, in: text), "unexpected \(describeByte(b)) in <integer>")
            }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(d)
            guard !o1, !o2 else { throw fail(offset(r.lowerBound, in: text), "<integer> does not fit in 128 bits") }
            magnitude = s
            k += 1
        }
        let limit = UInt128(Int128.max)
        if negative {
            guard magnitude <= limit + 1 else {
                throw fail(offset(r.lowerBound, in: text), "<integer> is below the signed 128-bit range")
            }
            return magnitude == limit + 1 ? Int128.min : -Int128(magnitude)
        }
        guard magnitude <= limit else {
            throw fail(offset(r.lowerBound, in: text), "<integer> is above the signed 128-bit range")
        }
        return Int128(magnitude)
    }

    /// Decimal text, or `nan`, `inf`, `infinity` (signed, any case).
    func real(_ text: XMLText) throws(PlistError) -> Double {
        let r = trimmed(text)
        let t = text.bytes[r]
        let at = offset(r.lowerBound, in: text)
        guard !t.isEmpty, t.count <= 64 else {
            throw fail(at, t.isEmpty ? "<real> holds no number" : "<real> text too long")
        }
        var body = t[...]
        var negative = false
        if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        let notANumber = { () -> PlistError in
            self.fail(at, "<real> is not a number: \"\(String(decoding: t, as: UTF8.self))\"")
        }
        if let first = body.first, first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "i") {
            // ASCII lower case by setting bit 5 (letters only are compared).
            let word = String(decoding: body.map { $0 | 0x20 }, as: UTF8.self)
            switch word {
            case "nan": return negative ? -Double.nan : .nan
            case "inf", "infinity": return negative ? -.infinity : .infinity
            default: throw notANumber()
            }
        }
        // Decimal only: digits, one optional point, an optional exponent; no hex floats.
        var sawDigit = false
        var sawPoint = false
        var sawExponent = false
        var previous: UInt8 = 0
        for b in body {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: ".") where !sawPoint && !sawExponent: sawPoint = true
            case UInt8(ascii: "e") where sawDigit && !sawExponent, UInt8(ascii: "E") where sawDigit && !sawExponent:
                sawExponent = true
            case UInt8(ascii: "+") where previous | 0x20 == UInt8(ascii: "e"),
                UInt8(ascii: "-") where previous | 0x20 == UInt8(ascii: "e"):
                break
            default: throw notANumber()
            }
            previous = b
        }
        guard let d = Double(String(decoding: body, as: UTF8.self)) else { throw notANumber() }
        return negative ? -d : d
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (UTC), the year optionally negative and of 1 to 9 digits
    /// (`PlistISO8601`, shared with canonical JSON).
    func date(_ text: XMLText) throws(PlistError) -> Date {
        let r = trimmed(text)
        switch PlistISO8601.parse(text.bytes[r], .xml) {
        case .seconds(let x):
            return Date(timeIntervalSinceReferenceDate: x)
        case .outOfRange:
            throw fail(offset(r.lowerBound, in: text), "<date> has a field out of range")
        case .malformed:
            throw fail(
                offset(r.lowerBound, in: text),
                "<date> is not YYYY-MM-DDTHH:MM:SSZ: \"\(String(decoding: text.bytes[r], as: UTF8.self))\"")
        }
    }

    /// Base64 with whitespace anywhere; padding optional but, when present, correct.
    func base64(_ text: XMLText) throws(PlistError) -> Data {
        let t = text.bytes
        var out: [UInt8] = []
        out.reserveCapacity(t.count / 4 * 3 + 3)
        var quantum: UInt32 = 0
        var sextets = 0
        var total = 0
        var padding = 0
        var k = t.startIndex
        while k < t.endIndex {
            let b = t[k]
            if XMLScan.isWhitespace(b) {
                k += 1
                continue
            }
            if b == UInt8(ascii: "=") {
                padding += 1
                guard padding <= 2, sextets >= 2 else { throw fail(offset(k, in: text), "misplaced '=' in <data>") }
                k += 1
                continue
            }
            let v = XMLScan.base64Value(b)
            guard v >= 0 else { throw fail(offset(k, in: text), "\(describeByte(b)) is not base64 in <data>") }
            guard padding == 0 else { throw fail(offset(k, in: text), "base64 continues after '=' padding in <data>") }
            quantum = quantum << 6 | UInt32(v)
            sextets += 1
            total += 1
            if sextets == 4 {
                out.append(UInt8(truncatingIfNeeded: quantum >> 16))
                out.append(UInt8(truncatingIfNeeded: quantum >> 8))
                out.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
                sextets = 0
            }
            k += 1
        }
        switch sextets {
        case 0:
            guard padding == 0 else { throw fail(offset(t.endIndex, in: text), "misplaced '=' in <data>") }
        case 2:
            guard padding == 0 || padding == 2 else {
                throw fail(offset(t.endIndex, in: text), "wrong '=' padding in <data>")
            }
            out.append(UInt8(truncatingIfNeeded: quantum >> 4))
        case 3:
            guard padding <= 1 else { throw fail(offset(t.endIndex, in: text), "wrong '=' padding in <data>") }
            out.append(UInt8(truncatingIfNeeded: quantum >> 10))
            out.append(UInt8(truncatingIfNeeded: quantum >> 2))
        default:
            throw fail(offset(t.endIndex, in: text), "base64 in <data> ends with a lone character (\(total) in all)")
        }
        return Data(out)
    }

    // MARK: Skipping

    mutating func skipWhitespace() {
        while i < n && XMLScan.isWhitespace(bytes[i]) { i += 1 }
    }

    /// Whitespace, comments and processing instructions between elements.
    mutating func skipMisc() throws(PlistError) {
        while true {
            skipWhitespace()
            guard byte(i) == UInt8(ascii: "<") else { return }
            let next = byte(i + 1)
            if next == UInt8(ascii: "!") && has("<!--", at: i) {
                try skipComment()
            } else if next == UInt8(ascii: "?") {
                try skipProcessingInstruction()
            } else {
                return
            }
        }
    }

    /// `<!-- … -->` at `i`.
    mutating func skipComment() throws(PlistError) {
        let start = i
        i += 4
        while i < n && !(bytes[i] == UInt8(ascii: "-") && has("-->", at: i)) { i += 1 }
        guard i < n else { throw fail(i, "unterminated comment (opened at \(lineColumn(start)))") }
        i += 3
    }

    /// `<? … ?>` at `i`; an XML declaration must name UTF-8 (or ASCII) if it names an encoding.
    mutating func skipProcessingInstruction() throws(PlistError) {
        let start = i
        i += 2
        while i < n && !(bytes[i] == UInt8(ascii: "?") && byte(i + 1) == UInt8(ascii: ">")) { i += 1 }
        guard i < n else { throw fail(i, "unterminated processing instruction (opened at \(lineColumn(start)))") }
        let bodyEnd = i
        i += 2
        // Only the XML declaration matters: `<?xml` then whitespace.
        guard !ignoresDeclaredEncoding, has("<?xml", at: start), XMLScan.isWhitespace(byte(start + 5)) else { return }
        var k = start + 5
        while k + 8 <= bodyEnd && !has("encoding", at: k) { k += 1 }
        guard k + 8 <= bodyEnd else { return }
        k += 8
        while k < bodyEnd && (XMLScan.isWhitespace(bytes[k]) || bytes[k] == UInt8(ascii: "=")) { k += 1 }
        let quote = byte(k)
        guard k < bodyEnd, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return }
        k += 1
        let valueStart = k
        while k < bodyEnd && bytes[k] != quote { k += 1 }
        let encoding = String(decoding: bytes[valueStart..<k], as: UTF8.self).lowercased()
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
            throw fail(start, "unsupported encoding \"\(encoding)\"; XML property lists are read as UTF-8")
        }
    }

    /// `<!DOCTYPE …>` at `i`. An internal subset (`[` … `]`) is an error, as in CoreFoundation
    /// (whose `skipDTD` stops at `[` and then requires `>`): its declarations could define entities
    /// that neither reader expands, so a file that needs them reads nowhere.
    mutating func skipDoctype() throws(PlistError) {
        let start = i
        i += 9
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                i += 1
                while i < n && bytes[i] != b { i += 1 }
            } else if b == UInt8(ascii: "[") {
                throw fail(i, "a <!DOCTYPE> with an internal subset ([…]) is not read (nor by CoreFoundation)")
            } else if b == UInt8(ascii: ">") {
                i += 1
                return
            }
            i += 1
        }
        throw fail(n, "unterminated <!DOCTYPE> (opened at \(lineColumn(start)))")
    }

    // MARK: Errors

    func name(_ range: Range<Int>) -> String {
        let r = max(0, min(range.lowerBound, n))..<max(0, min(range.upperBound, n, range.lowerBound + 64))
        return String(decoding: bytes[r], as: UTF8.self)
    }

    func describe(_ k: Int) -> String { TextPosition.describe(bytes, k) }

    func describeByte(_ b: UInt8) -> String { TextPosition.describe(b) }

    /// `line L, column C` of a byte offset (lines end at LF, CR or CRLF; columns count scalars).
    func lineColumn(_ offset: Int) -> String { TextPosition.lineColumn(bytes, offset) }

    func fail(_ offset: Int, _ detail: String) -> PlistError {
        PlistError(.syntax, offset: offset, "\(lineColumn(offset)): \(detail)")
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
