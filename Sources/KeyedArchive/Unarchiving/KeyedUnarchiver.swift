// Sources/KeyedArchive/Unarchiving/KeyedUnarchiver.swift - Reads keyed archives lazily through the document.
//
// Nothing is materialised up front: the unarchiver keeps the `$objects` reference list and reads
// each object's dictionary from the input when a decode asks for it. Rules against hostile input:
// - every UID is checked against `$objects` before use (`badUID`);
// - an object's class is resolved and checked against the expected type before any of its fields
//   is read (`classNotAllowed`); `$class` must point at a dictionary with `$classname`;
// - class instances are memoised by UID (identity); an instance requested again as another type
//   is `classNotAllowed` (no cache bypass); a UID reached again while it is being decoded is a
//   `cycle`, unless its type is two-phase (created and registered before its fields are read);
// - nesting depth and the number of decoded values are bounded (``KeyedArchiveLimits``), so neither deep
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
    /// A reference list's place, read through a `PlistReader` (Frame's lists).
    typealias RefSpan = BinaryPlistDocument.RefSpan

    let document: BinaryPlistDocument
    /// `$objects`.
    let objects: ReferenceList
    /// The limits in force.
    public let limits: KeyedArchiveLimits
    #if DEBUG
        /// The decoding state. Debug builds keep it a stored property, so that every access to it is
        /// checked for exclusivity at run time; release builds keep it in a `StateCell` (see
        /// Unarchiving/StateCell.swift, which also says why that is sound).
        var state: State
        /// The reader lent for the current top-level read, when `state.isLent`
        /// (Unarchiving/LentInput.swift).
        var lentReader: PlistReader
    #else
        let stateCell: StateCell<State>
        /// The cell of `lentReader` (Unarchiving/LentInput.swift).
        let readerCell: StateCell<PlistReader>
    #endif
    var classMap: [String: any KeyedArchivable.Type] = [:]
    /// Rarely used state (the Codable path's settings, the unknown-class hook, unkeyed positions),
    /// in one lazily created box: the unarchiver stays small for the common path.
    var extras: Extras?

    /// Decides the class of an archived object whose class name, superclass names (`$classes`)
    /// and class hints map to no acceptable type: given the class name and its chain, return the
    /// type to decode it as, or `nil` for an `unknownClass` error. The
    /// type must still be one the call site accepts, or the decode is
    /// `classNotAllowed`.
    public var unknownClassHandler: ((_ className: String, _ classChain: [String]) -> (any KeyedArchivable.Type)?)? {
        get { extras?.unknownClassHandler }
        set { extrasBox.unknownClassHandler = newValue }
    }

    /// Opens an archive in any property-list form (binary, XML, typed JSON), plain or compressed.
    ///
    /// - Parameters:
    ///   - data: The archive.
    ///   - options: What is read beyond the format; e.g. `.init(allowsTrailingData: true)` accepts
    ///     bytes after the archive (``trailingByteCount`` says how many).
    ///   - limits: Bounds for hostile input.
    /// - Throws: ``KeyedArchiveError`` with the property-list layer's code (`notAPropertyList`,
    ///   `truncated`, `trailingData`, …) when the input is not a valid property list,
    ///   `notAKeyedArchive` when `$archiver`, `$version`, `$top` or `$objects` is missing or wrong.
    public convenience init(
        forReadingFrom data: Data, options: PlistReadOptions = .default, limits: KeyedArchiveLimits = .default
    ) throws(KeyedArchiveError) {
        let doc: BinaryPlistDocument
        do {
            doc = try BinaryPlistDocument.openArchive(data, limits: limits.plist, options: options)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        try self.init(document: doc, limits: limits)
    }

    /// Reads an archive already opened (e.g. by ``KeyedArchiveGraph``).
    init(document doc: BinaryPlistDocument, limits: KeyedArchiveLimits) throws(KeyedArchiveError) {
        self.limits = limits
        document = doc
        let parts = try KeyedUnarchiver.topLevel(doc)
        objects = parts.objects
        let state = State(frames: [Frame(keys: parts.topKeys, values: parts.topValues)])
        #if DEBUG
            self.state = state
            lentReader = doc.idleReader()
        #else
            stateCell = StateCell(state)
            readerCell = StateCell(doc.idleReader())
        #endif
    }

    #if !DEBUG
        deinit {
            stateCell.destroy()
            readerCell.destroy()
        }
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
        ofClass type: T.Type, from data: Data, limits: KeyedArchiveLimits = .default
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
    /// A missing key is `keyNotFound` (or `nil` when `type` is optional).
    public func decode<T: KeyedArchiveValue>(_ type: T.Type, forKey key: String) throws -> T {
        let value: T
        do {
            // One reader for the lookup and the value; the reads nested in it (the fields of the
            // objects it reaches) use the input this outermost read lent (Unarchiving/LentInput.swift).
            value = try withInput { (r: borrowing PlistReader) throws -> T in
                if let ref = try state.lookup(key, in: r, push: true) {
                    return try decodeValue(T.self, UnarchivedValue(ref: ref), r)
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
        throw error(.keyNotFound, "no value for key \"\(key)\"")
    }

    /// Decodes the value under `key` into `value`, and keeps `value` (its default) when the key is
    /// missing **or holds `$null`**: a property with a default value, absent from archives written
    /// before it existed (or set to `nil` by an Objective-C writer, as `decodeObjectForKey:` returns
    /// `nil` and `?? default` keeps the default). Any other value of another type is a
    /// `typeMismatch` error.
    ///
    /// ```swift
    /// var nickname = "none"
    /// try coder.decodeKeepingDefault(into: &nickname, forKey: "nickname")   // absent or $null: "none"
    /// ```
    ///
    /// For an optional property whose `$null` means `nil`, use ``decodeNullable(into:forKey:)``.
    public func decodeKeepingDefault<T: KeyedArchiveValue>(into value: inout T, forKey key: String) throws {
        try decodePresent(forKey: key) { (ref, r: borrowing PlistReader) throws in
            // `$null` keeps the default, as absence does.
            if try uidValue(r, ref) == 0 { return }
            value = try decodeValue(T.self, UnarchivedValue(ref: ref), r)
        }
    }

    /// Decodes the value under `key` into the optional `value` when the key is present, **`$null`
    /// setting it to `nil`**, and keeps `value` when the key is missing.
    ///
    /// ```swift
    /// var avatar: URL? = URL(string: "https://example.org/default.png")
    /// try coder.decodeNullable(into: &avatar, forKey: "avatar")   // absent: the default; $null: nil
    /// ```
    ///
    /// To keep the default for `$null` too, use ``decodeKeepingDefault(into:forKey:)``.
    @inlinable
    public func decodeNullable<T: KeyedArchiveValue>(into value: inout T?, forKey key: String) throws {
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
                ifValue(try decodeValue(T.self, UnarchivedValue(ref: ref), r))
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
        guard !recordsFailures else {
            return try underFailurePolicy {
                var result: T? = nil
                try decodeNullable(into: &result, forKey: key)
                return result
            }
        }
        var result: T? = nil
        try decodeNullable(into: &result, forKey: key)
        return result
    }

    /// Decodes the object under `key` when its class is one of `types` (exact types or names
    /// mapped to them): a decode with an explicit allow-list. `nil` for a missing key or `$null`.
    public func decodeObject(of types: [any KeyedArchivable.Type], forKey key: String) throws
        -> (any KeyedArchivable)?
    {
        try underFailurePolicy { () throws -> (any KeyedArchivable)? in
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
        KeyedArchiveError(plist: e, keys: keyPath, object: uid ?? state.frames.last?.uid)
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
        guard n <= limits.maxValues else {
            throw error(.limitExceeded, "more than \(limits.maxValues) values decoded")
        }
    }

    /// The UID a stored value holds: `nil` when it is not a UID.
    func uid(_ r: borrowing PlistReader, of value: UnarchivedValue) throws(KeyedArchiveError) -> Int? {
        guard let u = try uidValue(r, value.ref) else { return nil }
        guard u < UInt64(objects.count) else {
            throw error(.badReference, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
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
