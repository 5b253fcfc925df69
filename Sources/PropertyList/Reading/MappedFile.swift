// Sources/PropertyList/Reading/MappedFile.swift - Files read through a read-only memory map, safe
// against the file shrinking under the map.
//
// A document over a mapped file reads its pages only when a read touches them: opening a 1 GB file
// touches the trailer and the offset table, a key-path lookup the pages of the objects on its path.
// The danger of mapping a file is that another process may truncate it while it is mapped; a later
// access to a page past the new end raises SIGBUS, which kills the process. A reader of untrusted
// files must not die because a file changed under it, so this file installs, once, a SIGBUS handler
// that recognises faults inside our own maps, maps a page of zeros over the faulting page (the read
// then completes, reading zeros) and records the fault in the mapping. Every read of a document
// checks that record when it ends and throws `fileChanged` instead of returning what it read, so a
// changed file is a typed error, never a crash and never a silently wrong value. A fault anywhere
// else goes on to the handler that was installed before ours (the Swift runtime's crash reporter, or
// the default action), exactly as if ours were not there.
//
// Unsafe fence (listed in scripts/check-unsafe and ARCHITECTURE.md). The pointers here are:
// - the map itself, `base ..< base + length`, owned by one `FileMapping` and unmapped in its deinit
//   (after its guard slot is cleared, so the handler never maps zeros into memory that is no longer
//   ours); the only `Data` over it is made with a deallocator that keeps the `FileMapping` alive;
// - the guard's slot table, allocated once and never freed, read by the handler with atomic loads;
// - the previous `sigaction`, stored once at installation before our handler is installed.
// The handler only calls async-signal-safe functions (`mmap`, `sigaction`) and atomic operations.

public import FoundationEssentials
internal import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension BinaryPlistDocument {
    /// How a document reads a file.
    public enum FileAccess: Sendable, Hashable {
        /// Map files of at least ``BinaryPlistDocument/FileAccess/mappingThreshold`` bytes; read
        /// smaller ones into memory (a map costs more than copying a few pages). The default.
        case automatic
        /// Map the file read-only, whatever its size (an empty file is read).
        case mapped
        /// Read the whole file into memory.
        case read

        /// The size from which ``automatic`` maps a file: 1 MiB.
        public static let mappingThreshold = 1 << 20
    }

    /// Opens a binary property list file, memory-mapped when it is large.
    ///
    /// A mapped file is never copied: opening validates the header, the trailer and the offset
    /// table (the only pages read), and each later read touches only the pages of the objects it
    /// decodes. A compressed file is inflated into memory.
    ///
    /// **If the file changes while it is mapped.** Bytes rewritten in place may be seen by later
    /// reads (a map shows the file as it is now). If the file shrinks, a read that touches a page
    /// past its new end neither crashes nor returns what it read: it throws
    /// ``PlistError/Code/fileChanged``. Reads that touch only the pages still there succeed.
    /// Use ``FileAccess/read`` to take a private copy instead.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - access: Map or read; see ``FileAccess``.
    ///   - limits: Bounds for hostile input.
    ///   - options: Strictness and envelope handling.
    /// - Throws: ``PlistError/Code/io`` when the file cannot be opened, mapped or read, and
    ///   otherwise what ``init(_:limits:options:)`` throws.
    public init(
        contentsOf url: URL, access: FileAccess = .automatic, limits: PlistLimits = .default,
        options: Options = Options()
    ) throws(PlistError) {
        let file = try FileBytes(contentsOf: url, access: access)
        try self.init(file.data, limits: limits, options: options)
        // An inflated envelope is a private copy: its reads cannot fault.
        if envelope == .none { mapping = file.mapping }
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
    package init(contentsOf url: URL, access: BinaryPlistDocument.FileAccess = .automatic) throws(PlistError) {
        let path = url.path
        let fd = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileBytes.ioError("cannot open", path) }
        defer { close(fd) }
        var info = stat()
        guard unsafe fstat(fd, &info) == 0 else { throw FileBytes.ioError("cannot stat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw PlistError(.io, "cannot read '\(url.lastPathComponent)': not a regular file")
        }
        let size = Int(info.st_size)
        let map =
            switch access {
            case .automatic: size >= BinaryPlistDocument.FileAccess.mappingThreshold
            case .mapped: size > 0
            case .read: false
            }
        if map, let mapping = FileMapping(fd: fd, length: size) {
            self.mapping = mapping
            data = mapping.data
        } else {
            mapping = nil
            data = try FileBytes.readAll(fd, size: size, path: path)
        }
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

/// One read-only, private map of a whole file, registered with the SIGBUS guard while it exists.
/// `@unchecked Sendable`: every property is a constant, and the mapped bytes are read-only.
@safe package final class FileMapping: @unchecked Sendable {
    /// The first mapped byte.
    private let base: UnsafeRawPointer
    /// The mapped length (the file's size when mapped).
    private let length: Int
    /// The guard slot that holds this map's range.
    private let slot: Int
    /// The guard's table.
    private let table: SlotTable

    /// Maps `length` bytes of `fd`; nil when the map or the guard cannot take it (the caller reads
    /// the file instead).
    fileprivate init?(fd: Int32, length: Int) {
        guard length > 0, let guardTable = SigbusGuard.installed() else { return nil }
        let address = unsafe mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let address = unsafe address, unsafe address != MAP_FAILED else { return nil }
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

/// The process-wide SIGBUS handler and the table of mapped ranges it serves.
private enum SigbusGuard {
    /// At most this many maps at once; more files are read instead of mapped.
    static let capacity = 256

    private static let installation = Mutex<SlotTable?>(nil)

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
        unsafe action.__sigaction_handler.sa_sigaction = sigbusHandler
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
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            guard unsafe zero != MAP_FAILED else { return false }
            _ = unsafe words[2].compareExchange(expected: 0, desired: address, ordering: .releasing)
            return true
        }
        return false
    }

    /// In the handler: passes a fault that is not ours to the previous action.
    func chain(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let old = unsafe previous.pointee
        if old.sa_flags & SA_SIGINFO != 0, let handler = unsafe old.__sigaction_handler.sa_sigaction {
            unsafe handler(signal, info, context)
            return
        }
        let handler = unsafe old.__sigaction_handler.sa_handler
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
    let address = unsafe info.map { unsafe UInt(bitPattern: $0.pointee._sifields._sigfault.si_addr) } ?? 0
    if table.absorb(address) { return }
    unsafe table.chain(signal, info, context)
}
