// Tests/KeyedArchiveTests/ConcurrencyTests.swift - Archivers and unarchivers on many threads, while
// another thread changes the process-wide class map.
//
// An archiver or unarchiver belongs to one thread at a time; many of them may run at once, and the
// global class-name maps (`KeyedArchiver.setClassName(_:for:)`, `KeyedUnarchiver.setClass(_:forClassName:)`)
// may change while they do. Every task checks what it decoded against the archived originals, so a
// race shows as a wrong value here and as a report under ThreadSanitizer (`.ci/run` runs these suites
// with `--sanitize=thread`).

import Foundation
import KeyedArchive
import PropertyList
import Synchronization
import Testing

/// Two classes the global map switches between for one archived name (used by no other test).
final class ConcurrencyWidget: KeyedArchivable {
    static let archiveClassName = "KAConcurrencyWidget"
    let serial: Int
    init(serial: Int) { self.serial = serial }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(serial, forKey: "serial") }
    init(from coder: KeyedUnarchiver) throws { serial = try coder.decode(Int.self, forKey: "serial") }
}

final class ConcurrencyGadget: KeyedArchivable {
    static let archiveClassName = "KAConcurrencyGadget"
    let serial: Int
    init(serial: Int) { self.serial = serial }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(serial, forKey: "serial") }
    init(from coder: KeyedUnarchiver) throws { serial = try coder.decode(Int.self, forKey: "serial") }
}

@Suite struct KeyedConcurrencyTests {
    static let tasks = 12

    /// Runs `body(task)` in `tasks` concurrent tasks and returns their results in task order.
    static func concurrently<R: Sendable>(_ body: @escaping @Sendable (Int) throws -> R) async throws -> [R] {
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            for t in 0..<tasks { group.addTask { (t, try body(t)) } }
            var results = [R?](repeating: nil, count: tasks)
            for try await (t, r) in group { results[t] = r }
            return results.compactMap { $0 }
        }
    }

    /// People sharing dogs, friends forming cycles through arrays: a graph with identity to keep.
    static func people(_ n: Int, task: Int) -> [Person] {
        let dogs = (0..<max(1, n / 10)).map { Dog(name: "dog \($0) of task \(task)", age: $0 % 15) }
        let people = (0..<n).map { i -> Person in
            let p = Person()
            p.name = "person \(i) of task \(task)"
            p.age = i % 90
            p.dog = dogs[i % dogs.count]
            p.tags = ["t\(i % 5)": i]
            return p
        }
        for (i, p) in people.enumerated() where i > 0 { p.friends = [people[i - 1]] }
        return people
    }

    @Test func archiversAndUnarchiversOnManyThreads() async throws {
        let ok = try await Self.concurrently { t in
            let originals = Self.people(300, task: t)
            let data = try KeyedArchiver.archivedData(withRootObject: originals)
            let back = try KeyedUnarchiver(forReadingFrom: data).decode([Person].self, forKey: "root")
            guard back.count == originals.count else { return false }
            for (a, b) in zip(originals, back) {
                guard a.name == b.name, a.age == b.age, a.tags == b.tags, a.dog?.name == b.dog?.name else {
                    return false
                }
            }
            // Shared dogs stay shared: person 0 and person 30 (n / 10 = 30 dogs) have the same one.
            guard let d0 = back[0].dog, let d30 = back[30].dog, d0 === d30 else { return false }
            // Friends are the decoded people themselves.
            return back[1].friends.first === back[0]
        }
        #expect(ok == Array(repeating: true, count: Self.tasks))
    }

    @Test func unarchivingWhileTheGlobalClassMapChanges() async throws {
        // Archived under a name that only the global map resolves, to one class or the other.
        let toggled = "KAConcurrencyToggled"
        let archiver = KeyedArchiver()
        archiver.setClassName(toggled, for: ConcurrencyWidget.self)
        for i in 0..<200 { try archiver.encode(ConcurrencyWidget(serial: i), forKey: "w\(i)") }
        let data = try archiver.finishEncoding()
        defer { KeyedUnarchiver.setClass(nil, forClassName: toggled) }
        KeyedUnarchiver.setClass(ConcurrencyWidget.self, forClassName: toggled)

        let stop = Atomic<Bool>(false)
        let flips = Atomic<Int>(0)
        async let changer: Void = {
            var widget = false
            while !stop.load(ordering: .acquiring) {
                KeyedUnarchiver.setClass(
                    widget ? ConcurrencyWidget.self : ConcurrencyGadget.self, forClassName: toggled)
                KeyedArchiver.setClassName(widget ? nil : "KAConcurrencyRenamed", for: ConcurrencyGadget.self)
                widget.toggle()
                flips.add(1, ordering: .relaxed)
                await Task.yield()
            }
        }()
        let results = try await Self.concurrently { _ in
            var seen: Set<String> = []
            for _ in 0..<20 {
                let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
                for i in 0..<200 {
                    let object = try unarchiver.decodeObject(
                        of: [ConcurrencyWidget.self, ConcurrencyGadget.self], forKey: "w\(i)")
                    switch object {
                    case let w as ConcurrencyWidget where w.serial == i: seen.insert("widget")
                    case let g as ConcurrencyGadget where g.serial == i: seen.insert("gadget")
                    default: return Set(["wrong object at \(i)"])
                    }
                }
            }
            return seen
        }
        stop.store(true, ordering: .releasing)
        await changer
        #expect(flips.load(ordering: .relaxed) > 0)
        for seen in results {
            #expect(!seen.isEmpty)
            #expect(seen.isSubset(of: ["widget", "gadget"]))
        }
    }

    @Test func codableBridgeOnManyThreads() async throws {
        struct Settings: Codable, Equatable, Sendable {
            var theme: String
            var volume: Double
            var recent: [URL]
            var limits: [String: Int]
        }
        let ok = try await Self.concurrently { t in
            let settings = Settings(
                theme: "theme \(t)", volume: Double(t) / 3,
                recent: [URL(fileURLWithPath: "/tmp/file-\(t).txt")], limits: ["max": t])
            let data = try KeyedArchiveEncoder().encode(settings)
            return try KeyedArchiveDecoder().decode(Settings.self, from: data) == settings
        }
        #expect(ok == Array(repeating: true, count: Self.tasks))
    }

    @Test func dynamicGraphsReadFromManyThreads() async throws {
        // `AnyArchived` has identity (its instances are classes) and is not `Sendable`: each task
        // decodes its own graph and archives it again; the archiver's output is deterministic, so
        // every task must produce the same bytes as this thread.
        let data = try KeyedArchiver.archivedData(withRootObject: Self.people(200, task: 0))
        @Sendable func rewrite() throws -> Data {
            let graph = try KeyedUnarchiver(forReadingFrom: data).decode(AnyArchived.self, forKey: "root")
            return try KeyedArchiver.archivedData(withRootObject: graph)
        }
        let expected = try rewrite()
        let results = try await Self.concurrently { _ in try rewrite() }
        for result in results { #expect(result == expected) }
    }
}
