// Benchmarks/Benchmarks/KeyedArchiveBenchmarks/PeopleWorkload.swift - The realistic keyed workload
// ("people", ../../Sources/PeopleModel): our two models of it (hand-written `KeyedArchivable` and
// `@KeyedArchivable`) and the inputs of its rows, built and checked once.
//
// Both models are what a user writes for that shape: a non-final `Person` (it has a subclass) with an
// optional reference, an array of references, a renamed key and a string with a default read through
// `decodeKeepingDefault(into:)`; `Employee: Person`, which the unarchiver is told about with
// `setClass(_:forClassName:)` (a subclass is accepted where its superclass is expected only when
// mapped). The hand-written `Person` decodes in one phase (`required init(from:)`), as a person
// writes it; the macro makes a class hierarchy two-phase (`init()`, then `decodeFields(from:)`).

import Foundation
import KeyedArchiveMacros
import PeopleModel

// MARK: - Hand-written conformances

/// The dog, hand-written.
final class KAPeopleDog: KeyedArchivable {
    static var archiveClassName: String { PeopleClassName.dog }
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

/// The person, hand-written.
class KAPeoplePerson: KeyedArchivable {
    class var archiveClassName: String { PeopleClassName.person }
    let name: String
    let age: Int
    let email: String
    let dog: KAPeopleDog?
    let friends: [KAPeoplePerson]
    var nickname = peopleDefaultNickname

    required init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "yearsOld")
        email = try coder.decode(String.self, forKey: "email")
        dog = try coder.decodeIfPresent(KAPeopleDog.self, forKey: "dog")
        friends = try coder.decode([KAPeoplePerson].self, forKey: "friends")
        try coder.decodeKeepingDefault(into: &nickname, forKey: "nickname")
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "yearsOld")
        try coder.encode(email, forKey: "email")
        try coder.encode(dog, forKey: "dog")
        try coder.encode(friends, forKey: "friends")
        try coder.encode(nickname, forKey: "nickname")
    }
}

/// The employee, hand-written.
final class KAPeopleEmployee: KAPeoplePerson {
    override class var archiveClassName: String { PeopleClassName.employee }
    let company: String
    let manager: KAPeoplePerson?

    required init(from coder: KeyedUnarchiver) throws {
        company = try coder.decode(String.self, forKey: "company")
        manager = try coder.decodeIfPresent(KAPeoplePerson.self, forKey: "manager")
        try super.init(from: coder)
    }

    override func encode(with coder: KeyedArchiver) throws {
        try super.encode(with: coder)
        try coder.encode(company, forKey: "company")
        try coder.encode(manager, forKey: "manager")
    }
}

// MARK: - @KeyedArchivable

/// The dog through the macro.
@KeyedArchivable("PeopleModel.Dog")
final class MacroPeopleDog {
    let name: String
    let breed: String
}

/// The person through the macro.
@KeyedArchivable("PeopleModel.Person")
class MacroPeoplePerson {
    var name = ""
    @ArchiveKey("yearsOld") var age = 0
    var email = ""
    var dog: MacroPeopleDog?
    var friends: [MacroPeoplePerson] = []
    var nickname = peopleDefaultNickname
}

/// The employee through the macro.
@KeyedArchivable("PeopleModel.Employee")
final class MacroPeopleEmployee: MacroPeoplePerson {
    var company = ""
    var manager: MacroPeoplePerson?
}

// MARK: - Unarchiving, as a user does it

/// Our hand-written classes from an archive (the subclass mapped on the unarchiver).
func unarchiveKAPeople(_ bytes: Data) throws -> [KAPeoplePerson] {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: bytes)
    unarchiver.setClass(KAPeopleEmployee.self, forClassName: PeopleClassName.employee)
    return try unarchiver.decode([KAPeoplePerson].self, forKey: "root")
}

/// The macro's classes from an archive.
func unarchiveMacroPeople(_ bytes: Data) throws -> [MacroPeoplePerson] {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: bytes)
    unarchiver.setClass(MacroPeopleEmployee.self, forClassName: PeopleClassName.employee)
    return try unarchiver.decode([MacroPeoplePerson].self, forKey: "root")
}

func peopleRows(_ people: [KAPeoplePerson]) -> [PeopleRow] {
    peopleRows(people) { p in
        let employee = p as? KAPeopleEmployee
        return PersonFields(
            name: p.name, age: p.age, email: p.email, nickname: p.nickname,
            dog: p.dog.map { ($0, $0.name, $0.breed) }, friends: p.friends,
            employee: employee.map { ($0.company, $0.manager) })
    }
}

func peopleRows(_ people: [MacroPeoplePerson]) -> [PeopleRow] {
    peopleRows(people) { p in
        let employee = p as? MacroPeopleEmployee
        return PersonFields(
            name: p.name, age: p.age, email: p.email, nickname: p.nickname,
            dog: p.dog.map { ($0, $0.name, $0.breed) }, friends: p.friends,
            employee: employee.map { ($0.company, $0.manager) })
    }
}

// MARK: - The inputs

/// The inputs of every people row, built on first use and checked once (see `KeyedInputs`).
final class PeopleInputs {
    struct Loaded {
        /// NSKeyedArchiver's archive of the generated graph: the input of the `people` unarchive rows.
        let foundationBytes: Data
        /// KeyedArchiver's archive of the same graph: the input of the `people-ours` unarchive rows.
        let ourBytes: Data
        /// The graphs the archive rows write.
        let foundation: [PeopleModel.Person]
        let ours: [KAPeoplePerson]
        let macro: [MacroPeoplePerson]
    }

    let count: Int
    private var loaded: Loaded?

    init(count: Int) {
        self.count = count
    }

    var value: Loaded {
        if let loaded { return loaded }
        do {
            let value = try build()
            loaded = value
            return value
        } catch {
            fatalError("people workload: \(error)")
        }
    }

    private func build() throws -> Loaded {
        let generated = makePeople(count: count)
        let expected = PeopleModel.peopleRows(generated)
        for (type, ours) in [
            (PeopleModel.Person.self, KAPeoplePerson.archiveClassName),
            (PeopleModel.Employee.self, KAPeopleEmployee.archiveClassName),
            (PeopleModel.Dog.self, KAPeopleDog.archiveClassName),
        ] {
            let name = NSStringFromClass(type)
            guard name == ours else {
                throw PeopleError(description: "NSKeyedArchiver writes \(name), we read \(ours)")
            }
        }
        let foundationBytes = try archivePeople(generated)
        try checkPeople(
            PeopleModel.peopleRows(try unarchivePeople(foundationBytes)), against: expected, "NSKeyedUnarchiver")

        // Ours reads Foundation's archive, writes its own, and both sides read that one back.
        let ours = try unarchiveKAPeople(foundationBytes)
        try checkPeople(peopleRows(ours), against: expected, "KeyedUnarchiver")
        let ourBytes = try KeyedArchiver.archivedData(withRootObject: ours)
        try checkPeople(
            peopleRows(try unarchiveKAPeople(ourBytes)), against: expected, "KeyedArchiver -> KeyedUnarchiver")
        try checkPeople(
            PeopleModel.peopleRows(try unarchivePeople(ourBytes)), against: expected,
            "KeyedArchiver -> NSKeyedUnarchiver")

        // The macro's classes read both archives to the same graph and write the very same bytes.
        let macro = try unarchiveMacroPeople(foundationBytes)
        try checkPeople(peopleRows(macro), against: expected, "@KeyedArchivable")
        try checkPeople(peopleRows(try unarchiveMacroPeople(ourBytes)), against: expected, "@KeyedArchivable (ours)")
        guard try KeyedArchiver.archivedData(withRootObject: macro) == ourBytes else {
            throw PeopleError(description: "@KeyedArchivable writes other bytes than the hand-written classes")
        }

        print(
            "workload people: \(count) persons, \(foundationBytes.count) bytes (NSKeyedArchiver, input of people/), "
                + "\(ourBytes.count) bytes (KeyedArchiver, input of people-ours/)")
        return Loaded(
            foundationBytes: foundationBytes, ourBytes: ourBytes, foundation: generated, ours: ours, macro: macro)
    }
}
