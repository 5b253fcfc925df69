// Sources/bplist/BenchPeople.swift - `bplist bench` on the realistic keyed workload ("people", see
// Benchmarks/Sources/PeopleModel): our classes for its archives, hand-written and (trait MacroBench)
// through `@KeyedArchivable`, as the suite has them (Benchmarks/.../PeopleWorkload.swift).
//
// An archive is taken for the people workload when one of its objects is the class name
// `PeopleModel.Person`; `unarchive`/`archive` (and the `-macro` operations) then decode these classes
// instead of the two-field `swift_peer.Person` ones.

import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

#if MacroBench
    import KeyedArchiveMacros
#endif

/// The archived class names of the people workload.
enum PeopleNames {
    static let person = "PeopleModel.Person"
    static let employee = "PeopleModel.Employee"
    static let dog = "PeopleModel.Dog"
    static let defaultNickname = "none"
}

extension Bench {
    /// Whether `input` is an archive of the people workload (a class description of `$objects` has
    /// its `$classname`).
    static func isPeopleArchive(_ input: Data) -> Bool {
        guard let doc = try? BinaryPlistDocument(input), let objects = try? doc.ref(at: "$objects"),
            case .array(let refs)? = try? doc.object(objects)
        else { return false }
        return refs.contains { ref in
            guard case .dictionary(let keys, let values)? = try? doc.object(ref) else { return false }
            return zip(keys, values).contains { key, value in
                (try? doc.string(key)) == "$classname" && (try? doc.string(value)) == PeopleNames.person
            }
        }
    }

    /// The people operations: `unarchive`, `archive` and their `-macro` twins.
    func people(_ input: Data, ops: Set<String>, timer: inout RepTimer, report: Reporter, out: String?) throws {
        if ops.contains("unarchive") || ops.contains("archive") {
            let people = try timer.measure { try BenchPeoplePerson.unarchive(input) }
            try BenchPeoplePerson.checkShape(people.map { ($0, $0.dog, ($0 as? BenchPeopleEmployee)?.company) })
            if ops.contains("unarchive") { report("unarchive", timer.times, items: people.count) }
            if ops.contains("archive") {
                let data = try timer.measure { try KeyedArchiver.archivedData(withRootObject: people) }
                report("archive", timer.times, outBytes: data.count, items: people.count)
                if let out { try IO.write(data, to: out) }
            }
        }
        #if MacroBench
            if ops.contains("unarchive-macro") || ops.contains("archive-macro") {
                let people = try timer.measure { try MacroPeoplePerson.unarchive(input) }
                try BenchPeoplePerson.checkShape(people.map { ($0, $0.dog, ($0 as? MacroPeopleEmployee)?.company) })
                if ops.contains("unarchive-macro") { report("unarchive-macro", timer.times, items: people.count) }
                if ops.contains("archive-macro") {
                    let data = try timer.measure { try KeyedArchiver.archivedData(withRootObject: people) }
                    report("archive-macro", timer.times, outBytes: data.count, items: people.count)
                }
            }
        #endif
    }
}

// MARK: - Hand-written

/// The dog, hand-written.
final class BenchPeopleDog: KeyedArchivable {
    static var archiveClassName: String { PeopleNames.dog }
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

/// The person, hand-written (non-final: `BenchPeopleEmployee` is its subclass).
class BenchPeoplePerson: KeyedArchivable {
    class var archiveClassName: String { PeopleNames.person }
    let name: String
    let age: Int
    let email: String
    let dog: BenchPeopleDog?
    let friends: [BenchPeoplePerson]
    var nickname = PeopleNames.defaultNickname

    required init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "yearsOld")
        email = try coder.decode(String.self, forKey: "email")
        dog = try coder.decodeIfPresent(BenchPeopleDog.self, forKey: "dog")
        friends = try coder.decode([BenchPeoplePerson].self, forKey: "friends")
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

    /// The graph, as a user unarchives it (the subclass mapped on the unarchiver). Not inlined: callgrind
    /// counts it alone with `--toggle-collect='*BenchPeoplePersonC9unarchive*'`.
    @inline(never)
    static func unarchive(_ data: Data) throws -> [BenchPeoplePerson] {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        unarchiver.setClass(BenchPeopleEmployee.self, forClassName: PeopleNames.employee)
        return try unarchiver.decode([BenchPeoplePerson].self, forKey: "root")
    }

    /// The generated shape (PeopleModel's makePeople): ten persons share a dog except every 8th,
    /// which has none, and every 5th is an employee.
    static func checkShape(_ people: [(person: AnyObject, dog: AnyObject?, company: String?)]) throws {
        for (i, p) in people.enumerated() {
            guard (p.dog == nil) == (i % 8 == 7), (p.company != nil) == (i % 5 == 4) else {
                throw ValidationError("people: person \(i) has not the generated dog or class")
            }
            let first = i - i % 10  // never an 8th person: 10k % 8 is even
            if let dog = p.dog, first != i, people[first].dog !== dog {
                throw ValidationError("people: persons \(first) and \(i) do not share one dog")
            }
        }
    }
}

/// The employee, hand-written.
final class BenchPeopleEmployee: BenchPeoplePerson {
    override class var archiveClassName: String { PeopleNames.employee }
    let company: String
    let manager: BenchPeoplePerson?

    required init(from coder: KeyedUnarchiver) throws {
        company = try coder.decode(String.self, forKey: "company")
        manager = try coder.decodeIfPresent(BenchPeoplePerson.self, forKey: "manager")
        try super.init(from: coder)
    }

    override func encode(with coder: KeyedArchiver) throws {
        try super.encode(with: coder)
        try coder.encode(company, forKey: "company")
        try coder.encode(manager, forKey: "manager")
    }
}

// MARK: - @KeyedArchivable (trait MacroBench)

#if MacroBench
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
        var nickname = PeopleNames.defaultNickname

        @inline(never)
        static func unarchive(_ data: Data) throws -> [MacroPeoplePerson] {
            let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
            unarchiver.setClass(MacroPeopleEmployee.self, forClassName: PeopleNames.employee)
            return try unarchiver.decode([MacroPeoplePerson].self, forKey: "root")
        }
    }

    /// The employee through the macro.
    @KeyedArchivable("PeopleModel.Employee")
    final class MacroPeopleEmployee: MacroPeoplePerson {
        var company = ""
        var manager: MacroPeoplePerson?
    }
#endif
