// Sources/BenchmarkWorkloads/People.swift - The realistic keyed workload ("people", the Foundation model
// and its data in Benchmarks/Sources/PeopleModel): our two models of it, hand-written `KeyedArchivable`
// and `@KeyedArchivable` (trait MacroBench), for `bplist bench` and the suite's people rows.
//
// Both models are what a user writes for that shape: a non-final `Person` (it has a subclass) with an
// optional reference, an array of references, a renamed key and a string with a default read through
// `decodeKeepingDefault(into:)`; `Employee: Person`, which the unarchiver is told about with
// `setClass(_:forClassName:)` (a subclass is accepted where its superclass is expected only when
// mapped). The hand-written `Person` decodes in one phase (`required init(from:)`), as a person
// writes it; the macro makes a class hierarchy two-phase (`init()`, then `decodeFields(from:)`).
// The class names are those swift-corelibs-foundation writes for the Foundation model (its module is
// `PeopleModel`); the suite checks that they agree.

public import Foundation
public import KeyedArchive

#if MacroBench
    import KeyedArchiveMacros
#endif

/// The archived class names of the people workload.
public enum PeopleNames {
    public static let person = "PeopleModel.Person"
    public static let employee = "PeopleModel.Employee"
    public static let dog = "PeopleModel.Dog"
    public static let defaultNickname = "none"
}

// MARK: - Hand-written

/// The dog, hand-written.
public final class BenchPeopleDog: KeyedArchivable {
    public static var archiveClassName: String { PeopleNames.dog }
    public let name: String
    public let breed: String

    public init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        breed = try coder.decode(String.self, forKey: "breed")
    }

    public func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(breed, forKey: "breed")
    }
}

/// The person, hand-written (non-final: `BenchPeopleEmployee` is its subclass).
public class BenchPeoplePerson: KeyedArchivable {
    public class var archiveClassName: String { PeopleNames.person }
    public let name: String
    public let age: Int
    public let email: String
    public let dog: BenchPeopleDog?
    public let friends: [BenchPeoplePerson]
    public var nickname = PeopleNames.defaultNickname

    public required init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "yearsOld")
        email = try coder.decode(String.self, forKey: "email")
        dog = try coder.decodeIfPresent(BenchPeopleDog.self, forKey: "dog")
        friends = try coder.decode([BenchPeoplePerson].self, forKey: "friends")
        try coder.decodeKeepingDefault(into: &nickname, forKey: "nickname")
    }

    public func encode(with coder: KeyedArchiver) throws {
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
    public static func unarchive(_ data: Data) throws -> [BenchPeoplePerson] {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        unarchiver.setClass(BenchPeopleEmployee.self, forClassName: PeopleNames.employee)
        return try unarchiver.decode([BenchPeoplePerson].self, forKey: "root")
    }
}

/// The employee, hand-written.
public final class BenchPeopleEmployee: BenchPeoplePerson {
    public override class var archiveClassName: String { PeopleNames.employee }
    public let company: String
    public let manager: BenchPeoplePerson?

    public required init(from coder: KeyedUnarchiver) throws {
        company = try coder.decode(String.self, forKey: "company")
        manager = try coder.decodeIfPresent(BenchPeoplePerson.self, forKey: "manager")
        try super.init(from: coder)
    }

    public override func encode(with coder: KeyedArchiver) throws {
        try super.encode(with: coder)
        try coder.encode(company, forKey: "company")
        try coder.encode(manager, forKey: "manager")
    }
}

// MARK: - @KeyedArchivable (trait MacroBench)

#if MacroBench
    /// The dog through the macro.
    @KeyedArchivable("PeopleModel.Dog")
    public final class MacroPeopleDog {
        public let name: String
        public let breed: String
    }

    /// The person through the macro.
    @KeyedArchivable("PeopleModel.Person")
    public class MacroPeoplePerson {
        public var name = ""
        @ArchiveKey("yearsOld") public var age = 0
        public var email = ""
        public var dog: MacroPeopleDog?
        public var friends: [MacroPeoplePerson] = []
        public var nickname = PeopleNames.defaultNickname

        /// The graph, as a user unarchives it (the subclass mapped on the unarchiver).
        @inline(never)
        public static func unarchive(_ data: Data) throws -> [MacroPeoplePerson] {
            let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
            unarchiver.setClass(MacroPeopleEmployee.self, forClassName: PeopleNames.employee)
            return try unarchiver.decode([MacroPeoplePerson].self, forKey: "root")
        }
    }

    /// The employee through the macro.
    @KeyedArchivable("PeopleModel.Employee")
    public final class MacroPeopleEmployee: MacroPeoplePerson {
        public var company = ""
        public var manager: MacroPeoplePerson?
    }
#endif
