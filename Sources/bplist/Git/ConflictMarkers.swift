// Sources/bplist/Git/ConflictMarkers.swift - A merged text file with git's conflict markers around the
// smallest entries in conflict.
//
// The merge is written three times in the file's own form and layout: with our side at every conflict
// (O), with theirs (T), and without what conflicts (R). O and T are equal except at the conflicts, so
// aligning their lines finds them; the lines of O not in R (and of T not in R) are the whole entries in
// conflict (a dictionary entry's key and value, a run of array elements, a JSON comma that changes with
// them), so no alignment inside an entry is kept. Between the remaining common lines, what differs is
// wrapped in markers: taking either side of every block gives O or T, which read back.

import PropertyList

enum ConflictMarkers {
    /// Labels and marker size, as git passes them to a merge driver (`%L`).
    struct Style {
        var size = 7
        var ours = "ours"
        var theirs = "theirs"
    }

    /// The lines of `text`, each with its line feed (the last one may have none).
    static func lines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, b) in text.enumerated() where b == 0x0A {
            out.append(text[start...i])
            start = i + 1
        }
        if start < text.count { out.append(text[start...]) }
        return out
    }

    /// `ours` and `theirs` (the merge written with each side at its conflicts) combined into one text
    /// with conflict blocks around what differs, widened to the entries `omitted` (the merge written
    /// without its conflicts) lacks; `omitted` nil: one block around everything (a conflict at the root).
    static func combine(ours: [UInt8], theirs: [UInt8], omitted: [UInt8]?, style: Style = Style()) -> [UInt8] {
        let o = lines(ours)
        let t = lines(theirs)
        var tokens: [ArraySlice<UInt8>: Int] = [:]
        func tokenize(_ xs: [ArraySlice<UInt8>]) -> [Int] {
            xs.map { line in
                if let token = tokens[line] { return token }
                tokens[line] = tokens.count
                return tokens.count - 1
            }
        }
        let ot = tokenize(o)
        let tt = tokenize(t)
        var inEntryO = [Bool](repeating: omitted == nil, count: o.count)
        var inEntryT = [Bool](repeating: omitted == nil, count: t.count)
        if let omitted {
            let rt = tokenize(lines(omitted))
            inEntryO = [Bool](repeating: true, count: o.count)
            for (_, j) in SequenceAlignment.matches(rt, ot) { inEntryO[j] = false }
            inEntryT = [Bool](repeating: true, count: t.count)
            for (_, j) in SequenceAlignment.matches(rt, tt) { inEntryT[j] = false }
        }
        var anchors = SequenceAlignment.matches(ot, tt).filter { !inEntryO[$0.0] && !inEntryT[$0.1] }
        anchors.append((o.count, t.count))
        var out: [UInt8] = []
        var i = 0
        var j = 0
        for (ai, aj) in anchors {
            if ai > i || aj > j {
                let a = o[i..<ai]
                let b = t[j..<aj]
                if a.elementsEqual(b) {
                    for line in a { out.append(contentsOf: line) }
                } else {
                    block(a, b, style: style, into: &out)
                }
            }
            if ai < o.count { out.append(contentsOf: o[ai]) }
            i = ai + 1
            j = aj + 1
        }
        return out
    }

    /// One conflict block: `<<<<<<< ours`, our lines, `=======`, their lines, `>>>>>>> theirs`.
    static func block(
        _ ours: ArraySlice<ArraySlice<UInt8>>, _ theirs: ArraySlice<ArraySlice<UInt8>>, style: Style,
        into out: inout [UInt8]
    ) {
        func marker(_ c: UInt8, _ label: String?) {
            if let last = out.last, last != 0x0A { out.append(0x0A) }
            out.append(contentsOf: [UInt8](repeating: c, count: style.size))
            if let label, !label.isEmpty {
                out.append(0x20)
                out.append(contentsOf: Array(label.utf8))
            }
            out.append(0x0A)
        }
        marker(UInt8(ascii: "<"), style.ours)
        for line in ours { out.append(contentsOf: line) }
        marker(UInt8(ascii: "="), nil)
        for line in theirs { out.append(contentsOf: line) }
        marker(UInt8(ascii: ">"), style.theirs)
    }

    /// Whether `text` holds a conflict marker line of `size` (`<<<<<<<`, `=======`, `>>>>>>>`).
    static func hasMarkers(_ text: [UInt8], size: Int = 7) -> Bool {
        for line in lines(text) {
            for c in [UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">")] {
                if line.count >= size, line.prefix(size).allSatisfy({ $0 == c }),
                    line.count == size || [0x20, 0x0A, 0x0D].contains(line[line.startIndex + size])
                {
                    return true
                }
            }
        }
        return false
    }
}
