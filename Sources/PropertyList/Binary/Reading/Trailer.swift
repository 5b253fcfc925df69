// Sources/PropertyList/Binary/Reading/Trailer.swift - The 32-byte bplist trailer and its invariants.
//
// Format facts from the public CFBinaryPList.c comment and CoreFoundation's
// __CFBinaryPlistGetTopLevelInfo (swift-corelibs-foundation), restated in our own words:
//
//   offset  size  field
//   -32     5     unused (zero when written, ignored when read)
//   -27     1     sort version (zero when written, ignored when read)
//   -26     1     offsetIntSize   bytes per offset-table entry
//   -25     1     objectRefSize   bytes per object reference inside containers
//   -24     8     numObjects      big-endian
//   -16     8     topObject       big-endian, index of the root object
//   -8      8     offsetTableOffset big-endian, file offset of the offset table
//
// and the file is exactly: 8-byte header, objects, offset table, trailer.

/// The decoded trailer of a binary property list.
public struct BinaryPlistTrailer: Sendable, Hashable {
    /// The trailer's size in bytes.
    public static let size = 32
    /// The header (`bplist00`) size in bytes; objects start here.
    public static let headerSize = 8

    /// Bytes per offset-table entry (1...8).
    public var offsetIntSize: Int
    /// Bytes per object reference inside arrays, sets and dictionaries (1...8).
    public var objectRefSize: Int
    /// Number of objects (entries in the offset table).
    public var objectCount: Int
    /// Index of the root object.
    public var topObject: Int
    /// File offset of the offset table; the object region is `8 ..< offsetTableOffset`.
    public var offsetTableOffset: Int
    /// The sort-version byte (informational).
    public var sortVersion: UInt8

    /// Total length of a file with this trailer: objects, offset table and trailer.
    var fileLength: Int { offsetTableOffset + objectCount * offsetIntSize + BinaryPlistTrailer.size }

    /// Reads the trailer that ends at `end` and checks every invariant that does not need the
    /// offset table itself. Does not check that `end` is the end of the input.
    static func parse(_ r: ByteReader, endingAt end: Int, limits: PlistLimits)
        throws(PlistError) -> BinaryPlistTrailer
    {
        let start = end - size
        // The smallest file: header, one 1-byte object, one 1-byte offset, trailer.
        guard start >= headerSize + 2, let sortVersion = r.byte(at: start + 5),
            let offsetIntSize = r.byte(at: start + 6), let objectRefSize = r.byte(at: start + 7),
            let rawCount = r.uint(at: start + 8, width: 8), let rawTop = r.uint(at: start + 16, width: 8),
            let rawTable = r.uint(at: start + 24, width: 8)
        else {
            throw PlistError(.truncated, offset: 0, "\(end) bytes cannot hold a header, an object and a trailer")
        }
        func fail(_ at: Int, _ detail: String) -> PlistError {
            PlistError(.invalidTrailer, offset: start + at, detail)
        }
        // Widths: a reference or offset wider than 8 bytes cannot address anything a 64-bit reader can.
        guard (1...8).contains(offsetIntSize) else { throw fail(6, "offset size \(offsetIntSize) is not 1...8") }
        guard (1...8).contains(objectRefSize) else {
            throw fail(7, "object reference size \(objectRefSize) is not 1...8")
        }
        // At least the root must exist, and the count must be representable.
        guard rawCount >= 1, rawCount <= UInt64(Int.max) else {
            throw fail(8, "object count \(rawCount) is not 1...Int.max")
        }
        let count = Int(rawCount)
        // The root must be one of the objects.
        guard rawTop < rawCount else {
            throw PlistError(
                .badReference, offset: start + 16,
                "top object \(rawTop) is not below the object count \(count)")
        }
        // The offset table sits after at least one object byte and before the trailer.
        guard rawTable >= UInt64(headerSize + 1), rawTable < UInt64(start) else {
            throw fail(24, "offset table offset \(rawTable) is not inside \(headerSize + 1) ..< \(start)")
        }
        let table = Int(rawTable)
        // The offset table must fill exactly the space up to the trailer (count × size without overflow).
        let (tableBytes, overflow) = count.multipliedReportingOverflow(by: Int(offsetIntSize))
        guard !overflow, tableBytes == start - table else {
            throw fail(
                8,
                "\(count) offsets × \(offsetIntSize) bytes do not fill the \(start - table) bytes "
                    + "between the offset table at \(table) and the trailer at \(start)")
        }
        // Within the caller's limit (checked after the table size, which proves the count is real).
        guard count <= limits.maxObjects else {
            throw PlistError(
                .limitExceeded, offset: start + 8,
                "object count \(count) exceeds the limit of \(limits.maxObjects)")
        }
        // References must be wide enough to name every object (CoreFoundation's rule).
        if objectRefSize < 8, UInt64(count) >= (1 as UInt64) << (8 * UInt64(objectRefSize)) {
            throw fail(7, "\(objectRefSize)-byte object references cannot address \(count) objects")
        }
        // Offsets must be wide enough to reach the offset table.
        if offsetIntSize < 8, UInt64(table) >= (1 as UInt64) << (8 * UInt64(offsetIntSize)) {
            throw fail(6, "\(offsetIntSize)-byte offsets cannot reach the offset table at \(table)")
        }
        return BinaryPlistTrailer(
            offsetIntSize: Int(offsetIntSize), objectRefSize: Int(objectRefSize), objectCount: count,
            topObject: Int(rawTop), offsetTableOffset: table, sortVersion: sortVersion)
    }

    /// Checks every offset-table entry: each must point into the object region `8 ..< offsetTableOffset`.
    func validateOffsetTable(_ r: ByteReader) throws(PlistError) {
        let w = offsetIntSize
        let table = offsetTableOffset
        // parse() proved table + count × w == trailer start <= r.count and table >= 9.
        let inside = try r.forEachUInt(offset: table, count: objectCount, width: w) {
            (i, off) throws(PlistError) in
            guard off >= UInt64(BinaryPlistTrailer.headerSize), off < UInt64(table) else {
                throw PlistError(
                    .offsetOutOfRange, offset: table + i * w, object: i,
                    "object \(i) is at offset \(off), outside the object region 8 ..< \(table)")
            }
        }
        guard inside else {
            throw PlistError(.truncated, offset: table, "offset table runs past the end of the input")
        }
    }
}
