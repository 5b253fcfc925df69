// Tests/PropertyListTests/AtomicFileTests.swift - The package's one atomic, durable file write
// (`AtomicFile`), under real and injected faults.
//
// The guarantee under test: after any write, failed or not, the target holds its previous bytes or
// the complete new ones; a failure is a `PlistError` with code `io` naming the file and the cause
// (the errno text); no temporary file survives a failure, and a temporary file left by a killed
// writer is removed by the next write of the same file (never one a live writer holds). Symbolic
// links survive (the file they name is replaced), and the target's mode and owner are kept.
//
// Faults come three ways: injected through the seam (`AtomicFileFaults.injected`, a task-local hook
// in the write path), real ones from the file system (a full or read-only `tmpfs` mounted by the test
// where the process may, a read-only directory, dangling links), and other processes (a lock held by
// `flock(1)`). The tool's suite kills `bplist` with SIGKILL in the middle of large writes.

import Foundation
import PropertyList
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct AtomicFileTests {
    static let old = Data("the previous contents\n".utf8)

    /// `count` bytes that differ from any other call's (a counter pattern from `seed`).
    static func payload(_ count: Int, seed: UInt8 = 1) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    @Test func writesANewFileAndReplacesIt() throws {
        let dir = try ScratchDirectory("atomic")
        let path = dir.file("a.plist")
        try AtomicFile.write(Data("one".utf8), to: path)
        #expect(try dir.read("a.plist") == Data("one".utf8))
        try AtomicFile.write(Self.payload(3 << 20), to: URL(fileURLWithPath: path))
        #expect(try dir.read("a.plist") == Self.payload(3 << 20))
        #expect(dir.entries() == ["a.plist"])
    }

    @Test func writesInPiecesAsASink() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "a.bplist")
        let value = PlistValue.array((0..<20_000).map { .string("element \($0)") })
        let file = AtomicFile(path: path)
        var writer = StreamingPlistWriter(to: file, options: .init(bufferSize: 4096))
        try writer.value(value)
        _ = try writer.finish()
        #expect(try dir.read("a.bplist") == Self.old, "nothing reaches the target before the commit")
        #expect(dir.temporaries().count == 1)
        try file.commit()
        #expect(try BinaryPlistDocument(dir.read("a.bplist")).value() == value)
        #expect(dir.entries() == ["a.bplist"])
    }

    @Test func keepsTheModeOfTheFileReplaced() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "a.plist")
        for mode in [0o640, 0o600, 0o755, 0o444] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            try AtomicFile.write(Self.payload(100, seed: UInt8(mode & 0xFF)), to: path)
            let kept = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(kept == mode)
        }
    }

    @Test(.enabled(if: Privileges.isRoot, "giving a file another owner needs root"))
    func keepsTheOwnerOfTheFileReplaced() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "a.plist")
        try FileManager.default.setAttributes(
            [.ownerAccountID: 4242, .groupOwnerAccountID: 4343, .posixPermissions: 0o640], ofItemAtPath: path)
        try AtomicFile.write(Self.payload(100), to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.ownerAccountID] as? Int == 4242)
        #expect(attributes[.groupOwnerAccountID] as? Int == 4343)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
    }

    @Test func symbolicLinksSurviveAndTheFileTheyNameIsReplaced() throws {
        let dir = try ScratchDirectory("atomic")
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.file("real"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.file("links"), withIntermediateDirectories: true)
        let real = try dir.write(Self.old, "real/settings.plist")
        // A relative link from another directory, an absolute one, and a link to a link.
        try fm.createSymbolicLink(atPath: dir.file("links/relative"), withDestinationPath: "../real/settings.plist")
        try fm.createSymbolicLink(atPath: dir.file("links/absolute"), withDestinationPath: real)
        try fm.createSymbolicLink(atPath: dir.file("chain"), withDestinationPath: "links/relative")
        for (n, link) in ["links/relative", "links/absolute", "chain"].enumerated() {
            let data = Self.payload(1000 + n)
            try AtomicFile.write(data, to: dir.file(link))
            #expect(try dir.read("real/settings.plist") == data, "\(link)")
            #expect(try fm.destinationOfSymbolicLink(atPath: dir.file(link)) != "", "\(link) is still a link")
        }
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("links/relative")) == "../real/settings.plist")
        #expect(try fm.contentsOfDirectory(atPath: dir.file("real")) == ["settings.plist"])
        #expect(try fm.contentsOfDirectory(atPath: dir.file("links")).sorted() == ["absolute", "relative"])
    }

    @Test func aDanglingLinkNamesTheFileToCreateOrFailsCleanly() throws {
        let dir = try ScratchDirectory("atomic")
        let fm = FileManager.default
        // The link's target does not exist yet, in a directory that does: it is created there.
        try fm.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: "made.plist")
        try AtomicFile.write(Data("made".utf8), to: dir.file("link"))
        #expect(try dir.read("made.plist") == Data("made".utf8))
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("link")) == "made.plist")

        // Its directory does not exist: an io error naming the path and the cause; nothing changes.
        try fm.createSymbolicLink(atPath: dir.file("broken"), withDestinationPath: "nowhere/x.plist")
        let before = dir.entries()
        let error = try #require(throws: PlistError.self) {
            try AtomicFile.write(Data("x".utf8), to: dir.file("broken"))
        }
        #expect(error.code == .io)
        #expect(error.detail.contains("'\(dir.file("broken"))'") && error.detail.contains(errnoText(.ENOENT)))
        #expect(dir.entries() == before)
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("broken")) == "nowhere/x.plist")

        // A loop of links is refused as the kernel refuses it, and neither link is replaced.
        try fm.createSymbolicLink(atPath: dir.file("loop1"), withDestinationPath: "loop2")
        try fm.createSymbolicLink(atPath: dir.file("loop2"), withDestinationPath: "loop1")
        let loop = try #require(throws: PlistError.self) { try AtomicFile.write(Data("x".utf8), to: dir.file("loop1")) }
        #expect(loop.code == .io && loop.detail.contains(errnoText(.ELOOP)), "\(loop.detail)")
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("loop1")) == "loop2")
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("loop2")) == "loop1")
        #expect(dir.temporaries().isEmpty)
    }

    /// A fault at one step of the write, and what the error must say.
    struct Fault: Sendable, CustomTestStringConvertible {
        var step: AtomicFileFaults.Step
        var code: POSIXErrorCode
        var afterBytes = 0
        var testDescription: String { "\(step) fails with \(code) after \(afterBytes) bytes" }
    }

    static let faults: [Fault] = [
        Fault(step: .create, code: .EACCES),
        Fault(step: .write, code: .ENOSPC),
        Fault(step: .write, code: .EIO, afterBytes: 1 << 20),
        Fault(step: .write, code: .EDQUOT, afterBytes: 3 << 20),
        Fault(step: .syncFile, code: .EIO),
        Fault(step: .rename, code: .EXDEV),
        Fault(step: .rename, code: .EACCES),
    ]

    @Test(arguments: faults)
    func anInjectedFaultLeavesTheTargetAndNoTemporaryFile(_ fault: Fault) throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "target.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let injected = AtomicFileFaults.failing(fault.step, with: fault.code.rawValue, afterBytes: fault.afterBytes)
        let error = try #require(throws: PlistError.self) {
            try AtomicFileFaults.$injected.withValue(injected) {
                // 4 MiB in pieces of 256 KiB, as a streamed write delivers them.
                let file = AtomicFile(path: path)
                let data = Self.payload(4 << 20)
                for start in stride(from: 0, to: data.count, by: 256 << 10) {
                    try file.write(data[start..<min(start + (256 << 10), data.count)])
                }
                try file.commit()
            }
        }
        #expect(error.code == .io)
        #expect(error.detail.hasPrefix("cannot write '\(path)': "), "\(error.detail)")
        #expect(error.detail.contains(errnoText(fault.code)), "\(error.detail)")
        #expect(try dir.read("target.plist") == Self.old)
        #expect(dir.entries() == ["target.plist"])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        // The same write without the fault succeeds.
        try AtomicFile.write(Self.payload(4 << 20), to: path)
        #expect(try dir.read("target.plist") == Self.payload(4 << 20))
    }

    @Test func aFailedDirectoryFlushSaysTheFileWasReplaced() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "target.plist")
        let error = try #require(throws: PlistError.self) {
            try AtomicFileFaults.$injected.withValue(.failing(.syncDirectory, with: POSIXErrorCode.EIO.rawValue)) {
                try AtomicFile.write(Data("new".utf8), to: path)
            }
        }
        #expect(error.code == .io)
        #expect(error.detail.contains("was replaced") && error.detail.contains(errnoText(.EIO)), "\(error.detail)")
        #expect(try dir.read("target.plist") == Data("new".utf8))
        #expect(dir.entries() == ["target.plist"])
    }

    @Test func faultsReachOnlyTheTaskThatInjectsThem() async throws {
        let dir = try ScratchDirectory("atomic")
        let failing = AtomicFileFaults.failing(.rename, with: POSIXErrorCode.EIO.rawValue)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let path = dir.file("f\(i)")
                    if i % 2 == 0 {
                        return
                            (try? AtomicFileFaults.$injected.withValue(failing) {
                                try AtomicFile.write(Data("x".utf8), to: path)
                            }) == nil
                    }
                    try AtomicFile.write(Data("x".utf8), to: path)
                    return false
                }
            }
            var failures = 0
            for try await failed in group where failed { failures += 1 }
            #expect(failures == 4)
        }
        #expect(dir.entries() == ["f1", "f3", "f5", "f7"])
    }

    @Test func anAbandonedOrReleasedWriteLeavesNothing() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "a.plist")
        let abandoned = AtomicFile(path: path)
        try abandoned.write(Self.payload(10_000))
        #expect(dir.temporaries().count == 1)
        abandoned.abandon()
        abandoned.abandon()
        #expect(throws: PlistError.self) { try abandoned.commit() }
        do {
            let dropped = AtomicFile(path: path)
            try dropped.write(Self.payload(10_000))
        }
        #expect(try dir.read("a.plist") == Self.old)
        #expect(dir.entries() == ["a.plist"])
    }

    @Test func nonRegularTargetsAreWrittenInPlaceAndDirectoriesRefused() throws {
        try AtomicFile.write(Self.payload(100_000), to: "/dev/null")
        let dir = try ScratchDirectory("atomic")
        try FileManager.default.createDirectory(atPath: dir.file("d"), withIntermediateDirectories: false)
        let error = try #require(throws: PlistError.self) { try AtomicFile.write(Self.old, to: dir.file("d")) }
        #expect(error.code == .io && error.detail.contains(errnoText(.EISDIR)), "\(error.detail)")
        let web = try #require(URL(string: "https://example.com/a"))
        #expect(throws: PlistError.self) { try AtomicFile.write(Self.old, to: web) }
        #expect(dir.entries() == ["d"])
    }

    @Test func temporaryNamesFollowTheirPatternOnly() {
        #expect(AtomicFile.isTemporaryName(".a.plist.keyedarchive-0123456789abcdef.tmp", of: "a.plist"))
        #expect(!AtomicFile.isTemporaryName(".a.plist.keyedarchive-0123456789abcde.tmp", of: "a.plist"))
        #expect(!AtomicFile.isTemporaryName(".a.plist.keyedarchive-0123456789abcdeg.tmp", of: "a.plist"))
        #expect(!AtomicFile.isTemporaryName(".b.plist.keyedarchive-0123456789abcdef.tmp", of: "a.plist"))
        #expect(!AtomicFile.isTemporaryName("a.plist.keyedarchive-0123456789abcdef.tmp", of: "a.plist"))
        // A name too long for a temporary name of its own is cut to 200 bytes in it.
        let long = String(repeating: "é", count: 120)
        let file = AtomicFile(path: "/tmp/" + long)
        #expect(file.name == long)
        #expect(
            AtomicFile.isTemporaryName(
                "." + String(repeating: "é", count: 100) + ".keyedarchive-00000000000000ff.tmp", of: long))
    }

    @Test func aLongNameIsWritten() throws {
        let dir = try ScratchDirectory("atomic")
        let name = String(repeating: "n", count: 250)
        try AtomicFile.write(Self.old, to: dir.file(name))
        #expect(dir.entries() == [name])
    }

    /// The leftovers of a killed writer go with the next write of the same file; a temporary file a
    /// live writer holds (in this process, or locked by another) stays, as do other files' and names
    /// outside the pattern.
    @Test func theNextWriteRemovesStaleTemporariesOnly() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "t.plist")
        let stale = try dir.write(Self.payload(5000), ".t.plist.keyedarchive-00000000deadbeef.tmp")
        let otherFiles = try dir.write(Self.payload(10), ".u.plist.keyedarchive-00000000deadbeef.tmp")
        let notOurs = try dir.write(Self.payload(10), ".t.plist.keyedarchive-notours.tmp")
        let inProgress = AtomicFile(path: path)
        try inProgress.write(Data("in progress".utf8))
        let live = try #require(inProgress.temporaryPath)

        try AtomicFile.write(Data("next".utf8), to: path)
        #expect(!FileManager.default.fileExists(atPath: stale))
        for kept in [otherFiles, notOurs, live] { #expect(FileManager.default.fileExists(atPath: kept), "\(kept)") }
        #expect(try dir.read("t.plist") == Data("next".utf8))

        // The writer in progress was not disturbed: its commit wins.
        try inProgress.commit()
        #expect(try dir.read("t.plist") == Data("in progress".utf8))
        #expect(!FileManager.default.fileExists(atPath: live))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs flock(1)"))
    func aTemporaryLockedByAnotherProcessIsKeptUntilItDies() throws {
        let dir = try ScratchDirectory("atomic")
        let path = try dir.write(Self.old, "t.plist")
        let held = try dir.write(Self.payload(100), ".t.plist.keyedarchive-0000000000c0ffee.tmp")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // -F: the lock's holder is the process killed (no child keeps the lock after it dies).
        holder.arguments = ["-F", "-x", held, "/bin/sh", "-c", "echo locked; exec sleep 60"]
        let pipe = Pipe()
        holder.standardOutput = pipe
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        _ = pipe.fileHandleForReading.availableData  // "locked": the other process holds the lock

        try AtomicFile.write(Data("one".utf8), to: path)
        #expect(FileManager.default.fileExists(atPath: held), "a live writer's temporary file stays")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try AtomicFile.write(Data("two".utf8), to: path)
        #expect(!FileManager.default.fileExists(atPath: held), "a dead writer's temporary file goes")
        #expect(dir.entries() == ["t.plist"])
    }

    @Test func concurrentWritersOfOneFileLeaveOneCompleteVersion() async throws {
        let dir = try ScratchDirectory("atomic")
        let path = dir.file("shared.plist")
        let versions = (0..<8).map { Self.payload(64 << 10, seed: UInt8($0)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for version in versions {
                group.addTask { for _ in 0..<25 { try AtomicFile.write(version, to: path) } }
            }
            try await group.waitForAll()
        }
        #expect(versions.contains(try dir.read("shared.plist")))
        #expect(dir.entries() == ["shared.plist"])
    }

    @Test(
        .enabled(
            if: !Privileges.isRoot || Privileges.canMountTmpfs,
            "as root, directory permissions do not stop a write: needs a read-only tmpfs, which this process may not mount"
        ))
    func aReadOnlyDirectoryIsAnIOError() throws {
        // As root, permissions do not stop a write: the directory is a tmpfs remounted read-only.
        let mount: TmpfsMount? = Privileges.isRoot ? try TmpfsMount(size: "64k") : nil
        let scratch = try mount == nil ? ScratchDirectory("atomic") : nil
        let directory = mount?.path ?? scratch?.path ?? ""
        let path = directory + "/a.plist"
        try Self.old.write(to: URL(fileURLWithPath: path))
        if let mount {
            try Privileges.remountReadOnly(mount.path)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        }
        let error = try #require(throws: PlistError.self) { try AtomicFile.write(Self.payload(1000), to: path) }
        #expect(error.code == .io)
        let cause = mount == nil ? errnoText(.EACCES) : errnoText(.EROFS)
        #expect(error.detail.hasPrefix("cannot write '\(path)': ") && error.detail.contains(cause), "\(error.detail)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["a.plist"])
    }

    @Test(.enabled(if: Privileges.canMountTmpfs, "mounting a small tmpfs needs root (CAP_SYS_ADMIN)"))
    func aFullFileSystemLeavesTheTargetAndFreesItsSpace() throws {
        let mount = try TmpfsMount(size: "256k")
        let path = mount.path + "/prefs.plist"
        let old = Self.payload(64 << 10, seed: 7)
        try old.write(to: URL(fileURLWithPath: path))
        for size in [1 << 20, 200 << 10] {
            let error = try #require(throws: PlistError.self) { try AtomicFile.write(Self.payload(size), to: path) }
            #expect(error.code == .io)
            #expect(error.detail.hasPrefix("cannot write '\(path)': ") && error.detail.contains(errnoText(.ENOSPC)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == old)
            #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == ["prefs.plist"])
        }
        // The space of the failed writes was given back: a write that fits beside the old file succeeds.
        try AtomicFile.write(Self.payload(100 << 10), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.payload(100 << 10))

        // A killed writer's leftover takes the room a write needs: the next write removes it first.
        let leftover = mount.path + "/.prefs.plist.keyedarchive-00000000000000aa.tmp"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Self.payload(100 << 10)))
        try AtomicFile.write(Self.payload(120 << 10, seed: 9), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.payload(120 << 10, seed: 9))
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == ["prefs.plist"])
    }
}
