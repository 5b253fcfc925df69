// Sources/TypedStream/Reading/StreamScanner.swift - The one decoder of the typedstream format: a pull
// state machine that turns bytes into `TypedStreamEvent`s.
//
// Format (facts from NeXT's typedstream.m in Darwin 0.1, python-typedstream's reader, and the
// write-ups of the Messages `attributedBody` column; read, not copied):
//   header   streamer version byte (3 or 4), the signature `streamtyped` (little-endian) or
//            `typedstream` (big-endian) as a length-prefixed string, the system version (an integer)
//   stream   groups until the input ends: a type encoding (shared string), one value per type
//   integer  one byte (-110…127, as a signed byte), or a tag then the value in the stream's byte
//            order: 0x81 int16, 0x82 int32, 0x87 int64 (current macOS writes it for large `q`)
//   real     0x83 then 4 (`f`) or 8 (`d`) bytes, or a whole number written as an integer
//   tags     0x84 new (a literal string, object or class follows), 0x85 nil, 0x86 end of object;
//            0x80…0x91 are reserved, so a value in that range is written with 0x81
//   strings  `+` unshared: nil, or length + bytes. Shared (type encodings, class names, C-string
//            texts): nil, 0x84 + unshared (appended to the shared-string table), or a reference
//   objects  `@`: nil, 0x84 + class chain + groups + 0x86, or a reference. The object takes its
//            entry in the object table before its class chain is read; each new class of the chain
//            takes the next entry; a `*` C string takes one too (0x84 + shared string)
//   classes  (0x84 name version)… ending with nil (a root class) or a reference to a class read
//            before (the superclass)
//   refs     an integer r naming entry r + 110 of its table (0x92…0xFF are entries 0…109)
//   v3       streamer version 3 writes an integer after an object's class chain, and objects
//            written by NXWriteObject have no `@` type encoding before them
//
// Untrusted input: every read is bounds-checked (`Span` subscripts, never a raw pointer); a length
// or count is compared with the bytes that remain before anything is iterated or allocated (an
// array needs count × its element's fewest bytes); a reference must name an entry of the right kind
// that exists; depth, values and table sizes are limited (`TypedStreamLimits`). Errors carry the
// byte offset and the object being read.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The decoding state of one stream: position, tables, and the stack of what is open.
struct StreamScanner: Sendable {
    enum Frame: Sendable {
        /// Between groups at the top level.
        case top
        /// Inside a group: its remaining ops.
        case group(cursor: Int, end: Int)
        /// Inside object `number`: groups until 0x86.
        case object(number: Int)
        /// An array of `remaining` more values of the op at `element`.
        case array(element: Int, remaining: Int)
        /// A structure's remaining fields.
        case structure(cursor: Int, end: Int)
    }

    /// What an entry of the object table is.
    struct TableEntry: Sendable {
        enum Kind: UInt8, Sendable { case object, `class`, cString }
        var kind: Kind
        /// The object number, class number, or shared-string index of a C string's text.
        var number: Int
    }

    let limits: TypedStreamLimits
    let options: TypedStreamOptions
    /// The input length.
    let count: Int
    private(set) var pos = 0
    /// Where the last event's bytes start.
    private(set) var eventOffset = 0
    private(set) var streamerVersion = 4
    private(set) var byteOrder = TypedStreamByteOrder.littleEndian
    private(set) var systemVersion = 0

    /// Shared strings: their bytes in the input, and their text once decoded.
    private(set) var stringRanges: [Range<Int>] = []
    private var stringTexts: [String?] = []
    private var types = TypeTable()
    private(set) var table: [TableEntry] = []
    private(set) var classes: [TypedStreamClass] = []
    private(set) var objectCount = 0
    private var frames: [Frame] = [.top]
    private var values = 0
    /// Values that take no bytes (`!`, empty structures and arrays), bounded by the input's length.
    private var emptyValues = 0
    /// Where bytes that do not begin a group start, when `allowsTrailingData` accepted them.
    private(set) var trailingOffset: Int?
    /// The op of an untyped `@` (streamer version 3).
    private let objectOp: Int

    /// Reads the header of `bytes`.
    init(_ bytes: Span<UInt8>, limits: TypedStreamLimits, options: TypedStreamOptions) throws(TypedStreamError) {
        self.limits = limits
        self.options = options
        count = bytes.count
        // Capacities for a typical message body; larger streams grow them.
        let expected = min(count / 16 + 8, 1024)
        stringRanges.reserveCapacity(expected)
        stringTexts.reserveCapacity(expected)
        table.reserveCapacity(expected)
        classes.reserveCapacity(min(expected, 64))
        frames.reserveCapacity(16)
        types.ops.reserveCapacity(expected)
        types.programs.reserveCapacity(expected)
        types.ops.append(
            TypeOp(
                kind: .scalar, code: UInt8(ascii: "@"), count: 1, end: 1, minSize: 1, name: -1, layoutSize: 8,
                layoutAlign: 8))
        objectOp = 0
        guard count >= 2 else {
            throw TypedStreamError(.notATypedStream, offset: 0, "\(count) bytes: too short for a typedstream header")
        }
        let version = bytes[0]
        guard version == 3 || version == 4 else {
            throw TypedStreamError(
                .notATypedStream, offset: 0, "streamer version \(version) (a typedstream starts with 3 or 4)")
        }
        streamerVersion = Int(version)
        guard bytes[1] == 11, count >= 13 else {
            throw TypedStreamError(.notATypedStream, offset: 1, "no 11-byte signature after the streamer version")
        }
        if StreamScanner.matches(bytes, at: 2, StreamScanner.littleSignature) {
            byteOrder = .littleEndian
        } else if StreamScanner.matches(bytes, at: 2, StreamScanner.bigSignature) {
            byteOrder = .bigEndian
        } else {
            throw TypedStreamError(.notATypedStream, offset: 2, "the signature is neither streamtyped nor typedstream")
        }
        pos = 13
        let system = try readInteger(bytes)
        guard let v = Int(exactly: system) else {
            throw error(.numberOutOfRange, at: 13, "system version \(system)")
        }
        systemVersion = v
        eventOffset = pos
    }

    /// Whether `bytes` starts with a typedstream header (streamer version 3 or 4 and a signature).
    static func isTypedStream(_ bytes: Span<UInt8>) -> Bool {
        guard bytes.count >= 13, bytes[0] == 3 || bytes[0] == 4, bytes[1] == 11 else { return false }
        return matches(bytes, at: 2, littleSignature) || matches(bytes, at: 2, bigSignature)
    }

    static let littleSignature = Array("streamtyped".utf8)
    static let bigSignature = Array("typedstream".utf8)

    private static func matches(_ bytes: Span<UInt8>, at offset: Int, _ text: [UInt8]) -> Bool {
        guard offset >= 0, offset <= bytes.count - text.count else { return false }
        for i in text.indices where bytes[offset + i] != text[i] { return false }
        return true
    }

    // MARK: - Tables

    /// The text of shared string `index` (decoded once).
    mutating func text(_ bytes: Span<UInt8>, _ index: Int) -> String {
        if let known = stringTexts[index] { return known }
        let range = stringRanges[index]
        let s: String
        if let valid = try? UTF8Span(validating: bytes.extracting(range)) {
            s = String(copying: valid)
        } else {
            var raw: [UInt8] = []
            raw.reserveCapacity(range.count)
            for i in range { raw.append(bytes[i]) }
            s = String(decoding: raw, as: UTF8.self)
        }
        stringTexts[index] = s
        return s
    }

    /// The name of class `number`.
    func className(_ number: Int) -> String { classes[number].name }

    /// The innermost open object, for error locations.
    var currentObject: Int? {
        for frame in frames.reversed() {
            if case .object(let n) = frame { return n }
        }
        return nil
    }

    /// The depth of open groups, objects, arrays and structures.
    var depth: Int { frames.count - 1 }

    /// Whether the whole stream was read.
    var isFinished: Bool { frames.isEmpty }

    func error(_ code: TypedStreamError.Code, at offset: Int, _ detail: String) -> TypedStreamError {
        TypedStreamError(code, offset: offset, object: currentObject, detail)
    }

    private func truncated(_ what: String, at offset: Int) -> TypedStreamError {
        error(.truncated, at: offset, "the input ends inside \(what) (\(count) bytes)")
    }

    // MARK: - Events

    /// The next event, or `nil` once the stream has ended.
    mutating func next(_ bytes: Span<UInt8>) throws(TypedStreamError) -> TypedStreamEvent? {
        guard let frame = frames.last else { return nil }
        switch frame {
        case .top:
            eventOffset = pos
            if pos == count {
                frames.removeAll()
                return nil
            }
            return try beginGroup(bytes, topLevel: true)
        case .group(let cursor, let end):
            guard cursor < end else {
                frames.removeLast()
                return .endGroup
            }
            frames[frames.count - 1] = .group(cursor: types.ops[cursor].end, end: end)
            return try value(bytes, op: cursor)
        case .structure(let cursor, let end):
            guard cursor < end else {
                frames.removeLast()
                return .endStructure
            }
            frames[frames.count - 1] = .structure(cursor: types.ops[cursor].end, end: end)
            return try value(bytes, op: cursor)
        case .array(let element, let remaining):
            guard remaining > 0 else {
                frames.removeLast()
                return .endArray
            }
            frames[frames.count - 1] = .array(element: element, remaining: remaining - 1)
            return try value(bytes, op: element)
        case .object(let number):
            eventOffset = pos
            guard pos < count else { throw truncated("object \(number) (no end-of-object byte 0x86)", at: pos) }
            if bytes[pos] == 0x86 {
                pos += 1
                frames.removeLast()
                return .endObject(number)
            }
            return try beginGroup(bytes, topLevel: false)
        }
    }

    private mutating func push(_ frame: Frame) throws(TypedStreamError) {
        guard frames.count <= limits.maxDepth else {
            throw error(.limitExceeded, at: eventOffset, "nesting deeper than maxDepth (\(limits.maxDepth))")
        }
        frames.append(frame)
    }

    /// Reads a group's type encoding and opens the group. At the top level, bytes that do not begin
    /// a group are trailing data.
    private mutating func beginGroup(_ bytes: Span<UInt8>, topLevel: Bool) throws(TypedStreamError)
        -> TypedStreamEvent?
    {
        let start = pos
        if streamerVersion == 3, let event = try untypedObject(bytes) { return event }
        let program: (start: Int, end: Int)
        let typesText: String
        do throws(TypedStreamError) {
            guard let index = try readSharedString(bytes) else {
                throw error(.corrupted, at: start, "a nil type encoding where a group begins")
            }
            guard stringRanges[index].count <= limits.maxTypeEncodingLength else {
                throw error(
                    .limitExceeded, at: start,
                    "a type encoding of \(stringRanges[index].count) bytes (maxTypeEncodingLength \(limits.maxTypeEncodingLength))"
                )
            }
            program = try types.compile(
                bytes, range: stringRanges[index], index: index, pointerSize: options.unionPointerSize, offset: start)
            typesText = text(bytes, index)
        } catch {
            guard topLevel, error.code != .limitExceeded else { throw error }
            let trailing = count - start
            if options.allowsTrailingData {
                trailingOffset = start
                frames.removeAll()
                pos = count
                return nil
            }
            throw TypedStreamError(
                .trailingData, offset: start, object: nil,
                "\(trailing) byte\(trailing == 1 ? "" : "s") after the last group do not begin a group (\(error))")
        }
        try push(.group(cursor: program.start, end: program.end))
        return .beginGroup(types: typesText)
    }

    /// Streamer version 3: an object written without a type encoding (0x85, or 0x84 then a class).
    private mutating func untypedObject(_ bytes: Span<UInt8>) throws(TypedStreamError) -> TypedStreamEvent? {
        guard pos < count else { return nil }
        let head = bytes[pos]
        let untyped: Bool
        if head == 0x85 {
            untyped = true
        } else if head == 0x84, pos + 1 < count {
            untyped = bytes[pos + 1] == 0x84 || bytes[pos + 1] == 0x85
        } else if head != 0x84, head < 0x80 || head > 0x91 {
            // A reference: a type encoding if it names a shared string that parses as one, else an
            // untyped reference to an object.
            let saved = pos
            let index = try readReference(bytes)
            pos = saved
            let isType: Bool
            if index < stringRanges.count,
                (try? types.compile(
                    bytes, range: stringRanges[index], index: index, pointerSize: options.unionPointerSize,
                    offset: saved)) != nil
            {
                isType = true
            } else {
                isType = false
            }
            untyped = !isType && index < table.count && table[index].kind != .cString
        } else {
            untyped = false
        }
        guard untyped else { return nil }
        try push(.group(cursor: objectOp, end: objectOp + 1))
        return .beginGroup(types: "@")
    }

    /// One value of the op at `index`.
    private mutating func value(_ bytes: Span<UInt8>, op index: Int) throws(TypedStreamError) -> TypedStreamEvent {
        values += 1
        guard values <= limits.maxValues else {
            throw error(.limitExceeded, at: pos, "more than maxValues (\(limits.maxValues)) values")
        }
        eventOffset = pos
        let op = types.ops[index]
        if op.minSize == 0 {
            emptyValues += 1
            guard emptyValues <= max(count, 1 << 16) else {
                throw error(
                    .limitExceeded, at: pos,
                    "more values that take no bytes (`!`, empty structures) than the input has bytes")
            }
        }
        switch op.kind {
        case .scalar:
            return try scalar(bytes, code: op.code)
        case .bytes:
            guard op.count <= count - pos else {
                throw error(.truncated, at: pos, "[\(op.count)c] needs \(op.count) bytes, \(count - pos) remain")
            }
            pos += op.count
            return .bytes(pos - op.count..<pos)
        case .union:
            guard op.count <= count - pos else {
                throw error(.truncated, at: pos, "a union of \(op.count) bytes, \(count - pos) remain")
            }
            pos += op.count
            return .union(pos - op.count..<pos)
        case .array:
            guard op.minSize <= count - pos else {
                throw error(
                    .invalidLength, at: pos,
                    "an array of \(op.count) values needs at least \(op.minSize == .max ? "more than Int.max" : String(op.minSize)) bytes, \(count - pos) remain"
                )
            }
            try push(.array(element: index + 1, remaining: op.count))
            return .beginArray(count: op.count)
        case .structure:
            guard op.minSize <= count - pos else {
                throw error(
                    .truncated, at: pos, "a structure needs at least \(op.minSize) bytes, \(count - pos) remain")
            }
            try push(.structure(cursor: index + 1, end: op.end))
            return .beginStructure(name: op.name >= 0 ? types.names[Int(op.name)] : nil)
        }
    }

    private mutating func scalar(_ bytes: Span<UInt8>, code: UInt8) throws(TypedStreamError) -> TypedStreamEvent {
        let start = pos
        switch code {
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "B"):
            guard pos < count else { throw truncated("a '\(Character(Unicode.Scalar(code)))' byte", at: pos) }
            let b = bytes[pos]
            pos += 1
            if code == UInt8(ascii: "c") { return .integer(Int64(Int8(bitPattern: b)), type: "c") }
            if code == UInt8(ascii: "C") { return .unsignedInteger(UInt64(b), type: "C") }
            return .bool(b != 0)
        case UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            let v = try readInteger(bytes)
            let bits = code == UInt8(ascii: "s") ? 16 : code == UInt8(ascii: "q") ? 64 : 32
            guard bits == 64 || (v >= -(Int64(1) << (bits - 1)) && v < Int64(1) << (bits - 1)) else {
                throw error(.numberOutOfRange, at: start, "\(v) does not fit type '\(Character(Unicode.Scalar(code)))'")
            }
            return .integer(v, type: Unicode.Scalar(code))
        case UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            let v = try readInteger(bytes)
            let bits = code == UInt8(ascii: "S") ? 16 : code == UInt8(ascii: "Q") ? 64 : 32
            if bits == 64 { return .unsignedInteger(UInt64(bitPattern: v), type: Unicode.Scalar(code)) }
            // A negative number is the bit pattern of a large one (C's int written for unsigned int).
            guard v >= -(Int64(1) << (bits - 1)), v < Int64(1) << bits else {
                throw error(.numberOutOfRange, at: start, "\(v) does not fit type '\(Character(Unicode.Scalar(code)))'")
            }
            let u = v < 0 ? UInt64(v + (Int64(1) << bits)) : UInt64(v)
            return .unsignedInteger(u, type: Unicode.Scalar(code))
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            guard pos < count else { throw truncated("a real", at: pos) }
            if bytes[pos] == 0x83 {
                let width = code == UInt8(ascii: "f") ? 4 : 8
                guard width <= count - pos - 1 else { throw truncated("a \(width)-byte real", at: pos) }
                let raw = Self.load(bytes, at: pos + 1, width: width, byteOrder)
                pos += 1 + width
                return width == 4
                    ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : .double(Double(bitPattern: raw))
            }
            let v = try readInteger(bytes)
            return code == UInt8(ascii: "f") ? .float(Float(v)) : .double(Double(v))
        case UInt8(ascii: "+"):
            guard pos < count else { throw truncated("a string", at: pos) }
            if bytes[pos] == 0x85 {
                pos += 1
                return .string(nil)
            }
            return .string(try readLength(bytes, what: "a string"))
        case UInt8(ascii: "*"):
            return .cString(try readCString(bytes))
        case UInt8(ascii: "%"), UInt8(ascii: ":"):
            let index = try readSharedString(bytes)
            return .sharedString(index.map { text(bytes, $0) }, type: Unicode.Scalar(code))
        case UInt8(ascii: "#"):
            return .classValue(try readClassChain(bytes))
        case UInt8(ascii: "@"):
            return try readObject(bytes)
        default:  // "!": an ignored int, no bytes.
            return .ignored
        }
    }

    // MARK: - Primitive reads

    /// An integer: one byte, or 0x81/0x82/0x87 and 2/4/8 bytes in the stream's byte order.
    mutating func readInteger(_ bytes: Span<UInt8>) throws(TypedStreamError) -> Int64 {
        guard pos < count else { throw truncated("an integer", at: pos) }
        let head = bytes[pos]
        let width: Int
        switch head {
        case 0x81: width = 2
        case 0x82: width = 4
        case 0x87: width = 8
        case 0x80...0x91:
            throw error(
                .unexpectedTag, at: pos,
                "tag 0x\(String(head, radix: 16)) (\(StreamScanner.tagName(head))) where an integer is expected")
        default:
            pos += 1
            return Int64(Int8(bitPattern: head))
        }
        guard width <= count - pos - 1 else { throw truncated("a \(width)-byte integer", at: pos) }
        let raw = Self.load(bytes, at: pos + 1, width: width, byteOrder)
        pos += 1 + width
        switch width {
        case 2: return Int64(Int16(bitPattern: UInt16(truncatingIfNeeded: raw)))
        case 4: return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: raw)))
        default: return Int64(bitPattern: raw)
        }
    }

    /// `width` bytes at `offset` in the stream's byte order; the caller proved them in range.
    private static func load(_ bytes: Span<UInt8>, at offset: Int, width: Int, _ byteOrder: TypedStreamByteOrder)
        -> UInt64
    {
        var v: UInt64 = 0
        if byteOrder == .littleEndian {
            var i = width - 1
            while i >= 0 {
                v = v << 8 | UInt64(bytes[offset + i])
                i -= 1
            }
        } else {
            for i in 0..<width { v = v << 8 | UInt64(bytes[offset + i]) }
        }
        return v
    }

    static func tagName(_ tag: UInt8) -> String {
        switch tag {
        case 0x81: "int16"
        case 0x82: "int32"
        case 0x83: "real"
        case 0x84: "new"
        case 0x85: "nil"
        case 0x86: "end of object"
        case 0x87: "int64"
        default: "reserved"
        }
    }

    /// A length (non-negative, at most the bytes that remain) and the range of the bytes it counts.
    private mutating func readLength(_ bytes: Span<UInt8>, what: String) throws(TypedStreamError) -> Range<Int> {
        let start = pos
        let n = try readInteger(bytes)
        guard n >= 0 else { throw error(.invalidLength, at: start, "\(what) of length \(n)") }
        guard n <= Int64(count - pos) else {
            throw error(.truncated, at: start, "\(what) of \(n) bytes, \(count - pos) remain")
        }
        pos += Int(n)
        return pos - Int(n)..<pos
    }

    /// A reference: an integer `r` naming table index `r + 110`, checked to be non-negative.
    /// (Mutating, like every read on the hot path: a non-mutating method called from a mutating one
    /// takes a copy of the scanner, a retain of each of its tables.)
    private mutating func readReference(_ bytes: Span<UInt8>) throws(TypedStreamError) -> Int {
        let start = pos
        let r = try readInteger(bytes)
        let (index, overflow) = r.addingReportingOverflow(110)
        guard !overflow, index >= 0, let i = Int(exactly: index) else {
            throw error(.badReference, at: start, "reference number \(r) names no entry")
        }
        return i
    }

    /// A shared string: nil, a new one (0x84, appended to the table) or a reference; its index.
    mutating func readSharedString(_ bytes: Span<UInt8>) throws(TypedStreamError) -> Int? {
        guard pos < count else { throw truncated("a shared string", at: pos) }
        let start = pos
        switch bytes[pos] {
        case 0x85:
            pos += 1
            return nil
        case 0x84:
            pos += 1
            guard stringRanges.count < limits.maxSharedStrings else {
                throw error(
                    .limitExceeded, at: start, "more than maxSharedStrings (\(limits.maxSharedStrings)) shared strings")
            }
            let range = try readLength(bytes, what: "a shared string")
            stringRanges.append(range)
            stringTexts.append(nil)
            return stringRanges.count - 1
        default:
            let index = try readReference(bytes)
            guard index < stringRanges.count else {
                throw error(
                    .badReference, at: start,
                    "shared-string reference \(index) names no entry (\(stringRanges.count) read)")
            }
            return index
        }
    }

    /// An entry of the object table, appended; limited.
    private mutating func appendEntry(_ entry: TableEntry, at offset: Int) throws(TypedStreamError) {
        guard table.count < limits.maxTableEntries else {
            throw error(
                .limitExceeded, at: offset,
                "more than maxTableEntries (\(limits.maxTableEntries)) objects, classes and C strings")
        }
        table.append(entry)
    }

    /// A reference into the object table, checked to exist.
    private mutating func readTableReference(_ bytes: Span<UInt8>, what: String) throws(TypedStreamError)
        -> TableEntry
    {
        let start = pos
        let index = try readReference(bytes)
        guard index < table.count else {
            throw error(.badReference, at: start, "\(what) reference \(index) names no entry (\(table.count) read)")
        }
        return table[index]
    }

    /// A `*` C string: nil, new (an object-table entry, then its text as a shared string) or a
    /// reference to one.
    private mutating func readCString(_ bytes: Span<UInt8>) throws(TypedStreamError) -> String? {
        guard pos < count else { throw truncated("a C string", at: pos) }
        let start = pos
        switch bytes[pos] {
        case 0x85:
            pos += 1
            return nil
        case 0x84:
            pos += 1
            try appendEntry(TableEntry(kind: .cString, number: -1), at: start)
            let slot = table.count - 1
            guard let index = try readSharedString(bytes) else {
                throw error(.corrupted, at: start, "a new C string whose text is nil")
            }
            table[slot].number = index
            return text(bytes, index)
        default:
            let entry = try readTableReference(bytes, what: "C-string")
            guard entry.kind == .cString else {
                throw error(
                    .badReference, at: start, "a C-string reference names \(StreamScanner.kindName(entry.kind))")
            }
            return text(bytes, entry.number)
        }
    }

    static func kindName(_ kind: TableEntry.Kind) -> String {
        switch kind {
        case .object: "an object"
        case .class: "a class"
        case .cString: "a C string"
        }
    }

    /// A class chain (`#`, or an object's class): new classes until nil or a reference to a class
    /// read before. Returns the first class's number, `nil` for Nil.
    private mutating func readClassChain(_ bytes: Span<UInt8>) throws(TypedStreamError) -> Int? {
        let chainStart = classes.count
        var first: Int?
        var previous: Int?
        while true {
            guard pos < count else { throw truncated("a class chain", at: pos) }
            let start = pos
            switch bytes[pos] {
            case 0x84:
                pos += 1
                try appendEntry(TableEntry(kind: .class, number: classes.count), at: start)
                guard let name = try readSharedString(bytes), !stringRanges[name].isEmpty else {
                    throw error(.corrupted, at: start, "a class without a name")
                }
                let versionOffset = pos
                guard let version = Int(exactly: try readInteger(bytes)) else {
                    throw error(.numberOutOfRange, at: versionOffset, "class version")
                }
                let number = classes.count
                classes.append(TypedStreamClass(name: text(bytes, name), version: version, superclass: nil))
                if let previous { classes[previous].superclass = number } else { first = number }
                previous = number
            case 0x85:
                pos += 1
                return first
            default:
                let entry = try readTableReference(bytes, what: "class")
                guard entry.kind == .class else {
                    throw error(
                        .badReference, at: start, "a class reference names \(StreamScanner.kindName(entry.kind))")
                }
                guard entry.number < chainStart else {
                    throw error(.corrupted, at: start, "a class chain refers to a class of its own chain")
                }
                if let previous { classes[previous].superclass = entry.number } else { first = entry.number }
                return first
            }
        }
    }

    /// An `@`: nil, a reference, or a new object (its entry, its class chain, then its groups).
    private mutating func readObject(_ bytes: Span<UInt8>) throws(TypedStreamError) -> TypedStreamEvent {
        guard pos < count else { throw truncated("an object", at: pos) }
        let start = pos
        switch bytes[pos] {
        case 0x85:
            pos += 1
            return .nilObject
        case 0x84:
            pos += 1
            let number = objectCount
            try appendEntry(TableEntry(kind: .object, number: number), at: start)
            objectCount += 1
            guard let cls = try readClassChain(bytes) else {
                throw TypedStreamError(.corrupted, offset: start, object: number, "object \(number) has no class")
            }
            if streamerVersion == 3 {
                _ = try readInteger(bytes)  // "a misfeature in the first version": always 0
            }
            try push(.object(number: number))
            return .beginObject(number, class: cls)
        default:
            let entry = try readTableReference(bytes, what: "object")
            switch entry.kind {
            case .object: return .objectReference(entry.number)
            case .class: return .classValue(entry.number)
            case .cString:
                throw error(.badReference, at: start, "an object reference names a C string")
            }
        }
    }
}
