// Sources/PropertyList/Files/AtomicFile.swift - Unsafe fence: the package's one atomic, durable file
// write (the libraries' file writes and every file the `bplist` tool writes).
//
// The protocol, in order:
// 1. The path is followed through its symbolic links (up to 40, as the kernel does; a relative link
//    is read from the link's directory): the file replaced is the one the link names, so the link
//    survives and keeps naming the new contents. A target that exists and is not a regular file
//    (`/dev/null`, a named pipe, a terminal) is written to directly, never replaced.
// 2. Stale temporary files of the same target are removed: those a killed writer left (see below).
// 3. A temporary file `.<name>.keyedarchive-<16 hex digits>.tmp` is created (`O_EXCL`) in the
//    target's directory and locked with `flock`; when the target exists it is created 0600, then
//    given the target's owner and group (where the process may) and mode, before any byte is
//    written to it. A new target gets 0666 less the umask, as `open(2)` gives.
// 4. The bytes are written to it (in one piece or as they come: it is a `PlistByteSink`).
// 5. `commit()`: `fsync` the temporary file (`F_FULLFSYNC` on Darwin), `rename` it over the target
//    (one step: a reader sees the old file or the new one), `fsync` the directory (so the rename
//    survives a power loss), then close.
// On any failure before the rename the temporary file is removed and the target is untouched. A
// failure of the directory's `fsync` after the rename is reported, naming what happened (the new
// contents are in place; whether they survive a power loss is unknown); a file system that cannot
// sync a directory (EINVAL) or a directory that cannot be opened for reading is skipped silently.
//
// Leftovers. A process killed between steps 3 and 5 leaves its temporary file. The next write of the
// same target removes every temporary file of its name pattern that no live writer holds: a writer
// keeps its `flock` until after its rename (the kernel drops the locks of a dead process), so a
// temporary file whose lock can be taken (and that still is the file opened) belongs to nobody.
// A writer that lost its new temporary file to a cleaner in the instant between creating and
// locking it (the check after the lock sees it) makes another. Temporary files of this process are
// also kept in a table the cleaner skips (on NFS `flock` is a per-process lock).
//
// Unsafe code: the C calls take paths as C strings (each a Swift `String` bridged for the call,
// which the call does not keep) and `stat` structures by pointer (a local variable, for the call).
// The bytes written go through `FileDescriptorIO.writeAll` (the streaming writer's fenced I/O).
//
// Platforms: where the C library is not POSIX (Windows, WASI; `KEYEDARCHIVE_NO_POSIX_IO`), the
// bytes are collected and written at `commit()` with Foundation's atomic write, whose durability is
// Foundation's.

internal import Synchronization

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Faults injected into ``AtomicFile``'s steps: the seam the fault tests use, through
/// ``AtomicFileFaults/injected`` (a task-local value, so a test's faults reach only the writes its
/// own task makes).
package struct AtomicFileFaults: Sendable {
    /// The steps of a write that can be made to fail.
    package enum Step: String, Sendable, Hashable, CaseIterable {
        /// Creating the temporary file.
        case create
        /// One `write` of bytes to the temporary file (or to a target written directly).
        case write
        /// The `fsync` of the temporary file.
        case syncFile
        /// The `rename` over the target.
        case rename
        /// The `fsync` of the directory, after the rename.
        case syncDirectory
    }

    /// The `errno` value that `step` fails with, or nil to run it; `bytesWritten` is the count of
    /// bytes written to the file so far.
    package var inject: @Sendable (_ step: Step, _ bytesWritten: Int) -> Int32?

    package init(_ inject: @escaping @Sendable (_ step: Step, _ bytesWritten: Int) -> Int32?) {
        self.inject = inject
    }

    /// `step` fails with `code` (an `errno` value) once at least `bytes` bytes are written.
    package static func failing(_ step: Step, with code: Int32, afterBytes bytes: Int = 0) -> Self {
        Self { s, written in s == step && written >= bytes ? code : nil }
    }

    /// The faults of the writes made by the current task (nil: none).
    @TaskLocal package static var injected: AtomicFileFaults?
}

/// A file replaced atomically and durably: written to a temporary file beside it, flushed to disk,
/// renamed over it; the one write path of the package's files (see the head of this file).
///
/// Write bytes with `write(_:)` (also as a ``PlistByteSink``), then `commit()`. Until
/// the commit succeeds the target is as it was; ``abandon()`` (or releasing the value) removes the
/// temporary file. Not `Sendable`: one writer at a time.
package final class AtomicFile: PlistByteSink {
    /// The path as given (for messages).
    package let path: String
    /// The file replaced: `path` with its symbolic links followed.
    package let target: String
    /// The temporary file, once created (nil when the target is written directly).
    package private(set) var temporaryPath: String?
    /// Bytes written so far.
    package private(set) var bytesWritten = 0

    private let faults: AtomicFileFaults?
    /// The path's links did not end within 40 (a loop): written as `open(2)` would, ELOOP.
    private let looping: Bool
    private var state = State.pending
    private var direct = false
    #if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
        private var descriptor: Int32 = -1
    #else
        private var pending = Data()
    #endif

    private enum State {
        case pending, open, committed
        case failed(PlistError)
    }

    /// A write of `path` (nothing touches the disk until the first write or the commit).
    package init(path: String) {
        self.path = path
        let resolved = Self.resolve(path)
        target = resolved ?? path
        looping = resolved == nil
        faults = AtomicFileFaults.injected
    }

    /// A write of the file `url` names.
    ///
    /// - Throws: ``PlistError/Code/io`` when `url` is not a file URL.
    package convenience init(url: URL) throws(PlistError) {
        guard url.isFileURL else { throw PlistError(.io, "cannot write '\(url)': not a file URL") }
        self.init(path: url.path)
    }

    /// Writes `data` to `path` atomically and durably: the file is as it was, or holds `data`.
    ///
    /// - Throws: ``PlistError/Code/io`` naming the file and the cause.
    package static func write(_ data: Data, to path: String) throws(PlistError) {
        let file = AtomicFile(path: path)
        try file.write(data)
        try file.commit()
    }

    /// Writes `data` to the file `url` names, as `write(_:to:)` with a path.
    package static func write(_ data: Data, to url: URL) throws(PlistError) {
        let file = try AtomicFile(url: url)
        try file.write(data)
        try file.commit()
    }

    /// Appends `data`.
    package func write(_ data: Data) throws(PlistError) {
        try write(data.span)
    }

    /// The directory of the target (`.` for a bare name).
    package var directory: String {
        guard let slash = target.lastIndex(of: "/") else { return "." }
        return slash == target.startIndex ? "/" : String(target[..<slash])
    }

    /// The file name of the target.
    package var name: String {
        guard let slash = target.lastIndex(of: "/") else { return target }
        return String(target[target.index(after: slash)...])
    }

    /// The error for a failed `what`, with the `errno` text of `code`.
    private func failure(_ what: String, _ code: Int32) -> PlistError {
        PlistError(.io, "cannot write '\(path)': \(what): \(Self.describe(code))")
    }

    /// Records `error` as the outcome, removes the temporary file, and returns it.
    private func fail(_ error: PlistError) -> PlistError {
        abandon()
        state = .failed(error)
        return error
    }

    /// The file `path` names after following symbolic links (a relative link is read from the link's
    /// directory); `path` itself when it is not a link. A link to a file that does not exist yet
    /// names that file. `path` itself after 40 links (a loop).
    package static func resolvingLinks(_ path: String) -> String {
        resolve(path) ?? path
    }

    /// The file `path` names after following its symbolic links; nil after 40 links (a loop), where
    /// the kernel gives up too.
    static func resolve(_ path: String) -> String? {
        var current = path
        for _ in 0...40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            if destination.hasPrefix("/") {
                current = destination
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + destination
            } else {
                current = destination
            }
        }
        return nil
    }

    // MARK: Temporary names

    /// What every temporary file name holds after the target's name.
    static let marker = ".keyedarchive-"

    /// The target's name as it appears in temporary names: at most 200 UTF-8 bytes of it, so that
    /// the temporary name stays within the 255 bytes file systems allow.
    static func stem(of name: String) -> String {
        var stem = ""
        var bytes = 0
        for character in name {
            bytes += character.utf8.count
            if bytes > 200 { break }
            stem.append(character)
        }
        return stem
    }

    /// A new temporary name for the target `name`.
    static func temporaryName(for name: String) -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)  // shipped randomness: a fresh name
        return "." + stem(of: name) + marker + String(repeating: "0", count: 16 - hex.count) + hex + ".tmp"
    }

    /// Whether `entry` is a temporary name of the target `name` (of any writer).
    package static func isTemporaryName(_ entry: String, of name: String) -> Bool {
        let prefix = "." + stem(of: name) + marker
        guard entry.hasPrefix(prefix), entry.hasSuffix(".tmp") else { return false }
        let middle = entry.utf8.dropFirst(prefix.utf8.count).dropLast(4)
        return middle.count == 16 && middle.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The temporary files this process is writing (the cleaner never removes them).
    private static let live = Mutex<Set<String>>([])

    deinit { abandon() }
}

#if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
    extension AtomicFile {
        /// Appends `bytes` to the file.
        package func write(_ bytes: Span<UInt8>) throws(PlistError) {
            let fd = try openForWriting()
            if let code = faults?.inject(.write, bytesWritten) { throw fail(failure("writing failed", code)) }
            do {
                try FileDescriptorIO.writeAll(fd, bytes)
            } catch {
                throw fail(PlistError(.io, "cannot write '\(path)': \(error.detail)"))
            }
            bytesWritten += bytes.count
        }

        /// Flushes the file, renames it over the target and flushes the directory.
        ///
        /// - Throws: ``PlistError/Code/io`` naming the file and the cause; the target is untouched
        ///   (apart from a failure to flush the directory after the rename, which says so).
        package func commit() throws(PlistError) {
            if case .failed(let error) = state { throw error }
            if case .committed = state { return }
            let fd = try openForWriting()
            if direct {
                descriptor = -1
                state = .committed
                if close(fd) != 0 { throw failure("closing failed", errno) }
                return
            }
            guard let temporary = temporaryPath else { throw fail(failure("no temporary file", EINVAL)) }
            if let code = faults?.inject(.syncFile, bytesWritten) ?? Self.fullSync(fd) {
                throw fail(failure("flushing to disk failed", code))
            }
            if let code = faults?.inject(.rename, bytesWritten) {
                throw fail(failure("renaming the temporary file over it failed", code))
            }
            guard unsafe rename(temporary, target) == 0 else {
                throw fail(failure("renaming the temporary file over it failed", errno))
            }
            // The lock is kept until the name is gone (a cleaner must not take the file before).
            descriptor = -1
            close(fd)
            Self.live.withLock { _ = $0.remove(temporary) }
            temporaryPath = nil
            state = .committed
            if let code = faults?.inject(.syncDirectory, bytesWritten) ?? syncDirectory() {
                throw PlistError(
                    .io,
                    "'\(path)' was replaced, but flushing its directory failed: \(Self.describe(code)) "
                        + "(the new contents may not survive a power loss)")
            }
        }

        /// Closes and removes the temporary file; the target stays as it was. Does nothing after a
        /// commit.
        package func abandon() {
            if descriptor >= 0 {
                if let temporary = temporaryPath {
                    // Unlinked before the descriptor (and its lock) goes.
                    _ = unsafe unlink(temporary)
                }
                close(descriptor)
                descriptor = -1
            } else if let temporary = temporaryPath {
                _ = unsafe unlink(temporary)
            }
            if let temporary = temporaryPath { Self.live.withLock { _ = $0.remove(temporary) } }
            temporaryPath = nil
            if case .committed = state { return }
            if case .failed = state { return }
            state = .failed(PlistError(.io, "cannot write '\(path)': the write was abandoned"))
        }

        /// The descriptor written to: the temporary file (or a non-regular target), made on first use.
        private func openForWriting() throws(PlistError) -> Int32 {
            switch state {
            case .open: return descriptor
            case .failed(let error): throw error
            case .committed: throw PlistError(.io, "cannot write '\(path)': already committed")
            case .pending: break
            }
            if looping { throw fail(failure("cannot follow its symbolic links", ELOOP)) }
            var existing = stat()
            let exists = unsafe stat(target, &existing) == 0
            let kind = existing.st_mode & mode_t(S_IFMT)
            if exists && kind == mode_t(S_IFDIR) { throw fail(failure("cannot replace", EISDIR)) }
            if exists && kind != mode_t(S_IFREG) {
                // A device, a pipe or a socket: written in place, as a shell's `>` writes it.
                let fd = unsafe open(target, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw fail(failure("cannot open", errno)) }
                direct = true
                descriptor = fd
                state = .open
                return fd
            }
            if let code = faults?.inject(.create, 0) {
                throw fail(failure("cannot create a temporary file in '\(directory)'", code))
            }
            removeStaleTemporaries()
            for _ in 0..<16 {
                let candidate = directory + "/" + Self.temporaryName(for: name)
                let fd = unsafe open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0o600 : 0o666)
                if fd < 0 {
                    if errno == EEXIST || errno == EINTR { continue }
                    throw fail(failure("cannot create a temporary file in '\(directory)'", errno))
                }
                Self.lock(fd)
                // A cleaner may have taken the file between its creation and the lock: then make another.
                guard Self.isSameFile(fd, candidate) else {
                    close(fd)
                    continue
                }
                Self.live.withLock { _ = $0.insert(candidate) }
                temporaryPath = candidate
                descriptor = fd
                state = .open
                if exists { Self.keepAttributes(of: existing, on: fd) }
                return fd
            }
            throw fail(failure("cannot create a temporary file in '\(directory)'", EEXIST))
        }

        /// Gives the file `fd` the owner and group of `old` where the process may (root may; a user
        /// may give a group it belongs to), then its mode (after the owner: a change of owner clears
        /// the set-user-ID bit). Best effort: a file system without owners or modes keeps its own.
        private static func keepAttributes(of old: stat, on fd: Int32) {
            if old.st_uid != geteuid() || old.st_gid != getegid() {
                if fchown(fd, old.st_uid, old.st_gid) != 0 { _ = fchown(fd, uid_t.max, old.st_gid) }
            }
            _ = fchmod(fd, old.st_mode & 0o7777)
        }

        /// Takes the exclusive `flock` of `fd`, waiting (a cleaner holds it only for an instant). A
        /// file system without locks is written without one (and its leftovers stay).
        private static func lock(_ fd: Int32) {
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        }

        /// Whether `path` still names the file open as `fd`.
        private static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
            var opened = stat()
            var named = stat()
            guard unsafe fstat(fd, &opened) == 0, unsafe lstat(path, &named) == 0 else { return false }
            return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
        }

        /// Removes the temporary files of this target that no live writer holds (left by a writer that
        /// was killed): their `flock` can be taken, and they are not this process's own.
        package func removeStaleTemporaries() {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            let base = name
            for entry in entries where Self.isTemporaryName(entry, of: base) {
                let candidate = directory + "/" + entry
                if Self.live.withLock({ $0.contains(candidate) }) { continue }
                var fd = unsafe open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                if fd < 0 { fd = unsafe open(candidate, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
                guard fd >= 0 else { continue }
                if flock(fd, LOCK_EX | LOCK_NB) == 0, Self.isSameFile(fd, candidate) {
                    _ = unsafe unlink(candidate)
                }
                close(fd)
            }
        }

        /// Flushes `fd` to the disk: `F_FULLFSYNC` on Darwin (its `fsync` leaves the data in the
        /// drive's cache), falling back to `fsync`; nil on success, else the `errno`.
        private static func fullSync(_ fd: Int32) -> Int32? {
            #if canImport(Darwin)
                if fcntl(fd, F_FULLFSYNC) == 0 { return nil }
            #endif
            while fsync(fd) != 0 {
                if errno != EINTR { return errno }
            }
            return nil
        }

        /// Flushes the directory entry of the rename; nil on success or where the file system cannot
        /// (EINVAL) or the directory cannot be opened for reading, else the `errno`.
        private func syncDirectory() -> Int32? {
            let fd = unsafe open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            guard let code = Self.fullSync(fd) else { return nil }
            return code == EINVAL || code == EROFS || code == EBADF ? nil : code
        }

        /// The text of an `errno` value.
        static func describe(_ code: Int32) -> String { FileDescriptorIO.describe(code) }

    }
#else
    extension AtomicFile {
        /// Appends `bytes` (collected until ``commit()`` on this platform).
        package func write(_ bytes: Span<UInt8>) throws(PlistError) {
            switch state {
            case .failed(let error): throw error
            case .committed: throw PlistError(.io, "cannot write '\(path)': already committed")
            case .pending, .open: state = .open
            }
            if let code = faults?.inject(.write, bytesWritten) {
                abandon()
                let error = PlistError(.io, "cannot write '\(path)': writing failed: error \(code)")
                state = .failed(error)
                throw error
            }
            FileDescriptorIO.append(bytes, to: &pending)
            bytesWritten += bytes.count
        }

        /// Writes the bytes collected with Foundation's atomic write.
        package func commit() throws(PlistError) {
            if case .failed(let error) = state { throw error }
            if case .committed = state { return }
            if looping {
                let error = PlistError(.io, "cannot write '\(path)': too many levels of symbolic links")
                state = .failed(error)
                throw error
            }
            let data = pending
            pending = Data()
            if let code = faults?.inject(.rename, bytesWritten) {
                let error = PlistError(.io, "cannot write '\(path)': renaming failed: error \(code)")
                state = .failed(error)
                throw error
            }
            do {
                try data.write(to: URL(fileURLWithPath: target), options: .atomic)
            } catch {
                let failure = PlistError(.io, "cannot write '\(path)': \(error)")
                state = .failed(failure)
                throw failure
            }
            state = .committed
        }

        /// Drops the bytes collected; the target stays as it was.
        package func abandon() {
            pending = Data()
            if case .committed = state { return }
            if case .failed = state { return }
            state = .failed(PlistError(.io, "cannot write '\(path)': the write was abandoned"))
        }

        /// Does nothing on this platform (no temporary file is left by a killed writer of Foundation's).
        package func removeStaleTemporaries() {}

        static func describe(_ code: Int32) -> String { "error \(code)" }
    }
#endif
