// Tests/KeyedArchiveTests/SecureDecodingTests.swift - Identity, cycles, the class check, hostile archives.

import Foundation
import KeyedArchive
import PropertyList
import Synchronization
import Testing

/// Builds a keyed archive by hand: `$objects[0]` is "$null"; `objects` follow from UID 1.
func handArchive(
    _ objects: [PlistValue], top: [(String, PlistValue)] = [("root", .uid(1))],
    archiver: PlistValue? = "NSKeyedArchiver", version: PlistValue? = 100000
) throws -> Data {
    var root = PlistDictionary()
    if let archiver { root["$archiver"] = archiver }
    if let version { root["$version"] = version }
    root["$top"] = .dictionary(PlistDictionary(top.map { (PlistValue.string($0.0), $0.1) }))
    root["$objects"] = .array(["$null"] + objects)
    return try BinaryPlistWriter().write(.dictionary(root))
}

func classDescription(_ name: String) -> PlistValue {
    ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
}

/// A value type that nests arrays of itself: unbounded nesting through value collections.
struct Chain: KeyedArchiveValue {
    var children: [Chain]
    func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        try children.encodeArchiveValue(to: archiver)
    }
    static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Chain {
        Chain(children: try [Chain].decodeArchiveValue(value, from: unarchiver))
    }
}

final class Spy: KeyedArchivable {
    static let initialisations = Atomic<Int>(0)
    static var initialised: Int { initialisations.load(ordering: .relaxed) }
    init() {}
    func encode(with coder: KeyedArchiver) throws {}
    init(from coder: KeyedUnarchiver) throws { Spy.initialisations.add(1, ordering: .relaxed) }
}

@Suite struct SecureDecodingTests {
    func code(_ body: () throws -> Void) -> KeyedArchiveError? {
        do {
            try body()
            return nil
        } catch let e as KeyedArchiveError {
            return e
        } catch {
            return KeyedArchiveError(.corrupted, "unexpected \(error)")
        }
    }

    @Test func disallowedClassIsRejectedBeforeItsFields() throws {
        // Root is an "Evil" object whose field holds an out-of-range UID: touching it would be badUID.
        let data = try handArchive([
            ["$class": .uid(2), "name": .uid(99)],
            classDescription("Evil"),
        ])
        let e = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: data) })
        // "Evil" maps to no type at all (nor does its chain): unknownClass, still before any field.
        #expect(e.code == .unknownClass)
        #expect(e.className == "Evil")
        #expect(e.object == 1)
        #expect(e.keyPath == ["root"])
    }

    @Test func anotherRegisteredClassIsNotAllowedEither() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Dog(name: "Rex", age: 1))
        let before = Spy.initialised
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(Dog.self, forClassName: "XWZDog")
        let e = try #require(code { _ = try u.decode(Spy.self, forKey: "root") })
        #expect(e.code == .classNotAllowed)
        #expect(e.className == "XWZDog")
        #expect(Spy.initialised == before)
    }

    @Test func cachedInstanceCannotBeReadAsAnotherType() throws {
        let data = try handArchive(
            [
                ["$class": .uid(2), "name": .uid(3), "age": 1],
                classDescription("XWZDog"),
                "Rex",
            ], top: [("a", .uid(1)), ("b", .uid(1))])
        let u = try KeyedUnarchiver(forReadingFrom: data)
        #expect(try u.decode(Dog.self, forKey: "a").name == "Rex")
        let e = try #require(code { _ = try u.decode(Plain.self, forKey: "b") })
        #expect(e.code == .classNotAllowed)
    }

    @Test func decodeWithAllowList() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Dog(name: "Rex", age: 1))
        let u = try KeyedUnarchiver(forReadingFrom: data)
        let any = try u.decodeObject(of: [Plain.self, Dog.self], forKey: "root")
        #expect((any as? Dog)?.name == "Rex")
        let u2 = try KeyedUnarchiver(forReadingFrom: data)
        #expect(code { _ = try u2.decodeObject(of: [Plain.self], forKey: "root") }?.code == .unknownClass)
        let u3 = try KeyedUnarchiver(forReadingFrom: data)
        u3.setClass(Dog.self, forClassName: "XWZDog")
        #expect(code { _ = try u3.decodeObject(of: [Plain.self], forKey: "root") }?.code == .classNotAllowed)
    }

    @Test func cycleWithoutTwoPhaseIsACleanError() throws {
        let a = TreeNode()
        let b = TreeNode(next: a)
        a.next = b
        let data = try KeyedArchiver.archivedData(withRootObject: a)  // archiving cycles is fine
        let e = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: TreeNode.self, from: data) })
        #expect(e.code == .cycle)
        // Hand-built self-reference.
        let selfRef = try handArchive([["$class": .uid(2), "next": .uid(1)], classDescription("TreeNode")])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: TreeNode.self, from: selfRef) }?.code == .cycle)
    }

    @Test func twoPhaseTypesRoundTripCycles() throws {
        let a = GraphNode("a")
        let b = GraphNode("b")
        a.next = b
        b.next = a
        a.children = [a, b]
        b.children = [b]
        let data = try KeyedArchiver.archivedData(withRootObject: a)
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: GraphNode.self, from: data)
        #expect(back.label == "a")
        let bb = try #require(back.next)
        #expect(bb.label == "b")
        #expect(bb.next === back)
        #expect(back.children.count == 2 && back.children[0] === back && back.children[1] === bb)
        #expect(bb.children.first === bb)
    }

    @Test func longTwoPhaseChainsNeedNoStack() throws {
        let head = GraphNode("0")
        var tail = head
        for i in 1..<20_000 {
            let n = GraphNode(String(i))
            tail.next = n
            tail = n
        }
        let data = try KeyedArchiver.archivedData(withRootObject: head)
        var node: GraphNode? = try KeyedUnarchiver.unarchivedObject(ofClass: GraphNode.self, from: data)
        var count = 0
        while let n = node {
            #expect(n.label == String(count))
            count += 1
            node = n.next
        }
        #expect(count == 20_000)
        // Break the chain iteratively so deinit does not recurse.
        var cursor: GraphNode? = head
        while let c = cursor {
            cursor = c.next
            c.next = nil
        }
    }

    @Test func deepNestingIsBounded() throws {
        var head = TreeNode()
        for _ in 0..<600 { head = TreeNode(next: head) }
        let data = try KeyedArchiver.archivedData(withRootObject: head)
        let e = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: TreeNode.self, from: data) })
        #expect(e.code == .limitExceeded)
        var cursor: TreeNode? = head
        while let c = cursor {
            cursor = c.next
            c.next = nil
        }
        // Value collections nested 2000 deep (hand-built, since our archiver bounds value nesting).
        var objects: [PlistValue] = [classDescription("NSArray")]
        for i in 0..<2000 { objects.append(["$class": .uid(1), "NS.objects": [.uid(UInt64(i + 3))]]) }
        objects.append(["$class": .uid(1), "NS.objects": []])
        let deep = try handArchive(objects, top: [("root", .uid(2))])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Chain.self, from: deep) }?.code == .limitExceeded)
    }

    @Test func collectionThatContainsItselfIsACycle() throws {
        let data = try handArchive([["$class": .uid(2), "NS.objects": [.uid(1)]], classDescription("NSArray")])
        #expect(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Chain.self, from: data) }?.code == .cycle)
    }

    @Test func sharedSubtreeExpansionIsBudgeted() throws {
        // 40 levels of [x, x]: 2^40 values if expanded.
        var objects: [PlistValue] = [classDescription("NSArray")]
        for i in 0..<40 {
            objects.append(["$class": .uid(1), "NS.objects": [.uid(UInt64(i + 3)), .uid(UInt64(i + 3))]])
        }
        objects.append(["$class": .uid(1), "NS.objects": []])
        let data = try handArchive(objects, top: [("root", .uid(2))])
        let limits = KeyedArchiveLimits(maxValues: 100_000)
        let e = try #require(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Chain.self, from: data, limits: limits) })
        #expect(e.code == .limitExceeded)
    }

    @Test func classPointingAtANonDictionary() throws {
        let toString = try handArchive([["$class": .uid(2)], "just a string"])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Plain.self, from: toString) }?.code == .corrupted)
        // $class pointing back at the object itself (no $classname there).
        let selfClass = try handArchive([["$class": .uid(1), "value": 1]])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Plain.self, from: selfClass) }?.code == .corrupted)
        // $class not a UID, or UID 0, or out of range.
        for bad: PlistValue in [.integer(2), .uid(0), .uid(77)] {
            let d = try handArchive([["$class": bad, "value": 1], classDescription("Plain")])
            #expect(
                code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Plain.self, from: d) }?.code == .badReference)
        }
        let noClass = try handArchive([["value": 1]])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Plain.self, from: noClass) }?.code == .corrupted)
    }

    @Test func keysAndObjectsLengthMismatch() throws {
        let data = try handArchive([
            ["$class": .uid(2), "NS.keys": [.uid(3), .uid(3)], "NS.objects": [.uid(4)]],
            classDescription("NSDictionary"), "k", 5,
        ])
        let e = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: [String: Int].self, from: data) })
        #expect(e.code == .corrupted)
        #expect(e.object == 1)
        let notArray = try handArchive([["$class": .uid(2), "NS.objects": 7], classDescription("NSArray")])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: [Int].self, from: notArray) }?.code == .corrupted)
    }

    @Test func uidsOutOfRange() throws {
        let root = try handArchive([], top: [("root", .uid(10))])
        let e = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: root) })
        #expect(e.code == .badReference)
        #expect(e.object == 10)
        let field = try handArchive([["$class": .uid(2), "name": .uid(1000), "age": 1], classDescription("XWZDog")])
        let f = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: field) })
        #expect(f.code == .badReference)
        #expect(f.keyPath == ["root", "name"])
        #expect(f.className == "XWZDog")
    }

    @Test func wrongTopLevel() throws {
        let cases: [Data] = [
            try handArchive([], archiver: "NSArchiver"),
            try handArchive([], archiver: nil),
            try handArchive([], version: 10000),
            try handArchive([], version: nil),
            try BinaryPlistWriter().write([
                "$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": .uid(0)],
            ]),
            try BinaryPlistWriter().write(["a", "b"]),
        ]
        for d in cases {
            #expect(code { _ = try KeyedUnarchiver(forReadingFrom: d) }?.code == .notAKeyedArchive)
        }
        let e = try #require(code { _ = try KeyedUnarchiver(forReadingFrom: Data("not a plist".utf8)) })
        #expect(e.code == .notAPropertyList)
        #expect(e.underlying?.code == .notAPropertyList)
    }

    @Test func typeMismatchesAndMissingKeys() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: makePerson("Ada", age: 300))
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(Dog.self, forClassName: "XWZPerson")  // Dog reads "name" and "age": fine
        #expect(try u.decode(Dog.self, forKey: "root").age == 300)

        final class Narrow: KeyedArchivable {
            static let archiveClassName = "XWZPerson"
            init() {}
            func encode(with coder: KeyedArchiver) throws {}
            init(from coder: KeyedUnarchiver) throws { _ = try coder.decode(Int8.self, forKey: "age") }
        }
        let e1 = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Narrow.self, from: data) })
        #expect(e1.code == .typeMismatch)
        #expect(e1.keyPath == ["root", "age"])

        final class WrongType: KeyedArchivable {
            static let archiveClassName = "XWZPerson"
            init() {}
            func encode(with coder: KeyedArchiver) throws {}
            init(from coder: KeyedUnarchiver) throws { _ = try coder.decode(Int.self, forKey: "name") }
        }
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: WrongType.self, from: data) }?.code
                == .typeMismatch)

        final class Missing: KeyedArchivable {
            static let archiveClassName = "XWZPerson"
            init() {}
            func encode(with coder: KeyedArchiver) throws {}
            init(from coder: KeyedUnarchiver) throws {
                #expect(try coder.decodeIfPresent(String.self, forKey: "nickname") == nil)
                #expect(try coder.decode(String?.self, forKey: "nickname") == nil)
                _ = try coder.decode(String.self, forKey: "nickname")
            }
        }
        let e3 = try #require(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Missing.self, from: data) })
        #expect(e3.code == .keyNotFound)
        #expect(e3.keyPath == ["root", "nickname"])

        let nullRoot = try handArchive([], top: [("root", .uid(0))])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: nullRoot) }?.code == .typeMismatch)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Dog?.self, from: nullRoot) == nil)
    }

    @Test func malformedFoundationValues() throws {
        let shortUUID = try handArchive([
            ["$class": .uid(2), "NS.uuidbytes": .data(Data([1, 2]))], classDescription("NSUUID"),
        ])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: UUID.self, from: shortUUID) }?.code == .corrupted)
        let dateAsArray = try handArchive([["$class": .uid(2), "NS.objects": []], classDescription("NSArray")])
        #expect(
            code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Date.self, from: dateAsArray) }?.code
                == .classNotAllowed)
        let selfBase = try handArchive([
            ["$class": .uid(2), "NS.base": .uid(1), "NS.relative": .uid(3)], classDescription("NSURL"), "x",
        ])
        #expect(code { _ = try KeyedUnarchiver.unarchivedObject(ofClass: URL.self, from: selfBase) }?.code == .cycle)
    }

    @Test func everySingleByteMutationGivesAValueOrATypedError() throws {
        let rex = Dog(name: "Rex", age: 3)
        let p = makePerson("Ada", age: 36, dog: rex)
        p.friends = [makePerson("Bob", age: 7, dog: rex)]
        let data = try KeyedArchiver.archivedData(withRootObject: p)
        var outcomes = [String: Int]()
        for i in 8..<data.count {
            for delta: UInt8 in [1, 0x80, 0xFF] {
                var m = data
                m[m.startIndex + i] &+= delta
                do {
                    _ = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: m)
                    outcomes["ok", default: 0] += 1
                } catch let e as KeyedArchiveError {
                    outcomes[e.code.description, default: 0] += 1
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == (data.count - 8) * 3)
    }
}
