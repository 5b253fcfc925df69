// Sources/PropertyList/Shared/SpareBlock.swift - Unsafe fence: the one output block kept for the next writer.
//
// The writers hand their output to `Data` without a copy (`XMLOutput`, `GrowableWriter`, `ByteWriter`).
// When such a `Data` is freed, its block comes back here instead of going to `free` when it holds
// 4 to 64 MiB, and the next writer that needs a block of about that size takes it. One block is kept
// at a time, the largest given back.
//
// Why: glibc maps a large block afresh (from its mmap threshold: 128 KiB, raised up to 32 MiB to the
// size of the last mapped block freed) and unmaps it when it is freed, so every page of the next
// block of that size is faulted in again. Measured on the peers' workloads (Benchmarks/README, round 4
// session 16): the XML encode of mixed, a 30 MB text, faulted in all 7,330 pages of its block on
// every run, 17 of its 67 ms in the kernel; kept here, 67.8 -> 54.2 ms, the binary encode of numbers
// 98.0 -> 79.0 ms and its Codable encode 114.9 -> 79.7 ms.
//
// Why not from 1 MiB: a block glibc maps and unmaps raises its threshold, so the blocks under that
// size that follow (the writers' tables) come from its heap, whose pages it keeps; a block kept here
// never reaches `free`, and with a 1 MiB floor the binary encode of the keyed workload (a 3.6 MB
// output) faulted in 700 more pages a run and took 13 % longer.
//
// What it costs: at most 64 MiB of memory stays with the process after an output was freed (glibc's
// heap keeps freed blocks below its threshold in the same way). A block is never grown while kept,
// it goes to the largest output given back, and one outside 4-64 MiB is freed as before. Every block
// is `malloc`ed, so whichever writer takes it may `realloc` or `free` it. A new block past 64 MiB,
// never kept, is advised for huge pages (HugePages.swift says why and what it measured).

internal import Synchronization

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
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// The output block kept for the next writer (see the file's header).
enum SpareBlock {
    /// Smaller blocks are left to `malloc` (see the header: why not from 1 MiB).
    static let minimum = 4 << 20
    /// Larger blocks are freed: the most memory kept for reuse.
    static let maximum = 1 << 26

    /// A `malloc`ed block that nothing else points to, and its size in bytes.
    @unsafe struct Block: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let size: Int
    }

    /// The block kept, if any.
    private static let kept = unsafe Mutex<Block?>(nil)

    /// The block kept when it holds at least `size` bytes (and `size` is in 4-64 MiB), now the caller's:
    /// it frees it, gives it back (`give`) or hands it to `Data` through `deallocator(size:)`.
    static func take(atLeast size: Int, atMost largest: Int) -> Block? {
        guard size >= minimum && size <= maximum else { return nil }
        return unsafe kept.withLock { kept -> Block? in
            guard let block = unsafe kept, unsafe block.size >= size && block.size <= largest else { return nil }
            unsafe kept = nil
            return unsafe block
        }
    }

    /// Gives back a `malloc`ed block of `size` bytes that nothing points to any more: kept when it is
    /// in 4-64 MiB and larger than the block kept (which is then freed), else freed.
    static func give(_ base: UnsafeMutableRawPointer, size: Int) {
        guard size >= minimum && size <= maximum else {
            unsafe free(base)
            return
        }
        let given = unsafe Block(base: base, size: size)
        // The smaller of the block kept and the one given, to be freed.
        let smaller: Block? = unsafe kept.withLock { kept -> Block? in
            guard let old = unsafe kept else {
                unsafe kept = given
                return nil
            }
            guard unsafe old.size < given.size else { return unsafe given }
            unsafe kept = given
            return unsafe old
        }
        if let smaller = unsafe smaller { unsafe free(smaller.base) }
    }

    /// A `malloc`ed block of at least `size` bytes: the one kept when it is no more than twice that
    /// (a block of exactly the size the caller needs), else a new one; nil when out of memory.
    static func allocate(_ size: Int) -> Block? {
        let n = Swift.max(size, 1)
        if let block = unsafe take(atLeast: n, atMost: n &* 2) { return unsafe block }
        guard let p = unsafe malloc(n) else { return nil }
        if n > maximum {
            // Never kept: a block this large is an output of 64 MiB and more, written once from end to end.
            unsafe HugePages.advise(UnsafeMutableRawBufferPointer(start: p, count: n))
        }
        return unsafe Block(base: p, size: n)
    }

    /// `block`, whose first `used` bytes are written, moved to a block of at least `size` bytes: the
    /// one kept when it is no more than 8 times that (a writer that doubles its block takes it when it
    /// is a few doublings away: its written bytes are copied, and the old block freed), else `block`
    /// grown by `realloc`; nil when out of memory (and `block` is still the caller's).
    static func reallocate(_ block: Block, used: Int, to size: Int) -> Block? {
        let blockSize = unsafe block.size
        precondition(used >= 0 && used <= blockSize && size >= used, "reallocate \(used) bytes to \(size)")
        if let spare = unsafe take(atLeast: size, atMost: size &* 8) {
            // used <= block.size bytes from block.base, into spare.size >= size >= used bytes.
            unsafe spare.base.copyMemory(from: block.base, byteCount: used)
            unsafe free(block.base)
            return unsafe spare
        }
        guard let p = unsafe realloc(block.base, size) else { return nil }
        return unsafe Block(base: p, size: size)
    }

    /// The first `count` bytes of `block` as `Data`, which takes the block and gives it back when it is
    /// freed. A block more than twice as large is shrunk to `count` first (by `realloc`, which keeps
    /// them); a closer one is kept whole, so that a block given back fits the next output of that size.
    static func data(_ block: Block, count: Int) -> Data {
        let blockSize = unsafe block.size
        precondition(count >= 0 && count <= blockSize, "\(count) bytes of a block")
        var kept = unsafe block
        if blockSize / 2 > count, let p = unsafe realloc(block.base, Swift.max(count, 1)) {
            // Shrinking keeps the first `count` bytes; if it fails the larger block is still valid.
            unsafe kept = Block(base: p, size: Swift.max(count, 1))
        }
        return unsafe Data(bytesNoCopy: kept.base, count: count, deallocator: deallocator(size: kept.size))
    }

    /// The deallocator of a `Data` that takes a `malloc`ed block of `size` bytes: it gives the block back.
    static func deallocator(size: Int) -> Data.Deallocator {
        guard size >= minimum && size <= maximum else { return .free }
        return unsafe .custom { base, _ in unsafe SpareBlock.give(base, size: size) }
    }
}
