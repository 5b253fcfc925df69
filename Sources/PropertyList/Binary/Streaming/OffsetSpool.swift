// Sources/PropertyList/Binary/Streaming/OffsetSpool.swift - The streaming writer's offset table, in memory or spilled.
//
// A streaming write learns object offsets out of index order (see StreamingPlistWriter.swift: each
// open container fills its own block of indices, a dictionary's keys and values two runs of it), but
// always as a few *sequential runs*, one or two per open container. So the table is kept in pages of
// 1,024 offsets (8 KiB) with a bounded number resident, evicting the least recently used page to an
// anonymous temporary file when the bound is reached and reading it back if it is touched again. A
// write of up to `memory / 8` objects never creates the file; a larger one keeps `memory` bytes of
// pages plus 5 bytes of bookkeeping per 1,024 objects written. At the end the pages are read in index
// order. Where the C library is not POSIX (Windows, WASI) there is no spill file: every page stays
// resident, whatever `memory` says.

struct OffsetSpool: ~Copyable {
    static let pageShift = 10
    static let pageSize = 1 << pageShift

    /// Resident pages, `pageSize` words each, back to back.
    private var frames: [UInt64] = []
    /// Per page: its frame, or -1 when not resident.
    private var frameOfPage: [Int32] = []
    /// Per page: true once it has been written to the file (so it must be read back, not zeroed).
    private var spilled: [Bool] = []
    /// Per frame: its page, and when it was last used.
    private var pageOfFrame: [Int32] = []
    private var lastUse: [UInt64] = []
    private var clock: UInt64 = 0
    private let maxFrames: Int
    private let directory: String
    private var file: TemporaryFile? = nil

    /// Indices reserved so far: every one must be set before the table is read.
    private(set) var count = 0

    /// A spool that keeps at most `memory` bytes of pages (at least 2 pages) resident, spilling the
    /// rest to a temporary file in `directory`.
    init(memory: Int, directory: String) {
        #if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
            maxFrames = max(2, min(memory / (8 &* Self.pageSize), Int(Int32.max)))
        #else
            maxFrames = Int(Int32.max)
        #endif
        self.directory = directory
    }

    /// True once pages have gone to the temporary file.
    var hasSpilled: Bool { file != nil }

    /// Makes indices `count ..< count + n` settable (`n` is non-negative and `count + n` does not
    /// overflow: the writer's reference width bounds it). Costs nothing until they are set.
    mutating func reserve(_ n: Int) {
        count &+= n
    }

    /// Records the offset of object `index` (reserved, and inside the offset range of the file).
    @inline(__always)
    mutating func set(_ index: Int, _ offset: Int) throws(PlistError) {
        let page = index >> Self.pageShift
        if page >= frameOfPage.count {
            // Bookkeeping grows with the pages written, not with those reserved.
            let more = page &+ 1 &- frameOfPage.count
            frameOfPage.append(contentsOf: repeatElement(-1, count: more))
            spilled.append(contentsOf: repeatElement(false, count: more))
        }
        var frame = Int(frameOfPage[page])
        if frame < 0 { frame = try load(page) }
        frames[frame << Self.pageShift | index & (Self.pageSize &- 1)] = UInt64(offset)
        clock &+= 1
        lastUse[frame] = clock
    }

    /// Makes `page` resident and returns its frame: a new frame while there is room, else the least
    /// recently used one, written to the file first.
    private mutating func load(_ page: Int) throws(PlistError) -> Int {
        let frame: Int
        if pageOfFrame.count < maxFrames {
            frame = pageOfFrame.count
            frames.append(contentsOf: repeatElement(0, count: Self.pageSize))
            pageOfFrame.append(Int32(truncatingIfNeeded: page))
            lastUse.append(0)
        } else {
            #if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
                var victim = 0
                for f in 1..<lastUse.count where lastUse[f] < lastUse[victim] { victim = f }
                let old = Int(pageOfFrame[victim])
                let f = try spillFile()
                try FileDescriptorIO.writeWords(
                    f.descriptor, frames, start: victim << Self.pageShift, count: Self.pageSize,
                    at: old << (Self.pageShift &+ 3))
                spilled[old] = true
                frameOfPage[old] = -1
                frame = victim
                pageOfFrame[frame] = Int32(truncatingIfNeeded: page)
                if spilled[page] {
                    try FileDescriptorIO.readWords(
                        f.descriptor, into: &frames, start: frame << Self.pageShift, count: Self.pageSize,
                        at: page << (Self.pageShift &+ 3))
                } else {
                    let start = frame << Self.pageShift
                    for i in start..<start &+ Self.pageSize { frames[i] = 0 }
                }
            #else
                throw PlistError(.limitExceeded, "the offset table outgrew \(maxFrames) resident pages")
            #endif
        }
        frameOfPage[page] = Int32(truncatingIfNeeded: frame)
        return frame
    }

    #if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
        private mutating func spillFile() throws(PlistError) -> TemporaryFile {
            if let file { return file }
            let f = TemporaryFile(descriptor: try FileDescriptorIO.anonymousFile(in: directory))
            file = f
            return f
        }
    #endif

    /// The number of pages the reserved indices span.
    var pageCount: Int { count >> Self.pageShift &+ (count & (Self.pageSize &- 1) == 0 ? 0 : 1) }

    /// Copies the offsets of page `page` (indices `page × 1024 ..< min(count, (page + 1) × 1024)`) to
    /// the front of `buffer` (at least `pageSize` long) and returns how many there are. An offset never
    /// set reads as 0.
    ///
    /// - Throws: `io` when a spilled page cannot be read back.
    func copyPage(_ page: Int, into buffer: inout [UInt64]) throws(PlistError) -> Int {
        precondition(page >= 0 && page < pageCount && buffer.count >= Self.pageSize, "page \(page) of \(pageCount)")
        let n = min(Self.pageSize, count &- page << Self.pageShift)
        let frame = page < frameOfPage.count ? Int(frameOfPage[page]) : -1
        if frame >= 0 {
            let start = frame << Self.pageShift
            for i in 0..<n { buffer[i] = frames[start &+ i] }
        } else if page < spilled.count, spilled[page], let file {
            try file.readWords(into: &buffer, count: Self.pageSize, at: page << (Self.pageShift &+ 3))
        } else {
            for i in 0..<n { buffer[i] = 0 }
        }
        return n
    }
}

#if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
    /// The spill file of an `OffsetSpool`: unlinked at creation, closed with the last reference.
    final class TemporaryFile {
        let descriptor: Int32

        init(descriptor: Int32) { self.descriptor = descriptor }

        deinit { FileDescriptorIO.closeFile(descriptor) }

        /// Reads `count` words at byte `offset` into the front of `buffer`.
        func readWords(into buffer: inout [UInt64], count: Int, at offset: Int) throws(PlistError) {
            try FileDescriptorIO.readWords(descriptor, into: &buffer, start: 0, count: count, at: offset)
        }
    }
#else
    /// No spill file where the C library is not POSIX: pages never leave memory.
    final class TemporaryFile {
        func readWords(into buffer: inout [UInt64], count: Int, at offset: Int) throws(PlistError) {
            throw PlistError(.io, "no temporary offset file on this platform")
        }
    }
#endif
