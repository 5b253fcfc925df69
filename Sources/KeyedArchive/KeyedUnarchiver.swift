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

public import BinaryPlist
public import FoundationEssentials

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
    /// Bounds for hostile input. The defaults are safe for untrusted archives.
    public struct Limits: Sendable, Hashable {
        /// Deepest nesting of objects and collections decoded recursively (default 512, as
        /// CoreFoundation). Two-phase objects are decoded from a queue and do not count.
        public var maxDepth: Int = 512
        /// Most values one unarchiver decodes (default 1 << 24): stops shared sub-trees from
        /// being expanded out of proportion.
        public var maxDecodedValues: Int = 1 << 24
        /// Limits of the property-list layer.
        public var plist: BinaryPlistLimits = .default

        public init(maxDepth: Int = 512, maxDecodedValues: Int = 1 << 24, plist: BinaryPlistLimits = .default) {
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
    }

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    struct ClassInfo {
        var name: String
        var chain: [String]
    }

    struct PendingFields {
        var uid: Int
        var object: any TwoPhaseKeyedArchivable
        var keys: ReferenceList
        var values: ReferenceList
        var className: String
    }

    let document: BinaryPlistDocument
    /// `$objects`.
    let objects: ReferenceList
    /// The limits in force.
    public let limits: Limits
    var frames: [Frame]
    var path: [PathComponent] = []
    var instances: [(any KeyedArchivable)?] = []
    var inProgress: [Bool] = []
    var classInfos: [Int: ClassInfo] = [:]
    var classMap: [String: any KeyedArchivable.Type] = [:]
    var pending: [PendingFields] = []
    var pendingHead = 0
    var depth = 0
    var decodedValues = 0
    var codableUserInfo: [CodingUserInfoKey: any Sendable] = [:]
    var codableNames: [ObjectIdentifier: Set<String>] = [:]

    /// Opens an archive.
    ///
    /// - Throws: ``KeyedArchiveError`` with code ``KeyedArchiveError/Code/plist`` when the input
    ///   is not a valid binary property list, ``KeyedArchiveError/Code/notAKeyedArchive`` when
    ///   `$archiver`, `$version`, `$top` or `$objects` is missing or wrong.
    public init(forReadingFrom data: Data, limits: Limits = Limits()) throws {
        self.limits = limits
        let doc: BinaryPlistDocument
        do {
            doc = try BinaryPlistDocument(data, limits: limits.plist)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        document = doc
        let parts = try KeyedUnarchiver.topLevel(doc)
        objects = parts.objects
        frames = [Frame(keys: parts.topKeys, values: parts.topValues)]
    }

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
                case ArchiveFormat.archiverKey: archiver = values[i]
                case ArchiveFormat.versionKey: version = values[i]
                case ArchiveFormat.topKey: top = values[i]
                case ArchiveFormat.objectsKey: objectsRef = values[i]
                default: break
                }
            }
            guard let archiver, try doc.string(archiver) == ArchiveFormat.archiverName else {
                throw KeyedArchiveError(.notAKeyedArchive, "$archiver is missing or not \"NSKeyedArchiver\"")
            }
            guard let version, case .integer(let v) = try doc.object(version), v == Int128(ArchiveFormat.version)
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
        } catch let e as BinaryPlistError {
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
        try KeyedUnarchiver(forReadingFrom: data, limits: limits).decode(type, forKey: ArchiveFormat.rootKey)
    }

    // MARK: - Class names

    /// Decodes objects archived under `name` as `type` (this unarchiver only; it takes precedence
    /// over the global mapping). Also how a subclass is accepted where its superclass is expected.
    public func setClass(_ type: (any KeyedArchivable.Type)?, forClassName name: String) {
        classMap[name] = type
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
    public var currentClassName: String? { frames.last?.className }

    /// Decodes the value under `key` as `type`.
    ///
    /// A missing key is ``KeyedArchiveError/Code/missingKey`` (or `nil` when `type` is optional).
    public func decode<T: KeyedArchiveValue>(_ type: T.Type, forKey key: String) throws -> T {
        path.append(.key(key))
        defer { path.removeLast() }
        guard let ref = try lookup(key) else {
            if let none = (T.self as? any OptionalArchiveValue.Type)?.archiveNone as? T { return none }
            throw error(.missingKey, "no value for key \"\(key)\"")
        }
        let value = try T.decodeArchiveValue(UnarchivedValue(ref: ref), from: self)
        if frames.count == 1 { try drainPending() }
        return value
    }

    /// Decodes the value under `key` as `type`, or `nil` when the key is missing or holds `$null`.
    public func decodeIfPresent<T: KeyedArchiveValue>(_ type: T.Type, forKey key: String) throws -> T? {
        try decode(T?.self, forKey: key)
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
        let result = try decodeInstance(UnarchivedValue(ref: ref), candidates: types, expected: "one of [\(names)]") {
            allowed.contains(ObjectIdentifier($0))
        }
        if frames.count == 1 { try drainPending() }
        return result
    }

    // MARK: - Internals

    /// The key path of the value being decoded.
    var keyPath: [String] {
        path.map {
            switch $0 {
            case .key(let k): k
            case .index(let i): String(i)
            }
        }
    }

    func error(_ code: KeyedArchiveError.Code, uid: Int? = nil, className: String? = nil, _ detail: String)
        -> KeyedArchiveError
    {
        KeyedArchiveError(
            code, keyPath: keyPath, className: className ?? frames.last?.className, uid: uid ?? frames.last?.uid,
            detail)
    }

    func plistError(_ e: BinaryPlistError, uid: Int? = nil) -> KeyedArchiveError {
        KeyedArchiveError(plist: e, keyPath: keyPath, uid: uid ?? frames.last?.uid)
    }

    @inline(__always)
    func object(_ ref: ObjectRef) throws(KeyedArchiveError) -> PlistObject {
        do {
            return try document.object(ref)
        } catch {
            throw plistError(error)
        }
    }

    func string(_ ref: ObjectRef) throws(KeyedArchiveError) -> String? {
        do {
            return try document.string(ref)
        } catch {
            throw plistError(error)
        }
    }

    /// Finds `key` (escaped) in the current frame.
    func lookup(_ key: String) throws(KeyedArchiveError) -> ObjectRef? {
        let top = frames.count - 1
        let frame = frames[top]
        let n = frame.keys.count
        guard n > 0 else { return nil }
        let stored = ArchiveFormat.escape(key)
        var i = frame.hint < n ? frame.hint : 0
        for _ in 0..<n {
            let equal: Bool
            do {
                equal = try document.string(frame.keys[i], equals: stored)
            } catch {
                throw plistError(error)
            }
            if equal {
                frames[top].hint = i + 1
                return frame.values[i]
            }
            i = i + 1 == n ? 0 : i + 1
        }
        return nil
    }

    /// Finds a field of a dictionary that is not a frame (Foundation-class objects).
    func field(_ name: String, keys: ReferenceList, values: ReferenceList) throws(KeyedArchiveError) -> ObjectRef? {
        for i in 0..<keys.count {
            let equal: Bool
            do {
                equal = try document.string(keys[i], equals: name)
            } catch {
                throw plistError(error)
            }
            if equal { return values[i] }
        }
        return nil
    }

    /// Counts one decoded value against the budget.
    @inline(__always)
    func countValue() throws(KeyedArchiveError) {
        decodedValues += 1
        guard decodedValues <= limits.maxDecodedValues else {
            throw error(.limitExceeded, "more than \(limits.maxDecodedValues) values decoded")
        }
    }

    /// The UID a stored value holds: `nil` when it is not a UID.
    func uid(of value: UnarchivedValue) throws(KeyedArchiveError) -> Int? {
        guard case .uid(let u) = try object(value.ref) else { return nil }
        guard u < UInt64(objects.count) else {
            throw error(.badUID, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        return Int(u)
    }

    /// What a stored value means after following a UID: the object and its UID (0 = `$null`).
    func resolve(_ value: UnarchivedValue) throws(KeyedArchiveError) -> (object: PlistObject, uid: Int?) {
        let o = try object(value.ref)
        guard case .uid(let u) = o else { return (o, nil) }
        guard u < UInt64(objects.count) else {
            throw error(.badUID, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        let uid = Int(u)
        if uid == 0 { return (.null, 0) }
        return (try object(objects[uid]), uid)
    }

    /// The class description an object dictionary's `$class` points at (memoised per class UID).
    func classInfo(keys: ReferenceList, values: ReferenceList, uid: Int?) throws(KeyedArchiveError) -> ClassInfo {
        guard let classRef = try field(ArchiveFormat.classKey, keys: keys, values: values) else {
            throw error(.corrupted, uid: uid, "object \(uid.map(String.init) ?? "?") has no $class")
        }
        guard case .uid(let cu) = try object(classRef), cu > 0, cu < UInt64(objects.count) else {
            throw error(.badUID, uid: uid, "$class is not a UID inside $objects")
        }
        let classUID = Int(cu)
        if let known = classInfos[classUID] { return known }
        guard case .dictionary(let ck, let cv) = try object(objects[classUID]) else {
            throw error(.corrupted, uid: classUID, "$class points at UID \(classUID), which is not a class description")
        }
        guard let nameRef = try field(ArchiveFormat.classNameKey, keys: ck, values: cv),
            let name = try string(nameRef)
        else {
            throw error(.corrupted, uid: classUID, "the class description at UID \(classUID) has no $classname")
        }
        var chain: [String] = []
        if let chainRef = try field(ArchiveFormat.classesKey, keys: ck, values: cv),
            case .array(let list) = try object(chainRef)
        {
            chain.reserveCapacity(min(list.count, 64))
            for r in list {
                if let s = try string(r) { chain.append(s) }
            }
        }
        if chain.isEmpty { chain = [name] }
        let info = ClassInfo(name: name, chain: chain)
        classInfos[classUID] = info
        return info
    }

    /// The Swift type an archived class name stands for: instance map, global map, then the
    /// candidates' own names.
    func resolveType(_ name: String, candidates: [any KeyedArchivable.Type]) -> (any KeyedArchivable.Type)? {
        if let t = classMap[name] { return t }
        if let t = ClassRegistry.shared.type(forClassName: name) { return t }
        for c in candidates where c.archiveClassName == name { return c }
        return nil
    }

    /// Decodes a class instance. The archived class must resolve to a type `accept` admits,
    /// checked before any field of the object is read.
    func decodeInstance(
        _ value: UnarchivedValue, candidates: [any KeyedArchivable.Type], expected: String,
        accept: (any KeyedArchivable.Type) -> Bool
    ) throws -> (any KeyedArchivable)? {
        try countValue()
        guard let uid = try uid(of: value) else {
            throw error(.typeMismatch, "expected a reference to a \(expected) object, found an inline value")
        }
        if uid == 0 { return nil }
        if instances.isEmpty {
            instances = Array(repeating: nil, count: objects.count)
            inProgress = Array(repeating: false, count: objects.count)
        }
        if let existing = instances[uid] {
            // Identity: the same instance wherever it is referenced, but never as another type.
            guard accept(Swift.type(of: existing)) else {
                throw error(
                    .classNotAllowed, uid: uid, className: String(describing: Swift.type(of: existing)),
                    "the object at UID \(uid) was already decoded as a type that is not \(expected)")
            }
            return existing
        }
        guard !inProgress[uid] else {
            throw error(.cycle, uid: uid, "UID \(uid) refers back to an object that is still being decoded")
        }
        guard case .dictionary(let keys, let values) = try object(objects[uid]) else {
            throw error(.typeMismatch, uid: uid, "expected a \(expected) object at UID \(uid), found a plain value")
        }
        let info = try classInfo(keys: keys, values: values, uid: uid)
        // The class check, before any field is read.
        guard let type = resolveType(info.name, candidates: candidates), accept(type) else {
            throw error(
                .classNotAllowed, uid: uid, className: info.name,
                "archived class \(info.name) is not \(expected) (map it with setClass(_:forClassName:))")
        }
        if let twoPhase = type as? any TwoPhaseKeyedArchivable.Type {
            let instance = twoPhase.init()
            instances[uid] = instance
            pending.append(PendingFields(uid: uid, object: instance, keys: keys, values: values, className: info.name))
            return instance
        }
        guard depth < limits.maxDepth else {
            throw error(.limitExceeded, uid: uid, "objects nested deeper than \(limits.maxDepth) levels")
        }
        depth += 1
        inProgress[uid] = true
        frames.append(Frame(keys: keys, values: values, uid: uid, className: info.name))
        defer {
            frames.removeLast()
            inProgress[uid] = false
            depth -= 1
        }
        let instance = try type.init(from: self)
        instances[uid] = instance
        return instance
    }

    /// Decodes an instance of `T` (or a subclass mapped to the archived name).
    func decodeObject<T: KeyedArchivable>(_ type: T.Type, from value: UnarchivedValue) throws -> T? {
        let result = try decodeInstance(value, candidates: [T.self], expected: T.archiveClassName) { $0 is T.Type }
        guard let result else { return nil }
        guard let typed = result as? T else {
            throw error(.classNotAllowed, "decoded object is not a \(T.archiveClassName)")
        }
        return typed
    }

    /// Runs `decodeFields(from:)` of the two-phase objects created so far (and those they create).
    func drainPending() throws {
        while pendingHead < pending.count {
            let item = pending[pendingHead]
            pendingHead += 1
            let savedPath = path
            path = [.key("<UID \(item.uid)>")]
            frames.append(Frame(keys: item.keys, values: item.values, uid: item.uid, className: item.className))
            defer {
                frames.removeLast()
                path = savedPath
            }
            try item.object.decodeFields(from: self)
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
    }

    /// Runs `body` one collection level deeper (bounded), with UID `uid` marked in progress.
    func nestedCollection<R>(uid: Int, _ body: () throws -> R) throws -> R {
        guard depth < limits.maxDepth else {
            throw error(.limitExceeded, uid: uid, "values nested deeper than \(limits.maxDepth) levels")
        }
        if instances.isEmpty {
            instances = Array(repeating: nil, count: objects.count)
            inProgress = Array(repeating: false, count: objects.count)
        }
        guard !inProgress[uid] else {
            throw error(.cycle, uid: uid, "the collection at UID \(uid) contains itself")
        }
        depth += 1
        inProgress[uid] = true
        defer {
            depth -= 1
            inProgress[uid] = false
        }
        return try body()
    }
}
