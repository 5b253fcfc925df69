// Sources/PropertyList/Files/FileDescriptorIO.swift - Unsafe fence: the streaming writer's file I/O.
//
// POSIX `write`, `pwrite` and `pread` take a pointer and a byte count. Every call here passes the
// base address of a buffer it borrows for the duration of the call (a `Span`, or a range of an
// array whose bounds are checked first) and at most that buffer's count, advancing over short
// transfers and retrying on EINTR. Nothing escapes the call. Also here: creating the temporary
// file (`mkstemp` writes into its template) and appending a `Span` to `Data`.
//
// The descriptor functions exist where the C library is POSIX (glibc, musl, Darwin). Elsewhere
// (Windows, WASI) only `append` is compiled: `PlistFileSink` writes through Foundation there and the
// streaming writer's offset table stays in memory (see PlistByteSink.swift and OffsetSpool.swift).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum FileDescriptorIO {
    /// Appends `bytes` to `data`.
    static func append(_ bytes: Span<UInt8>, to data: inout Data) {
        // The buffer is exactly the span's bytes, borrowed for the call.
        unsafe bytes.withUnsafeBufferPointer { unsafe data.append($0) }
    }
}

#if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
    extension FileDescriptorIO {
        /// The text of an errno value.
        static func describe(_ code: Int32) -> String {
            guard let text = unsafe strerror(code) else { return "errno \(code)" }
            return unsafe String(cString: text)
        }

        /// Opens (creating or truncating) `path` for writing.
        static func create(_ path: String) throws(PlistError) -> Int32 {
            let fd = unsafe open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw PlistError(.io, "cannot create '\(path)': \(describe(errno))")
            }
            return fd
        }

        /// A new file in `directory`, already unlinked: it disappears when `fd` is closed.
        static func anonymousFile(in directory: String) throws(PlistError) -> Int32 {
            var template = Array((directory + "/bplist-offsets-XXXXXX").utf8CString)
            let fd = unsafe template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                // mkstemp rewrites the six X in place; the buffer is the NUL-terminated template.
                guard let base = buffer.baseAddress else { return -1 }
                return unsafe mkstemp(base)
            }
            guard fd >= 0 else {
                throw PlistError(.io, "cannot create a temporary file in '\(directory)': \(describe(errno))")
            }
            // The path is only needed to unlink it; the descriptor keeps the file alive.
            _ = unsafe template.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return Int32(0) }
                return unsafe unlink(base)
            }
            return fd
        }

        /// Closes `fd`; nil on success, else the reason.
        @discardableResult
        static func closeFile(_ fd: Int32) -> String? {
            close(fd) == 0 ? nil : describe(errno)
        }

        /// Calls `step(done)` (a `write`, `pwrite` or `pread` of the bytes after the first `done`) until
        /// `total` bytes are done, again after EINTR. Returns 0 when done, the `errno` of a failed call,
        /// or EIO for a call that moved no byte (a read at the end of the file; a write never does).
        @inline(__always)
        private static func repeatUntilDone(_ total: Int, _ step: (Int) -> Int) -> Int32 {
            var done = 0
            while done < total {
                let n = step(done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { return EIO }
                done &+= n
            }
            return 0
        }

        /// Writes all of `bytes` at the file position of `fd`.
        static func writeAll(_ fd: Int32, _ bytes: Span<UInt8>) throws(PlistError) {
            let result: Int32 = unsafe bytes.withUnsafeBytes { raw in
                // Each call writes from raw.baseAddress + done, at most raw.count - done bytes: inside `raw`.
                guard let base = raw.baseAddress else { return 0 }
                return repeatUntilDone(raw.count) { done in unsafe write(fd, base + done, raw.count &- done) }
            }
            guard result == 0 else { throw PlistError(.io, "write failed: \(describe(result))") }
        }

        /// Writes `words[start ..< start + count]` (native byte order) at byte `offset` of `fd`.
        static func writeWords(_ fd: Int32, _ words: [UInt64], start: Int, count: Int, at offset: Int)
            throws(PlistError)
        {
            precondition(start >= 0 && count >= 0 && start <= words.count &- count, "words out of range")
            let result: Int32 = unsafe words.withUnsafeBytes { raw in
                // The range start × 8 ..< (start + count) × 8 lies inside `raw` (precondition above).
                guard let base = raw.baseAddress else { return 0 }
                let first = unsafe base + start &* 8
                let total = count &* 8
                return repeatUntilDone(total) { done in
                    unsafe pwrite(fd, first + done, total &- done, off_t(offset &+ done))
                }
            }
            guard result == 0 else {
                throw PlistError(.io, "writing the temporary offset file failed: \(describe(result))")
            }
        }

        /// Reads `count` words (native byte order) from byte `offset` of `fd` into `words[start...]`.
        static func readWords(_ fd: Int32, into words: inout [UInt64], start: Int, count: Int, at offset: Int)
            throws(PlistError)
        {
            precondition(start >= 0 && count >= 0 && start <= words.count &- count, "words out of range")
            let result: Int32 = unsafe words.withUnsafeMutableBytes { raw in
                // The range start × 8 ..< (start + count) × 8 lies inside `raw` (precondition above).
                guard let base = raw.baseAddress else { return 0 }
                let first = unsafe base + start &* 8
                let total = count &* 8
                // A read of 0 bytes: the file ends early (the page was never written), EIO.
                return repeatUntilDone(total) { done in
                    unsafe pread(fd, first + done, total &- done, off_t(offset &+ done))
                }
            }
            guard result == 0 else {
                throw PlistError(.io, "reading the temporary offset file failed: \(describe(result))")
            }
        }
    }
#endif
