// Sources/PropertyList/Compression/Zlib.swift - The optional zlib envelope; the only C interop.
//
// The envelope is outside the format: a standard zlib stream (RFC 1950) whose payload is the whole
// bplist00 file, so `plistlib.loads(zlib.decompress(b))` reads it. gzip (RFC 1952) is accepted on
// read too. Inflation stops at a caller-set cap: a zip bomb is a typed error, not an allocation.
//
// Unsafe fence: pointers into Swift buffers are lent to zlib only inside the closures below, for the
// duration of one `deflate`/`inflate` call, with avail_in/avail_out set to those buffers' sizes.

internal import CZlib

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

extension PlistCompression {
    /// The envelope `data` starts with, judged by its magic bytes; nil for anything else.
    @_spi(Internals) public static func detect(_ data: Data) -> PlistCompression? {
        guard data.count >= 2 else { return nil }
        let b0 = data[data.startIndex]
        let b1 = data[data.startIndex + 1]
        if b0 == 0x1F && b1 == 0x8B { return .gzip }
        // zlib: CM = 8 (deflate), CINFO <= 7, and the header check (CMF × 256 + FLG) % 31 == 0.
        if b0 & 0x0F == 8, b0 >> 4 <= 7, (UInt16(b0) << 8 | UInt16(b1)) % 31 == 0 { return .zlib }
        return nil
    }

    /// The envelope `data` is in: its magic bytes, and for zlib (whose two-byte header some text
    /// also starts with: `x `, `80`) a first kilobyte that inflates without error.
    package static func envelope(of data: Data) -> PlistCompression? {
        guard let kind = detect(data) else { return nil }
        return kind == .gzip || Zlib.beginsStream(data) ? kind : nil
    }

    /// `plain` in this envelope, at zlib `level` (-1 is zlib's default).
    package func wrap(_ plain: Data, level: Int) throws(PlistError) -> Data {
        switch self {
        case .none: plain
        case .zlib: try Zlib.deflate(plain, level: level)
        case .gzip: try Zlib.deflate(plain, level: level, gzip: true)
        }
    }
}

/// zlib compression levels and the two entry points.
@_spi(Internals) public enum Zlib {
    /// The most bytes lent to zlib in one call, in either direction: its counters (`avail_in`,
    /// `avail_out`) are 32-bit `uInt`, so larger buffers are handed over in pieces of this size.
    static let maxPiece = Int(UInt32.max)

    /// Compresses `data` into a zlib (RFC 1950) stream, of any size.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress (usually a whole `bplist00` file).
    ///   - level: 0 (store) ... 9 (smallest); -1 is zlib's default (6). Level 1 is usually the best
    ///     trade for property lists (measured: faster and often smaller than 6).
    ///   - gzip: Write a gzip member (RFC 1952) instead of a zlib stream.
    public static func deflate(_ data: Data, level: Int = -1, gzip: Bool = false) throws(PlistError) -> Data {
        try deflate(data, level: level, piece: maxPiece, gzip: gzip)
    }

    /// Compresses `data` into a gzip member (RFC 1952): the same deflate stream as
    /// ``deflate(_:level:gzip:)``, with gzip's header and trailer instead of zlib's.
    public static func gzip(_ data: Data, level: Int = -1) throws(PlistError) -> Data {
        try deflate(data, level: level, piece: maxPiece, gzip: true)
    }

    /// `deflate(_:level:gzip:)` lending zlib at most `piece` bytes per call (tests use small pieces to
    /// exercise the path that inputs and outputs over 4 GiB take).
    package static func deflate(_ data: Data, level: Int, piece: Int, gzip: Bool = false) throws(PlistError) -> Data {
        guard (-1...9).contains(level) else {
            throw PlistError(.unencodable, "zlib level \(level) is not -1...9")
        }
        let piece = min(max(piece, 1), maxPiece)
        var stream = unsafe z_stream()
        // windowBits 15 (the largest window), + 16 for a gzip header and trailer; memLevel 8 and the
        // default strategy are what deflateInit uses.
        let initRC = unsafe deflateInit2_(
            &stream, Int32(level), Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard initRC == Z_OK else { throw PlistError(.compression, "deflateInit failed (\(initRC))") }
        defer { unsafe _ = deflateEnd(&stream) }
        // deflateBound (a uLong, 64-bit here) is the most a complete stream can take, so the block
        // normally never grows; it is still grown when needed rather than trusted.
        let bound = unsafe Int(clamping: deflateBound(&stream, uLong(clamping: data.count)))
        var out = try OutputBlock(capacity: max(bound, 64))
        let outcome: Result<Void, PlistError> = unsafe data.withUnsafeBytes { input in
            // `fed` bytes have been handed to zlib (see `feed`).
            let first = unsafe input.bindMemory(to: Bytef.self).baseAddress
            var fed = 0
            while true {
                unsafe Zlib.feed(&stream, from: first, count: input.count, fed: &fed, piece: piece)
                if out.room == 0, let e = out.grow() { return .failure(e) }
                let flush = unsafe fed == input.count && stream.avail_in == 0 ? Z_FINISH : Z_NO_FLUSH
                let room = min(out.room, piece)
                let rc = unsafe out.write(room) { next in
                    unsafe stream.next_out = next
                    unsafe stream.avail_out = uInt(room)
                    let rc = unsafe CZlib.deflate(&stream, flush)
                    return (rc, unsafe room &- Int(stream.avail_out))
                }
                switch rc {
                case Z_STREAM_END: return .success(())
                case Z_OK, Z_BUF_ERROR: continue
                default: return .failure(PlistError(.compression, "deflate failed (zlib \(rc))"))
                }
            }
        }
        try outcome.get()
        return out.finish()
    }

    /// Hands zlib the next piece of the input when it has used up the last one: `fed` of the `count`
    /// bytes at `first` have been handed over so far.
    ///
    /// zlib then reads avail_in <= piece bytes from next_in = first + fed - avail_in, which lies
    /// inside the lent buffer (fed <= count).
    @unsafe @inline(__always)
    private static func feed(
        _ stream: inout z_stream, from first: UnsafePointer<Bytef>?, count: Int, fed: inout Int, piece: Int
    ) {
        guard unsafe stream.avail_in == 0, fed < count, let first = unsafe first else { return }
        let take = min(count &- fed, piece)
        unsafe stream.next_in = UnsafeMutablePointer(mutating: first + fed)
        unsafe stream.avail_in = uInt(take)
        fed &+= take
    }

    /// Whether the first kilobyte of `data` inflates without error: a stream zlib accepts so far (the
    /// output is discarded in pieces of 4 KiB, so the probe costs at most the kilobyte's expansion).
    /// An input no longer than the probe must be a whole stream.
    package static func beginsStream(_ data: Data) -> Bool {
        let whole = data.count <= 1024
        var stream = unsafe z_stream()
        let initRC = unsafe inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initRC == Z_OK else { return false }
        defer { unsafe _ = inflateEnd(&stream) }
        let probe = data.prefix(1024)
        var scratch = [UInt8](repeating: 0, count: 4096)
        return unsafe probe.withUnsafeBytes { input in
            unsafe scratch.withUnsafeMutableBytes { output in
                // zlib reads `avail_in` bytes from `next_in` (the probe's bytes) and writes at most
                // `avail_out` to `next_out` (the scratch buffer), both set to those buffers' sizes.
                guard let first = unsafe input.bindMemory(to: Bytef.self).baseAddress,
                    let out = unsafe output.bindMemory(to: Bytef.self).baseAddress
                else { return false }
                unsafe stream.next_in = UnsafeMutablePointer(mutating: first)
                unsafe stream.avail_in = uInt(input.count)
                // Each round consumes input or fills the 4 KiB: a kilobyte expands to 1 MiB at most.
                for _ in 0..<512 {
                    unsafe stream.next_out = out
                    unsafe stream.avail_out = uInt(output.count)
                    switch unsafe CZlib.inflate(&stream, Z_NO_FLUSH) {
                    case Z_STREAM_END: return true
                    case Z_OK: if unsafe stream.avail_in == 0 { return !whole }
                    case Z_BUF_ERROR: return !whole  // no progress: the probe's bytes are used up
                    default: return false
                    }
                }
                return true
            }
        }
    }

    /// Inflates a zlib or gzip stream, of any size, producing at most `limit` bytes.
    ///
    /// - Throws: `compression` for a corrupt or truncated stream (with the input offset reached),
    ///   `limitExceeded` when the output would pass `limit`, `trailingData` for bytes after the stream.
    public static func inflate(_ data: Data, limit: Int) throws(PlistError) -> Data {
        try inflate(data, limit: limit, piece: maxPiece)
    }

    /// `inflate(_:limit:)` lending zlib at most `piece` bytes per call (see `deflate(_:level:piece:)`).
    package static func inflate(_ data: Data, limit: Int, piece: Int) throws(PlistError) -> Data {
        let piece = min(max(piece, 1), maxPiece)
        var stream = unsafe z_stream()
        // windowBits 15 + 32: detect zlib or gzip from the header.
        let initRC = unsafe inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initRC == Z_OK else { throw PlistError(.compression, "inflateInit failed (\(initRC))") }
        defer { unsafe _ = inflateEnd(&stream) }
        // The block may grow to limit + 1 bytes, so that output beyond the limit is seen.
        var out = try OutputBlock(
            capacity: max(1 << 16, data.count < Int.max / 4 ? data.count &* 4 : Int.max),
            cap: limit < Int.max ? max(limit, 0) &+ 1 : Int.max)
        let outcome: Result<Int, PlistError> = unsafe data.withUnsafeBytes { input in
            // `fed` bytes have been handed to zlib (see `feed`).
            let first = unsafe input.bindMemory(to: Bytef.self).baseAddress
            var fed = 0
            while true {
                unsafe Zlib.feed(&stream, from: first, count: input.count, fed: &fed, piece: piece)
                let consumedBefore = unsafe fed - Int(stream.avail_in)
                if out.room == 0 {
                    guard out.capacity < out.cap else {
                        return .failure(
                            PlistError(
                                .limitExceeded, offset: consumedBefore,
                                "inflating would produce more than \(limit) bytes (maxDecompressedBytes)"))
                    }
                    if let e = out.grow() { return .failure(e) }
                }
                let room = min(out.room, piece)
                let (rc, wrote) = unsafe out.write(room) { next in
                    unsafe stream.next_out = next
                    unsafe stream.avail_out = uInt(room)
                    let rc = unsafe CZlib.inflate(&stream, Z_NO_FLUSH)
                    let wrote = unsafe room &- Int(stream.avail_out)
                    return ((rc, wrote), wrote)
                }
                let consumed = unsafe fed - Int(stream.avail_in)
                switch rc {
                case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
                default:
                    return .failure(
                        PlistError(.compression, offset: consumed, "corrupt compressed stream (zlib \(rc))"))
                }
                guard out.count <= limit else {
                    return .failure(
                        PlistError(
                            .limitExceeded, offset: consumed,
                            "inflating would produce more than \(limit) bytes (maxDecompressedBytes)"))
                }
                if rc == Z_STREAM_END { return .success(consumed) }
                // No progress possible: the input is exhausted before the end of the stream.
                if unsafe wrote == 0 && stream.avail_in == 0 && fed == input.count {
                    return .failure(PlistError(.compression, offset: consumed, "compressed stream is truncated"))
                }
            }
        }
        let consumed = try outcome.get()
        guard consumed == data.count else {
            throw PlistError(
                .trailingData, offset: consumed,
                "\(data.count - consumed) bytes follow the compressed stream")
        }
        return out.finish()
    }
}

/// The output of one deflate or inflate: one malloc'd block that grows by doubling (realloc: large
/// blocks move their pages instead of being copied) and is handed to `Data` without a copy.
///
/// `count` bytes at the start are written; `write` lends zlib the `room` bytes after them. `@safe`:
/// the pointer never leaves the type except for the duration of `write`, bounded by `room`.
@safe private struct OutputBlock: ~Copyable {
    private var base: UnsafeMutableRawPointer
    /// The block's size in bytes (at least 1).
    private(set) var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0
    /// The size the block may never pass.
    let cap: Int

    /// A block of `capacity` bytes (at most `cap`, at least 1) that may grow to `cap`.
    init(capacity: Int, cap: Int = Int.max) throws(PlistError) {
        let size = max(min(capacity, cap), 1)
        guard let block = unsafe malloc(size) else {
            throw PlistError(.compression, "cannot allocate \(size) bytes for zlib's output")
        }
        unsafe base = block
        self.capacity = size
        self.cap = max(cap, 1)
    }

    deinit { unsafe free(base) }

    /// The free bytes after `count`.
    var room: Int { capacity &- count }

    /// Doubles the block, up to `cap`; nil when it cannot grow (at `cap`, or out of memory).
    mutating func grow() -> PlistError? {
        guard capacity < cap else { return PlistError(.limitExceeded, "zlib output reached \(cap) bytes") }
        let size = capacity <= cap / 2 ? capacity &* 2 : cap
        guard let grown = unsafe realloc(base, size) else {
            return PlistError(.compression, "cannot grow zlib's output to \(size) bytes")
        }
        unsafe base = grown
        capacity = size
        return nil
    }

    /// Lends `body` the first `room` free bytes (`0 < room <= self.room`); `body` returns its result
    /// and how many of them it wrote, which must be `<= room`.
    @unsafe mutating func write<R>(_ room: Int, _ body: (UnsafeMutablePointer<Bytef>) -> (R, Int)) -> R {
        precondition(room >= 0 && room <= self.room, "OutputBlock: lent past its end")
        // base + count ..< base + count + room lies inside the block: count + room <= capacity.
        let (result, wrote) = unsafe body((base + count).assumingMemoryBound(to: Bytef.self))
        precondition(wrote >= 0 && wrote <= room, "OutputBlock: zlib reported more than it was lent")
        count &+= wrote
        return result
    }

    /// The written bytes as `Data`, without a copy (the block is shrunk to them first; if that
    /// fails, the larger block is still valid).
    consuming func finish() -> Data {
        let block = unsafe realloc(base, max(count, 1)) ?? base
        let result = unsafe Data(bytesNoCopy: block, count: count, deallocator: .free)
        discard self
        return result
    }
}
