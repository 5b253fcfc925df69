// Tests/KeyedArchiveTests/GraphPropertyTests.swift - Random archives written by hand (shared mutable
// collections, collections that contain themselves, cycles through collections and objects, unknown
// classes, values without a key, escaped keys, `$null`s, class descriptions anywhere in `$objects`)
// read as a KeyedArchiveGraph and written back, unchanged or after one random edit whose expected
// result the generator computes on its own copy of the property list.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyBased
import PropertyList
import Testing

/// A random keyed archive as a property list, and the paths into it.
struct RandomArchive {
    var objects: [PlistValue]
    var top: PlistDictionary
    var archive: PlistValue { ArchiveFixture.archive(objects, top: top) }

    static let collectionClasses: [(String, [String])] = [
        ("NSArray", ["NSArray", "NSObject"]), ("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
        ("NSSet", ["NSSet", "NSObject"]), ("NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"]),
        ("NSOrderedSet", ["NSOrderedSet", "NSObject"]),
        ("NSMutableOrderedSet", ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]),
        ("NSDictionary", ["NSDictionary", "NSObject"]),
        ("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
    ]

    init(_ rng: inout SplitMix64) {
        // Things first (their UIDs decided up front), class descriptions wherever the shuffle puts them.
        let count = Int.random(in: 1...16, using: &rng)
        var kinds = (0..<count).map { _ in Int.random(in: 0..<8, using: &rng) }
        kinds[0] = 0  // the root is an object of an unknown class
        let classes: [(String, [String], [String])] =
            [("XWZNode", ["XWZNode", "XWZBase", "NSObject"], []), ("XWZLeaf", ["XWZLeaf", "NSObject"], ["NSObject"])]
            + RandomArchive.collectionClasses.map { ($0.0, $0.1, []) }
            + [("NSMutableString", ["NSMutableString", "NSString", "NSObject"], [])]
        // Dictionary keys: plain strings of their own, a few per dictionary.
        let keysPerThing = kinds.map { $0 == 4 ? Int.random(in: 0...3, using: &rng) : 0 }
        let total = 1 + count + classes.count + keysPerThing.reduce(0, +)
        var slots = Array(1..<total)
        slots.shuffle(using: &rng)
        let thingUID = Array(slots[0..<count])
        let classUID = Array(slots[count..<(count + classes.count)])
        var keyUIDs: [[Int]] = []
        var next = count + classes.count
        for k in keysPerThing {
            keyUIDs.append(Array(slots[next..<(next + k)]))
            next += k
        }
        var objects = [PlistValue](repeating: "$null", count: total)
        for (i, c) in classes.enumerated() {
            var d: [(PlistValue, PlistValue)] = [
                ("$classname", .string(PlistString(c.0))), ("$classes", .array(c.1.map { .string(PlistString($0)) })),
            ]
            if !c.2.isEmpty { d.append(("$classhints", .array(c.2.map { .string(PlistString($0)) }))) }
            objects[classUID[i]] = .dictionary(PlistDictionary(d))
        }
        func ref() -> PlistValue {
            Int.random(in: 0..<10, using: &rng) == 0
                ? .uid(0) : .uid(UInt64(thingUID[Int.random(in: 0..<count, using: &rng)]))
        }
        func refs(_ n: ClosedRange<Int>) -> [PlistValue] { (0..<Int.random(in: n, using: &rng)).map { _ in ref() } }
        func withClass(_ entries: [(PlistValue, PlistValue)], _ cls: Int) -> PlistValue {
            var e = entries
            e.insert(("$class", .uid(UInt64(classUID[cls]))), at: Int.random(in: 0...e.count, using: &rng))
            return .dictionary(PlistDictionary(e))
        }
        for (t, kind) in kinds.enumerated() {
            let uid = thingUID[t]
            switch kind {
            case 0:
                var fields: [(PlistValue, PlistValue)] = []
                let names = ["name", "next", "$weird", "list", "value", "other"].shuffled(using: &rng)
                for name in names.prefix(Int.random(in: 0...4, using: &rng)) {
                    let stored = name.hasPrefix("$") ? "$" + name : name
                    let value: PlistValue
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: value = .int(Int.random(in: -5...1000, using: &rng))
                    case 1: value = .real(Double(Int.random(in: -8...8, using: &rng)) / 4)
                    case 2: value = .bool(Bool.random(using: &rng))
                    case 3: value = .array(refs(0...3))
                    default: value = ref()
                    }
                    fields.append((.string(PlistString(stored)), value))
                }
                for n in 0..<Int.random(in: 0...2, using: &rng) {
                    fields.append((.string(PlistString("$\(n)")), ref()))
                }
                objects[uid] = withClass(fields, Int.random(in: 0...1, using: &rng))
            case 1, 2:
                let cls = 2 + (kind == 1 ? 0 : 2) + Int.random(in: 0...1, using: &rng)
                objects[uid] = withClass([("NS.objects", .array(refs(0...4)))], cls)
            case 3:
                let cls = 6 + Int.random(in: 0...1, using: &rng)
                let members = refs(0...4)
                if Bool.random(using: &rng) {
                    objects[uid] = withClass([("NS.objects", .array(members))], cls)
                } else {
                    // Apple's layout, keys in any order.
                    var e = members.enumerated().map {
                        (PlistValue.string(PlistString("NS.object.\($0.offset)")), $0.element)
                    }
                    e.shuffle(using: &rng)
                    objects[uid] = withClass(e, cls)
                }
            case 4:
                let keys = keyUIDs[t]
                for (j, k) in keys.enumerated() { objects[k] = .string(PlistString("k\(j)")) }
                objects[uid] = withClass(
                    [
                        ("NS.keys", .array(keys.map { .uid(UInt64($0)) })),
                        ("NS.objects", .array(keys.map { _ in ref() })),
                    ],
                    8 + Int.random(in: 0...1, using: &rng))
            case 5:
                objects[uid] = withClass([("NS.string", "mutable")], 10)
            case 6:
                objects[uid] = .string(PlistString(["", "text", "$null", "ñandú"].randomElement(using: &rng) ?? ""))
            default:
                objects[uid] = .int(Int.random(in: 0...99, using: &rng))
            }
        }
        var top: [(PlistValue, PlistValue)] = [("root", .uid(UInt64(thingUID[0])))]
        if Bool.random(using: &rng) { top.append(("aux", ref())) }
        if Bool.random(using: &rng) { top.insert(("$0", ref()), at: 0) }
        self.objects = objects
        self.top = PlistDictionary(top)
    }

    /// Where a value is stored: the entry (`nil`: `$top`), the steps into it, the path naming it,
    /// and whether it is a member of a collection (stored as a reference whatever it is).
    struct Slot {
        var owner: Int?
        var steps: [PlistValue]
        var path: [String]
        var member: Bool
    }

    func stored(_ slot: Slot) -> PlistValue? {
        var v: PlistValue = slot.owner.map { objects[$0] } ?? .dictionary(top)
        for s in slot.steps {
            switch (s, v) {
            case (.string(let k), .dictionary(let d)): v = d[k.string] ?? .null
            case (.integer, .array(let a)): v = a[s.intValue ?? 0]
            default: return nil
            }
        }
        return v
    }

    func className(_ d: PlistDictionary) -> String? {
        guard case .uid(let c)? = d["$class"] else { return nil }
        return objects[Int(c)]["$classname"]?.stringValue
    }

    /// A random slot reached from `$top.root` by up to `depth` steps.
    func randomSlot(_ rng: inout SplitMix64, depth: Int) -> Slot {
        var slot = Slot(owner: nil, steps: ["root"], path: ["root"], member: false)
        for _ in 0..<depth {
            guard case .uid(let u)? = stored(slot), u > 0, case .dictionary(let d) = objects[Int(u)],
                let name = className(d)
            else { break }
            let uid = Int(u)
            var options: [Slot] = []
            switch name {
            case "NSDictionary", "NSMutableDictionary":
                if case .array(let keys)? = d["NS.keys"] {
                    for (j, k) in keys.enumerated() {
                        guard case .uid(let ku) = k, let text = objects[Int(ku)].stringValue else { continue }
                        options.append(
                            Slot(owner: uid, steps: ["NS.objects", .int(j)], path: slot.path + [text], member: true))
                    }
                }
            case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
                if case .array(let members)? = d["NS.objects"] {
                    for i in members.indices {
                        options.append(
                            Slot(owner: uid, steps: ["NS.objects", .int(i)], path: slot.path + ["\(i)"], member: true))
                    }
                } else {
                    var i = 0
                    while d["NS.object.\(i)"] != nil {
                        options.append(
                            Slot(
                                owner: uid, steps: [.string(PlistString("NS.object.\(i)"))], path: slot.path + ["\(i)"],
                                member: true))
                        i += 1
                    }
                }
            default:
                for entry in d.entries {
                    guard let stored = entry.key.stringValue, stored != "$class" else { continue }
                    let component = stored.hasPrefix("$$") ? String(stored.dropFirst()) : stored
                    if case .array(let xs) = entry.value, !xs.isEmpty, Bool.random(using: &rng) {
                        let i = Int.random(in: 0..<xs.count, using: &rng)
                        options.append(
                            Slot(
                                owner: uid, steps: [entry.key, .int(i)], path: slot.path + [component, "\(i)"],
                                member: true))
                    } else {
                        options.append(
                            Slot(owner: uid, steps: [entry.key], path: slot.path + [component], member: false))
                    }
                }
            }
            guard let chosen = options.randomElement(using: &rng) else { break }
            slot = chosen
        }
        return slot
    }

    /// Sets the value at a slot (the generator's own edit, on its own copy).
    mutating func set(_ slot: Slot, to value: PlistValue) {
        func update(_ v: inout PlistValue, _ steps: ArraySlice<PlistValue>) {
            guard let s = steps.first else {
                v = value
                return
            }
            switch (s, v) {
            case (.string(let k), .dictionary(var d)):
                var x = d[k.string] ?? .null
                update(&x, steps.dropFirst())
                d[k.string] = x
                v = .dictionary(d)
            case (.integer, .array(var a)):
                update(&a[s.intValue ?? 0], steps.dropFirst())
                v = .array(a)
            default: break
            }
        }
        if let owner = slot.owner {
            update(&objects[owner], slot.steps[...])
        } else {
            var t = PlistValue.dictionary(top)
            update(&t, slot.steps[...])
            if case .dictionary(let d) = t { top = d }
        }
    }
}

@Suite struct GraphPropertyTests {
    @Test func randomArchivesWriteBackUnchanged() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix64(seed: UInt64(seed))
            let random = RandomArchive(&rng)
            let xml = Bool.random(using: &rng)
            do {
                let data = xml ? try XMLPlist.encode(random.archive) : try BinaryPlistWriter().write(random.archive)
                let graph = try KeyedArchiveGraph(data)
                let out = try graph.encoded()
                #expect(XMLPlist.looksLikeXML(out) == xml, "seed \(seed)")
                #expect(try ArchiveCorpus.plist(out).sameInOrder(random.archive), "seed \(seed)")
                #expect(try StrictGraphComparison.compare(data, out) > 0, "seed \(seed)")
                let again = try KeyedArchiveGraph(out)
                #expect(again.nodes == graph.nodes, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func randomSetsChangeOnlyWhatTheyName() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix64(seed: UInt64(seed))
            var random = RandomArchive(&rng)
            let slot = random.randomSlot(&rng, depth: Int.random(in: 0...4, using: &rng))
            do {
                let data = try BinaryPlistWriter().write(random.archive)
                var graph = try KeyedArchiveGraph(data)
                let text = "edited \(seed)"
                try graph.set(.string(text), at: PlistKeyPath(keys: slot.path))
                let out = try graph.encoded()
                // The expected archive: the string stored where the slot was stored inline, else a new
                // string entry the slot refers to.
                let old = random.stored(slot)
                if !slot.member, let old, old.uidValue == nil {
                    random.set(slot, to: .string(PlistString(text)))
                } else if let u = old?.uidValue, case .dictionary(var d) = random.objects[Int(u)],
                    random.className(d) == "NSMutableString"
                {
                    // A string replacing an NSMutableString stays an NSMutableString.
                    d["NS.string"] = .string(PlistString(text))
                    random.objects.append(.dictionary(d))
                    random.set(slot, to: .uid(UInt64(random.objects.count - 1)))
                } else {
                    random.objects.append(.string(PlistString(text)))
                    random.set(slot, to: .uid(UInt64(random.objects.count - 1)))
                }
                let expected = try BinaryPlistWriter().write(random.archive)
                // (Not read back by the same path: it may have passed through the value it replaced.)
                #expect(try StrictGraphComparison.compare(expected, out) > 0, "seed \(seed), path \(slot.path)")
            } catch {
                Issue.record("seed \(seed), path \(slot.path): \(error)")
            }
        }
    }

    @Test func randomRemovalsChangeOnlyWhatTheyName() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix64(seed: UInt64(seed))
            var random = RandomArchive(&rng)
            let slot = random.randomSlot(&rng, depth: Int.random(in: 1...4, using: &rng))
            // Removing from Apple's ordered-set layout or a dictionary's two lists, or a value without a
            // key, renumbers or touches two lists: kept to plain members and fields here (the editing
            // tests cover those by hand).
            guard slot.path.count > 1, let owner = slot.owner, slot.steps.count <= 2 else { return }
            if case .string(let k)? = slot.steps.first, k.string.hasPrefix("NS.object.") || k.string == "NS.keys" {
                return
            }
            if case .string(let k)? = slot.steps.first, k.string.hasPrefix("$"), !k.string.hasPrefix("$$") { return }
            if case .dictionary(let d) = random.objects[owner], d["NS.keys"] != nil { return }
            do {
                var graph = try KeyedArchiveGraph(try BinaryPlistWriter().write(random.archive))
                try graph.remove(at: PlistKeyPath(keys: slot.path))
                let out = try graph.encoded()
                guard case .dictionary(var d) = random.objects[owner], case .string(let key)? = slot.steps.first else {
                    return
                }
                if slot.steps.count == 2, let i = slot.steps[1].intValue, case .array(var xs)? = d[key.string] {
                    xs.remove(at: i)
                    d[key.string] = .array(xs)
                } else {
                    d[key.string] = nil
                }
                random.objects[owner] = .dictionary(d)
                let expected = try BinaryPlistWriter().write(random.archive)
                #expect(try StrictGraphComparison.compare(expected, out) > 0, "seed \(seed), path \(slot.path)")
            } catch {
                Issue.record("seed \(seed), path \(slot.path): \(error)")
            }
        }
    }
}
