// Sources/PropertyList/Binary/Streaming/StreamingSubtrees.swift - A whole `PlistValue` sub-tree written through
// a `StreamingPlistWriter`: checked first, then walked with an explicit stack.
//
// Part of `StreamingPlistWriter` (StreamingPlistWriter.swift has the format, the state and the
// events).

extension StreamingPlistWriter {
    /// Writes a whole value: a scalar, or a container and everything in it.
    ///
    /// The value is checked before anything is written (dictionary keys, and that its objects fit the
    /// reference width), so an error leaves the writer as it was. A sub-tree that appears several
    /// times in `value` (copies of one array) is written once per appearance; counting it is linear
    /// in the distinct sub-trees, so a huge expansion is refused at once.
    public mutating func value(_ value: PlistValue) throws(PlistError) {
        switch value {
        case .null: try null()
        case .bool(let x): try bool(x)
        case .integer(let x): try integer(x)
        case .real(let x): try real(x)
        case .date(let x): try date(x)
        case .data(let x): try data(x)
        case .string(let x): try string(x)
        case .uid(let x): try uid(x)
        case .array, .set, .dictionary:
            _ = try slot(value.kind)
            _ = try Self.descendants(of: value, limit: maxObjects &- spool.count)
            try writeTree(value)
        }
    }

    /// One container being written by `writeTree`.
    struct Walk {
        var list: [PlistValue]
        var entries: [PlistDictionary.Element]
        var isDictionary: Bool
        var next = 0
        var total: Int

        init(_ v: PlistValue) {
            switch v {
            case .array(let xs), .set(let xs):
                (list, entries, isDictionary, total) = (xs, [], false, xs.count)
            case .dictionary(let d):
                (list, entries, isDictionary, total) = ([], d.entries, true, d.count &* 2)
            default:
                (list, entries, isDictionary, total) = ([], [], false, 0)
            }
        }

        /// The next child: a dictionary's keys and values alternately.
        mutating func nextChild() -> PlistValue? {
            guard next < total else { return nil }
            defer { next &+= 1 }
            if isDictionary {
                let e = entries[next >> 1]
                return next & 1 == 0 ? e.key : e.value
            }
            return list[next]
        }
    }

    /// Writes a container checked by `descendants(of:limit:)`, iteratively.
    mutating func writeTree(_ root: PlistValue) throws(PlistError) {
        try beginContainer(root)
        var stack = [Walk(root)]
        while var walk = stack.popLast() {
            guard let child = walk.nextChild() else {
                try end()
                continue
            }
            stack.append(walk)
            switch child {
            case .array, .set, .dictionary:
                try beginContainer(child)
                stack.append(Walk(child))
            default:
                try value(child)
            }
        }
    }

    mutating func beginContainer(_ v: PlistValue) throws(PlistError) {
        switch v {
        case .array(let xs): try begin(.array, xs.count)
        case .set(let xs): try begin(.set, xs.count)
        case .dictionary(let d): try begin(.dictionary, d.count)
        default: try value(v)
        }
    }

    /// Containers with at least this many descendants have their count remembered by storage, so a
    /// shared sub-tree is counted once (as `ObjectTableBuilder.add` remembers shared sub-trees).
    static let rememberedSubtree = 64

    /// The objects `value`'s children add (every descendant, each appearance counted), checking that
    /// each dictionary key may be a key.
    ///
    /// - Throws: `invalidKey`; `unencodable` once the count passes `limit`.
    static func descendants(of value: PlistValue, limit: Int) throws(PlistError) -> Int {
        struct Counting {
            var walk: Walk
            var identity: UInt64
            var sum = 0
        }
        func identity(_ v: PlistValue) -> UInt64 {
            switch v {
            case .array(let xs): return UInt64(StorageIdentity.of(xs)) | 1
            case .set(let xs): return UInt64(StorageIdentity.of(xs)) | 2
            case .dictionary(let d): return UInt64(StorageIdentity.of(d.entries)) | 3
            default: return 0
            }
        }
        var counted: [UInt64: Int] = [:]
        var stack = [Counting(walk: Walk(value), identity: identity(value))]
        func tooMany() -> PlistError {
            PlistError(
                .unencodable,
                "the value holds more objects than the \(limit) the reference width leaves room for "
                    + "(give StreamingPlistWriter.Options.expectedObjectCount)")
        }
        while var top = stack.popLast() {
            let isKey = top.walk.isDictionary && top.walk.next & 1 == 0
            guard let child = top.walk.nextChild() else {
                // Done: add this container's count to its parent's.
                if top.sum >= rememberedSubtree { counted[top.identity] = top.sum }
                guard var parent = stack.popLast() else { return top.sum }
                let (sum, overflow) = parent.sum.addingReportingOverflow(top.sum)
                guard !overflow, sum <= limit else { throw tooMany() }
                parent.sum = sum
                stack.append(parent)
                continue
            }
            if isKey, !canBeKey(child.kind) {
                throw PlistError(
                    .invalidKey,
                    "a dictionary key must be a string, number, date or data, not a \(child.kind)")
            }
            top.sum &+= 1
            guard top.sum <= limit else { throw tooMany() }
            switch child {
            case .array, .set, .dictionary:
                let id = identity(child)
                if !counted.isEmpty, let known = counted[id] {
                    let (sum, overflow) = top.sum.addingReportingOverflow(known)
                    guard !overflow, sum <= limit else { throw tooMany() }
                    top.sum = sum
                    stack.append(top)
                } else {
                    stack.append(top)
                    stack.append(Counting(walk: Walk(child), identity: id))
                }
            default:
                stack.append(top)
            }
        }
        return 0
    }
}
