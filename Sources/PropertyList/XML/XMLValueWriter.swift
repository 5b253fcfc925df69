// Sources/PropertyList/XML/XMLValueWriter.swift - The XML writer's walk over an owned `PlistValue`, and
// the size of its output measured before the first byte.
//
// Part of `XMLPlistWriter`. A binary document read in place goes through the generic walk
// (`XMLPlistWriter.walk`, over any `PlistTree`); an owned value, the common case, through this one:
// the container being written is a local (its arrays read without going through the stack of open
// containers), dictionary entries are read in their order or through a sorted index.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension XMLPlistWriter {
    /// An open container of an owned value: what is left to write of it.
    struct ValueFrame {
        var elements: [PlistValue] = []
        var entries: [PlistDictionary.Element] = []
        /// The order of a dictionary's entries when its keys are sorted (else empty: their own order).
        var order: [Int] = []
        var isDictionary = false
        var next = 0
        var indent = 0
        /// An array whose first element is a string sliced from an input: its runs of such strings are
        /// written through one borrow of the input (`sliceRun`).
        var slices = false
        var count: Int { isDictionary ? entries.count : elements.count }
    }

    /// Walks `root`, writing into `out`; after each value, when `out` holds `drainingAt` bytes or more,
    /// hands it to `drain`, which returns the size at which to call it next, or nil to stop the walk (a
    /// failed delivery).
    func walkValue(
        _ root: PlistValue, into out: inout XMLOutput, drainingAt: Int,
        _ drain: (inout XMLOutput) throws(PlistError) -> Int?
    ) throws(PlistError) {
        var drainingAt = drainingAt
        out.append(contentsOf: XMLPlistWriter.header.utf8)
        var stack: [ValueFrame] = []
        var current = ValueFrame()
        var open = false
        if let frame = try openValue(root, indent: 0, into: &out, path: { [] }) {
            current = frame
            open = true
        }
        while open {
            if out.count >= drainingAt {
                guard let size = try drain(&out) else { return }
                drainingAt = size
            }
            let next = current.next
            let indent = current.indent
            guard next < current.count else {
                out.append(tabs: indent)
                if current.isDictionary {
                    out.append(word: 0x0a3e_7463_6964_2f3c, 8)  // "</dict>\n"
                } else {
                    out.append(words: 0x3e79_6172_7261_2f3c, 0x0a, 9)  // "</array>\n"
                }
                if let parent = stack.popLast() { current = parent } else { open = false }
                continue
            }
            if current.slices,
                let end = try sliceRun(
                    current.elements, from: next, indent: indent &+ 1, into: &out, limit: drainingAt,
                    path: {
                        var at = current
                        at.next = $0
                        return XMLPlistWriter.valuePath(stack, at)
                    })
            {
                current.next = end
                continue
            }
            current.next = next &+ 1
            out.append(tabs: indent &+ 1)
            let child: ValueFrame?
            if current.isDictionary {
                let position = current.order.isEmpty ? next : current.order[next]
                guard case .string(let key) = current.entries[position].key else {
                    throw PlistError(
                        .unencodable,
                        "XML dictionary keys must be strings, found a \(current.entries[position].key.kind) key")
                }
                out.append(word: 0x3e_7965_6b3c, 5)  // "<key>"
                guard text(key, into: &out) else {
                    throw XMLPlistWriter.invalidText(
                        key, "the key \(XMLCharacters.place(XMLPlistWriter.valuePath(stack, current)))")
                }
                out.append(word: 0x0a_3e79_656b_2f3c, 7)  // "</key>\n"
                out.append(tabs: indent &+ 1)
                child = try openValue(current.entries[position].value, indent: indent &+ 1, into: &out) {
                    XMLPlistWriter.valuePath(stack, current)
                }
            } else {
                child = try openValue(current.elements[next], indent: indent &+ 1, into: &out) {
                    XMLPlistWriter.valuePath(stack, current)
                }
            }
            if let child {
                stack.append(current)
                current = child
            }
        }
        out.append(words: 0x3e74_7369_6c70_2f3c, 0x0a, 9)  // "</plist>\n"
    }

    /// Writes the run of elements from `start` that are strings sliced from one input (as the readers
    /// make them: an array of strings read from a file) through one borrow of that input, each after
    /// its indentation, until the run ends or `out` holds `limit` bytes; returns where it stopped, or nil
    /// when `elements[start]` is not such a string. `path(k)` names element `k - 1` in an error.
    private func sliceRun(
        _ elements: [PlistValue], from start: Int, indent: Int, into out: inout XMLOutput, limit: Int,
        path: (Int) -> [String]
    ) throws(PlistError) -> Int? {
        guard case .string(let first) = elements[start], case .slice(let source, _) = first.storage else { return nil }
        let bytes = source.data.span
        var k = start
        while k < elements.count && out.count < limit {
            // The element's slice, matched in a scope of its own with no call in it, so that the optimiser
            // drops the copy of the source reference the match makes (a retain and release per string).
            let packed: UInt64
            switch elements[k] {
            case .string(let s):
                guard case .slice(let from, let p) = s.storage, from === source else { return k }
                packed = p
            default: return k
            }
            // The slice lies in its source (checked when it was made).
            let text = bytes.extracting(PlistString.range(packed))
            out.append(tabs: indent)
            out.append(word: 0x3e67_6e69_7274_733c, 8)  // "<string>"
            guard XMLPlistWriter.appendText(text, checked: !rawCharacters, into: &out) else {
                guard case .string(let s) = elements[k] else { return k }  // a string: matched above
                throw XMLPlistWriter.invalidText(s, "the string at \(XMLCharacters.place(path(k &+ 1)))")
            }
            out.append(words: 0x676e_6972_7473_2f3c, 0x0a3e, 10)  // "</string>\n"
            k &+= 1
        }
        return k
    }

    /// Writes one value after its indentation: a scalar or an empty container whole, a container's
    /// start tag (its frame returned, for the walk to write what it holds).
    @inline(__always)
    private func openValue(
        _ v: PlistValue, indent: Int, into out: inout XMLOutput, path: () -> [String]
    ) throws(PlistError) -> ValueFrame? {
        switch v {
        case .array(let a), .set(let a):
            guard !a.isEmpty else {
                out.append(words: 0x3e2f_7961_7272_613c, 0x0a, 9)  // "<array/>\n"
                return nil
            }
            out.append(word: 0x0a3e_7961_7272_613c, 8)  // "<array>\n"
            var slices = false
            if case .string(let first) = a[0], case .slice = first.storage { slices = true }
            return ValueFrame(elements: a, indent: indent, slices: slices)
        case .dictionary(let d):
            guard !d.isEmpty else {
                out.append(word: 0x0a3e_2f74_6369_643c, 8)  // "<dict/>\n"
                return nil
            }
            var order: [Int] = []
            if sortKeys {
                var named: [(key: String, position: Int)] = []
                named.reserveCapacity(d.count)
                for (i, entry) in d.entries.enumerated() {
                    guard case .string(let key) = entry.key else {
                        throw PlistError(
                            .unencodable, "XML dictionary keys must be strings, found a \(entry.key.kind) key")
                    }
                    named.append((key.string, i))
                }
                named.sort { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
                order = named.map(\.position)
            }
            out.append(word: 0x0a_3e74_6369_643c, 7)  // "<dict>\n"
            return ValueFrame(entries: d.entries, order: order, isDictionary: true, indent: indent)
        default:
            try scalar(v, indent: indent, into: &out) { () throws(PlistError) -> [String] in path() }
            return nil
        }
    }

    /// The key path of the node being written: each frame's `next` has moved past its child.
    static func valuePath(_ stack: [ValueFrame], _ current: ValueFrame?) -> [String] {
        var frames = stack
        if let current { frames.append(current) }
        return frames.map { frame in
            let index = frame.next - 1
            guard frame.isDictionary else { return String(index) }
            let position = frame.order.isEmpty ? index : frame.order[index]
            return frame.entries[position].key.stringValue ?? "?"
        }
    }

    /// The size of XML text that, written whole, proves its value within `budget` without measuring
    /// it (at most 64 MiB: what a write holds before it measures). Every node writes 7 bytes or more of
    /// its own (`<true/>`), and `measure`'s estimate of a node with its separator is at most 8 times
    /// what it writes: a scalar 48 (+ 2 in an array) against 8 bytes or more, a key of n bytes 20 + 6n
    /// against 12 + n, a string 18 + 6n against 18 + n, data 18 + 2n against 15 + 4n/3, a container 18
    /// against 8. So text of `size` bytes has at most `size / 7` nodes and an estimate of at most
    /// `8 × size` bytes.
    static func sizeProvingBudget(_ budget: OutputBudget) -> Int {
        let (byValues, overflow) = Swift.max(budget.maxValues, 0).multipliedReportingOverflow(by: 7)
        return Swift.max(0, Swift.min(1 << 26, Swift.max(budget.maxBytes, 0) / 8, overflow ? Int.max : byValues))
    }

    /// The XML text of `value`, refused with `limitExceeded` (as `checkExpansion` names the limit) when
    /// written out in full it would pass `budget`.
    ///
    /// A value is measured (`measure`, a walk of its own) only when its text reaches
    /// `sizeProvingBudget(budget)`; under that size the text itself proves the budget kept, and the
    /// value is walked once. The buffer holds at most that size, and one value more, before the
    /// measure; nothing leaves it until the whole text is written. An error the walk meets before the
    /// measure is thrown after it, so an over-budget value is refused as such whatever it holds, as
    /// when the measure came first.
    func write(_ value: PlistValue, within budget: OutputBudget) throws(PlistError) -> Data {
        let proving = XMLPlistWriter.sizeProvingBudget(budget)
        var measured = false
        /// Measures `value` (once): throws when it is over the budget, else returns its text's size estimate.
        func measureOnce() throws(PlistError) -> Int {
            measured = true
            guard let size = XMLPlistWriter.measure(value, within: budget) else {
                try value.checkExpansion(budget, as: "an XML property list")
                return 0
            }
            return size.xml
        }
        var out = XMLOutput(capacity: 1 << 16)
        do {
            try walkValue(value, into: &out, drainingAt: proving) { (out: inout XMLOutput) throws(PlistError) -> Int? in
                // About the whole text's size, 3 % more (it grows further if escapes or long numbers
                // make the text longer).
                let xml = try measureOnce()
                out.reserve(xml &+ xml / 32 &+ 4096)
                return .max
            }
        } catch {
            if !measured { _ = try measureOnce() }
            throw error
        }
        if !measured && out.count > proving { _ = try measureOnce() }
        return out.finish()
    }

    /// What `PlistValue.expansion(within:)` measures (nodes, and bytes by its estimate), and a size for
    /// the XML text to start the output buffer with; nil when the value passes `budget` (the caller
    /// then lets `checkExpansion` name the limit).
    ///
    /// Measured without memoising shared sub-trees: a text form writes a shared sub-tree once per
    /// reference, so the expanded walk is the size of the output, and it stops as soon as it passes
    /// the budget. Within the budget its totals are the memoised walk's exactly (the same sums, never
    /// capped).
    static func measure(_ root: PlistValue, within budget: OutputBudget) -> (nodes: Int, bytes: Int, xml: Int)? {
        var nodes = 0
        var bytes = 0
        var xml = 0
        /// Adds a scalar (or an empty container) at `depth`, as `expansion(within:)` counts it; `xml`
        /// gets about its text in Apple's layout (tags, a typical number, the indentation).
        func leaf(_ v: PlistValue, _ depth: Int) {
            nodes &+= 1
            switch v {
            case .string(let s):
                let n = s.utf8Count
                bytes &+= 16 &+ 6 &* n
                xml &+= 18 &+ depth &+ n
            case .data(let d):
                let n = d.count
                bytes &+= 16 &+ 2 &* n
                xml &+= 15 &+ 2 &* depth &+ (n &+ 2) / 3 &* 4 &+ (n / 45 &+ 1) &* (1 &+ Swift.min(depth, 8))
            case .array, .set, .dictionary:
                bytes &+= 16
                xml &+= 10 &+ depth
            case .bool:
                bytes &+= 48
                xml &+= 9 &+ depth
            case .date:
                bytes &+= 48
                xml &+= 34 &+ depth
            case .uid:
                bytes &+= 48
                xml &+= 70 &+ 3 &* depth
            case .integer(let i):
                bytes &+= 48
                // "<integer>" and "</integer>\n", and about 0.3 digits per bit of the magnitude.
                let bits = 64 &- (i.int64?.magnitude ?? UInt64.max).leadingZeroBitCount
                xml &+= 21 &+ (bits &* 77) >> 8 &+ depth
            case .null, .real:
                bytes &+= 48
                xml &+= 31 &+ depth
            }
        }
        var stack: [ValueFrame] = []
        var current = ValueFrame()
        var open = true
        switch root {
        case .array(let a) where !a.isEmpty, .set(let a) where !a.isEmpty:
            nodes = 1
            bytes = 16
            current = ValueFrame(elements: a)
        case .dictionary(let d) where !d.isEmpty:
            nodes = 1
            bytes = 16
            current = ValueFrame(entries: d.entries, isDictionary: true)
        default:
            leaf(root, 0)
            open = false
        }
        while open {
            guard current.next < current.count else {
                if let parent = stack.popLast() { current = parent } else { open = false }
                continue
            }
            var next = current.next
            let depth = stack.count &+ 1
            if !current.isDictionary {
                // A run of scalar elements, counted where they lie.
                var descend = false
                while next < current.elements.count && !descend {
                    switch current.elements[next] {
                    case .array(let a) where !a.isEmpty, .set(let a) where !a.isEmpty: descend = true
                    case .dictionary(let d) where !d.isEmpty: descend = true
                    default:
                        bytes &+= 2
                        leaf(current.elements[next], depth)
                        next &+= 1
                    }
                }
                current.next = next
                if !descend {
                    if nodes > budget.maxValues || bytes > budget.maxBytes { return nil }
                    continue
                }
            }
            current.next = next &+ 1
            let child: PlistValue
            if current.isDictionary {
                leaf(current.entries[next].key, depth)
                xml &-= 6  // "<key>" and "</key>\n" (12 bytes) where a string's tags are 18
                bytes &+= 4
                child = current.entries[next].value
            } else {
                bytes &+= 2
                child = current.elements[next]
            }
            switch child {
            case .array(let a) where !a.isEmpty, .set(let a) where !a.isEmpty:
                nodes &+= 1
                bytes &+= 16
                xml &+= 17 &+ 2 &* depth
                stack.append(current)
                current = ValueFrame(elements: a)
            case .dictionary(let d) where !d.isEmpty:
                nodes &+= 1
                bytes &+= 16
                xml &+= 15 &+ 2 &* depth
                stack.append(current)
                current = ValueFrame(entries: d.entries, isDictionary: true)
            default:
                leaf(child, depth)
            }
            if nodes > budget.maxValues || bytes > budget.maxBytes { return nil }
        }
        return (nodes, bytes, xml)
    }
}
