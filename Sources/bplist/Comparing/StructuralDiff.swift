// Sources/bplist/Comparing/StructuralDiff.swift - The differences between two property lists, by key path.
//
// Dictionaries are compared by key (entry order does not matter unless asked), arrays by aligning
// equal elements (a longest common subsequence between the parts that differ, so an insertion in the
// middle is one addition, not a change of every later element) and pairing what is left in each gap
// position by position, sets as multisets, scalars by value (a change of type is a change). The walk
// uses an explicit stack: any depth.

import PropertyList

/// One difference, at a key path.
struct PlistDifference: Equatable {
    enum Change: Equatable {
        /// In the second only.
        case added(PlistValue)
        /// In the first only.
        case removed(PlistValue)
        /// Different values (or kinds) at the same place.
        case changed(PlistValue, PlistValue)
        /// The same entries in another order (with `order`).
        case reordered
    }

    var path: PlistKeyPath
    var change: Change
}

enum StructuralDiff {
    /// What is left to do, in output order.
    enum Work {
        case compare(PlistValue, PlistValue, PlistKeyPath)
        case emit(PlistDifference)
    }

    /// Largest n × m compared with a longest common subsequence; beyond it, arrays are compared
    /// position by position after their common start and end.
    static let lcsCellLimit = 4_000_000

    /// The differences between `a` and `b`, in the order of a depth-first walk (dictionary keys of `a`
    /// in order, then those only in `b`).
    static func differences(_ a: PlistValue, _ b: PlistValue, order: Bool = false) -> [PlistDifference] {
        var out: [PlistDifference] = []
        var work: [Work] = [.compare(a, b, .root)]
        while let item = work.popLast() {
            guard case .compare(let x, let y, let path) = item else {
                if case .emit(let d) = item { out.append(d) }
                continue
            }
            var steps: [Work] = []
            switch (x, y) {
            case (.dictionary(let d), .dictionary(let e)):
                guard d != e || order else { continue }
                var index: [PlistValue: Int] = [:]
                for (i, entry) in e.entries.enumerated() { index[entry.key] = i }
                var seen = Swift.Set<PlistValue>()
                for entry in d.entries {
                    let child = path.appending(component(entry.key))
                    if let j = index[entry.key] {
                        seen.insert(entry.key)
                        steps.append(.compare(entry.value, e.entries[j].value, child))
                    } else {
                        steps.append(.emit(PlistDifference(path: child, change: .removed(entry.value))))
                    }
                }
                for entry in e.entries where !seen.contains(entry.key) {
                    let child = path.appending(component(entry.key))
                    steps.append(.emit(PlistDifference(path: child, change: .added(entry.value))))
                }
                if order {
                    let common = d.keys.filter { index[$0] != nil }
                    let theirs = e.keys.filter { seen.contains($0) }
                    if common != theirs { steps.insert(.emit(PlistDifference(path: path, change: .reordered)), at: 0) }
                }
            case (.array(let xs), .array(let ys)):
                guard xs != ys || order else { continue }
                steps = arraySteps(xs, ys, path: path)
            case (.set(let xs), .set(let ys)):
                guard x != y else { continue }
                var counts: [PlistValue: Int] = [:]
                for m in ys { counts[m, default: 0] += 1 }
                for m in xs {
                    if let c = counts[m], c > 0 {
                        counts[m] = c - 1
                    } else {
                        steps.append(.emit(PlistDifference(path: path, change: .removed(m))))
                    }
                }
                var left: [PlistValue: Int] = [:]
                for m in xs { left[m, default: 0] += 1 }
                for m in ys {
                    if let c = left[m], c > 0 {
                        left[m] = c - 1
                    } else {
                        steps.append(.emit(PlistDifference(path: path, change: .added(m))))
                    }
                }
            default:
                if x != y { out.append(PlistDifference(path: path, change: .changed(x, y))) }
            }
            work.append(contentsOf: steps.reversed())
        }
        return out
    }

    /// The key path component of a dictionary key (a non-string key by its printed form).
    static func component(_ key: PlistValue) -> PlistKeyPath.Component {
        PlistKeyPath.Component(key.stringValue ?? (Render.scalar(key, Palette(enabled: false)) ?? "\(key)"))
    }

    /// Aligns two arrays: the pairs to compare further (at the second array's positions), additions
    /// and removals, in order.
    static func arraySteps(_ xs: [PlistValue], _ ys: [PlistValue], path: PlistKeyPath) -> [Work] {
        var start = 0
        while start < xs.count, start < ys.count, xs[start] == ys[start] { start += 1 }
        var endX = xs.count
        var endY = ys.count
        while endX > start, endY > start, xs[endX - 1] == ys[endY - 1] {
            endX -= 1
            endY -= 1
        }
        // Matched positions (i in xs, j in ys) in the middle part, in order.
        var matches: [(Int, Int)] = []
        let n = endX - start
        let m = endY - start
        if n > 0, m > 0, n.multipliedReportingOverflow(by: m).partialValue <= lcsCellLimit, n < lcsCellLimit,
            m < lcsCellLimit
        {
            // lengths[i][j]: LCS of xs[start + i ..< endX] and ys[start + j ..< endY], one flat array.
            var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lengths[i * (m + 1) + j] =
                        xs[start + i] == ys[start + j]
                        ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                        : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < n, j < m {
                if xs[start + i] == ys[start + j] {
                    matches.append((start + i, start + j))
                    i += 1
                    j += 1
                } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                    i += 1
                } else {
                    j += 1
                }
            }
        }
        matches.append((endX, endY))  // the common end closes the last gap
        var steps: [Work] = []
        var i = start
        var j = start
        for (mi, mj) in matches {
            // The gap xs[i..<mi] against ys[j..<mj]: pair position by position, the rest added or removed.
            let paired = min(mi - i, mj - j)
            for k in 0..<paired {
                steps.append(.compare(xs[i + k], ys[j + k], path.appending(PlistKeyPath.Component(index: j + k))))
            }
            for k in (i + paired)..<max(mi, i + paired) {
                let at = path.appending(PlistKeyPath.Component(index: k))
                steps.append(.emit(PlistDifference(path: at, change: .removed(xs[k]))))
            }
            for k in (j + paired)..<max(mj, j + paired) {
                let at = path.appending(PlistKeyPath.Component(index: k))
                steps.append(.emit(PlistDifference(path: at, change: .added(ys[k]))))
            }
            i = mi + 1
            j = mj + 1
        }
        return steps
    }

    /// A value on one line: scalars as `print` shows them, containers as `[a, b]`, `{"k": v}`,
    /// `<set> [a]`.
    static func oneLine(_ value: PlistValue) -> String {
        enum Step {
            case value(PlistValue)
            case text(String)
        }
        var out = ""
        var work: [Step] = [.value(value)]
        while let step = work.popLast() {
            switch step {
            case .text(let s): out += s
            case .value(let v):
                switch v {
                case .array(let xs), .set(let xs):
                    out += v.kind == .set ? "<set> [" : "["
                    work.append(.text("]"))
                    for (k, x) in xs.enumerated().reversed() {
                        work.append(.value(x))
                        if k > 0 { work.append(.text(", ")) }
                    }
                case .dictionary(let d):
                    out += "{"
                    work.append(.text("}"))
                    for (k, entry) in d.entries.enumerated().reversed() {
                        work.append(.value(entry.value))
                        work.append(.text(": "))
                        work.append(.value(entry.key))
                        if k > 0 { work.append(.text(", ")) }
                    }
                default:
                    out += Render.scalar(v, Palette(enabled: false)) ?? ""
                }
            }
        }
        return out
    }
}
