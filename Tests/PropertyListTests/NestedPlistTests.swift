// Tests/PropertyListTests/NestedPlistTests.swift - Property lists stored as data, decoded in place.

import Foundation
import KeyedArchiveTestSupport
@_spi(Internals) import PropertyList
import Testing

@Suite struct NestedPlistTests {
    static func nested(_ v: PlistValue) -> PlistValue {
        .dictionary(PlistDictionary([(.string(PlistValue.nestedPlistKey), v)]))
    }

    @Test("three levels of plists inside plists decode in place, with their outer key paths")
    func threeLevels() throws {
        let innermost: PlistValue = ["colour": "red", "alpha": .real(0.5)]
        let middle: PlistValue = ["inner": .data(try BinaryPlistWriter().write(innermost)), "n": 1]
        let outer: PlistValue = [
            "theme": ["middle": .data(try BinaryPlistWriter().write(middle))], "plain": .data(Data([1, 2])),
        ]
        let (value, issues) = outer.expandingNestedPlists()
        #expect(issues.isEmpty)
        let expected: PlistValue = [
            "theme": ["middle": Self.nested(["inner": Self.nested(innermost), "n": 1])], "plain": .data(Data([1, 2])),
        ]
        #expect(value == expected)
    }

    @Test("sibling nested plists each decode to their own value (no memo shared between them)")
    func siblings() throws {
        // Each nested plist is decoded, expanded and could be freed before the next: its containers'
        // addresses must not be mistaken for the next one's.
        var entries: [PlistDictionary.Element] = []
        for i in 0..<50 {
            let inner: PlistValue = ["index": .integer(PlistInteger(i)), "list": [.integer(PlistInteger(i)), "x"]]
            entries.append((.string("k\(i)"), .data(try BinaryPlistWriter().write(inner))))
        }
        let (value, issues) = PlistValue.dictionary(PlistDictionary(entries)).expandingNestedPlists()
        #expect(issues.isEmpty)
        for i in 0..<50 {
            #expect(
                value["k\(i)"]
                    == Self.nested(["index": .integer(PlistInteger(i)), "list": [.integer(PlistInteger(i)), "x"]]))
        }
    }

    @Test("a nested plist that would expand past the budget stays data, reported; the outer value is fine")
    func nestedBomb() throws {
        let outer: PlistValue = ["prefs": ["bomb": .data(DoublingChain.bytes)], "ok": 1]
        let (value, issues) = outer.expandingNestedPlists()
        #expect(value == outer)
        #expect(issues.count == 1)
        #expect(issues.first?.keyPath == ["prefs", "bomb"])
        #expect(issues.first?.error.code == .limitExceeded)
    }

    @Test("nesting stops at maxNesting: deeper plists stay data")
    func nestingBound() throws {
        let inner: PlistValue = ["x": 1]
        let middle: PlistValue = ["inner": .data(try BinaryPlistWriter().write(inner))]
        let outer: PlistValue = ["m": .data(try BinaryPlistWriter().write(middle))]
        let (value, _) = outer.expandingNestedPlists(maxNesting: 1)
        #expect(value == ["m": Self.nested(["inner": .data(try BinaryPlistWriter().write(inner))])])
    }

    @Test("a nested plist in a zlib envelope decodes; compressed data that is not a plist stays data")
    func compressed() throws {
        let inner: PlistValue = ["k": "v"]
        let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 6).write(inner)
        let notAPlist = try Zlib.deflate(Data("just some compressed text".utf8))
        let (value, issues) = PlistValue.array([.data(packed), .data(notAPlist)]).expandingNestedPlists()
        #expect(value == [Self.nested(inner), .data(notAPlist)])
        #expect(issues.isEmpty)
    }

    @Test("malformed inner bytes stay data and are reported with the outer key path; the outer value is fine")
    func malformedInner() throws {
        let good = try BinaryPlistWriter().write(["a": 1])
        let truncated = good.prefix(good.count - 5)
        let outer: PlistValue = ["prefs": ["window": ["frame": .data(Data(truncated))]], "ok": .data(good)]
        let (value, issues) = outer.expandingNestedPlists()
        #expect(issues.count == 1)
        #expect(issues.first?.keyPath == ["prefs", "window", "frame"])
        #expect(issues.first?.error.code == .truncated || issues.first?.error.code == .invalidTrailer)
        #expect(value["prefs"]?["window"]?["frame"] == .data(Data(truncated)))
        #expect(value["ok"] == Self.nested(["a": 1]))
    }

    @Test("a shared sub-tree holding a nested plist is expanded once (the doubling chain stays cheap)")
    func sharedSubtrees() throws {
        var v: PlistValue = .data(try BinaryPlistWriter().write(["leaf": true]))
        for _ in 0..<60 { v = [v, v] }  // 2^60 paths to the data value
        let (value, issues) = v.expandingNestedPlists()
        #expect(issues.isEmpty)
        var x = value
        for _ in 0..<60 {
            guard case .array(let xs) = x, xs.count == 2 else {
                Issue.record("not a pair")
                return
            }
            x = xs[1]
        }
        #expect(x == Self.nested(["leaf": true]))
    }
}

/// Xcode's `.xcuserstate` files (keyed archives) carry binary plists as data values: they decode in
/// place, each equal to decoding its bytes on their own. Skipped visibly without ../shared/corpus.
@Suite(.enabled(if: Corpus.isPresent, "the shared corpus is not at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"))
struct NestedPlistCorpusTests {
    @Test(arguments: [
        ("valid/keyed/xcode-xcuserstate-TargetWithCustomBuildRules.bplist", ["$objects", "38"]),
        ("valid/keyed/xcode-xcuserstate-iOS-Project.bplist", ["$objects", "194"]),
        ("valid/keyed/xcode-xcuserstate-iOS-Project.bplist", ["$objects", "315", "NS.data"]),
    ])
    func xcuserstateNestedPlists(_ file: String, _ path: [String]) throws {
        let data = try Data(contentsOf: Corpus.root.appendingPathComponent(file))
        let outer = try BinaryPlistDocument(data).value()
        let (value, issues) = outer.expandingNestedPlists()
        #expect(issues.isEmpty, "\(issues)")
        var original: PlistValue? = outer
        var expanded: PlistValue? = value
        for component in path {
            if let i = Int(component) {
                original = original?[i]
                expanded = expanded?[i]
            } else {
                original = original?[component]
                expanded = expanded?[component]
            }
        }
        guard case .data(let bytes)? = original else {
            Issue.record("\(path) is not data in \(file)")
            return
        }
        #expect(bytes.starts(with: "bplist00".utf8))
        #expect(expanded == NestedPlistTests.nested(try BinaryPlistDocument(bytes).value()))
    }
}
