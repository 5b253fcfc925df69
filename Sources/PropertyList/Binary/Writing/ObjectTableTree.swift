// Sources/PropertyList/Binary/Writing/ObjectTableTree.swift - The objects of an ObjectTableBuilder as a
// PlistValue tree, without writing them as a binary property list first.
//
// `PlistEncoder` builds every form in the object-table builder; for the text forms and `encodeValue` it
// needs the tree a reader would make of the binary file, and this makes it from the table directly.
// Every child is added before its container (`appendChild` checks the id was returned, the encoder
// finishes nested values first), so one pass in id order builds each object once from values already
// built: a deduplicated string, number or container is one value, shared by every container that
// names it, exactly as the reader's memo shares an object reached again. Objects after the root are
// never reached from it and are not built.
//
// The values are the reader's: a `Float` is the 4-byte real a reader widens to `Double`, a date its
// seconds since 2001, an integer outside `Int64` its two words. Strings of up to 15 UTF-8 bytes are
// Swift small strings; longer ones are slices of one copy of the arena's bytes (no allocation per
// string; the tree keeps that copy, as a decoded tree keeps its input).
//
// Measured against the alternative of no tree at all (the builder walked in place, as a `PlistTree`,
// by the generic XML writer and its `PlistTreeMeasure` check): callgrind, XML encode-codable of a
// 2 MB mixed workload, 282 M instructions with this tree against 579 M in place (the generic check
// and walk copy each node's contents; strings 75 M against 285 M, numbers 166 M against 314 M).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension ObjectTableBuilder {
    /// The value of the object `root` and of everything it contains, as a reader of `finish(root:)`'s
    /// output would read it.
    ///
    /// Dictionary keys must be distinct objects of distinct text (as the Codable encoder makes them:
    /// a key encoded twice replaces its value); a reader of the binary form would keep the last value
    /// of a repeated key.
    ///
    /// - Throws: `unencodable` when `root`, or a child of a container, is not an object added before
    ///   it (a broken builder, not input).
    /// - Complexity: O(objects up to the root + their children); one array of values while it builds.
    func value(root: BuilderRef) throws(PlistError) -> PlistValue {
        guard root.id >= 0, Int(root.id) < objects.count else {
            throw PlistError(.unencodable, "root reference \(root.id) was not returned by this builder")
        }
        if let (settled, r) = settledCopy(root) { return try settled.value(root: r) }
        let last = Int(canonical(root).id)
        var strings: StringSource? = nil
        var values: [PlistValue] = []
        values.reserveCapacity(last &+ 1)
        for i in 0...last {
            let e = objects[i]
            switch e.kind {
            // A forwarded object is reached by nothing (its container names the object it equals).
            case .null, .forwarded: values.append(.null)
            case .bool: values.append(.bool(e.a != 0))
            case .integer:
                if e.count == 16 {
                    let high = Int64(bitPattern: arena.word(e.start))
                    values.append(.integer(PlistInteger(high: high, low: arena.word(e.start &+ 8))))
                } else {
                    values.append(.integer(PlistInteger(Int64(bitPattern: e.a))))
                }
            case .real: values.append(.real(Double(bitPattern: e.a)))
            case .float: values.append(.real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: e.a)))))
            case .date: values.append(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: e.a))))
            case .uid: values.append(.uid(e.a))
            case .data: values.append(.data(arena.data(e.start, e.count)))
            case .ascii, .utf16:
                let n = e.count
                if n <= 15 {
                    values.append(.string(PlistString(arena.string(e.start, n))))
                } else {
                    let source: StringSource
                    if let strings {
                        source = strings
                    } else {
                        source = StringSource(arena.data(0, arena.count))
                        strings = source
                    }
                    values.append(.string(PlistString(source, offset: e.start, count: n)))
                }
            case .array, .set:
                let start = e.start
                let n = e.count
                var elements: [PlistValue] = []
                elements.reserveCapacity(n)
                for k in start..<(start &+ n) { elements.append(values[try child(k, of: i)]) }
                values.append(e.kind == .array ? .array(elements) : .set(elements))
            case .dictionary:
                let start = e.start
                let half = e.count / 2
                var entries: [PlistDictionary.Element] = []
                entries.reserveCapacity(half)
                for k in start..<(start &+ half) {
                    let key = values[try child(k, of: i)]
                    entries.append((key, values[try child(k &+ half, of: i)]))
                }
                assert(Set(entries.map(\.key)).count == entries.count, "repeated key in dictionary \(i)")
                values.append(.dictionary(PlistDictionary(uniqueEntries: entries)))
            }
        }
        return values[last]
    }

    /// The id of the child at `children[k]` of container `i`, which must be an object added before it.
    @inline(__always)
    private func child(_ k: Int, of i: Int) throws(PlistError) -> Int {
        let c = Int(children[k])
        guard c >= 0, c < i else {
            throw PlistError(.unencodable, "container \(i) names object \(c), which was not added before it")
        }
        return c
    }
}
