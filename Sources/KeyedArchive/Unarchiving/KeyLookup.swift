// Sources/KeyedArchive/Unarchiving/KeyLookup.swift - Finding a key in the object being decoded.
//
// The unarchiver's most frequent operation. Each class slot remembers, for its n-th lookup, the key
// object found and its position, so the next object of the class is searched at that position first
// (by reference, then by one string comparison for writers that do not share key strings), and the
// dictionary is scanned only when that fails.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedUnarchiver {
    /// Finds `key` (escaped) in the current frame.
    func lookup(_ key: String) throws(KeyedArchiveError) -> ObjectRef? {
        try reading { r throws(KeyedArchiveError) in try state.lookup(key, in: r, push: false) }
    }

    /// Finds a field of a dictionary that is not a frame (Foundation-class objects).
    func field(_ r: borrowing PlistReader, _ name: String, keys: ReferenceList, values: ReferenceList)
        throws(KeyedArchiveError) -> ObjectRef?
    {
        for i in 0..<keys.count {
            let equal: Bool
            do {
                equal = try r.string(r.reference(at: i, in: keys), equals: name)
            } catch {
                throw plistError(error)
            }
            if equal { return r.reference(at: i, in: values) }
        }
        return nil
    }
}

extension KeyedUnarchiver.Frame {
    /// Finds `key` (escaped) among this object's keys: see `State.lookup(_:in:push:)`.
    mutating func find(
        _ key: String, in r: borrowing KeyedUnarchiver.PlistReader, classSlots: inout [KeyedUnarchiver.ClassSlot]
    ) throws(PlistError) -> ObjectRef? {
        let n = keys.count
        guard n > 0 else { return nil }
        let request = requests
        requests = request &+ 1
        var stored: String? = nil
        if classSlot >= 0, request < classSlots[classSlot].keys.count {
            let memo = classSlots[classSlot].keys[request]
            if memo.key == key {
                stored = memo.stored
                let p = memo.position
                if p < n {
                    let k = r.reference(at: p, in: keys)
                    if k == memo.ref ? true : try r.string(k, equals: memo.stored) {
                        hint = p &+ 1
                        return r.reference(at: p, in: values)
                    }
                }
                if let i = r.position(of: memo.ref, in: keys, from: hint) {
                    hint = i &+ 1
                    return r.reference(at: i, in: values)
                }
            }
        }
        let escaped = stored ?? ArchiveVocabulary.escape(key)
        var i = hint < n ? hint : 0
        for _ in 0..<n {
            let k = r.reference(at: i, in: keys)
            if try r.string(k, equals: escaped) {
                hint = i &+ 1
                if classSlot >= 0 {
                    let entry = (key: key, stored: escaped, ref: k, position: i)
                    if request < classSlots[classSlot].keys.count {
                        classSlots[classSlot].keys[request] = entry
                    } else if request == classSlots[classSlot].keys.count {
                        classSlots[classSlot].keys.append(entry)
                    }
                }
                return r.reference(at: i, in: values)
            }
            i = i &+ 1 == n ? 0 : i &+ 1
        }
        return nil
    }
}
