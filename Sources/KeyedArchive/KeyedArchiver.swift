// Sources/KeyedArchive/KeyedArchiver.swift - Writes NSKeyedArchiver archives straight into the builder.
//
// How an archive is built (no value tree, no recursion through the object graph):
// - `$objects` is a table indexed by UID; entry 0 is the string "$null".
// - Scalars an object encodes (Bool, integers, reals) go inline into its dictionary. Strings, data
//   and numbers that must be objects are added to the builder and get a UID; equal ones share a
//   UID (the builder deduplicates by value, and `uidByRef` maps its reference to one UID).
// - A class instance gets its UID when first referenced (identity by `ObjectIdentifier`; the
//   instance is retained until the archive is finished), and is queued. Its `encode(with:)` runs
//   later, from the queue, so a deep or cyclic graph never deepens the call stack.
// - An object's dictionary is added to the builder when its `encode(with:)` returns, unless it
//   holds conditional references: those wait for `finishEncoding()`, which knows whether the
//   target was ever archived unconditionally (UID) or not (`$null`).

import BinaryPlist
public import FoundationEssentials

/// Writes keyed archives that Apple's `NSKeyedUnarchiver` reads.
///
/// ```swift
/// let data = try KeyedArchiver.archivedData(withRootObject: person)
///
/// let archiver = KeyedArchiver()             // several top-level keys
/// try archiver.encode(dog, forKey: "dog")
/// try archiver.encode(person, forKey: "person")
/// let both = try archiver.finishEncoding()
/// ```
public final class KeyedArchiver {
    /// One object being encoded: its keys and values so far.
    struct Frame {
        var keys: [BuilderRef] = []
        var values: [BuilderRef] = []
        /// Positions in `values` holding a conditional reference, resolved at finish.
        var conditionals: [(index: Int, object: ObjectIdentifier)] = []
    }

    enum Slot {
        /// Reserved for a queued object whose `encode(with:)` has not run yet.
        case reserved
        case ready(BuilderRef)
        case deferred(Frame)
    }

    var builder = ObjectTableBuilder()
    /// `$objects`, by UID.
    var objects: [Slot] = []
    /// Builder reference of a plain object (string, number, data, NSDate…) → its UID.
    var uidByRef: [BuilderRef: Int] = [:]
    /// Class instance → UID.
    var uidByObject: [ObjectIdentifier: Int] = [:]
    /// Instances waiting for `encode(with:)` (kept after encoding, so identities stay unique).
    var queue: [(uid: Int, object: any KeyedArchivable)] = []
    var queueHead = 0
    /// Frame stack: `frames[0]` is `$top`.
    var frames: [Frame] = [Frame()]
    /// Class description UIDs, by class name; and per Swift type, after name mapping.
    var classUIDByName: [String: Int] = [:]
    var classUIDByType: [ObjectIdentifier: Int] = [:]
    var classNames: [ObjectIdentifier: String] = [:]
    var conditionalTargets: [AnyObject] = []
    /// `UID(n)` builder references, by n.
    var uidRefs: [BuilderRef?] = []
    var valueDepth = 0
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var result: Data?
    var failed = false

    // Keys used on every object, added once.
    let classKey: BuilderRef
    let nullUID: BuilderRef

    /// Deepest nesting of values (collections inside collections, Codable containers) encoded
    /// recursively. Class instances are queued, not nested, so object graphs have no depth limit.
    public var maxValueDepth = 512

    /// A new archiver. Encode values under keys, then call ``finishEncoding()``.
    public init() {
        let null = builder.addString(ArchiveFormat.null)
        objects.append(.ready(null))
        uidByRef[null] = 0
        classKey = builder.addString(ArchiveFormat.classKey)
        nullUID = builder.addUID(0)
    }

    // MARK: - One-shot API

    /// Archives a value (typically an object, or an array of objects) under the key `"root"`.
    ///
    /// - Returns: A `bplist00` keyed archive.
    /// - Throws: ``KeyedArchiveError`` (or an error thrown by an object's `encode(with:)`).
    public static func archivedData(withRootObject root: some KeyedArchiveValue) throws -> Data {
        let archiver = KeyedArchiver()
        try archiver.encodeRoot(root, forKey: ArchiveFormat.rootKey)
        return try archiver.finishEncoding()
    }

    // MARK: - Class names

    /// Archives instances of `type` under another class name (this archiver only; it takes
    /// precedence over the global mapping). `nil` removes the mapping.
    public func setClassName(_ name: String?, for type: any KeyedArchivable.Type) {
        classNames[ObjectIdentifier(type)] = name
        classUIDByType.removeAll()
    }

    /// Archives instances of `type` under another class name in every archiver (unless an
    /// archiver maps it itself). `nil` removes the mapping.
    public static func setClassName(_ name: String?, for type: any KeyedArchivable.Type) {
        ClassRegistry.shared.setClassName(name, for: type)
    }

    /// The class name this archiver writes for `type`.
    public func className(for type: any KeyedArchivable.Type) -> String {
        classNames[ObjectIdentifier(type)] ?? ClassRegistry.shared.className(for: type) ?? type.archiveClassName
    }

    /// The global class name mapped for `type`, if any.
    public static func className(for type: any KeyedArchivable.Type) -> String? {
        ClassRegistry.shared.className(for: type)
    }

    // MARK: - Encoding

    /// Encodes a value under a key of the object being encoded (or of `$top`).
    ///
    /// Scalars are stored inline; strings, data, dates, URLs, UUIDs, collections and objects as
    /// references. `nil` is stored as the `$null` reference. Keys beginning with `$` are escaped.
    public func encode(_ value: some KeyedArchiveValue, forKey key: String) throws {
        try checkOpen()
        let v = try encodeGuarded(value)
        appendField(key, v.ref)
        if frames.count == 1 { try drain() }
    }

    /// Encodes a reference to `object` only if it is archived unconditionally somewhere else;
    /// otherwise the key holds `$null`. Resolved when the archive is finished.
    public func encodeConditional(_ object: (some KeyedArchivable)?, forKey key: String) throws {
        try checkOpen()
        guard let object else {
            appendField(key, nullUID)
            return
        }
        let id = ObjectIdentifier(object)
        if let uid = uidByObject[id] {
            appendField(key, uidRef(uid))
            return
        }
        appendField(key, nullUID)
        let top = frames.count - 1
        frames[top].conditionals.append((frames[top].values.count - 1, id))
        // Retained so that its identity cannot be reused by another instance before finishing.
        conditionalTargets.append(object)
    }

    /// Finishes the archive and returns its bytes. Calling it again returns the same bytes;
    /// encoding after it is an ``KeyedArchiveError/Code/unencodable`` error.
    public func finishEncoding() throws -> Data {
        if let result { return result }
        try checkOpen()
        do {
            try drain()
            let data = try assemble()
            result = data
            return data
        } catch {
            failed = true
            throw error
        }
    }

    /// The bytes produced by ``finishEncoding()``, or `nil` before.
    public var encodedData: Data? { result }

    // MARK: - Internals used by the value conformances

    func checkOpen() throws(KeyedArchiveError) {
        guard result == nil, !failed else {
            throw KeyedArchiveError(
                .unencodable, result == nil ? "the archiver failed earlier" : "the archive is already finished")
        }
    }

    func encodeRoot(_ value: some KeyedArchiveValue, forKey key: String) throws {
        let v = try encodeGuarded(value)
        appendField(key, objectReference(v))
        try drain()
    }

    /// Encodes a value, marking the archiver failed if anything throws.
    func encodeGuarded(_ value: some KeyedArchiveValue) throws -> ArchivedValue {
        do {
            return try value.encodeArchiveValue(to: self)
        } catch {
            failed = true
            throw error
        }
    }

    @inline(__always)
    func appendField(_ key: String, _ value: BuilderRef) {
        let k = builder.addString(ArchiveFormat.escape(key))
        let top = frames.count - 1
        frames[top].keys.append(k)
        frames[top].values.append(value)
    }

    /// The builder reference of `UID(uid)`, cached by UID (no hashing on the hot path).
    @inline(__always)
    func uidRef(_ uid: Int) -> BuilderRef {
        if uid < uidRefs.count, let r = uidRefs[uid] { return r }
        let r = builder.addUID(UInt64(uid))
        if uid >= uidRefs.count { uidRefs.append(contentsOf: repeatElement(nil, count: uid - uidRefs.count + 1)) }
        uidRefs[uid] = r
        return r
    }

    /// Stores a plain object (string, number, data, or a Foundation-class dictionary) in
    /// `$objects`, once per distinct value, and returns its UID reference.
    func uid(forPlainObject ref: BuilderRef) -> BuilderRef {
        if let uid = uidByRef[ref] { return uidRef(uid) }
        let uid = objects.count
        objects.append(.ready(ref))
        uidByRef[ref] = uid
        return uidRef(uid)
    }

    /// A UID for an archived value: references pass through, inline scalars become objects.
    func objectReference(_ value: ArchivedValue) -> BuilderRef {
        value.isReference ? value.ref : uid(forPlainObject: value.ref)
    }

    /// Encodes an element of a collection: always an object reference.
    func elementReference(_ value: some KeyedArchiveValue) throws -> BuilderRef {
        objectReference(try value.encodeArchiveValue(to: self))
    }

    /// The UID of a class instance, reserving it (and queueing the instance) on first sight.
    func reference(to object: any KeyedArchivable) -> BuilderRef {
        let id = ObjectIdentifier(object)
        if let uid = uidByObject[id] { return uidRef(uid) }
        let uid = objects.count
        objects.append(.reserved)
        uidByObject[id] = uid
        queue.append((uid, object))
        return uidRef(uid)
    }

    /// The UID of a class description, added once per class name.
    func classUID(named name: String, chain: [String]) throws(BinaryPlistError) -> Int {
        if let uid = classUIDByName[name] { return uid }
        let keys = [builder.addString(ArchiveFormat.classNameKey), builder.addString(ArchiveFormat.classesKey)]
        let chainRefs = chain.map { builder.addString($0) }
        let values = [builder.addString(name), try builder.addArray(chainRefs)]
        let dict = try builder.addDictionary(keys: keys, values: values)
        let uid = objects.count
        objects.append(.ready(dict))
        classUIDByName[name] = uid
        return uid
    }

    /// The UID of a Foundation class description (NSArray, NSDate, …).
    func foundationClassUID(_ name: String) throws(BinaryPlistError) -> Int {
        if let uid = classUIDByName[name] { return uid }
        return try classUID(named: name, chain: ArchiveFormat.chains[name] ?? [name, "NSObject"])
    }

    /// Adds a Foundation-class object `{$class: UID(name), key1: v1, …}` and returns its UID
    /// reference (equal objects share one UID).
    func foundationObject(_ className: String, keys: [String], values: [BuilderRef]) throws -> BuilderRef {
        let cls = try foundationClassUID(className)
        var k = [classKey]
        k.reserveCapacity(keys.count + 1)
        for key in keys { k.append(builder.addString(key)) }
        var v = [uidRef(cls)]
        v.append(contentsOf: values)
        return uid(forPlainObject: try builder.addDictionary(keys: k, values: v))
    }

    /// Runs `body` one value-nesting level deeper, bounded by ``maxValueDepth``.
    func nested<R>(_ body: () throws -> R) throws -> R {
        guard valueDepth < maxValueDepth else {
            throw KeyedArchiveError(.limitExceeded, "values nested deeper than \(maxValueDepth) levels")
        }
        valueDepth += 1
        defer { valueDepth -= 1 }
        return try body()
    }

    /// Runs the queued objects' `encode(with:)`.
    func drain() throws {
        while queueHead < queue.count {
            let (uid, object) = queue[queueHead]
            queueHead += 1
            do {
                try encodeBody(of: object, uid: uid)
            } catch {
                failed = true
                throw error
            }
        }
    }

    private func encodeBody(of object: any KeyedArchivable, uid: Int) throws {
        let type = Swift.type(of: object)
        let typeID = ObjectIdentifier(type)
        let classUID: Int
        if let known = classUIDByType[typeID] {
            classUID = known
        } else {
            let name = className(for: type)
            classUID = try self.classUID(named: name, chain: [name] + type.archiveSuperclassNames)
            classUIDByType[typeID] = classUID
        }
        var frame = Frame()
        frame.keys.append(classKey)
        frame.values.append(builder.addUID(UInt64(classUID)))
        frames.append(frame)
        let savedDepth = valueDepth
        valueDepth = 0
        defer { valueDepth = savedDepth }
        try object.encode(with: self)
        let done = frames.removeLast()
        if done.conditionals.isEmpty {
            objects[uid] = .ready(try builder.addDictionary(keys: done.keys, values: done.values))
        } else {
            objects[uid] = .deferred(done)
        }
    }

    /// Resolves conditional references and writes the file.
    private func assemble() throws -> Data {
        var refs: [BuilderRef] = []
        refs.reserveCapacity(objects.count)
        for i in objects.indices {
            switch objects[i] {
            case .ready(let r): refs.append(r)
            case .deferred(let frame):
                refs.append(try builder.addDictionary(keys: frame.keys, values: resolved(frame)))
            case .reserved:
                throw KeyedArchiveError(.unencodable, uid: i, "object \(i) was referenced but never encoded")
            }
        }
        let objectsArray = try builder.addArray(refs)
        let top = try builder.addDictionary(keys: frames[0].keys, values: resolved(frames[0]))
        let root = try builder.addDictionary(
            keys: [
                builder.addString(ArchiveFormat.versionKey), builder.addString(ArchiveFormat.archiverKey),
                builder.addString(ArchiveFormat.topKey), builder.addString(ArchiveFormat.objectsKey),
            ],
            values: [
                builder.addInt(ArchiveFormat.version), builder.addString(ArchiveFormat.archiverName), top,
                objectsArray,
            ])
        return try builder.finish(root: root)
    }

    private func resolved(_ frame: Frame) -> [BuilderRef] {
        var values = frame.values
        for c in frame.conditionals {
            // An object is archived unconditionally exactly when it has a UID.
            if let uid = uidByObject[c.object] { values[c.index] = uidRef(uid) }
        }
        return values
    }
}
