// Sources/PropertyList/XML/XMLTapeSink.swift - The XML reader's sink for a Codable decode: the values
// written straight into a `PlistTape` (Codable/PlistTape.swift), no `PlistValue` made.
//
// A string or key that is a run of the input's bytes becomes an entry naming that run (validated as
// UTF-8 here when it is not ASCII; made into a `String` only if a `Decodable` keeps it); text the
// reader had to decode (entities, CDATA) is kept as a `PlistString`. Numbers, booleans and dates are
// the entries' own bits; data is decoded once, here, and handed to the model as it is. The children
// of open containers wait on stacks of entry indices and are moved to the tape's reference list when
// their container closes.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

struct XMLTapeSink: XMLValueSink {
    typealias Value = Int32

    var tape = PlistTape()
    /// The offset of the input's first byte in the tape's source (a byte-order mark before it).
    let sourceBase: Int
    var items: [Int32] = []
    var keys: [Int32] = []
    var values: [Int32] = []
    /// The keys of the last dictionary found free of repeated keys, each as the words of its bytes (up
    /// to 16; `count` -1 for a longer key or decoded text): a dictionary with the same keys in the same
    /// order needs no other check (the records of a file share their keys).
    var lastKeys: [(w0: UInt64, w1: UInt64, count: Int)] = []

    init(source: Data, sourceBase: Int) {
        tape.source = source
        self.sourceBase = sourceBase
        // Sized once for a document of short values (Apple's layout spends about 25 bytes of text on an
        // entry, the peers' records 25, an Info.plist 30-40): a growing array copies what it holds at
        // each doubling, and touches fresh memory each time.
        // Advised for huge pages from 4 MiB (a document of 4 MB and more): the tape is fresh memory
        // written once (Shared/HugePages.swift: what is advised, and what no longer is).
        let expected = source.count / 32
        tape.entries = HugePages.reserved(PlistTape.Entry.self, capacity: expected)
        tape.refs = HugePages.reserved(Int32.self, capacity: expected)
    }

    var itemCount: Int { items.count }
    var keyCount: Int { keys.count }
    var valueCount: Int { values.count }

    @inline(__always)
    mutating func string(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> Int32? {
        guard ascii || XMLScan.firstInvalidUTF8(bytes[r]) == nil else { return nil }
        return tape.inputString(offset: sourceBase &+ r.lowerBound, count: r.count, ascii: ascii)
    }

    mutating func string(_ s: PlistString) -> Int32 { tape.string(s) }

    @inline(__always)
    mutating func pushKey(_ r: Range<Int>, ascii: Bool, in bytes: XMLInput) -> Bool {
        guard let key = string(r, ascii: ascii, in: bytes) else { return false }
        keys.append(key)
        return true
    }

    mutating func pushKey(_ s: PlistString) { keys.append(tape.string(s)) }

    @inline(__always) mutating func integer(_ v: PlistInteger) -> Int32 { tape.integer(v) }
    @inline(__always) mutating func real(_ d: Double) -> Int32 { tape.real(d) }
    @inline(__always) mutating func bool(_ b: Bool) -> Int32 { tape.bool(b) }
    @inline(__always) mutating func date(_ d: Date) -> Int32 { tape.date(d) }
    @inline(__always) mutating func data(_ d: Data) -> Int32 { tape.data(d) }

    mutating func emptyArray() -> Int32 { tape.container(.array, refsFrom: tape.refs.count, count: 0) }

    mutating func emptyDictionary() -> Int32 { tape.container(.dictionary, refsFrom: tape.refs.count, count: 0) }

    @inline(__always)
    mutating func attach(_ value: Int32, inDictionary: Bool) {
        if inDictionary { values.append(value) } else { items.append(value) }
    }

    mutating func finishArray(itemsFrom start: Int) -> Int32 {
        let refsStart = tape.refs.count
        let n = items.count &- start
        tape.refs.append(contentsOf: items[start...])
        items.removeSubrange(start...)
        return tape.container(.array, refsFrom: refsStart, count: n)
    }

    func uidCandidate(keysFrom start: Int, valuesFrom valueStart: Int) -> PlistInteger? {
        let end = keys.count
        guard end > start else { return nil }
        let last = tape.entries[Int(values[values.count &- 1])]
        guard last.kind == .integer else { return nil }
        for k in start..<end where !isUID(tape.entries[Int(keys[k])]) { return nil }
        return tape.integer(last)
    }

    /// Whether the string entry `e` is `CF$UID`.
    func isUID(_ e: PlistTape.Entry) -> Bool {
        switch e.form {
        case .input, .inputASCII:
            guard e.count == 6, let source = tape.source else { return false }
            return isUIDKey(source.span.extracting(e.index..<e.index &+ 6))
        case .side, .inline:
            return tape.plistString(e).withUTF8Span { isUIDKey($0) }
        }
    }

    mutating func finishUID(_ u: UInt64, keysFrom start: Int, valuesFrom valueStart: Int) -> Int32 {
        if start == keys.count &- 1 {
            // One entry (as `XMLTreeSink.finishUID`).
            keys.removeLast()
            values.removeLast()
        } else {
            keys.removeSubrange(start...)
            values.removeSubrange(valueStart...)
        }
        return tape.uid(u)
    }

    mutating func finishDictionary(keysFrom start: Int, valuesFrom valueStart: Int, in bytes: XMLInput) -> Int32 {
        let refsStart = tape.refs.count
        var n = keys.count &- start
        if n > 1 && !hasLastKeys(from: start, in: bytes) {
            if XMLTreeSink.hasRepeatedHash(keyHashes(from: start, in: bytes), from: 0) {
                n = mergeRepeatedKeys(keysFrom: start, valuesFrom: valueStart)
            } else {
                rememberKeys(from: start, in: bytes)
            }
        }
        tape.refs.append(contentsOf: keys[start..<start &+ n])
        tape.refs.append(contentsOf: values[valueStart..<valueStart &+ n])
        keys.removeSubrange(start...)
        values.removeSubrange(valueStart...)
        return tape.container(.dictionary, refsFrom: refsStart, count: n)
    }

    /// The words of the key entry `e`'s bytes, as `lastKeys` holds them.
    @inline(__always)
    func keyWords(_ e: PlistTape.Entry, in bytes: XMLInput) -> (w0: UInt64, w1: UInt64, count: Int) {
        guard e.form == .input || e.form == .inputASCII, e.count <= 16 else { return (0, 0, -1) }
        let n = Int(e.count)
        let (w0, w1) = bytes.shortWords(e.index &- sourceBase, n)
        return (w0, w1, n)
    }

    /// Whether the keys from `start` on are those of `lastKeys`, in order.
    @inline(__always)
    func hasLastKeys(from start: Int, in bytes: XMLInput) -> Bool {
        let n = keys.count &- start
        guard lastKeys.count == n else { return false }
        for k in 0..<n {
            let w = keyWords(tape.entries[Int(keys[start &+ k])], in: bytes)
            let last = lastKeys[k]
            guard w.count >= 0, w.count == last.count, w.w0 == last.w0, w.w1 == last.w1 else { return false }
        }
        return true
    }

    mutating func rememberKeys(from start: Int, in bytes: XMLInput) {
        lastKeys.removeAll(keepingCapacity: true)
        for k in start..<keys.count { lastKeys.append(keyWords(tape.entries[Int(keys[k])], in: bytes)) }
    }

    /// The hash of each key's bytes from `start` on (`ByteHash`, for the repeated-key check).
    func keyHashes(from start: Int, in bytes: XMLInput) -> [UInt64] {
        (start..<keys.count).map { k in
            let e = tape.entries[Int(keys[k])]
            switch e.form {
            case .input, .inputASCII:
                let at = e.index &- sourceBase
                return bytes.hash(at..<at &+ Int(e.count))
            case .side, .inline:
                return ByteHash.hash(tape.plistString(e))
            }
        }
    }

    /// Rewrites the keys and values from `start` and `valueStart` on so that each key (exact text) is
    /// kept once, at its first position, with its last value; returns how many remain.
    mutating func mergeRepeatedKeys(keysFrom start: Int, valuesFrom valueStart: Int) -> Int {
        var positions: [[UInt8]: Int] = [:]
        var kept = 0
        for k in 0..<(keys.count &- start) {
            let text = bytes(of: tape.entries[Int(keys[start &+ k])])
            if let j = positions[text] {
                values[valueStart &+ j] = values[valueStart &+ k]
            } else {
                positions[text] = kept
                keys[start &+ kept] = keys[start &+ k]
                values[valueStart &+ kept] = values[valueStart &+ k]
                kept &+= 1
            }
        }
        return kept
    }

    /// The UTF-8 bytes of the string entry `e`.
    func bytes(of e: PlistTape.Entry) -> [UInt8] {
        switch e.form {
        case .input, .inputASCII:
            guard let source = tape.source else { return [] }
            let text = source.span.extracting(e.index..<e.index &+ Int(e.count))
            return (0..<text.count).map { text[$0] }
        case .side, .inline:
            return Array(tape.plistString(e).string.utf8)
        }
    }
}
