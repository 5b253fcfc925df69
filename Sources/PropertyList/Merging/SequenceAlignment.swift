// Sources/PropertyList/Merging/SequenceAlignment.swift - A longest common subsequence of two sequences
// of tokens, bounded: Myers' O((n + m) D) algorithm after trimming the common start and end, with D
// (the number of insertions and deletions) capped so that time and memory stay bounded on any input.
//
// Used by the three-way merge (array elements) and by the tool (lines of text). Tokens are `Int`s:
// the caller numbers equal elements alike, so comparing is one instruction whatever the elements are.

package enum SequenceAlignment {
    /// The most edits (insertions plus deletions) searched for: the trace of the search keeps about
    /// D² entries (4 bytes each, so at most 4 MB).
    package static let maxEdits = 1000

    /// The most element comparisons the search makes, about (n + m) × D: beyond it the middle of the
    /// sequences (after their common start and end) is left unmatched.
    package static let maxWork = 50_000_000

    /// The positions `(i, j)` with `a[i] == b[j]` of a longest common subsequence, increasing in both
    /// `i` and `j`: exact when the sequences differ by at most ``maxEdits`` insertions and deletions
    /// (and the search stays within ``maxWork``), else their common start and end only.
    ///
    /// - Complexity: O(n + m) for the common start and end, then O((n + m) D) time and O(D²) memory
    ///   for the middle, both bounded as above.
    package static func matches(_ a: [Int], _ b: [Int]) -> [(Int, Int)] {
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count
        var endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
        }
        var out: [(Int, Int)] = []
        out.reserveCapacity(start + (a.count - endA))
        for i in 0..<start { out.append((i, i)) }
        let middle = myers(a[start..<endA], b[start..<endB])
        for (i, j) in middle { out.append((start + i, start + j)) }
        for k in 0..<(a.count - endA) { out.append((endA + k, endB + k)) }
        return out
    }

    /// The matches of a shortest edit script between `a` and `b` (positions relative to their starts),
    /// or none when it needs more than the bounds allow.
    private static func myers(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>) -> [(Int, Int)] {
        let n = a.count
        let m = b.count
        guard n > 0, m > 0 else { return [] }
        let a0 = a.startIndex
        let b0 = b.startIndex
        let limit = min(n + m, maxEdits, max(1, maxWork / (n + m)))
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // trace[d]: v[-d...d] after step d.
        var trace: [[Int32]] = []
        var found: Int? = nil
        search: for d in 0...limit {
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                    ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[a0 + x] == b[b0 + y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    trace.append(v[(offset - d)...(offset + d)].map { Int32(truncatingIfNeeded: $0) })
                    found = d
                    break search
                }
            }
            trace.append(v[(offset - d)...(offset + d)].map { Int32(truncatingIfNeeded: $0) })
        }
        guard let edits = found else { return [] }
        var out: [(Int, Int)] = []
        var x = n
        var y = m
        var d = edits
        while d > 0 {
            let previous = trace[d - 1]
            // previous holds k in -(d-1)...(d-1) at index k + d - 1.
            func at(_ k: Int) -> Int { Int(previous[k + d - 1]) }
            let k = x - y
            let down = k == -d || (k != d && at(k - 1) < at(k + 1))
            let previousK = down ? k + 1 : k - 1
            let previousX = at(previousK)
            let previousY = previousX - previousK
            // The diagonal after the edit: matches.
            let startX = down ? previousX : previousX + 1
            let startY = down ? previousY + 1 : previousY
            while x > startX && y > startY {
                x -= 1
                y -= 1
                out.append((x, y))
            }
            x = previousX
            y = previousY
            d -= 1
        }
        while x > 0 && y > 0 {
            x -= 1
            y -= 1
            out.append((x, y))
        }
        out.reverse()
        return out
    }
}
