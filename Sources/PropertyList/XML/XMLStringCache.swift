// Sources/PropertyList/XML/XMLStringCache.swift - The strings of up to 16 bytes an XML decode has made,
// found again by their bytes.
//
// Keys repeat in every dictionary of a kind, and short values (names, tags, class names) repeat
// across a file. Making a Swift string of a few bytes costs far more than finding the one made
// before: a direct-mapped table keyed by the bytes themselves (two words and the length, so a hit is
// exact, no hash collision can return another string), each slot holding the string and the hash of
// its bytes (`ByteHash`, which a dictionary's repeated-key check compares).

struct XMLStringCache {
    private static let slotCount = 1024
    private var first: [UInt64]
    private var second: [UInt64]
    /// The byte count of the string in each slot; -1 for an empty slot.
    private var counts: [Int]
    private var strings: [PlistString]
    private var hashes: [UInt64]

    init() {
        first = Array(repeating: 0, count: XMLStringCache.slotCount)
        second = first
        hashes = first
        counts = Array(repeating: -1, count: XMLStringCache.slotCount)
        strings = Array(repeating: PlistString(""), count: XMLStringCache.slotCount)
    }

    @inline(__always)
    private static func slot(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> Int {
        let mixed = (w0 &* 0x9E37_79B9_7F4A_7C15) ^ (w1 &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(n)
        return Int(truncatingIfNeeded: ((mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9) >> 54)
    }

    /// The string whose `n` bytes (at most 16) are the little-endian words `w0`, `w1` (zero past `n`),
    /// with the hash of its bytes, if it was made before.
    @inline(__always)
    func lookup(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> (PlistString, UInt64)? {
        let k = XMLStringCache.slot(w0, w1, n)
        guard counts[k] == n, first[k] == w0, second[k] == w1 else { return nil }
        return (strings[k], hashes[k])
    }

    /// Remembers `string`, whose bytes are `w0`, `w1`, `n` as in `lookup`, replacing the slot's string.
    @inline(__always)
    mutating func insert(_ string: PlistString, hash: UInt64, _ w0: UInt64, _ w1: UInt64, _ n: Int) {
        let k = XMLStringCache.slot(w0, w1, n)
        counts[k] = n
        first[k] = w0
        second[k] = w1
        strings[k] = string
        hashes[k] = hash
    }
}
