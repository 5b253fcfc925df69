// Sources/PropertyList/Binary/Reading/ObjectScanner.swift - Decodes one object's marker and proves its extent.
//
// Marker table (CFBinaryPList.c comment; high nibble = type, low nibble = size or count):
//   0000 0000 null      0000 1000 false     0000 1001 true      0000 1111 fill
//   0001 0nnn int, 2^nnn bytes (1, 2, 4 unsigned; 8 signed; 16 signed 128-bit)
//   0010 0nnn real, 2^nnn bytes (4 or 8)
//   0011 0011 date, float64 seconds since 2001-01-01
//   0100 nnnn data, nnnn bytes        0101 nnnn ASCII string, nnnn bytes
//   0110 nnnn UTF-16BE string, nnnn code units (2 × nnnn bytes)
//   1000 nnnn UID, nnnn + 1 bytes
//   1010 nnnn array, nnnn refs        1100 nnnn set, nnnn refs
//   1101 nnnn dict, nnnn key refs then nnnn value refs
// A count nibble of 1111 means the count follows as a complete int object.
// Markers only defined for "bplist1?" (0x0C-0x0E, 0x7n, 0xBn) and the unused ones are rejected.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One object's marker decoded, with its payload located but not read.
struct RawObject {
    enum Kind: UInt8 {
        case null, fill, bool, integer, real, date, data, ascii, utf16, uid, array, set, dictionary
    }
    var kind: Kind
    /// bool: 0/1; integer: the low 64 bits (see `int128`); real/date: the Double's bit pattern; uid: value.
    var scalar: UInt64 = 0
    /// The high 64 bits of a 16-byte integer (sign-extended for narrower ones).
    var high: Int64 = 0
    /// Offset of the payload (bytes, code units or references).
    var payload: Int = 0
    /// Element count: bytes for data/ascii, code units for utf16, refs for containers (pairs for dicts).
    var count: Int = 0

    var int128: Int128 { Int128(high) << 64 | Int128(scalar) }
    var integer: PlistInteger { PlistInteger(high: high, low: scalar) }
    var isContainer: Bool { kind == .array || kind == .set || kind == .dictionary }
}

extension ScanContext {
    /// The file offset of object `index`; `index < objectCount` is the caller's proof.
    @inline(__always)
    func objectOffset(_ r: ByteReader, _ index: Int) -> Int {
        ScanContext.objectOffset(r, index, table: trailer.offsetTableOffset, width: trailer.offsetIntSize)
    }

    /// `objectOffset(_:_:)` from the trailer's table offset and entry width.
    @inline(__always)
    static func objectOffset(_ r: ByteReader, _ index: Int, table: Int, width: Int) -> Int {
        // In bounds: the offset table (table ..< table + count × w) was proven inside the buffer at
        // open, and index < objectCount. Each entry was proven to be in 8 ..< table.
        unsafe Int(truncatingIfNeeded: r.uint(unchecked: table + index * width, width: width))
    }

    /// Decodes the marker of object `index` and proves that its whole payload lies in the object region.
    func scan(_ r: ByteReader, _ index: Int) throws(PlistError) -> RawObject {
        let off = objectOffset(r, index)
        let end = trailer.offsetTableOffset
        // off < end was proven at open, so the marker byte is readable.
        let marker = unsafe r.byte(unchecked: off)
        let low = Int(marker & 0x0F)
        func fail(_ code: PlistError.Code, _ detail: String) -> PlistError {
            PlistError(code, offset: off, object: index, detail)
        }
        func fixed(_ width: Int) throws(PlistError) -> Int {
            guard r.contains(offset: off + 1, length: width, limit: end) else {
                throw fail(
                    .truncatedObject,
                    "\(width)-byte payload of marker 0x\(hex(marker)) runs past the object region end \(end)")
            }
            return off + 1
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return RawObject(kind: .null)
            case 0x08: return RawObject(kind: .bool, scalar: 0)
            case 0x09: return RawObject(kind: .bool, scalar: 1)
            case 0x0F: return RawObject(kind: .fill)
            default: throw fail(.unknownMarker, "marker 0x\(hex(marker)) is not defined in bplist00")
            }
        case 0x1:
            guard low <= 4 else { throw fail(.corrupted, "integer of 2^\(low) bytes (at most 16 allowed)") }
            let width = 1 << low
            let p = try fixed(width)
            return try integer(r, at: p, width: width, index: index)
        case 0x2:
            guard low == 2 || low == 3 else { throw fail(.corrupted, "real of 2^\(low) bytes (4 or 8 allowed)") }
            let p = try fixed(1 << low)
            if low == 2 {
                let bits = unsafe UInt32(truncatingIfNeeded: r.uint(unchecked: p, width: 4))
                return RawObject(kind: .real, scalar: Double(Float(bitPattern: bits)).bitPattern)
            }
            return unsafe RawObject(kind: .real, scalar: r.uint(unchecked: p, width: 8))
        case 0x3:
            guard marker == 0x33 else { throw fail(.corrupted, "date marker must be 0x33, found 0x\(hex(marker))") }
            let p = try fixed(8)
            return unsafe RawObject(kind: .date, scalar: r.uint(unchecked: p, width: 8))
        case 0x4, 0x5, 0x6:
            let (count, p) = try countAndPayload(r, off, low, index)
            var bytes = count
            if marker >> 4 == 0x6 {
                let (doubled, overflow) = count.multipliedReportingOverflow(by: 2)
                guard !overflow else { throw fail(.truncatedObject, "UTF-16 string of \(count) units overflows") }
                bytes = doubled
            }
            guard r.contains(offset: p, length: bytes, limit: end) else {
                throw fail(.truncatedObject, "\(bytes) payload bytes from \(p) run past the object region end \(end)")
            }
            let kind: RawObject.Kind = marker >> 4 == 0x4 ? .data : marker >> 4 == 0x5 ? .ascii : .utf16
            return RawObject(kind: kind, payload: p, count: count)
        case 0x8:
            let value = try ScanContext.uid(r, at: off, marker: marker, index: index, end: end, maxUID: limits.maxUID)
            return RawObject(kind: .uid, scalar: value)
        case 0xA, 0xC, 0xD:
            let (count, p) = try countAndPayload(r, off, low, index)
            let perEntry = marker >> 4 == 0xD ? 2 * trailer.objectRefSize : trailer.objectRefSize
            let (bytes, overflow) = count.multipliedReportingOverflow(by: perEntry)
            guard !overflow, r.contains(offset: p, length: bytes, limit: end) else {
                throw fail(
                    .truncatedObject,
                    "\(count) entries × \(perEntry) bytes from \(p) run past the object region end \(end)")
            }
            let kind: RawObject.Kind = marker >> 4 == 0xA ? .array : marker >> 4 == 0xC ? .set : .dictionary
            return RawObject(kind: kind, payload: p, count: count)
        default:
            throw fail(.unknownMarker, "marker 0x\(hex(marker)) is not defined in bplist00")
        }
    }

    /// The fast path of the marker decoder, shared by every reader that builds values: the value of
    /// a fixed-size scalar object (null, a boolean, an integer of 1 to 8 bytes, a 4- or 8-byte real, a
    /// date, a UID of 1 to 8 bytes up to `maxUID`) whose marker byte `marker` sits at `off` and whose
    /// payload ends at or before `end`. `nil` for every other object (strings, data, containers, 16-byte
    /// integers, fill) and for a payload that does not fit: `scan` then decodes it exactly or reports
    /// what is wrong. (`off < end <= r.count` is the caller's proof.)
    ///
    /// `@inline(always)` (Swift 6.3): as `@inline(__always)`, a hint, the inliner left it a call in
    /// the materializer's loop (keyed decode 76.0 M instructions, 4.90 ms; inlined 73.1 M, 4.78 ms).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    static func fixedScalar(_ r: ByteReader, marker: UInt8, at off: Int, end: Int, maxUID: UInt64) -> PlistValue? {
        let room = end &- off &- 1  // bytes after the marker before `end`
        let p = off &+ 1
        let low = Int(marker & 0x0F)
        let type = marker >> 4
        // Tested in the order of how often they occur (an if-chain the branch predictor learns beats a
        // jump table here: 4 % fewer instructions on the numbers workload).
        if type == 0x1 {
            guard let n = fixedInteger(r, low: low, at: p, room: room) else { return nil }
            return .integer(n)
        } else if marker == 0x23 {
            guard let d = fixedReal8(r, at: p, room: room) else { return nil }
            return .real(d)
        } else if type == 0x8 {
            // A UID of 1 ... 8 bytes (p ..< p + low + 1 before `end`) always fits in 64 bits.
            guard low <= 7, low < room else { return nil }
            let value = unsafe r.uint(unchecked: p, width: low &+ 1)
            return value <= maxUID ? .uid(value) : nil
        } else if marker == 0x33 {
            guard room >= 8 else { return nil }
            // In bounds: p ..< p + 8 before `end`.
            let bits = unsafe r.uint(unchecked: p, width: 8)
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        } else if marker & 0xFE == 0x08 {
            return .bool(marker == 0x09)
        } else if marker == 0x22 {
            guard let d = fixedReal4(r, at: p, room: room) else { return nil }
            return .real(d)
        } else if marker == 0x00 {
            return .null
        }
        return nil
    }

    /// The number at `off` when its marker is an integer of 1, 2, 4 or 8 bytes, an 8- or 4-byte real or a
    /// boolean whose payload fits before `end`, read as `fixedScalar` reads it but without making a
    /// ``PlistValue`` (the Codable decoders' numbers: no enum of payloads to destroy); nil otherwise.
    /// (`off < end <= r.count` is the caller's proof.)
    @inline(__always)
    static func fixedNumber(_ r: ByteReader, marker: UInt8, at off: Int, end: Int) -> StoredNumber? {
        let room = end &- off &- 1  // bytes after the marker before `end`
        let p = off &+ 1
        let low = Int(marker & 0x0F)
        if marker >> 4 == 0x1 {
            guard let n = fixedInteger(r, low: low, at: p, room: room) else { return nil }
            return .integer(n)
        } else if marker == 0x23 {
            guard let d = fixedReal8(r, at: p, room: room) else { return nil }
            return .real(d)
        } else if marker & 0xFE == 0x08 {
            return .bool(marker == 0x09)
        } else if marker == 0x22 {
            guard let d = fixedReal4(r, at: p, room: room) else { return nil }
            return .real(d)
        }
        return nil
    }

    /// The integer payload of marker `0x1n` (`low` = n) at `p`, with `room` bytes before the region's
    /// end: 1, 2, 4 or 8 bytes; nil for 16 bytes (which `scan` reads) or a payload past the end.
    @inline(__always)
    static func fixedInteger(_ r: ByteReader, low: Int, at p: Int, room: Int) -> PlistInteger? {
        // 1, 2, 4 or 8 bytes at p ..< p + width, before the end (room >= width). Narrower integers are
        // unsigned and below 2^32, so reading them as Int64 keeps them positive.
        let width = 1 &<< low
        guard low <= 3, room >= width else { return nil }
        return unsafe PlistInteger(Int64(bitPattern: r.uint(unchecked: p, width: width)))
    }

    /// The 8-byte real payload (marker `0x23`) at `p`, with `room` bytes before the region's end.
    @inline(__always)
    static func fixedReal8(_ r: ByteReader, at p: Int, room: Int) -> Double? {
        guard room >= 8 else { return nil }
        // In bounds: p ..< p + 8 before the end.
        return unsafe Double(bitPattern: r.uint(unchecked: p, width: 8))
    }

    /// The 4-byte real payload (marker `0x22`) at `p`, widened, with `room` bytes before the region's end.
    @inline(__always)
    static func fixedReal4(_ r: ByteReader, at p: Int, room: Int) -> Double? {
        guard room >= 4 else { return nil }
        // In bounds: p ..< p + 4 before the end.
        let bits = unsafe UInt32(truncatingIfNeeded: r.uint(unchecked: p, width: 4))
        return Double(Float(bitPattern: bits))
    }

    /// The value of the UID object (marker `0x8n`, `marker`) at offset `off`, whose extent is proven
    /// here against the object region's end `end`, and checked against the UID limit.
    @inline(__always)
    static func uid(
        _ r: ByteReader, at off: Int, marker: UInt8, index: Int, end: Int, maxUID: UInt64
    ) throws(PlistError) -> UInt64 {
        let width = Int(marker & 0x0F) + 1
        guard r.contains(offset: off + 1, length: width, limit: end) else {
            throw PlistError(
                .truncatedObject, offset: off, object: index,
                "\(width)-byte payload of marker 0x\(hex(marker)) runs past the object region end \(end)")
        }
        var value: UInt64 = 0
        if width <= 2 {
            // The usual widths in one load: off + 1 ..< off + 1 + width proven above.
            value = unsafe r.uint(unchecked: off &+ 1, width: width)
        } else {
            // UIDs wider than 8 bytes (CoreFoundation reads up to 16) must have zero high bytes.
            for i in 0..<width {
                let b = unsafe r.byte(unchecked: off + 1 + i)  // off + 1 ..< off + 1 + width proven above.
                guard value >> 56 == 0 else {
                    throw PlistError(.limitExceeded, offset: off, object: index, "UID does not fit in 64 bits")
                }
                value = value << 8 | UInt64(b)
            }
        }
        guard value <= maxUID else {
            throw PlistError(
                .limitExceeded, offset: off, object: index, "UID \(value) exceeds the limit of \(maxUID)")
        }
        return value
    }

    /// The count and payload start of the data or string marker `marker` at `off` when its count is
    /// inline or a 1- or 2-byte int object (`0x10 n`, `0x11 nn`) and that header lies before `end`:
    /// the common forms, read without `scan`. `nil` for any other form, which `scan` decodes or
    /// reports. The payload's own extent is the caller's to check. (`off < end <= r.count` is the
    /// caller's proof.)
    @inline(__always)
    static func shortCount(_ r: ByteReader, marker: UInt8, at off: Int, end: Int) -> (count: Int, start: Int)? {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, off &+ 1) }
        let room = end &- off &- 1  // bytes after the marker before `end`
        guard room >= 2 else { return nil }
        // off + 1 and off + 2 lie before end (room >= 2); off + 3 as well for a 2-byte count (room >= 3).
        let countMarker = unsafe r.byte(unchecked: off &+ 1)
        if countMarker == 0x10 { return unsafe (Int(r.byte(unchecked: off &+ 2)), off &+ 3) }
        if countMarker == 0x11, room >= 3 { return unsafe (Int(r.uint(unchecked: off &+ 2, width: 2)), off &+ 4) }
        return nil
    }

    /// Reads an integer payload of 1, 2, 4, 8 or 16 bytes at a proven position.
    private func integer(_ r: ByteReader, at p: Int, width: Int, index: Int) throws(PlistError) -> RawObject {
        switch width {
        case 1, 2, 4:
            return unsafe RawObject(kind: .integer, scalar: r.uint(unchecked: p, width: width), high: 0)
        case 8:
            let v = unsafe r.uint(unchecked: p, width: 8)
            return RawObject(kind: .integer, scalar: v, high: Int64(bitPattern: v) < 0 ? -1 : 0)
        default:
            let hi = unsafe r.uint(unchecked: p, width: 8)
            let lo = unsafe r.uint(unchecked: p + 8, width: 8)
            return RawObject(kind: .integer, scalar: lo, high: Int64(bitPattern: hi))
        }
    }

    /// The element count of a data, string or container marker, and where its payload starts.
    private func countAndPayload(_ r: ByteReader, _ off: Int, _ low: Int, _ index: Int)
        throws(PlistError) -> (count: Int, payload: Int)
    {
        if low != 0x0F { return (low, off + 1) }
        let end = trailer.offsetTableOffset
        guard let m = r.byte(at: off + 1), off + 1 < end else {
            throw PlistError(
                .truncatedObject, offset: off, object: index, "extended count runs past the object region")
        }
        guard m >> 4 == 0x1, m & 0x0F <= 4 else {
            throw PlistError(
                .corrupted, offset: off + 1, object: index,
                "extended count must be an int object, found marker 0x\(hex(m))")
        }
        let width = 1 << Int(m & 0x0F)
        guard r.contains(offset: off + 2, length: width, limit: end) else {
            throw PlistError(
                .truncatedObject, offset: off + 1, object: index, "extended count runs past the object region")
        }
        let raw = try integer(r, at: off + 2, width: width, index: index).int128
        guard raw >= 0, raw <= Int128(Int.max) else {
            throw PlistError(
                .corrupted, offset: off + 1, object: index, "count \(raw) is negative or too large")
        }
        return (Int(raw), off + 2 + width)
    }
}

@inline(__always)
func hex(_ b: UInt8) -> String {
    let s = String(b, radix: 16)
    return s.count == 1 ? "0" + s : s
}

extension ScanContext {
    /// Builds a `String` from a string object located by `scan`.
    func makeString(_ r: ByteReader, _ raw: RawObject, _ index: Int?) throws(PlistError) -> String {
        if raw.kind == .ascii {
            // Range proven by scan(): payload ..< payload + count is inside the object region.
            if let s = unsafe r.asciiString(unchecked: raw.payload, length: raw.count) { return s }
            if options.allowsUTF8InASCIIStrings,
                let s = unsafe r.string(validatingUTF8Unchecked: raw.payload, length: raw.count)
            {
                return s
            }
            throw PlistError(
                .invalidString, offset: raw.payload, object: index,
                "ASCII string holds a byte above 0x7F")
        }
        switch unsafe r.string(utf16BEUnchecked: raw.payload, units: raw.count) {
        case .success(let s): return s
        case .failure(let f):
            if options.replacesLoneSurrogates, let s = ScanContext.replacingLoneSurrogates(r, raw) { return s }
            throw PlistError(
                .invalidString, offset: raw.payload + 2 * f.unit, object: index,
                "UTF-16 string has an unpaired surrogate at code unit \(f.unit) (CoreFoundation reads it; "
                    + "Options.replacesLoneSurrogates reads it as U+FFFD)")
        }
    }

    /// A UTF-16 string object with each unpaired surrogate read as U+FFFD (the checked, slow path
    /// taken only after the fast decoder found one).
    static func replacingLoneSurrogates(_ r: ByteReader, _ raw: RawObject) -> String? {
        guard let bytes = r.data(offset: raw.payload, length: 2 * raw.count) else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(raw.count)
        var k = bytes.startIndex
        while k + 1 < bytes.endIndex {
            units.append(UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]))
            k += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}

/// What reading one object needs of its document: the trailer, the limits and the options, as
/// plain values. The scanner's methods live here rather than on `BinaryPlistDocument` so that a
/// reader can keep this (no buffer, nothing to retain) instead of a copy of the whole document.
struct ScanContext {
    let trailer: BinaryPlistTrailer
    let limits: PlistLimits
    let options: PlistReadOptions
}

extension BinaryPlistDocument {
    /// The document's trailer, limits and options, for the scanner.
    var scanContext: ScanContext { ScanContext(trailer: trailer, limits: limits, options: options) }

    @inline(__always)
    func objectOffset(_ r: ByteReader, _ index: Int) -> Int { scanContext.objectOffset(r, index) }

    @inline(__always)
    func scan(_ r: ByteReader, _ index: Int) throws(PlistError) -> RawObject {
        try scanContext.scan(r, index)
    }

    @inline(__always)
    func makeString(_ r: ByteReader, _ raw: RawObject, _ index: Int?) throws(PlistError) -> String {
        try scanContext.makeString(r, raw, index)
    }
}
