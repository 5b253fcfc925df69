// Sources/bplist/Benchmarks/BenchPeople.swift - `bplist bench` on the realistic keyed workload ("people", see
// Benchmarks/Sources/PeopleModel): our classes for its archives, hand-written and (trait MacroBench)
// through `@KeyedArchivable`, the suite's own (Sources/BenchmarkWorkloads/People.swift).
//
// An archive is taken for the people workload when one of its objects is the class name
// `PeopleModel.Person`; `unarchive`/`archive` (and the `-macro` operations) then decode these classes
// instead of the two-field `swift_peer.Person` ones.

import ArgumentParser
import BenchmarkWorkloads
import Foundation
import KeyedArchive
import PropertyList

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

extension BenchPeoplePerson {
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
