// Sources/PropertyList/Binary/Reading/MaterializerKeys.swift - Dictionary keys of a materialisation, read and checked once.
//
// Every key value is interned (one id per distinct key, an open-addressing table on a cheap hash), so
// a duplicate key in a dictionary is found with one comparison of ids; a short ASCII key whose bytes
// were seen as a key before takes that key's value and id without building a String.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension Materializer {
    /// Appends the keys of dictionary `f` from `pos` on to `out` (with placeholder values), checking
    /// each for repetition.
    @inline(__always)
    mutating func keys(
        _ f: Frame, _ pos: inout Int, _ duplicates: inout Bool, _ out: inout OutputSpan<PlistDictionary.Element>,
        _ layout: ObjectLayout, _ memo: inout Memo
    ) throws(PlistError) {
        // A key is never pending: containers are rejected as keys.
        var none: Pending? = nil
        while pos < f.count {
            let child = try layout.reference(f.refs, pos, of: f.index)
            pos &+= 1
            var id = memo.keyID(child)
            let v: PlistValue
            if id == 0, let short = shortASCII(child, layout) {
                // The range was proven inside the object region by shortASCII.
                let small = short.length <= 8
                let word = small ? unsafe layout.reader.shortWord(unchecked: short.offset, length: short.length) : 0
                let hash =
                    small
                    ? DedupTable.mix(word ^ UInt64(truncatingIfNeeded: short.length) &<< 59)
                    : unsafe layout.reader.hash(unchecked: short.offset, length: short.length)
                if let known = rawKeys.find(
                    hash,
                    where: {
                        // Both ranges were proven inside the object region by shortASCII.
                        unsafe rawKeyEntries[$0].length == short.length
                            && (small
                                ? rawKeyEntries[$0].word == word
                                : layout.reader.sameBytes(
                                    unchecked: rawKeyEntries[$0].offset, short.offset, length: short.length))
                    })
                {
                    v = rawKeyEntries[Int(known)].value
                    id = rawKeyEntries[Int(known)].id
                } else {
                    guard let (built, builtID) = try newRawKey(child, short, word: word, hash: hash, f, &memo) else {
                        return
                    }
                    v = built
                    id = builtID
                }
                memo.setKeyID(child, id)
            } else {
                guard let built = try element(child, of: f, isKey: true, level: 0, &memo, &none) else { return }
                v = built
                if id == 0 {
                    id = try keyID(v, child, container: f.index)
                    memo.setKeyID(child, id)
                }
            }
            let slot = Int(id)
            if lastDictionary[slot] == f.serial {
                duplicates = true
            } else {
                lastDictionary[slot] = f.serial
            }
            out.append((v, .null))
        }
    }

    /// The value and id of key object `child`, a short ASCII string at `short` whose bytes no key
    /// read before had: made, and remembered by its bytes (`word`, `hash`: see `keys`). Not inlined:
    /// taken once per distinct key, it would only grow the loop of `keys` (which then stopped
    /// inlining `element`).
    @inline(never)
    mutating func newRawKey(
        _ child: Int, _ short: (offset: Int, length: Int), word: UInt64, hash: UInt64, _ f: Frame,
        _ memo: inout Memo
    ) throws(PlistError) -> (PlistValue, Int32)? {
        var none: Pending? = nil
        guard let built = try element(child, of: f, isKey: true, level: 0, &memo, &none) else { return nil }
        let id = try keyID(built, child, container: f.index)
        rawKeys.insert(hash, Int32(truncatingIfNeeded: rawKeyEntries.count))
        rawKeyEntries.append((short.offset, short.length, word, built, id))
        return (built, id)
    }

    /// The payload of object `index` when it is a non-empty ASCII string (`0x5n`) with an inline or a
    /// 1- or 2-byte count that lies in the object region; `nil` otherwise.
    @inline(__always)
    func shortASCII(_ index: Int, _ layout: ObjectLayout) -> (offset: Int, length: Int)? {
        let off = layout.offset(of: index)
        // off < regionEnd was proven at open: the marker byte is readable.
        let marker = unsafe layout.reader.byte(unchecked: off)
        guard marker >> 4 == 0x5,
            let (length, start) = ScanContext.shortCount(
                layout.reader, marker: marker, at: off, end: layout.regionEnd),
            length > 0, length <= layout.regionEnd &- start
        else { return nil }
        return (start, length)  // start ..< start + length lies before regionEnd.
    }

    /// The duplicate-key id of a key value used for the first time by object `child`; checks that the
    /// key is a scalar that may be a key.
    mutating func keyID(_ v: PlistValue, _ child: Int, container: Int) throws(PlistError) -> Int32 {
        switch v {
        case .string, .integer, .real, .date, .data: break
        default:
            throw PlistError(
                .invalidKey, offset: document.objectOffset(reader, child), object: container,
                "dictionary key is a \(v.kind) (object \(child)); keys must be strings, numbers, dates or data")
        }
        let hash = Materializer.keyHash(v)
        if let known = internedKeys.find(hash, where: { internedValues[$0] == v }) { return known }
        let id = Int32(truncatingIfNeeded: lastDictionary.count)
        internedKeys.insert(hash, id)
        internedValues.append(v)
        lastDictionary.append(0)
        return id
    }

    /// A 64-bit hash of a key value, consistent with `==` (exact UTF-8 for strings, bit patterns for
    /// reals and dates, the kind mixed in so `1` and `1.0` differ).
    static func keyHash(_ v: PlistValue) -> UInt64 {
        switch v {
        case .string(let s): return ByteHash.hash(s)
        case .integer(let i): return DedupTable.mix(i.low ^ DedupTable.mix(UInt64(bitPattern: i.high) ^ 0x11))
        case .real(let d): return DedupTable.mix(d.bitPattern ^ 0x22)
        case .date(let d): return DedupTable.mix(d.timeIntervalSinceReferenceDate.bitPattern ^ 0x33)
        default: return DedupTable.mix(UInt64(bitPattern: Int64(v.hashValue)))
        }
    }
}
