// Sources/PropertyList/Shared/HugePages.swift - Unsafe fence: large buffers on transparent huge pages.
//
// Advised with `MADV_HUGEPAGE`, Linux backs a buffer with 2 MiB pages where it can
// (`transparent_hugepage` in `always` or `madvise` mode, the default of the common distributions):
// one fault per 2 MiB instead of 512, and a TLB entry that covers as much. Elsewhere, or with huge
// pages off, the advice does nothing, and everything works as before.
//
// What is advised, measured (Benchmarks/README.md): the writer's deduplication table from 64 MiB on
// (`DedupTable.hugePageSlots`), probed at random far beyond the caches, where the advice saves
// 7-10 % of a 1 GB encode; and the XML reader's tape (`XMLTapeSink`), whose cold decode of the
// numbers workload it did not slow (58-91 ms advised, 59-90 not, 3 runs each).
//
// The binary reader's arrays (the tree's values, the bookkeeping per object) were advised from
// round 4's session 9 to session 14 and are not any more. On a VM that reports free memory to its
// host, a cold decode of the peers' numbers workload took 99-243 ms advised against 40-54 ms with
// huge pages off system-wide (6 fresh processes each, alternated), and 37.5-294.5 ms against
// 36.0-54.9 ms for this code before and after; the warm decode is about 6 % slower without them.
// The likely cause, not confirmed: a huge page comes from the large free blocks the guest reported
// to its host, which the host has to fault in again. Session 9's gain was measured while
// `bplist bench` decoded its input once before the timed run, which then reused faulted pages.
// The writers' buffers are not advised either: their cold runs became bimodal, some 50-100 % slower
// with the time in the kernel. Except an output block larger than 64 MiB (`SpareBlock.allocate`: one
// the spare block never keeps, the output of an encode of about 100 MB and more), written once from
// end to end: advised, the binary encode of `generate mixed --bytes 1G` took 5.84-6.15 s against
// 6.53-6.75 s (its 756 MB output faulted in 2 MiB at a time), of `--bytes 100M` 495-500 ms against
// 505-538 ms (five runs each, alternated). The builder's large tables (entries, child ids, the
// numbering) advised as well made the 1 GB encode slower again (6.30-6.46 s), and are not.
//
// Only the buffer's own pages are advised: the range is the largest run of whole 2 MiB pages inside
// it (`madvise` needs page-aligned addresses). `MADV_HUGEPAGE` changes how pages are backed, never
// what they hold, and no byte is read or written through the pointer.

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

@_spi(Internals) public enum HugePages {
    /// The size of a transparent huge page on x86-64 and (with 4 KiB base pages) arm64.
    public static let pageSize = 2 << 20
    /// Buffers from this size on are advised: at least one whole huge page fits in any of them.
    public static let threshold = 4 << 20

    /// An array of `count` copies of `value`, its storage advised before it is filled (as
    /// `Array(repeating:count:)` below `threshold`).
    public static func filled<T: BitwiseCopyable>(_ value: T, count: Int) -> [T] {
        guard count > 0, count &* MemoryLayout<T>.stride >= threshold else {
            return Array(repeating: value, count: max(0, count))
        }
        return unsafe Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            // The buffer holds `count` elements (the capacity asked for): advised, then filled whole.
            unsafe advise(UnsafeMutableRawBufferPointer(buffer))
            unsafe buffer.initialize(repeating: value)
            initialized = count
        }
    }

    /// An empty array with room for `capacity` elements, its storage advised before anything is
    /// written to it (as `reserveCapacity` below `threshold`): for a buffer that is then appended to,
    /// such as the XML reader's tape.
    public static func reserved<T>(_ type: T.Type, capacity: Int) -> [T] {
        guard capacity > 0, capacity &* MemoryLayout<T>.stride >= threshold else {
            var empty: [T] = []
            empty.reserveCapacity(max(0, capacity))
            return empty
        }
        return unsafe Array(unsafeUninitializedCapacity: capacity) { buffer, initialized in
            // The buffer holds `capacity` uninitialised elements: advised, none written (count 0).
            unsafe advise(UnsafeMutableRawBufferPointer(buffer))
            initialized = 0
        }
    }

    /// Advises the whole 2 MiB pages inside `buffer` (nothing when none fits, or off Linux).
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
            guard let base = buffer.baseAddress,
                let range = adviceRange(start: UInt(bitPattern: base), count: buffer.count),
                let page = unsafe UnsafeMutableRawPointer(bitPattern: range.lowerBound)
            else { return }
            // Advice only: its result (EINVAL where huge pages are compiled out) changes nothing here.
            _ = unsafe madvise(page, Int(range.upperBound &- range.lowerBound), MADV_HUGEPAGE)
        #endif
    }

    /// The whole huge pages inside the `count` bytes at address `start`: the start rounded up to a page
    /// boundary, the end down to one; nil below `threshold` or when no whole page fits.
    public static func adviceRange(start: UInt, count: Int) -> Range<UInt>? {
        guard count >= threshold else { return nil }
        let mask = UInt(pageSize &- 1)
        let (end, overflow) = start.addingReportingOverflow(UInt(count))
        guard !overflow else { return nil }
        // No overflow below: start + count fits and count > mask, so start + mask fits too.
        let first = (start &+ mask) & ~mask
        let last = end & ~mask
        return last > first ? first..<last : nil
    }
}
