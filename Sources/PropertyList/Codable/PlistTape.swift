// Sources/PropertyList/Codable/PlistTape.swift - A property list laid out flat for a Codable decode:
// one array of fixed-size entries, one array of child references.
//
// What `PlistDecoder` decodes XML from (TapeDecoding.swift): the XML reader writes it as it parses
// (XMLTapeSink.swift), with no node allocated, no reference counted and no string made until a
// `Decodable` keeps one. (A `PlistValue` tree, and the OpenStep and JSON readers' trees, are decoded
// in place instead, TreeDecoding.swift: flattening a tree into a tape cost more than the tree
// decoder's whole decode, measured.)
//
//   entries[i] = (kind, form, count, a)          16 bytes; what `a` holds depends on the kind:
//     bool, real, date, uid     the value's bits (a date: its seconds since 2001 as a Double)
//     integer                   inside Int64: its bits; else (form .side) its index in `wide`
//     data                      its index in `datas` (the bytes decoded once, by the reader)
//     string                    form .input/.inputASCII: the UTF-8 byte offset in `source`, `count`
//                               bytes (valid UTF-8, proven by the reader); form .side: its index in
//                               `strings` (text the reader had to decode)
//     array, set                where its `count` elements start in `refs`
//     dictionary                where its `count` keys start in `refs`; its values follow them
//
// Entries are appended as values finish, so a container comes after its children and the root is
// last (`root` says which). Children are entry indices (`Int32`: a tape holds fewer than 2^31
// entries; the XML reader stops at half as many values, each with at most one key). The kinds cover
// every property-list value (XML has no null and no set, which other writers of a tape may hold).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

struct PlistTape {
    enum Kind: UInt8 {
        case null, bool, integer, real, date, data, string, uid, array, set, dictionary
    }

    /// Where an entry's payload is (see the file header).
    enum Form: UInt8 {
        case inline
        /// In a side array: `strings`, `wide`.
        case side
        /// Bytes of `source` (strings only): valid UTF-8, or ASCII.
        case input
        case inputASCII
    }

    struct Entry {
        var a: UInt64
        var count: UInt32
        var kind: Kind
        var form: Form

        @inline(__always)
        init(_ kind: Kind, _ form: Form = .inline, a: UInt64 = 0, count: UInt32 = 0) {
            self.a = a
            self.count = count
            self.kind = kind
            self.form = form
        }

        var index: Int { Int(truncatingIfNeeded: a) }
    }

    /// The most entries a tape holds (child references are `Int32`).
    static let maxEntries = Int(Int32.max)

    var entries: [Entry] = []
    var refs: [Int32] = []
    var strings: [PlistString] = []
    var datas: [Data] = []
    var wide: [PlistInteger] = []
    var root = 0
    /// The UTF-8 text the `.input` strings are byte ranges of, from `sourceBase` (the XML input after
    /// any byte-order mark, or its transcoding to UTF-8); nil when no entry refers to it.
    var source: Data? = nil
    var sourceBase = 0

    init() {}

    // MARK: Appending

    @inline(__always)
    mutating func append(_ entry: Entry) -> Int32 {
        let index = Int32(truncatingIfNeeded: entries.count)
        entries.append(entry)
        return index
    }

    @inline(__always)
    mutating func integer(_ v: PlistInteger) -> Int32 {
        if let small = v.int64 { return append(Entry(.integer, a: UInt64(bitPattern: small))) }
        wide.append(v)
        return append(Entry(.integer, .side, a: UInt64(wide.count &- 1)))
    }

    @inline(__always)
    mutating func real(_ d: Double) -> Int32 { append(Entry(.real, a: d.bitPattern)) }

    @inline(__always)
    mutating func bool(_ b: Bool) -> Int32 { append(Entry(.bool, a: b ? 1 : 0)) }

    @inline(__always)
    mutating func date(_ d: Date) -> Int32 {
        append(Entry(.date, a: d.timeIntervalSinceReferenceDate.bitPattern))
    }

    @inline(__always)
    mutating func data(_ d: Data) -> Int32 {
        datas.append(d)
        return append(Entry(.data, a: UInt64(datas.count &- 1)))
    }

    @inline(__always)
    mutating func uid(_ u: UInt64) -> Int32 { append(Entry(.uid, a: u)) }

    @inline(__always)
    mutating func string(_ s: PlistString) -> Int32 {
        strings.append(s)
        return append(Entry(.string, .side, a: UInt64(strings.count &- 1)))
    }

    /// The string of `count` bytes at `offset` of `source` (valid UTF-8; `ascii`: all ASCII).
    @inline(__always)
    mutating func inputString(offset: Int, count: Int, ascii: Bool) -> Int32 {
        append(
            Entry(
                .string, ascii ? .inputASCII : .input, a: UInt64(truncatingIfNeeded: offset),
                count: UInt32(truncatingIfNeeded: count)))
    }

    /// A container whose children (for a dictionary: its keys, then as many values) were appended to
    /// `refs` from `start` on; `count` is its element (or entry) count.
    @inline(__always)
    mutating func container(_ kind: Kind, refsFrom start: Int, count: Int) -> Int32 {
        append(Entry(kind, a: UInt64(truncatingIfNeeded: start), count: UInt32(truncatingIfNeeded: count)))
    }

    // MARK: Reading

    /// The text of a string entry of form `.side`.
    @inline(__always)
    func plistString(_ e: Entry) -> PlistString { strings[e.index] }

    /// The value of an integer entry.
    @inline(__always)
    func integer(_ e: Entry) -> PlistInteger {
        e.form == .side ? wide[e.index] : PlistInteger(Int64(bitPattern: e.a))
    }

    /// The bytes of a data entry.
    @inline(__always)
    func data(_ e: Entry) -> Data { datas[e.index] }
}
