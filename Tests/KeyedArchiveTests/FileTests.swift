// Tests/KeyedArchiveTests/FileTests.swift - Atomic archive files.

import Foundation
import KeyedArchive
import Testing

@Suite struct FileTests {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ka-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func writeAndReadBack() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("person.archive")
        let person = makePerson("Ada", age: 36, dog: Dog(name: "Rex", age: 3))
        try KeyedArchiver.archiveRootObject(person, toFile: url)  // atomic: temp file, flush, rename
        let p = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url)
        #expect(p.name == "Ada")
        #expect(p.dog?.name == "Rex")
        // Replacing it leaves no temporary files behind.
        try KeyedArchiver.archiveRootObject(makePerson("Bob", age: 7), toFile: url)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Bob")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["person.archive"])
    }

    @Test func interruptedWriteLeavesThePreviousArchive() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("person.archive")
        try KeyedArchiver.archiveRootObject(makePerson("Ada", age: 36), toFile: url)

        // Simulated crash: the process dies after writing half of the temporary file, before the
        // rename. What the atomic protocol leaves is a partial sibling; the archive is untouched.
        let crashing = ArchiveFileWriter { data, target in
            let temp = target.deletingLastPathComponent().appendingPathComponent(".person.archive.partial")
            try data.prefix(data.count / 2).write(to: temp)
            struct SimulatedCrash: Error {}
            throw SimulatedCrash()
        }
        let e = try #require(throws: KeyedArchiveError.self) {
            try KeyedArchiver.archiveRootObject(makePerson("Bob", age: 7), toFile: url, writer: crashing)
        }
        #expect(e.code == .io)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Ada")

        // An encoding failure never reaches the file.
        final class Failing: KeyedArchivable {
            init() {}
            struct Boom: Error {}
            func encode(with coder: KeyedArchiver) throws { throw Boom() }
            init(from coder: KeyedUnarchiver) throws {}
        }
        let holder = makePerson("Carl", age: 1)
        #expect(throws: (any Error).self) { try KeyedArchiver.archiveRootObject([Failing()], toFile: url) }
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Ada")

        // The next real write succeeds despite the leftover partial file.
        try KeyedArchiver.archiveRootObject(holder, toFile: url)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Carl")
    }

    @Test func missingFileIsAnIOError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ka-missing-\(UUID().uuidString)")
        let e = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url)
        }
        #expect(e.code == .io)
    }
}
