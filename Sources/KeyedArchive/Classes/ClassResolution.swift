// Sources/KeyedArchive/Classes/ClassResolution.swift - Which Swift type decodes an archived object.
//
// An object's `$class` UID names a class description ({$classname, $classes, $classhints}), read
// once per class UID into a slot. The class check happens here, before any field of the object is
// read (secure decoding): the unarchiver's own map, the global map, the types the call site accepts,
// then the fallback along $classes/$classhints and the unknown-class hook (ClassFallback.swift).

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedUnarchiver {
    /// The `$class` field of an object dictionary: the position where it was last time is tried
    /// first, then the others in order, each by reference to the `$class` key object found last (writers
    /// that share key strings) or by its bytes. Leaves the position found in `state.classKeyHint`.
    func classField(_ r: borrowing PlistReader, keys: RefSpan, values: RefSpan) throws(KeyedArchiveError) -> ObjectRef?
    {
        let n = keys.count
        let h = state.classKeyHint
        let known = state.classKeyRef ?? ObjectRef(-1)
        do {
            if h < n {
                let k = r.reference(at: h, in: keys)
                if try isClassKey(r, k, known) { return r.reference(at: h, in: values) }
            }
            for i in 0..<n where i != h {
                let k = r.reference(at: i, in: keys)
                if try isClassKey(r, k, known) {
                    state.classKeyRef = k
                    state.classKeyHint = i
                    return r.reference(at: i, in: values)
                }
            }
        } catch {
            throw plistError(error)
        }
        return nil
    }

    /// Whether key object `k` is `$class`: the one found last time, or equal to it.
    @inline(__always)
    private func isClassKey(_ r: borrowing PlistReader, _ k: ObjectRef, _ known: ObjectRef) throws(PlistError) -> Bool {
        if k == known { return true }
        if let equal = r.string(k, matches: state.classKeyProbe) { return equal }
        return try r.string(k, equals: ArchiveVocabulary.classKey)
    }

    /// The class slot (memoised class description) an object dictionary's `$class` points at.
    func classSlot(_ r: borrowing PlistReader, keys: ReferenceList, values: ReferenceList, uid: Int?)
        throws(KeyedArchiveError) -> Int
    {
        try classSlot(r, keys: RefSpan(keys), values: RefSpan(values), uid: uid)
    }

    func classSlot(_ r: borrowing PlistReader, keys: RefSpan, values: RefSpan, uid: Int?)
        throws(KeyedArchiveError) -> Int
    {
        guard let classRef = try classField(r, keys: keys, values: values) else {
            throw error(.corrupted, uid: uid, "object \(uid.map(String.init) ?? "?") has no $class")
        }
        guard let cu = try uidValue(r, classRef), cu > 0, cu < UInt64(objects.count) else {
            throw error(.badReference, uid: uid, "$class is not a UID inside $objects")
        }
        let classUID = Int(cu)
        if classUID < state.classSlotByUID.count {
            let s = Int(state.classSlotByUID[classUID])
            if s > 0 { return s &- 1 }
        }
        let info = try readClassInfo(r, classUID)
        return state.addClassSlot(classUID: classUID, info: info, objectCount: objects.count)
    }

    /// The class description an object dictionary's `$class` points at (memoised per class UID).
    func classInfo(_ r: borrowing PlistReader, keys: ReferenceList, values: ReferenceList, uid: Int?)
        throws(KeyedArchiveError) -> ClassInfo
    {
        let slot = try classSlot(r, keys: keys, values: values, uid: uid)
        return state.classSlots[slot].info
    }

    func classInfo(keys: ReferenceList, values: ReferenceList, uid: Int?) throws(KeyedArchiveError) -> ClassInfo {
        try classInfo(keys: RefSpan(keys), values: RefSpan(values), uid: uid)
    }

    /// The class description of a frame's object.
    func classInfo(keys: RefSpan, values: RefSpan, uid: Int?) throws(KeyedArchiveError) -> ClassInfo {
        try reading { r throws(KeyedArchiveError) in
            let slot = try classSlot(r, keys: keys, values: values, uid: uid)
            return state.classSlots[slot].info
        }
    }

    func readClassInfo(_ r: borrowing PlistReader, _ classUID: Int) throws(KeyedArchiveError) -> ClassInfo {
        guard case .dictionary(let ck, let cv) = try object(r, r.reference(at: classUID, in: objects)) else {
            throw error(.corrupted, uid: classUID, "$class points at UID \(classUID), which is not a class description")
        }
        guard let nameRef = try field(r, ArchiveVocabulary.classNameKey, keys: ck, values: cv),
            let name = try string(r, nameRef)
        else {
            throw error(.corrupted, uid: classUID, "the class description at UID \(classUID) has no $classname")
        }
        var chain = try classNameList(r, ArchiveVocabulary.classesKey, keys: ck, values: cv, classUID: classUID)
        if chain.isEmpty { chain = [name] }
        // `$classhints` is checked here too; the fallback reads it again when it needs it.
        _ = try classNameList(r, "$classhints", keys: ck, values: cv, classUID: classUID)
        return ClassInfo(name: name, chain: chain)
    }

    /// The type the instance and global maps give a class slot's name (memoised per generation).
    func mappedType(slot: Int) -> (any KeyedArchivable.Type)? {
        let generation = ClassRegistry.shared.typeGeneration &+ state.classMapGeneration &* 0x1_0000_0000
        if state.classSlots[slot].generation == generation { return state.classSlots[slot].mapped }
        let name = state.classSlots[slot].info.name
        let t = classMap[name] ?? ClassRegistry.shared.type(forClassName: name)
        state.classSlots[slot].mapped = t
        state.classSlots[slot].generation = generation
        return t
    }

    /// Where a stored value leads, as every decode of an archived object first needs it: `$null`,
    /// an instance decoded already (one instance per UID), or an object dictionary still to decode,
    /// with its class slot read (but no field).
    enum ObjectSite {
        case null
        case decoded(any KeyedArchivable, uid: Int)
        case fresh(uid: Int, keys: RefSpan, values: RefSpan, slot: Int)
    }

    /// Follows a stored value to its object (see ``ObjectSite``): counts it against the budget,
    /// checks the UID, refuses a reference back into an object still being decoded, and reads the
    /// object's class slot. `expected` names what the call site wants, for errors.
    func objectSite(_ r: borrowing PlistReader, _ value: UnarchivedValue, expected: @autoclosure () -> String)
        throws(KeyedArchiveError) -> ObjectSite
    {
        try countValue()
        guard let uid = try uid(r, of: value) else {
            throw error(.typeMismatch, "expected a reference to a \(expected()) object, found an inline value")
        }
        if uid == 0 { return .null }
        state.allocateTables(objects.count)
        if let existing = state.instances[uid] { return .decoded(existing, uid: uid) }
        guard !state.inProgress[uid] else {
            throw error(.cycle, uid: uid, "UID \(uid) refers back to an object that is still being decoded")
        }
        let dictionary: (keys: RefSpan, values: RefSpan)?
        do {
            dictionary = try r.dictionary(r.reference(at: uid, in: objects))
        } catch {
            throw plistError(error)
        }
        guard let (keys, values) = dictionary else {
            throw error(.typeMismatch, uid: uid, "expected a \(expected()) object at UID \(uid), found a plain value")
        }
        let slot = try classSlot(r, keys: keys, values: values, uid: uid)
        return .fresh(uid: uid, keys: keys, values: values, slot: slot)
    }

    /// The class check, the one rule of secure decoding, made before any field of the object is
    /// read: the type the archived class of `slot` stands for (the unarchiver's map, the global
    /// map, a candidate of that name, then the fallback along `$classes`/`$classhints` and the
    /// hook), which must be one `accept` admits (`classNotAllowed` otherwise; `unknownClass` when
    /// nothing stands for it).
    func checkedClass(
        slot: Int, uid: Int, candidates: [any KeyedArchivable.Type], expected: String,
        accept: (any KeyedArchivable.Type) -> Bool
    ) throws(KeyedArchiveError) -> any KeyedArchivable.Type {
        let name = state.classSlots[slot].info.name
        guard let known = mappedType(slot: slot) ?? candidates.first(where: { $0.archiveClassName == name }) else {
            return try fallbackType(slot: slot, uid: uid, candidates: candidates, expected: expected, accept: accept)
        }
        guard accept(known) else {
            throw error(
                .classNotAllowed, uid: uid, className: name,
                "archived class \(name) is not \(expected) (map it with setClass(_:forClassName:))")
        }
        return known
    }

    /// The error for an object met again as a type the call site does not accept.
    func decodedAsAnotherType(_ existing: any KeyedArchivable, uid: Int, expected: String) -> KeyedArchiveError {
        error(
            .classNotAllowed, uid: uid, className: String(describing: Swift.type(of: existing)),
            "the object at UID \(uid) was already decoded as a type that is not \(expected)")
    }

    /// Decodes a class instance. The archived class must resolve to a type `accept` admits,
    /// checked before any field of the object is read.
    func decodeInstance(
        _ r: borrowing PlistReader, _ value: UnarchivedValue, candidates: [any KeyedArchivable.Type],
        expected: String, accept: (any KeyedArchivable.Type) -> Bool
    ) throws -> (any KeyedArchivable)? {
        switch try objectSite(r, value, expected: expected) {
        case .null:
            return nil
        case .decoded(let existing, let uid):
            // Identity: the same instance wherever it is referenced, but never as another type.
            guard accept(Swift.type(of: existing)) else {
                throw decodedAsAnotherType(existing, uid: uid, expected: expected)
            }
            return existing
        case .fresh(let uid, let keys, let values, let slot):
            let type = try checkedClass(
                slot: slot, uid: uid, candidates: candidates, expected: expected, accept: accept)
            return try construct(type, uid: uid, slot: slot, keys: keys, values: values)
        }
    }

    /// Two-phase objects nested less deep than this (and than an eighth of `KeyedArchiveLimits.maxDepth`) decode
    /// their fields at once; deeper ones go to the queue.
    static var immediateTwoPhaseDepth: Int { 16 }

    /// Creates the instance of an object whose class was checked and decodes its fields: one-phase
    /// types now (bounded depth, marked in progress); two-phase types are created and registered
    /// first, then their fields are decoded now as well while the nesting is shallow, and queued
    /// (`drainPending`) beyond that, so that a long chain of them has no depth limit.
    ///
    /// Decoding the fields of a shallow two-phase object at once keeps the two-phase contract (the
    /// instance is registered before any field is read, so a reference back to it receives it; every
    /// object is complete when the top-level decode returns) and costs what a one-phase object costs:
    /// the queue's bookkeeping was a fifth of an unarchive of a class hierarchy through the macro.
    func construct(
        _ type: any KeyedArchivable.Type, uid: Int, slot: Int, keys: RefSpan, values: RefSpan
    ) throws -> any KeyedArchivable {
        let typeID = ObjectIdentifier(type)
        let twoPhase: (any TwoPhaseKeyedArchivable.Type)?
        if state.classSlots[slot].lastType == typeID {
            twoPhase = state.classSlots[slot].lastTwoPhase
        } else {
            twoPhase = type as? any TwoPhaseKeyedArchivable.Type
            state.classSlots[slot].lastType = typeID
            state.classSlots[slot].lastTwoPhase = twoPhase
        }
        // Where `$class` is in this object: `objectSite` found it last (`classField` leaves its position
        // in `classKeyHint`), and nothing has looked up another object's class since.
        let classPosition = state.classKeyHint
        if let twoPhase {
            let instance = twoPhase.init()
            state.instances[uid] = instance
            let depth = state.depth
            if depth < Self.immediateTwoPhaseDepth, depth &* 8 < limits.maxDepth {
                try state.enterObject(
                    keys: keys, values: values, uid: uid, classSlot: slot, classPosition: classPosition,
                    maxDepth: limits.maxDepth)
                defer { state.leaveObject(uid: uid, instance: instance) }
                try instance.decodeFields(from: self)
                return instance
            }
            state.pending.append(
                PendingFields(
                    uid: uid, object: instance, keys: keys, values: values,
                    className: state.classSlots[slot].info.name, classSlot: slot, classPosition: classPosition))
            return instance
        }
        try state.enterObject(
            keys: keys, values: values, uid: uid, classSlot: slot, classPosition: classPosition,
            maxDepth: limits.maxDepth)
        let instance: any KeyedArchivable
        do {
            instance = try type.init(from: self)
        } catch {
            state.leaveObject(uid: uid, instance: nil)
            throw error
        }
        state.leaveObject(uid: uid, instance: instance)
        return instance
    }

    /// Decodes an instance of `T` (or a subclass mapped to the archived name).
    func decodeObject<T: KeyedArchivable>(_ type: T.Type, from value: UnarchivedValue) throws -> T? {
        try withInput { (r: borrowing PlistReader) throws -> T? in try decodeObject(r, type, from: value) }
    }

    /// The same, through the unarchiver's borrow of the input.
    func decodeObject<T: KeyedArchivable>(_ r: borrowing PlistReader, _ type: T.Type, from value: UnarchivedValue)
        throws -> T?
    {
        switch try objectSite(r, value, expected: T.archiveClassName) {
        case .null:
            return nil
        case .decoded(let existing, let uid):
            // Identity: the same instance wherever it is referenced, but never as another type.
            guard let typed = existing as? T else {
                throw decodedAsAnotherType(existing, uid: uid, expected: T.archiveClassName)
            }
            return typed
        case .fresh(let uid, let keys, let values, let slot):
            // The class check, before any field is read; its answer for T is remembered per class
            // slot while no map names the class (the common case: every object of a class).
            let id = ObjectIdentifier(T.self)
            let type: any KeyedArchivable.Type
            if state.classSlots[slot].nameMatch == id, mappedType(slot: slot) == nil {
                type = T.self
            } else {
                type = try checkedClass(
                    slot: slot, uid: uid, candidates: [T.self], expected: T.archiveClassName, accept: { $0 is T.Type })
                if ObjectIdentifier(type) == id, mappedType(slot: slot) == nil { state.classSlots[slot].nameMatch = id }
            }
            let instance = try construct(type, uid: uid, slot: slot, keys: keys, values: values)
            guard let typed = instance as? T else {
                throw error(.classNotAllowed, uid: uid, "decoded object is not a \(T.archiveClassName)")
            }
            return typed
        }
    }
}
