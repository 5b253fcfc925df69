// Tests/PropertyListTests/KeyPathTests.swift - PlistKeyPath: plutil's and PlistBuddy's forms, built
// from components, and the lazy document lookups that take it.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct KeyPathTests {
    @Test("plutil's form: dots separate, \\. is a dot in a key, other backslashes are themselves")
    func plutilForm() {
        #expect(PlistKeyPath(plutil: "a.b.0").components == ["a", "b", "0"])
        #expect(
            PlistKeyPath(plutil: "com\\.apple\\.security\\.app-sandbox").components == [
                "com.apple.security.app-sandbox"
            ])
        #expect(PlistKeyPath(plutil: "a\\b").components == ["a\\b"])
        #expect(PlistKeyPath(plutil: "a\\\\.b").components == ["a\\.b"])  // `\\.`: the second backslash escapes the dot
        #expect(PlistKeyPath(plutil: "").components.isEmpty)
        #expect(PlistKeyPath(plutil: "a..b").components == ["a", "", "b"])
        #expect(PlistKeyPath(plutil: ".").components == ["", ""])
        #expect(PlistKeyPath(plutil: "a.").components == ["a", ""])
        let literal: PlistKeyPath = "x\\.y.z"
        #expect(literal.components == ["x.y", "z"])
    }

    @Test("PlistBuddy's form: ':' before each component, '\\:' a colon in a key; ':' alone is the root")
    func plistBuddyForm() throws {
        #expect(
            try PlistKeyPath(plistBuddy: ":CFBundleURLTypes:0:CFBundleURLSchemes").components == [
                "CFBundleURLTypes", "0", "CFBundleURLSchemes",
            ])
        #expect(try PlistKeyPath(plistBuddy: ":").isEmpty)
        #expect(try PlistKeyPath(plistBuddy: "").isEmpty)
        #expect(try PlistKeyPath(plistBuddy: ":a.b").components == ["a.b"])
        #expect(try PlistKeyPath(plistBuddy: ":http\\://x:y").components == ["http://x", "y"])
        #expect(try PlistKeyPath(plistBuddy: "::").components == ["", ""])
        let error = #expect(throws: PlistError.self) { try PlistKeyPath(plistBuddy: "a:b") }
        #expect(error?.code == .syntax)
        // Auto-detection: a leading colon is PlistBuddy's form.
        #expect(PlistKeyPath(parsing: ":a.b:c").components == ["a.b", "c"])
        #expect(PlistKeyPath(parsing: "a.b:c").components == ["a", "b:c"])
    }

    @Test("built from components, nothing is escaped or split; integers are positions")
    func components() {
        let path: PlistKeyPath = ["CFBundleURLTypes", 0, "a.b", "c:d"]
        #expect(path.components.map(\.key) == ["CFBundleURLTypes", "0", "a.b", "c:d"])
        #expect(path.components[1].index == 0)
        #expect(path.components[0].index == nil)
        #expect(path.description == "CFBundleURLTypes.0.a\\.b.c:d")
        #expect(path.plistBuddyDescription == ":CFBundleURLTypes:0:a.b:c\\:d")
        #expect(PlistKeyPath.root.description == "")
        #expect(PlistKeyPath.root.plistBuddyDescription == ":")
        #expect(path.parent == ["CFBundleURLTypes", 0, "a.b"])
        #expect(path.prefix(1) == ["CFBundleURLTypes"])
        #expect(PlistKeyPath(keys: ["x"]).appending(3) == ["x", 3])
        #expect(PlistKeyPath.Component("007").index == 7)  // as plutil reads positions (Int("007"))
    }

    @Test("description and plistBuddyDescription read back as the same components (random keys)")
    func roundTrips() throws {
        let seed = propertySeed()
        var rng = SplitMix64(seed: seed)
        let alphabet: [String] = ["a", ".", ":", "\\", "0", "é", " ", "$", "x"]
        for _ in 0..<500 {
            let keys: [String] = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                var key = (0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? ""
                }
                .joined()
                // A key ending in a backslash followed by another component has no text form (documented).
                while key.hasSuffix("\\") { key.removeLast() }
                return key
            }
            let path = PlistKeyPath(keys: keys)
            #expect(PlistKeyPath(plutil: path.description) == path || keys == [""], "seed \(seed): \(keys)")
            #expect(
                try PlistKeyPath(plistBuddy: path.plistBuddyDescription) == path || keys == [""],
                "seed \(seed): \(keys)")
        }
        // The one path no text form tells from the root: a single empty key.
        #expect(PlistKeyPath(plutil: PlistKeyPath(keys: [""]).description) == .root)
    }

    static func document() throws -> BinaryPlistDocument {
        let value: PlistValue = [
            "com.apple.security.app-sandbox": true,
            "people": [["name": "Ada"], ["name": "Grace"]],
            "set": .set(["x", "y"]),
            "n": 5,
        ]
        return try BinaryPlistDocument(try BinaryPlistWriter().write(value))
    }

    @Test("the document's lookups take a PlistKeyPath: escapes, components and sets")
    func documentLookup() throws {
        let doc = try Self.document()
        #expect(try doc.lookup("com\\.apple\\.security\\.app-sandbox" as PlistKeyPath) == true)
        #expect(try doc.lookup(["people", 1, "name"] as PlistKeyPath) == "Grace")
        #expect(try doc.lookup(["set", 1] as PlistKeyPath) == "y")
        #expect(try doc.ref(at: ["people", 2] as PlistKeyPath) == nil)
        #expect(try doc.ref(at: PlistKeyPath.root) == doc.root)
        // A string literal is a PlistKeyPath in plutil's form (the documented example finds its key);
        // an array literal gives components, each used as it is.
        #expect(try doc.lookup("com\\.apple\\.security\\.app-sandbox") == true)
        #expect(try doc.lookup("people.0.name") == "Ada")
        #expect(try doc.ref(at: ["com.apple.security.app-sandbox"]) != nil)
        #expect(try doc.lookup("com.apple.security.app-sandbox") == nil)
        // Interpolated values are text inside one component, never split at their dots.
        let key = "com.apple.security.app-sandbox"
        #expect(try doc.lookup("\(key)") == true)
        let i = 1
        #expect(try doc.lookup("people.\(i).name") == "Grace")
        // Text read at run time is parsed explicitly, in either tool's form.
        #expect(try doc.lookup(PlistKeyPath(parsing: ":people:1:name")) == "Grace")
        #expect(try doc.lookup(PlistKeyPath(parsing: "com\\.apple\\.security\\.app-sandbox")) == true)
    }

    @Test("resolve says where a path ends: keyNotFound, indexOutOfRange, notAContainer with the key path")
    func documentResolveErrors() throws {
        let doc = try Self.document()
        let missing = #expect(throws: PlistError.self) { try doc.resolve(["people", 0, "age", "x"]) }
        #expect(missing?.code == .keyNotFound)
        #expect(missing?.keyPath == ["people", 0, "age"])
        let range = #expect(throws: PlistError.self) { try doc.resolve(["people", 7]) }
        #expect(range?.code == .indexOutOfRange)
        #expect(range?.keyPath == ["people", 7])
        let scalar = #expect(throws: PlistError.self) { try doc.resolve(["n", "x"]) }
        #expect(scalar?.code == .notAContainer)
        #expect(scalar?.keyPath == ["n"])
        #expect(scalar?.description.contains("at key path n") == true)
    }
}
