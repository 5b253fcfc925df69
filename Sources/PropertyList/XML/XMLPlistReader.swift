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

/// One open container on the explicit stack. Its elements (or entries) are the end of the reader's
/// shared `items` (or `entryKeys`/`entryValues`) stacks from `start` on, so no container owns a
/// growing array.
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

struct XMLPlistReader {
    let bytes: XMLInput
    let limits: PlistLimits
    /// The buffer long strings are sliced from (the caller's UTF-8 `Data`), and the offset of `bytes`'
    /// first byte in it; nil when the input was transcoded (strings are then owned).
    let source: StringSource?
    let sourceBase: Int
    var i = 0
    var nodes = 0
    /// Set when the input was transcoded from UTF-16 or UTF-32: its declaration names that encoding.
    var ignoresDeclaredEncoding = false
    /// Read `<date>` fields past their range as CoreFoundation does (``PlistReadOptions/normalizesDates``).
    var normalizesDates = false
    /// The open containers, innermost last.
    var frames: [XMLFrame] = []
    /// The elements of the open arrays, each array's from its frame's `start` on.
    var items: [PlistValue] = []
    /// The entries of the open dictionaries (keys, the hash of each key's bytes, values); a key waiting
    /// for its value is the last key.
    var entryKeys: [PlistString] = []
    var keyHashes: [UInt64] = []
    var entryValues: [PlistValue] = []
    /// Short strings made so far, found again by their bytes.
    var cache = XMLStringCache()

    init(bytes: XMLInput, limits: PlistLimits, source: StringSource? = nil, sourceBase: Int = 0) {
        self.bytes = bytes
        self.limits = limits
        self.source = source
        self.sourceBase = sourceBase
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
    mutating func parseValue() throws(PlistError) -> PlistValue {
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
            var value: PlistValue? = nil
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
            guard let value else { continue }
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
    mutating func attach(_ value: PlistValue, to parent: Int) {
        if frames[parent].isDictionary {
            // A dictionary's loop reads a key (pushed on `entryKeys`) before every value.
            entryValues.append(value)
            frames[parent].hasKey = false
        } else {
            items.append(value)
        }
    }

    /// Pushes the key read at `offset` for the open dictionary `top`.
    @inline(__always)
    mutating func pushKey(_ key: PlistString, hash: UInt64, top: Int, at offset: Int) {
        entryKeys.append(key)
        keyHashes.append(hash)
        frames[top].hasKey = true
        frames[top].pendingKeyOffset = offset
    }

    /// The fast path at a `<` inside the open container `top`: a close tag, a key, or a value in the
    /// exact form, read whole. Returns false, having consumed nothing that matters (the caller rewinds
    /// `i`), for anything else. `value` is set when a value was read (nil: a key, or a container opened).
    @inline(__always)
    mutating func fastStep(_ top: Int, _ value: inout PlistValue?) throws(PlistError) -> Bool {
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
                value = finishArray(frames.removeLast())
            }
            return true
        }
        if isDictionary && !frames[top].hasKey {
            guard w & XMLTagWord.mask5 == XMLTagWord.key else { return false }
            let contentStart = at + 5
            let (end, ascii) = bytes.scanText(from: contentStart)
            guard bytes.word(end) & XMLTagWord.mask6 == XMLTagWord.closeKey else { return false }
            let (key, hash) = try cachedString(contentStart..<end, ascii: ascii)
            i = end + 6
            pushKey(key, hash: hash, top: top, at: at)
            return true
        }
        switch second {
        case UInt8(ascii: "s"):
            guard w == XMLTagWord.string else { return false }
            let contentStart = at + 8
            let (end, ascii) = bytes.scanText(from: contentStart)
            guard bytes.word(end) == XMLTagWord.closeString, byte(end + 8) == UInt8(ascii: ">") else { return false }
            value = .string(try string(inputRange: contentStart..<end, ascii: ascii))
            i = end + 9
        case UInt8(ascii: "i"):
            guard w == XMLTagWord.integer, byte(at + 8) == UInt8(ascii: ">"),
                let (v, end) = fastInteger(from: at + 9)
            else { return false }
            value = .integer(v)
            i = end
        case UInt8(ascii: "r"):
            guard w & XMLTagWord.mask6 == XMLTagWord.real, let (d, end) = fastReal(from: at + 6) else { return false }
            value = .real(d)
            i = end
        case UInt8(ascii: "t"):
            guard w & XMLTagWord.mask7 == XMLTagWord.true else { return false }
            value = .bool(true)
            i = at + 7
        case UInt8(ascii: "f"):
            guard w == XMLTagWord.false else { return false }
            value = .bool(false)
            i = at + 8
        case UInt8(ascii: "d"):
            if w & XMLTagWord.mask6 == XMLTagWord.dict {
                try open(isDictionary: true, at: at)
                i = at + 6
            } else if w & XMLTagWord.mask7 == XMLTagWord.emptyDict {
                value = .dictionary(PlistDictionary())
                i = at + 7
            } else if w & XMLTagWord.mask6 == XMLTagWord.data {
                let contentStart = at + 6
                let end = bytes.endOfText(from: contentStart)
                guard bytes.word(end) & XMLTagWord.mask7 == XMLTagWord.closeData else { return false }
                if let fast = bytes.base64(contentStart..<end) {
                    value = .data(fast)
                } else {
                    value = .data(try base64(XMLText(input: contentStart..<end)))
                }
                i = end + 7
            } else if w & XMLTagWord.mask6 == XMLTagWord.date {
                let contentStart = at + 6
                let end = bytes.endOfText(from: contentStart)
                guard bytes.word(end) & XMLTagWord.mask7 == XMLTagWord.closeDate else { return false }
                value = .date(try date(XMLText(input: contentStart..<end)))
                i = end + 7
            } else {
                return false
            }
        case UInt8(ascii: "a"):
            if w & XMLTagWord.mask7 == XMLTagWord.array {
                try open(isDictionary: false, at: at)
                i = at + 7
            } else if w == XMLTagWord.emptyArray {
                value = .array([])
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
                isDictionary: isDictionary, offset: offset, start: isDictionary ? entryKeys.count : items.count,
                valueStart: entryValues.count))
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
            isDictionary: isDictionary, offset: tag.offset, start: isDictionary ? entryKeys.count : items.count,
            valueStart: entryValues.count)
    }

    /// The array of a closed frame: its elements, taken off the shared stack.
    mutating func finishArray(_ frame: XMLFrame) -> PlistValue {
        guard frame.start > 0 else {
            // Every element on the stack is this array's (the outermost array with elements, typically
            // the root's): the stack itself becomes the array, with no copy of its elements.
            let elements = items
            items = []
            return .array(elements)
        }
        return .array(XMLPlistReader.takeSuffix(of: &items, from: frame.start))
    }

    /// The elements of `stack` from `start` on, moved off it in order (each swapped for `.null`, then the
    /// nulls removed): no element is copied, where a copy and the removal of the original were a retain
    /// and a release of each.
    static func takeSuffix(of stack: inout [PlistValue], from start: Int) -> [PlistValue] {
        var taken: [PlistValue] = []
        taken.reserveCapacity(stack.count &- start)
        for k in start..<stack.count { taken.append(take(&stack[k], leaving: .null)) }
        stack.removeSubrange(start...)
        return taken
    }

    /// `x`, moved out, with `empty` (a value without storage) left in its place.
    @inline(__always)
    static func take<T>(_ x: inout T, leaving empty: T) -> T {
        var out = empty
        swap(&x, &out)
        return out
    }

    /// Builds a dictionary (or a UID from a `CF$UID` dictionary) from a closed frame.
    ///
    /// A repeated key keeps its first position and its last value. Keys are compared by the hash of
    /// their bytes first (pairwise up to 12 entries, in a set beyond), so hostile input stays O(n);
    /// only when two hashes agree are the entries merged by exact text.
    mutating func finishDictionary(_ frame: XMLFrame) throws(PlistError) -> PlistValue {
        let start = frame.start
        let end = entryKeys.count
        // The common UID, one CF$UID entry with an integer, without making a dictionary first (an
        // archive holds one per reference). A repeated CF$UID key goes the general way, below.
        if end &- start == 1, case .integer(let uid) = entryValues[frame.valueStart],
            XMLPlistReader.isUIDKey(entryKeys[start])
        {
            let u = try uidValue(uid, at: frame.offset)
            entryKeys.removeLast()
            keyHashes.removeLast()
            entryValues.removeLast()
            return .uid(u)
        }
        var repeated = false
        if end - start <= 12 {
            var a = start + 1
            while a < end && !repeated {
                let h = keyHashes[a]
                for b in start..<a where keyHashes[b] == h {
                    repeated = true
                    break
                }
                a += 1
            }
        } else {
            var seen = Set<UInt64>(minimumCapacity: end - start)
            for k in start..<end where !seen.insert(keyHashes[k]).inserted {
                repeated = true
                break
            }
        }
        var result: [PlistDictionary.Element] = []
        result.reserveCapacity(end - start)
        let shift = frame.valueStart - start
        // Keys and values are moved out, empty ones left in their place (copying them, then removing the
        // originals, was a retain and a release of each).
        for k in start..<end {
            let key = XMLPlistReader.take(&entryKeys[k], leaving: PlistString(""))
            result.append((.string(key), XMLPlistReader.take(&entryValues[k + shift], leaving: .null)))
        }
        entryKeys.removeSubrange(start...)
        keyHashes.removeSubrange(start...)
        entryValues.removeSubrange(frame.valueStart...)
        if repeated { result = XMLPlistReader.mergingRepeatedKeys(result) }
        // <dict><key>CF$UID</key><integer>n</integer></dict> is a UID, as in CoreFoundation.
        if result.count == 1, case .string(let key) = result[0].key, XMLPlistReader.isUIDKey(key),
            case .integer(let uid) = result[0].value
        {
            return .uid(try uidValue(uid, at: frame.offset))
        }
        return .dictionary(PlistDictionary(uniqueEntries: result))
    }

    /// Whether `key` is `CF$UID`, byte by byte (`==` with a literal goes through a general comparison
    /// costing a few hundred instructions, once per UID of an archive).
    @inline(__always)
    static func isUIDKey(_ key: PlistString) -> Bool {
        key.withUTF8Span { s in
            s.count == 6 && s[0] == 0x43 && s[1] == 0x46 && s[2] == 0x24 && s[3] == 0x55 && s[4] == 0x49
                && s[5] == 0x44
        }
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

    /// Entries with each repeated key (exact text) kept once, at its first position, with its last value.
    static func mergingRepeatedKeys(_ all: [PlistDictionary.Element]) -> [PlistDictionary.Element] {
        var positions: [PlistString: Int] = [:]
        positions.reserveCapacity(all.count)
        var kept: [PlistDictionary.Element] = []
        kept.reserveCapacity(all.count)
        for entry in all {
            guard case .string(let key) = entry.key else { continue }
            if let j = positions[key] {
                kept[j].value = entry.value
            } else {
                positions[key] = kept.count
                kept.append(entry)
            }
        }
        return kept
    }
}
