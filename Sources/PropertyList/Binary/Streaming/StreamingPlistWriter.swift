// Sources/PropertyList/Binary/Streaming/StreamingPlistWriter.swift - Writes a bplist00 to a sink as values come.
//
// `BinaryPlistWriter` holds the whole tree and writes it in one buffer. This writer holds almost
// nothing: each value is encoded and sent on (through a 1 MiB buffer) as it arrives, and the offset
// table and trailer are written at the end. What makes that possible in a format whose containers
// name their children by object index:
//
// * Object *index* order need not be *byte* order: the offset table maps index -> offset, so objects
//   may sit in the file in any order. When a container begins with count n, its bytes are written at
//   once (marker, count, n references; a dictionary n key references, then n value references)
//   naming a block of n fresh consecutive indices. Each child then takes the next index of its
//   parent's block (a dictionary's k-th key `base + k`, its k-th value `base + n + k`), and a nested
//   container reserves its own block when it begins. The root is object 0 and comes first. So counts
//   must be given up front, and the writer's state is one frame per open container.
//
//     [a, {"k": b}]   -> 8: A2 01 02         (object 0, the root; reserves 1, 2)
//                        11: 51 61           (object 1, "a")
//                        13: D1 03 04        (object 2, the dictionary; reserves 3, 4)
//                        16: 51 6B  18: 51 62  (objects 3 "k" and 4 "b")
//
// * Reference width must be known when the first container is written, before the object count
//   is. It is the smallest that addresses `Options.expectedObjectCount` (an upper bound; exact gives
//   the minimal width) or, without it, 4 bytes (up to 2^32 - 1 objects; give the bound for more).
//   Writing more objects than the width addresses is an error, never a corrupt file. The offset
//   width *is* minimal: it is chosen at the end, from the final size.
//
// * Offsets arrive out of index order but as a few sequential runs (one per open container, two for
//   a dictionary), which `OffsetSpool` keeps in 8 KiB pages: all in memory (8 bytes per object) up
//   to `Options.offsetMemory` (16 MiB, 2 million objects), then spilling the least recently used
//   pages to an unlinked temporary file, read back in index order at the end.
//
// * Scalars are deduplicated by their encoding, which the format makes canonical (equal values, and
//   only they, encode to equal bytes): a scalar is encoded into the buffer, looked up in a bounded
//   table of earlier encodings (`ScalarMemo`), and on a hit its bytes are dropped and its index
//   gets the earlier object's offset. Two indices then share one offset, which the format allows
//   and the readers we test read (ours, Foundation's PropertyListSerialization and
//   PropertyListDecoder, plistlib). Containers are not deduplicated: a container's references are
//   written before its children exist. A repeated scalar still costs its own index (an offset-table
//   entry), not its bytes. Below the table's bounds this is exactly `BinaryPlistWriter`'s scalar
//   deduplication; the bounds, for constant memory and speed:
//   - payloads above 1 KiB are not remembered;
//   - the table holds `Options.deduplicationMemory` (4 MiB: about 70,000 short scalars). When it is
//     full it starts a new generation that keeps only the entries found again in the last one, so
//     keys and common strings stay and one-off values go;
//   - a kind of scalar (strings, integers, reals, dates, data, UIDs) whose last 65,536 lookups found
//     fewer than 1 in 64 repeats is not looked up for its next 1,048,576 values, then tried again.
//     Unique values (ids, timestamps, random reals) are most of a large file, and each costs a cache
//     miss in the table for nothing. Measured on `bplist generate` (100 MB, CPU time), this and the
//     4 MiB table against a 32 MiB table probed for every scalar: mixed 1.28 -> 0.93 s (same size),
//     numbers 1.54 -> 0.50 s (1.2 % larger).
//
// Memory: the buffer, one frame per open container, the offset pages (at most 8 bytes per object,
// bounded by `offsetMemory`), and the scalar table (bounded by `deduplicationMemory`); nothing grows
// with the output beyond those bounds except 5 bytes of page bookkeeping per 1,024 objects.
//
// Misuse (a count not kept, `end()` without a container, `finish()` with containers open, a
// container or a boolean as a dictionary key, more objects than the references address) throws
// `unencodable` or `invalidKey` before anything is written, so the writer can go on. A failing sink
// (`io`) stops it: every later call reports that error.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes a binary property list to a file or another sink as its values arrive, in constant memory.
///
/// Containers are written with their element counts given up front; values follow in order, and
/// ``finish()`` writes the offset table and the trailer:
///
/// ```swift
/// let sink = try PlistFileSink(path: "people.plist")
/// var writer = StreamingPlistWriter(to: sink, options: .init(expectedObjectCount: 1 + 3 * 6))
/// try writer.beginArray(count: 3)
/// for name in ["Ada", "Grace", "Edsger"] {
///     try writer.beginDictionary(count: 2)
///     try writer.key("name")
///     try writer.string(name)
///     try writer.key("tags")
///     try writer.value(["pioneer"])       // a whole sub-tree at once
///     try writer.end()
/// }
/// try writer.end()
/// try writer.finish()
/// try sink.close()
/// ```
///
/// The result reads equal to what ``PlistValue/encoded(as:compression:options:)`` writes for the same tree, with these
/// differences in the bytes:
///
/// - **Every value is an object index.** A repeated scalar (a dictionary key, a common string) is
///   written once and its later occurrences point at it, but each occurrence keeps an entry in the
///   offset table. So the object count is the number of values in the tree, and the file is larger
///   than the tree writer's (``PlistValue/encoded(as:compression:options:)``) by an offset-table entry per repeat.
/// - **Containers are not deduplicated**, and scalars only within a bounded table (see
///   ``Options/deduplicationMemory``).
/// - **Reference width** is the smallest that addresses ``Options/expectedObjectCount`` when you give
///   it, else 4 bytes. The offset width is always the smallest that fits.
///
/// Dictionary entries are written as a key then its value, `count` times; a key must be a string,
/// number, date or data. Misuse throws a ``PlistError`` (code
/// ``PlistError/Code/unencodable`` or ``PlistError/Code/invalidKey``) and changes
/// nothing, so the writer can go on; an error from the sink (``PlistError/Code/io``) stops it.
///
/// Memory stays flat: a 1 MiB buffer, a frame per open container, the offset table in memory up to
/// ``Options/offsetMemory`` (8 bytes per object, beyond which pages go to a temporary file) and the
/// scalar table up to ``Options/deduplicationMemory``.
public struct StreamingPlistWriter: ~Copyable {
    /// How the writer sizes references and uses memory.
    public struct Options: Sendable, Hashable {
        /// An upper bound on the number of objects: every value written, each repeat and each
        /// dictionary key counted (a dictionary of n entries is 1 + 2n objects before its values'
        /// own children). The reference width is the smallest that addresses this many (exact gives
        /// the minimal width); `nil` (the default) means 4 bytes, up to 4,294,967,295 objects.
        /// Writing more objects than the width addresses throws.
        public var expectedObjectCount: Int?
        /// Powers of two (default) or compact widths, as for ``PlistWriteOptions/widths``.
        public var widths: BinaryPlistWidths
        /// Write a repeated scalar once (default `true`).
        public var deduplicates: Bool
        /// Bytes the table of written scalars may use (default 4 MiB, about 70,000 short scalars).
        /// When it is full it starts over, keeping the entries that were found again since it last
        /// did. Scalars with payloads above 1 KiB are not remembered, and a kind of scalar that
        /// rarely repeats (fewer than 1 in 64 of its last 65,536) is not looked up for a while.
        public var deduplicationMemory: Int
        /// Bytes of the offset table kept in memory (default 16 MiB: 2,097,152 objects); beyond it,
        /// pages of it go to a temporary file.
        public var offsetMemory: Int
        /// Bytes gathered before they are handed to the sink (default 1 MiB).
        public var bufferSize: Int
        /// Where the offset table's temporary file is created when needed (default `$TMPDIR`, else
        /// `/tmp`). The file is unlinked at once and never outlives the writer.
        public var temporaryDirectory: String?

        public init(
            expectedObjectCount: Int? = nil, widths: BinaryPlistWidths = .powersOfTwo,
            deduplicates: Bool = true, deduplicationMemory: Int = 4 << 20, offsetMemory: Int = 16 << 20,
            bufferSize: Int = 1 << 20, temporaryDirectory: String? = nil
        ) {
            self.expectedObjectCount = expectedObjectCount
            self.widths = widths
            self.deduplicates = deduplicates
            self.deduplicationMemory = deduplicationMemory
            self.offsetMemory = offsetMemory
            self.bufferSize = bufferSize
            self.temporaryDirectory = temporaryDirectory
        }
    }

    enum Kind: UInt8 { case root, array, set, dictionary }

    /// An open container (or the root slot): its block of child indices and how far it is filled.
    struct Frame {
        var kind: Kind
        /// The container's own object index (-1 for the root slot).
        var index: Int
        /// The first index of its block.
        var base: Int
        /// Elements, or entries of a dictionary.
        var count: Int
        /// Children written: for a dictionary, keys and values alternately (key k is child 2k).
        var written: Int

        /// Children to write: a dictionary's keys and values.
        var total: Int { kind == .dictionary ? count &* 2 : count }
    }

    /// Scalars with payloads up to this many bytes (UTF-8 for strings) are deduplicated.
    static let rememberedPayload = 1024

    private let sink: any PlistByteSink
    private var out: GrowableWriter
    /// Bytes handed to the sink so far: the file offset of `out`'s first byte.
    private var flushed = 0
    var spool: OffsetSpool
    private var memo: ScalarMemo
    private let deduplicate: Bool
    private var top = Frame(kind: .root, index: -1, base: 0, count: 1, written: 0)
    private var open: [Frame] = []
    private let refWidth: Int
    /// Objects the reference width addresses.
    let maxObjects: Int
    private let widths: BinaryPlistWidths
    private let bufferSize: Int
    /// The sink's error, once it failed: the writer stops.
    private var failure: PlistError? = nil

    /// A writer that sends its output to `sink`.
    ///
    /// Nothing is written to the sink until the buffer fills or ``finish()`` is called.
    public init(to sink: any PlistByteSink, options: Options = Options()) {
        self.sink = sink
        widths = options.widths
        bufferSize = max(256, options.bufferSize)
        if let bound = options.expectedObjectCount {
            refWidth = BinaryPlistWriter.tableWidth(UInt64(max(1, bound)), options.widths)
        } else {
            refWidth = 4
        }
        maxObjects = refWidth >= 8 ? Int.max : (1 << (8 &* refWidth)) &- 1
        out = GrowableWriter(capacity: bufferSize &+ bufferSize / 4)
        let directory =
            options.temporaryDirectory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap {
                $0.isEmpty ? nil : $0
            }
            ?? "/tmp"
        spool = OffsetSpool(memory: options.offsetMemory, directory: directory)
        spool.reserve(1)  // the root, object 0
        deduplicate = options.deduplicates
        memo = ScalarMemo(budget: options.deduplicates ? options.deduplicationMemory : 0)
        out.append(bigEndian: 0x6270_6c69_7374_3030, width: 8)  // "bplist00"
    }

    /// Objects so far: indices given to the values written and reserved for those still to come in
    /// open containers.
    public var objectCount: Int { spool.count }

    /// Bytes so far (handed to the sink or still buffered).
    public var byteCount: Int { flushed &+ out.count }

    /// Containers open now.
    public var depth: Int { open.count }

    /// The width of every object reference, in bytes (1, 2, 4 or 8; 1...8 with compact widths).
    public var referenceWidth: Int { refWidth }

    /// True once offset-table pages have gone to the temporary file (for tests).
    @_spi(Internals) public var hasSpilledOffsets: Bool { spool.hasSpilled }

    /// How many times the table of scalars started over (1 until it first fills; for tests).
    @_spi(Internals) public var deduplicationGenerations: Int { memo.generations }

    // MARK: Containers

    /// Begins an array of `count` elements: write them next, then call ``end()``.
    public mutating func beginArray(count: Int) throws(PlistError) { try begin(.array, count) }

    /// Begins a set (marker `0xCn`) of `count` members: write them next, then call ``end()``.
    public mutating func beginSet(count: Int) throws(PlistError) { try begin(.set, count) }

    /// Begins a dictionary of `count` entries: write a key then its value, `count` times, then call
    /// ``end()``.
    public mutating func beginDictionary(count: Int) throws(PlistError) { try begin(.dictionary, count) }

    /// Ends the innermost open container, which must have received all its elements.
    public mutating func end() throws(PlistError) {
        if let failure { throw failure }
        guard top.kind != .root, let parent = open.last else {
            throw PlistError(.unencodable, "end() without an open container")
        }
        guard top.written == top.total else {
            throw PlistError(
                .unencodable, object: top.index,
                "end() after \(progress(top)) of \(describe(top))\(top.written & 1 == 1 ? " (the last key has no value)" : "")"
            )
        }
        open.removeLast()
        top = parent
    }

    mutating func begin(_ kind: Kind, _ count: Int) throws(PlistError) {
        let plistKind: PlistKind = kind == .array ? .array : kind == .set ? .set : .dictionary
        let index = try slot(plistKind)
        guard count >= 0 else {
            throw PlistError(.unencodable, object: index, "a \(plistKind) cannot have \(count) elements")
        }
        let (total, overflow) = kind == .dictionary ? count.multipliedReportingOverflow(by: 2) : (count, false)
        guard !overflow, total <= maxObjects &- spool.count else {
            throw tooManyObjects(adding: count, kind == .dictionary ? "\(count) entries" : "\(count) elements")
        }
        let base = spool.count
        spool.reserve(total)
        try setOffset(index, byteCount)
        let marker: UInt8 = kind == .array ? 0xA0 : kind == .set ? 0xC0 : 0xD0
        BinaryPlistWriter.appendHeader(&out, marker, count)
        // The references base ..< base + total, through the buffer (a large container's run over it).
        var next = base
        let end = base &+ total
        while next < end {
            if out.count >= bufferSize { try flush() }
            let chunk = min(end &- next, max(1, (bufferSize &- out.count) / refWidth))
            for r in next..<next &+ chunk { out.append(bigEndian: UInt64(r), width: refWidth) }
            next &+= chunk
        }
        top.written &+= 1
        open.append(top)
        top = Frame(kind: kind, index: index, base: base, count: count, written: 0)
        try flushIfFull()
    }

    // MARK: Scalars

    /// Writes a dictionary key, which must come next (after `beginDictionary` or a value).
    public mutating func key(_ key: String) throws(PlistError) {
        try expectKey(key)
        try string(key)
    }

    /// Writes a dictionary key (a string of a decoded tree), which must come next.
    public mutating func key(_ key: PlistString) throws(PlistError) {
        try expectKey(key.string)
        try string(key)
    }

    private func expectKey(_ key: @autoclosure () -> String) throws(PlistError) {
        if let failure { throw failure }
        guard top.kind == .dictionary, top.written & 1 == 0, top.written < top.total else {
            throw PlistError(
                .unencodable, object: top.index >= 0 ? top.index : nil,
                "key(\"\(key().prefix(40))\") where \(expected(top)) is expected")
        }
    }

    /// Writes a string: ASCII (`0x5n`) when every character is ASCII, otherwise UTF-16BE (`0x6n`).
    public mutating func string(_ value: String) throws(PlistError) {
        let index = try slot(.string)
        try writeString(index, value.utf8.span)
        try advance()
    }

    /// Writes a string value (a string of a decoded tree, its bytes read in place).
    public mutating func string(_ value: PlistString) throws(PlistError) {
        let index = try slot(.string)
        var thrown: PlistError? = nil
        value.withUTF8Span { bytes in
            do throws(PlistError) { try writeString(index, bytes) } catch { thrown = error }
        }
        if let thrown { throw thrown }
        try advance()
    }

    /// A string of valid UTF-8 `bytes` as object `index`.
    private mutating func writeString(_ index: Int, _ bytes: Span<UInt8>) throws(PlistError) {
        let start = out.count
        if bytes.count <= Self.rememberedPayload {
            // Written as ASCII while hashed; rewritten as UTF-16 when it was not.
            BinaryPlistWriter.appendHeader(&out, 0x50, bytes.count)
            let summary = out.appendSummarizing(bytes)
            if !summary.isASCII {
                out.truncate(start)
                BinaryPlistWriter.appendHeader(&out, 0x60, ByteArena.utf16Units(bytes))
                _ = appendUTF16BE(bytes, from: 0, until: bytes.count)
            }
            try place(index, start, hash: summary.hash, .string)
            return
        }
        try setOffset(index, byteCount)
        if ByteArena.summarize(bytes).isASCII {
            BinaryPlistWriter.appendHeader(&out, 0x50, bytes.count)
            try appendLarge(bytes)
        } else {
            BinaryPlistWriter.appendHeader(&out, 0x60, ByteArena.utf16Units(bytes))
            var i = 0
            while i < bytes.count {
                i = appendUTF16BE(bytes, from: i, until: min(bytes.count, i &+ 65_536))
                try flushIfFull()
            }
        }
    }

    /// Appends the UTF-16BE encoding of the valid UTF-8 `bytes` from `from` on, stopping at the first
    /// scalar that starts at or after `until`; returns where it stopped. (As many code units as
    /// `ByteArena.utf16Units` counts: one per scalar, two above U+FFFF.)
    private mutating func appendUTF16BE(_ bytes: Span<UInt8>, from: Int, until: Int) -> Int {
        var i = from
        let n = bytes.count
        while i < until {
            let b0 = UInt32(bytes[i])
            let length = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
            // Valid UTF-8 (a String's, or bytes the reader proved) has every continuation byte.
            guard length <= n &- i else { return n }
            var scalar = length == 1 ? b0 : b0 & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[i &+ k] & 0x3F) }
            i &+= length
            if scalar < 0x10000 {
                out.append(bigEndian: UInt64(scalar), width: 2)
            } else {
                let v = scalar &- 0x10000
                out.append(bigEndian: UInt64(0xD800 | v >> 10) << 16 | UInt64(0xDC00 | v & 0x3FF), width: 4)
            }
        }
        return i
    }

    /// Writes an integer: non-negative values in 1, 2, 4 or 8 bytes, negative ones in 8, values
    /// outside `Int64` in 16.
    public mutating func integer(_ value: PlistInteger) throws(PlistError) {
        let index = try slot(.integer)
        let start = out.count
        let width = BinaryPlistWriter.integerWidth(value)
        let low = value.low
        let hash: UInt64
        if width == 16 {
            let high = UInt64(bitPattern: value.high)
            out.append(marker: 0x14, bigEndian: high, width: 8)
            out.append(bigEndian: low, width: 8)
            hash = DedupTable.mix(low ^ DedupTable.mix(high ^ 0x14))
        } else {
            out.append(marker: 0x10 | UInt8(width.trailingZeroBitCount), bigEndian: low, width: width)
            hash = DedupTable.mix(low ^ 0x10)
        }
        try place(index, start, hash: hash, .integer)
        try advance()
    }

    /// Writes an integer.
    public mutating func int(_ value: some BinaryInteger) throws(PlistError) {
        guard let v = PlistInteger(exactly: value) else {
            throw PlistError(.unencodable, "integer \(value) is outside the 128-bit range of the format")
        }
        try integer(v)
    }

    /// Writes an 8-byte real. Deduplication is by bit pattern: `-0.0` and `0.0` stay distinct.
    public mutating func real(_ value: Double) throws(PlistError) {
        try bits(.real, 0x23, value.bitPattern, width: 8)
    }

    /// Writes a boolean.
    public mutating func bool(_ value: Bool) throws(PlistError) {
        let index = try slot(.bool)
        let start = out.count
        let marker: UInt8 = value ? 0x09 : 0x08
        out.append(byte: marker)
        try place(index, start, hash: DedupTable.mix(UInt64(marker)), .bool)
        try advance()
    }

    /// Writes a date (seconds since 2001-01-01 as an 8-byte real).
    public mutating func date(_ value: Date) throws(PlistError) {
        try bits(.date, 0x33, value.timeIntervalSinceReferenceDate.bitPattern, width: 8)
    }

    /// Writes a keyed-archiver UID.
    public mutating func uid(_ value: UInt64) throws(PlistError) {
        let width = BinaryPlistWriter.unsignedWidth(value)
        try bits(.uid, 0x80 | UInt8(width &- 1), value, width: width)
    }

    /// Writes the null object (`0x00`). Apple's writers never emit it; every reader we know accepts it.
    public mutating func null() throws(PlistError) {
        let index = try slot(.null)
        let start = out.count
        out.append(byte: 0x00)
        try place(index, start, hash: DedupTable.mix(0x00), .null)
        try advance()
    }

    /// Writes a byte string.
    public mutating func data(_ value: Data) throws(PlistError) {
        try data(bytes: value.span)
    }

    /// Writes a byte string from borrowed bytes (no `Data` needed).
    public mutating func data(bytes: Span<UInt8>) throws(PlistError) {
        let index = try slot(.data)
        let start = out.count
        BinaryPlistWriter.appendHeader(&out, 0x40, bytes.count)
        if bytes.count <= Self.rememberedPayload {
            let summary = out.appendSummarizing(bytes)
            try place(index, start, hash: summary.hash ^ 0x40, .data)
        } else {
            try setOffset(index, flushed &+ start)
            try appendLarge(bytes)
        }
        try advance()
    }

    /// A scalar of a marker and `width` payload bytes.
    private mutating func bits(_ kind: PlistKind, _ marker: UInt8, _ value: UInt64, width: Int)
        throws(PlistError)
    {
        let index = try slot(kind)
        let start = out.count
        out.append(marker: marker, bigEndian: value, width: width)
        try place(index, start, hash: DedupTable.mix(value ^ UInt64(marker)), kind)
        try advance()
    }

    // MARK: Finishing

    /// Writes the offset table and the trailer, hands the last bytes to the sink and returns the
    /// trailer written. The root value must have been written and every container ended.
    ///
    /// The sink is not closed (close a ``PlistFileSink`` yourself).
    @discardableResult
    public consuming func finish() throws(PlistError) -> BinaryPlistTrailer {
        if let failure { throw failure }
        guard top.kind == .root else {
            throw PlistError(
                .unencodable, object: top.index,
                "finish() with \(open.count) container\(open.count == 1 ? "" : "s") open; the innermost is "
                    + "\(describe(top)), with \(progress(top))")
        }
        guard top.written == 1 else { throw PlistError(.unencodable, "finish() before the root value") }
        let tableOffset = byteCount
        let count = spool.count
        let offsetSize = BinaryPlistWriter.tableWidth(UInt64(tableOffset), widths)
        var page = [UInt64](repeating: 0, count: OffsetSpool.pageSize)
        for p in 0..<spool.pageCount {
            let n: Int
            do {
                n = try spool.copyPage(p, into: &page)
            } catch {
                failure = error
                throw error
            }
            for i in 0..<n {
                let offset = page[i]
                // Internal invariant: every reserved index was given an offset (each container was
                // ended with all its children, and the root written).
                guard offset >= UInt64(BinaryPlistTrailer.headerSize) else {
                    throw PlistError(
                        .unencodable, object: p << OffsetSpool.pageShift | i, "internal error: object has no offset")
                }
                out.append(bigEndian: offset, width: offsetSize)
            }
            try flushIfFull()
        }
        // Trailer: 5 unused bytes, sort version, widths, count, top object (0), table offset.
        out.append(zeros: 6)
        out.append(byte: UInt8(offsetSize))
        out.append(byte: UInt8(refWidth))
        out.append(bigEndian: UInt64(count), width: 8)
        out.append(bigEndian: 0, width: 8)
        out.append(bigEndian: UInt64(tableOffset), width: 8)
        try flush()
        return BinaryPlistTrailer(
            offsetIntSize: offsetSize, objectRefSize: refWidth, objectCount: count, topObject: 0,
            offsetTableOffset: tableOffset, sortVersion: 0)
    }

    // MARK: Bookkeeping

    /// Key kinds our reader (and CoreFoundation) accept.
    static func canBeKey(_ kind: PlistKind) -> Bool {
        switch kind {
        case .string, .integer, .real, .date, .data: return true
        default: return false
        }
    }

    /// The index of the next value, if a value of `kind` may come next; nothing changes.
    @inline(__always)
    func slot(_ kind: PlistKind) throws(PlistError) -> Int {
        if let failure { throw failure }
        let f = top
        guard f.written < f.total else {
            throw PlistError(
                .unencodable, object: f.index >= 0 ? f.index : nil,
                f.kind == .root
                    ? "a \(kind) after the root value: a property list has one root"
                    : "a \(kind) after all \(progress(f)) of \(describe(f)); call end()")
        }
        guard f.kind == .dictionary else { return f.base &+ f.written }
        let k = f.written >> 1
        guard f.written & 1 == 1 else {
            guard Self.canBeKey(kind) else {
                throw PlistError(
                    .invalidKey, object: f.index,
                    "a \(kind) as key \(k) of \(describe(f)): keys must be strings, numbers, dates or data")
            }
            return f.base &+ k
        }
        return f.base &+ f.count &+ k
    }

    /// The value just written took its slot.
    @inline(__always)
    private mutating func advance() throws(PlistError) {
        top.written &+= 1
        try flushIfFull()
    }

    /// Files the scalar encoded at `out[start...]` as object `index`: when an equal one was written
    /// before, its bytes are dropped and the index takes that object's offset.
    @inline(__always)
    private mutating func place(_ index: Int, _ start: Int, hash: UInt64, _ kind: PlistKind) throws(PlistError) {
        let position = flushed &+ start
        let k = ScalarMemo.kindIndex(kind)
        if deduplicate && memo.considers(k) {
            let n = out.count &- start
            let earlier = out.withBytes(start, n) { memo.lookupOrRemember(hash, $0, at: position, kind: k) }
            if let earlier {
                out.truncate(start)
                try setOffset(index, earlier)
                return
            }
        }
        try setOffset(index, position)
    }

    @inline(__always)
    private mutating func setOffset(_ index: Int, _ offset: Int) throws(PlistError) {
        do {
            try spool.set(index, offset)
        } catch {
            failure = error
            throw error
        }
    }

    @inline(__always)
    private mutating func flushIfFull() throws(PlistError) {
        if out.count >= bufferSize { try flush() }
    }

    /// Hands the buffered bytes to the sink.
    private mutating func flush() throws(PlistError) {
        let n = out.count
        guard n > 0 else { return }
        do {
            try out.withBytes(0, n) { (bytes) throws(PlistError) in try sink.write(bytes) }
        } catch {
            failure = error
            throw error
        }
        flushed &+= n
        out.truncate(0)
    }

    /// Appends a large payload: through the buffer when it is small next to it, else straight to the sink.
    private mutating func appendLarge(_ bytes: Span<UInt8>) throws(PlistError) {
        if bytes.count < bufferSize / 2 {
            out.append(bytes)
            return
        }
        try flush()
        do {
            try sink.write(bytes)
        } catch {
            failure = error
            throw error
        }
        flushed &+= bytes.count
    }

    /// "2 of 3 elements", "1 of 2 entries (and its key)".
    private func progress(_ f: Frame) -> String {
        switch f.kind {
        case .root: return "\(f.written) of 1 root value"
        case .array, .set: return "\(f.written) of \(f.count) elements"
        case .dictionary:
            return "\(f.written >> 1) of \(f.count) entries" + (f.written & 1 == 1 ? " and a key" : "")
        }
    }

    /// "the array (object 5) of 3 elements".
    private func describe(_ f: Frame) -> String {
        switch f.kind {
        case .root: return "the property list"
        case .array: return "the array (object \(f.index)) of \(f.count) elements"
        case .set: return "the set (object \(f.index)) of \(f.count) members"
        case .dictionary: return "the dictionary (object \(f.index)) of \(f.count) entries"
        }
    }

    /// "a key", "a value", "the root value", "end()".
    private func expected(_ f: Frame) -> String {
        if f.written >= f.total { return f.kind == .root ? "nothing more" : "end()" }
        switch f.kind {
        case .root: return "the root value"
        case .array, .set: return "an element"
        case .dictionary: return f.written & 1 == 0 ? "a key" : "a value"
        }
    }

    private func tooManyObjects(adding count: Int, _ what: String) -> PlistError {
        PlistError(
            .unencodable, object: top.index >= 0 ? top.index : nil,
            "a container of \(what) needs more objects than the \(refWidth)-byte references address "
                + "(\(maxObjects)); give StreamingPlistWriter.Options.expectedObjectCount")
    }
}
