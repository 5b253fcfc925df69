// Sources/PropertyList/Binary/Reading/DocumentReader.swift - One borrow of the input for a batch of lazy reads.
//
// Every lazy read through `BinaryPlistDocument` borrows the input bytes (a span of the `Data`),
// and `Data`'s storage is a class whose fields Swift guards with a dynamic exclusivity check: about
// 120 instructions per borrow, more than reading a small object costs. A keyed unarchiver makes
// dozens of reads per archived object, so it borrows once per public call and reads through a
// `Reader` instead. The reader is non-copyable and only ever lent (`borrowing`) to a closure, so it
// cannot be stored or outlive the borrow it wraps.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

extension BinaryPlistDocument {
    /// A borrowed view of a document's bytes: reads through it share one borrow of the input.
    ///
    /// Package access: the keyed layer's unarchiver reads through one, lent for a top-level read.
    /// It is obtained from `withReader(_:)` and valid only inside its closure (the type is
    /// non-copyable and lent, so it cannot escape).
    /// Results are the same as the document's own lazy methods, which are written in terms of it.
    ///
    /// ```swift
    /// let names = try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) in
    ///     guard case .array(let list) = try r.object(doc.root) else { return [String]() }
    ///     return try r.references(in: list).compactMap { (ref) throws(PlistError) in try r.string(ref) }
    /// }
    /// ```
    package struct Reader: ~Copyable {
        // What the reads need of the document, not the document itself: a method called on a stored
        // document from a borrowed non-copyable reader gets a copy of the whole document (a memcpy
        // and the retains of its buffers) on every call, and making the reader copied it once more.
        /// The input, for the reference lists of containers.
        let data: Data
        /// The trailer, limits and options, as plain values.
        let context: ScanContext
        let bytes: ByteReader
        // The fields of the hottest reads, copied out of `context` once per reader: reading them
        // through `context` on each call measured 1.5 % more instructions per unarchive.
        let objectCount: Int
        let tableOffset: Int
        let offsetSize: Int
        let offsetMask: UInt64
        let maxUID: UInt64

        init(document: borrowing BinaryPlistDocument, bytes: ByteReader) {
            data = document.data
            context = document.scanContext
            self.bytes = bytes
            objectCount = document.trailer.objectCount
            tableOffset = document.trailer.offsetTableOffset
            offsetSize = document.trailer.offsetIntSize
            offsetMask = ByteReader.mask(width: document.trailer.offsetIntSize)
            maxUID = document.limits.maxUID
        }

        /// The file offset of object `index`; `0 <= index < objectCount` is the caller's proof.
        @inline(__always)
        func offset(of index: Int) -> Int {
            // In bounds: the offset table (tableOffset ..< tableOffset + objectCount × offsetSize) was
            // proven inside the buffer at open, and index < objectCount; the entry ends past the 8-byte
            // header (tableOffset >= 8), as the masked load needs.
            unsafe Int(
                truncatingIfNeeded: bytes.uint(
                    unchecked: tableOffset &+ index &* offsetSize, width: offsetSize, mask: offsetMask))
        }

        /// Decodes one object's marker (see ``BinaryPlistDocument/object(_:)``).
        ///
        /// - Parameter ref: The object.
        /// - Throws: `badReference`, or the object's own format error.
        @inline(__always)
        package func object(_ ref: ObjectRef) throws(PlistError) -> PlistObject {
            BinaryPlistDocument.publicObject(try raw(ref), data: data, refSize: context.trailer.objectRefSize)
        }

        /// The value of a UID object, or `nil` when the object is something else: the keyed
        /// archiver's most frequent read, without building a ``PlistObject``.
        ///
        /// - Parameter ref: The object.
        /// - Throws: `badReference`, or the object's own format error.
        @inline(__always)
        package func uid(_ ref: ObjectRef) throws(PlistError) -> UInt64? {
            guard ref.index >= 0, ref.index < objectCount else { throw outOfRange(ref) }
            let off = offset(of: ref.index)
            // off < offsetTableOffset <= count was proven at open: the marker byte is readable.
            let marker = unsafe bytes.byte(unchecked: off)
            if marker >> 4 == 0x8 {
                return try ScanContext.uid(
                    bytes, at: off, marker: marker, index: ref.index, end: tableOffset, maxUID: maxUID)
            }
            _ = try raw(ref)  // Not a UID: nil, unless the object is malformed.
            return nil
        }

        /// The value of an integer object of 1, 2, 4 or 8 bytes (`0x10`...`0x13`), read without the
        /// general scanner; `nil` for any other object, which the caller then reads with ``object(_:)``
        /// (a 16-byte integer, another kind, or a malformed object and its error).
        ///
        /// - Parameter ref: The object.
        @inline(__always)
        package func smallInteger(_ ref: ObjectRef) -> PlistInteger? {
            guard ref.index >= 0, ref.index < objectCount else { return nil }
            let off = offset(of: ref.index)
            // off < tableOffset <= count was proven at open: the marker byte is readable.
            let marker = unsafe bytes.byte(unchecked: off)
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { return nil }
            let width = 1 &<< Int(marker & 0x0F)
            guard width <= tableOffset &- off &- 1 else { return nil }
            // In bounds: off + 1 ..< off + 1 + width lies in the object region (checked above).
            let v = unsafe bytes.uint(unchecked: off &+ 1, width: width)
            // 1, 2 and 4 bytes are unsigned; 8 bytes are a signed value (as the scanner reads them).
            return PlistInteger(high: width == 8 && Int64(bitPattern: v) < 0 ? -1 : 0, low: v)
        }

        /// The key and value lists of object `ref` when it is a dictionary, as ``RefSpan``s (no
        /// ``PlistObject`` or ``ReferenceList`` built); `nil` for any other object.
        ///
        /// - Parameter ref: The object.
        /// - Throws: `badReference`, or the object's own format error.
        @inline(__always)
        package func dictionary(_ ref: ObjectRef) throws(PlistError) -> (keys: RefSpan, values: RefSpan)? {
            let raw = try raw(ref)
            guard raw.kind == .dictionary else { return nil }
            let w = context.trailer.objectRefSize
            return (
                RefSpan(start: raw.payload, width: w, count: raw.count),
                RefSpan(start: raw.payload &+ raw.count &* w, width: w, count: raw.count)
            )
        }

        /// The string an object holds, or `nil` when it is not a string.
        ///
        /// - Parameter ref: The object.
        /// - Throws: `badReference`, the object's format error, or `invalidString`.
        package func string(_ ref: ObjectRef) throws(PlistError) -> String? {
            if let (start, count) = ascii(ref), let s = unsafe bytes.asciiString(unchecked: start, length: count) {
                return s
            }
            let raw = try raw(ref)
            guard raw.kind == .ascii || raw.kind == .utf16 else { return nil }
            return try context.makeString(bytes, raw, ref.index)
        }

        /// The string of an object already decoded with ``object(_:)``, without reading its marker
        /// again; `nil` when it is not a string.
        ///
        /// - Parameter object: An object of this document.
        /// - Throws: `invalidString`, or `offsetOutOfRange` when `object` names bytes outside this
        ///   document's object region (it came from another document).
        package func string(_ object: PlistObject) throws(PlistError) -> String? {
            var raw: RawObject
            let range: ByteRange
            switch object {
            case .asciiString(let r):
                raw = RawObject(kind: .ascii)
                range = r
                raw.count = r.count
            case .utf16String(let r):
                raw = RawObject(kind: .utf16)
                range = r
                raw.count = r.count / 2
            default:
                return nil
            }
            // The range must lie in the object region: true of every string object of this document.
            let end = tableOffset
            guard range.offset >= 8, bytes.contains(offset: range.offset, length: range.count, limit: end) else {
                throw PlistError(
                    .offsetOutOfRange, offset: range.offset,
                    "string bytes \(range.offset) ..< \(range.offset + range.count) are outside the object region")
            }
            raw.payload = range.offset
            return try context.makeString(bytes, raw, nil)
        }

        /// Compares a string object with `key` without allocating a `String` (ASCII fast path);
        /// `false` when the object is not a string.
        ///
        /// - Parameters:
        ///   - ref: The object.
        ///   - key: The text to compare with, as exact UTF-8.
        /// - Throws: `badReference`, the object's format error, or `invalidString`.
        @inline(__always)
        package func string(_ ref: ObjectRef, equals key: String) throws(PlistError) -> Bool {
            // Range proven by ascii(): start ..< start + count is inside the object region.
            if let (start, count) = ascii(ref) {
                return unsafe bytes.bytes(unchecked: start, length: count, equal: key)
            }
            let raw = try raw(ref)
            switch raw.kind {
            case .ascii:
                // Range proven by scan(): payload ..< payload + count is inside the object region.
                return unsafe bytes.bytes(unchecked: raw.payload, length: raw.count, equal: key)
            case .utf16:
                return try context.makeString(bytes, raw, ref.index).utf8.elementsEqual(key.utf8)
            default:
                return false
            }
        }

        /// Whether a key object holds `key`, prepared as `probe` (see ``KeyProbe``): for a short ASCII
        /// key and an ASCII object with an inline count, one marker comparison and two masked word
        /// loads; any other object goes through ``string(_:equals:)``, so the answer and the errors
        /// are the same.
        ///
        /// - Parameters:
        ///   - ref: The key object.
        ///   - probe: `KeyProbe(key)`, made once.
        ///   - key: The key, for the objects the probe does not decide.
        /// - Throws: `badReference`, the object's format error, or `invalidString`.
        @inline(__always)
        package func string(_ ref: ObjectRef, matches probe: KeyProbe, _ key: String) throws(PlistError) -> Bool {
            if let decided = string(ref, matches: probe) { return decided }
            return try string(ref, equals: key)
        }

        /// The short comparison of ``string(_:matches:_:)`` alone: `nil` when it cannot decide (the
        /// caller then compares with ``string(_:equals:)``, which also reports a malformed object).
        ///
        /// - Parameters:
        ///   - ref: The key object.
        ///   - probe: The key, prepared once.
        @inline(__always)
        package func string(_ ref: ObjectRef, matches probe: KeyProbe) -> Bool? {
            if probe.marker != 0, ref.index >= 0, ref.index < objectCount {
                let off = offset(of: ref.index)
                // off < tableOffset <= count was proven at open: the marker byte is readable.
                let marker = unsafe bytes.byte(unchecked: off)
                let n = Int(marker & 0x0F)
                // An ASCII string with an inline count whose payload lies in the object region (anything
                // else, malformed objects included, takes the general path).
                if marker >> 4 == 0x5, n != 0x0F, n <= tableOffset &- off &- 1 {
                    guard marker == probe.marker else { return false }
                    if off &+ 17 <= bytes.count {
                        // In bounds: off + 1 ..< off + 17 lies inside 0 ..< count (checked above). The
                        // masks keep the n bytes of the payload.
                        let a = unsafe bytes.word(unchecked: off &+ 1)
                        let b = unsafe bytes.word(unchecked: off &+ 9)
                        return a & probe.masks.0 == probe.words.0 && b & probe.masks.1 == probe.words.1
                    }
                }
            }
            return nil
        }

        /// The reference at position `index` of `list`.
        ///
        /// - Parameters:
        ///   - index: A position in `0 ..< list.count` (a precondition, as for an array).
        ///   - list: A reference list of this document.
        /// - Complexity: O(1), no allocation.
        @inline(__always)
        package func reference(at index: Int, in list: ReferenceList) -> ObjectRef {
            let off = list.start &+ index &* list.width
            // A list of this document was proven to lie in its object region when it was scanned;
            // the check also stops a list of another (shorter) document from reading out of bounds.
            precondition(
                index >= 0 && index < list.count && off >= 8 && off <= bytes.count &- list.width,
                "reference index out of range, or a ReferenceList of another document")
            // In bounds: off + width <= count (checked above) and off + width >= 8 (off >= 8).
            let value = unsafe bytes.uint(unchecked: off, width: list.width, mask: ByteReader.mask(width: list.width))
            return ObjectRef(Int(truncatingIfNeeded: value))
        }

        /// The reference at position `index` of `span` (the same read as for a ``ReferenceList``).
        ///
        /// - Parameters:
        ///   - index: A position in `0 ..< span.count` (a precondition, as for an array).
        ///   - span: The place of a reference list of this document.
        @inline(__always)
        package func reference(at index: Int, in span: RefSpan) -> ObjectRef {
            let off = span.start &+ index &* span.width
            // A span of this document lies in its object region (it was a scanned list); the check also
            // stops a span of another (shorter) document from reading out of bounds.
            precondition(
                index >= 0 && index < span.count && off >= 8 && off <= bytes.count &- span.width,
                "reference index out of range, or a RefSpan of another document")
            // In bounds: off + width <= count (checked above) and off + width >= 8 (off >= 8).
            let value = unsafe bytes.uint(unchecked: off, width: span.width, mask: span.mask)
            return ObjectRef(Int(truncatingIfNeeded: value))
        }

        /// All references of `list`, read in one pass.
        ///
        /// - Parameter list: A reference list of this document.
        /// - Returns: The references in order.
        package func references(in list: ReferenceList) -> [ObjectRef] {
            guard list.count > 0 else { return [] }  // `ReferenceList.empty` has no document to lie in
            var out: [ObjectRef] = []
            out.reserveCapacity(list.count)
            // The bulk read proves the whole list inside the input once (a list of this document always is).
            let inside = bytes.forEachUInt(offset: list.start, count: list.count, width: list.width) { _, value in
                out.append(ObjectRef(Int(truncatingIfNeeded: value)))
            }
            precondition(inside, "a ReferenceList of another document")
            return out
        }

        /// The first position at or after `start` (wrapping around once) where `list` holds `ref`, or
        /// `nil`: finds a known key object of a dictionary by reference, without comparing strings.
        ///
        /// - Parameters:
        ///   - ref: The reference to find.
        ///   - list: A reference list of this document.
        ///   - start: Where to begin (positions past the end begin at 0).
        package func position(of ref: ObjectRef, in list: ReferenceList, from start: Int = 0) -> Int? {
            let n = list.count
            guard n > 0 else { return nil }
            var i = start >= 0 && start < n ? start : 0
            for _ in 0..<n {
                if reference(at: i, in: list) == ref { return i }
                i = i &+ 1 == n ? 0 : i &+ 1
            }
            return nil
        }

        /// A copy of a byte range of the input (empty when the range is outside it).
        ///
        /// - Parameter range: A range of this document's bytes, e.g. from ``PlistObject/data(_:)``.
        package func bytes(_ range: ByteRange) -> Data {
            bytes.data(offset: range.offset, length: range.count) ?? Data()
        }

        /// Where the bytes of object `ref` are when it is an ASCII string (`0x5n`) with an inline count
        /// or a 1- or 2-byte extended count whose payload lies in the object region: the common case,
        /// read without `scan`. `nil` for anything else (which `scan` then decodes or reports).
        @inline(__always)
        func ascii(_ ref: ObjectRef) -> (start: Int, count: Int)? {
            guard ref.index >= 0, ref.index < objectCount else { return nil }
            let off = offset(of: ref.index)
            let end = tableOffset
            // off < end <= bytes.count was proven at open: the marker byte is readable.
            let marker = unsafe bytes.byte(unchecked: off)
            guard marker >> 4 == 0x5,
                let (count, start) = ScanContext.shortCount(bytes, marker: marker, at: off, end: end),
                count <= end &- start
            else { return nil }
            return (start, count)
        }

        /// Scans object `ref` after checking it against the object count.
        @inline(__always)
        func raw(_ ref: ObjectRef) throws(PlistError) -> RawObject {
            guard ref.index >= 0, ref.index < objectCount else { throw outOfRange(ref) }
            return try context.scan(bytes, ref.index)
        }

        func outOfRange(_ ref: ObjectRef) -> PlistError {
            PlistError(
                .badReference, object: ref.index,
                "reference \(ref.index) is not below the object count \(objectCount)")
        }
    }

    /// Where a reference list lies, without the document it lies in: a ``ReferenceList`` that costs
    /// no reference counting to copy (the keyed unarchiver's frames hold two per object being decoded),
    /// read only through a ``Reader`` of the same document.
    package struct RefSpan: Sendable {
        let start: Int
        let width: Int
        package let count: Int
        /// `ByteReader.mask(width:)`, computed once.
        let mask: UInt64

        /// The place of `list`.
        @inline(__always)
        package init(_ list: borrowing ReferenceList) {
            self.init(start: list.start, width: list.width, count: list.count)
        }

        @inline(__always)
        init(start: Int, width: Int, count: Int) {
            (self.start, self.width, self.count) = (start, width, count)
            mask = ByteReader.mask(width: width)
        }

        /// A span with no references.
        package static var empty: RefSpan { RefSpan(start: 0, width: 1, count: 0) }
    }

    /// A key prepared for comparison with many key objects (``Reader/string(_:matches:_:)``): a key of
    /// at most 14 ASCII bytes is kept as the marker it is written with (`0x5n`) and its bytes as two
    /// little-endian words, so a comparison builds no string and touches no `String` storage.
    ///
    /// A plain value (no reference counting): it is copied freely on the unarchiver's key lookups.
    package struct KeyProbe: Sendable {
        /// `0x50 | count` for a short ASCII key; 0 when the key takes the general comparison.
        let marker: UInt8
        let words: (UInt64, UInt64)
        let masks: (UInt64, UInt64)

        package init(_ key: String) {
            var words: (UInt64, UInt64) = (0, 0)
            var count = 0
            var ascii = true
            for byte in key.utf8 {
                if byte >= 0x80 || count == 14 {
                    ascii = false
                    break
                }
                if count < 8 {
                    words.0 |= UInt64(byte) << UInt64(8 &* count)
                } else {
                    words.1 |= UInt64(byte) << UInt64(8 &* (count &- 8))
                }
                count &+= 1
            }
            guard ascii else {
                (marker, self.words, masks) = (0, (0, 0), (0, 0))
                return
            }
            marker = 0x50 | UInt8(count)
            self.words = words
            let low = count >= 8 ? UInt64.max : (UInt64(1) << UInt64(8 &* count)) &- 1
            let high = count <= 8 ? 0 : (UInt64(1) << UInt64(8 &* (count &- 8))) &- 1
            masks = (low, high)
        }
    }

    /// Runs `body` with a ``Reader``: one borrow of the input for all the reads it makes.
    ///
    /// - Parameter body: The reads; the reader is lent to it and cannot escape.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inline(__always)
    package func withReader<R, E: Error>(_ body: (borrowing Reader) throws(E) -> R) throws(E) -> R {
        try withBytes { (r: ByteReader) throws(E) -> R in try body(Reader(document: self, bytes: r)) }
    }

    /// The document's bytes, lent for the whole of one ``withLentBytes(_:)`` call to a caller that
    /// makes many short reads inside it (the keyed unarchiver: every field of every object of one
    /// top-level decode). A borrow through `Data.bytes` costs about 300 instructions (the getter,
    /// the exclusivity check on `Data`'s storage, the document copy); a read through lent bytes
    /// costs none of the first two.
    ///
    /// Unsafe because it holds the borrowed pointer: it may be used only until the
    /// ``withLentBytes(_:)`` call that made it returns, and only with the document that made it.
    @unsafe package struct LentBytes {
        let bytes: ByteReader
    }

    /// Runs `body` with this document's bytes lent (one borrow for all of `body`).
    @inline(__always)
    package func withLentBytes<R, E: Error>(_ body: (LentBytes) throws(E) -> R) throws(E) -> R {
        try withBytes { (r: ByteReader) throws(E) -> R in try unsafe body(LentBytes(bytes: r)) }
    }

    /// A reader over bytes lent by ``withLentBytes(_:)``, for a caller that keeps it for the rest of
    /// that call (the keyed unarchiver lends one reader to all the reads of a top-level decode).
    ///
    /// - Precondition: as for ``withReader(lent:_:)``; and the reader is used only until the
    ///   ``withLentBytes(_:)`` call that lent the bytes returns.
    @unsafe
    package func reader(lent: LentBytes) -> Reader {
        precondition(unsafe lent.bytes.count == data.count, "bytes lent by another document")
        return Reader(document: self, bytes: unsafe lent.bytes)
    }

    /// A reader over no bytes, for a caller that keeps a reader between borrows (the keyed
    /// unarchiver) and replaces it with ``reader(lent:)`` before any read: every read through it is
    /// out of range (a reference read traps at its bounds check; a marker read fails at the count).
    package func idleReader() -> Reader {
        // No bytes: nothing can be read through it.
        unsafe Reader(document: self, bytes: ByteReader(UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    /// ``withReader(_:)`` over bytes lent by ``withLentBytes(_:)``: no new borrow.
    ///
    /// - Precondition: `lent` was made by this document's ``withLentBytes(_:)``, which has not
    ///   returned yet. The byte count is checked (a lent view of another document of another size
    ///   traps instead of reading out of bounds); the caller proves the rest.
    @unsafe @inline(__always)
    package func withReader<R, E: Error>(lent: LentBytes, _ body: (borrowing Reader) throws(E) -> R) throws(E) -> R {
        precondition(unsafe lent.bytes.count == data.count, "bytes lent by another document")
        return try body(Reader(document: self, bytes: unsafe lent.bytes))
    }
}
