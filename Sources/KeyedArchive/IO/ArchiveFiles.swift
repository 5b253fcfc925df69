// Sources/KeyedArchive/IO/ArchiveFiles.swift - Archives to and from files, written atomically.
//
// The archive is produced completely in memory first (an encoding error never touches the file).
// It is then written by the package's one atomic write (`AtomicFile`, in PropertyList): a temporary
// file beside the target (beside the file a symbolic link names), flushed to disk, renamed over the
// target, and the directory flushed. A failure or a crash at any point before the rename leaves the
// previous archive as it was; the rename is atomic.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension KeyedArchiver {
    /// Archives `root` under `"root"` and writes it to `url` atomically and durably: the file is
    /// either the previous archive or the complete new one, never a partial write (see
    /// `PropertyList`'s "Writing files safely" for the whole guarantee).
    ///
    /// - Throws: Encoding errors (the file is untouched), or `io` naming the file and the cause (the
    ///   file is untouched).
    public static func archiveRootObject(_ root: some KeyedArchiveValue, toFile url: URL) throws {
        let data = try archivedData(withRootObject: root)
        try writeAtomically(data, to: url)
    }

    /// Writes finished archive bytes to `url` through the package's atomic write.
    static func writeAtomically(_ data: Data, to url: URL) throws(KeyedArchiveError) {
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
    }
}

extension KeyedUnarchiver {
    /// Reads the archive at `url` and unarchives its root object as `type`.
    ///
    /// The file is read into memory unless `access` asks for a map (see
    /// `BinaryPlistDocument.FileAccess`, which says what mapping installs in the process). A mapped
    /// file that shrinks while it is read makes the call throw `io`, never
    /// crash.
    ///
    /// - Parameters:
    ///   - type: The type of the root object.
    ///   - url: A file URL.
    ///   - access: Read (the default) or map the file.
    ///   - limits: Bounds for hostile input.
    /// - Throws: `io` when the file cannot be read or changed while it was
    ///   read, otherwise as ``unarchivedObject(ofClass:from:limits:)``.
    public static func unarchivedObject<T: KeyedArchiveValue>(
        ofClass type: T.Type, fromFile url: URL, access: BinaryPlistDocument.FileAccess = .read,
        limits: KeyedArchiveLimits = .default
    ) throws -> T {
        let file: FileBytes
        do {
            file = try FileBytes(contentsOf: url, access: access)
        } catch {
            throw KeyedArchiveError(.io, "reading \(url.lastPathComponent) failed: \(error)")
        }
        let result: T
        do {
            result = try unarchivedObject(ofClass: type, from: file.data, limits: limits)
        } catch {
            try file.throwIfChanged(url)
            throw error
        }
        try file.throwIfChanged(url)
        return result
    }
}

extension FileBytes {
    /// Throws `io` when a read faulted on a page the mapped file no longer has.
    fileprivate func throwIfChanged(_ url: URL) throws(KeyedArchiveError) {
        if let changed = mapping?.changedError() {
            throw KeyedArchiveError(.io, "reading \(url.lastPathComponent) failed: \(changed)")
        }
    }
}
