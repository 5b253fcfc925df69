// Sources/KeyedArchive/KeyedUnarchiver.swift - Reads keyed archives lazily through the document.
//
// Nothing is materialised up front: the unarchiver keeps the `$objects` reference list and reads
// each object's dictionary from the input when a decode asks for it. Rules against hostile input:
// - every UID is checked against `$objects` before use (`badUID`);
// - an object's class is resolved and checked against the expected type before any of its fields
//   is read (`classNotAllowed`); `$class` must point at a dictionary with `$classname`;
// - class instances are memoised by UID (identity); an instance requested again as another type
//   is `classNotAllowed` (no cache bypass); a UID reached again while it is being decoded is a
//   `cycle`, unless its type is two-phase (created and registered before its fields are read);
// - nesting depth and the number of decoded values are bounded (``Limits``), so neither deep
//   nesting nor shared sub-trees (DAG amplification) can exhaust the stack or the time.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Reads keyed archives written by ``KeyedArchiver`` or Apple's `NSKeyedArchiver`.
///
/// ```swift
/// let person = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: data)
///
/// let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
/// unarchiver.setClass(Person.self, forClassName: "MyApp.Person")
/// let people = try unarchiver.decode([Person].self, forKey: "root")
/// ```
///
/// Decoding is secure by construction: every decode names the type it expects, and an archived
/// object of another class is rejected before any of its fields is read.
public final class KeyedUnarchiver {
    /// Reads share one borrow of the input per public call (see `BinaryPlistDocument.Reader`).
    typealias PlistReader = BinaryPlistDocument.Reader

    /// Bounds for hostile input. The defaults are safe for untrusted archives.
    public struct Limits: Sendable, Hashable {
        /// Deepest nesting of objects and collections decoded recursively (default 512, as
        /// CoreFoundation). Two-phase objects are decoded from a queue and do not count.
        public var maxDepth: Int = 512
        /// Most values one unarchiver decodes (default 1 << 24): stops shared sub-trees from
        /// being expanded out of proportion.
        public var maxDecodedValues: Int = 1 << 24
        /// Limits of the property-list layer.
        public var plist: PlistLimits = .default

        public init(maxDepth: Int = 512, maxDecodedValues: Int = 1 << 24, plist: PlistLimits = .default) {
            self.maxDepth = maxDepth
            self.maxDecodedValues = maxDecodedValues
            self.plist = plist
        }
    }

    /// An object's dictionary being decoded.
    struct Frame {
        var keys: ReferenceList
        var values: ReferenceList
        var uid: Int?
        var className: String?
        /// Where the last key was found: lookups usually follow the encoding order.
        var hint = 0
        /// Index in `State.classSlots` of the object's class (`-1`: none), and lookups made so far:
        /// the class remembers which key object the n-th lookup found.
        var classSlot = -1
        var requests = 0
        /// The class's key layout for this object's key count (`-1`: not chosen yet; KeyLookup.swift).
        var layout = -1
        /// Positions (below 64) whose key has been matched: `$class` and the keys found so far.
        var matched: UInt64 = 0
        /// Whether every lookup so far asked the key the layout's memo has at that position.
        var onMemo = true

        init(
            keys: ReferenceList, values: ReferenceList, uid: Int? = nil, className: String? = nil,
            classSlot: Int = -1, classPosition: Int = -1
        ) {
            self.keys = keys
            self.values = values
            self.uid = uid
            self.className = className
            self.classSlot = classSlot
            if classPosition >= 0, classPosition < 64 { matched = 1 << UInt64(classPosition) }
        }
    }

    enum PathComponent {
        case key(String)
        case index(Int)
        /// A two-phase object decoded from the queue: the start of its fields' key paths.
        case object(Int)
    }

    struct ClassInfo {
        var name: String
        var chain: [String]
    }

    /// What is memoised per archived class description (by class UID).
    struct ClassSlot {
        var info: ClassInfo
        /// The type `classMap`/the global registry map the name to, for `generation`.
        var mapped: (any KeyedArchivable.Type)?
        var generation = -1
        /// The last candidate type whose own name matched (when nothing is mapped).
        var nameMatch: ObjectIdentifier?
        /// The last resolved type and its two-phase view.
        var lastType: ObjectIdentifier?
        var lastTwoPhase: (any TwoPhaseKeyedArchivable.Type)?
        /// Where objects of this class keep their keys, per key count (KeyLookup.swift).
        var layouts: [KeyLayout] = []
    }

    /// Everything decoding mutates, in one property: one exclusivity check per operation.
    struct State {
        var frames: [Frame]
        /// The input lent for the current top-level read (Unarchiving/LentInput.swift).
        var input = LentInput()
        var path: [PathComponent] = []
        /// Where the key path of the value being decoded starts in `path` (past the path of the
        /// decode that queued the two-phase object whose fields are being read).
        var pathBase = 0
        var instances: [(any KeyedArchivable)?] = []
        var inProgress: [Bool] = []
        /// Class UID → index in `classSlots` + 1 (0: not seen).
        var classSlotByUID: [Int32] = []
        var classSlots: [ClassSlot] = []
        var pending: [PendingFields] = []
        var pendingHead = 0
        var depth = 0
        var decodedValues = 0
        /// Bumped by `setClass(_:forClassName:)`: invalidates `ClassSlot.mapped`.
        var classMapGeneration = 0
        /// The `$class` key object last found, and where.
        var classKeyRef: ObjectRef?
        var classKeyHint = 0

        /// The key path of the value being decoded.
        var keyPath: [String] {
            path[min(pathBase, path.count)...].map {
                switch $0 {
                case .key(let k): k
                case .index(let i): String(i)
                case .object(let uid): "<UID \(uid)>"
                }
            }
        }

        var hasPending: Bool { pendingHead < pending.count }

        /// The archived class name of a frame's object (frames of class instances name only their
        /// class slot: no string is copied per object).
        func className(of frame: KeyedUnarchiver.Frame) -> String? {
            if let name = frame.className { return name }
            return frame.classSlot >= 0 ? classSlots[frame.classSlot].info.name : nil
        }

        func error(_ code: KeyedArchiveError.Code, uid: Int? = nil, className: String? = nil, _ detail: String)
            -> KeyedArchiveError
        {
            KeyedArchiveError(
                code, keyPath: keyPath, className: className ?? frames.last.flatMap(self.className(of:)),
                uid: uid ?? frames.last?.uid, detail)
        }

        mutating func allocateTables(_ count: Int) {
            if instances.isEmpty {
                instances = Array(repeating: nil, count: count)
                inProgress = Array(repeating: false, count: count)
            }
        }

        /// Pops the path component pushed for a key or element; `true` when back at `$top`.
        @inline(__always)
        mutating func popPath() -> Bool {
            path.removeLast()
            return frames.count == 1
        }

        /// Counts one decoded value and pushes an element index.
        @inline(__always)
        mutating func beginElement(_ i: Int, limit: Int) throws(KeyedArchiveError) {
            decodedValues &+= 1
            guard decodedValues <= limit else {
                throw error(.limitExceeded, "more than \(limit) values decoded")
            }
            path.append(.index(i))
        }

        /// Pushes `key` and finds it (escaped) in the current frame.
        ///
        /// Objects of one class usually store their keys in the same order, so the class remembers,
        /// for its n-th lookup, the key object found and its position: the next object's lookup
        /// checks that position first (by reference, then, for writers that do not share key strings
        /// such as swift-corelibs-foundation's, with one string comparison), then searches the key
        /// object by reference, and compares strings along the dictionary only when all that fails.
        mutating func lookup(_ key: String, in r: borrowing PlistReader, push: Bool) throws(KeyedArchiveError)
            -> ObjectRef?
        {
            if push { path.append(.key(key)) }
            let top = frames.count &- 1
            do {
                // The frame is searched in place (its reference lists are not copied out), with the
                // class slots lent alongside: two different stored properties of the state.
                return try frames[top].find(key, in: r, classSlots: &classSlots)
            } catch {
                throw KeyedArchiveError(plist: error, keyPath: keyPath, uid: frames.last?.uid)
            }
        }
    }

    struct PendingFields {
        var uid: Int
        var object: any TwoPhaseKeyedArchivable
        var keys: ReferenceList
        var values: ReferenceList
        var className: String
        /// The object's class slot and the position of its `$class` key (for the key memo).
        var classSlot = -1
        var classPosition = -1
    }

    let document: BinaryPlistDocument
    /// `$objects`.
    let objects: ReferenceList
    /// The limits in force.
    public let limits: Limits
    #if DEBUG
        /// The decoding state. Debug builds keep it a stored property, so that every access to it is
        /// checked for exclusivity at run time; release builds keep it in a `StateCell` (see
        /// Unarchiving/StateCell.swift, which also says why that is sound).
        var state: State
    #else
        let stateCell: StateCell<State>
    #endif
    var classMap: [String: any KeyedArchivable.Type] = [:]
    /// Rarely used state (the Codable path's settings, the unknown-class hook, unkeyed positions),
    /// in one lazily created box: the unarchiver stays small for the common path.
    var extras: Extras?

    /// Decides the class of an archived object whose class name, superclass names (`$classes`)
    /// and class hints map to no acceptable type: given the class name and its chain, return the
    /// type to decode it as, or `nil` for an ``KeyedArchiveError/Code/unknownClass`` error. The
    /// type must still be one the call site accepts, or the decode is
    /// ``KeyedArchiveError/Code/classNotAllowed``.
    public var unknownClassHandler: ((_ className: String, _ classChain: [String]) -> (any KeyedArchivable.Type)?)? {
        get { extras?.unknownClassHandler }
        set { extrasBox.unknownClassHandler = newValue }
    }

    /// Opens an archive (binary, compressed binary or XML).
    ///
    /// - Parameters:
    ///   - data: The archive.
    ///   - options: How strictly the binary property list is read; e.g.
    ///     `.init(allowTrailingData: true)` accepts bytes after the archive
    ///     (``trailingByteCount`` says how many).
    ///   - limits: Bounds for hostile input.
    /// - Throws: ``KeyedArchiveError`` with code ``KeyedArchiveError/Code/plist`` when the input
    ///   is not a valid binary property list, ``KeyedArchiveError/Code/notAKeyedArchive`` when
    ///   `$archiver`, `$version`, `$top` or `$objects` is missing or wrong.
    public convenience init(
        forReadingFrom data: Data, options: BinaryPlistDocument.Options = .init(), limits: Limits = Limits()
    ) throws {
        let doc: BinaryPlistDocument
        do {
            doc = try BinaryPlistDocument.openArchive(data, limits: limits.plist, options: options)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        try self.init(document: doc, limits: limits)
    }

    /// Reads an archive already opened (e.g. by ``KeyedArchiveGraph``).
    init(document doc: BinaryPlistDocument, limits: Limits) throws(KeyedArchiveError) {
        self.limits = limits
        document = doc
        let parts = try KeyedUnarchiver.topLevel(doc)
        objects = parts.objects
        let state = State(frames: [Frame(keys: parts.topKeys, values: parts.topValues)])
        #if DEBUG
            self.state = state
        #else
            stateCell = StateCell(state)
        #endif
    }

    #if !DEBUG
        deinit { stateCell.destroy() }
    #endif

    /// Checks the archive's top-level dictionary.
    static func topLevel(_ doc: BinaryPlistDocument) throws(KeyedArchiveError) -> (
        objects: ReferenceList, topKeys: ReferenceList, topValues: ReferenceList, objectsRef: ObjectRef,
        topRef: ObjectRef
    ) {
        do {
            guard case .dictionary(let keys, let values) = try doc.object(doc.root) else {
                throw KeyedArchiveError(.notAKeyedArchive, "the property list's root is not a dictionary")
            }
            var archiver: ObjectRef?
            var version: ObjectRef?
            var top: ObjectRef?
            var objectsRef: ObjectRef?
            for i in 0..<keys.count {
                guard let k = try doc.string(keys[i]) else { continue }
                switch k {
                case ArchiveVocabulary.archiverKey: archiver = values[i]
                case ArchiveVocabulary.versionKey: version = values[i]
                case ArchiveVocabulary.topKey: top = values[i]
                case ArchiveVocabulary.objectsKey: objectsRef = values[i]
                default: break
                }
            }
            guard let archiver, try doc.string(archiver) == ArchiveVocabulary.archiverName else {
                throw KeyedArchiveError(.notAKeyedArchive, "$archiver is missing or not \"NSKeyedArchiver\"")
            }
            guard let version, case .integer(let v) = try doc.object(version),
                v == PlistInteger(ArchiveVocabulary.version)
            else {
                throw KeyedArchiveError(.notAKeyedArchive, "$version is missing or not 100000")
            }
            guard let top, case .dictionary(let topKeys, let topValues) = try doc.object(top) else {
                throw KeyedArchiveError(.notAKeyedArchive, "$top is missing or not a dictionary")
            }
            guard let objectsRef, case .array(let objects) = try doc.object(objectsRef) else {
                throw KeyedArchiveError(.notAKeyedArchive, "$objects is missing or not an array")
            }
            return (objects, topKeys, topValues, objectsRef, top)
        } catch let e as PlistError {
            throw KeyedArchiveError(plist: e)
        } catch let e as KeyedArchiveError {
            throw e
        } catch {
            throw KeyedArchiveError(.corrupted, "\(error)")
        }
    }

    // MARK: - One-shot API

    /// Unarchives the root object (key `"root"`) as `type`.
    ///
    /// - Throws: ``KeyedArchiveError`` (`classNotAllowed` when the root is of another class,
    ///   `typeMismatch` when it is `$null`, …), or what an object's `init(from:)` throws.
    public static func unarchivedObject<T: KeyedArchiveValue>(
        ofClass type: T.Type, from data: Data, limits: Limits = Limits()
    ) throws -> T {
        try KeyedUnarchiver(forReadingFrom: data, limits: limits).decode(type, forKey: ArchiveVocabulary.rootKey)
    }

    // MARK: - Class names

    /// Decodes objects archived under `name` as `type` (this unarchiver only; it takes precedence
    /// over the global mapping). Also how a subclass is accepted where its superclass is expected.
    public func setClass(_ type: (any KeyedArchivable.Type)?, forClassName name: String) {
        classMap[name] = type
        state.classMapGeneration &+= 1
    }

    /// Decodes objects archived under `name` as `type` in every unarchiver (unless one maps the
    /// name itself).
    public static func setClass(_ type: (any KeyedArchivable.Type)?, forClassName name: String) {
        ClassRegistry.shared.setClass(type, forClassName: name)
    }

    /// The type this unarchiver maps `name` to, if any.
    public func `class`(forClassName name: String) -> (any KeyedArchivable.Type)? {
        classMap[name] ?? ClassRegistry.shared.type(forClassName: name)
    }

    /// The type mapped globally for `name`, if any.
    public static func `class`(forClassName name: String) -> (any KeyedArchivable.Type)? {
        ClassRegistry.shared.type(forClassName: name)
    }

    // MARK: - Decoding

    /// Whether the object being decoded (or `$top`) has a value under `key`.
    public func containsValue(forKey key: String) -> Bool {
        (try? lookup(key)) != nil
    }

    /// The archived class name of the object being decoded (`nil` at the top level).
    public var currentClassName: String? { state.frames.last.flatMap(state.className(of:)) }

    /// Decodes the value under `key` as `type`.
    ///
    /// A missing key is ``KeyedArchiveError/Code/missingKey`` (or `nil` when `type` is optional).
    public func decode<T: KeyedArchiveValue>(_ type: T.Type, forKey key: String) throws -> T {
        let value: T
        do {
            // One reader for the lookup and the value; the reads nested in it (the fields of the
            // objects it reaches) use the input this outermost read lent (Unarchiving/LentInput.swift).
            value = try withInput { (r: borrowing PlistReader) throws -> T in
                if let ref = try state.lookup(key, in: r, push: true) {
                    return try T.decodeArchiveValue(UnarchivedValue(ref: ref), from: self, reader: r)
                }
                return try missingValue(T.self, forKey: key)
            }
        } catch {
            _ = state.popPath()
            throw error
        }
        if state.popPath() { try drainPending() }
        return value
    }

    /// The value of a missing key: `nil` for optional types, otherwise a `missingKey` error. (Kept
    /// out of `decode`, whose generic body would otherwise instantiate `Optional<T>` metadata.)
    @inline(never)
    func missingValue<T>(_ type: T.Type, forKey key: String) throws -> T {
        if let none = (T.self as? any OptionalArchiveValue.Type)?.archiveNone as? T { return none }
        throw error(.missingKey, "no value for key \"\(key)\"")
    }

    /// Decodes the value under `key` into `value`, and leaves `value` as it is when the key is
    /// missing or holds `$null`: a property with a default value, absent from archives written
    /// before it existed (or set to `nil` by an Objective-C writer, as `decodeObjectForKey:` returns
    /// `nil` and `?? default` keeps the default). Any other value of another type is a
    /// ``KeyedArchiveError/Code/typeMismatch`` error.
    ///
    /// ```swift
    /// var nickname = "none"
    /// try coder.decodeIfPresent(into: &nickname, forKey: "nickname")
    /// ```
    public func decodeIfPresent<T: KeyedArchiveValue>(into value: inout T, forKey key: String) throws {
        try decodePresent(forKey: key) { (ref, r: borrowing PlistReader) throws in
            // `$null` keeps the default, as absence does.
            if try uidValue(r, ref) == 0 { return }
            value = try T.decodeArchiveValue(UnarchivedValue(ref: ref), from: self, reader: r)
        }
    }

    /// Decodes the value under `key` into the optional `value` when the key is present (`$null`
    /// sets it to `nil`), and leaves it as it is when the key is missing.
    ///
    /// ```swift
    /// var avatar: URL? = URL(string: "https://example.org/default.png")
    /// try coder.decodeIfPresent(into: &avatar, forKey: "avatar")
    /// ```
    @inlinable
    public func decodeIfPresent<T: KeyedArchiveValue>(into value: inout T?, forKey key: String) throws {
        // Inlined into the caller, where `T?` is a concrete type: the optional is assigned there. (In
        // the library's unspecialised generic code, every assignment of a `T?` instantiates its
        // metadata at run time: about 300 instructions per field.)
        try decodeOptional(T.self, forKey: key, ifNull: { value = nil }, ifValue: { value = $0 })
    }

    /// Looks `key` up and calls `ifNull` for `$null`, `ifValue` with the value decoded as `T`
    /// otherwise; nothing when the key is missing.
    @usableFromInline
    func decodeOptional<T: KeyedArchiveValue>(
        _ type: T.Type, forKey key: String, ifNull: () -> Void, ifValue: (T) -> Void
    ) throws {
        try decodePresent(forKey: key) { (ref, r: borrowing PlistReader) throws in
            if try uidValue(r, ref) == 0 {
                ifNull()
            } else {
                ifValue(try T.decodeArchiveValue(UnarchivedValue(ref: ref), from: self, reader: r))
            }
        }
    }

    /// Finds `key` and, when it is present, runs `body` with the stored value and the reader, the
    /// key on the path. (The optional-taking decodes go through here rather than through `T?`, whose
    /// metadata and conformance an unspecialised generic call instantiates at run time on every
    /// field: a quarter of an unarchive of classes with defaults, measured.)
    @inline(__always)
    func decodePresent(
        forKey key: String, _ body: (ObjectRef, borrowing PlistReader) throws -> Void
    ) throws {
        do {
            try withInput { (r: borrowing PlistReader) throws in
                if let ref = try state.lookup(key, in: r, push: true) { try body(ref, r) }
            }
        } catch {
            _ = state.popPath()
            throw error
        }
        if state.popPath() { try drainPending() }
    }

    /// Decodes the value under `key` as `type`, or `nil` when the key is missing or holds `$null`.
    @inlinable
    public func decodeIfPresent<T: KeyedArchiveValue>(_ type: T.Type, forKey key: String) throws -> T? {
        var result: T? = nil
        try decodeIfPresent(into: &result, forKey: key)
        return result
    }

    /// Decodes the object under `key` when its class is one of `types` (exact types or names
    /// mapped to them): a decode with an explicit allow-list. `nil` for a missing key or `$null`.
    public func decodeObject(of types: [any KeyedArchivable.Type], forKey key: String) throws
        -> (any KeyedArchivable)?
    {
        path.append(.key(key))
        defer { path.removeLast() }
        guard let ref = try lookup(key) else { return nil }
        let allowed = Set(types.map { ObjectIdentifier($0) })
        let names = types.map { $0.archiveClassName }.joined(separator: ", ")
        let result = try withInput { (r: borrowing PlistReader) throws -> (any KeyedArchivable)? in
            try decodeInstance(r, UnarchivedValue(ref: ref), candidates: types, expected: "one of [\(names)]") {
                allowed.contains(ObjectIdentifier($0))
            }
        }
        if frames.count == 1 { try drainPending() }
        return result
    }

    // MARK: - Internals

    /// The frame stack, as the Codable decoder walks it.
    var frames: [Frame] {
        get { state.frames }
        _modify { yield &state.frames }
    }

    /// The key path components, as the Codable decoder reports them.
    var path: [PathComponent] {
        get { state.path }
        _modify { yield &state.path }
    }

    /// The key path of the value being decoded.
    var keyPath: [String] { state.keyPath }

    func error(_ code: KeyedArchiveError.Code, uid: Int? = nil, className: String? = nil, _ detail: String)
        -> KeyedArchiveError
    {
        state.error(code, uid: uid, className: className, detail)
    }

    func plistError(_ e: PlistError, uid: Int? = nil) -> KeyedArchiveError {
        KeyedArchiveError(plist: e, keyPath: keyPath, uid: uid ?? state.frames.last?.uid)
    }

    /// Runs `body` with one borrow of the input.
    @inline(__always)
    func reading<R>(_ body: (borrowing PlistReader) throws(KeyedArchiveError) -> R) throws(KeyedArchiveError) -> R {
        try withInput(body)
    }

    @inline(__always)
    func object(_ r: borrowing PlistReader, _ ref: ObjectRef) throws(KeyedArchiveError) -> PlistObject {
        do {
            return try r.object(ref)
        } catch {
            throw plistError(error)
        }
    }

    func object(_ ref: ObjectRef) throws(KeyedArchiveError) -> PlistObject {
        try reading { r throws(KeyedArchiveError) in try object(r, ref) }
    }

    /// The value of a UID object, `nil` for any other object.
    @inline(__always)
    func uidValue(_ r: borrowing PlistReader, _ ref: ObjectRef) throws(KeyedArchiveError) -> UInt64? {
        do {
            return try r.uid(ref)
        } catch {
            throw plistError(error)
        }
    }

    func string(_ r: borrowing PlistReader, _ ref: ObjectRef) throws(KeyedArchiveError) -> String? {
        do {
            return try r.string(ref)
        } catch {
            throw plistError(error)
        }
    }

    /// The string of an object already read, without reading its marker again.
    func string(_ r: borrowing PlistReader, _ o: PlistObject, uid: Int?) throws(KeyedArchiveError) -> String? {
        do {
            return try r.string(o)
        } catch {
            throw plistError(error, uid: uid)
        }
    }

    func string(_ ref: ObjectRef) throws(KeyedArchiveError) -> String? {
        try reading { r throws(KeyedArchiveError) in try string(r, ref) }
    }

    /// Counts one decoded value against the budget.
    @inline(__always)
    func countValue() throws(KeyedArchiveError) {
        let n = state.decodedValues &+ 1
        state.decodedValues = n
        guard n <= limits.maxDecodedValues else {
            throw error(.limitExceeded, "more than \(limits.maxDecodedValues) values decoded")
        }
    }

    /// The UID a stored value holds: `nil` when it is not a UID.
    func uid(_ r: borrowing PlistReader, of value: UnarchivedValue) throws(KeyedArchiveError) -> Int? {
        guard let u = try uidValue(r, value.ref) else { return nil }
        guard u < UInt64(objects.count) else {
            throw error(.badUID, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        return Int(u)
    }

    /// Runs `decodeFields(from:)` of the two-phase objects created so far (and those they create),
    /// with the input lent for all of them: their fields are read through one borrow, as the fields
    /// of objects decoded by recursion are.
    func drainPending() throws {
        guard state.hasPending else { return }
        try withInput { (_: borrowing PlistReader) throws in
            while let item = state.nextPending() {
                // Errors inside name the object, then the keys below it: "<UID n>.field".
                let savedBase = state.pathBase
                let savedCount = state.path.count
                state.pathBase = savedCount
                state.path.append(.object(item.uid))
                state.frames.append(
                    Frame(
                        keys: item.keys, values: item.values, uid: item.uid, className: item.className,
                        classSlot: item.classSlot, classPosition: item.classPosition))
                defer {
                    state.frames.removeLast()
                    state.path.removeSubrange(savedCount...)
                    state.pathBase = savedBase
                }
                try item.object.decodeFields(from: self)
            }
        }
    }

    /// Runs `body` one collection level deeper (bounded), with UID `uid` marked in progress.
    func nestedCollection<R>(uid: Int, _ body: () throws -> R) throws -> R {
        try state.enterCollection(uid: uid, maxDepth: limits.maxDepth, objectCount: objects.count)
        defer { state.leaveCollection(uid: uid) }
        return try body()
    }
}

extension KeyedUnarchiver.State {
    mutating func addClassSlot(classUID: Int, info: KeyedUnarchiver.ClassInfo, objectCount: Int) -> Int {
        if classSlotByUID.count < objectCount { classSlotByUID = Array(repeating: 0, count: objectCount) }
        classSlots.append(KeyedUnarchiver.ClassSlot(info: info))
        classSlotByUID[classUID] = Int32(truncatingIfNeeded: classSlots.count)
        return classSlots.count &- 1
    }

    mutating func enterObject(_ frame: consuming KeyedUnarchiver.Frame, maxDepth: Int) throws(KeyedArchiveError) {
        let uid = frame.uid ?? 0
        guard depth < maxDepth else {
            throw error(.limitExceeded, uid: uid, "objects nested deeper than \(maxDepth) levels")
        }
        depth &+= 1
        inProgress[uid] = true
        frames.append(frame)
    }

    mutating func leaveObject(uid: Int, instance: (any KeyedArchivable)?) {
        frames.removeLast()
        inProgress[uid] = false
        depth &-= 1
        if let instance { instances[uid] = instance }
    }

    mutating func enterCollection(uid: Int, maxDepth: Int, objectCount: Int) throws(KeyedArchiveError) {
        guard depth < maxDepth else {
            throw error(.limitExceeded, uid: uid, "values nested deeper than \(maxDepth) levels")
        }
        allocateTables(objectCount)
        guard !inProgress[uid] else {
            throw error(.cycle, uid: uid, "the collection at UID \(uid) contains itself")
        }
        depth &+= 1
        inProgress[uid] = true
    }

    mutating func leaveCollection(uid: Int) {
        depth &-= 1
        inProgress[uid] = false
    }

    mutating func nextPending() -> KeyedUnarchiver.PendingFields? {
        guard pendingHead < pending.count else {
            pending.removeAll(keepingCapacity: true)
            pendingHead = 0
            return nil
        }
        let item = pending[pendingHead]
        pendingHead &+= 1
        return item
    }
}
