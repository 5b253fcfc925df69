// Tests/KeyedArchiveTests/FileTests.swift - Atomic archive files (through PropertyList's `AtomicFile`).

import Foundation
import KeyedArchive
import PropertyList
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
        let before = try Data(contentsOf: url)

        // A fault at each step of the package's atomic write (injected through its seam): the archive
        // is byte for byte as it was, the error is `io` naming the file and the cause, and no
        // temporary file stays.
        for step in [AtomicFileFaults.Step.create, .write, .syncFile, .rename] {
            let e = try #require(throws: KeyedArchiveError.self) {
                try AtomicFileFaults.$injected.withValue(.failing(step, with: POSIXErrorCode.ENOSPC.rawValue)) {
                    try KeyedArchiver.archiveRootObject(makePerson("Bob", age: 7), toFile: url)
                }
            }
            #expect(e.code == .io)
            #expect(e.detail.contains("'\(url.path)'") && e.detail.contains("No space left on device"), "\(e.detail)")
            #expect(try Data(contentsOf: url) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["person.archive"])
        }

        // An encoding failure never reaches the file.
        final class Failing: KeyedArchivable {
            init() {}
            struct Boom: Error {}
            func encode(with coder: KeyedArchiver) throws { throw Boom() }
            init(from coder: KeyedUnarchiver) throws {}
        }
        #expect(throws: (any Error).self) { try KeyedArchiver.archiveRootObject([Failing()], toFile: url) }
        #expect(try Data(contentsOf: url) == before)

        // A process killed in the middle of a write leaves its temporary file: the next write removes it.
        let leftover = dir.appendingPathComponent(".person.archive.keyedarchive-00000000000000ff.tmp")
        try before.prefix(before.count / 2).write(to: leftover)
        try KeyedArchiver.archiveRootObject(makePerson("Carl", age: 1), toFile: url)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Carl")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["person.archive"])
    }

    @Test func graphWritesGoThroughTheSameAtomicWrite() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("real.archive")
        try KeyedArchiver.archiveRootObject(makePerson("Ada", age: 36), toFile: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let link = dir.appendingPathComponent("link.archive")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.archive")
        let before = try Data(contentsOf: url)

        var graph = try KeyedArchiveGraph(contentsOf: link)
        try graph.set("Bea", at: "root.name")
        let e = try #require(throws: KeyedArchiveError.self) {
            try AtomicFileFaults.$injected.withValue(.failing(.rename, with: POSIXErrorCode.EIO.rawValue)) {
                try graph.write(to: link)
            }
        }
        #expect(e.code == .io && e.detail.contains("'\(link.path)'"), "\(e.detail)")
        #expect(try Data(contentsOf: url) == before)

        try graph.write(to: link)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url).name == "Bea")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.archive")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.archive", "real.archive"])
    }

    @Test func missingFileIsAnIOError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ka-missing-\(UUID().uuidString)")
        let e = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, fromFile: url)
        }
        #expect(e.code == .io)
    }
}
