// Sources/BinaryPlist/Compression/Zlib.swift - The optional zlib envelope; the only C interop.
//
// The envelope is outside the format: a standard zlib stream (RFC 1950) whose payload is the whole
// bplist00 file, so `plistlib.loads(zlib.decompress(b))` reads it. gzip (RFC 1952) is accepted on
// read too. Inflation stops at a caller-set cap: a zip bomb is a typed error, not an allocation.
//
// Unsafe fence: pointers into Swift buffers are lent to zlib only inside the closures below, for the
// duration of one `deflate`/`inflate` call, with avail_in/avail_out set to those buffers' sizes.

internal import CZlib
public import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The envelope around a property list.
@_spi(Internals) public enum CompressionEnvelope: String, Sendable, Hashable, CaseIterable {
    /// Plain `bplist00`.
    case none
    /// A zlib stream (RFC 1950).
    case zlib
    /// A gzip member (RFC 1952).
    case gzip

    /// The envelope `data` starts with, judged by its magic bytes; nil for anything else.
    public static func detect(_ data: Data) -> CompressionEnvelope? {
        guard data.count >= 2 else { return nil }
        let b0 = data[data.startIndex]
        let b1 = data[data.startIndex + 1]
        if b0 == 0x1F && b1 == 0x8B { return .gzip }
        // zlib: CM = 8 (deflate), CINFO <= 7, and the header check (CMF × 256 + FLG) % 31 == 0.
        if b0 & 0x0F == 8, b0 >> 4 <= 7, (UInt16(b0) << 8 | UInt16(b1)) % 31 == 0 { return .zlib }
        return nil
    }
}

/// zlib compression levels and the two entry points.
@_spi(Internals) public enum Zlib {
    /// Compresses `data` into a zlib (RFC 1950) stream.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress (usually a whole `bplist00` file).
    ///   - level: 0 (store) ... 9 (smallest); -1 is zlib's default (6). Level 1 is usually the best
    ///     trade for property lists (measured: faster and often smaller than 6).
    public static func deflate(_ data: Data, level: Int = -1) throws(BinaryPlistError) -> Data {
        guard (-1...9).contains(level) else {
            throw BinaryPlistError(.unencodable, "zlib level \(level) is not -1...9")
        }
        var stream = unsafe z_stream()
        var rc = unsafe deflateInit_(&stream, Int32(level), ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw BinaryPlistError(.compression, "deflateInit failed (\(rc))") }
        defer { unsafe _ = deflateEnd(&stream) }
        // One Z_FINISH call takes the whole input: zlib counts it in a 32-bit uInt.
        guard data.count <= Int(uInt.max) else {
            throw BinaryPlistError(.limitExceeded, "zlib input of \(data.count) bytes is over 4 GiB")
        }
        let bound = unsafe Int(deflateBound(&stream, uLong(data.count)))
        guard bound <= Int(uInt.max) else {
            throw BinaryPlistError(.limitExceeded, "zlib output bound of \(bound) bytes is over 4 GiB")
        }
        // The output is written straight into the Data returned (no second copy); Data(count:) maps
        // zeroed pages lazily, and the tail is cut off below without moving the bytes.
        var out = Data(count: bound)
        rc = unsafe data.withUnsafeBytes { input in
            unsafe out.withUnsafeMutableBytes { output in
                // zlib reads avail_in bytes from next_in and writes at most avail_out bytes to next_out;
                // both are the exact sizes of the lent buffers, which outlive this call.
                unsafe stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                unsafe stream.avail_in = uInt(input.count)
                unsafe stream.next_out = output.bindMemory(to: Bytef.self).baseAddress
                unsafe stream.avail_out = uInt(output.count)
                return unsafe CZlib.deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound guarantees a single Z_FINISH call completes.
        guard rc == Z_STREAM_END else { throw BinaryPlistError(.compression, "deflate failed (\(rc))") }
        out.count = unsafe Int(stream.total_out)
        return out
    }

    /// Inflates a zlib or gzip stream, producing at most `limit` bytes.
    ///
    /// - Throws: `compression` for a corrupt or truncated stream (with the input offset reached),
    ///   `limitExceeded` when the output would pass `limit`, `trailingData` for bytes after the stream.
    public static func inflate(_ data: Data, limit: Int) throws(BinaryPlistError) -> Data {
        var stream = unsafe z_stream()
        // windowBits 15 + 32: detect zlib or gzip from the header.
        let initRC = unsafe inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initRC == Z_OK else { throw BinaryPlistError(.compression, "inflateInit failed (\(initRC))") }
        defer { unsafe _ = inflateEnd(&stream) }
        // zlib inflates straight into one malloc'd block that doubles as needed (realloc: large
        // blocks move their pages instead of being copied) and is handed to `Data` without a copy.
        // It may grow to `cap` = limit + 1 bytes, so that output beyond the limit is seen.
        let cap = limit < Int.max ? max(limit, 0) &+ 1 : Int.max
        var capacity = min(max(1 << 16, data.count < Int.max / 4 ? data.count &* 4 : Int.max), cap)
        guard var base = unsafe malloc(capacity) else {
            throw BinaryPlistError(.compression, "cannot allocate \(capacity) bytes for the inflated output")
        }
        var produced = 0
        var owned = true
        defer { if owned { unsafe free(base) } }
        let outcome: Result<Int, BinaryPlistError> = unsafe data.withUnsafeBytes { input in
            // The input is lent to zlib in pieces of at most 4 GiB (its counters are 32-bit uInt):
            // `fed` bytes have been handed over, and zlib reads avail_in <= input.count - (fed - avail_in)
            // bytes from next_in, inside the lent buffer.
            let first = unsafe input.bindMemory(to: Bytef.self).baseAddress
            var fed = 0
            while true {
                if unsafe stream.avail_in == 0, fed < input.count, let first = unsafe first {
                    let piece = min(input.count &- fed, Int(UInt32.max))
                    unsafe stream.next_in = UnsafeMutablePointer(mutating: first + fed)
                    unsafe stream.avail_in = uInt(piece)
                    fed &+= piece
                }
                let consumedBefore = unsafe fed - Int(stream.avail_in)
                if produced == capacity {
                    guard capacity < cap else {
                        return .failure(
                            BinaryPlistError(
                                .limitExceeded, offset: consumedBefore,
                                "inflating would produce more than \(limit) bytes (maxDecompressedBytes)"))
                    }
                    let grown = capacity <= cap / 2 ? capacity &* 2 : cap
                    guard let p = unsafe realloc(base, grown) else {
                        return .failure(
                            BinaryPlistError(.compression, "cannot grow the inflated output to \(grown) bytes"))
                    }
                    unsafe base = p
                    capacity = grown
                }
                // zlib writes at most avail_out = room bytes at base + produced: produced + room <=
                // capacity, the size of the block.
                let room = min(capacity &- produced, Int(UInt32.max))
                unsafe stream.next_out = (base + produced).assumingMemoryBound(to: Bytef.self)
                unsafe stream.avail_out = uInt(room)
                let rc = unsafe CZlib.inflate(&stream, Z_NO_FLUSH)
                let wrote = unsafe room - Int(stream.avail_out)
                produced &+= wrote
                let consumed = unsafe fed - Int(stream.avail_in)
                switch rc {
                case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
                default:
                    return .failure(
                        BinaryPlistError(.compression, offset: consumed, "corrupt compressed stream (zlib \(rc))"))
                }
                guard produced <= limit else {
                    return .failure(
                        BinaryPlistError(
                            .limitExceeded, offset: consumed,
                            "inflating would produce more than \(limit) bytes (maxDecompressedBytes)"))
                }
                if rc == Z_STREAM_END { return .success(consumed) }
                // No progress possible: the input is exhausted before the end of the stream.
                if unsafe wrote == 0 && stream.avail_in == 0 && fed == input.count {
                    return .failure(BinaryPlistError(.compression, offset: consumed, "compressed stream is truncated"))
                }
            }
        }
        let consumed = try outcome.get()
        guard consumed == data.count else {
            throw BinaryPlistError(
                .trailingData, offset: consumed,
                "\(data.count - consumed) bytes follow the compressed stream")
        }
        // Shrinking keeps the first `produced` bytes; if it fails, the larger block is still valid.
        let block = unsafe realloc(base, max(produced, 1)) ?? base
        owned = false
        return unsafe Data(bytesNoCopy: block, count: produced, deallocator: .free)
    }
}
