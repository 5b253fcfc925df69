// Tests/PropertyListTests/MergeTests.swift - The three-way merge of property lists: each rule on a
// small example whose merged value is written out by hand, conflicts named by key path, arrays
// aligned by elements and by identity fields, and hostile input that must stay bounded.

import Foundation
import PropertyList
import Testing

@Suite("PlistMerge: rules")
struct MergeRuleTests {
    @Test("independent key changes, additions and removals all apply")
    func independentKeys() {
        let base: PlistValue = ["a": 1, "b": 2, "gone": true, "keep": "k"]
        let ours: PlistValue = ["a": 1, "b": 3, "c": 4, "keep": "k"]
        let theirs: PlistValue = ["a": 5, "b": 2, "gone": true, "d": 6, "keep": "k"]
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == ["a": 5, "b": 3, "c": 4, "d": 6, "keep": "k"])
    }

    @Test("edits in place on both sides merge, though an equal element elsewhere pulls the alignment")
    func inPlaceEditsWithAnEqualElementElsewhere() {
        // Aligned by a longest common subsequence, base's [] pairs with theirs' [] one place later,
        // and the runs after it (["c", d] against [d']) conflict; paired by position, every change
        // is one side's or merges (found by the property test, seed 7407808673904407736).
        let base: PlistValue = ["a", [], "c", ["k": 1]]
        let ours: PlistValue = ["a", [], "c", ["k": 1, "o": 1]]
        let theirs: PlistValue = ["a", "b2", [], ["k": 1, "t": 1]]
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty, "\(merge.conflicts)")
        #expect(merge.value == ["a", "b2", [], ["k": 1, "o": 1, "t": 1]])
        let reverse = PlistMerge(base: base, ours: theirs, theirs: ours)
        #expect(reverse.conflicts.isEmpty)
        #expect(reverse.value == ["a", "b2", [], ["k": 1, "t": 1, "o": 1]])
    }

    @Test("ours' key order; a key only theirs added goes after the key it follows there")
    func keyOrder() throws {
        let base: PlistValue = ["a": 1, "b": 2, "c": 3]
        let ours: PlistValue = ["c": 3, "a": 1, "b": 2, "x": 0]
        let theirs: PlistValue = ["y": 0, "a": 1, "z": 0, "b": 2, "c": 3]
        let merged = try #require(PlistMerge(base: base, ours: ours, theirs: theirs).value.dictionaryValue)
        #expect(merged.keys.compactMap(\.stringValue) == ["y", "c", "a", "z", "b", "x"])
    }

    @Test("the same change on both sides is taken once; both removing a key removes it")
    func sameChange() {
        let base: PlistValue = ["v": 1, "w": 2]
        let side: PlistValue = ["v": 7]
        let merge = PlistMerge(base: base, ours: side, theirs: side)
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == ["v": 7])
    }

    @Test("different changes of one scalar: a conflict at its key path, ours kept (or theirs when asked)")
    func scalarConflict() {
        let base: PlistValue = ["settings": ["theme": "light", "size": 12]]
        let ours: PlistValue = ["settings": ["theme": "dark", "size": 12]]
        let theirs: PlistValue = ["settings": ["theme": "blue", "size": 14]]
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(
            merge.conflicts == [
                PlistMerge.Conflict(keyPath: "settings.theme", base: "light", ours: "dark", theirs: "blue")
            ])
        #expect(merge.conflicts.first?.description == "settings.theme: ours changed, theirs changed")
        #expect(merge.value == ["settings": ["theme": "dark", "size": 14]])
        #expect(merge.value(taking: .theirs) == ["settings": ["theme": "blue", "size": 14]])
        #expect(merge.valueOmittingConflicts() == ["settings": ["size": 14]])
    }

    @Test("changed on one side, removed on the other: a conflict")
    func modifyDelete() {
        let merge = PlistMerge(base: ["a": 1, "b": 1], ours: ["a": 2, "b": 1], theirs: ["b": 1])
        #expect(merge.conflicts == [PlistMerge.Conflict(keyPath: "a", base: 1, ours: 2, theirs: nil)])
        #expect(merge.conflicts.first?.description == "a: ours changed, theirs removed")
        #expect(merge.value == ["a": 2, "b": 1])
        #expect(merge.value(taking: .theirs) == ["b": 1])
    }

    @Test("both added the same key: equal values once, dictionaries merged, scalars a conflict")
    func bothAdded() {
        let base: PlistValue = [:]
        let merge = PlistMerge(
            base: base, ours: ["d": ["x": 1], "s": "a", "e": 1], theirs: ["d": ["y": 2], "s": "b", "e": 1])
        #expect(merge.value == ["d": ["x": 1, "y": 2], "s": "a", "e": 1])
        #expect(merge.conflicts.map(\.keyPath) == ["s"])
        #expect(merge.conflicts.first?.base == nil)
    }

    @Test("a change of kind on both sides is a conflict at that place; at the root, the root's")
    func kinds() {
        let merge = PlistMerge(base: ["a": 1], ours: ["a": [1]], theirs: ["a": ["x": 1]])
        #expect(merge.conflicts.map(\.keyPath) == ["a"])
        let root = PlistMerge(base: "x", ours: "y", theirs: 3)
        #expect(root.conflicts.map(\.keyPath) == [.root])
        #expect(root.value == "y")
        #expect(root.valueOmittingConflicts() == nil)
    }

    @Test("arrays: insertions and removals at different places all apply")
    func arrayEdits() {
        let base: PlistValue = ["a", "b", "c", "d", "e", "f"]
        let ours: PlistValue = ["a", "b", "x", "c", "d", "f"]  // x inserted, e removed
        let theirs: PlistValue = ["b", "c", "d", "e", "f", "y"]  // a removed, y appended
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == ["b", "x", "c", "d", "f", "y"])
        // Changes next to each other (an insertion after an element the other side removed) are
        // one run changed on both sides: a conflict, as diff3 has it.
        let adjacent = PlistMerge(base: ["a", "b"], ours: ["a", "x", "b"], theirs: ["b"])
        #expect(adjacent.conflicts.map(\.keyPath) == ["0"])
    }

    @Test("arrays: insertions at the same place on both sides are both kept, ours first, once when equal")
    func sameGap() {
        let base: PlistValue = ["a", "b"]
        let merge = PlistMerge(base: base, ours: ["a", "b", "x", "z"], theirs: ["a", "b", "y", "z"])
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == ["a", "b", "x", "z", "y"])
    }

    @Test(
        "arrays: an element both sides inserted at one place is kept as often as the side that inserted it more, either way round"
    )
    func sameGapRepeats() {
        // The property test found this (seeds 6979 and 19131 of its generator): theirs' two "a"s
        // both matched ours' one, so ours-first kept one "a" and theirs-first two. The union of the
        // insertions is a multiset union, whichever side is ours.
        let base: PlistValue = ["x", "y"]
        let ours: PlistValue = ["x", "o", "a", "y"]
        let theirs: PlistValue = ["x", "a", "t", "a", "y"]
        let forward = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(forward.conflicts.isEmpty)
        #expect(forward.value == ["x", "o", "a", "t", "a", "y"])
        let backward = PlistMerge(base: base, ours: theirs, theirs: ours)
        #expect(backward.conflicts.isEmpty)
        #expect(backward.value == ["x", "a", "t", "a", "o", "y"])
        // A scalar both sides replaced with arrays: the arrays merge as insertions into nothing.
        let scalar = PlistMerge(base: ["k": 1], ours: ["k": ["a"]], theirs: ["k": ["a", "a"]])
        #expect(scalar.value == ["k": ["a", "a"]])
        #expect(PlistMerge(base: ["k": 1], ours: ["k": ["a", "a"]], theirs: ["k": ["a"]]).value == ["k": ["a", "a"]])
    }

    @Test("arrays: one element replaced differently on both sides is a conflict at its position")
    func elementConflict() {
        let merge = PlistMerge(base: ["a", "b", "c"], ours: ["a", "x", "c"], theirs: ["a", "y", "c"])
        #expect(merge.conflicts == [PlistMerge.Conflict(keyPath: "1", base: "b", ours: "x", theirs: "y")])
        #expect(merge.value == ["a", "x", "c"])
        #expect(merge.valueOmittingConflicts() == ["a", "c"])
    }

    @Test("arrays: overlapping runs of different lengths are one conflict holding the runs")
    func runConflict() {
        let merge = PlistMerge(base: ["a", "b", "c", "d"], ours: ["a", "d"], theirs: ["a", "b", "x", "y", "d"])
        #expect(
            merge.conflicts == [
                PlistMerge.Conflict(keyPath: "1", base: ["b", "c"], ours: nil, theirs: ["b", "x", "y"])
            ]
        )
        #expect(merge.value == ["a", "d"])
        #expect(merge.value(taking: .theirs) == ["a", "b", "x", "y", "d"])
    }

    @Test("arrays of dictionaries with an identity field: aligned by it, merged field by field")
    func identity() {
        let base: PlistValue = [
            "CFBundleURLTypes": [
                ["CFBundleURLName": "main", "CFBundleURLSchemes": ["app"]],
                ["CFBundleURLName": "auth", "CFBundleURLSchemes": ["login"]],
            ]
        ]
        let ours: PlistValue = [
            "CFBundleURLTypes": [
                ["CFBundleURLName": "main", "CFBundleURLSchemes": ["app", "app2"]],
                ["CFBundleURLName": "auth", "CFBundleURLSchemes": ["login"]],
            ]
        ]
        let theirs: PlistValue = [
            "CFBundleURLTypes": [
                ["CFBundleURLName": "main", "CFBundleURLSchemes": ["app"], "CFBundleTypeRole": "Editor"],
                ["CFBundleURLName": "share", "CFBundleURLSchemes": ["share"]],
                ["CFBundleURLName": "auth", "CFBundleURLSchemes": ["login", "oauth"]],
            ]
        ]
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty)
        #expect(
            merge.value == [
                "CFBundleURLTypes": [
                    ["CFBundleURLName": "main", "CFBundleURLSchemes": ["app", "app2"], "CFBundleTypeRole": "Editor"],
                    ["CFBundleURLName": "share", "CFBundleURLSchemes": ["share"]],
                    ["CFBundleURLName": "auth", "CFBundleURLSchemes": ["login", "oauth"]],
                ]
            ])
        // Without the identity field, the two changed elements are different elements: a conflict.
        let plain = PlistMerge(base: base, ours: ours, theirs: theirs, options: .init(identityKeys: []))
        #expect(!plain.conflicts.isEmpty)
    }

    @Test("sets merge as sets: what either side added or removed")
    func sets() {
        let merge = PlistMerge(
            base: .set(["a", "b", "c"]), ours: .set(["a", "c", "x"]), theirs: .set(["a", "b", "y"]))
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == .set(["a", "x", "y"]))
    }

    @Test("a change on one side only, or none: that side, whatever it is")
    func oneSide() {
        let base: PlistValue = ["a": [1, 2], "b": "x"]
        let changed: PlistValue = ["a": [2, 3], "c": .data(Data([1]))]
        #expect(PlistMerge(base: base, ours: changed, theirs: base).value == changed)
        #expect(PlistMerge(base: base, ours: base, theirs: changed).value == changed)
        #expect(PlistMerge(base: base, ours: base, theirs: base).value == base)
    }
}

@Suite("PlistMerge: hostile input stays bounded")
struct MergeBoundsTests {
    /// `levels` of `[x, x]` around `leaf`: 2^levels paths, one stored container per level.
    static func tower(_ levels: Int, leaf: PlistValue) -> PlistValue {
        var v = leaf
        for _ in 0..<levels { v = .array([v, v]) }
        return v
    }

    @Test("60 levels of shared [x, x] changed differently on both sides: finishes, conflicts bounded")
    func sharedTower() {
        let options = PlistMerge.Options(maxSteps: 10_000)
        let merge = PlistMerge(
            base: Self.tower(60, leaf: "b"), ours: Self.tower(60, leaf: "o"), theirs: Self.tower(60, leaf: "t"),
            options: options)
        #expect(merge.hasConflicts)
        #expect(merge.conflicts.count <= 2 * options.maxSteps + 2)
    }

    @Test("large arrays edited all over on both sides: bounded alignment, a result")
    func largeArrays() {
        let n = 200_000
        let base = PlistValue.array((0..<n).map { .integer(PlistInteger($0)) })
        var o = (0..<n).map { PlistValue.integer(PlistInteger($0)) }
        var t = o
        for i in stride(from: 0, to: n, by: 7) { o[i] = .string("o\(i)") }
        for i in stride(from: 3, to: n, by: 11) { t[i] = .string("t\(i)") }
        let start = ContinuousClock.now
        let merge = PlistMerge(base: base, ours: .array(o), theirs: .array(t))
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(merge.value.arrayValue?.count == n)
    }

    @Test("a few edits in a large array align exactly")
    func largeArrayFewEdits() {
        let n = 100_000
        let base = (0..<n).map { PlistValue.integer(PlistInteger($0)) }
        var o = base
        o.insert("new", at: 500)
        var t = base
        t.remove(at: 90_000)
        t.append("end")
        var expected = base
        expected.remove(at: 90_000)
        expected.insert("new", at: 500)
        expected.append("end")
        let merge = PlistMerge(base: .array(base), ours: .array(o), theirs: .array(t))
        #expect(merge.conflicts.isEmpty)
        #expect(merge.value == .array(expected))
    }

    @Test("nesting at the depth limit merges; past it, a conflict rather than a crash")
    func deep() {
        func nested(_ depth: Int, _ leaf: PlistValue) -> PlistValue {
            var v = leaf
            for _ in 0..<depth { v = ["k": v] }
            return v
        }
        let merge = PlistMerge(base: nested(400, "b"), ours: nested(400, "o"), theirs: nested(400, "b"))
        #expect(merge.value == nested(400, "o"))
        let deeper = PlistMerge(base: nested(2000, "b"), ours: nested(2000, "o"), theirs: nested(2000, "t"))
        #expect(deeper.conflicts.count == 1)
    }
}
