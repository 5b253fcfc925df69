// Benchmarks/Sources/PeopleModel/PeopleModel.swift - The realistic keyed workload ("people"): a model
// shaped like the seed tutorials' (performance round 3, issue #23), as Foundation `NSCoding` classes,
// the generator of its data, and the row view every implementation's graph is checked against.
//
// Shape: `count` persons (20,000 at full size) in one array. Per person:
//   name       String
//   yearsOld   Int, the property `age` stored under a renamed key
//   email      String (unique)
//   dog        optional reference to a shared Dog {name, breed}: persons 10k ..< 10k+10 share dog k
//              (2,000 dogs at full size); every 8th person has none ($null)
//   friends    array of references to earlier persons, usually empty: 2 friends for one person in 100,
//              3 for another. (More non-empty arrays would measure a flaw of swift-corelibs-foundation
//              rather than archiving: its NSKeyedArchiver uniques objects by `isEqual`, and NSArray's
//              hash is its count, so every non-empty array is compared with every earlier one of its
//              count: 200 such arrays add ~0.8 s to a 0.4 s archive of 2,000 persons, 800 add 14.5 s.)
//   nickname   String with a default for older archives: Foundation's writer stores it only when set
//              (every 4th person), as an app that added the field later would; ours always stores it
// and every 5th person is an Employee, a subclass adding
//   company    String
//   manager    optional reference to an earlier person (every other employee)
//
// Class names: swift-corelibs-foundation writes module-qualified names and ignores
// `NSKeyedArchiver.setClassName(_:for:)`, so archives hold `PeopleModel.Person`, `PeopleModel.Employee`
// and `PeopleModel.Dog` (this module's name); `$classes` of an employee is
// [PeopleModel.Employee, PeopleModel.Person, NSObject]. Every KeyedArchivable model of the workload
// (the suite's and `bplist bench`'s, hand-written and `@KeyedArchivable`) declares these names.

import Foundation

/// The archived class names of the workload.
public enum PeopleClassName {
    public static let person = "PeopleModel.Person"
    public static let employee = "PeopleModel.Employee"
    public static let dog = "PeopleModel.Dog"
}

/// The default of `nickname` for archives that lack it.
public let peopleDefaultNickname = "none"

// MARK: - Foundation's model (NSCoding)

/// A dog, shared by up to ten persons.
public final class Dog: NSObject, NSCoding {
    public let name: String
    public let breed: String

    public init(name: String, breed: String) {
        self.name = name
        self.breed = breed
    }

    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let breed = coder.decodeObject(forKey: "breed") as? String
        else { return nil }
        self.name = name
        self.breed = breed
    }

    public func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(breed, forKey: "breed")
    }
}

/// A person: renamed key, optional reference, array of references, optional field written only when set.
public class Person: NSObject, NSCoding {
    public let name: String
    public let age: Int
    public let email: String
    public let dog: Dog?
    public let friends: [Person]
    public let nickname: String?

    public init(name: String, age: Int, email: String, dog: Dog?, friends: [Person], nickname: String?) {
        self.name = name
        self.age = age
        self.email = email
        self.dog = dog
        self.friends = friends
        self.nickname = nickname
    }

    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
            let email = coder.decodeObject(forKey: "email") as? String,
            let friends = coder.decodeObject(forKey: "friends") as? [Person]
        else { return nil }
        self.name = name
        self.age = coder.decodeInteger(forKey: "yearsOld")
        self.email = email
        self.dog = coder.decodeObject(forKey: "dog") as? Dog
        self.friends = friends
        // swift-corelibs-foundation fails the whole unarchive on a missing key (decodeObject(forKey:)
        // does not return nil there), so an optional field is asked for first.
        self.nickname =
            coder.containsValue(forKey: "nickname") ? coder.decodeObject(forKey: "nickname") as? String : nil
    }

    public func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "yearsOld")
        coder.encode(email, forKey: "email")
        coder.encode(dog, forKey: "dog")
        coder.encode(friends, forKey: "friends")
        if let nickname { coder.encode(nickname, forKey: "nickname") }
    }
}

/// An employee: the subclass, with one more string and one more optional reference.
public final class Employee: Person {
    public let company: String
    public let manager: Person?

    public init(
        name: String, age: Int, email: String, dog: Dog?, friends: [Person], nickname: String?, company: String,
        manager: Person?
    ) {
        self.company = company
        self.manager = manager
        super.init(name: name, age: age, email: email, dog: dog, friends: friends, nickname: nickname)
    }

    public required init?(coder: NSCoder) {
        guard let company = coder.decodeObject(forKey: "company") as? String else { return nil }
        self.company = company
        self.manager = coder.decodeObject(forKey: "manager") as? Person
        super.init(coder: coder)
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(company, forKey: "company")
        coder.encode(manager, forKey: "manager")
    }
}

// MARK: - The data

/// Persons per shared dog.
public let peoplePerDog = 10

/// The generated Foundation graph of `count` persons (see the file header).
public func makePeople(count: Int) -> [Person] {
    let first = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Margaret", "John", "Frances",
        "Niklaus", "Tony", "Leslie", "Radia", "Guido",
    ]
    let last = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Thompson", "Ritchie", "Hamilton", "Backus",
        "Allen", "Wirth", "Hoare", "Lamport", "Perlman",
    ]
    let breeds = ["Beagle", "Collie", "Dachshund", "Poodle", "Terrier", "Whippet", "Husky"]
    let companies = ["Initech", "Globex", "Umbrella", "Hooli", "Acme", "Stark Industries"]
    var people: [Person] = []
    people.reserveCapacity(count)
    var dog: Dog?
    for i in 0..<count {
        if i % peoplePerDog == 0 {
            let n = i / peoplePerDog
            dog = Dog(name: "Rex \(n)", breed: breeds[n % breeds.count])
        }
        var friends: [Person] = []
        if i % 100 == 3 {
            friends = [people[i / 2], people[i / 3]]
        } else if i % 100 == 53 {
            friends = [people[i - 1], people[i / 2], people[i / 3]]
        }
        let name = "\(first[i % first.count]) \(last[i % last.count])"
        let nickname = i % 4 == 0 ? "\(first[(i / 4) % first.count].lowercased())\(i % 100)" : nil
        let ownDog = i % 8 == 7 ? nil : dog
        if i % 5 == 4 {
            let manager = (i / 5) % 2 == 0 ? people[i - 3] : nil
            people.append(
                Employee(
                    name: name, age: 18 + i % 70, email: "person\(i)@example.org", dog: ownDog, friends: friends,
                    nickname: nickname, company: companies[i % companies.count], manager: manager))
        } else {
            people.append(
                Person(
                    name: name, age: 18 + i % 70, email: "person\(i)@example.org", dog: ownDog, friends: friends,
                    nickname: nickname))
        }
    }
    return people
}

/// Foundation's archive of the graph (non-secure coding, binary), the root an NSArray.
public func archivePeople(_ people: [Person]) throws -> Data {
    try NSKeyedArchiver.archivedData(withRootObject: people, requiringSecureCoding: false)
}

/// Foundation's unarchive of the graph.
public func unarchivePeople(_ data: Data) throws -> [Person] {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    guard let people = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [Person] else {
        throw PeopleError(description: "NSKeyedUnarchiver: the root is not an array of Person")
    }
    return people
}

/// Why the workload could not be built, or an implementation read it differently.
public struct PeopleError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

// MARK: - Checking a graph

/// One person as plain values, with every reference as an index: dogs numbered in order of first
/// appearance, persons by their position in the root array. Two graphs with equal rows hold the same
/// data and share the same instances in the same places.
public struct PeopleRow: Equatable, CustomStringConvertible {
    public var name: String
    public var age: Int
    public var email: String
    public var nickname: String
    public var dog: Int?
    public var dogName: String?
    public var dogBreed: String?
    public var friends: [Int]
    public var company: String?
    public var manager: Int?

    public var description: String {
        "\(name), \(age), \(email), \(nickname), dog \(dog.map(String.init) ?? "-") \(dogName ?? "") \(dogBreed ?? ""), "
            + "friends \(friends), \(company ?? "-"), manager \(manager.map(String.init) ?? "-")"
    }
}

/// What `peopleRows` reads of one person of any model.
public struct PersonFields {
    public var name: String
    public var age: Int
    public var email: String
    /// `nil`: the default (Foundation's model has no default of its own).
    public var nickname: String?
    public var dog: (AnyObject, name: String, breed: String)?
    public var friends: [AnyObject]
    public var employee: (company: String, manager: AnyObject?)?

    public init(
        name: String, age: Int, email: String, nickname: String?, dog: (AnyObject, name: String, breed: String)?,
        friends: [AnyObject], employee: (company: String, manager: AnyObject?)?
    ) {
        (self.name, self.age, self.email, self.nickname) = (name, age, email, nickname)
        (self.dog, self.friends, self.employee) = (dog, friends, employee)
    }
}

/// The rows of a graph of any model, `fields` reading one person. A reference to a person outside
/// the array is index -1 (never in a correct graph).
public func peopleRows<P: AnyObject>(_ people: [P], _ fields: (P) -> PersonFields) -> [PeopleRow] {
    var index: [ObjectIdentifier: Int] = [:]
    for (i, p) in people.enumerated() { index[ObjectIdentifier(p)] = i }
    var dogs: [ObjectIdentifier: Int] = [:]
    return people.map { p in
        let f = fields(p)
        let dog = f.dog.map { d in
            let id = ObjectIdentifier(d.0)
            if let n = dogs[id] { return n }
            dogs[id] = dogs.count
            return dogs.count - 1
        }
        return PeopleRow(
            name: f.name, age: f.age, email: f.email, nickname: f.nickname ?? peopleDefaultNickname, dog: dog,
            dogName: f.dog?.name, dogBreed: f.dog?.breed,
            friends: f.friends.map { index[ObjectIdentifier($0)] ?? -1 }, company: f.employee?.company,
            manager: f.employee?.manager.map { index[ObjectIdentifier($0)] ?? -1 })
    }
}

/// The rows of the Foundation model.
public func peopleRows(_ people: [Person]) -> [PeopleRow] {
    peopleRows(people) { p in
        let employee = p as? Employee
        return PersonFields(
            name: p.name, age: p.age, email: p.email, nickname: p.nickname,
            dog: p.dog.map { ($0, $0.name, $0.breed) }, friends: p.friends,
            employee: employee.map { ($0.company, $0.manager) })
    }
}

/// Fails unless `rows` are the rows of `expected` (and every dog is shared as generated).
public func checkPeople(_ rows: [PeopleRow], against expected: [PeopleRow], _ what: String) throws {
    guard rows.count == expected.count else {
        throw PeopleError(description: "\(what): \(rows.count) persons, expected \(expected.count)")
    }
    for (i, (row, want)) in zip(rows, expected).enumerated() where row != want {
        throw PeopleError(description: "\(what): person \(i) is \(row), expected \(want)")
    }
}
