// Sources/KeyedArchive/IO/ArchiveFiles.swift - Archives to and from files, written atomically.
//
// The archive is produced completely in memory first (an encoding error never touches the file).
// It is then written with FoundationEssentials' atomic write: a temporary file in the same
// directory, written in full and flushed with fsync, then renamed over the destination. A crash
// or error at any point before the rename leaves the previous archive as it was; rename is atomic.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The step that puts finished archive bytes on disk (replaceable in tests, to simulate failures).
package struct ArchiveFileWriter: Sendable {
    package var write: @Sendable (Data, URL) throws -> Void

    package init(write: @escaping @Sendable (Data, URL) throws -> Void) { self.write = write }

    /// Temporary file in the same directory, fsync, rename (swift-foundation's `.atomic`).
    package static let atomic = ArchiveFileWriter { data, url in try data.write(to: url, options: [.atomic]) }
}

extension KeyedArchiver {
    /// Archives `root` under `"root"` and writes it to `url` atomically: the file is either the
    /// previous archive or the complete new one, never a partial write.
    ///
    /// - Throws: Encoding errors (the file is untouched), or `io`.
    public static func archiveRootObject(_ root: some KeyedArchiveValue, toFile url: URL) throws {
        try archiveRootObject(root, toFile: url, writer: .atomic)
    }

    package static func archiveRootObject(_ root: some KeyedArchiveValue, toFile url: URL, writer: ArchiveFileWriter)
        throws
    {
        let data = try archivedData(withRootObject: root)
        do {
            try writer.write(data, url)
        } catch {
            throw KeyedArchiveError(.io, "writing \(url.lastPathComponent) failed: \(error)")
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
