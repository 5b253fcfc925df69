// macro-archivable - The seeds' scenarios with `@KeyedArchivable` instead of hand-written coding.
//
// Every tutorial on NSCoding ends up wishing the `encode(with:)` / `init(coder:)` pair away. The
// macro writes it at compile time: one `encode(_:forKey:)` and one decode per stored property, in
// declaration order, no reflection. Each scenario below puts a hand-written class (as in the other
// examples) beside its one-line macro twin and checks that
//   - both write the very same bytes, and each reads what the other wrote;
//   - shared instances stay shared, subclasses keep their class, cycles come back.
//
// Scenarios: the logged-in user (login-session), a person and a dog (person-and-dog), an array of
// custom objects (object-array), a subclass hierarchy, and a tree with parent links (cycles).
//
// Run: swift run macro-archivable

import Foundation
import KeyedArchiveMacros

/// Prints the check; a failed one ends the program with status 1.
func check(_ condition: Bool, _ what: String) {
    print(condition ? "  ok: \(what)" : "  FAILED: \(what)")
    if !condition { exit(1) }
}

// MARK: - 1. The logged-in user

/// By hand, as in login-session.
final class HandAccount: KeyedArchivable {
    static var archiveClassName: String { "Account" }
    let userID: Int
    let email: String
    init(userID: Int, email: String) {
        self.userID = userID
        self.email = email
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(userID, forKey: "userID")
        try coder.encode(email, forKey: "email")
    }
    init(from coder: KeyedUnarchiver) throws {
        userID = try coder.decode(Int.self, forKey: "userID")
        email = try coder.decode(String.self, forKey: "email")
    }
}

/// With the macro: the same archive, no coding methods.
@KeyedArchivable("Account")
final class Account {
    let userID: Int
    let email: String
    // Added in version 2 of the app: archives of version 1 lack it and get the default.
    var theme: String = "system"
    init(userID: Int, email: String) {
        self.userID = userID
        self.email = email
    }
}

print("1. the logged-in user")
do {
    let old = try KeyedArchiver.archivedData(withRootObject: HandAccount(userID: 7, email: "ada@example.org"))
    let upgraded = try KeyedUnarchiver.unarchivedObject(ofClass: Account.self, from: old)
    check(upgraded.userID == 7 && upgraded.email == "ada@example.org", "version 2 reads version 1's archive")
    check(upgraded.theme == "system", "a property added later takes its default when absent")
    upgraded.theme = "dark"
    let new = try KeyedArchiver.archivedData(withRootObject: upgraded)
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: HandAccount.self, from: new)
    check(back.userID == 7, "version 1 still reads version 2's archive (it ignores the new key)")
}

// MARK: - 2. A person and a dog

/// By hand, as in person-and-dog.
final class HandDog: KeyedArchivable {
    static var archiveClassName: String { "Dog" }
    var name: String
    init(name: String) { self.name = name }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(name, forKey: "name") }
    init(from coder: KeyedUnarchiver) throws { name = try coder.decode(String.self, forKey: "name") }
}

final class HandPerson: KeyedArchivable {
    static var archiveClassName: String { "Person" }
    var name: String
    var age: Int
    var dog: HandDog?
    init(name: String, age: Int, dog: HandDog?) {
        (self.name, self.age, self.dog) = (name, age, dog)
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "years")
        try coder.encode(dog, forKey: "dog")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "years")
        dog = try coder.decode(HandDog?.self, forKey: "dog")
    }
}

@KeyedArchivable("Dog")
final class Dog {
    var name: String
    init(name: String) { self.name = name }
}

@KeyedArchivable("Person")
final class Person {
    var name: String
    @ArchiveKey("years") var age: Int  // the key an earlier version chose
    var dog: Dog?
    @ArchiveIgnored var lastSeen = Date()  // never archived
    var greeting: String { "Hi, I am \(name)" }  // computed: never archived
    init(name: String, age: Int, dog: Dog?) {
        (self.name, self.age, self.dog) = (name, age, dog)
    }
}

print("2. a person and a dog")
do {
    let handRex = HandDog(name: "Rex")
    let hand = [HandPerson(name: "Ann", age: 31, dog: handRex), HandPerson(name: "Bob", age: 45, dog: handRex)]
    let rex = Dog(name: "Rex")
    let macro = [Person(name: "Ann", age: 31, dog: rex), Person(name: "Bob", age: 45, dog: rex)]
    let handBytes = try KeyedArchiver.archivedData(withRootObject: hand)
    let macroBytes = try KeyedArchiver.archivedData(withRootObject: macro)
    check(handBytes == macroBytes, "the macro writes the hand-written bytes (\(macroBytes.count) bytes)")
    let people = try KeyedUnarchiver.unarchivedObject(ofClass: [Person].self, from: handBytes)
    check(people.map(\.name) == ["Ann", "Bob"] && people.map(\.age) == [31, 45], "fields read back")
    check(people[0].dog != nil && people[0].dog === people[1].dog, "the shared dog is one instance")
    // Several objects under their own keys in one archive, as NSKeyedArchiver allows.
    let archiver = KeyedArchiver()
    try archiver.encode(macro[0], forKey: "owner")
    try archiver.encode(rex, forKey: "pet")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding())
    let owner = try unarchiver.decode(Person.self, forKey: "owner")
    let pet = try unarchiver.decode(Dog.self, forKey: "pet")
    check(owner.dog === pet, "objects under two keys still share")
}

// MARK: - 3. An array of custom objects

@KeyedArchivable("Book")
final class Book {
    var title: String
    var authors: [String]
    var published: Date?
    var ratings: [String: Int] = [:]
    init(title: String, authors: [String], published: Date? = nil) {
        (self.title, self.authors, self.published) = (title, authors, published)
    }
}

print("3. an array of custom objects")
do {
    let dune = Book(title: "Dune", authors: ["Frank Herbert"], published: Date(timeIntervalSince1970: -140_000_000))
    dune.ratings = ["ann": 5]
    let shelf = [dune, Book(title: "SICP", authors: ["Abelson", "Sussman"]), dune]
    let data = try KeyedArchiver.archivedData(withRootObject: shelf)
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: [Book].self, from: data)
    check(back.map(\.title) == ["Dune", "SICP", "Dune"], "three books, in order")
    check(back[0] === back[2], "the repeated book is one instance")
    check(back[1].published == nil && back[0].ratings == ["ann": 5], "optional and dictionary fields")
}

// MARK: - 4. A subclass

@KeyedArchivable("Shape")
class Shape {
    var name = ""
    required init() {}
}

@KeyedArchivable("Circle")
final class Circle: Shape {
    var radius = 1.0
}

@KeyedArchivable("Square")
final class Square: Shape {
    var side = 1.0
}

print("4. a subclass")
do {
    let circle = Circle()
    (circle.name, circle.radius) = ("wheel", 2.5)
    let square = Square()
    (square.name, square.side) = ("tile", 3)
    let data = try KeyedArchiver.archivedData(withRootObject: [circle, square] as [Shape])
    // The reader registers the subclasses it accepts where a Shape is expected.
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
    unarchiver.setClass(Circle.self, forClassName: "Circle")
    unarchiver.setClass(Square.self, forClassName: "Square")
    let shapes = try unarchiver.decode([Shape].self, forKey: KeyedArchiver.rootObjectKey)
    let wheel = shapes.first as? Circle
    check(wheel?.name == "wheel" && wheel?.radius == 2.5, "a Circle comes back a Circle, with Shape's fields")
    check((shapes.last as? Square)?.side == 3, "a Square comes back a Square")
    check(Circle.archiveSuperclassNames == ["Shape", "NSObject"], "$classes is [Circle, Shape, NSObject]")
}

// MARK: - 5. Cycles

@KeyedArchivable("Folder", cycles: true)
final class Folder {
    var name = ""
    weak var parent: Folder?  // weak: archived conditionally (encodeConditionalObject:forKey:)
    var children: [Folder] = []
    init() {}
}

print("5. a tree with parent links")
do {
    let root = Folder()
    root.name = "/"
    for name in ["bin", "etc", "home"] {
        let child = Folder()
        (child.name, child.parent) = (name, root)
        root.children.append(child)
    }
    let data = try KeyedArchiver.archivedData(withRootObject: root)
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: Folder.self, from: data)
    check(back.children.map(\.name) == ["bin", "etc", "home"], "children in order")
    check(back.children.allSatisfy { $0.parent === back }, "every child points back at the same parent")
    // A child alone: its weak parent is archived nowhere else, so it is not dragged into the archive.
    let alone = try KeyedUnarchiver.unarchivedObject(
        ofClass: Folder.self, from: try KeyedArchiver.archivedData(withRootObject: root.children[0]))
    check(alone.name == "bin" && alone.parent == nil, "a weak parent is archived only if something else is")
}

print("macro-archivable: all checks passed")
