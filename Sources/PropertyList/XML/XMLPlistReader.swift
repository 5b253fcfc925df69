// Sources/PropertyList/XML/XMLPlistReader.swift - A strict, dependency-free parser for XML property lists.
//
// Using format information from the public PropertyList-1.0.dtd and CoreFoundation's CFPropertyList.c
// (what it writes and what it accepts). The parser is a byte scanner over the input, borrowed in place
// (`XMLInput`, no copy of UTF-8 input): one pass, an explicit stack of open containers (never the call
// stack), and text copied only when it holds entities, CDATA sections or comments
// (XMLTextContent.swift). The public API is in XMLPlist.swift; UTF-16 and UTF-32 input is transcoded
// to UTF-8 first (PlistSniffer.swift).
//
// Two paths over the same grammar. The fast path (`parseValue`) reads the layout every writer
// produces: a tag in its exact form (`<string>`, `</dict>`, …), text up to the next `<` or `&`
// (found 16 bytes at a time), the matching end tag. Anything else, and every error, goes to the
// general path (`generalStep`, XMLPlistTags.swift) from the start of that tag, so both paths accept
// the same documents and report the same errors.

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
    @inline(__always) static func packedName(_ bytes: XMLInput, _ range: Range<Int>) -> UInt64 {
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
    static func named(_ bytes: XMLInput, _ range: Range<Int>) -> XMLPlistElement? {
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

/// Tags in their exact form as little-endian words of their first eight bytes (first byte lowest), and
/// masks for the shorter ones: the fast path compares a word loaded at `<` with these.
enum XMLTagWord {
    static let mask5: UInt64 = 0xFF_FFFF_FFFF
    static let mask6: UInt64 = 0xFFFF_FFFF_FFFF
    static let mask7: UInt64 = 0xFF_FFFF_FFFF_FFFF

    static let closeDict: UInt64 = 0x3e_7463_6964_2f3c  // "</dict>", mask7
    static let closeArray: UInt64 = 0x3e79_6172_7261_2f3c  // "</array>"
    static let key: UInt64 = 0x3e_7965_6b3c  // "<key>", mask5
    static let closeKey: UInt64 = 0x3e79_656b_2f3c  // "</key>", mask6
    static let string: UInt64 = 0x3e67_6e69_7274_733c  // "<string>"
    static let closeString: UInt64 = 0x676e_6972_7473_2f3c  // "</string", then '>'
    static let integer: UInt64 = 0x7265_6765_746e_693c  // "<integer", then '>'
    static let closeInteger: UInt64 = 0x6567_6574_6e69_2f3c  // "</intege", then "r>"
    static let real: UInt64 = 0x3e6c_6165_723c  // "<real>", mask6
    static let closeReal: UInt64 = 0x3e_6c61_6572_2f3c  // "</real>", mask7
    static let `true`: UInt64 = 0x3e_2f65_7572_743c  // "<true/>", mask7
    static let `false`: UInt64 = 0x3e2f_6573_6c61_663c  // "<false/>"
    static let dict: UInt64 = 0x3e74_6369_643c  // "<dict>", mask6
    static let emptyDict: UInt64 = 0x3e_2f74_6369_643c  // "<dict/>", mask7
    static let array: UInt64 = 0x3e_7961_7272_613c  // "<array>", mask7
    static let emptyArray: UInt64 = 0x3e2f_7961_7272_613c  // "<array/>"
    static let data: UInt64 = 0x3e61_7461_643c  // "<data>", mask6
    static let date: UInt64 = 0x3e65_7461_643c  // "<date>", mask6
    static let closeData: UInt64 = 0x3e_6174_6164_2f3c  // "</data>", mask7
    static let closeDate: UInt64 = 0x3e_6574_6164_2f3c  // "</date>", mask7
}

/// A start tag just read.
struct XMLStartTag {
    /// Offset of its `<`.
    var offset: Int
    /// The byte range of its name.
    var name: Range<Int>
    /// `<name/>`.
    var isEmpty: Bool

    /// The tag `<element>` at `offset`, as the fast path read it (no attributes, no whitespace).
    init(_ element: XMLPlistElement, at offset: Int) {
        self.offset = offset
        name = offset + 1..<offset + 1 + element.rawValue.utf8.count
        isEmpty = false
    }

    init(offset: Int, name: Range<Int>, isEmpty: Bool) {
        self.offset = offset
        self.name = name
        self.isEmpty = isEmpty
    }
}

/// The text content of an element: a range of the input when it held no markup, else the decoded bytes.
struct XMLText {
    /// The decoded bytes when the content held entities, CDATA sections or comments; nil: `range`.
    var decoded: [UInt8]?
    /// The content's bytes in the input (when `decoded` is nil).
    var range: Range<Int>
    /// Offset of the first content byte in the input.
    var start: Int

    /// True when the text is `range` of the input, so its positions are input offsets.
    var isInput: Bool { decoded == nil }

    init(input range: Range<Int>) {
        decoded = nil
        self.range = range
        start = range.lowerBound
    }

    init(decoded: [UInt8], start: Int) {
        self.decoded = decoded
        range = start..<start
        self.start = start
    }
}

/// One open container on the explicit stack. Its elements (or entries) are the end of its sink's
/// shared stacks of elements (or keys and values) from `start` on, so no container owns a growing
/// array.
struct XMLFrame {
    var isDictionary: Bool
    /// Offset of the start tag's `<`.
    var offset: Int
    /// Where its elements (or keys) begin in the shared stacks, and its values (a dictionary's: the
    /// keys waiting in the dictionaries around it have no value yet).
    var start: Int
    var valueStart: Int
    /// A dictionary key was read (the last of `entryKeys`) and waits for its value; its tag's offset.
    var hasKey = false
    var pendingKeyOffset = 0
}

/// The reader of one XML document, writing what it reads into `sink` (a tree, or a Codable decode's
/// tape: XMLValueSink.swift).
struct XMLPlistReader<Sink: XMLValueSink> {
    let bytes: XMLInput
    let limits: PlistLimits
    var i = 0
    var nodes = 0
    /// Set when the input was transcoded from UTF-16 or UTF-32: its declaration names that encoding.
    var ignoresDeclaredEncoding = false
    /// Read `<date>` fields past their range as CoreFoundation does (``PlistReadOptions/normalizesDates``).
    var normalizesDates = false
    /// The open containers, innermost last.
    var frames: [XMLFrame] = []
    /// What the values become.
    var sink: Sink

    init(bytes: XMLInput, limits: PlistLimits, sink: Sink) {
        self.bytes = bytes
        self.limits = limits
        self.sink = sink
    }

    var n: Int { bytes.count }

    /// The byte at `k`, or 0 past the end (0 never matches any structural byte we look for).
    @inline(__always) func byte(_ k: Int) -> UInt8 { bytes.byte(k) }

    /// Whether the input at `k` starts with `literal`.
    func has(_ literal: String, at k: Int) -> Bool {
        var j = k
        for c in literal.utf8 {
            guard j < n, byte(j) == c else { return false }
            j += 1
        }
        return true
    }

    // MARK: Values

    /// Parses one value whose start tag begins at `i`, with an explicit stack for containers.
    mutating func parseValue() throws(PlistError) -> Sink.Value {
        let tag = try readStartTag()
        if let frame = try openContainer(tag, depth: 0) {
            frames.append(frame)
        } else {
            let value = try scalar(tag)
            try countNode()
            return value
        }
        while true {
            let top = frames.count - 1
            var value: Sink.Value? = nil
            // The fast path: whitespace, then a tag in its exact form.
            while XMLScan.isWhitespace(byte(i)) { i += 1 }
            let start = i
            var handled = false
            if byte(i) == UInt8(ascii: "<") {
                handled = try fastStep(top, &value)
            }
            if !handled {
                i = start
                value = try generalStep(top)
            }
            guard let value = value.take() else { continue }
            try countNode()
            let parent = frames.count - 1
            guard parent >= 0 else { return value }
            attach(value, to: parent)
        }
    }

    /// One more value: checked against ``PlistLimits/maxValues``.
    @inline(__always)
    mutating func countNode() throws(PlistError) {
        nodes += 1
        guard nodes <= limits.maxValues else {
            throw PlistError(.limitExceeded, offset: i, "\(lineColumn(i)): more than \(limits.maxValues) values")
        }
    }

    /// Adds a finished value to the open container `parent` (after its key, in a dictionary).
    @inline(__always)
    mutating func attach(_ value: consuming Sink.Value, to parent: Int) {
        let isDictionary = frames[parent].isDictionary
        // A dictionary's loop reads a key (pushed on the sink) before every value.
        sink.attach(value, inDictionary: isDictionary)
        if isDictionary { frames[parent].hasKey = false }
    }

    /// Notes that the open dictionary `top` has a key, read at `offset`, waiting for its value.
    @inline(__always)
    mutating func keyPushed(top: Int, at offset: Int) {
        frames[top].hasKey = true
        frames[top].pendingKeyOffset = offset
    }

    /// The error for text at `r` that is not valid UTF-8, at its first bad byte.
    func invalidUTF8(_ r: Range<Int>) -> PlistError {
        fail(XMLScan.firstInvalidUTF8(bytes[r]) ?? r.lowerBound, "invalid UTF-8")
    }

    /// The string `bytes[r]`, made by the sink.
    @inline(__always)
    mutating func stringValue(_ r: Range<Int>, ascii: Bool) throws(PlistError) -> Sink.Value {
        guard let value = sink.string(r, ascii: ascii, in: bytes) else { throw invalidUTF8(r) }
        return value
    }

    /// The fast path at a `<` inside the open container `top`: a close tag, a key, or a value in the
    /// exact form, read whole. Returns false, having consumed nothing that matters (the caller rewinds
    /// `i`), for anything else. `value` is set when a value was read (nil: a key, or a container opened).
    @inline(__always)
    mutating func fastStep(_ top: Int, _ value: inout Sink.Value?) throws(PlistError) -> Bool {
        let at = i
        let w = bytes.word(at)
        let second = UInt8(truncatingIfNeeded: w >> 8)
        let isDictionary = frames[top].isDictionary
        if second == UInt8(ascii: "/") {
            if isDictionary {
                guard !frames[top].hasKey, w & XMLTagWord.mask7 == XMLTagWord.closeDict else { return false }
                i = at + 7
                value = try finishDictionary(frames.removeLast())
            } else {
                guard w == XMLTagWord.closeArray else { return false }
                i = at + 8
                value = sink.finishArray(itemsFrom: frames.removeLast().start)
            }
            return true
        }
        if isDictionary && !frames[top].hasKey {
            guard w & XMLTagWord.mask5 == XMLTagWord.key else { return false }
            let contentStart = at + 5
            let (end, ascii) = bytes.scanText(from: contentStart)
            guard bytes.word(end) & XMLTagWord.mask6 == XMLTagWord.closeKey else { return false }
            guard sink.pushKey(contentStart..<end, ascii: ascii, in: bytes) else {
                throw invalidUTF8(contentStart..<end)
            }
            i = end + 6
            keyPushed(top: top, at: at)
            return true
        }
        switch second {
        case UInt8(ascii: "s"):
            guard w == XMLTagWord.string else { return false }
            let contentStart = at + 8
            let (end, ascii) = bytes.scanText(from: contentStart)
            guard bytes.word(end) == XMLTagWord.closeString, byte(end + 8) == UInt8(ascii: ">") else { return false }
            value = try stringValue(contentStart..<end, ascii: ascii)
            i = end + 9
        case UInt8(ascii: "i"):
            guard w == XMLTagWord.integer, byte(at + 8) == UInt8(ascii: ">"),
                let (v, end) = fastInteger(from: at + 9)
            else { return false }
            value = sink.integer(v)
            i = end
        case UInt8(ascii: "r"):
            guard w & XMLTagWord.mask6 == XMLTagWord.real, let (d, end) = fastReal(from: at + 6) else { return false }
            value = sink.real(d)
            i = end
        case UInt8(ascii: "t"):
            guard w & XMLTagWord.mask7 == XMLTagWord.true else { return false }
            value = sink.bool(true)
            i = at + 7
        case UInt8(ascii: "f"):
            guard w == XMLTagWord.false else { return false }
            value = sink.bool(false)
            i = at + 8
        case UInt8(ascii: "d"):
            if w & XMLTagWord.mask6 == XMLTagWord.dict {
                try open(isDictionary: true, at: at)
                i = at + 6
            } else if w & XMLTagWord.mask7 == XMLTagWord.emptyDict {
                value = sink.emptyDictionary()
                i = at + 7
            } else if w & XMLTagWord.mask6 == XMLTagWord.data {
                let contentStart = at + 6
                let end = bytes.endOfText(from: contentStart)
                guard bytes.word(end) & XMLTagWord.mask7 == XMLTagWord.closeData else { return false }
                if let fast = bytes.base64(contentStart..<end) {
                    value = sink.data(fast)
                } else {
                    value = sink.data(try base64(XMLText(input: contentStart..<end)))
                }
                i = end + 7
            } else if w & XMLTagWord.mask6 == XMLTagWord.date {
                let contentStart = at + 6
                let end = bytes.endOfText(from: contentStart)
                guard bytes.word(end) & XMLTagWord.mask7 == XMLTagWord.closeDate else { return false }
                value = sink.date(try date(XMLText(input: contentStart..<end)))
                i = end + 7
            } else {
                return false
            }
        case UInt8(ascii: "a"):
            if w & XMLTagWord.mask7 == XMLTagWord.array {
                try open(isDictionary: false, at: at)
                i = at + 7
            } else if w == XMLTagWord.emptyArray {
                value = sink.emptyArray()
                i = at + 8
            } else {
                return false
            }
        default:
            return false
        }
        return true
    }

    /// `[-]` and 1 to 19 decimal digits, then `</integer>`: the value and the offset after the end tag.
    @inline(__always)
    func fastInteger(from start: Int) -> (PlistInteger, Int)? {
        var k = start
        let negative = byte(k) == UInt8(ascii: "-")
        if negative { k += 1 }
        let digitsStart = k
        var v: UInt64 = 0
        while k - digitsStart < 19 {
            let d = byte(k) &- UInt8(ascii: "0")
            guard d < 10 else { break }
            v = v &* 10 &+ UInt64(d)
            k += 1
        }
        // 19 digits or fewer fit in UInt64.
        guard k > digitsStart, bytes.word(k) == XMLTagWord.closeInteger, byte(k + 8) == UInt8(ascii: "r"),
            byte(k + 9) == UInt8(ascii: ">")
        else { return nil }
        let value: PlistInteger
        if v <= UInt64(Int64.max) {
            value = PlistInteger(negative ? -Int64(v) : Int64(v))
        } else {
            value = PlistInteger(negative ? -Int128(v) : Int128(v))
        }
        return (value, k + 10)
    }

    /// A decimal real read exactly by `XMLNumbers.parseDouble`, then `</real>`.
    @inline(__always)
    func fastReal(from start: Int) -> (Double, Int)? {
        guard let (d, end) = XMLNumbers.parseDouble(bytes, from: start),
            bytes.word(end) & XMLTagWord.mask7 == XMLTagWord.closeReal
        else { return nil }
        return (d, end + 7)
    }

    /// A new frame for a container whose start tag is at `offset`, after the depth check.
    @inline(__always)
    mutating func open(isDictionary: Bool, at offset: Int) throws(PlistError) {
        guard frames.count < limits.maxDepth else {
            throw PlistError(
                .limitExceeded, offset: offset,
                "\(lineColumn(offset)): nesting deeper than \(limits.maxDepth) containers")
        }
        frames.append(
            XMLFrame(
                isDictionary: isDictionary, offset: offset, start: isDictionary ? sink.keyCount : sink.itemCount,
                valueStart: sink.valueCount))
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
        let isDictionary = element == .dict
        return XMLFrame(
            isDictionary: isDictionary, offset: tag.offset, start: isDictionary ? sink.keyCount : sink.itemCount,
            valueStart: sink.valueCount)
    }

    /// Builds a dictionary (or a UID from a `CF$UID` dictionary) from a closed frame.
    @inline(__always)
    mutating func finishDictionary(_ frame: XMLFrame) throws(PlistError) -> Sink.Value {
        if let uid = sink.uidCandidate(keysFrom: frame.start, valuesFrom: frame.valueStart) {
            let u = try uidValue(uid, at: frame.offset)
            return sink.finishUID(u, keysFrom: frame.start, valuesFrom: frame.valueStart)
        }
        return sink.finishDictionary(keysFrom: frame.start, valuesFrom: frame.valueStart, in: bytes)
    }

    /// The UID a `CF$UID` dictionary at `offset` holds: its integer, within the limit.
    func uidValue(_ uid: PlistInteger, at offset: Int) throws(PlistError) -> UInt64 {
        guard uid >= 0 else { throw fail(offset, "CF$UID \(uid) is negative") }
        guard let u = uid.uint64, u <= limits.maxUID else {
            throw PlistError(
                .limitExceeded, offset: offset,
                "\(lineColumn(offset)): CF$UID \(uid) is above the limit \(limits.maxUID)")
        }
        return u
    }
}
