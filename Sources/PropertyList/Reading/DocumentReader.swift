// Sources/PropertyList/Reading/DocumentReader.swift - One borrow of the input for a batch of lazy reads.
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
    /// Not API: the type is public only because ``KeyedArchiveValue``'s hidden fast-path requirement
    /// names it, and nothing on it is public. Inside the package it is obtained from `withReader(_:)`
    /// and valid only inside its closure (the type is non-copyable and lent, so it cannot escape).
    /// Results are the same as the document's own lazy methods, which are written in terms of it.
    ///
    /// ```swift
    /// let names = try doc.withReader { (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) in
    ///     guard case .array(let list) = try r.object(doc.root) else { return [String]() }
    ///     return try r.references(in: list).compactMap { (ref) throws(PlistError) in try r.string(ref) }
    /// }
    /// ```
    @_documentation(visibility: internal)
    public struct Reader: ~Copyable {
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
        let maxUID: UInt64

        init(document: borrowing BinaryPlistDocument, bytes: ByteReader) {
            data = document.data
            context = document.scanContext
            self.bytes = bytes
            objectCount = document.trailer.objectCount
            tableOffset = document.trailer.offsetTableOffset
            offsetSize = document.trailer.offsetIntSize
            maxUID = document.limits.maxUID
        }

        /// The file offset of object `index`; `0 <= index < objectCount` is the caller's proof.
        @inline(__always)
        func offset(of index: Int) -> Int {
            ScanContext.objectOffset(bytes, index, table: tableOffset, width: offsetSize)
        }

        /// Decodes one object's marker (see ``BinaryPlistDocument/object(_:)``).
        ///
        /// - Parameter ref: The object.
        /// - Throws: `referenceOutOfRange`, or the object's own format error.
        @inline(__always)
        package func object(_ ref: ObjectRef) throws(PlistError) -> PlistObject {
            BinaryPlistDocument.publicObject(try raw(ref), data: data, refSize: context.trailer.objectRefSize)
        }

        /// The value of a UID object, or `nil` when the object is something else: the keyed
        /// archiver's most frequent read, without building a ``PlistObject``.
        ///
        /// - Parameter ref: The object.
        /// - Throws: `referenceOutOfRange`, or the object's own format error.
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

        /// The string an object holds, or `nil` when it is not a string.
        ///
        /// - Parameter ref: The object.
        /// - Throws: `referenceOutOfRange`, the object's format error, or `invalidString`.
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
        /// - Throws: `referenceOutOfRange`, the object's format error, or `invalidString`.
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

        /// Whether a key object holds the key of `probe` (see ``KeyProbe``): for a short ASCII key and
        /// an ASCII object with an inline count, one marker comparison and two masked word loads; any
        /// other object goes through ``string(_:equals:)``, so the answer and the errors are the same.
        ///
        /// - Parameters:
        ///   - ref: The key object.
        ///   - probe: The key, prepared once.
        /// - Throws: `referenceOutOfRange`, the object's format error, or `invalidString`.
        @inline(__always)
        package func string(_ ref: ObjectRef, matches probe: KeyProbe) throws(PlistError) -> Bool {
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
            return try string(ref, equals: probe.key)
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
                .referenceOutOfRange, object: ref.index,
                "reference \(ref.index) is not below the object count \(objectCount)")
        }
    }

    /// A key prepared for comparison with many key objects (``Reader/string(_:matches:)``): a key of
    /// at most 14 ASCII bytes is kept as the marker it is written with (`0x5n`) and its bytes as two
    /// little-endian words, so a comparison builds no string and touches no `String` storage.
    package struct KeyProbe: Sendable {
        /// The key, for objects the short comparison does not decide.
        package let key: String
        /// `0x50 | count` for a short ASCII key; 0 when the key takes the general comparison.
        let marker: UInt8
        let words: (UInt64, UInt64)
        let masks: (UInt64, UInt64)

        package init(_ key: String) {
            self.key = key
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
