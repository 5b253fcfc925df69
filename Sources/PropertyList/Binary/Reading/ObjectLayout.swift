// Sources/PropertyList/Binary/Reading/ObjectLayout.swift - Unsafe fence: the materialiser's proven reads.
//
// The offset table and reference lists were proven inside the input when the document was opened
// and when each container was scanned; the reads here rely on those proofs, stated beside each one.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the hot loop needs to know about a document's layout (small enough to copy freely).
struct ObjectLayout {
    let reader: ByteReader
    let objectCount: Int
    let refSize: Int
    /// The end of the object region (the offset table's start).
    let regionEnd: Int
    let offsetSize: Int
    /// The low `8 × refSize` and `8 × offsetSize` bits (see `ByteReader.uint(unchecked:width:mask:)`).
    let refMask: UInt64
    let offsetMask: UInt64

    init(reader: ByteReader, objectCount: Int, refSize: Int, regionEnd: Int, offsetSize: Int) {
        self.reader = reader
        self.objectCount = objectCount
        self.refSize = refSize
        self.regionEnd = regionEnd
        self.offsetSize = offsetSize
        // Widths are 1...8 (checked when the trailer was parsed).
        refMask = ByteReader.mask(width: refSize)
        offsetMask = ByteReader.mask(width: offsetSize)
    }

    /// The file offset of object `index < objectCount` (see `ScanContext.objectOffset`).
    @inline(__always)
    func offset(of index: Int) -> Int {
        // In bounds: the offset table was proven inside the buffer at open and index < objectCount; it
        // starts after the header and at least one object byte (regionEnd >= 9), so the entry ends at 8 or later.
        unsafe Int(
            truncatingIfNeeded: reader.uint(
                unchecked: regionEnd &+ index &* offsetSize, width: offsetSize, mask: offsetMask))
    }

    /// The index of the object named by position `pos` of the reference list at `refs` (of object
    /// `container`); the list's extent was proven by `scan`.
    @inline(__always)
    func reference(_ refs: Int, _ pos: Int, of container: Int) throws(PlistError) -> Int {
        // The ref list was proven to lie in the object region by scan() (2 × count refs for a dict); it
        // follows its container's marker (at 8 or later), so each reference ends at 10 or later.
        let ref = unsafe reader.uint(unchecked: refs &+ pos &* refSize, width: refSize, mask: refMask)
        guard ref < UInt64(objectCount) else {
            throw PlistError(
                .badReference, offset: refs + pos * refSize, object: container,
                "reference \(ref) is not below the object count \(objectCount)")
        }
        return Int(truncatingIfNeeded: ref)
    }

    /// Decodes a container marker (0xA, 0xC or 0xD) at `off` in its short form (count < 15) when its
    /// references fit in the object region; nil otherwise (then `scan` decides).
    @inline(__always)
    func container(at off: Int, marker: UInt8) -> RawObject? {
        let n = Int(marker & 0x0F)
        let type = marker >> 4
        let perEntry = type == 0xD ? 2 &* refSize : refSize
        // n < 15 refs of at most 16 bytes each: no overflow; they must fit before the region's end.
        guard n != 0x0F, n &* perEntry <= regionEnd &- off &- 1 else { return nil }
        let kind: RawObject.Kind = type == 0xA ? .array : type == 0xC ? .set : .dictionary
        return RawObject(kind: kind, payload: off &+ 1, count: n)
    }
}
