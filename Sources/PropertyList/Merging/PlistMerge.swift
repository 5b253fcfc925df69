// Sources/PropertyList/Merging/PlistMerge.swift - A three-way merge of property lists by key path: what
// `bplist merge` (git's merge driver) runs on property lists of every form, and on Xcode projects.
//
// Dictionaries merge key by key (independent additions, removals and changes all apply; a key new on
// the other side goes where that side put it), arrays by aligning their elements (PlistMergeArrays),
// sets as sets; the same place changed differently on both sides is a conflict, named by key path.

/// A three-way merge of property lists: the changes from `base` to `theirs` applied to `ours`, by key
/// path.
///
/// ```swift
/// let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
/// for conflict in merge.conflicts { print(conflict.keyPath, conflict.ours, conflict.theirs) }
/// let merged = merge.value                       // ours' side where they conflict
/// ```
///
/// - **Dictionaries** merge by key: a key added, removed or changed on one side only takes that side's
///   change; the same change on both sides is taken once; different changes of the same key merge
///   further when both are containers, and are a conflict otherwise (a change on one side and a
///   removal on the other is a conflict too). The result keeps `ours`' key order, and a key only
///   `theirs` added goes after the key it follows in `theirs`.
/// - **Arrays** merge by aligning elements with a longest common subsequence (bounded: see
///   ``Options``), or, when every element is a dictionary with an identity field
///   (``Options/identityKeys``, e.g. `CFBundleURLName`), by that field, so that an element changed on
///   one side is the same element and merges field by field. Runs of elements changed on one side
///   take that side's; insertions at the same place on both sides are both kept (ours first, and an
///   element both inserted as many times as the side that inserted it more); overlapping changes of
///   the same elements are a conflict, unless both sides kept the count, when the elements merge
///   pairwise.
/// - **Sets** merge as sets (additions and removals of both sides), with no conflicts.
/// - **Anything else** (scalars, a change of kind) changed on both sides to different values is a
///   conflict.
///
/// Equal sub-trees are recognised at once (equality is memoised per shared container), and the work
/// is bounded: past ``Options/maxSteps`` containers changed on both sides are conflicts as a whole,
/// so hostile input cannot make a merge explode.
public struct PlistMerge: Sendable {
    /// A place changed differently on both sides.
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// Where, in the merged value: the key path of a dictionary entry or a value, or for a run of
        /// array elements, the array's path and the position of the run's first element.
        public var keyPath: PlistKeyPath
        /// The value in the base, `nil` when absent. For a run of array elements, the run as an array.
        public var base: PlistValue?
        /// Our value, `nil` when absent (removed).
        public var ours: PlistValue?
        /// Their value, `nil` when absent (removed).
        public var theirs: PlistValue?

        public init(keyPath: PlistKeyPath, base: PlistValue?, ours: PlistValue?, theirs: PlistValue?) {
            self.keyPath = keyPath
            self.base = base
            self.ours = ours
            self.theirs = theirs
        }

        /// `KEYPATH: what each side did` (`changed`, `removed`, `added`), one line.
        public var description: String {
            func did(_ side: PlistValue?) -> String {
                switch (base, side) {
                case (nil, nil): "nothing"
                case (nil, .some): "added"
                case (.some, nil): "removed"
                case (.some, .some): "changed"
                }
            }
            let place = keyPath.isEmpty ? "(root)" : keyPath.description
            return "\(place): ours \(did(ours)), theirs \(did(theirs))"
        }
    }

    /// How a merge aligns arrays and how much work it does.
    public struct Options: Sendable, Hashable {
        /// Fields that identify a dictionary in an array, in order of preference: an array whose
        /// elements (in the base and both sides) are all dictionaries with a string or integer value
        /// under one of these keys, distinct within each array, is aligned by it.
        public var identityKeys: [String]
        /// Containers changed on both sides that are merged entry by entry; past this, such a
        /// container is a conflict as a whole.
        public var maxSteps: Int

        /// The identity fields of common property lists: `Info.plist` URL and document types,
        /// exported types, Settings bundles, and the usual `id`, `identifier`, `uuid`, `name`.
        public static let defaultIdentityKeys = [
            "CFBundleURLName", "CFBundleTypeName", "UTTypeIdentifier", "Key", "Identifier", "identifier", "id", "ID",
            "uuid", "UUID", "GUID", "guid", "key", "name", "Name",
        ]

        public static let `default` = Options()

        public init(identityKeys: [String] = Options.defaultIdentityKeys, maxSteps: Int = 1 << 20) {
            self.identityKeys = identityKeys
            self.maxSteps = maxSteps
        }
    }

    /// Which side a merged value takes where the sides conflict.
    public enum Side: Sendable, Hashable {
        case ours
        case theirs
    }

    // The inputs, kept for the other resolutions of the same merge.
    private let base: PlistValue
    private let ours: PlistValue
    private let theirs: PlistValue
    private let options: Options
    /// The merged value, with our side at each conflict.
    public let value: PlistValue
    /// The conflicts, in the order of the merged value.
    public let conflicts: [Conflict]

    /// Merges the changes from `base` to `ours` and from `base` to `theirs`.
    ///
    /// - Complexity: Linear in the parts that differ for dictionaries and sets; arrays are aligned
    ///   in O((n + m) D) for D differences, bounded (see ``Options``).
    public init(base: PlistValue, ours: PlistValue, theirs: PlistValue, options: Options = .default) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.options = options
        var merger = Merger(options: options, side: .ours)
        value = merger.merge(base, ours, theirs, at: .root, depth: 0) ?? ours
        conflicts = merger.conflicts
    }

    /// Whether the sides changed the same place differently somewhere.
    public var hasConflicts: Bool { !conflicts.isEmpty }

    /// The merged value with `side`'s value at each conflict (``value`` is `value(taking: .ours)`).
    public func value(taking side: Side) -> PlistValue {
        switch side {
        case .ours: return value
        case .theirs:
            var merger = Merger(options: options, side: .theirs)
            return merger.merge(base, ours, theirs, at: .root, depth: 0) ?? theirs
        }
    }

    /// The merged value without what conflicts (an entry or run of elements in conflict is left
    /// out); what a text form wraps in conflict markers is where this differs from the two sides'.
    /// A conflict at the root gives `nil`.
    package func valueOmittingConflicts() -> PlistValue? {
        var merger = Merger(options: options, side: .neither)
        return merger.merge(base, ours, theirs, at: .root, depth: 0)
    }
}

/// One run of a merge, taking `side` at conflicts.
struct Merger {
    enum Side {
        case ours, theirs, neither
    }

    let options: PlistMerge.Options
    let side: Side
    var conflicts: [PlistMerge.Conflict] = []
    var steps = 0

    init(options: PlistMerge.Options, side: Side) {
        self.options = options
        self.side = side
    }

    /// The merged value at `path` (`nil`: absent).
    mutating func merge(_ b: PlistValue?, _ o: PlistValue?, _ t: PlistValue?, at path: PlistKeyPath, depth: Int)
        -> PlistValue?
    {
        if o == t { return o }
        if o == b { return t }
        if t == b { return o }
        guard let o, let t, depth < PlistLimits.default.maxDepth, steps < options.maxSteps else {
            return conflict(at: path, b, o, t)
        }
        switch (o, t) {
        case (.dictionary(let od), .dictionary(let td)):
            steps += 1
            return .dictionary(
                mergeDictionaries(b?.dictionaryValue ?? PlistDictionary(), od, td, at: path, depth: depth))
        case (.array(let oa), .array(let ta)):
            steps += 1
            let ba: [PlistValue]
            if case .array(let x)? = b { ba = x } else { ba = [] }
            return .array(mergeArrays(ba, oa, ta, at: path, depth: depth))
        case (.set(let os), .set(let ts)):
            steps += 1
            let bs: [PlistValue]
            if case .set(let x)? = b { bs = x } else { bs = [] }
            return .set(Merger.mergeSets(bs, os, ts))
        default:
            return conflict(at: path, b, o, t)
        }
    }

    /// Records a conflict and returns the side this run takes.
    mutating func conflict(at path: PlistKeyPath, _ b: PlistValue?, _ o: PlistValue?, _ t: PlistValue?)
        -> PlistValue?
    {
        conflicts.append(PlistMerge.Conflict(keyPath: path, base: b, ours: o, theirs: t))
        switch side {
        case .ours: return o
        case .theirs: return t
        case .neither: return nil
        }
    }

    /// The key path component of a dictionary key (a key that is not a string by its description).
    static func component(_ key: PlistValue) -> PlistKeyPath.Component {
        PlistKeyPath.Component(key.stringValue ?? "\(key)")
    }

    mutating func mergeDictionaries(
        _ b: PlistDictionary, _ o: PlistDictionary, _ t: PlistDictionary, at path: PlistKeyPath, depth: Int
    ) -> PlistDictionary {
        let baseIndex = Merger.index(b)
        let theirsIndex = Merger.index(t)
        let oursIndex = Merger.index(o)
        var merged: [(PlistValue, PlistValue)] = []
        merged.reserveCapacity(max(o.count, t.count))
        // Keys only theirs has, grouped by the key of ours they follow in theirs (-1: the start).
        var following: [Int: [(PlistValue, PlistValue)]] = [:]
        var anchors: [Int] = []  // merged position of each of ours' entries (-1 when left out)
        for entry in o.entries {
            let key = entry.key
            let value = merge(
                baseIndex[key].map { b.entries[$0].value }, entry.value, theirsIndex[key].map { t.entries[$0].value },
                at: path.appending(Merger.component(key)), depth: depth + 1)
            if let value {
                anchors.append(merged.count)
                merged.append((key, value))
            } else {
                anchors.append(-1)
            }
        }
        var anchor = -1
        for entry in t.entries {
            if let position = oursIndex[entry.key] {
                anchor = position
                continue
            }
            let key = entry.key
            let value = merge(
                baseIndex[key].map { b.entries[$0].value }, nil, entry.value,
                at: path.appending(Merger.component(key)), depth: depth + 1)
            if let value { following[anchor, default: []].append((key, value)) }
        }
        guard !following.isEmpty else { return PlistDictionary(merged) }
        // Ours' entries in order, each followed by the keys theirs put after it.
        var result: [(PlistValue, PlistValue)] = following[-1] ?? []
        result.reserveCapacity(merged.count + following.count)
        var next = 0
        for (i, position) in anchors.enumerated() {
            if position >= 0 {
                result.append(merged[next])
                next += 1
            }
            if let after = following[i] { result.append(contentsOf: after) }
        }
        return PlistDictionary(result)
    }

    static func index(_ d: PlistDictionary) -> [PlistValue: Int] {
        var index: [PlistValue: Int] = [:]
        index.reserveCapacity(d.count)
        for (i, entry) in d.entries.enumerated() { index[entry.key] = i }
        return index
    }

    /// Ours, less what theirs removed, plus what theirs added (as multisets).
    static func mergeSets(_ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue]) -> [PlistValue] {
        func counts(_ xs: [PlistValue]) -> [PlistValue: Int] {
            var c: [PlistValue: Int] = [:]
            for x in xs { c[x, default: 0] += 1 }
            return c
        }
        let baseCounts = counts(b)
        let theirsCounts = counts(t)
        var removed: [PlistValue: Int] = [:]
        for (x, n) in baseCounts where n > theirsCounts[x, default: 0] { removed[x] = n - theirsCounts[x, default: 0] }
        var result: [PlistValue] = []
        for x in o {
            if let n = removed[x], n > 0 {
                removed[x] = n - 1
            } else {
                result.append(x)
            }
        }
        var present = counts(result)
        var added: [PlistValue: Int] = [:]
        for (x, n) in theirsCounts where n > baseCounts[x, default: 0] { added[x] = n - baseCounts[x, default: 0] }
        for x in t {
            guard let n = added[x], n > 0 else { continue }
            added[x] = n - 1
            if let p = present[x], p > 0 {
                present[x] = p - 1
                continue
            }
            result.append(x)
        }
        return result
    }
}
