// Sources/PropertyList/Binary/Streaming/PlistByteSink.swift - Where a StreamingPlistWriter's bytes go.
//
// The writer buffers its output (1 MiB by default) and hands the sink large chunks, in order; a sink
// only has to append them. Two come with the package: a file (or any file descriptor) and `Data`.
// Where the C library is not POSIX (Windows, WASI), the file sink collects its bytes and writes the
// file when it is closed.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A destination for the bytes of a ``StreamingPlistWriter``.
///
/// The writer calls ``write(_:)`` with consecutive chunks of the file, in order, each at most about
/// the writer's buffer size (``StreamingPlistWriter/Options/bufferSize``) except a large string or
/// data payload, which is handed over as one chunk without being copied. A sink is a class so that
/// its owner keeps a handle to it (to read ``PlistDataSink/data`` or to close a file) while the
/// writer uses it.
///
/// ```swift
/// final class CountingSink: PlistByteSink {
///     var bytes = 0
///     func write(_ chunk: Span<UInt8>) throws(PlistError) { bytes += chunk.count }
/// }
/// ```
public protocol PlistByteSink: AnyObject {
    /// Appends `bytes` to the output.
    ///
    /// - Throws: A ``PlistError`` (by convention with code ``PlistError/Code/io``); the
    ///   writer then stops and reports it from every later call.
    func write(_ bytes: Span<UInt8>) throws(PlistError)
}

/// A sink that collects the output in memory, as `Data`.
public final class PlistDataSink: PlistByteSink {
    /// Everything written so far.
    public private(set) var data = Data()

    /// An empty sink.
    public init() {}

    public func write(_ bytes: Span<UInt8>) throws(PlistError) {
        FileDescriptorIO.append(bytes, to: &data)
    }
}

#if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
    /// A sink that writes to a file, or to any open file descriptor (a pipe, standard output).
    ///
    /// Writes go straight to the descriptor: the writer already gathers them into large chunks. A file
    /// opened by ``init(path:)`` is closed by ``close()`` or, failing that, when the sink is released.
    public final class PlistFileSink: PlistByteSink {
        private var descriptor: Int32
        private let ownsDescriptor: Bool
        /// The path given to ``init(path:)``; nil for a descriptor.
        public let path: String?

        /// Creates `path` (or truncates it) and writes to it.
        ///
        /// - Throws: ``PlistError/Code/io`` when the file cannot be created.
        public init(path: String) throws(PlistError) {
            descriptor = try FileDescriptorIO.create(path)
            ownsDescriptor = true
            self.path = path
        }

        /// Writes to an open descriptor, such as `1` (standard output).
        ///
        /// - Parameters:
        ///   - fileDescriptor: A descriptor open for writing.
        ///   - closesWhenDone: Close it in ``close()`` (and when the sink is released); default `false`.
        public init(fileDescriptor: Int32, closesWhenDone: Bool = false) {
            descriptor = fileDescriptor
            ownsDescriptor = closesWhenDone
            path = nil
        }

        public func write(_ bytes: Span<UInt8>) throws(PlistError) {
            guard descriptor >= 0 else { throw PlistError(.io, "write to \(name), which is closed") }
            do {
                try FileDescriptorIO.writeAll(descriptor, bytes)
            } catch {
                throw PlistError(.io, "\(name): \(error.detail)")
            }
        }

        /// Closes the file (when the sink owns it); later writes fail. Closing twice does nothing.
        ///
        /// - Throws: ``PlistError/Code/io`` when `close` reports an error (data may not have
        ///   reached the disk).
        public func close() throws(PlistError) {
            guard descriptor >= 0 else { return }
            let fd = descriptor
            descriptor = -1
            guard ownsDescriptor else { return }
            if let reason = FileDescriptorIO.closeFile(fd) {
                throw PlistError(.io, "closing \(name) failed: \(reason)")
            }
        }

        private var name: String { path.map { "'\($0)'" } ?? "file descriptor \(descriptor)" }

        deinit {
            if ownsDescriptor && descriptor >= 0 { FileDescriptorIO.closeFile(descriptor) }
        }
    }
#else
    /// A sink that writes to a file.
    ///
    /// On this platform (its C library is not POSIX) the bytes are collected in memory and written
    /// to the file by ``close()``, through Foundation; on Linux and Apple platforms they go to the
    /// file as they come, and a sink can also write to any open file descriptor.
    public final class PlistFileSink: PlistByteSink {
        private var pending: Data? = Data()
        /// The path given to ``init(path:)``.
        public let path: String?

        /// Creates `path` (or truncates it) and writes to it.
        ///
        /// - Throws: ``PlistError/Code/io`` when the file cannot be created.
        public init(path: String) throws(PlistError) {
            self.path = path
            do {
                try Data().write(to: URL(fileURLWithPath: path))
            } catch {
                throw PlistError(.io, "cannot create '\(path)': \(error)")
            }
        }

        public func write(_ bytes: Span<UInt8>) throws(PlistError) {
            guard var data = pending else { throw PlistError(.io, "write to '\(path ?? "")', which is closed") }
            pending = nil  // one owner while appending: no copy
            FileDescriptorIO.append(bytes, to: &data)
            pending = data
        }

        /// Writes what was collected to the file; later writes fail. Closing twice does nothing.
        ///
        /// - Throws: ``PlistError/Code/io`` when the file cannot be written.
        public func close() throws(PlistError) {
            guard let data = pending, let path else { return }
            pending = nil
            do {
                try data.write(to: URL(fileURLWithPath: path))
            } catch {
                throw PlistError(.io, "writing '\(path)' failed: \(error)")
            }
        }
    }
#endif
