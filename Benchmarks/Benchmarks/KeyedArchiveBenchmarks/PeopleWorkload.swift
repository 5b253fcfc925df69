// Benchmarks/Benchmarks/KeyedArchiveBenchmarks/PeopleWorkload.swift - The realistic keyed workload
// ("people", ../../Sources/PeopleModel): the inputs of its rows, built and checked once, and the rows
// (PeopleModel's check) of our two models of it, hand-written `KeyedArchivable` and `@KeyedArchivable`
// (written once with `bplist bench`'s, in ../../../Sources/BenchmarkWorkloads/People.swift).

import Foundation
import KeyedArchive
import PeopleModel
import Workloads

// MARK: - The rows of our models

func peopleRows(_ people: [BenchPeoplePerson]) -> [PeopleRow] {
    peopleRows(people) { p in
        let employee = p as? BenchPeopleEmployee
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
        let ours: [BenchPeoplePerson]
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
            (PeopleModel.Person.self, BenchPeoplePerson.archiveClassName),
            (PeopleModel.Employee.self, BenchPeopleEmployee.archiveClassName),
            (PeopleModel.Dog.self, BenchPeopleDog.archiveClassName),
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
        let ours = try BenchPeoplePerson.unarchive(foundationBytes)
        try checkPeople(peopleRows(ours), against: expected, "KeyedUnarchiver")
        let ourBytes = try KeyedArchiver.archivedData(withRootObject: ours)
        try checkPeople(
            peopleRows(try BenchPeoplePerson.unarchive(ourBytes)), against: expected,
            "KeyedArchiver -> KeyedUnarchiver")
        try checkPeople(
            PeopleModel.peopleRows(try unarchivePeople(ourBytes)), against: expected,
            "KeyedArchiver -> NSKeyedUnarchiver")

        // The macro's classes read both archives to the same graph and write the very same bytes.
        let macro = try MacroPeoplePerson.unarchive(foundationBytes)
        try checkPeople(peopleRows(macro), against: expected, "@KeyedArchivable")
        try checkPeople(
            peopleRows(try MacroPeoplePerson.unarchive(ourBytes)), against: expected, "@KeyedArchivable (ours)")
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
