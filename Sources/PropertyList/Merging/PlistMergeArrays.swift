// Sources/PropertyList/Merging/PlistMergeArrays.swift - Three-way merge of arrays: the base aligned with
// each side (a bounded longest common subsequence of equal elements, or of identity fields), then the
// runs between elements both sides kept resolved as diff3 resolves them.

extension Merger {
    /// The merged array, aligned by ``mergeAligned(_:_:_:at:depth:)``; when that conflicts and the
    /// three arrays have the same length (and no identity field), also position by position, and the
    /// one with fewer conflicts is taken (the alignment first on a tie). A longest common subsequence
    /// can pair an element with an equal one elsewhere (an empty array one side wrote over another
    /// element) and so turn edits in place on both sides into a conflict that pairing by position
    /// merges.
    mutating func mergeArrays(
        _ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue], at path: PlistKeyPath, depth: Int
    ) -> [PlistValue] {
        let before = conflicts.count
        let aligned = mergeAligned(b, o, t, at: path, depth: depth)
        guard conflicts.count > before, b.count == o.count, o.count == t.count, identityKey(b, o, t) == nil else {
            return aligned
        }
        let alignedConflicts = Array(conflicts[before...])
        conflicts.removeSubrange(before...)
        var positional: [PlistValue] = []
        positional.reserveCapacity(b.count)
        for x in b.indices {
            let merged = merge(
                b[x], o[x], t[x], at: path.appending(PlistKeyPath.Component(index: positional.count)), depth: depth + 1)
            if let merged { positional.append(merged) }
        }
        if conflicts.count - before < alignedConflicts.count { return positional }
        conflicts.removeSubrange(before...)
        conflicts.append(contentsOf: alignedConflicts)
        return aligned
    }

    /// The merged array: elements kept by both sides are sync points (merged further when aligned by
    /// identity); between two sync points, a run changed on one side takes that side's, the same
    /// change on both sides is taken once, insertions at the same place on both sides are both kept
    /// (ours first; an element both inserted, as many times as the side that inserted it more), runs
    /// of equal length merge pairwise, and anything else is a conflict.
    mutating func mergeAligned(
        _ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue], at path: PlistKeyPath, depth: Int
    ) -> [PlistValue] {
        let identity = identityKey(b, o, t)
        var interned: [PlistValue: Int] = [:]
        func tokens(_ xs: [PlistValue]) -> [Int] {
            xs.map { x in
                let key = identity.flatMap { x.dictionaryValue?[$0] } ?? x
                if let token = interned[key] { return token }
                interned[key] = interned.count
                return interned.count - 1
            }
        }
        let runs = Runs(b: b, o: o, t: t, bt: tokens(b), ot: tokens(o), tt: tokens(t))
        var toO = [Int](repeating: -1, count: b.count)
        for (i, j) in Merger.align(runs.bt, runs.ot) { toO[i] = j }
        var toT = [Int](repeating: -1, count: b.count)
        for (i, k) in Merger.align(runs.bt, runs.tt) { toT[i] = k }

        var out: [PlistValue] = []
        out.reserveCapacity(max(o.count, t.count))
        var i = 0
        var j = 0
        var k = 0
        while true {
            var sync = i
            while sync < b.count && (toO[sync] < 0 || toT[sync] < 0) { sync += 1 }
            let endO = sync < b.count ? toO[sync] : o.count
            let endT = sync < b.count ? toT[sync] : t.count
            resolve(runs, i..<sync, j..<endO, k..<endT, byIdentity: identity != nil, at: path, depth: depth, into: &out)
            guard sync < b.count else { break }
            let merged = merge(
                b[sync], o[endO], t[endT], at: path.appending(PlistKeyPath.Component(index: out.count)),
                depth: depth + 1)
            if let merged { out.append(merged) }
            i = sync + 1
            j = endO + 1
            k = endT + 1
        }
        return out
    }

    /// A longest common subsequence of `a` and `b`; when they have the same length and matching
    /// position by position finds as many equal elements, that one (elements changed in place stay
    /// paired with the elements they replaced, even when equal elements repeat nearby).
    static func align(_ a: [Int], _ b: [Int]) -> [(Int, Int)] {
        let common = SequenceAlignment.matches(a, b)
        guard a.count == b.count, common.count < a.count else { return common }
        var positional: [(Int, Int)] = []
        for i in a.indices where a[i] == b[i] { positional.append((i, i)) }
        return positional.count >= common.count ? positional : common
    }

    /// The three arrays and their alignment tokens.
    struct Runs {
        let b: [PlistValue]
        let o: [PlistValue]
        let t: [PlistValue]
        let bt: [Int]
        let ot: [Int]
        let tt: [Int]
    }

    /// Resolves the runs `b[rb]`, `o[ro]`, `t[rt]` between two sync points, appending to `out`.
    mutating func resolve(
        _ runs: Runs, _ rb: Range<Int>, _ ro: Range<Int>, _ rt: Range<Int>, byIdentity: Bool, at path: PlistKeyPath,
        depth: Int, into out: inout [PlistValue]
    ) {
        let b = runs.b[rb]
        let o = runs.o[ro]
        let t = runs.t[rt]
        if o.elementsEqual(t) {
            out.append(contentsOf: o)
            return
        }
        if o.elementsEqual(b) {
            out.append(contentsOf: t)
            return
        }
        if t.elementsEqual(b) {
            out.append(contentsOf: o)
            return
        }
        if b.isEmpty {
            // Both inserted here: ours, then theirs' elements ours does not have, as multisets (an
            // element theirs inserted twice and ours once is kept twice, whichever side is ours, so
            // the union does not depend on the side; an element with the same identity on both sides
            // is one element, merged).
            let start = out.count
            out.append(contentsOf: o)
            // Ours' unmatched positions of each token, first last (so that matching pops the first).
            var positions: [Int: [Int]] = [:]
            for (x, token) in runs.ot[ro].enumerated().reversed() {
                positions[token, default: []].append(start + x)
            }
            var dropped: Set<Int> = []
            for (x, token) in runs.tt[rt].enumerated() {
                guard let p = positions[token]?.popLast() else {
                    out.append(t[t.startIndex + x])
                    continue
                }
                guard byIdentity, out[p] != t[t.startIndex + x] else { continue }
                if let merged = merge(
                    nil, out[p], t[t.startIndex + x], at: path.appending(PlistKeyPath.Component(index: p)),
                    depth: depth + 1)
                {
                    out[p] = merged
                } else {
                    dropped.insert(p)
                }
            }
            if !dropped.isEmpty {
                let kept = out[start...].indices.filter { !dropped.contains($0) }.map { out[$0] }
                out.removeSubrange(start...)
                out.append(contentsOf: kept)
            }
            return
        }
        if b.count == o.count && o.count == t.count {
            for x in 0..<b.count {
                let merged = merge(
                    b[b.startIndex + x], o[o.startIndex + x], t[t.startIndex + x],
                    at: path.appending(PlistKeyPath.Component(index: out.count)), depth: depth + 1)
                if let merged { out.append(merged) }
            }
            return
        }
        let taken = conflict(
            at: path.appending(PlistKeyPath.Component(index: out.count)), .array(Array(b)),
            o.isEmpty ? nil : .array(Array(o)), t.isEmpty ? nil : .array(Array(t)))
        if case .array(let elements)? = taken { out.append(contentsOf: elements) }
    }

    /// The first of ``PlistMerge/Options/identityKeys`` that every element of the three arrays has
    /// (dictionaries with a string or integer there, distinct within each array), if any.
    func identityKey(_ arrays: [PlistValue]...) -> String? {
        guard let first = arrays.first(where: { !$0.isEmpty })?.first, case .dictionary(let sample) = first else {
            return nil
        }
        search: for key in options.identityKeys where sample[key] != nil {
            for array in arrays {
                var seen = Set<PlistValue>()
                for element in array {
                    guard case .dictionary(let d) = element, let id = d[key], id.kind == .string || id.kind == .integer,
                        seen.insert(id).inserted
                    else { continue search }
                }
            }
            return key
        }
        return nil
    }
}
