// Sources/KeyedArchive/Archiving/KeyedArchiver.swift - Writes NSKeyedArchiver archives straight into the builder.
//
// How an archive is built (no value tree, no recursion through the object graph):
// - `$objects` is a table indexed by UID; entry 0 is the string "$null".
// - Scalars an object encodes (Bool, integers, reals) go inline into its dictionary. Strings, data
//   and numbers that must be objects are added to the builder and get a UID; equal ones share a
//   UID (the builder deduplicates by value, and `uidByBuilderID` maps its reference to one UID).
// - A class instance gets its UID when first referenced (identity by `ObjectIdentifier`; the
//   instance is retained until the archive is finished), and is queued. Its `encode(with:)` runs
//   later, from the queue, so a deep or cyclic graph never deepens the call stack.
// - An object's dictionary is added to the builder when its `encode(with:)` returns, unless it
//   holds conditional references: those wait for `finishEncoding()`, which knows whether the
//   target was ever archived unconditionally (UID) or not (`$null`).
//
// Performance: all mutable state lives in one struct (`State`) stored in one property, and each
// operation is one mutating method on it, so an operation costs one dynamic exclusivity check
// rather than one per field touched. Per class, the keys its objects encode are remembered by
// position (a key's builder reference is found by comparing the key with the one encoded at the
// same position last time, which for string literals is a bit comparison), and frames reuse their
// buffers.

@_spi(Internals) public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

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
        /// Index in `State.classes` of the object's class (`-1` for `$top`): its key memo.
        var classSlot = -1
    }

    enum Slot {
        /// Reserved for a queued object whose `encode(with:)` has not run yet.
        case reserved
        case ready(BuilderRef)
        case deferred(Frame)
    }

    /// A class met while archiving: its class-description UID and the keys its objects encoded.
    struct ClassEntry {
        var type: ObjectIdentifier
        var classUID: Int
        /// Key strings by field position (after `$class`), with their builder references.
        var keys: [(key: String, ref: BuilderRef)] = []
    }

    /// Everything an archive being built mutates (one exclusivity check per operation).
    struct State {
        var builder = ObjectTableBuilder()
        /// `$objects`, by UID.
        var objects: [Slot] = []
        /// Builder reference of a plain object (string, number, data, NSDate…) → its UID + 1 (0: none),
        /// indexed by the builder's id: builder ids are dense, so no hashing (a `Dictionary` here was
        /// 7 % of an archive).
        var uidByRef: [Int32] = []
        /// Class instance → UID.
        var uidByObject = IdentityTable()
        /// Instances waiting for `encode(with:)` (kept after encoding, so identities stay unique).
        var queue: [(uid: Int, object: any KeyedArchivable)] = []
        var queueHead = 0
        /// Frame stack: `frames[0]` is `$top`; frames above `frameCount` are spare buffers.
        var frames: [Frame] = [Frame()]
        var frameCount = 1
        /// Class description UIDs, by class name.
        var classUIDByName: [String: Int] = [:]
        /// Classes met (per Swift type, after name mapping), and the index by type.
        var classes: [ClassEntry] = []
        var classSlotByType: [ObjectIdentifier: Int] = [:]
        var lastClassType: ObjectIdentifier?
        var lastClassSlot = 0
        var classNames: [ObjectIdentifier: String] = [:]
        var conditionalTargets: [AnyObject] = []
        /// `UID(n)` builder references, by n.
        var uidRefs: [BuilderRef?] = []
        var valueDepth = 0
        var result: Data?
        var failed = false
        /// Write every Foundation-class object (NSArray, NSDictionary, NSDate, …) as its own object,
        /// never sharing one with an equal value (values put into a `KeyedArchiveGraph`).
        var distinctObjects = false

        /// The builder reference of `UID(uid)`, cached by UID (no hashing on the hot path).
        @inline(__always)
        mutating func uidRef(_ uid: Int) -> BuilderRef {
            if uid < uidRefs.count, let r = uidRefs[uid] { return r }
            return addUIDRef(uid)
        }

        mutating func addUIDRef(_ uid: Int) -> BuilderRef {
            let r = builder.addUID(UInt64(uid))
            while uidRefs.count <= uid { uidRefs.append(nil) }
            uidRefs[uid] = r
            return r
        }

        /// Stores a plain object in `$objects`, once per distinct value; returns its UID reference.
        mutating func uid(forPlainObject ref: BuilderRef) -> BuilderRef {
            let id = ref.index
            if id < uidByRef.count, uidByRef[id] != 0 { return uidRef(Int(uidByRef[id]) &- 1) }
            return newPlainObject(ref)
        }

        /// Adds a plain object not in `$objects` yet; returns its UID reference.
        mutating func newPlainObject(_ ref: BuilderRef) -> BuilderRef {
            let uid = objects.count
            objects.append(.ready(ref))
            let id = ref.index
            if id >= uidByRef.count {
                uidByRef.append(
                    contentsOf: repeatElement(0, count: max(id &+ 1, uidByRef.count &* 2) &- uidByRef.count))
            }
            uidByRef[id] = Int32(truncatingIfNeeded: uid &+ 1)
            return uidRef(uid)
        }

        /// A string as a plain object: its UID reference (one hash when the string is new).
        mutating func plainString(_ value: String) -> BuilderRef {
            let before = builder.count
            let ref = builder.addString(value)
            guard builder.count != before else { return uid(forPlainObject: ref) }
            return newPlainObject(ref)
        }

        /// Data as a plain object: its UID reference.
        mutating func plainData(_ value: Data) -> BuilderRef {
            let before = builder.count
            let ref = builder.addData(value)
            guard builder.count != before else { return uid(forPlainObject: ref) }
            return newPlainObject(ref)
        }

        /// The UID of a class instance, reserving it (and queueing the instance) on first sight.
        mutating func reference(to object: any KeyedArchivable) -> BuilderRef {
            let uid = objects.count
            let found = uidByObject.findOrInsert(ObjectIdentifier(object), uid)
            if found != uid { return uidRef(found) }
            objects.append(.reserved)
            queue.append((uid, object))
            return uidRef(uid)
        }

        /// Appends a field to the top frame. Returns `true` when the top frame is `$top`.
        @inline(__always)
        mutating func appendField(_ key: String, _ value: BuilderRef) -> Bool {
            let top = frameCount &- 1
            let k = keyRef(key, frame: top)
            frames[top].keys.append(k)
            frames[top].values.append(value)
            return top == 0
        }

        /// The builder reference of an (escaped) key, memoised by field position per class.
        @inline(__always)
        mutating func keyRef(_ key: String, frame top: Int) -> BuilderRef {
            let slot = frames[top].classSlot
            guard slot >= 0 else { return builder.addString(ArchiveVocabulary.escape(key)) }
            let position = frames[top].keys.count &- 1
            if position < classes[slot].keys.count {
                let memo = classes[slot].keys[position]
                if memo.key == key { return memo.ref }
                let ref = builder.addString(ArchiveVocabulary.escape(key))
                classes[slot].keys[position] = (key, ref)
                return ref
            }
            let ref = builder.addString(ArchiveVocabulary.escape(key))
            if position == classes[slot].keys.count { classes[slot].keys.append((key, ref)) }
            return ref
        }

        /// The class slot of a Swift type already met (after name mapping), if any.
        @inline(__always)
        mutating func classSlot(for type: ObjectIdentifier) -> Int? {
            if lastClassType == type { return lastClassSlot }
            guard let slot = classSlotByType[type] else { return nil }
            lastClassType = type
            lastClassSlot = slot
            return slot
        }

        /// The UID of a class description, added once per class name.
        mutating func classUID(named name: String, chain: [String]) throws(PlistError) -> Int {
            if let uid = classUIDByName[name] { return uid }
            let keys = [
                builder.addString(ArchiveVocabulary.classNameKey), builder.addString(ArchiveVocabulary.classesKey),
            ]
            let chainRefs = chain.map { builder.addString($0) }
            let values = [builder.addString(name), try builder.addArray(chainRefs)]
            let dict = try builder.addDictionary(keys: keys, values: values)
            let uid = objects.count
            objects.append(.ready(dict))
            classUIDByName[name] = uid
            return uid
        }

        /// Registers the class slot of a Swift type.
        mutating func addClass(_ type: ObjectIdentifier, name: String, chain: [String]) throws(PlistError)
            -> Int
        {
            let uid = try classUID(named: name, chain: chain)
            classes.append(ClassEntry(type: type, classUID: uid))
            let slot = classes.count &- 1
            classSlotByType[type] = slot
            lastClassType = type
            lastClassSlot = slot
            return slot
        }

        /// Pushes the frame of an object of the class in `slot`.
        mutating func beginObject(classSlot slot: Int, classKey: BuilderRef) {
            let classRef = uidRef(classes[slot].classUID)
            if frameCount == frames.count { frames.append(Frame()) }
            let top = frameCount
            frameCount &+= 1
            frames[top].classSlot = slot
            frames[top].keys.append(classKey)
            frames[top].values.append(classRef)
            valueDepth = 0
        }

        /// Pops an object's frame and stores its dictionary (or defers it) under `uid`.
        mutating func endObject(uid: Int, savedDepth: Int) throws(PlistError) {
            let top = frameCount &- 1
            frameCount = top
            valueDepth = savedDepth
            if frames[top].conditionals.isEmpty {
                objects[uid] = .ready(try builder.addDictionary(keys: frames[top].keys, values: frames[top].values))
                frames[top].keys.removeAll(keepingCapacity: true)
                frames[top].values.removeAll(keepingCapacity: true)
            } else {
                objects[uid] = .deferred(frames[top])
                frames[top] = Frame()
            }
        }

        /// Pops a frame after a failed `encode(with:)`.
        mutating func abandonObject(savedDepth: Int) {
            frameCount &-= 1
            valueDepth = savedDepth
            frames[frameCount] = Frame()
        }

        /// The next queued object, if any.
        mutating func nextQueued() -> (uid: Int, object: any KeyedArchivable)? {
            guard queueHead < queue.count else { return nil }
            let item = queue[queueHead]
            queueHead &+= 1
            return item
        }
    }

    #if DEBUG
        /// The encoding state. Debug builds keep it a stored property, so that every access to it is
        /// checked for exclusivity at run time; release builds keep it in a `StateCell` (see
        /// Unarchiving/StateCell.swift).
        var state: State
    #else
        let stateCell: StateCell<State>
    #endif

    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    // Keys used on every object, added once.
    let classKey: BuilderRef
    let nullUID: BuilderRef

    /// Deepest nesting of values (collections inside collections, Codable containers) encoded
    /// recursively. Class instances are queued, not nested, so object graphs have no depth limit.
    public var maxDepth = 512

    /// The property-list form ``finishEncoding()`` produces: `.binary` (default) or `.xml`, as
    /// `NSKeyedArchiver.outputFormat`. Readers accept either. `.openStep` makes ``finishEncoding()``
    /// throw: the OpenStep text form cannot hold an archive's UIDs and integers.
    public var outputFormat: PlistFormat = .binary

    /// A new archiver. Encode values under keys, then call ``finishEncoding()``.
    public init() {
        var s = State()
        let null = s.builder.addString(ArchiveVocabulary.null)
        _ = s.uid(forPlainObject: null)
        classKey = s.builder.addString(ArchiveVocabulary.classKey)
        nullUID = s.uidRef(0)
        #if DEBUG
            state = s
        #else
            stateCell = StateCell(s)
        #endif
    }

    #if !DEBUG
        deinit { stateCell.destroy() }
    #endif
}

extension KeyedArchiver {
    // MARK: - State the Codable encoder works on

    var builder: ObjectTableBuilder {
        get { state.builder }
        _modify { yield &state.builder }
    }

    /// Whether the frame being filled is `$top`.
    var atTopLevel: Bool { state.frameCount == 1 }

    // MARK: - One-shot API

    /// Archives a value (typically an object, or an array of objects) under the key `"root"`.
    ///
    /// - Returns: A `bplist00` keyed archive.
    /// - Throws: ``KeyedArchiveError`` (or an error thrown by an object's `encode(with:)`).
    public static func archivedData(withRootObject root: some KeyedArchiveValue) throws -> Data {
        let archiver = KeyedArchiver()
        try archiver.encodeRoot(root, forKey: ArchiveVocabulary.rootKey)
        return try archiver.finishEncoding()
    }

    // MARK: - Class names

    /// Archives instances of `type` under another class name (this archiver only; it takes
    /// precedence over the global mapping). `nil` removes the mapping.
    public func setClassName(_ name: String?, for type: any KeyedArchivable.Type) {
        state.classNames[ObjectIdentifier(type)] = name
        state.classSlotByType.removeAll()
        state.lastClassType = nil
    }

    /// Archives instances of `type` under another class name in every archiver (unless an
    /// archiver maps it itself). `nil` removes the mapping.
    public static func setClassName(_ name: String?, for type: any KeyedArchivable.Type) {
        ClassRegistry.shared.setClassName(name, for: type)
    }

    /// The class name this archiver writes for `type`.
    public func className(for type: any KeyedArchivable.Type) -> String {
        state.classNames[ObjectIdentifier(type)] ?? ClassRegistry.shared.className(for: type) ?? type.archiveClassName
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
        if state.appendField(key, v.ref) { try drain() }
    }

    /// Encodes a reference to `object` only if it is archived unconditionally somewhere else;
    /// otherwise the key holds `$null`. Resolved when the archive is finished.
    public func encodeConditionalObject(_ object: (some KeyedArchivable)?, forKey key: String) throws {
        try checkOpen()
        guard let object else {
            appendField(key, nullUID)
            return
        }
        let id = ObjectIdentifier(object)
        if let uid = state.uidByObject.find(id) {
            appendField(key, uidRef(uid))
            return
        }
        appendField(key, nullUID)
        let top = state.frameCount - 1
        state.frames[top].conditionals.append((state.frames[top].values.count - 1, id))
        // Retained so that its identity cannot be reused by another instance before finishing.
        state.conditionalTargets.append(object)
    }

    /// Finishes the archive and returns its bytes. Calling it again returns the same bytes;
    /// encoding after it is an `unencodable` error.
    public func finishEncoding() throws -> Data {
        if let result = state.result { return result }
        try checkOpen()
        do {
            try drain()
            let data = try KeyedArchiver.render(try assemble(), as: outputFormat)
            state.result = data
            return data
        } catch {
            state.failed = true
            throw error
        }
    }

    /// The bytes produced by ``finishEncoding()``, or `nil` before.
    public var encodedData: Data? { state.result }

    // MARK: - Internals used by the value conformances

    func checkOpen() throws(KeyedArchiveError) {
        let (finished, failed) = (state.result != nil, state.failed)
        guard !finished, !failed else {
            throw KeyedArchiveError(
                .unencodable, finished ? "the archive is already finished" : "the archiver failed earlier")
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
            state.failed = true
            throw error
        }
    }

    @inline(__always)
    func appendField(_ key: String, _ value: BuilderRef) {
        _ = state.appendField(key, value)
    }

    /// The builder reference of `UID(uid)`, cached by UID (no hashing on the hot path).
    @inline(__always)
    func uidRef(_ uid: Int) -> BuilderRef {
        state.uidRef(uid)
    }

    /// Stores a plain object (string, number, data, or a Foundation-class dictionary) in
    /// `$objects`, once per distinct value, and returns its UID reference.
    func uid(forPlainObject ref: BuilderRef) -> BuilderRef {
        state.uid(forPlainObject: ref)
    }

    /// A UID for an archived value: references pass through, inline scalars become objects.
    func objectReference(_ value: ArchivedValue) -> BuilderRef {
        value.isReference ? value.ref : state.uid(forPlainObject: value.ref)
    }

    /// Encodes an element of a collection: always an object reference.
    func elementReference(_ value: some KeyedArchiveValue) throws -> BuilderRef {
        objectReference(try value.encodeArchiveValue(to: self))
    }

    /// The UID of a class instance, reserving it (and queueing the instance) on first sight.
    func reference(to object: any KeyedArchivable) -> BuilderRef {
        state.reference(to: object)
    }

    /// The UID of a class description, added once per class name.
    func classUID(named name: String, chain: [String]) throws(PlistError) -> Int {
        try state.classUID(named: name, chain: chain)
    }

    /// The UID of a Foundation class description (NSArray, NSDate, …).
    func foundationClassUID(_ name: String) throws(PlistError) -> Int {
        if let uid = state.classUIDByName[name] { return uid }
        return try classUID(named: name, chain: ArchiveVocabulary.chains[name] ?? [name, "NSObject"])
    }

    /// Adds a Foundation-class object `{$class: UID(name), key1: v1, …}` and returns its UID
    /// reference (equal objects share one UID).
    func foundationObject(_ className: String, keys: [String], values: [BuilderRef]) throws -> BuilderRef {
        let cls = try foundationClassUID(className)
        return try state.foundationObject(classUID: cls, classKey: classKey, keys: keys, values: values)
    }

    /// Runs `body` one value-nesting level deeper, bounded by ``maxDepth``.
    func nested<R>(_ body: () throws -> R) throws -> R {
        let depth = state.valueDepth
        guard depth < maxDepth else {
            throw KeyedArchiveError(.limitExceeded, "values nested deeper than \(maxDepth) levels")
        }
        state.valueDepth = depth + 1
        defer { state.valueDepth -= 1 }
        return try body()
    }

    /// Runs the queued objects' `encode(with:)`.
    func drain() throws {
        while let item = state.nextQueued() {
            do {
                try encodeBody(of: item.object, uid: item.uid)
            } catch {
                state.failed = true
                throw error
            }
        }
    }

    private func encodeBody(of object: any KeyedArchivable, uid: Int) throws {
        let type = Swift.type(of: object)
        let typeID = ObjectIdentifier(type)
        let slot: Int
        if let known = state.classSlot(for: typeID) {
            slot = known
        } else if let dynamic = object as? ArchivedInstance {
            slot = try state.dynamicClassSlot(dynamic)
        } else {
            let name = className(for: type)
            let chain = [name] + type.archiveSuperclassNames
            slot = try state.addClass(typeID, name: name, chain: chain)
        }
        let savedDepth = state.valueDepth
        state.beginObject(classSlot: slot, classKey: classKey)
        do {
            try object.encode(with: self)
        } catch {
            state.abandonObject(savedDepth: savedDepth)
            throw error
        }
        try state.endObject(uid: uid, savedDepth: savedDepth)
    }

    /// Resolves conditional references and writes the file.
    private func assemble() throws -> Data {
        try state.assemble()
    }
}

extension KeyedArchiver.State {
    /// Adds `{$class: UID(classUID), key1: v1, …}` as a plain object; returns its UID reference.
    mutating func foundationObject(classUID: Int, classKey: BuilderRef, keys: [String], values: [BuilderRef])
        throws(PlistError) -> BuilderRef
    {
        var k = [classKey]
        k.reserveCapacity(keys.count + 1)
        for key in keys { k.append(builder.addString(key)) }
        var v = [uidRef(classUID)]
        v.reserveCapacity(values.count + 1)
        v.append(contentsOf: values)
        if distinctObjects { return try distinctObject(keys: k, values: v) }
        return uid(forPlainObject: try builder.addDictionary(keys: k, values: v))
    }

    /// Adds an object that no equal one shares; returns its UID reference.
    @inline(never)
    mutating func distinctObject(keys: [BuilderRef], values: [BuilderRef]) throws(PlistError) -> BuilderRef {
        let uid = objects.count
        objects.append(.ready(try builder.addDistinctDictionary(keys: keys, values: values)))
        return uidRef(uid)
    }

    /// Resolves conditional references and writes the file.
    mutating func assemble() throws -> Data {
        var refs: [BuilderRef] = []
        refs.reserveCapacity(objects.count)
        for i in objects.indices {
            switch objects[i] {
            case .ready(let r): refs.append(r)
            case .deferred(let frame):
                refs.append(try builder.addDictionary(keys: frame.keys, values: resolved(frame)))
            case .reserved:
                throw KeyedArchiveError(.unencodable, object: i, "object \(i) was referenced but never encoded")
            }
        }
        let objectsArray = try builder.addArray(refs)
        let top = try builder.addDictionary(keys: frames[0].keys, values: resolved(frames[0]))
        let root = try builder.addDictionary(
            keys: [
                builder.addString(ArchiveVocabulary.versionKey), builder.addString(ArchiveVocabulary.archiverKey),
                builder.addString(ArchiveVocabulary.topKey), builder.addString(ArchiveVocabulary.objectsKey),
            ],
            values: [
                builder.addInt(ArchiveVocabulary.version), builder.addString(ArchiveVocabulary.archiverName), top,
                objectsArray,
            ])
        return try builder.finish(root: root)
    }

    mutating func resolved(_ frame: KeyedArchiver.Frame) -> [BuilderRef] {
        var values = frame.values
        for c in frame.conditionals {
            // An object is archived unconditionally exactly when it has a UID.
            if let uid = uidByObject.find(c.object) { values[c.index] = uidRef(uid) }
        }
        return values
    }
}

/// An open-addressing table from object identity to UID (no `Hasher`: identities are addresses,
/// mixed by one multiplication).
struct IdentityTable {
    private var keys: [UInt] = Array(repeating: 0, count: 64)
    private var values: [Int] = Array(repeating: 0, count: 64)
    private var count = 0

    @inline(__always)
    private static func start(_ key: UInt, _ mask: Int) -> Int {
        let h = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h ^ (h >> 32)) & mask
    }

    /// The UID of `id`, if recorded.
    func find(_ id: ObjectIdentifier) -> Int? {
        let key = UInt(bitPattern: id)
        let mask = keys.count &- 1
        var i = IdentityTable.start(key, mask)
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { return nil }
            i = (i &+ 1) & mask
        }
    }

    /// The UID recorded for `id`, or `value` after recording it.
    mutating func findOrInsert(_ id: ObjectIdentifier, _ value: Int) -> Int {
        let key = UInt(bitPattern: id)
        var mask = keys.count &- 1
        var i = IdentityTable.start(key, mask)
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { break }
            i = (i &+ 1) & mask
        }
        if (count &+ 1) &* 2 > keys.count {
            grow()
            mask = keys.count &- 1
            i = IdentityTable.start(key, mask)
            while keys[i] != 0 { i = (i &+ 1) & mask }
        }
        keys[i] = key
        values[i] = value
        count &+= 1
        return value
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count &* 2)
        values = Array(repeating: 0, count: oldKeys.count &* 2)
        let mask = keys.count &- 1
        for j in 0..<oldKeys.count where oldKeys[j] != 0 {
            var i = IdentityTable.start(oldKeys[j], mask)
            while keys[i] != 0 { i = (i &+ 1) & mask }
            keys[i] = oldKeys[j]
            values[i] = oldValues[j]
        }
    }
}
