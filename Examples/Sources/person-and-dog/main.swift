// person-and-dog - A Person with a Dog, and several objects under their own keys in one archive.
//
// `KeyedArchivable` is the NSCoding of this package: a class writes its fields in
// `encode(with:)` and reads them back in `init(from:)`. An instance referenced from several
// places is archived once and comes back as one shared instance, so `===` still holds after a
// round trip. One archive can hold any number of top-level keys (in `$top`), like
// `NSKeyedArchiver.encode(_:forKey:)`.
//
// Run: swift run person-and-dog

import Foundation
import KeyedArchive

final class Dog: KeyedArchivable {
    var name: String
    var breed: String

    init(name: String, breed: String) {
        self.name = name
        self.breed = breed
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(breed, forKey: "breed")
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        breed = try coder.decode(String.self, forKey: "breed")
    }
}

final class Person: KeyedArchivable {
    var name: String
    var age: Int
    var dog: Dog?  // optional: `nil` is archived as `$null`

    init(name: String, age: Int, dog: Dog?) {
        self.name = name
        self.age = age
        self.dog = dog
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")  // scalars are stored inline, as encodeInteger does
        try coder.encode(dog, forKey: "dog")  // objects are stored once and referenced by UID
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        dog = try coder.decodeIfPresent(Dog.self, forKey: "dog")
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

// 1. One root object: a person and her dog.
let rex = Dog(name: "Rex", breed: "Border Collie")
let ada = Person(name: "Ada", age: 36, dog: rex)
let single = try KeyedArchiver.archivedData(withRootObject: ada)
print("archived Ada and Rex under \"root\": \(single.count) bytes")
let back = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: single)
check(back.name == "Ada" && back.age == 36, "Ada read back")
check(back.dog?.name == "Rex" && back.dog?.breed == "Border Collie", "her dog came along")

// 2. Several objects under their own keys. Rex is referenced three times but stored once.
let bob = Person(name: "Bob", age: 29, dog: rex)  // Bob walks the same dog
let carol = Person(name: "Carol", age: 41, dog: nil)
let archiver = KeyedArchiver()
try archiver.encode(ada, forKey: "owner")
try archiver.encode(bob, forKey: "walker")
try archiver.encode(carol, forKey: "neighbour")
try archiver.encode(rex, forKey: "dog")
try archiver.encode("Saturday walk", forKey: "title")  // plain values can sit at the top too
let several = try archiver.finishEncoding()
print("archived 3 people, 1 dog and a title under 5 keys: \(several.count) bytes")

let unarchiver = try KeyedUnarchiver(forReadingFrom: several)
let owner = try unarchiver.decode(Person.self, forKey: "owner")
let walker = try unarchiver.decode(Person.self, forKey: "walker")
let neighbour = try unarchiver.decode(Person.self, forKey: "neighbour")
let dog = try unarchiver.decode(Dog.self, forKey: "dog")
let title = try unarchiver.decode(String.self, forKey: "title")
check(owner.name == "Ada" && walker.name == "Bob" && neighbour.name == "Carol", "each person under their key")
check(owner.dog === dog && walker.dog === dog, "one Rex, shared by owner, walker and the \"dog\" key")
check(neighbour.dog == nil, "Carol has no dog ($null)")
check(title == "Saturday walk", "the title")
check(!unarchiver.containsValue(forKey: "cat"), "no \"cat\" key")
check(try unarchiver.decodeIfPresent(Dog.self, forKey: "cat") == nil, "decodeIfPresent gives nil for it")

// 3. Asking for the wrong class fails before any field is read (secure decoding).
do {
    _ = try KeyedUnarchiver(forReadingFrom: several).decode(Dog.self, forKey: "owner")
    check(false, "a Person must not decode as a Dog")
} catch let error as KeyedArchiveError {
    print("  decoding \"owner\" as a Dog: \(error)")
    // Nothing maps "Person" here (nor its superclasses): unknownClass. Had "Person" been mapped to
    // a type that is not a Dog, it would be classNotAllowed; either way no field is read.
    check(error.code == .unknownClass && error.className == "Person", "rejected with unknownClass")
}

// 4. What the archive looks like inside (no Swift types needed): $top keys and the object graph.
let graph = try KeyedArchiveGraph(several, requiredTopKey: nil)
print("  $top keys: \(graph.top.map(\.key).joined(separator: ", "))")
let classes = graph.nodes.compactMap { node -> String? in
    if case .object(let object) = node { return "\(object.className)#\(object.uid)" }
    return nil
}
print("  objects in $objects: \(classes.joined(separator: ", "))")
check(classes.filter { $0.hasPrefix("Dog#") }.count == 1, "Rex is stored once")
print("person-and-dog: OK")
