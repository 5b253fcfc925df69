// Sources/PropertyList/Files/FileAccess.swift - Opening property-list files: read into memory by
// default, memory-mapped when the caller asks.
//
// Mapping is an explicit choice because of what it costs the host process: a map is only safe
// against a file that shrinks under it with a process-wide SIGBUS handler (see MappedFile.swift),
// and a library must not change signal dispositions behind its host's back (crash reporters and
// runtimes install their own). So `FileAccess.read` is the default and never touches signals;
// `.mappedIfLarge` and `.mapped` install the guard once, the first time a file is mapped.
//
// Platforms: the map and its guard exist where the C library has `mmap` and `sigaction` in a layout
// written for it here (glibc, musl, Darwin; see MappedFile.swift). Elsewhere (Windows, WASI) every
// file is read, whatever `FileAccess` says, and `isMemoryMapped` is false.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension BinaryPlistDocument {
    /// How a document reads a file.
    ///
    /// Reading copies the file into memory: simple, private, no effect on the process. Mapping
    /// reads only the pages that reads touch (opening a 1 GB file reads its trailer and offset
    /// table), at a price: to survive the file shrinking under the map, the first map installs a
    /// process-wide `SIGBUS` handler that serves faults inside this package's maps and passes every
    /// other fault to the handler that was installed before it. Choose mapping for large files in
    /// a program that owns its signal handling (a command-line tool, a server), not by default in
    /// an app with a crash reporter.
    public enum FileAccess: Sendable, Hashable {
        /// Read the whole file into memory. The default: no map, no signal handler.
        case read
        /// Map files of at least ``BinaryPlistDocument/FileAccess/mappingThreshold`` bytes
        /// read-only; read smaller ones (a map costs more than copying a few pages). Installs the
        /// `SIGBUS` guard on the first map.
        case mappedIfLarge
        /// Map the file read-only, whatever its size (an empty file is read). Installs the `SIGBUS`
        /// guard on the first map.
        case mapped

        /// The size from which ``mappedIfLarge`` maps a file: 1 MiB.
        public static let mappingThreshold = 1 << 20

        /// Whether this platform can map files (glibc, musl and Darwin can; on other platforms
        /// every access reads the file).
        public static var mappingIsAvailable: Bool { FileMapping.isAvailable }

        /// Whether a file of `size` bytes is mapped under this access.
        func maps(size: Int) -> Bool {
            switch self {
            case .read: false
            case .mappedIfLarge: size >= Self.mappingThreshold
            case .mapped: size > 0
            }
        }
    }

    /// Opens a binary property list file: read into memory, or memory-mapped when `access` says so.
    ///
    /// A mapped file is never copied: opening validates the header, the trailer and the offset
    /// table (the only pages read), and each later read touches only the pages of the objects it
    /// decodes. A compressed file is inflated into memory either way.
    ///
    /// **If a mapped file changes.** Bytes rewritten in place may be seen by later reads (a map
    /// shows the file as it is now). If the file shrinks, a read that touches a page past its new
    /// end neither crashes nor returns what it read: it throws ``PlistError/Code/fileChanged``.
    /// Reads that touch only the pages still there succeed. The default, ``FileAccess/read``,
    /// takes a private copy instead.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - access: Read (the default) or map; see ``FileAccess``.
    ///   - limits: Bounds for hostile input.
    ///   - options: Strictness and envelope handling.
    /// - Throws: ``PlistError/Code/io`` when the file cannot be opened, mapped or read, and
    ///   otherwise what ``init(_:limits:options:)`` throws.
    public init(
        contentsOf url: URL, access: FileAccess = .read, limits: PlistLimits = .default,
        options: PlistReadOptions = PlistReadOptions()
    ) throws(PlistError) {
        let file = try FileBytes(contentsOf: url, access: access)
        try self.init(file.data, limits: limits, options: options)
        // An inflated envelope is a private copy: its reads cannot fault.
        if compression == .none { mapping = file.mapping }
        try file.mapping?.checkUnchanged()
    }

    /// Whether the document reads a memory-mapped file (see ``init(contentsOf:access:limits:options:)``).
    public var isMemoryMapped: Bool { mapping != nil }

    /// Throws ``PlistError/Code/fileChanged`` when the mapped file behind this document has
    /// shrunk under a read. Every read of the document checks this itself; call it after reading
    /// ``data`` directly.
    public func checkFileUnchanged() throws(PlistError) {
        try mapping?.checkUnchanged()
    }

    /// Runs `body`, then turns what it returned or threw into `fileChanged` if a read faulted on a
    /// page the file no longer has (when `E` can carry that error).
    @inline(__always)
    func checkingMapping<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        guard let mapping else { return try body() }
        let result: R
        do {
            result = try body()
        } catch {
            if let changed = mapping.changedError() as? E { throw changed }
            throw error
        }
        if let changed = mapping.changedError() as? E { throw changed }
        return result
    }
}

/// A file's bytes: read into memory, or a read-only map of it.
package struct FileBytes: Sendable {
    /// The bytes; for a map, a `Data` over the mapped pages that keeps the map alive.
    package let data: Data
    /// The map, when the file is mapped.
    package let mapping: FileMapping?

    /// Reads or maps the file at `url`.
    package init(contentsOf url: URL, access: BinaryPlistDocument.FileAccess = .read) throws(PlistError) {
        let opened = try FileMapping.open(url, access: access)
        data = opened.data
        mapping = opened.mapping
    }
}

extension FileMapping {
    /// `fileChanged` with the offset of the first faulting read, or nil when no read faulted.
    package func changedError() -> PlistError? {
        guard let offset = faultOffset else { return nil }
        return PlistError(
            .fileChanged, offset: offset,
            "the mapped file shrank while it was read: byte \(offset) of the \(length) mapped is past its end now")
    }

    /// Throws `fileChanged` when a read faulted.
    package func checkUnchanged() throws(PlistError) {
        if let error = changedError() { throw error }
    }
}
