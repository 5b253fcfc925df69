// Tests/PropertyListTests/Support/FileFaults.swift - Scratch directories, small tmpfs mounts and file
// descriptor counts for the fault and soak tests.

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

/// A new directory under the system's temporary directory, removed (permissions restored first)
/// when released.
final class ScratchDirectory: Sendable {
    let path: String

    init(_ label: String = "scratch") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, sorted.
    func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// The temporary files of the atomic write left in the directory.
    func temporaries() -> [String] { entries().filter { $0.contains(".keyedarchive-") } }

    func write(_ data: Data, _ name: String) throws -> String {
        try data.write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file(name))) }
}

/// What a test may do beyond an ordinary user's rights, found out once by trying.
enum Privileges {
    /// Whether the process runs as root (so directory permissions do not stop it).
    static let isRoot: Bool = {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return geteuid() == 0
        #else
            return false
        #endif
    }()

    /// Whether this process may mount a `tmpfs` (root with CAP_SYS_ADMIN, Linux): tried once.
    static let canMountTmpfs: Bool = {
        guard let scratch = try? ScratchDirectory("mount-probe") else { return false }
        guard (try? mountTmpfs(at: scratch.path, size: "64k")) != nil else { return false }
        unmount(scratch.path)
        return true
    }()

    /// Mounts a `tmpfs` of `size` (e.g. `256k`) at `path`; `readOnly` remounts it read-only after
    /// `prepare` has filled it.
    static func mountTmpfs(at path: String, size: String) throws {
        try run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", path])
    }

    static func remountReadOnly(_ path: String) throws {
        try run("/usr/bin/mount", ["-o", "remount,ro", path])
    }

    static func unmount(_ path: String) {
        _ = try? run("/usr/bin/umount", [path])
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a command, quietly; throws when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw CommandFailed(description: "\(executable) is missing")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(description: "\(executable) \(arguments) exited with \(process.terminationStatus)")
        }
    }
}

/// A `tmpfs` mounted at a new scratch directory for the life of the value.
final class TmpfsMount {
    let directory: ScratchDirectory
    var path: String { directory.path }

    init(size: String) throws {
        directory = try ScratchDirectory("tmpfs")
        try Privileges.mountTmpfs(at: directory.path, size: size)
    }

    deinit { Privileges.unmount(directory.path) }
}

/// The process's open file descriptors, from /proc/self/fd (nil where there is no /proc).
func openDescriptorCount() -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
}

/// The process's resident set in bytes, from /proc/self/statm (nil where there is no /proc).
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
        return pages * 4096
    #endif
}

/// The `strerror` text of an errno value.
func errnoText(_ code: POSIXErrorCode) -> String {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return strerror(code.rawValue).map { String(cString: $0) } ?? "errno \(code.rawValue)"
    #else
        return "errno \(code.rawValue)"
    #endif
}
