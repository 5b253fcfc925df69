// Tests/KeyedArchiveMacrosTests/MacroCallSiteTests.swift - The issue's call sites, compiled and run.
//
// Each class here is archived by `@KeyedArchivable` only. The tests check what the archive holds
// (class names, keys, sharing) through the plist layer, that a hand-written conformance of the
// same class writes the same bytes, and that Foundation's NSKeyedArchiver on Linux reads what we
// write and writes what we read.

import Foundation
import KeyedArchiveMacros
import PropertyList
import Testing

@KeyedArchivable("XWZDog")
final class Dog {
    var name: String
    var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

@KeyedArchivable("XWZPerson")
final class Person {
    var name: String = ""
    @ArchiveKey("years") var age: Int = 0
    var dog: Dog?
    var friends: [Person] = []
    var nickname: String = "none"
    @ArchiveIgnored var cache: [String: Int] = [:]
    var displayName: String { name.uppercased() }
    init() {}
}

@KeyedArchivable("XWZAnimal") class Animal {
    var name = ""
    required init() {}
}
@KeyedArchivable("XWZCat") final class Cat: Animal { var lives = 9 }
@KeyedArchivable("XWZBird") final class Bird: Animal { var canFly = true }

@KeyedArchivable("XWZNode", cycles: true)
final class Node {
    var parent: Node?
    var children: [Node] = []
    var label = ""
    init() {}
}

/// A back-reference held weakly: archived conditionally, as `encodeConditionalObject:forKey:` does.
@KeyedArchivable("XWZFolder", cycles: true)
final class Folder {
    var name = ""
    weak var parent: Folder?
    var children: [Folder] = []
    init() {}
}

/// Properties with defaults, for `$null` and missing keys.
@KeyedArchivable("XWZDefaults")
final class Defaults {
    var tags: Set<String> = ["default"]
    var pages: Int? = 99
    var absent: Int? = 5
}

/// Required `let` properties, a property without a type annotation, a default name.
@KeyedArchivable
final class Reading {
    let title: String
    let pages: Int?
    var rating = 3.5
    var tags: Set<String> = []
    init(title: String, pages: Int?) {
        self.title = title
        self.pages = pages
    }
}

/// The same fields as `Person`, written by hand: the archives must be byte-identical.
final class HandPerson: KeyedArchivable {
    static var archiveClassName: String { "XWZPerson" }
    var name: String = ""
    var age: Int = 0
    var dog: HandDog?
    var friends: [HandPerson] = []
    var nickname: String = "none"
    init() {}
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "years")
        try coder.encode(dog, forKey: "dog")
        try coder.encode(friends, forKey: "friends")
        try coder.encode(nickname, forKey: "nickname")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "years")
        dog = try coder.decodeIfPresent(HandDog.self, forKey: "dog")
        friends = try coder.decode([HandPerson].self, forKey: "friends")
        nickname = try coder.decodeIfPresent(String.self, forKey: "nickname") ?? "none"
    }
}

final class HandDog: KeyedArchivable {
    static var archiveClassName: String { "XWZDog" }
    var name: String
    var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
    }
}

// MARK: - Foundation's side (NSCoding by hand, as an Objective-C program would)

final class FDog: NSObject, NSCoding {
    var name: String
    var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        age = coder.decodeInteger(forKey: "age")
    }
}

final class FPerson: NSObject, NSCoding {
    var name = ""
    var age = 0
    var dog: FDog?
    var friends: [FPerson] = []
    var nickname = "none"
    override init() {}
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "years")
        coder.encode(dog, forKey: "dog")
        coder.encode(friends, forKey: "friends")
        coder.encode(nickname, forKey: "nickname")
    }
    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? "?"
        age = coder.decodeInteger(forKey: "years")
        dog = coder.decodeObject(forKey: "dog") as? FDog
        friends = coder.decodeObject(forKey: "friends") as? [FPerson] ?? []
        nickname = coder.decodeObject(forKey: "nickname") as? String ?? "?"
    }
}

class FAnimal: NSObject, NSCoding {
    var name = ""
    override init() {}
    func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
    required init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? "?"
        super.init()
    }
}

final class FCat: FAnimal {
    var lives = 0
    override init() { super.init() }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(lives, forKey: "lives")
    }
    required init?(coder: NSCoder) {
        lives = coder.decodeInteger(forKey: "lives")
        super.init(coder: coder)
    }
}

// MARK: - Helpers

/// Two people sharing a dog, each the other's friend's friend: `[alice, bob]`.
func sampleGraph() -> [Person] {
    let rex = Dog(name: "Rex", age: 3)
    let alice = Person()
    alice.name = "Alice"
    alice.age = 31
    alice.dog = rex
    alice.nickname = "Al"
    alice.cache = ["x": 1]
    let bob = Person()
    bob.name = "Bob"
    bob.age = 45
    bob.dog = rex
    bob.friends = [alice]
    alice.friends = []
    return [alice, bob]
}

/// The archive's `$objects` entry of `root`'s class `name`, through the plist layer.
func archivedObjects(_ data: Data) throws -> [PlistValue] {
    let top = try BinaryPlistDocument(data).value()
    guard case .dictionary(let d) = top, case .array(let objects)? = d["$objects"] else {
        Issue.record("not a keyed archive")
        return []
    }
    return objects
}

/// The `$classes` chains of every class dictionary in the archive.
func classChains(_ data: Data) throws -> [[String]] {
    try archivedObjects(data).compactMap { object in
        guard case .dictionary(let d) = object, case .array(let classes)? = d["$classes"] else { return nil }
        return classes.compactMap { $0.stringValue }
    }
}

func foundationUnarchiver(_ data: Data) throws -> NSKeyedUnarchiver {
    let u = try NSKeyedUnarchiver(forReadingFrom: data)
    u.requiresSecureCoding = false
    u.decodingFailurePolicy = .setErrorAndReturn
    u.setClass(FPerson.self, forClassName: "XWZPerson")
    u.setClass(FDog.self, forClassName: "XWZDog")
    u.setClass(FAnimal.self, forClassName: "XWZAnimal")
    u.setClass(FCat.self, forClassName: "XWZCat")
    return u
}

// MARK: - Tests

@Suite struct MacroCallSiteTests {
    @Test func personAndDogRoundTripWithSharing() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: sampleGraph())
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: [Person].self, from: data)
        try #require(back.count == 2)
        let (alice, bob) = (back[0], back[1])
        #expect(alice.name == "Alice" && alice.age == 31 && alice.nickname == "Al")
        #expect(bob.name == "Bob" && bob.age == 45 && bob.nickname == "none")
        #expect(alice.cache.isEmpty, "@ArchiveIgnored is never archived")
        #expect(alice.dog?.name == "Rex" && alice.dog?.age == 3)
        let (aliceDog, bobDog) = (try #require(alice.dog), try #require(bob.dog))
        #expect(aliceDog === bobDog, "a shared dog decodes as one instance")
        #expect(bob.friends.count == 1 && bob.friends[0] === alice, "a shared person decodes as one instance")
        #expect(alice.displayName == "ALICE")
    }

    @Test func keysAreTheDeclaredOnes() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: sampleGraph()[0])
        let objects = try archivedObjects(data)
        let person = try #require(
            objects.first { object in
                if case .dictionary(let d) = object { return d["years"] != nil }
                return false
            }
        )
        guard case .dictionary(let fields) = person else { return }
        #expect(
            Set(fields.keys) == Set(["$class", "name", "years", "dog", "friends", "nickname"].map(PlistValue.string)))
        #expect(fields["years"] == .integer(31))
    }

    @Test func byteIdenticalToTheHandWrittenConformance() throws {
        let ours = try KeyedArchiver.archivedData(withRootObject: sampleGraph())
        let rex = HandDog(name: "Rex", age: 3)
        let alice = HandPerson()
        (alice.name, alice.age, alice.dog, alice.nickname) = ("Alice", 31, rex, "Al")
        let bob = HandPerson()
        (bob.name, bob.age, bob.dog, bob.friends) = ("Bob", 45, rex, [alice])
        let hand = try KeyedArchiver.archivedData(withRootObject: [alice, bob])
        #expect(ours == hand)
    }

    @Test func foundationReadsWhatTheMacroWrites() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: sampleGraph())
        let u = try foundationUnarchiver(data)
        let people = try #require(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [FPerson])
        #expect(u.error == nil)
        try #require(people.count == 2)
        #expect(people.map(\.name) == ["Alice", "Bob"])
        #expect(people.map(\.age) == [31, 45])
        #expect(people.map(\.nickname) == ["Al", "none"])
        #expect(people[0].dog != nil && people[0].dog === people[1].dog)
        #expect(people[1].friends.first === people[0])
    }

    @Test func theMacroReadsWhatFoundationWrites() throws {
        let rex = FDog(name: "Rex", age: 3)
        let alice = FPerson()
        (alice.name, alice.age, alice.dog) = ("Alice", 31, rex)
        let bob = FPerson()
        (bob.name, bob.age, bob.dog, bob.friends, bob.nickname) = ("Bob", 45, rex, [alice], "B")
        let data = try NSKeyedArchiver.archivedData(withRootObject: [alice, bob], requiringSecureCoding: false)
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(Person.self, forClassName: NSStringFromClass(FPerson.self))
        u.setClass(Dog.self, forClassName: NSStringFromClass(FDog.self))
        let people = try u.decode([Person].self, forKey: KeyedArchiver.rootObjectKey)
        try #require(people.count == 2)
        #expect(people.map(\.name) == ["Alice", "Bob"])
        #expect(people.map(\.nickname) == ["none", "B"])
        #expect(people[0].dog === people[1].dog && people[0].dog?.name == "Rex")
        #expect(people[1].friends.first === people[0])
    }

    @Test func subclassesWriteTheirChainAndDecodePolymorphically() throws {
        let cat = Cat()
        (cat.name, cat.lives) = ("Tom", 7)
        let bird = Bird()
        (bird.name, bird.canFly) = ("Tweety", false)
        let animals: [Animal] = [cat, bird, cat]
        let data = try KeyedArchiver.archivedData(withRootObject: animals)
        let chains = try classChains(data)
        #expect(chains.contains(["XWZCat", "XWZAnimal", "NSObject"]))
        #expect(chains.contains(["XWZBird", "XWZAnimal", "NSObject"]))

        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(Cat.self, forClassName: "XWZCat")
        u.setClass(Bird.self, forClassName: "XWZBird")
        let back = try u.decode([Animal].self, forKey: KeyedArchiver.rootObjectKey)
        try #require(back.count == 3)
        let backCat = try #require(back[0] as? Cat)
        let backBird = try #require(back[1] as? Bird)
        #expect(backCat.name == "Tom" && backCat.lives == 7, "the superclass's fields are decoded too")
        #expect(backBird.name == "Tweety" && !backBird.canFly)
        #expect(back[2] === backCat)
    }

    @Test func subclassesCrossToFoundationAndBack() throws {
        let cat = Cat()
        (cat.name, cat.lives) = ("Tom", 7)
        let data = try KeyedArchiver.archivedData(withRootObject: cat)
        let u = try foundationUnarchiver(data)
        let theirs = try #require(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FCat)
        #expect(theirs.name == "Tom" && theirs.lives == 7)

        let again = try NSKeyedArchiver.archivedData(withRootObject: theirs, requiringSecureCoding: false)
        let ours = try KeyedUnarchiver(forReadingFrom: again)
        ours.setClass(Cat.self, forClassName: NSStringFromClass(FCat.self))
        let back = try ours.decode(Animal.self, forKey: KeyedArchiver.rootObjectKey)
        let backCat = try #require(back as? Cat)
        #expect(backCat.name == "Tom" && backCat.lives == 7)
    }

    @Test func cyclesRoundTrip() throws {
        let root = Node()
        root.label = "root"
        for i in 0..<3 {
            let child = Node()
            child.label = "c\(i)"
            child.parent = root
            root.children.append(child)
        }
        let data = try KeyedArchiver.archivedData(withRootObject: root)
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data)
        #expect(back.label == "root" && back.parent == nil)
        #expect(back.children.map(\.label) == ["c0", "c1", "c2"])
        #expect(back.children.allSatisfy { $0.parent === back })
        for node in [back] + back.children { node.children.removeAll() }  // break the cycle
    }

    @Test func weakBackReferencesAreConditional() throws {
        let root = Folder()
        root.name = "/"
        let etc = Folder()
        (etc.name, etc.parent) = ("etc", root)
        root.children = [etc]
        // The whole tree: the parent is archived (as the root), so the child's reference resolves.
        let tree = try KeyedArchiver.archivedData(withRootObject: root)
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Folder.self, from: tree)
        #expect(back.children.first?.parent === back)
        // The child alone: its parent is archived nowhere else, so the weak reference is `$null`
        // and the archive holds one folder, not the whole tree above it.
        let alone = try KeyedArchiver.archivedData(withRootObject: etc)
        let child = try KeyedUnarchiver.unarchivedObject(ofClass: Folder.self, from: alone)
        #expect(child.name == "etc" && child.parent == nil)
        let folders = try archivedObjects(alone).filter { object in
            if case .dictionary(let d) = object { return d["children"] != nil }
            return false
        }
        #expect(folders.count == 1)
        _ = root
    }

    @Test func requiredLetsOptionalsAndInferredTypes() throws {
        let book = Reading(title: "Dune", pages: nil)
        book.rating = 4.5
        book.tags = ["sf"]
        let data = try KeyedArchiver.archivedData(withRootObject: book)
        #expect(try classChains(data).first == ["Reading", "NSObject"], "the default class name is the type name")
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Reading.self, from: data)
        #expect(back.title == "Dune" && back.pages == nil && back.rating == 4.5 && back.tags == ["sf"])
    }

    @Test func olderArchivesKeepDefaultsAndMissingRequiredKeysAreNamed() throws {
        // An archive of an older Person: no "nickname", no "friends".
        let old = try archive(className: "XWZPerson", fields: ["name": "Ann", "years": 7])
        let person = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: old)
        #expect(person.name == "Ann" && person.age == 7 && person.nickname == "none" && person.friends.isEmpty)

        // A Reading without its required "title".
        let broken = try archive(className: "Reading", fields: ["rating": 1.0])
        #expect {
            _ = try KeyedUnarchiver.unarchivedObject(ofClass: Reading.self, from: broken)
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == .keyNotFound && "\(error)".contains("title")
        }
    }

    @Test func nullKeepsADefaultAndClearsAnOptional() throws {
        // An Objective-C writer's `encodeObject:nil` stores `$null`: a non-optional property with a
        // default keeps it (as `decodeObjectForKey:` returning nil and `?? default` would), an
        // optional one becomes nil, a missing key leaves either as it is.
        let data = try archive(className: "XWZDefaults", fields: ["tags": Set<String>?.none, "pages": Int?.none])
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Defaults.self, from: data)
        #expect(back.tags == ["default"], "$null keeps a non-optional default")
        #expect(back.pages == nil, "$null sets an optional to nil")
        #expect(back.absent == 5, "a missing key keeps an optional's default")
        // A value of another type is still an error, naming the key.
        let wrong = try archive(className: "XWZDefaults", fields: ["tags": "text"])
        #expect {
            _ = try KeyedUnarchiver.unarchivedObject(ofClass: Defaults.self, from: wrong)
        } throws: { error in
            (error as? KeyedArchiveError)?.code == .typeMismatch
                && (error as? KeyedArchiveError)?.keyPath.last == "tags"
        }
    }

    @Test func aRenamedPropertyReadsOldArchivesUnderItsKey() throws {
        // `age` is stored under "years": an archive that has "years" fills it, one with "age" does not.
        let withYears = try archive(className: "XWZPerson", fields: ["name": "A", "years": 40])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: withYears).age == 40)
        let withAge = try archive(className: "XWZPerson", fields: ["name": "A", "age": 40])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: withAge).age == 0)
    }
}

/// A one-object archive, as an older version of a class wrote it: the root is an object of class
/// `className` with `fields`, written by hand through our archiver's class-name mapping.
func archive(className: String, fields: KeyValuePairs<String, any KeyedArchiveValue>) throws -> Data {
    let archiver = KeyedArchiver()
    archiver.setClassName(className, for: FieldBag.self)
    try archiver.encode(FieldBag(Array(fields)), forKey: KeyedArchiver.rootObjectKey)
    return try archiver.finishEncoding()
}

final class FieldBag: KeyedArchivable {
    let fields: [(String, any KeyedArchiveValue)]
    init(_ fields: [(String, any KeyedArchiveValue)]) { self.fields = fields }
    func encode(with coder: KeyedArchiver) throws {
        for (key, value) in fields { try coder.encode(value, forKey: key) }
    }
    init(from coder: KeyedUnarchiver) throws {
        throw KeyedArchiveError(.unencodable, "FieldBag is written only")
    }
}
