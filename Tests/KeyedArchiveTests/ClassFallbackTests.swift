// Tests/KeyedArchiveTests/ClassFallbackTests.swift - Polymorphic collections, the fallback along
// `$classes` and `$classhints`, the unknown-class hook, with Foundation on Linux as the other side.

import Foundation
import KeyedArchive
import PropertyList
import Testing

final class HierDog: HierAnimal {
    override class var archiveClassName: String { "XWZHierDog" }
    var good: Bool
    init(name: String, good: Bool) {
        self.good = good
        super.init(name: name)
    }
    override func encode(with coder: KeyedArchiver) throws {
        try super.encode(with: coder)
        try coder.encode(good, forKey: "good")
    }
    required init(from coder: KeyedUnarchiver) throws {
        good = try coder.decodeBool(forKey: "good")
        try super.init(from: coder)
    }
}

/// Foundation's side of the same hierarchy (NSCoding, archived under its Swift names).
class FAnimal: NSObject, NSCoding {
    var name: String
    init(name: String) { self.name = name }
    func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
    }
}

final class FCat: FAnimal {
    var lives = 0
    init(name: String, lives: Int) {
        self.lives = lives
        super.init(name: name)
    }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(lives, forKey: "lives")
    }
    required init?(coder: NSCoder) {
        lives = coder.decodeInteger(forKey: "lives")
        super.init(coder: coder)
    }
}

@Suite("Class fallback and polymorphic collections")
struct ClassFallbackTests {
    func zoo() throws -> Data {
        let tom = HierCat(name: "Tom", lives: 7)
        let animals: [HierAnimal] = [tom, HierDog(name: "Rex", good: true), HierAnimal(name: "Generic"), tom]
        return try KeyedArchiver.archivedData(withRootObject: animals)
    }

    @Test func polymorphicArrayDecodesEachElementAsItsRegisteredClass() throws {
        let u = try KeyedUnarchiver(forReadingFrom: try zoo())
        u.setClass(HierCat.self, forClassName: "XWZCat")
        u.setClass(HierDog.self, forClassName: "XWZHierDog")
        let animals = try u.decode([HierAnimal].self, forKey: KeyedArchiver.rootObjectKey)
        #expect(animals.count == 4)
        #expect((animals[0] as? HierCat)?.lives == 7)
        #expect((animals[1] as? HierDog)?.good == true)
        #expect(type(of: animals[2]) == HierAnimal.self)
        #expect(animals[0] === animals[3], "the shared cat stays one instance")
    }

    @Test func globalRegistrationWorksToo() throws {
        KeyedUnarchiver.setClass(HierDog.self, forClassName: "XWZHierDog")
        defer { KeyedUnarchiver.setClass(nil, forClassName: "XWZHierDog") }
        let u = try KeyedUnarchiver(forReadingFrom: try zoo())
        u.setClass(HierCat.self, forClassName: "XWZCat")
        let animals = try u.decode([HierAnimal].self, forKey: "root")
        #expect(animals[1] is HierDog)
    }

    @Test func unregisteredSubclassFallsBackToItsSuperclass() throws {
        // Nothing registered: XWZCat's chain [XWZCat, XWZAnimal, NSObject] reaches the type the
        // call site asks for.
        let animals = try KeyedUnarchiver.unarchivedObject(ofClass: [HierAnimal].self, from: try zoo())
        #expect(animals.map(\.name) == ["Tom", "Rex", "Generic", "Tom"])
        #expect(animals.allSatisfy { type(of: $0) == HierAnimal.self })
        #expect(animals[0] === animals[3])
    }

    func archive(className: String, chain: [String], hints: [String]? = nil) throws -> Data {
        var description: [(String, PlistValue)] = [
            ("$classname", .string(className)), ("$classes", .array(chain.map { .string($0) })),
        ]
        if let hints { description.append(("$classhints", .array(hints.map { .string($0) }))) }
        let objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([(.string("$class"), .uid(2)), (.string("name"), .uid(3))])),
            .dictionary(PlistDictionary(description.map { (.string($0.0), $0.1) })),
            .string("Felix"),
        ]
        let root = PlistValue.dictionary(
            PlistDictionary([
                (.string("$archiver"), .string("NSKeyedArchiver")), (.string("$version"), .integer(100_000)),
                (.string("$top"), .dictionary(PlistDictionary([(.string("root"), .uid(1))]))),
                (.string("$objects"), .array(objects)),
            ]))
        return try BinaryPlistWriter().write(root)
    }

    @Test func classHintsAreTriedAfterTheChain() throws {
        let data = try archive(className: "XWZLynx", chain: ["XWZLynx", "NSObject"], hints: ["XWZAnimal"])
        let animal = try KeyedUnarchiver.unarchivedObject(ofClass: HierAnimal.self, from: data)
        #expect(animal.name == "Felix")
    }

    @Test func theHookDecidesWhenNothingElseDoes() throws {
        let data = try archive(className: "XWZMystery", chain: ["XWZMystery", "XWZCreature", "NSObject"])
        var seen: [String] = []
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.unknownClassHandler = { name, chain in
            seen = [name] + chain
            return HierAnimal.self
        }
        #expect(try u.decode(HierAnimal.self, forKey: "root").name == "Felix")
        #expect(seen == ["XWZMystery", "XWZMystery", "XWZCreature", "NSObject"])

        // A hook's answer outside what the call site asked for is refused.
        let u2 = try KeyedUnarchiver(forReadingFrom: data)
        u2.unknownClassHandler = { _, _ in Dog.self }
        let e2 = try #require(throws: KeyedArchiveError.self) { try u2.decode(HierAnimal.self, forKey: "root") }
        #expect(e2.code == .classNotAllowed)

        // No hook (or a hook answering nil): unknownClass naming the class and its chain.
        for handler: ((String, [String]) -> (any KeyedArchivable.Type)?)? in [nil, { _, _ in nil }] {
            let u3 = try KeyedUnarchiver(forReadingFrom: data)
            u3.unknownClassHandler = handler
            let e3 = try #require(throws: KeyedArchiveError.self) { try u3.decode(HierAnimal.self, forKey: "root") }
            #expect(e3.code == .unknownClass)
            #expect(e3.className == "XWZMystery")
            #expect(e3.detail.contains("XWZCreature"))
        }
    }

    @Test func aFallbackNeverLeavesWhatTheCallSiteAsked() throws {
        // XWZCat's superclass XWZAnimal is known here, but a Dog was asked for.
        let data = try KeyedArchiver.archivedData(withRootObject: HierCat(name: "Tom", lives: 7))
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(HierAnimal.self, forClassName: "XWZAnimal")
        let e = try #require(throws: KeyedArchiveError.self) { try u.decode(Dog.self, forKey: "root") }
        #expect(e.code == .classNotAllowed)
        #expect(e.className == "XWZCat")
        // With an explicit allow-list, the fallback is checked against the list.
        let u2 = try KeyedUnarchiver(forReadingFrom: data)
        let any = try u2.decodeObject(of: [Dog.self, HierAnimal.self], forKey: "root")
        #expect(any is HierAnimal && !(any is HierCat))
        let u3 = try KeyedUnarchiver(forReadingFrom: data)
        let e3 = try #require(throws: KeyedArchiveError.self) { try u3.decodeObject(of: [Dog.self], forKey: "root") }
        #expect(e3.code == .unknownClass)
    }

    @Test func foundationReadsOurPolymorphicArrayWithTheRightClasses() throws {
        let u = try NSKeyedUnarchiver(forReadingFrom: try zoo())
        u.requiresSecureCoding = false
        u.setClass(FCat.self, forClassName: "XWZCat")
        u.setClass(FAnimal.self, forClassName: "XWZAnimal")
        u.setClass(FAnimal.self, forClassName: "XWZHierDog")
        let animals = try #require(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [FAnimal])
        #expect(animals.count == 4)
        #expect((animals[0] as? FCat)?.lives == 7)
        #expect(animals[1].name == "Rex" && !(animals[1] is FCat))
        #expect(animals[0] === animals[3])
    }

    @Test func foundationsSubclassFallsBackToOurSuperclass() throws {
        let tom = FCat(name: "Tom", lives: 9)
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: NSArray(array: [tom, FAnimal(name: "Generic"), tom]), requiringSecureCoding: false)
        // Foundation writes $classes [<module>.FCat, <module>.FAnimal, NSObject]; only the
        // superclass is mapped here.
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(HierAnimal.self, forClassName: NSStringFromClass(FAnimal.self))
        let animals = try u.decode([HierAnimal].self, forKey: "root")
        #expect(animals.map(\.name) == ["Tom", "Generic", "Tom"])
        #expect(animals[0] === animals[2])
        // Mapping the subclass as well gives the subclass.
        let u2 = try KeyedUnarchiver(forReadingFrom: data)
        u2.setClass(HierAnimal.self, forClassName: NSStringFromClass(FAnimal.self))
        u2.setClass(HierCat.self, forClassName: NSStringFromClass(FCat.self))
        let typed = try u2.decode([HierAnimal].self, forKey: "root")
        #expect((typed[0] as? HierCat)?.lives == 9)
    }

    @Test func classesThatAreNotAnArrayOfStringsAreCorrupted() throws {
        for bad: PlistValue in [.string("XWZCat"), .array([.string("XWZCat"), .integer(3)])] {
            let objects: [PlistValue] = [
                .string("$null"),
                .dictionary(PlistDictionary([(.string("$class"), .uid(2))])),
                .dictionary(PlistDictionary([(.string("$classname"), .string("XWZCat")), (.string("$classes"), bad)])),
            ]
            let root = PlistValue.dictionary(
                PlistDictionary([
                    (.string("$archiver"), .string("NSKeyedArchiver")), (.string("$version"), .integer(100_000)),
                    (.string("$top"), .dictionary(PlistDictionary([(.string("root"), .uid(1))]))),
                    (.string("$objects"), .array(objects)),
                ]))
            let data = try BinaryPlistWriter().write(root)
            let e = try #require(throws: KeyedArchiveError.self) {
                try KeyedUnarchiver.unarchivedObject(ofClass: HierCat.self, from: data)
            }
            #expect(e.code == .corrupted)
            #expect(e.object == 2)
            let g = try #require(throws: KeyedArchiveError.self) { try KeyedArchiveGraph(data) }
            #expect(g.code == .corrupted && g.object == 2)
        }
    }
}
