// Sources/KeyedArchive/IO/ArchiveFiles.swift - Archives to and from files, written atomically.
//
// The archive is produced completely in memory first (an encoding error never touches the file).
// It is then written with FoundationEssentials' atomic write: a temporary file in the same
// directory, written in full and flushed with fsync, then renamed over the destination. A crash
// or error at any point before the rename leaves the previous archive as it was; rename is atomic.

public import FoundationEssentials

/// The step that puts finished archive bytes on disk (replaceable in tests, to simulate failures).
struct ArchiveFileWriter: Sendable {
    var write: @Sendable (Data, URL) throws -> Void

    /// Temporary file in the same directory, fsync, rename (swift-foundation's `.atomic`).
    static let atomic = ArchiveFileWriter { data, url in try data.write(to: url, options: [.atomic]) }
}

extension KeyedArchiver {
    /// Archives `root` under `"root"` and writes it to `url` atomically: the file is either the
    /// previous archive or the complete new one, never a partial write.
    ///
    /// - Throws: Encoding errors (the file is untouched), or ``KeyedArchiveError/Code/io``.
    public static func archiveRootObject(_ root: some KeyedArchiveValue, toFile url: URL) throws {
        try archiveRootObject(root, toFile: url, writer: .atomic)
    }

    static func archiveRootObject(_ root: some KeyedArchiveValue, toFile url: URL, writer: ArchiveFileWriter) throws {
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
    /// - Throws: ``KeyedArchiveError/Code/io`` when the file cannot be read, otherwise as
    ///   ``unarchivedObject(ofClass:from:limits:)``.
    public static func unarchivedObject<T: KeyedArchiveValue>(
        ofClass type: T.Type, fromFile url: URL, limits: Limits = Limits()
    ) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw KeyedArchiveError(.io, "reading \(url.lastPathComponent) failed: \(error)")
        }
        return try unarchivedObject(ofClass: type, from: data, limits: limits)
    }
}
