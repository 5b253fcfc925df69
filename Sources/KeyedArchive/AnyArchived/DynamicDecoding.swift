// Sources/KeyedArchive/AnyArchived/DynamicDecoding.swift - Reading any archived value as `AnyArchived`,
// and the NSCoder-style scalar decodes.
//
// Rules: a UID is followed and checked like everywhere else; a Foundation value class becomes its
// case (collections one level deeper, bounded, a collection containing itself is a `cycle`); any
// other object becomes an `ArchivedInstance` registered under its UID before its fields are read
// (two-phase, from the pending queue), so sharing and cycles through objects are kept. An object
// already decoded as a typed class cannot be read again as an `ArchivedInstance` (no cache bypass).

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedUnarchiver {
    // MARK: - Public API

    /// Decodes whatever is stored under `key`, without knowing its class: `nil` when the key is
    /// absent or holds `$null` (as `NSCoder.decodeObject(forKey:)`).
    ///
    /// - Throws: ``KeyedArchiveError`` for a malformed value (bad UID, object without `$class`, …).
    public func decodeObject(forKey key: String) throws -> AnyArchived? {
        try underFailurePolicy { try decode(AnyArchived?.self, forKey: key) }
    }

    /// Decodes an integer with `NSCoder` semantics: `0` when the key is absent or holds `$null`.
    ///
    /// - Throws: `typeMismatch` when the value is not an integer (or a
    ///   boolean), or does not fit `Int`.
    public func decodeInteger(forKey key: String) throws -> Int {
        try decode(Int?.self, forKey: key) ?? 0
    }

    /// Decodes a boolean with `NSCoder` semantics: `false` when the key is absent or holds `$null`.
    ///
    /// - Throws: `typeMismatch` when the value is not a boolean (or the
    ///   integer 0 or 1).
    public func decodeBool(forKey key: String) throws -> Bool {
        try decode(Bool?.self, forKey: key) ?? false
    }

    /// Decodes a real with `NSCoder` semantics: `0.0` when the key is absent or holds `$null`.
    ///
    /// - Throws: `typeMismatch` when the value is not a number.
    public func decodeDouble(forKey key: String) throws -> Double {
        try decode(Double?.self, forKey: key) ?? 0
    }

    /// Decodes the object at `uid` (an index in `$objects`) as `AnyArchived`, with the typed
    /// Foundation values interpreted: how tools such as `bplist unarchive` show one object of a
    /// ``KeyedArchiveGraph`` through the same decoders as ``decode(_:forKey:)``.
    ///
    /// - Throws: `badReference` when `uid` is outside `$objects`, or what
    ///   decoding the object throws.
    public func decodeObject(atUID uid: Int) throws -> AnyArchived {
        guard uid >= 0, uid < objects.count else {
            throw error(.badReference, uid: uid, "UID \(uid) is outside $objects (\(objects.count) entries)")
        }
        let value = try withInput { (r: borrowing PlistReader) throws -> AnyArchived in
            try decodeAnyObject(r, uid: uid)
        }
        if state.frames.count == 1 { try drainPending() }
        return value
    }

    /// The UID this unarchiver read `instance` from, `nil` when another reader made it.
    package func uid(of instance: ArchivedInstance) -> Int? {
        guard let uid = instance.origin, state.instances.indices.contains(uid),
            let known = state.instances[uid] as? ArchivedInstance, known === instance
        else { return nil }
        return uid
    }

    // MARK: - Internals

    /// Decodes any stored value (inline scalar or UID) as `AnyArchived`.
    func decodeAny(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws -> AnyArchived {
        try countValue()
        guard let u = try uidValue(r, value.ref) else { return try plainAny(r, try object(r, value.ref), uid: nil) }
        guard u < UInt64(objects.count) else {
            throw error(.badReference, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        return try decodeAnyObject(r, uid: Int(u))
    }

    /// Decodes `$objects[uid]` as `AnyArchived` (`uid` checked to be inside `$objects`).
    func decodeAnyObject(_ r: borrowing PlistReader, uid: Int) throws -> AnyArchived {
        if uid == 0 { return .null }
        let o = try object(r, r.reference(at: uid, in: objects))
        guard case .dictionary(let keys, let values) = o else { return try plainAny(r, o, uid: uid) }
        state.allocateTables(objects.count)
        if let existing = state.instances[uid] {
            guard let instance = existing as? ArchivedInstance else {
                throw error(
                    .classNotAllowed, uid: uid, className: String(describing: Swift.type(of: existing)),
                    "the object at UID \(uid) was already decoded as a typed class, not as any value")
            }
            return .object(instance)
        }
        let slot = try classSlot(r, keys: keys, values: values, uid: uid)
        let info = state.classSlots[slot].info
        let f = (keys: keys, values: values, uid: uid)
        if let typed = try foundationAny(r, info.name, f) { return typed }
        let instance = ArchivedInstance(className: info.name, classChain: info.chain)
        instance.origin = uid
        state.instances[uid] = instance
        state.pending.append(
            PendingFields(uid: uid, object: instance, keys: keys, values: values, className: info.name))
        return .object(instance)
    }

    /// A Foundation value class as its `AnyArchived` case; `nil` for any other class (or one whose
    /// fields are not the layout this package knows, kept as an instance).
    private func foundationAny(
        _ r: borrowing PlistReader, _ name: String, _ f: (keys: ReferenceList, values: ReferenceList, uid: Int)
    ) throws -> AnyArchived? {
        func fieldValue(_ key: String) throws -> UnarchivedValue? {
            try field(r, key, keys: f.keys, values: f.values).map { UnarchivedValue(ref: $0) }
        }
        switch name {
        case "NSOrderedSet", "NSMutableOrderedSet":
            // Apple writes one key per element, NS.object.0, NS.object.1, … (NS.objects accepted).
            if try field(r, "NS.objects", keys: f.keys, values: f.values) == nil {
                var refs: [(Int, ObjectRef)] = []
                for i in 0..<f.keys.count {
                    guard let k = try string(r, r.reference(at: i, in: f.keys)), k.hasPrefix("NS.object."),
                        let n = Int(k.dropFirst(10))
                    else { continue }
                    refs.append((n, r.reference(at: i, in: f.values)))
                }
                refs.sort { $0.0 < $1.0 }
                guard refs.indices.allSatisfy({ refs[$0].0 == $0 }) else { return nil }
                return try nestedCollection(uid: f.uid) { () throws -> AnyArchived in
                    var out: [AnyArchived] = []
                    out.reserveCapacity(refs.count)
                    for (n, ref) in refs {
                        path.append(.index(n))
                        defer { path.removeLast() }
                        out.append(try decodeAny(r, UnarchivedValue(ref: ref)))
                    }
                    return .orderedSet(out)
                }
            }
            fallthrough
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet":
            guard let ref = try field(r, "NS.objects", keys: f.keys, values: f.values),
                case .array(let list) = try object(r, ref)
            else { return nil }
            let elements = try nestedCollection(uid: f.uid) { () throws -> [AnyArchived] in
                try anyElements(r, list)
            }
            switch name {
            case "NSArray", "NSMutableArray": return .array(elements)
            case "NSSet", "NSMutableSet": return .set(Set(elements))
            default: return .orderedSet(elements)
            }
        case "NSDictionary", "NSMutableDictionary":
            guard let k = try field(r, "NS.keys", keys: f.keys, values: f.values),
                let v = try field(r, "NS.objects", keys: f.keys, values: f.values),
                case .array(let keyList) = try object(r, k), case .array(let valueList) = try object(r, v)
            else { return nil }
            guard keyList.count == valueList.count else {
                throw error(
                    .corrupted, uid: f.uid, "NS.keys has \(keyList.count) entries but NS.objects \(valueList.count)")
            }
            return try nestedCollection(uid: f.uid) { () throws -> AnyArchived in
                let keys = try anyElements(r, keyList)
                let values = try anyElements(r, valueList)
                var result: [AnyArchived: AnyArchived] = [:]
                result.reserveCapacity(keys.count)
                for i in keys.indices { result[keys[i]] = values[i] }
                return .dictionary(result)
            }
        case "NSDate":
            guard let time = try fieldValue("NS.time") else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: try decodeDouble(r, time)))
        case "NSUUID":
            guard let bytes = try fieldValue("NS.uuidbytes") else { return nil }
            let b = [UInt8](try decodeData(r, bytes))
            guard b.count == 16 else {
                throw error(.corrupted, uid: f.uid, "NS.uuidbytes holds \(b.count) bytes, not 16")
            }
            return .uuid(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    )))
        case "NSURL":
            guard let relativeValue = try fieldValue("NS.relative") else { return nil }
            return try nestedCollection(uid: f.uid) { () throws -> AnyArchived? in
                var base: URL?
                if let b = try fieldValue("NS.base"), case .url(let u) = try decodeAny(r, b) { base = u }
                let relative = try decodeString(r, relativeValue)
                guard let url = URL(string: relative, relativeTo: base) else {
                    throw error(.corrupted, uid: f.uid, "NS.relative \"\(relative)\" is not a URL")
                }
                return .url(url)
            }
        case "NSString", "NSMutableString":
            guard let string = try fieldValue("NS.string") else { return nil }
            return .string(try decodeString(r, string))
        case "NSData", "NSMutableData":
            guard let data = try fieldValue("NS.data") else { return nil }
            return .data(try decodeData(r, data))
        case "NSColorSpace", "NSTextTab":
            // Part of a colour or a paragraph style; read at once (not queued) so the value that
            // holds it sees its fields.
            let info = try classInfo(r, keys: f.keys, values: f.values, uid: f.uid)
            let instance = ArchivedInstance(className: info.name, classChain: info.chain)
            instance.origin = f.uid
            state.instances[f.uid] = instance
            instance.fields = try valueFields(r, keys: f.keys, values: f.values, uid: f.uid, info: info).fields
            return .object(instance)
        default:
            guard let build = AnyArchived.typedValueClasses[name] else { return nil }
            let info = try classInfo(r, keys: f.keys, values: f.values, uid: f.uid)
            return build(try valueFields(r, keys: f.keys, values: f.values, uid: f.uid, info: info))
        }
    }

    /// The elements of a reference list, each as `AnyArchived` (path components are indexes).
    private func anyElements(_ r: borrowing PlistReader, _ list: ReferenceList) throws -> [AnyArchived] {
        var out: [AnyArchived] = []
        out.reserveCapacity(list.count)
        for i in 0..<list.count {
            path.append(.index(i))
            defer { path.removeLast() }
            out.append(try decodeAny(r, UnarchivedValue(ref: r.reference(at: i, in: list))))
        }
        return out
    }

    /// A plain property-list object (not an archived object) as `AnyArchived`.
    private func plainAny(_ r: borrowing PlistReader, _ o: PlistObject, uid: Int?) throws -> AnyArchived {
        switch o {
        case .null, .fill: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i):
            guard let v = Int(exactly: i) else {
                throw error(.typeMismatch, uid: uid, "integer \(i) does not fit Int")
            }
            return .integer(v)
        case .real(let d): return .real(d)
        case .date(let d): return .date(d)
        case .data(let range): return .data(r.bytes(range))
        case .asciiString, .utf16String:
            guard let s = try string(r, o, uid: uid) else { throw mismatch("a string", found: o, uid: uid) }
            return .string(s)
        case .uid:
            throw error(.typeMismatch, uid: uid, "a UID where a value was expected")
        case .array(let list), .set(let list):
            // Not written by NSKeyedArchiver, but a plain property-list array holds its elements
            // (UIDs or inline values) as an NSArray would.
            let elements = try nestedCollection(uid: uid ?? -1) { () throws -> [AnyArchived] in
                try anyElements(r, list)
            }
            if case .set = o { return .set(Set(elements)) }
            return .array(elements)
        case .dictionary:
            throw error(.corrupted, uid: uid, "a dictionary without $class where a value was expected")
        }
    }

    /// Fills an `ArchivedInstance` with every field of the object being decoded.
    func decodeDynamicFields(into instance: ArchivedInstance) throws {
        guard let frame = state.frames.last, let uid = frame.uid else {
            throw error(.corrupted, "an archived instance's fields were read outside its object")
        }
        let info = try classInfo(keys: frame.keys, values: frame.values, uid: uid)
        instance.update { contents in
            contents.className = info.name
            contents.classChain = info.chain
        }
        var unkeyed: [(Int, AnyArchived)] = []
        // Filled here and set once: the instance's properties are behind its lock.
        var fields: [String: AnyArchived] = [:]
        var inlineKeys: Set<String> = []
        try withInput { (r: borrowing PlistReader) throws -> Void in
            for i in 0..<frame.keys.count {
                guard let stored = try string(r, r.reference(at: i, in: frame.keys)) else {
                    throw error(.corrupted, uid: uid, "key \(i) of the object at UID \(uid) is not a string")
                }
                let valueRef = r.reference(at: i, in: frame.values)
                guard let key = ArchiveVocabulary.unescape(stored) else {
                    // `$0`, `$1`, …: values encoded without a key. Other reserved keys (`$class`)
                    // are the format's own.
                    if let n = Int(stored.dropFirst()), n >= 0, n < frame.keys.count {
                        path.append(.key(stored))
                        defer { path.removeLast() }
                        unkeyed.append((n, try decodeAny(r, UnarchivedValue(ref: valueRef))))
                    }
                    continue
                }
                path.append(.key(key))
                defer { path.removeLast() }
                if try uidValue(r, valueRef) == nil {
                    switch try object(r, valueRef) {
                    case .array, .set: inlineKeys.insert(key)
                    default: break
                    }
                }
                fields[key] = try decodeAny(r, UnarchivedValue(ref: valueRef))
            }
        }
        instance.update { contents in
            contents.fields = fields
            contents.inlineKeys = inlineKeys
            contents.unkeyed = unkeyed.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}

extension KeyedArchiver {
    /// The key under which ``archivedData(withRootObject:)`` stores the root object (`"root"`), as
    /// `NSKeyedArchiveRootObjectKey`.
    public static let rootObjectKey = ArchiveVocabulary.rootKey
}

extension KeyedArchiver.State {
    /// The class slot of an ``ArchivedInstance``'s class: one per class name (all instances share
    /// one Swift type, which `classSlot(for:)` never memoises, so the slot is found by name).
    mutating func dynamicClassSlot(_ instance: ArchivedInstance) throws(PlistError) -> Int {
        let type = ObjectIdentifier(ArchivedInstance.self)
        let chain =
            instance.classChain.first == instance.className
            ? instance.classChain : [instance.className] + instance.classChain
        let uid = try classUID(named: instance.className, chain: chain)
        var slot = classes.count &- 1
        while slot >= 0 {
            if classes[slot].type == type, classes[slot].classUID == uid { return slot }
            slot &-= 1
        }
        classes.append(KeyedArchiver.ClassEntry(type: type, classUID: uid))
        return classes.count &- 1
    }
}

extension AnyArchived {
    /// The typed value classes: class name → the value its fields make (`nil`: an unknown
    /// layout, kept as an ``ArchivedInstance``).
    static let typedValueClasses: [String: @Sendable (ValueFields) -> AnyArchived?] = {
        var table: [String: @Sendable (ValueFields) -> AnyArchived?] = [:]
        func add<T: ArchivedValueClass>(_ type: T.Type, _ wrap: @escaping @Sendable (T) -> AnyArchived) {
            for name in T.valueClassNames { table[name] = { T.fromFields($0).map(wrap) } }
        }
        add(ArchivedNull.self) { _ in .nsNull }
        add(IndexPath.self) { .indexPath($0) }
        add(ArchivedIndexSet.self) { .indexSet($0) }
        add(ArchivedLocale.self) { .locale($0) }
        add(ArchivedTimeZone.self) { .timeZone($0) }
        add(ArchivedGeometry.self) { .geometry($0) }
        add(ArchivedRegularExpression.self) { .regularExpression($0) }
        add(ArchivedColor.self) { .color($0) }
        add(ArchivedFont.self) { .font($0) }
        add(ArchivedAttributedString.self) { .attributedString($0) }
        add(DateComponents.self) { .dateComponents($0) }
        add(Decimal.self) { .decimal($0) }
        add(ArchivedError.self) { .error($0) }
        add(ArchivedAffineTransform.self) { .affineTransform($0) }
        add(ArchivedPersonNameComponents.self) { .personNameComponents($0) }
        add(ArchivedParagraphStyle.self) { .paragraphStyle($0) }
        add(ArchivedFontDescriptor.self) { .fontDescriptor($0) }
        return table
    }()
}
