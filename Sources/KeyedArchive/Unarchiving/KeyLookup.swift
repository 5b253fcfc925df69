// Sources/KeyedArchive/Unarchiving/KeyLookup.swift - Finding a key in the object being decoded.
//
// The unarchiver's most frequent operation. Each class slot remembers, for its n-th lookup and per key
// layout (objects with the same number of keys), the key object found and its position, so the next
// object of the class is searched at that position first (by reference, then by one comparison of the
// key's bytes for writers that do not share key strings), and the dictionary is scanned only when that
// fails. A key absent last time is proven absent without a scan when all the object's keys are
// accounted for.

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

/// Keys the unarchiver itself looks for, prepared once.
enum KeyProbes {
    static let classKey = BinaryPlistDocument.KeyProbe(ArchiveVocabulary.classKey)
}

extension KeyedUnarchiver {
    /// What a class remembers of the n-th key its objects look up (in one key layout).
    struct KeyMemo {
        /// The key as asked.
        var key: String
        /// The key as stored (escaped), prepared for comparison with key objects.
        var probe: BinaryPlistDocument.KeyProbe
        /// The key object found last time (writers that share key strings store one per archive).
        var ref: ObjectRef
        /// Where it was found last time, or -1: absent from the last object of this layout.
        var position: Int
        /// Whether the key differs from every key looked up before it (the memos before this one): see
        /// `Frame.find`, which then proves a key absent without reading the dictionary.
        var distinct: Bool
    }

    /// The key order of the objects of one class that have `keyCount` keys. Writers that order each
    /// object's keys by a hash table (swift-corelibs-foundation's) give objects of one class with
    /// different key sets (an optional field present or not) different orders; one memo per key
    /// count keeps each order instead of relearning at every change.
    struct KeyLayout {
        var keyCount: Int
        var memos: [KeyMemo] = []
    }
}

extension KeyedUnarchiver.ClassSlot {
    /// The layout of objects with `keyCount` keys (added when new; past `maxLayouts` the last one is
    /// shared).
    mutating func layout(keyCount: Int) -> Int {
        for (i, l) in layouts.enumerated() where l.keyCount == keyCount { return i }
        if layouts.count < 8 {
            layouts.append(KeyedUnarchiver.KeyLayout(keyCount: keyCount))
        } else {
            layouts[layouts.count &- 1] = KeyedUnarchiver.KeyLayout(keyCount: keyCount)
        }
        return layouts.count &- 1
    }
}

extension KeyedUnarchiver.Frame {
    /// Finds `key` (escaped) among this object's keys: see `State.lookup(_:in:push:)`.
    ///
    /// The class's memo for this lookup (the n-th of the object, in the layout of its key count) says
    /// where the key was last time: one comparison of that key object, by reference and then by its
    /// bytes (`KeyProbe`). Failing that, the keys are compared in order from after the last key found.
    /// A key the memo says was absent is absent without reading the dictionary when every key of the
    /// object has been matched by an earlier, different key (`matched`).
    mutating func find(
        _ key: String, in r: borrowing KeyedUnarchiver.PlistReader, classSlots: inout [KeyedUnarchiver.ClassSlot]
    ) throws(PlistError) -> ObjectRef? {
        let n = keys.count
        guard n > 0 else { return nil }
        let request = requests
        requests = request &+ 1
        var probe: BinaryPlistDocument.KeyProbe? = nil
        let slot = classSlot
        if slot >= 0 {
            if layout < 0 { layout = classSlots[slot].layout(keyCount: n) }
            let l = layout
            // The memo is read in place (copying it would retain its strings).
            if request < classSlots[slot].layouts[l].memos.count, classSlots[slot].layouts[l].memos[request].key == key
            {
                let p = classSlots[slot].layouts[l].memos[request].position
                if p >= 0 {
                    if p < n {
                        let k = r.reference(at: p, in: keys)
                        if k == classSlots[slot].layouts[l].memos[request].ref { return found(p, r) }
                        if try r.string(k, matches: classSlots[slot].layouts[l].memos[request].probe) {
                            return found(p, r)
                        }
                    }
                } else if onMemo, classSlots[slot].layouts[l].memos[request].distinct, n <= 64,
                    matched.nonzeroBitCount == n
                {
                    // Every key of this object is one of the keys looked up before (each matched at its
                    // own position, `$class` included), and this key differs from all of them.
                    return nil
                }
                probe = classSlots[slot].layouts[l].memos[request].probe
            } else {
                onMemo = false
            }
        }
        let wanted = probe ?? BinaryPlistDocument.KeyProbe(ArchiveVocabulary.escape(key))
        var i = hint < n ? hint : 0
        for _ in 0..<n {
            let k = r.reference(at: i, in: keys)
            if try r.string(k, matches: wanted) {
                if slot >= 0 { remember(key, wanted, ref: k, position: i, request: request, &classSlots[slot]) }
                return found(i, r)
            }
            i = i &+ 1 == n ? 0 : i &+ 1
        }
        if slot >= 0 { remember(key, wanted, ref: ObjectRef(-1), position: -1, request: request, &classSlots[slot]) }
        return nil
    }

    /// The value at position `p`, whose key was just matched.
    @inline(__always)
    private mutating func found(_ p: Int, _ r: borrowing KeyedUnarchiver.PlistReader) -> ObjectRef {
        hint = p &+ 1
        if p < 64 { matched |= 1 << UInt64(p) }
        return r.reference(at: p, in: values)
    }

    /// Records where the `request`-th lookup found `key` (or that it did not) in this frame's layout.
    private func remember(
        _ key: String, _ probe: BinaryPlistDocument.KeyProbe, ref: ObjectRef, position: Int, request: Int,
        _ slot: inout KeyedUnarchiver.ClassSlot
    ) {
        let l = layout
        let count = slot.layouts[l].memos.count
        guard request <= count else { return }
        if request < count, slot.layouts[l].memos[request].key == key {
            slot.layouts[l].memos[request].ref = ref
            slot.layouts[l].memos[request].position = position
            return
        }
        let distinct = !slot.layouts[l].memos[..<request].contains { $0.key == key }
        let memo = KeyedUnarchiver.KeyMemo(key: key, probe: probe, ref: ref, position: position, distinct: distinct)
        if request < count {
            slot.layouts[l].memos[request] = memo
        } else {
            slot.layouts[l].memos.append(memo)
        }
    }
}
