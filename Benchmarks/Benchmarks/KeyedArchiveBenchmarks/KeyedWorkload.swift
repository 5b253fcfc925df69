// Benchmarks/Benchmarks/KeyedArchiveBenchmarks/KeyedWorkload.swift - The keyed-archive workload: an
// in-process equivalent of ../shared/peers' `keyed.bplist` (swift-peer `gen-keyed`), as two object
// graphs of the same data (Foundation `NSCoding` classes and our `KeyedArchivable` classes) and the
// archive NSKeyedArchiver writes for the first, which both unarchivers read.
//
// Shape: an array of `count` Person {name, age, email, dog}; every run of ten consecutive persons
// shares one Dog {name, breed} instance (2,000 dogs for the full 20,000 persons). Names cycle
// through 16 first and 15 last names, ages through 18...87, emails are unique.
//
// Class names: swift-corelibs-foundation ignores NSKeyedArchiver.setClassName(_:for:) (its map is
// keyed by one spelling of the class and read with another; see ../shared/peers/swift-peer), so
// the archive holds Foundation's default names, the module-qualified `KeyedArchiveBenchmarks.Person`
// and `KeyedArchiveBenchmarks.Dog` (the peers' file says `swift_peer.Person`). Our classes declare
// those names as their `archiveClassName`; `KeyedInputs.load()` checks that they agree.

import Foundation
import KeyedArchiveMacros

// MARK: - Foundation's model (NSCoding)

/// A dog of the Foundation graph; archived as `KeyedArchiveBenchmarks.Dog`.
final class Dog: NSObject, NSCoding {
    let name: String
    let breed: String

    init(name: String, breed: String) {
        self.name = name
        self.breed = breed
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let breed = coder.decodeObject(forKey: "breed") as? String
        else { return nil }
        self.name = name
        self.breed = breed
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(breed, forKey: "breed")
    }
}

/// A person of the Foundation graph; archived as `KeyedArchiveBenchmarks.Person`.
final class Person: NSObject, NSCoding {
    let name: String
    let age: Int
    let email: String
    let dog: Dog?

    init(name: String, age: Int, email: String, dog: Dog?) {
        self.name = name
        self.age = age
        self.email = email
        self.dog = dog
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let email = coder.decodeObject(forKey: "email") as? String
        else { return nil }
        self.name = name
        self.age = coder.decodeInteger(forKey: "age")
        self.email = email
        self.dog = coder.decodeObject(forKey: "dog") as? Dog
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(email, forKey: "email")
        coder.encode(dog, forKey: "dog")
    }
}

// MARK: - Our model (KeyedArchivable)

/// Our dog, read from and written under the Foundation class's archive name.
final class KADog: KeyedArchivable {
    static var archiveClassName: String { "KeyedArchiveBenchmarks.Dog" }
    let name: String
    let breed: String

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        breed = try coder.decode(String.self, forKey: "breed")
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(breed, forKey: "breed")
    }
}

/// Our person, read from and written under the Foundation class's archive name.
final class KAPerson: KeyedArchivable {
    static var archiveClassName: String { "KeyedArchiveBenchmarks.Person" }
    let name: String
    let age: Int
    let email: String
    let dog: KADog?

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        email = try coder.decode(String.self, forKey: "email")
        dog = try coder.decodeIfPresent(KADog.self, forKey: "dog")
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
        try coder.encode(email, forKey: "email")
        try coder.encode(dog, forKey: "dog")
    }
}

// MARK: - The workload

/// Persons sharing one dog.
let personsPerDog = 10

/// The generated Foundation graph: `count` persons, a new dog every `personsPerDog` persons.
func makePersons(count: Int) -> [Person] {
    let first = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Margaret", "John", "Frances",
        "Niklaus", "Tony", "Leslie", "Radia", "Guido",
    ]
    let last = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Thompson", "Ritchie", "Hamilton", "Backus",
        "Allen", "Wirth", "Hoare", "Lamport", "Perlman",
    ]
    let breeds = ["Beagle", "Collie", "Dachshund", "Poodle", "Terrier", "Whippet", "Husky"]
    var persons: [Person] = []
    persons.reserveCapacity(count)
    var dog: Dog?
    for i in 0..<count {
        if i % personsPerDog == 0 {
            let n = i / personsPerDog
            dog = Dog(name: "Rex \(n)", breed: breeds[n % breeds.count])
        }
        persons.append(
            Person(
                name: "\(first[i % first.count]) \(last[i % last.count])", age: 18 + i % 70,
                email: "person\(i)@example.org", dog: dog))
    }
    return persons
}

/// Foundation's archive of a graph (what the peers' `archive` does: non-secure coding, binary).
func foundationArchive(_ persons: [Person]) throws -> Data {
    try NSKeyedArchiver.archivedData(withRootObject: persons, requiringSecureCoding: false)
}

/// Foundation's unarchive of a graph (the peers' `unarchive`).
func foundationUnarchive(_ data: Data) throws -> [Person] {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    guard let array = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [Person] else {
        throw KeyedWorkloadError(description: "NSKeyedUnarchiver: the root is not an array of Person")
    }
    return array
}

/// Why the workload could not be built or the implementations disagree.
struct KeyedWorkloadError: Error, CustomStringConvertible {
    let description: String
}

/// The inputs of every keyed row, built on first use (in a benchmark's setup, so neither the
/// listing process nor the measured iterations pay for it) and checked once.
final class KeyedInputs {
    struct Loaded {
        /// NSKeyedArchiver's archive of `foundation`: the input of both unarchive rows.
        let bytes: Data
        /// The Foundation graph (generated): the input of `keyed/archive/NSKeyedArchiver`.
        let foundation: [Person]
        /// Our graph, unarchived from `bytes`: the input of `keyed/archive/KeyedArchive`.
        let ours: [KAPerson]
        /// The same through `@KeyedArchivable`: the input of `keyed/archive/macro`.
        let macro: [MacroPerson]
        /// The Codable graph (dogs copied per person) and `KeyedArchiveEncoder`'s archive of it: the
        /// inputs of `keyed/archive/Codable` and `keyed/unarchive/Codable`.
        let codable: [CodablePerson]
        let codableBytes: Data
    }

    let count: Int
    private var loaded: Loaded?

    init(count: Int) {
        self.count = count
    }

    /// The inputs; the first call builds and checks them and fails loudly on any disagreement.
    var value: Loaded {
        if let loaded { return loaded }
        do {
            let value = try build()
            loaded = value
            return value
        } catch {
            fatalError("keyed workload: \(error)")
        }
    }

    private func build() throws -> Loaded {
        let expected = makePersons(count: count)
        for (type, ours) in [(Person.self, KAPerson.archiveClassName), (Dog.self, KADog.archiveClassName)] {
            let name = NSStringFromClass(type)
            guard name == ours else {
                throw KeyedWorkloadError(description: "NSKeyedArchiver writes \(name), our class reads \(ours)")
            }
        }
        let bytes = try foundationArchive(expected)

        // Both unarchivers on the same bytes: the same data, and shared dogs stay shared.
        let foundation = try foundationUnarchive(bytes)
        try check(foundation.map(Row.init), against: expected, "NSKeyedUnarchiver")
        let ours = try KeyedUnarchiver.unarchivedObject(ofClass: [KAPerson].self, from: bytes)
        try check(ours.map(Row.init), against: expected, "KeyedUnarchiver")

        // Both archivers write an archive the other side reads back to the same data.
        let ourArchive = try KeyedArchiver.archivedData(withRootObject: ours)
        let foundationAgain = try foundationUnarchive(ourArchive)
        try check(foundationAgain.map(Row.init), against: expected, "KeyedArchiver -> NSKeyedUnarchiver")
        let again = try KeyedUnarchiver.unarchivedObject(ofClass: [KAPerson].self, from: ourArchive)
        try check(again.map(Row.init), against: expected, "KeyedArchiver -> KeyedUnarchiver")

        // The macro's classes read the same bytes to the same graph and write the very bytes the
        // hand-written conformance writes.
        let macro = try KeyedUnarchiver.unarchivedObject(ofClass: [MacroPerson].self, from: bytes)
        try check(macro.map(Row.init), against: expected, "@KeyedArchivable")
        guard try KeyedArchiver.archivedData(withRootObject: macro) == ourArchive else {
            throw KeyedWorkloadError(description: "@KeyedArchivable writes other bytes than the hand-written classes")
        }

        // The Codable bridge: the same values (its dogs are copies, so only values are compared).
        let codable = expected.map(CodablePerson.init)
        let codableBytes = try KeyedArchiveEncoder().encode(codable)
        let codableBack = try KeyedArchiveDecoder().decode([CodablePerson].self, from: codableBytes)
        guard codableBack.count == expected.count,
            zip(codableBack, expected).allSatisfy({ Row($0).sameValues(Row($1)) })
        else { throw KeyedWorkloadError(description: "the Codable bridge does not round-trip the workload's values") }

        print(
            "workload keyed: \(count) persons, \(bytes.count) bytes (NSKeyedArchiver, the unarchive input), "
                + "\(ourArchive.count) bytes (KeyedArchiver), \(codableBytes.count) bytes (KeyedArchiveEncoder)")
        return Loaded(
            bytes: bytes, foundation: expected, ours: ours, macro: macro, codable: codable, codableBytes: codableBytes)
    }

    /// One person as plain values, plus the identity of its dog.
    private struct Row: Equatable {
        var name: String
        var age: Int
        var email: String
        var dogName: String?
        var dogBreed: String?
        var dogID: ObjectIdentifier?

        init(_ p: Person) {
            (name, age, email) = (p.name, p.age, p.email)
            (dogName, dogBreed, dogID) = (p.dog?.name, p.dog?.breed, p.dog.map(ObjectIdentifier.init))
        }

        init(_ p: KAPerson) {
            (name, age, email) = (p.name, p.age, p.email)
            (dogName, dogBreed, dogID) = (p.dog?.name, p.dog?.breed, p.dog.map(ObjectIdentifier.init))
        }

        init(_ p: MacroPerson) {
            (name, age, email) = (p.name, p.age, p.email)
            (dogName, dogBreed, dogID) = (p.dog?.name, p.dog?.breed, p.dog.map(ObjectIdentifier.init))
        }

        /// Values only: Codable copies the dogs, so there is no identity to compare.
        init(_ p: CodablePerson) {
            (name, age, email) = (p.name, p.age, p.email)
            (dogName, dogBreed, dogID) = (p.dog?.name, p.dog?.breed, nil)
        }

        func sameValues(_ other: Row) -> Bool {
            (name, age, email, dogName, dogBreed) == (other.name, other.age, other.email, other.dogName, other.dogBreed)
        }
    }

    /// The decoded rows equal the generated ones, and dogs are shared exactly as in the source:
    /// one instance per run of `personsPerDog` persons, a different one for the next run.
    private func check(_ rows: [Row], against source: [Person], _ what: String) throws {
        guard rows.count == source.count else {
            throw KeyedWorkloadError(description: "\(what): \(rows.count) persons, expected \(source.count)")
        }
        var dogs = Set<ObjectIdentifier>()
        for (i, (row, person)) in zip(rows, source).enumerated() {
            guard row.sameValues(Row(person)), let dog = row.dogID else {
                throw KeyedWorkloadError(description: "\(what): person \(i) differs: \(row) vs \(Row(person))")
            }
            let first = i - i % personsPerDog
            guard rows[first].dogID == dog else {
                throw KeyedWorkloadError(description: "\(what): persons \(first) and \(i) do not share one dog")
            }
            dogs.insert(dog)
        }
        let expectedDogs = (source.count + personsPerDog - 1) / personsPerDog
        guard dogs.count == expectedDogs else {
            throw KeyedWorkloadError(description: "\(what): \(dogs.count) distinct dogs, expected \(expectedDogs)")
        }
    }
}

// MARK: - The same model through @KeyedArchivable and through Codable

/// `KAPerson` with the conformance generated by `@KeyedArchivable` (no hand-written coding).
@KeyedArchivable("KeyedArchiveBenchmarks.Person")
final class MacroPerson {
    let name: String
    let age: Int
    let email: String
    let dog: MacroDog?
}

/// `KADog` with the conformance generated by `@KeyedArchivable`.
@KeyedArchivable("KeyedArchiveBenchmarks.Dog")
final class MacroDog {
    let name: String
    let breed: String
}

/// The person through the Codable bridge (`KeyedArchiveEncoder`/`KeyedArchiveDecoder`), archived
/// under the same class name. Codable has no identity: each person's dog is archived (and decoded)
/// as its own copy.
final class CodablePerson: Codable, KeyedArchiveClassNamed {
    static var archiveClassName: String { "KeyedArchiveBenchmarks.Person" }
    let name: String
    let age: Int
    let email: String
    let dog: CodableDog?

    init(_ p: Person) {
        (name, age, email) = (p.name, p.age, p.email)
        dog = p.dog.map { CodableDog(name: $0.name, breed: $0.breed) }
    }
}

/// The dog through the Codable bridge.
final class CodableDog: Codable, KeyedArchiveClassNamed {
    static var archiveClassName: String { "KeyedArchiveBenchmarks.Dog" }
    let name: String
    let breed: String

    init(name: String, breed: String) {
        self.name = name
        self.breed = breed
    }
}
