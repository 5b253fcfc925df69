// Tests/PropertyListTests/EditingTests.swift - Editing a PlistValue by key path: every operation, key
// order, typed errors, nothing changed on failure, and random edits against a naive model.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct EditingTests {
    static let info: PlistValue = [
        "CFBundleIdentifier": "com.example.app",
        "CFBundleVersion": "41",
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["example"]]],
        "UIRequiredDeviceCapabilities": ["arm64"],
        "flag": true,
    ]

    /// The string keys of a dictionary value, in order.
    static func keys(_ v: PlistValue?) -> [String] { v?.dictionaryValue?.keys.compactMap(\.stringValue) ?? [] }

    @Test("set replaces in place and inserts at the end: key order is kept")
    func setKeepsOrder() throws {
        var v = Self.info
        try v.set("42", at: "CFBundleVersion")
        try v.set("Example", at: "CFBundleName")
        #expect(
            Self.keys(v) == [
                "CFBundleIdentifier", "CFBundleVersion", "CFBundleURLTypes", "UIRequiredDeviceCapabilities", "flag",
                "CFBundleName",
            ])
        #expect(v["CFBundleVersion"] == "42")
        try v.remove(at: "CFBundleURLTypes")
        #expect(
            Self.keys(v) == [
                "CFBundleIdentifier", "CFBundleVersion", "UIRequiredDeviceCapabilities", "flag", "CFBundleName",
            ])
    }

    @Test("insert, replace, remove and append in arrays: positions, the end, nested")
    func arrays() throws {
        var v = Self.info
        try v.insert("x86_64", at: ["UIRequiredDeviceCapabilities", 0])
        try v.insert("metal", at: ["UIRequiredDeviceCapabilities", 2])  // the position past the end appends
        #expect(v[keyPath: "UIRequiredDeviceCapabilities"] == ["x86_64", "arm64", "metal"])
        let old = try v.replace("arm64e", at: ["UIRequiredDeviceCapabilities", 1])  // replaces, does not insert
        #expect(old == "arm64")
        #expect(v[keyPath: "UIRequiredDeviceCapabilities"] == ["x86_64", "arm64e", "metal"])
        try v.append("other", to: "CFBundleURLTypes.0.CFBundleURLSchemes")
        #expect(v[keyPath: "CFBundleURLTypes.0.CFBundleURLSchemes"] == ["example", "other"])
        let removed = try v.remove(at: "UIRequiredDeviceCapabilities.0")
        #expect(removed == "x86_64")
        #expect(v[keyPath: "UIRequiredDeviceCapabilities"] == ["arm64e", "metal"])
        try v.set("end", at: "UIRequiredDeviceCapabilities.2")  // set at count appends
        #expect(v[keyPath: "UIRequiredDeviceCapabilities.2"] == "end")
    }

    @Test("keys with dots, through escapes or components")
    func dottedKeys() throws {
        var v: PlistValue = [:]
        try v.set(true, at: "com\\.apple\\.security\\.app-sandbox")
        try v.set(["group.x"], at: ["com.apple.security.application-groups"])
        #expect(Self.keys(v) == ["com.apple.security.app-sandbox", "com.apple.security.application-groups"])
        #expect(v[keyPath: ["com.apple.security.app-sandbox"]] == true)
    }

    @Test("creatingParents makes the missing dictionaries; without it the first missing key is named")
    func parents() throws {
        var v = Self.info
        let error = #expect(throws: PlistError.self) { try v.set(1, at: "a.b.c") }
        #expect(error?.code == .keyNotFound)
        #expect(error?.keyPath == ["a"])
        #expect(v == Self.info)
        try v.set(1, at: "a.b.c", creatingParents: true)
        #expect(v[keyPath: "a"] == ["b": ["c": 1]])
        try v.append("z", to: "list.inner", creatingParents: true)
        #expect(v[keyPath: "list.inner"] == ["z"])
    }

    @Test("typed errors name the key path; the value is unchanged after every failure")
    func errors() throws {
        func fails(
            _ code: PlistError.Code, at path: PlistKeyPath, _ edit: (inout PlistValue) throws(PlistError) -> Void
        ) {
            var v = Self.info
            do {
                try edit(&v)
                Issue.record("expected \(code)")
            } catch {
                #expect(error.code == code)
                #expect(error.keyPath == path, "\(error)")
            }
            #expect(v == Self.info)
            #expect(Self.keys(v) == Self.keys(Self.info))
        }
        fails(.alreadyExists, at: "flag") { (v) throws(PlistError) in try v.insert(false, at: "flag") }
        fails(.alreadyExists, at: .root) { (v) throws(PlistError) in try v.insert(false, at: .root) }
        fails(.keyNotFound, at: "nope") { (v) throws(PlistError) in try v.replace(1, at: "nope") }
        fails(.keyNotFound, at: "nope") { (v) throws(PlistError) in try v.remove(at: "nope.x") }
        fails(.keyNotFound, at: .root) { (v) throws(PlistError) in try v.remove(at: .root) }
        fails(.notAContainer, at: "flag") { (v) throws(PlistError) in try v.set(1, at: "flag.x") }
        fails(.notAContainer, at: "CFBundleVersion") { (v) throws(PlistError) in try v.append(1, to: "CFBundleVersion")
        }
        fails(.indexOutOfRange, at: "UIRequiredDeviceCapabilities.5") { (v) throws(PlistError) in
            try v.insert(1, at: "UIRequiredDeviceCapabilities.5")
        }
        fails(.indexOutOfRange, at: "UIRequiredDeviceCapabilities.1") { (v) throws(PlistError) in
            try v.replace(1, at: "UIRequiredDeviceCapabilities.1")
        }
        fails(.indexOutOfRange, at: "UIRequiredDeviceCapabilities.x") { (v) throws(PlistError) in
            try v.set(1, at: "UIRequiredDeviceCapabilities.x")
        }
        fails(.indexOutOfRange, at: "CFBundleURLTypes.3") { (v) throws(PlistError) in
            try v.set(1, at: "CFBundleURLTypes.3.x", creatingParents: true)
        }
        // Edits applied together fail together: the parent the first one created is gone again.
        fails(.notAContainer, at: "new.x") { (v) throws(PlistError) in
            try v.apply([.set(1, at: "new.x", creatingParents: true), .set(2, at: "new.x.y")])
        }
    }

    @Test("apply: edits in order, all or nothing")
    func applyAllOrNothing() throws {
        var v = Self.info
        try v.apply([
            .set("42", at: "CFBundleVersion"), .remove(at: "flag"), .insert("a", at: "new"),
            .append("b", to: "UIRequiredDeviceCapabilities"), .replace("c", at: "new"),
        ])
        #expect(v["CFBundleVersion"] == "42")
        #expect(v["flag"] == nil)
        #expect(v["new"] == "c")
        #expect(v[keyPath: "UIRequiredDeviceCapabilities"] == ["arm64", "b"])
        var w = Self.info
        let error = #expect(throws: PlistError.self) {
            try w.apply([.set("42", at: "CFBundleVersion"), .remove(at: "flag"), .remove(at: "flag")])
        }
        #expect(error?.code == .keyNotFound)
        #expect(w == Self.info)
    }

    @Test("the root: replace and set swap the whole value; append to a root array")
    func root() throws {
        var v: PlistValue = [1, 2]
        try v.append(3, to: .root)
        #expect(v == [1, 2, 3])
        let old = try v.replace("x", at: .root)
        #expect(old == [1, 2, 3])
        #expect(v == "x")
    }

    @Test("sets: positions in file order")
    func sets() throws {
        var v: PlistValue = ["s": .set(["a", "b"])]
        try v.insert("c", at: "s.1")
        try v.append("d", to: "s")
        #expect(v["s"] == .set(["a", "c", "b", "d"]))
        guard case .set(let members)? = v["s"] else {
            Issue.record("no longer a set")
            return
        }
        #expect(members.map(\.stringValue) == ["a", "c", "b", "d"])
    }

    @Test("an edit of a shared sub-tree changes only the path edited (value semantics)")
    func sharing() throws {
        let shared: PlistValue = ["x": [1, 2]]
        var v: PlistValue = ["a": shared, "b": shared]
        try v.append(3, to: "a.x")
        #expect(v[keyPath: "a.x"] == [1, 2, 3])
        #expect(v[keyPath: "b.x"] == [1, 2])
        #expect(shared == ["x": [1, 2]])
    }

    /// A naive model of `set` and `remove`: rebuilds every container on the path (no in-place tricks).
    static func modelSet(_ root: PlistValue, _ path: ArraySlice<String>, _ new: PlistValue?) -> PlistValue? {
        guard let key = path.first else { return new }
        switch root {
        case .dictionary(let d):
            var pairs = d.entries.map { ($0.key, $0.value) }
            if let i = pairs.firstIndex(where: { $0.0 == .string(key) }) {
                if path.count == 1, new == nil {
                    pairs.remove(at: i)
                } else {
                    guard let child = modelSet(pairs[i].1, path.dropFirst(), new) else { return nil }
                    pairs[i].1 = child
                }
            } else {
                guard path.count == 1, let new else { return nil }
                pairs.append((.string(key), new))
            }
            return .dictionary(PlistDictionary(pairs))
        case .array(var a):
            guard let i = Int(key), i >= 0, i <= a.count else { return nil }
            if i == a.count {
                guard path.count == 1, let new else { return nil }
                a.append(new)
            } else if path.count == 1, new == nil {
                a.remove(at: i)
            } else {
                guard let child = modelSet(a[i], path.dropFirst(), new) else { return nil }
                a[i] = child
            }
            return .array(a)
        default:
            return nil
        }
    }

    @Test("random set/remove sequences agree with a naive model, order included")
    func againstModel() {
        let seed = propertySeed()
        var generator = PlistGenerator(
            seed: seed, profile: GenerationProfile(sets: false, nonStringKeys: false, maxDepth: 4, maxWidth: 5))
        for round in 0..<300 {
            var value = generator.value()
            for _ in 0..<6 {
                // A path of existing keys (usually), sometimes with a missing last component.
                var path: [String] = []
                var cursor = value
                while generator.int(0...3) != 0 {
                    if case .dictionary(let d) = cursor, !d.isEmpty {
                        let e = d[generator.int(0...d.count - 1)]
                        path.append(e.key.stringValue ?? "")
                        cursor = e.value
                    } else if case .array(let a) = cursor, !a.isEmpty {
                        let i = generator.int(0...a.count - 1)
                        path.append(String(i))
                        cursor = a[i]
                    } else {
                        break
                    }
                }
                if generator.int(0...2) == 0 { path.append(generator.string()) }
                let remove = generator.int(0...3) == 0
                let new = generator.value(depth: 3)
                let expected = Self.modelSet(value, path[...], remove ? nil : new)
                var edited = value
                do {
                    if remove {
                        try edited.remove(at: PlistKeyPath(keys: path))
                    } else {
                        try edited.set(new, at: PlistKeyPath(keys: path))
                    }
                    #expect(expected != nil, "seed \(seed) round \(round): \(path) succeeded, the model failed")
                    if let expected {
                        #expect(edited == expected, "seed \(seed) round \(round): \(path)")
                        #expect(orderedKeys(edited) == orderedKeys(expected), "seed \(seed) round \(round): order")
                    }
                    value = edited
                } catch {
                    #expect(expected == nil || path.isEmpty && remove, "seed \(seed) round \(round): \(path): \(error)")
                    #expect(edited == value, "seed \(seed): a failed edit changed the value")
                }
            }
        }
    }

    /// Every dictionary's keys in order, depth first (equality of PlistValue ignores order).
    func orderedKeys(_ v: PlistValue) -> [[PlistValue]] {
        var out: [[PlistValue]] = []
        var work = [v]
        while let x = work.popLast() {
            switch x {
            case .dictionary(let d):
                out.append(d.keys)
                work.append(contentsOf: d.values)
            case .array(let a), .set(let a): work.append(contentsOf: a)
            default: break
            }
        }
        return out
    }
}
