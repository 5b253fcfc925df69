// Sources/PropertyList/Binary/Reading/BinaryPlistDocument.swift - A validated, zero-copy view of a bplist00 file.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A validated, read-only view of a binary property list.
///
/// Opening a document checks the header, the trailer and **every** offset-table entry, in
/// O(objects) time and without allocating; the input bytes are kept, never copied. Objects are then
/// decoded one at a time, on request:
///
/// ```swift
/// let doc = try BinaryPlistDocument(data)
/// if case .dictionary(let keys, let values) = try doc.object(doc.root) {
///     for (k, v) in zip(keys, values) where try doc.string(k) == "name" {
///         print(try doc.value(of: v))
///     }
/// }
/// let name = try doc.lookup("people.3.name")   // a key path, read lazily
/// let tree = try doc.value()                   // the whole owned tree, shared sub-trees built once
/// ```
///
/// Reading is strict by default, like every Apple reader: the input must end exactly at the
/// trailer. Bytes after it are a ``PlistError/Code/trailingData`` error that says where the
/// property list really ends; ``PlistReadOptions/allowsTrailingData`` recovers it instead, and
/// ``documents(in:limits:)`` splits property lists written back to back.
public struct BinaryPlistDocument: Sendable {
    /// The bytes of the property list (after inflating an envelope, if there was one).
    public let data: Data
    /// The decoded trailer.
    public let trailer: BinaryPlistTrailer
    /// The limits in force for reads through this document.
    public let limits: PlistLimits
    /// The options the document was opened with.
    public internal(set) var options: PlistReadOptions
    /// Bytes found after the property list (only non-zero with ``PlistReadOptions/allowsTrailingData``).
    public let trailingByteCount: Int
    /// The compression envelope the input came in (``PlistCompression/none`` for plain input).
    public let compression: PlistCompression
    /// The memory map `data` reads, when the document was opened from a mapped file.
    var mapping: FileMapping? = nil

    /// The root object.
    public var root: ObjectRef { ObjectRef(trailer.topObject) }
    /// The number of objects in the offset table.
    public var objectCount: Int { trailer.objectCount }
    /// The header's version bytes, e.g. `"00"`.
    public var version: String {
        withBytes { r in String(decoding: [r.byte(at: 6) ?? 0, r.byte(at: 7) ?? 0], as: UTF8.self) }
    }

    /// Opens and validates a binary property list.
    ///
    /// - Parameters:
    ///   - data: The input. Kept as it is; never copied (a compressed input is inflated once).
    ///   - limits: Bounds for hostile input; the defaults are safe for untrusted data.
    ///   - options: Strictness and envelope handling.
    /// - Throws: ``PlistError`` with code `notABinaryPlist`, `truncated`, `invalidTrailer`,
    ///   `offsetOutOfRange`, `badReference`, `limitExceeded`, `trailingData` or `compression`.
    /// - Complexity: O(objects) to validate the offset table; no allocation for plain input.
    public init(_ data: Data, limits: PlistLimits = .default, options: PlistReadOptions = PlistReadOptions())
        throws(PlistError)
    {
        var input = data
        var envelope = PlistCompression.none
        if options.allowsCompression, let kind = PlistCompression.detect(data) {
            input = try Zlib.inflate(data, limit: limits.maxDecompressedBytes)
            envelope = kind
        }
        let (trailer, length) = try BinaryPlistDocument.locate(
            input, limits: limits,
            allowsTrailingData: options.allowsTrailingData)
        self.data = length == input.count ? input : input.prefix(length)
        self.trailer = trailer
        self.limits = limits
        self.options = options
        self.trailingByteCount = input.count - length
        self.compression = envelope
    }

    /// Opens a binary property list from bytes (copied once into `Data`).
    public init(
        bytes: some Sequence<UInt8>, limits: PlistLimits = .default, options: PlistReadOptions = PlistReadOptions()
    )
        throws(PlistError)
    {
        try self.init(Data(bytes), limits: limits, options: options)
    }

    /// Splits property lists written back to back (one appended to another) and opens each.
    ///
    /// - Returns: The documents in order, each with the byte range it occupies in `data`.
    /// - Throws: The error of the first piece that is not a property list.
    public static func documents(in data: Data, limits: PlistLimits = .default)
        throws(PlistError) -> [(range: Range<Int>, document: BinaryPlistDocument)]
    {
        var result: [(range: Range<Int>, document: BinaryPlistDocument)] = []
        var start = 0
        let base = data.startIndex
        while start < data.count {
            let rest = data[(base + start)...]
            let opts = PlistReadOptions(allowsTrailingData: true, allowsCompression: false)
            do {
                let doc = try BinaryPlistDocument(rest, limits: limits, options: opts)
                let length = doc.data.count
                result.append((start..<start + length, doc))
                start += length
            } catch {
                var e = error
                e.offset = (e.offset ?? 0) + start
                e.detail += " (in the property list starting at byte \(start))"
                throw e
            }
        }
        return result
    }

    /// Finds the trailer: at the end of the input, or (for appended data) where a genuine one ends.
    static func locate(_ data: Data, limits: PlistLimits, allowsTrailingData: Bool)
        throws(PlistError) -> (BinaryPlistTrailer, Int)
    {
        try withBytes(data) { r throws(PlistError) in
            guard r.count >= BinaryPlistTrailer.headerSize else {
                throw PlistError(
                    .notABinaryPlist, offset: 0, "\(r.count) bytes are too short for the bplist0? header")
            }
            for (i, m) in "bplist0".utf8.enumerated() where r.byte(at: i) != m {
                throw PlistError(
                    .notABinaryPlist, offset: i,
                    "the input does not start with \"bplist0\"; it \(PlistSniffer.describeStart(data))")
            }
            let end = r.count
            let atEnd: Result<BinaryPlistTrailer, PlistError> = Result { () throws(PlistError) in
                let t = try BinaryPlistTrailer.parse(r, endingAt: end, limits: limits)
                try t.validateOffsetTable(r)
                return t
            }
            if case .success(let t) = atEnd { return (t, end) }
            // Not a valid trailer at the end: is there a genuine property list that ends earlier?
            if let (t, length) = earlierEnd(r, limits: limits) {
                if allowsTrailingData { return (t, length) }
                throw PlistError(
                    .trailingData, offset: length,
                    "\(end - length) bytes follow the property list, which ends at byte \(length) "
                        + "of \(end) (appended data; open with allowsTrailingData to recover it)")
            }
            if case .failure(let e) = atEnd { throw e }
            throw PlistError(.invalidTrailer, offset: end - BinaryPlistTrailer.size, "no valid trailer")
        }
    }

    /// The smallest end position before the input's end at which a complete, valid property list ends.
    private static func earlierEnd(_ r: ByteReader, limits: PlistLimits) -> (BinaryPlistTrailer, Int)? {
        let minEnd = BinaryPlistTrailer.headerSize + 2 + BinaryPlistTrailer.size
        guard r.count > minEnd else { return nil }
        for end in minEnd..<r.count {
            // Cheap pre-check before a full parse: widths in 1...8 and the size equation.
            let s = end - BinaryPlistTrailer.size
            guard let ow = r.byte(at: s + 6), (1...8).contains(ow), let rw = r.byte(at: s + 7), (1...8).contains(rw),
                let n = r.uint(at: s + 8, width: 8), let table = r.uint(at: s + 24, width: 8),
                n >= 1, n <= UInt64(s) / UInt64(ow), table < UInt64(s),
                // n <= s / ow, so n × ow <= s cannot overflow; table < s, so s - table cannot either.
                n * UInt64(ow) == UInt64(s) - table
            else { continue }
            if let t = try? BinaryPlistTrailer.parse(r, endingAt: end, limits: limits),
                (try? t.validateOffsetTable(r)) != nil
            {
                return (t, end)
            }
        }
        return nil
    }

    /// Runs `body` with a reader over this document's bytes.
    @inline(__always)
    func withBytes<R, E: Error>(_ body: (ByteReader) throws(E) -> R) throws(E) -> R {
        try checkingMapping { () throws(E) -> R in try BinaryPlistDocument.withBytes(data, body) }
    }

    @inline(__always)
    static func withBytes<R, E: Error>(_ data: Data, _ body: (ByteReader) throws(E) -> R) throws(E) -> R {
        try ByteReader.read(data, body)
    }
}

// MARK: - Lazy access

/// A reference to an object of a document: its index in the offset table.
public struct ObjectRef: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The index in the offset table.
    public let index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: ObjectRef, b: ObjectRef) -> Bool { a.index < b.index }
    public var description: String { "#\(index)" }
}

/// A range of bytes in a document's input.
public struct ByteRange: Hashable, Sendable {
    /// Offset of the first byte.
    public let offset: Int
    /// Number of bytes.
    public let count: Int

    public init(offset: Int, count: Int) {
        self.offset = offset
        self.count = count
    }
}

/// The references of an array, set, or one half of a dictionary, read straight from the buffer.
///
/// No array of indexes is built: each element is decoded from the input when accessed. Elements are
/// not checked against the object count here; ``BinaryPlistDocument/object(_:)`` checks on use.
public struct ReferenceList: RandomAccessCollection, Sendable, Hashable {
    let document: Data
    let start: Int
    let width: Int
    public let count: Int

    /// A list with no references.
    public static let empty = ReferenceList(document: Data(), start: 0, width: 1, count: 0)

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// - Complexity: O(1).
    public subscript(position: Int) -> ObjectRef {
        precondition(position >= 0 && position < count, "ReferenceList index out of range")
        return BinaryPlistDocument.withBytes(document) { r in
            // The scanner proved start + count × width lies in the object region; a position outside
            // 0 ..< count stopped at the precondition above.
            ObjectRef(Int(truncatingIfNeeded: r.uint(at: start + position * width, width: width) ?? 0))
        }
    }

    /// Two lists are equal when they are the same references of the same document: the same range
    /// of equal input bytes (`Data`'s `==` compares lengths first and stops at a shared buffer).
    public static func == (a: ReferenceList, b: ReferenceList) -> Bool {
        a.start == b.start && a.count == b.count && a.width == b.width && a.document == b.document
    }
    public func hash(into h: inout Hasher) {
        h.combine(start)
        h.combine(count)
    }
}

/// One object of a document, decoded from its marker; payloads stay in the input.
public enum PlistObject: Sendable, Hashable {
    case null
    /// A fill byte (`0x0F`): padding, not a value.
    case fill
    case bool(Bool)
    /// An integer of 1 to 16 bytes, as ``PlistValue/integer(_:)`` holds it.
    case integer(PlistInteger)
    case real(Double)
    /// A date, as ``PlistValue/date(_:)`` holds it (stored as seconds since 2001-01-01T00:00:00Z).
    case date(Date)
    case uid(UInt64)
    case data(ByteRange)
    /// An ASCII (`0x5n`) string's bytes.
    case asciiString(ByteRange)
    /// A UTF-16BE (`0x6n`) string's bytes (two per code unit).
    case utf16String(ByteRange)
    case array(ReferenceList)
    case set(ReferenceList)
    case dictionary(keys: ReferenceList, values: ReferenceList)

    /// The kind of value this object materialises to (`fill` reports `.null`).
    public var kind: PlistKind {
        switch self {
        case .null, .fill: .null
        case .bool: .bool
        case .integer: .integer
        case .real: .real
        case .date: .date
        case .uid: .uid
        case .data: .data
        case .asciiString, .utf16String: .string
        case .array: .array
        case .set: .set
        case .dictionary: .dictionary
        }
    }
}

extension BinaryPlistDocument {
    /// Decodes one object's marker. Strings and data stay byte ranges; containers hand out
    /// reference lists over the input.
    ///
    /// - Throws: `badReference` for a reference past the object count, or the object's own
    ///   format error (`unknownMarker`, `truncatedObject`, `corrupted`, `limitExceeded` for a UID).
    /// - Complexity: O(1) (an extended count reads one more int object).
    public func object(_ ref: ObjectRef) throws(PlistError) -> PlistObject {
        try withReader { (r: borrowing Reader) throws(PlistError) in try r.object(ref) }
    }

    func publicObject(_ raw: RawObject) -> PlistObject {
        BinaryPlistDocument.publicObject(raw, data: data, refSize: trailer.objectRefSize)
    }

    /// `publicObject(_:)` of the document whose bytes are `data` and reference width `refSize`.
    static func publicObject(_ raw: RawObject, data: Data, refSize w: Int) -> PlistObject {
        switch raw.kind {
        case .null: return .null
        case .fill: return .fill
        case .bool: return .bool(raw.scalar != 0)
        case .integer: return .integer(PlistInteger(high: raw.high, low: raw.scalar))
        case .real: return .real(Double(bitPattern: raw.scalar))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw.scalar)))
        case .uid: return .uid(raw.scalar)
        case .data: return .data(ByteRange(offset: raw.payload, count: raw.count))
        case .ascii: return .asciiString(ByteRange(offset: raw.payload, count: raw.count))
        case .utf16: return .utf16String(ByteRange(offset: raw.payload, count: raw.count * 2))
        case .array: return .array(ReferenceList(document: data, start: raw.payload, width: w, count: raw.count))
        case .set: return .set(ReferenceList(document: data, start: raw.payload, width: w, count: raw.count))
        case .dictionary:
            return .dictionary(
                keys: ReferenceList(document: data, start: raw.payload, width: w, count: raw.count),
                values: ReferenceList(document: data, start: raw.payload + raw.count * w, width: w, count: raw.count))
        }
    }

    /// The string an object holds, or `nil` when it is not a string.
    ///
    /// - Throws: `invalidString` for non-ASCII bytes in an ASCII string or an unpaired surrogate.
    public func string(_ ref: ObjectRef) throws(PlistError) -> String? {
        try withReader { (r: borrowing Reader) throws(PlistError) in try r.string(ref) }
    }

    /// The string of an object already decoded with ``object(_:)``, without reading its marker again;
    /// `nil` when it is not a string.
    ///
    /// - Parameter object: A string object of this document.
    /// - Throws: `invalidString`, or `offsetOutOfRange` for an object of another document.
    public func string(_ object: PlistObject) throws(PlistError) -> String? {
        try withReader { (r: borrowing Reader) throws(PlistError) in try r.string(object) }
    }

    /// A copy of the bytes a data object holds, or `nil` when it is not data.
    public func data(_ ref: ObjectRef) throws(PlistError) -> Data? {
        guard case .data(let range) = try object(ref) else { return nil }
        return bytes(range)
    }

    /// A copy of a byte range of the input.
    public func bytes(_ range: ByteRange) -> Data {
        withBytes { r in
            r.data(offset: range.offset, length: range.count) ?? Data()
        }
    }

    /// Compares a string object with `key` without allocating a `String` (ASCII fast path).
    public func string(_ ref: ObjectRef, equals key: String) throws(PlistError) -> Bool {
        try withReader { (r: borrowing Reader) throws(PlistError) in try r.string(ref, equals: key) }
    }
}
