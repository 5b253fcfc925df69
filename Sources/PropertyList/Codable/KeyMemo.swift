// Sources/PropertyList/Codable/KeyMemo.swift - Finding a CodingKey in a binary dictionary without
// making strings: one memo per container type.
//
// A keyed container of type `K` is made once per object of that type (50,000 times for 50,000
// records), and each asks for the same keys in the same order. So each container type gets a memo
// (`DecodeKeyMemo`), a list of slots in the order the keys are first asked for:
//
//   slot = (the key's text, its UTF-8 made once, where it was found last: position and key object)
//
// Finding a key: its slot is the one after the last matched (keys are asked for in order), else
// the last matched, else a search of the slots (`DecodeKeySlot.holds`: `String ==`, which compares
// the storage of two literals first, then the bytes where `==` alone would equate canonically
// equivalent keys such as "é" and "e" + U+0301, which a property list keeps apart). In the dictionary, the key object at the slot's position is compared with the
// slot's key object by reference (writers share key strings, so this is usually the whole test);
// otherwise the keys are searched from the last one back, by reference, then as bytes against the
// slot's UTF-8 (or its UTF-16, made the first time a UTF-16 key object is met).
//
// A key held twice in one dictionary (no writer makes one) is read at its last occurrence, as
// `BinaryPlistDocument.ref(at:)` and `value()` read it. Each dictionary is checked once, when its
// container is made: cheaply when its key objects are those of a dictionary checked before (writers
// share key strings, so 50,000 records have one list of key objects), else by comparing the keys'
// text. A dictionary with a repeated key is searched from the end for every key, without the memo. A memo holds at most 64 slots: keys
// beyond (a `[String: V]` with many keys, read through the generic path) are searched without one,
// and a dictionary of more than 32 entries searched that way gets an index of its keys, made once.

/// One key of a container type, as the decoder remembers it.
struct DecodeKeySlot {
    let key: String
    let utf8: [UInt8]
    /// The key as UTF-16BE bytes, made when a UTF-16 key object is first compared with it.
    var utf16: [UInt8]? = nil
    /// Where the key was found last: its position in the dictionary and the key object there.
    var position = -1
    var keyRef = -1
    /// Whether the key is ASCII: then `==` and an equal UTF-8 length prove the same bytes.
    let ascii: Bool

    init(_ key: String) {
        self.key = key
        utf8 = Array(key.utf8)
        ascii = utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `other` is this slot's key, byte for byte.
    @inline(__always)
    func holds(_ other: String) -> Bool {
        key == other && KeyText.same(key, other, ascii: ascii)
    }
}

/// Key comparison by bytes. `String ==` equates canonically equivalent text ("é" precomposed and
/// "e" + U+0301, "K" and the Kelvin sign U+212A); a property list, like Foundation's encoders and
/// plutil, keeps such keys apart, so a key found through `==` is confirmed here.
enum KeyText {
    /// Whether `a` and `b`, already equal under `==`, have the same bytes. `ascii`: whether `a` is
    /// ASCII; then an equal UTF-8 length suffices (no non-ASCII scalar is canonically equivalent to
    /// ASCII text of its own length: the few that decompose to ASCII, such as U+212A, are longer).
    @inline(__always)
    static func same(_ a: String, _ b: String, ascii: Bool) -> Bool {
        ascii ? a.utf8.count == b.utf8.count : a.utf8.elementsEqual(b.utf8)
    }
}

/// The key memo of one container type (see the file header). Its slots live in the decoder's flat
/// `keySlots` array, from `base` (one level of array access on the hot path, not two).
struct DecodeKeyMemo {
    static let capacity = 64
    /// Where this memo's slots start in `DecoderState.keySlots`, and how many it has.
    var base: Int
    var count = 0
    /// The slot matched last.
    var last = -1
    /// The key-reference bytes of dictionaries found free of repeated keys (at most four, the most
    /// recent first): a dictionary with the same bytes has the same key objects.
    var distinctKeyLists: [[UInt8]] = []
    /// The `keySlots` index of each key tag's slot (see `BinaryKeyedDecoding.find(_:)`).
    var tagSlots = KeyTagSlots()
}

/// The slot of each key tag (`keyTag`: 0 ..< 256) of one container type, for the memos of the coders:
/// what they remembered of a key, found by its tag without its text. Equal tags are equal values of a
/// plain-data key type, whose `stringValue` is the same.
struct KeyTagSlots {
    /// -1 where no slot is known; empty until the first is recorded.
    private var slots: [Int32] = []

    /// The slot recorded for `tag`, if any.
    @inline(__always)
    func slot(_ tag: Int) -> Int? {
        guard tag >= 0, tag < slots.count else { return nil }
        let s = slots[tag]
        return s >= 0 ? Int(s) : nil
    }

    /// Records `slot` for `tag` (nothing for a tag of -1, a key without one, or a slot of -1, none).
    mutating func record(_ tag: Int, _ slot: Int) {
        guard tag >= 0, tag < 256, slot >= 0, slot <= Int(Int32.max) else { return }
        if slots.isEmpty { slots = Array(repeating: -1, count: 256) }
        slots[tag] = Int32(truncatingIfNeeded: slot)
    }
}

/// An index of the keys of one large dictionary, made when it is searched without a memo slot.
struct LargeDictionaryIndex {
    /// The dictionary object.
    var ref: Int
    /// Each key's text → its first position.
    var positions: [String: Int]
}

extension BinaryDecoderImpl {
    /// The memo of the container type `type`.
    @inline(__always)
    func memo(for type: Any.Type) -> Int {
        let id = ObjectIdentifier(type)
        if state.lastMemoType == id { return state.lastMemo }
        let index: Int
        if let i = state.memoIndex[id] {
            index = i
        } else {
            index = state.memos.count
            state.memos.append(DecodeKeyMemo(base: state.keySlots.count))
            state.keySlots.append(contentsOf: repeatElement(DecodeKeySlot(""), count: DecodeKeyMemo.capacity))
            state.memoIndex[id] = index
        }
        state.lastMemoType = id
        state.lastMemo = index
        return index
    }

    /// The index in `keySlots` of `key`'s slot in memo `m`, added when new; -1 when the memo is full
    /// and has none.
    @inline(__always)
    func slot(_ key: String, memo m: Int) -> Int {
        let base = state.memos[m].base
        let last = state.memos[m].last
        var next = last &+ 1
        if next >= state.memos[m].count { next = 0 }  // after the last key, the next value's first
        if next < state.memos[m].count && state.keySlots[base &+ next].holds(key) {
            state.memos[m].last = next
            return base &+ next
        }
        if last >= 0 && state.keySlots[base &+ last].holds(key) { return base &+ last }
        return searchSlot(key, memo: m)
    }

    func searchSlot(_ key: String, memo m: Int) -> Int {
        let base = state.memos[m].base
        let n = state.memos[m].count
        for i in 0..<n where state.keySlots[base &+ i].holds(key) {
            state.memos[m].last = i
            return base &+ i
        }
        guard n < DecodeKeyMemo.capacity else { return -1 }
        state.keySlots[base &+ n] = DecodeKeySlot(key)
        state.memos[m].count = n &+ 1
        state.memos[m].last = n
        return base &+ n
    }

    /// Whether the dictionary whose `count` key references start at `keysStart` holds a key twice
    /// (see the file header).
    func hasRepeatedKeys(memo m: Int, keysStart: Int, count: Int) throws(DecodeFailure) -> Bool {
        guard count > 1 else { return false }
        let length = count &* refWidth
        let lists = state.memos[m].distinctKeyLists.count
        for l in 0..<lists where state.memos[m].distinctKeyLists[l].count == length {
            // One comparison of the raw reference bytes (the scanner proved them inside the input).
            let same = try read { (r) throws(DecodeFailure) in
                r.bytes(at: keysStart, equal: state.memos[m].distinctKeyLists[l])
            }
            if same { return false }
        }
        var texts = Set<String>()
        var repeated = false
        for i in 0..<count {
            let k = try read { (r) throws(DecodeFailure) in reference(r, keysStart, i) }
            if let text = try? readString(k), !texts.insert(text).inserted { repeated = true }
        }
        if !repeated, let bytes = try? read({ (r) throws(DecodeFailure) in r.data(offset: keysStart, length: length) })
        {
            if state.memos[m].distinctKeyLists.count == 4 { state.memos[m].distinctKeyLists.removeLast() }
            state.memos[m].distinctKeyLists.insert(Array(bytes), at: 0)
        }
        return repeated
    }

    /// The value reference of `key` in the dictionary whose `count` key references start at
    /// `keysStart` (the values follow them), or nil when the dictionary does not have it.
    ///
    /// - Parameters:
    ///   - repeated: Whether the dictionary holds a key twice (`hasRepeatedKeys`): then the
    ///     remembered position is not trusted, and the search from the end finds the last occurrence.
    ///   - tag: The key's tag (`keyTag`), -1 for none: its slot is recorded under it, for the next
    ///     container of the type to find without its text.
    func lookup(
        _ key: String, tag: Int = -1, memo m: Int, dictionary ref: Int, keysStart: Int, count: Int, repeated: Bool
    ) throws(DecodeFailure) -> Int? {
        let s = slot(key, memo: m)
        guard s >= 0 else { return try lookupWithoutMemo(key, dictionary: ref, keysStart: keysStart, count: count) }
        state.memos[m].tagSlots.record(tag, s)
        return try lookup(slot: s, keysStart: keysStart, count: count, repeated: repeated)
    }

    /// The `keySlots` index of the key with tag `tag` (`keyTag`) in memo `m`, when one was recorded.
    @inline(__always)
    func taggedSlot(_ tag: Int, memo m: Int) -> Int? { state.memos[m].tagSlots.slot(tag) }

    /// `lookup` of the key in `keySlots` index `s`: where it was found last, else a search.
    func lookup(slot s: Int, keysStart: Int, count: Int, repeated: Bool) throws(DecodeFailure) -> Int? {
        let p = state.keySlots[s].position
        let known = state.keySlots[s].keyRef
        if let r = state.input, p >= 0, p < count, !repeated, reference(r, keysStart, p) == known {
            return reference(r, keysStart, count &+ p)
        }
        return try read { (r) throws(DecodeFailure) -> Int? in
            // Search from the last key back (a key held twice: the last one wins, as in
            // `BinaryPlistDocument.ref(at:)` and `value()`), by reference, then by bytes.
            var i = count
            while i > 0 {
                i &-= 1
                let k = reference(r, keysStart, i)
                if k == known || keyObject(r, k, equals: s) {
                    state.keySlots[s].position = i
                    state.keySlots[s].keyRef = k
                    return reference(r, keysStart, count &+ i)
                }
            }
            return nil
        }
    }

    /// Whether key object `k` holds the text of key slot `s` (compared as bytes).
    func keyObject(_ r: ByteReader, _ k: Int, equals s: Int) -> Bool {
        guard k >= 0, k < objectCount else { return false }
        let off = ScanContext.objectOffset(r, k, table: tableOffset, width: offsetWidth)
        let mk = marker(r, off)
        switch mk >> 4 {
        case 0x5:
            let length = state.keySlots[s].utf8.count
            guard let (count, start) = ScanContext.shortCount(r, marker: mk, at: off, end: tableOffset) else {
                guard let raw = try? scan(r, k), raw.kind == .ascii, raw.count == length else { return false }
                return r.bytes(at: raw.payload, equal: state.keySlots[s].utf8)
            }
            return count == length && start <= tableOffset &- count
                && r.bytes(at: start, equal: state.keySlots[s].utf8)
        case 0x6:
            if state.keySlots[s].utf16 == nil {
                var bytes: [UInt8] = []
                for unit in state.keySlots[s].key.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                state.keySlots[s].utf16 = bytes
            }
            guard let raw = try? scan(r, k), raw.kind == .utf16, let units = state.keySlots[s].utf16,
                raw.count &* 2 == units.count
            else { return false }
            return r.bytes(at: raw.payload, equal: units)
        default:
            return false
        }
    }

    /// `lookup` for a key the memo has no slot for: a linear search, or an index for a large dictionary.
    func lookupWithoutMemo(_ key: String, dictionary ref: Int, keysStart: Int, count: Int) throws(DecodeFailure)
        -> Int?
    {
        if count > 32 {
            if state.largeIndex?.ref != ref {
                var positions: [String: Int] = [:]
                positions.reserveCapacity(count)
                for i in 0..<count {
                    let k = try read { (r) throws(DecodeFailure) in reference(r, keysStart, i) }
                    if let text = try? string(k) { positions[text] = i }  // a repeated key: the last wins
                }
                state.largeIndex = LargeDictionaryIndex(ref: ref, positions: positions)
            }
            guard let p = state.largeIndex?.positions[key] else { return nil }  // the last position (below)
            // The index is keyed by `String`, which equates canonically equivalent keys: the key
            // found is confirmed by its bytes, else the search below tells the two apart.
            let k = try read { (r) throws(DecodeFailure) in reference(r, keysStart, p) }
            if let text = try? string(k), text.utf8.elementsEqual(key.utf8) {
                return try read { (r) throws(DecodeFailure) in reference(r, keysStart, count &+ p) }
            }
        }
        let utf8 = Array(key.utf8)
        for i in (0..<count).reversed() {
            let k = try read { (r) throws(DecodeFailure) in reference(r, keysStart, i) }
            let matches = try read { (r) throws(DecodeFailure) -> Bool in
                let off = try offset(r, k)
                let mk = marker(r, off)
                if mk >> 4 == 0x5, let (n, start) = ScanContext.shortCount(r, marker: mk, at: off, end: tableOffset) {
                    return n == utf8.count && start <= tableOffset &- n && r.bytes(at: start, equal: utf8)
                }
                return false
            }
            if matches || (try? string(k))?.utf8.elementsEqual(key.utf8) == true {
                return try read { (r) throws(DecodeFailure) in reference(r, keysStart, count &+ i) }
            }
        }
        return nil
    }
}

// MARK: - Encoding

/// One key of a container type, as an encoder remembers it: its text and what the encoder made of it
/// once (the binary encoder: the key's string object; the XML encoder: the key's `<key>` line).
struct EncodeKeySlot<Made> {
    let key: String
    let made: Made
    /// Whether the key is ASCII (see `KeyText.same`).
    let ascii: Bool

    init(key: String, made: Made) {
        self.key = key
        self.made = made
        ascii = key.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `other` is this slot's key, byte for byte.
    @inline(__always)
    func holds(_ other: String) -> Bool {
        key == other && KeyText.same(key, other, ascii: ascii)
    }
}

/// The key memos of an encode, one per container type (same order rule as `DecodeKeyMemo`): a
/// memo's slots are its type's keys in the order first encoded, at most `capacity` of them.
struct EncodeKeyMemos<Made> {
    static var capacity: Int { 64 }

    struct Memo {
        var slots: [EncodeKeySlot<Made>] = []
        /// The slot found last.
        var last = -1
        /// The slot of each key tag (`keyTag`).
        var tagSlots = KeyTagSlots()
    }

    var memos: [Memo] = []
    private var index: [ObjectIdentifier: Int] = [:]
    private var lastType: ObjectIdentifier? = nil
    private var lastMemo = 0

    /// The memo of the container type `type` (a new one the first time it is met).
    @inline(__always)
    mutating func memo(for type: Any.Type) -> Int {
        let id = ObjectIdentifier(type)
        if lastType == id { return lastMemo }
        let m: Int
        if let i = index[id] {
            m = i
        } else {
            m = memos.count
            memos.append(Memo())
            index[id] = m
        }
        lastType = id
        lastMemo = m
        return m
    }

    /// The slot of memo `m` holding `key`: the one after the last found (keys come in the same order
    /// each time; after the last key, the first, where the next value of the type starts), else the
    /// last found, else a search; `nil` when the memo does not hold it.
    @inline(__always)
    mutating func find(_ key: String, in m: Int) -> Int? {
        let last = memos[m].last
        let n = memos[m].slots.count
        var next = last &+ 1
        if next >= n { next = 0 }  // after the last key, the next value's first
        if next < n && memos[m].slots[next].holds(key) {
            memos[m].last = next
            return next
        }
        if last >= 0 && last < n && memos[m].slots[last].holds(key) { return last }
        for i in 0..<n where memos[m].slots[i].holds(key) {
            memos[m].last = i
            return i
        }
        return nil
    }

    /// Adds `key` (not held yet) to memo `m` with what was made of it: its slot, or `nil` when the
    /// memo is full.
    @inline(__always)
    mutating func add(_ key: String, made: Made, to m: Int) -> Int? {
        let n = memos[m].slots.count
        guard n < Self.capacity else { return nil }
        memos[m].slots.append(EncodeKeySlot(key: key, made: made))
        memos[m].last = n
        return n
    }

    /// Whether memo `m` can take another key.
    @inline(__always)
    func hasRoom(in m: Int) -> Bool { memos[m].slots.count < Self.capacity }

    /// What was made of the key in slot `slot` of memo `m`.
    @inline(__always)
    func made(_ slot: Int, in m: Int) -> Made { memos[m].slots[slot].made }

    /// The text of the key in slot `slot` of memo `m`.
    @inline(__always)
    func key(_ slot: Int, in m: Int) -> String { memos[m].slots[slot].key }

    /// The slot of memo `m` whose key has tag `tag` (`keyTag`), when one was recorded.
    @inline(__always)
    func slot(forTag tag: Int, in m: Int) -> Int? { memos[m].tagSlots.slot(tag) }

    /// Records that the key of tag `tag` (-1: none) is in slot `slot` (-1: none) of memo `m`.
    @inline(__always)
    mutating func record(tag: Int, slot: Int, in m: Int) { memos[m].tagSlots.record(tag, slot) }
}
