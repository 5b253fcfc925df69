// Sources/PropertyList/XML/XMLValueSink.swift - What the XML reader makes of what it reads: a
// `PlistValue` tree (`XMLTreeSink`, for `XMLPlist.decode`) or a Codable decode's tape (`XMLTapeSink`,
// XMLTapeSink.swift, for `PlistDecoder`).
//
// The reader (XMLPlistReader.swift) owns the grammar, the positions, the limits and every error; a
// sink owns the values. The reader is generic over its sink and specialised for each, so the tree
// path runs the code it ran before the split. A sink keeps the children of the open containers on
// stacks of its own (a frame remembers where its children start: `itemCount`, `keyCount`,
// `valueCount` when it opened), and a container is made from them when it closes.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

protocol XMLValueSink {
    associatedtype Value

    /// How many elements the open arrays hold, keys the open dictionaries hold, and values they hold.
    var itemCount: Int { get }
    var keyCount: Int { get }
    var valueCount: Int { get }

    /// The string `bytes[r]` (`ascii`: all of its bytes are); nil when they are not valid UTF-8.
    mutating func string(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> Value?
    /// A string the reader decoded (entities, CDATA sections or comments in its text).
    mutating func string(_ s: PlistString) -> Value
    /// Pushes the key `bytes[r]` of the innermost open dictionary; false when it is not valid UTF-8.
    mutating func pushKey(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> Bool
    /// Pushes a key the reader decoded.
    mutating func pushKey(_ s: PlistString)

    mutating func integer(_ v: PlistInteger) -> Value
    mutating func real(_ d: Double) -> Value
    mutating func bool(_ b: Bool) -> Value
    mutating func date(_ d: Date) -> Value
    mutating func data(_ d: Data) -> Value
    mutating func emptyArray() -> Value
    mutating func emptyDictionary() -> Value

    /// Adds a finished value to the innermost open container (after its key, in a dictionary).
    mutating func attach(_ value: consuming Value, inDictionary: Bool)
    /// The array of the elements pushed from `start` on, taken off the stack.
    mutating func finishArray(itemsFrom start: Int) -> Value
    /// The integer of a `CF$UID` dictionary, `<dict><key>CF$UID</key><integer>n</integer></dict>` (as
    /// CoreFoundation reads it, a UID): when every key from `keys` on is `CF$UID` (one key, or the same
    /// key repeated, which keeps its last value) and the last value is an integer; nil otherwise.
    func uidCandidate(keysFrom keys: Int, valuesFrom values: Int) -> PlistInteger?
    /// The UID `u` for the `CF$UID` dictionary whose keys and values start at `keys` and `values`.
    mutating func finishUID(_ u: UInt64, keysFrom keys: Int, valuesFrom values: Int) -> Value
    /// The dictionary of the keys and values pushed from `keys` and `values` on: a repeated key keeps
    /// its first position and its last value, as ``PlistDictionary`` does.
    mutating func finishDictionary(keysFrom keys: Int, valuesFrom values: Int, in bytes: XMLInput) -> Value
}

/// Whether the UTF-8 bytes are `CF$UID`, byte by byte (`==` with a literal goes through a general
/// comparison costing a few hundred instructions, once per UID of an archive).
@inline(__always)
func isUIDKey(_ s: Span<UInt8>) -> Bool {
    s.count == 6 && s[0] == 0x43 && s[1] == 0x46 && s[2] == 0x24 && s[3] == 0x55 && s[4] == 0x49 && s[5] == 0x44
}

// MARK: - The tree

/// The sink of `XMLPlist.decode`: a `PlistValue` tree. Short strings (keys, and values that repeat)
/// come from a cache of the ones made before; longer ones are slices of the input when there is one
/// (`source`), made into a `String` only when asked.
struct XMLTreeSink: XMLValueSink {
    typealias Value = PlistValue

    /// The buffer long strings are sliced from (the caller's UTF-8 `Data`), and the offset of the
    /// input's first byte in it; nil when the input was transcoded (strings are then owned).
    let source: StringSource?
    let sourceBase: Int
    /// The elements of the open arrays, each array's from its frame's `start` on.
    var items: [PlistValue] = []
    /// The entries of the open dictionaries (keys, the hash of each key's bytes, values); a key waiting
    /// for its value is the last key.
    var entryKeys: [PlistString] = []
    var keyHashes: [UInt64] = []
    var entryValues: [PlistValue] = []
    /// Short strings made so far, found again by their bytes.
    var cache = XMLStringCache()

    init(source: StringSource? = nil, sourceBase: Int = 0) {
        self.source = source
        self.sourceBase = sourceBase
    }

    var itemCount: Int { items.count }
    var keyCount: Int { entryKeys.count }
    var valueCount: Int { entryValues.count }

    @inline(__always)
    mutating func string(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> PlistValue? {
        if r.count <= 16 { return cachedString(r, ascii: ascii, in: bytes).map { .string($0.string) } }
        return makeString(r, ascii: ascii, in: bytes).map { .string($0) }
    }

    mutating func string(_ s: PlistString) -> PlistValue { .string(s) }

    @inline(__always)
    mutating func pushKey(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> Bool {
        guard let (key, hash) = cachedString(r, ascii: ascii, in: bytes) else { return false }
        entryKeys.append(key)
        keyHashes.append(hash)
        return true
    }

    mutating func pushKey(_ s: PlistString) {
        entryKeys.append(s)
        keyHashes.append(ByteHash.hash(s))
    }

    /// A string of at most 16 bytes, and the hash of its bytes: the one made before from the same bytes,
    /// or a new one, remembered. Longer strings are made each time, their hash computed.
    @inline(__always)
    mutating func cachedString(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> (
        string: PlistString, hash: UInt64
    )? {
        let count = r.count
        guard count <= 16 else {
            guard let s = makeString(r, ascii: ascii, in: bytes) else { return nil }
            return (s, ByteHash.hash(s))
        }
        let (w0, w1) = bytes.shortWords(r.lowerBound, count)
        if let hit = cache.lookup(w0, w1, count) { return hit }
        guard let s = makeString(r, ascii: ascii, in: bytes) else { return nil }
        let hash = ByteHash.hash(s)
        cache.insert(s, hash: hash, w0, w1, count)
        return (s, hash)
    }

    /// A new string of the input bytes `r` (`ascii`: whether they are all ASCII); nil when they are
    /// not valid UTF-8.
    func makeString(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> PlistString? {
        if !ascii, XMLScan.firstInvalidUTF8(bytes[r]) != nil { return nil }
        if r.count > 15, let source {
            // Valid UTF-8 (checked above), inside the source: `bytes` is its suffix from `sourceBase`.
            return PlistString(source, offset: sourceBase + r.lowerBound, count: r.count)
        }
        return PlistString(ascii ? bytes.asciiString(r) : bytes.validString(r) ?? "")
    }

    mutating func integer(_ v: PlistInteger) -> PlistValue { .integer(v) }
    mutating func real(_ d: Double) -> PlistValue { .real(d) }
    mutating func bool(_ b: Bool) -> PlistValue { .bool(b) }
    mutating func date(_ d: Date) -> PlistValue { .date(d) }
    mutating func data(_ d: Data) -> PlistValue { .data(d) }
    mutating func emptyArray() -> PlistValue { .array([]) }
    mutating func emptyDictionary() -> PlistValue { .dictionary(PlistDictionary()) }

    @inline(__always)
    mutating func attach(_ value: consuming PlistValue, inDictionary: Bool) {
        // A dictionary's loop reads a key (pushed on `entryKeys`) before every value.
        if inDictionary { entryValues.append(value) } else { items.append(value) }
    }

    mutating func finishArray(itemsFrom start: Int) -> PlistValue {
        guard start > 0 else {
            // Every element on the stack is this array's (the outermost array with elements, typically
            // the root's): the stack itself becomes the array, with no copy of its elements.
            let elements = items
            items = []
            return .array(elements)
        }
        return .array(XMLTreeSink.takeSuffix(of: &items, from: start))
    }

    /// The elements of `stack` from `start` on, moved off it in order (each swapped for `.null`, then the
    /// nulls removed): no element is copied, where a copy and the removal of the original were a retain
    /// and a release of each.
    static func takeSuffix(of stack: inout [PlistValue], from start: Int) -> [PlistValue] {
        var taken: [PlistValue] = []
        taken.reserveCapacity(stack.count &- start)
        for k in start..<stack.count { taken.append(take(&stack[k], leaving: .null)) }
        stack.removeSubrange(start...)
        return taken
    }

    /// `x`, moved out, with `empty` (a value without storage) left in its place.
    @inline(__always)
    static func take<T>(_ x: inout T, leaving empty: T) -> T {
        var out = empty
        swap(&x, &out)
        return out
    }

    func uidCandidate(keysFrom keys: Int, valuesFrom values: Int) -> PlistInteger? {
        let end = entryKeys.count
        guard end > keys, case .integer(let uid) = entryValues[entryValues.count &- 1] else { return nil }
        for k in keys..<end where !entryKeys[k].withUTF8Span({ isUIDKey($0) }) { return nil }
        return uid
    }

    mutating func finishUID(_ u: UInt64, keysFrom keys: Int, valuesFrom values: Int) -> PlistValue {
        if keys == entryKeys.count &- 1 {
            // One entry (every UID but a repeated CF$UID key): `removeSubrange` costs a call and a
            // range replacement where this is a decrement.
            entryKeys.removeLast()
            keyHashes.removeLast()
            entryValues.removeLast()
        } else {
            entryKeys.removeSubrange(keys...)
            keyHashes.removeSubrange(keys...)
            entryValues.removeSubrange(values...)
        }
        return .uid(u)
    }

    /// Keys are compared by the hash of their bytes first (pairwise up to 12 entries, in a set beyond),
    /// so hostile input stays O(n); only when two hashes agree are the entries merged by exact text.
    mutating func finishDictionary(keysFrom start: Int, valuesFrom valueStart: Int, in bytes: XMLInput) -> PlistValue {
        let end = entryKeys.count
        let repeated = XMLTreeSink.hasRepeatedHash(keyHashes, from: start)
        var result: [PlistDictionary.Element] = []
        result.reserveCapacity(end - start)
        let shift = valueStart - start
        // Keys and values are moved out, empty ones left in their place (copying them, then removing the
        // originals, was a retain and a release of each).
        for k in start..<end {
            let key = XMLTreeSink.take(&entryKeys[k], leaving: PlistString(""))
            result.append((.string(key), XMLTreeSink.take(&entryValues[k + shift], leaving: .null)))
        }
        entryKeys.removeSubrange(start...)
        keyHashes.removeSubrange(start...)
        entryValues.removeSubrange(valueStart...)
        if repeated { result = XMLTreeSink.mergingRepeatedKeys(result) }
        return .dictionary(PlistDictionary(uniqueEntries: result))
    }

    /// Whether two of the hashes from `start` on are equal (pairwise up to 12, in a set beyond).
    static func hasRepeatedHash(_ hashes: [UInt64], from start: Int) -> Bool {
        let end = hashes.count
        if end - start <= 12 {
            var a = start + 1
            while a < end {
                let h = hashes[a]
                for b in start..<a where hashes[b] == h { return true }
                a += 1
            }
            return false
        }
        var seen = Set<UInt64>(minimumCapacity: end - start)
        for k in start..<end where !seen.insert(hashes[k]).inserted { return true }
        return false
    }

    /// Entries with each repeated key (exact text) kept once, at its first position, with its last value.
    static func mergingRepeatedKeys(_ all: [PlistDictionary.Element]) -> [PlistDictionary.Element] {
        var positions: [PlistString: Int] = [:]
        positions.reserveCapacity(all.count)
        var kept: [PlistDictionary.Element] = []
        kept.reserveCapacity(all.count)
        for entry in all {
            guard case .string(let key) = entry.key else { continue }
            if let j = positions[key] {
                kept[j].value = entry.value
            } else {
                positions[key] = kept.count
                kept.append(entry)
            }
        }
        return kept
    }
}
