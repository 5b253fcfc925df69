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
        try field(r, KeyProbes.Key(name), keys: RefSpan(keys), values: RefSpan(values))
    }

    /// Finds a field of a frame's dictionary by its stored key, without the frame's key memo.
    func field(_ r: borrowing PlistReader, _ name: String, keys: RefSpan, values: RefSpan)
        throws(KeyedArchiveError) -> ObjectRef?
    {
        try field(r, KeyProbes.Key(name), keys: keys, values: values)
    }

    /// Finds a field of a dictionary that is not a frame, by a key prepared once.
    func field(_ r: borrowing PlistReader, _ key: KeyProbes.Key, keys: ReferenceList, values: ReferenceList)
        throws(KeyedArchiveError) -> ObjectRef?
    {
        try field(r, key, keys: RefSpan(keys), values: RefSpan(values))
    }

    /// Finds a field of a dictionary by a key prepared once.
    func field(_ r: borrowing PlistReader, _ key: KeyProbes.Key, keys: RefSpan, values: RefSpan)
        throws(KeyedArchiveError) -> ObjectRef?
    {
        for i in 0..<keys.count {
            let equal: Bool
            do {
                equal = try r.string(r.reference(at: i, in: keys), matches: key.probe, key.text)
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
    /// A key as stored and as a probe.
    struct Key {
        let text: String
        let probe: BinaryPlistDocument.KeyProbe

        init(_ text: String) {
            self.text = text
            probe = BinaryPlistDocument.KeyProbe(text)
        }
    }

    static let objects = Key("NS.objects")
    static let keys = Key("NS.keys")
}

extension KeyedUnarchiver {
    /// What a class remembers of the n-th key its objects look up (in one key layout).
    struct KeyMemo {
        /// The key as asked.
        var key: String
        /// The key as stored (escaped), and prepared for comparison with key objects.
        var stored: String
        var probe: BinaryPlistDocument.KeyProbe
        /// The key object found last time (writers that share key strings store one per archive).
        var ref: ObjectRef
        /// Where it was found last time, or -1: absent from the last object of this layout.
        var position: Int
        /// Whether the key differs from every key looked up before it (the memos before this one): see
        /// `Frame.find`, which then proves a key absent without reading the dictionary.
        var distinct: Bool
        /// Whether the entry holds a lookup yet.
        var isSet = false
    }

    /// Lookups remembered per key layout: the first ones of each object (an object with more keys is
    /// searched beyond them).
    static let memosPerLayout = 32
}

extension KeyedUnarchiver {
    /// Where the memos of the layout of objects of class `slot` with `keyCount` keys begin in `keyMemos`:
    /// a block of `memosPerLayout` entries, added when new. Writers that order each object's keys by a
    /// hash table (swift-corelibs-foundation's) give objects of one class with different key sets (an
    /// optional field present or not) different orders; one memo per key count keeps each order
    /// instead of relearning at every change. Past 8 layouts of a class, the last block is reused.
    static func memoBase(
        slot: Int, keyCount: Int, _ classSlots: inout [ClassSlot], _ keyMemos: inout [KeyMemo]
    ) -> Int {
        for l in classSlots[slot].layouts where l.keyCount == keyCount { return l.base }
        let block = KeyedUnarchiver.memosPerLayout
        if classSlots[slot].layouts.count == 8, let last = classSlots[slot].layouts.popLast() {
            for i in last.base..<last.base &+ block { keyMemos[i].isSet = false }
            classSlots[slot].layouts.append((keyCount, last.base))
            return last.base
        }
        let base = keyMemos.count
        let empty = KeyedUnarchiver.KeyMemo(
            key: "", stored: "", probe: BinaryPlistDocument.KeyProbe(""), ref: ObjectRef(-1), position: -1,
            distinct: false)
        keyMemos.append(contentsOf: repeatElement(empty, count: block))
        classSlots[slot].layouts.append((keyCount, base))
        return base
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
        _ key: String, in r: borrowing KeyedUnarchiver.PlistReader, classSlots: inout [KeyedUnarchiver.ClassSlot],
        keyMemos: inout [KeyedUnarchiver.KeyMemo]
    ) throws(PlistError) -> ObjectRef? {
        let n = keys.count
        guard n > 0 else { return nil }
        let request = requests
        requests = request &+ 1
        var memo = -1
        if classSlot >= 0, request < KeyedUnarchiver.memosPerLayout {
            if memoBase < 0 {
                memoBase = KeyedUnarchiver.memoBase(slot: classSlot, keyCount: n, &classSlots, &keyMemos)
            }
            memo = memoBase &+ request
            // The memo is read in place (copying it would retain its strings).
            if keyMemos[memo].isSet, keyMemos[memo].key == key {
                let p = keyMemos[memo].position
                if p >= 0 {
                    if p < n {
                        let k = r.reference(at: p, in: keys)
                        if k == keyMemos[memo].ref { return found(p, r) }
                        // The short comparison first: the stored key string is touched only when it
                        // cannot decide.
                        if let equal = r.string(k, matches: keyMemos[memo].probe) {
                            if equal { return found(p, r) }
                        } else if try r.string(k, equals: keyMemos[memo].stored) {
                            return found(p, r)
                        }
                    }
                } else if onMemo, keyMemos[memo].distinct, n <= 64, matched.nonzeroBitCount == n {
                    // Every key of this object is one of the keys looked up before (each matched at its
                    // own position, `$class` included), and this key differs from all of them.
                    return nil
                }
                return try search(key, r, stored: keyMemos[memo].stored, keyMemos[memo].probe, memo, &keyMemos)
            }
        }
        onMemo = false
        let stored = ArchiveVocabulary.escape(key)
        return try search(key, r, stored: stored, BinaryPlistDocument.KeyProbe(stored), memo, &keyMemos)
    }

    /// Compares the keys in order from after the last key found, and records the outcome in `memo`
    /// (when there is one).
    private mutating func search(
        _ key: String, _ r: borrowing KeyedUnarchiver.PlistReader, stored: String,
        _ probe: BinaryPlistDocument.KeyProbe,
        _ memo: Int, _ keyMemos: inout [KeyedUnarchiver.KeyMemo]
    ) throws(PlistError) -> ObjectRef? {
        let n = keys.count
        var i = hint < n ? hint : 0
        for _ in 0..<n {
            let k = r.reference(at: i, in: keys)
            if try r.string(k, matches: probe, stored) {
                if memo >= 0 { remember(key, stored, probe, ref: k, position: i, memo, &keyMemos) }
                return found(i, r)
            }
            i = i &+ 1 == n ? 0 : i &+ 1
        }
        if memo >= 0 { remember(key, stored, probe, ref: ObjectRef(-1), position: -1, memo, &keyMemos) }
        return nil
    }

    /// The value at position `p`, whose key was just matched.
    @inline(__always)
    private mutating func found(_ p: Int, _ r: borrowing KeyedUnarchiver.PlistReader) -> ObjectRef {
        hint = p &+ 1
        if p < 64 { matched |= 1 << UInt64(p) }
        return r.reference(at: p, in: values)
    }

    /// Records where this lookup found `key` (or that it did not) in memo entry `memo`.
    private func remember(
        _ key: String, _ stored: String, _ probe: BinaryPlistDocument.KeyProbe, ref: ObjectRef, position: Int,
        _ memo: Int, _ memos: inout [KeyedUnarchiver.KeyMemo]
    ) {
        if memos[memo].isSet, memos[memo].key == key {
            memos[memo].ref = ref
            memos[memo].position = position
            return
        }
        // Distinct from the keys of the lookups before this one in the layout (the entries before).
        let first = memo &- (requests &- 1)
        let distinct = !memos[first..<memo].contains { $0.isSet && $0.key == key }
        memos[memo] = KeyedUnarchiver.KeyMemo(
            key: key, stored: stored, probe: probe, ref: ref, position: position, distinct: distinct, isSet: true)
    }
}
