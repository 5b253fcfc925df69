// Sources/PropertyList/Files/MappedFile.swift - Files read through a read-only memory map, safe
// against the file shrinking under the map; and files read with read(2).
//
// A document over a mapped file reads its pages only when a read touches them: opening a 1 GB file
// touches the trailer and the offset table, a key-path lookup the pages of the objects on its path.
// The danger of mapping a file is that another process may truncate it while it is mapped; a later
// access to a page past the new end raises SIGBUS, which kills the process. A reader of untrusted
// files must not die because a file changed under it, so the first map installs, once, a SIGBUS
// handler that recognises faults inside our own maps, maps a page of zeros over the faulting page
// (the read then completes, reading zeros) and records the fault in the mapping. Every read of a
// document checks that record when it ends and throws `fileChanged` instead of returning what it
// read, so a changed file is a typed error, never a crash and never a silently wrong value. A fault
// anywhere else goes on to the handler that was installed before ours (the Swift runtime's crash
// reporter, or the default action), exactly as if ours were not there. Nothing here runs unless a
// caller asks for a map (`FileAccess.mappedIfLarge` or `.mapped`; the default reads).
//
// Platforms. `sigaction`'s handler union and `siginfo_t`'s fault address are spelled differently by
// each C library; they are written out below for glibc, musl and Darwin (`SignalLayout`). Where
// none of those is the C library (Windows' ucrt, WASI), this file compiles only the reading
// fallback at its end: files are read through Foundation and never mapped. Only the glibc layout is
// compiled and tested on this project's CI (Linux); the musl and Darwin spellings follow those
// libraries' public headers.
//
// Unsafe fence (listed in scripts/check-unsafe and ARCHITECTURE.md). The pointers here are:
// - the map itself, `base ..< base + length`, owned by one `FileMapping` and unmapped in its deinit
//   (after its guard slot is cleared, so the handler never maps zeros into memory that is no longer
//   ours); the only `Data` over it is made with a deallocator that keeps the `FileMapping` alive;
// - the guard's slot table, allocated once and never freed, read by the handler with atomic loads;
// - the previous `sigaction`, stored once at installation before our handler is installed.
// The handler only calls async-signal-safe functions (`mmap`, `sigaction`) and atomic operations.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

#if (canImport(Glibc) || canImport(Musl) || canImport(Darwin)) && !KEYEDARCHIVE_NO_POSIX_IO
    internal import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension FileMapping {
        /// Mapping is available on this platform.
        package static var isAvailable: Bool { true }

        /// Whether the SIGBUS guard has been installed in this process (by a first map).
        package static var guardIsInstalled: Bool { SigbusGuard.isInstalled }

        /// Opens `url` and reads it, or maps it when `access` says so for its size (and the map and
        /// the guard can take it; otherwise it is read).
        static func open(
            _ url: URL, access: BinaryPlistDocument.FileAccess
        ) throws(PlistError) -> (data: Data, mapping: FileMapping?) {
            let path = url.path
            let fd = openReadOnly(path)
            guard fd >= 0 else { throw ioError("cannot open", path) }
            defer { close(fd) }
            var info = stat()
            guard unsafe fstat(fd, &info) == 0 else { throw ioError("cannot stat", path) }
            guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
                throw PlistError(.io, "cannot read '\(url.lastPathComponent)': not a regular file")
            }
            let size = Int(info.st_size)
            if access.maps(size: size), let mapping = FileMapping(fd: fd, length: size) {
                return (mapping.data, mapping)
            }
            return (try readAll(fd, size: size, path: path), nil)
        }

        /// The whole file, read with `read(2)` until its end (the size is a hint: the file may change).
        private static func readAll(_ fd: Int32, size: Int, path: String) throws(PlistError) -> Data {
            var out = Data(count: max(size, 0))
            var filled = 0
            while true {
                if filled == out.count { out.count += max(out.count / 2, 1 << 16) }
                let room = out.count - filled
                let got = unsafe out.withUnsafeMutableBytes { buffer in
                    // filled < out.count: `room` bytes from filled lie inside the buffer.
                    unsafe read(fd, buffer.baseAddress.unsafelyUnwrapped + filled, room)
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ioError("cannot read", path)
                }
                if got == 0 { break }
                filled += got
            }
            out.count = filled
            return out
        }

        private static func ioError(_ what: String, _ path: String) -> PlistError {
            let reason = unsafe strerror(errno).map { unsafe String(cString: $0) } ?? "error \(errno)"
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return PlistError(.io, "\(what) '\(name)': \(reason)")
        }
    }

    /// `open(2)` read-only, close-on-exec (the same flags on every C library here).
    private func openReadOnly(_ path: String) -> Int32 {
        unsafe open(path, O_RDONLY | O_CLOEXEC)
    }

    /// One read-only, private map of a whole file, registered with the SIGBUS guard while it exists.
    /// `@unchecked Sendable`: every property is a constant, and the mapped bytes are read-only.
    @safe package final class FileMapping: @unchecked Sendable {
        /// The first mapped byte.
        private let base: UnsafeRawPointer
        /// The mapped length (the file's size when mapped).
        let length: Int
        /// The guard slot that holds this map's range.
        private let slot: Int
        /// The guard's table.
        private let table: SlotTable

        /// Maps `length` bytes of `fd`; nil when the map or the guard cannot take it (the caller reads
        /// the file instead).
        fileprivate init?(fd: Int32, length: Int) {
            guard length > 0, let guardTable = SigbusGuard.installed() else { return nil }
            let address = unsafe mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)
            guard let address = unsafe address, unsafe address != mapFailed else { return nil }
            guard let slot = guardTable.register(UInt(bitPattern: address), length: length) else {
                unsafe munmap(address, length)
                return nil
            }
            unsafe base = UnsafeRawPointer(address)
            self.length = length
            self.slot = slot
            table = guardTable
        }

        deinit {
            // The slot first: from here on a fault in this range is not ours (and there is none, since
            // nothing reads the map any more).
            table.unregister(slot)
            unsafe munmap(UnsafeMutableRawPointer(mutating: base), length)
        }

        /// The mapped bytes as `Data`, without a copy; the `Data` (and its copies) keep the map alive.
        fileprivate var data: Data {
            unsafe Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: length,
                deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
        }

        /// The offset of the first byte at which a read faulted because the file shrank, or nil.
        package var faultOffset: Int? {
            guard let fault = table.fault(slot) else { return nil }
            return Int(bitPattern: fault &- UInt(bitPattern: unsafe base))
        }
    }

    /// `mmap`'s failure value, `(void *)-1` (a C macro Swift cannot import on every C library).
    private var mapFailed: UnsafeMutableRawPointer? { unsafe UnsafeMutableRawPointer(bitPattern: -1) }

    /// The process-wide SIGBUS handler and the table of mapped ranges it serves.
    private enum SigbusGuard {
        /// At most this many maps at once; more files are read instead of mapped.
        static let capacity = 256

        private static let installation = Mutex<SlotTable?>(nil)

        /// Whether the handler is installed in this process.
        static var isInstalled: Bool { installation.withLock { $0 != nil } }

        /// Installs the handler on first use; the table, or nil when it cannot be installed.
        static func installed() -> SlotTable? {
            installation.withLock { table in
                if let table { return table }
                guard let made = SlotTable.install(capacity: capacity) else { return nil }
                table = made
                return made
            }
        }
    }

    /// The guard's state, allocated once and never freed (the handler may read it at any time):
    /// `capacity` slots of (start, end, first fault) addresses, and the previous SIGBUS action.
    @safe private struct SlotTable: @unchecked Sendable {
        /// 3 × capacity atomics: start, end (0 = free slot), first faulting address (0 = none).
        private let words: UnsafeMutablePointer<Atomic<UInt>>
        private let capacity: Int
        /// The page size, for the zero page mapped over a faulting one.
        private let pageSize: UInt
        /// The action that was installed before ours.
        private let previous: UnsafeMutablePointer<sigaction>

        /// The table the installed handler reads. Written once, under `SigbusGuard`'s lock, before the
        /// handler is installed; read by the handler, which can only run after that.
        nonisolated(unsafe) static var current: SlotTable?

        private init(
            words: UnsafeMutablePointer<Atomic<UInt>>, capacity: Int, pageSize: UInt,
            previous: UnsafeMutablePointer<sigaction>
        ) {
            unsafe self.words = words
            self.capacity = capacity
            self.pageSize = pageSize
            unsafe self.previous = previous
        }

        /// Allocates the table and installs the handler; nil (nothing installed) on failure.
        static func install(capacity: Int) -> SlotTable? {
            let page = sysconf(Int32(_SC_PAGESIZE))
            guard page > 0 else { return nil }
            let words = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 3 * capacity)
            for i in 0..<3 * capacity { unsafe (words + i).initialize(to: Atomic(0)) }
            let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
            unsafe previous.initialize(to: sigaction())
            let table = unsafe SlotTable(words: words, capacity: capacity, pageSize: UInt(page), previous: previous)
            unsafe current = table
            var action = sigaction()
            unsafe SignalLayout.setSiginfoHandler(&action, sigbusHandler)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            unsafe sigemptyset(&action.sa_mask)
            // `previous` is written before the handler can run: sigaction stores the old action first.
            guard unsafe sigaction(SIGBUS, &action, previous) == 0 else { return nil }
            return table
        }

        private func start(_ slot: Int) -> UnsafeMutablePointer<Atomic<UInt>> { unsafe words + 3 * slot }

        /// Claims a free slot for `address ..< address + length`; nil when all are taken.
        func register(_ address: UInt, length: Int) -> Int? {
            for slot in 0..<capacity {
                let words = unsafe start(slot)
                // slot < capacity: words ..< words + 3 lies in the 3 × capacity allocated atomics.
                guard
                    unsafe words[1].compareExchange(expected: 0, desired: address &+ UInt(length), ordering: .acquiring)
                        .exchanged
                else { continue }
                unsafe words[2].store(0, ordering: .relaxed)
                // Start last (releasing): the handler matches a slot only once its range is complete.
                unsafe words[0].store(address, ordering: .releasing)
                return slot
            }
            return nil
        }

        /// Frees a slot (its map is about to be unmapped).
        func unregister(_ slot: Int) {
            guard slot >= 0, slot < capacity else { return }
            let words = unsafe start(slot)
            unsafe words[0].store(0, ordering: .releasing)
            unsafe words[1].store(0, ordering: .releasing)
        }

        /// The first faulting address recorded for a slot, or nil.
        func fault(_ slot: Int) -> UInt? {
            guard slot >= 0, slot < capacity else { return nil }
            let value = unsafe start(slot)[2].load(ordering: .acquiring)
            return value == 0 ? nil : value
        }

        /// In the handler: maps a zero page over `address` when it lies in a registered map, recording
        /// the fault; false when it is not ours.
        func absorb(_ address: UInt) -> Bool {
            for slot in 0..<capacity {
                let words = unsafe start(slot)
                let low = unsafe words[0].load(ordering: .acquiring)
                let high = unsafe words[1].load(ordering: .acquiring)
                guard low != 0, address >= low, address < high else { continue }
                let page = address & ~(pageSize &- 1)
                // The page lies in our map (low <= address < end, and maps are page-aligned): replacing
                // it with zeros touches no memory but ours.
                let zero = unsafe mmap(
                    UnsafeMutableRawPointer(bitPattern: page), Int(pageSize), PROT_READ,
                    MAP_PRIVATE | SignalLayout.mapAnonymous | MAP_FIXED, -1, 0)
                guard unsafe zero != mapFailed else { return false }
                _ = unsafe words[2].compareExchange(expected: 0, desired: address, ordering: .releasing)
                return true
            }
            return false
        }

        /// In the handler: passes a fault that is not ours to the previous action.
        func chain(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
            let old = unsafe previous.pointee
            if old.sa_flags & SA_SIGINFO != 0, let handler = unsafe SignalLayout.siginfoHandler(of: old) {
                unsafe handler(signal, info, context)
                return
            }
            let handler = SignalLayout.plainHandler(of: old)
            let raw = unsafe unsafeBitCast(handler, to: Int.self)
            if raw == 0 || raw == 1, unsafe sigaction(signal, previous, nil) == 0 {
                // SIG_DFL or SIG_IGN: restore it and return; the faulting access runs again and gets
                // the default action, as if our handler had never been installed.
                return
            }
            if let handler { handler(signal) }
        }
    }

    /// A `sigaction` handler with `SA_SIGINFO`.
    private typealias SignalAction =
        @convention(c) (
            Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?
        ) -> Void

    /// The SIGBUS handler: async-signal-safe (atomic loads, `mmap`, `sigaction`, no allocation).
    private let sigbusHandler: SignalAction = { signal, info, context in
        guard let table = unsafe SlotTable.current else { return }
        let address = unsafe info.map { unsafe SignalLayout.faultAddress($0) } ?? 0
        if table.absorb(address) { return }
        unsafe table.chain(signal, info, context)
    }

    /// How each C library spells the parts of `sigaction` and `siginfo_t` the guard uses. The C
    /// names are macros over unions in every one of them, and Swift sees the unions.
    private enum SignalLayout {
        #if canImport(Glibc)
            static func setSiginfoHandler(_ action: inout sigaction, _ handler: SignalAction) {
                unsafe action.__sigaction_handler.sa_sigaction = handler
            }
            static func siginfoHandler(of action: sigaction) -> SignalAction? {
                unsafe action.__sigaction_handler.sa_sigaction
            }
            static func plainHandler(of action: sigaction) -> (@convention(c) (Int32) -> Void)? {
                unsafe action.__sigaction_handler.sa_handler
            }
            static func faultAddress(_ info: UnsafeMutablePointer<siginfo_t>) -> UInt {
                unsafe UInt(bitPattern: info.pointee._sifields._sigfault.si_addr)
            }
            static let mapAnonymous = MAP_ANONYMOUS
        #elseif canImport(Musl)
            // musl: `struct sigaction { union { ... } __sa_handler; ... }`, and `si_addr` is
            // `__si_fields.__sigfault.si_addr`.
            static func setSiginfoHandler(_ action: inout sigaction, _ handler: SignalAction) {
                unsafe action.__sa_handler.sa_sigaction = handler
            }
            static func siginfoHandler(of action: sigaction) -> SignalAction? {
                unsafe action.__sa_handler.sa_sigaction
            }
            static func plainHandler(of action: sigaction) -> (@convention(c) (Int32) -> Void)? {
                unsafe action.__sa_handler.sa_handler
            }
            static func faultAddress(_ info: UnsafeMutablePointer<siginfo_t>) -> UInt {
                unsafe UInt(bitPattern: info.pointee.__si_fields.__sigfault.si_addr)
            }
            static let mapAnonymous = MAP_ANONYMOUS
        #else
            // Darwin: `struct sigaction { union __sigaction_u __sigaction_u; ... }`, and `si_addr`
            // is a plain field of `siginfo_t`.
            static func setSiginfoHandler(_ action: inout sigaction, _ handler: SignalAction) {
                unsafe action.__sigaction_u.__sa_sigaction = handler
            }
            static func siginfoHandler(of action: sigaction) -> SignalAction? {
                unsafe action.__sigaction_u.__sa_sigaction
            }
            static func plainHandler(of action: sigaction) -> (@convention(c) (Int32) -> Void)? {
                unsafe action.__sigaction_u.__sa_handler
            }
            static func faultAddress(_ info: UnsafeMutablePointer<siginfo_t>) -> UInt {
                unsafe UInt(bitPattern: info.pointee.si_addr)
            }
            static let mapAnonymous = MAP_ANON
        #endif
    }
#else
    /// On this platform files are read, never mapped: no `FileMapping` is ever made.
    package final class FileMapping: Sendable {
        /// The mapped length (never used: there are no maps).
        let length: Int
        private init() { length = 0 }

        /// Mapping is not available on this platform.
        package static var isAvailable: Bool { false }

        /// There is no guard on this platform.
        package static var guardIsInstalled: Bool { false }

        /// Never a fault: nothing is mapped.
        package var faultOffset: Int? { nil }

        /// Reads `url` through Foundation (whatever `access` asks).
        static func open(
            _ url: URL, access: BinaryPlistDocument.FileAccess
        ) throws(PlistError) -> (data: Data, mapping: FileMapping?) {
            do {
                return (try Data(contentsOf: url), nil)
            } catch {
                throw PlistError(.io, "cannot read '\(url.lastPathComponent)': \(error)")
            }
        }
    }
#endif
