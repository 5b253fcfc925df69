// Sources/PropertyList/Codable/PlistTape.swift - A property list laid out flat for a Codable decode:
// one array of fixed-size entries, one array of child references.
//
// The decoder of the text forms and of in-memory trees (TapeDecoding.swift) reads this, never a
// `PlistValue`: the XML reader writes it as it parses (XMLTapeSink.swift), with no node allocated,
// no reference counted and no string made until a `Decodable` keeps one; a tree (and what the
// OpenStep and JSON readers return) is flattened into it (`init(tree:)`).
//
//   entries[i] = (kind, form, count, a)          16 bytes; what `a` holds depends on the kind:
//     bool, real, date, uid     the value's bits (a date: its seconds since 2001 as a Double)
//     integer                   inside Int64: its bits; else (form .side) its index in `wide`
//     data                      its index in `datas` (the bytes decoded once, by the reader)
//     string                    form .input/.inputASCII: the UTF-8 byte offset in `source`, `count`
//                               bytes (valid UTF-8, proven by the reader); form .side: its index in
//                               `strings` (text the reader had to decode, or a tree's strings)
//     array, set                where its `count` elements start in `refs`
//     dictionary                where its `count` keys start in `refs`; its values follow them
//
// Entries are appended as values finish, so a container comes after its children and the root is
// usually last (`root` says which). Children are entry indices (`Int32`: a tape holds fewer than
// 2^31 entries, checked); a child may be shared, as a flattened tree's shared sub-trees are (so a
// tape is as large as the distinct values it holds, never their expansion).

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

    /// Whether `n` more entries fit.
    @inline(__always)
    func hasRoom(for n: Int) -> Bool { n <= PlistTape.maxEntries &- entries.count }

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
}

// MARK: - A tree, flattened

extension PlistTape {
    /// The tape of `tree`: each distinct container once (a sub-tree the tree shares, by storage, is
    /// one entry that every parent names), strings and data by reference, not copied.
    ///
    /// - Throws: `limitExceeded` when the tree has more distinct values than a tape holds.
    init(tree: PlistValue) throws(PlistError) {
        // An explicit stack (a tree may be nested deeper than the call stack allows): a container is
        // pushed, its children are flattened, then it is appended with their entries.
        struct Pending {
            var value: PlistValue
            var identity: UInt
            var next = 0
            var count: Int
            /// Where its children's entry indices start on `done`.
            var mark: Int
        }
        var seen: [UInt: Int32] = [:]
        var stack: [Pending] = []
        var done: [Int32] = []
        var current = tree
        while true {
            // Descend into `current`: a scalar (or a container met before) is finished at once.
            var finished: Int32? = nil
            switch current {
            case .array(let a), .set(let a):
                let id = StorageIdentity.of(a)
                if let known = seen[id], !a.isEmpty {
                    finished = known
                } else {
                    stack.append(Pending(value: current, identity: id, count: a.count, mark: done.count))
                }
            case .dictionary(let d):
                let id = StorageIdentity.of(d.entries)
                if let known = seen[id], !d.entries.isEmpty {
                    finished = known
                } else {
                    stack.append(Pending(value: current, identity: id, count: d.entries.count * 2, mark: done.count))
                }
            default:
                guard hasRoom(for: 1) else { throw PlistTape.tooLarge() }
                finished = scalar(current)
            }
            if let finished { done.append(finished) }
            // Finish every container whose children are done; descend into the next child.
            while let top = stack.last {
                if top.next < top.count {
                    stack[stack.count - 1].next += 1
                    current = PlistTape.child(top.value, top.next)
                    break
                }
                stack.removeLast()
                guard hasRoom(for: 1) else { throw PlistTape.tooLarge() }
                let start = refs.count
                let entry: Int32
                switch top.value {
                case .dictionary:
                    // `done` holds key, value, key, value…: keys first, then values.
                    let n = top.count / 2
                    for k in 0..<n { refs.append(done[top.mark + 2 * k]) }
                    for k in 0..<n { refs.append(done[top.mark + 2 * k + 1]) }
                    entry = container(.dictionary, refsFrom: start, count: n)
                case .set:
                    refs.append(contentsOf: done[top.mark...])
                    entry = container(.set, refsFrom: start, count: top.count)
                default:
                    refs.append(contentsOf: done[top.mark...])
                    entry = container(.array, refsFrom: start, count: top.count)
                }
                done.removeSubrange(top.mark...)
                if top.count > 0 { seen[top.identity] = entry }
                done.append(entry)
            }
            if stack.isEmpty { break }
        }
        root = Int(done[done.count - 1])
    }

    /// Child `k` of the container `value`: an element, or for a dictionary its keys and values in turn.
    private static func child(_ value: PlistValue, _ k: Int) -> PlistValue {
        switch value {
        case .array(let a), .set(let a): return a[k]
        case .dictionary(let d): return k & 1 == 0 ? d.entries[k >> 1].key : d.entries[k >> 1].value
        default: return .null
        }
    }

    /// The entry of a scalar (a container's caller handles containers).
    private mutating func scalar(_ value: PlistValue) -> Int32 {
        switch value {
        case .null: return append(Entry(.null))
        case .bool(let b): return bool(b)
        case .integer(let i): return integer(i)
        case .real(let d): return real(d)
        case .date(let d): return date(d)
        case .data(let d): return data(d)
        case .string(let s): return string(s)
        case .uid(let u): return uid(u)
        case .array, .set, .dictionary: return append(Entry(.null))
        }
    }

    static func tooLarge() -> PlistError {
        PlistError(.limitExceeded, "more than \(PlistTape.maxEntries) values in one decode")
    }
}
