// Tests/bplistToolTests/WriteFaultTests.swift - The tool's file outputs under real faults: killed with
// SIGKILL in the middle of large writes, a full file system, a read-only directory, dangling links.
//
// Every file the tool writes goes through the library's atomic write (`AtomicFile`); the library's
// own suite injects a fault at each of its steps. Here the faults are real, on the built `bplist`:
// after any of them the target is byte for byte its previous contents or the complete new file,
// the error is one line naming the file and the cause, and no temporary file outlives the next write.

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

/// What this process may do beyond an ordinary user's rights, found out once by trying.
enum FaultPrivileges {
    static let isRoot: Bool = {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return geteuid() == 0
        #else
            return false
        #endif
    }()

    /// Whether a `tmpfs` can be mounted (root with CAP_SYS_ADMIN on Linux): tried once.
    static let canMountTmpfs: Bool = {
        guard let probe = try? TempDir() else { return false }
        guard (try? run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.url.path])) != nil else {
            return false
        }
        _ = try? run("/usr/bin/umount", [probe.url.path])
        return true
    }()

    /// `setpriv`, to run the tool as `nobody` (as root, permissions do not stop a write).
    static let setpriv = "/usr/bin/setpriv"
    static let canDropPrivileges = isRoot && FileManager.default.isExecutableFile(atPath: setpriv)

    struct Failed: Error, CustomStringConvertible { var description: String }

    static func run(_ executable: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw Failed(description: executable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: "\(executable) \(arguments)") }
    }
}

/// A `tmpfs` of `size` mounted at a new temporary directory while the value lives.
final class SmallFileSystem {
    let directory: TempDir
    var path: String { directory.url.path }

    init(size: String) throws {
        directory = try TempDir()
        try FaultPrivileges.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", path])
    }

    deinit { _ = try? FaultPrivileges.run("/usr/bin/umount", [path]) }
}

/// The names of the atomic write's temporary files in `directory` (of any target).
private func temporaries(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".keyedarchive-") }
}

@Suite struct WriteFaultTests {
    /// About `count` MiB: `count` 1 MiB data values (base64 in XML, written in 64 KiB pieces) and a number.
    static func blobs(seed: UInt8, count: Int = 3) -> PlistValue {
        let blobs = (0..<count).map { n in
            PlistValue.data(Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ n &* 7 &+ Int(seed)) }))
        }
        return ["seed": .int(seed), "blobs": .array(blobs)]
    }

    @Test(.enabled(if: FaultPrivileges.canMountTmpfs, "mounting a small tmpfs needs root (CAP_SYS_ADMIN)"))
    func aFullFileSystemLeavesEveryOutputAsItWas() throws {
        let fs = try SmallFileSystem(size: "256k")
        let inputs = try TempDir()
        let big = try inputs.write(try Self.blobs(seed: 1).encoded(), "big.bplist")
        let out = fs.path + "/out.xml"
        let previous = Data("previous\n".utf8)
        try previous.write(to: URL(fileURLWithPath: out))
        let prefs = fs.path + "/prefs.plist"
        let prefsBytes = try (["name": .string(String(repeating: "x", count: 60_000))] as PlistValue).encoded()
        try prefsBytes.write(to: URL(fileURLWithPath: prefs))
        // Fill the rest, so that even a small rewrite of prefs.plist cannot fit beside it.
        let filler = fs.path + "/filler"
        _ = FileManager.default.createFile(atPath: filler, contents: Data(count: 150 << 10))

        let runs: [[String]] = [
            ["convert", big, "--to", "xml", "-o", out],
            ["convert", big, "--to", "binary", "-o", out],
            ["set", prefs, "name", "--string", String(repeating: "y", count: 60_000)],
            ["generate", "strings", "--bytes", "1M", "--out", out],
        ]
        for args in runs {
            let r = try Tool.run(args)
            let target = args[0] == "set" ? prefs : out
            #expect(r.status == 1, "\(args.prefix(3)): \(r.stderr)")
            #expect(r.stderrLines.count == 1, "\(args.prefix(3)): \(r.stderr)")
            #expect(r.stderr.contains("cannot write '\(target)'"), "\(args.prefix(3)): \(r.stderr)")
            #expect(r.stderr.contains("No space left on device"), "\(args.prefix(3)): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == previous)
            #expect(try Data(contentsOf: URL(fileURLWithPath: prefs)) == prefsBytes)
            #expect(temporaries(in: fs.path).isEmpty, "\(args.prefix(3))")
        }
        // Room again: the same edit succeeds.
        try FileManager.default.removeItem(atPath: filler)
        let r = try Tool.run(["set", prefs, "name", "--string", "short"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PlistValue.decode(from: Data(contentsOf: URL(fileURLWithPath: prefs))).value["name"] == "short")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fs.path).sorted() == ["out.xml", "prefs.plist"])
    }

    @Test(
        .enabled(
            if: !FaultPrivileges.isRoot || FaultPrivileges.canDropPrivileges,
            "as root, permissions do not stop a write, and setpriv(1) is missing to run the tool as nobody"))
    func aReadOnlyDirectoryIsOneErrorLine() throws {
        let dir = try TempDir()
        let sub = dir.file("locked").path
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        let input = try dir.write(try (["a": "b"] as PlistValue).encoded(), "in.bplist")
        let target = sub + "/prefs.plist"
        let before = try (["k": 1] as PlistValue).encoded()
        try before.write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        // Readable and searchable by everyone, writable by nobody but its owner (root, when running as root).
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sub)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sub) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        let exe = try #require(Tool.executable)
        for args in [["set", target, "k", "--integer", "2"], ["convert", input, "--to", "xml", "-o", target]] {
            let r =
                FaultPrivileges.isRoot
                ? try Tool.run(
                    // env: a tool built for coverage writes its profile when it exits, which nobody
                    // cannot do in the build folder (one more stderr line); /dev/null takes it.
                    ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "LLVM_PROFILE_FILE=/dev/null"]
                        + [exe.path] + args,
                    executable: URL(fileURLWithPath: FaultPrivileges.setpriv))
                : try Tool.run(args)
            #expect(r.status == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderrLines.count == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: cannot write '\(target)'"), "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("Permission denied"), "\(args[0]): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: sub) == ["prefs.plist"])
        }
    }

    @Test func danglingLinksAreFollowedOrRefusedCleanly() throws {
        let dir = try TempDir()
        let input = try dir.write(try (["a": "b"] as PlistValue).encoded(), "in.bplist")
        let fm = FileManager.default
        // Written through: the file the link names is created, the link stays a link.
        try fm.createSymbolicLink(atPath: dir.file("link.plist").path, withDestinationPath: "made.plist")
        let ok = try Tool.run(["convert", input, "--to", "xml", "-o", dir.file("link.plist").path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try PlistValue.decode(from: Data(contentsOf: dir.file("made.plist"))).value == ["a": "b"])
        #expect(try fm.destinationOfSymbolicLink(atPath: dir.file("link.plist").path) == "made.plist")
        // Into a directory that does not exist: one error line, nothing made, the link as it was.
        try fm.createSymbolicLink(atPath: dir.file("broken.plist").path, withDestinationPath: "gone/x.plist")
        let broken = dir.file("broken.plist").path
        let r = try Tool.run(["convert", input, "--to", "xml", "-o", broken])
        #expect(r.status == 1 && r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: cannot write '\(broken)'") && r.stderr.contains("No such file or directory"))
        #expect(try fm.destinationOfSymbolicLink(atPath: broken) == "gone/x.plist")
        // Read: one error line.
        let read = try Tool.run(["print", broken])
        #expect(read.status == 1 && read.stderrLines.count == 1, "\(read.stderr)")
        #expect(
            try fm.contentsOfDirectory(atPath: dir.url.path).sorted() == [
                "broken.plist", "in.bplist", "link.plist", "made.plist",
            ])
    }
}
