// Sources/KeyedArchive/Graph/GraphImport.swift - A new value put into an archive's object graph.
//
// The value is written the way the keyed archiver writes it (every typed value in Apple's layout,
// objects with their class chains), into an archive of its own, whose `$objects` are then added to
// the graph's with their UIDs moved: class descriptions the graph has already are used instead of
// copies, and nothing else is merged with what the graph holds. Two rules keep what the value
// replaces: a value replacing a reference is stored as a reference (an integer becomes a number
// object), and a value of the same kind as the Foundation string, data or collection object it
// replaces takes that object's class (an NSMutableArray replaced by an array stays an
// NSMutableArray). When nothing else refers to the object being replaced, the new value takes its
// UID, so the rest of the archive keeps its numbering.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedArchiveGraph {
    /// What the edits of one `apply` call share: the UIDs of the instances they added.
    struct ImportContext {
        var instances: [ObjectIdentifier: Int] = [:]
        /// The instances themselves, held while the call lasts (their identities stay unique).
        var held: [ArchivedInstance] = []
    }

    /// The Foundation classes whose class a value of the same kind keeps when it replaces an object of
    /// one, by kind.
    static let kindOfClass: [String: String] = [
        "NSArray": "array", "NSMutableArray": "array", "NSSet": "set", "NSMutableSet": "set",
        "NSOrderedSet": "orderedSet", "NSMutableOrderedSet": "orderedSet", "NSDictionary": "dictionary",
        "NSMutableDictionary": "dictionary", "NSString": "string", "NSMutableString": "string", "NSData": "data",
        "NSMutableData": "data",
    ]

    /// The class name of an object stored in `objects`, `nil` for anything else.
    static func className(_ value: PlistValue, in objects: [PlistValue]) -> String? {
        guard case .dictionary(let d) = value, case .uid(let c)? = d[ArchiveVocabulary.classKey],
            c < UInt64(objects.count),
            case .dictionary(let cd) = objects[Int(c)]
        else { return nil }
        return cd[ArchiveVocabulary.classNameKey]?.stringValue
    }

    /// Stores a new value in the graph and returns what the slot it goes to holds: an inline value,
    /// or a UID.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - old: What the slot holds now (`nil` for a new slot).
    ///   - reference: The slot holds references only (collection members).
    mutating func store(_ value: AnyArchived, replacing old: PlistValue?, reference: Bool, context: inout ImportContext)
        throws -> PlistValue
    {
        var oldUID: Int?
        if case .uid(let u)? = old, u > 0, u < UInt64(storage.objects.count) { oldUID = Int(u) }
        let oldObject = oldUID.map { storage.objects[$0] }
        // The object replaced can take the new value when nothing else refers to it.
        var reuse: Int?
        if let u = oldUID, storage.referenceCounts()[u] == 1, GraphStorage.classKey(storage.objects[u]) == nil,
            !context.instances.values.contains(u)
        {
            reuse = u
        }
        // A value replacing one stored inline (in the object's own dictionary) stays inline when the
        // format can hold it there.
        var inline = false
        if let old, !reference {
            if case .uid = old {} else { inline = true }
        }
        var raw: PlistValue
        switch value {
        case .null: return .uid(0)
        case .bool(let b): raw = .bool(b)
        case .integer(let i): raw = .int(i)
        case .real(let d): raw = .real(d)
        case .string(let s) where inline: raw = .string(PlistString(s))
        case .data(let d) where inline: raw = .data(d)
        case .date(let d) where inline: raw = .date(d)
        case .array(let xs) where inline && old?.arrayValue != nil:
            // A plain list inside the object (not an NSArray): its members as references.
            let members = try xs.map { try store($0, replacing: nil, reference: true, context: &context) }
            if case .set? = old { raw = .set(members) } else { raw = .array(members) }
        case .set(let xs) where inline && old?.arrayValue != nil:
            let members = try xs.map { try store($0, replacing: nil, reference: true, context: &context) }
            if case .set? = old { raw = .set(members) } else { raw = .array(members) }
        case .string(let s): raw = .uid(UInt64(place(.string(PlistString(s)), reuse: reuse)))
        case .data(let d): raw = .uid(UInt64(place(.data(d), reuse: reuse)))
        default: raw = try archived(value, reuse: reuse, context: &context)
        }
        if inline { return raw }
        if case .uid = raw {
        } else if reference || old != nil {
            // An inline scalar where a reference is wanted: a number object, as the archiver writes
            // collection members.
            raw = .uid(UInt64(place(raw, reuse: reuse)))
        }
        if let oldObject, case .uid(let n) = raw, n > 0 {
            keepClass(of: oldObject, in: Int(n))
        }
        return raw
    }

    /// Puts a plain value in `$objects` (at `reuse` when given); returns its UID.
    mutating func place(_ value: PlistValue, reuse: Int?) -> Int {
        if let reuse {
            storage.replace(reuse, with: value)
            return reuse
        }
        return storage.append(value)
    }

    /// Gives the new object at `uid` the class of the Foundation object it replaces, when both are
    /// of the same kind (a string replacing an NSMutableString becomes an NSMutableString).
    mutating func keepClass(of old: PlistValue, in uid: Int) {
        guard case .dictionary(let oldDict) = old, let oldClass = oldDict[ArchiveVocabulary.classKey],
            let oldName = KeyedArchiveGraph.className(old, in: storage.objects),
            let kind = KeyedArchiveGraph.kindOfClass[oldName]
        else { return }
        let new = storage.objects[uid]
        switch (kind, new) {
        case ("string", .string), ("data", .data):
            let field = kind == "string" ? "NS.string" : "NS.data"
            guard let oldField = oldDict[field] else { return }
            var d = oldDict
            if case .uid = oldField {
                d[field] = .uid(UInt64(storage.append(new)))
            } else {
                d[field] = new
            }
            storage.replace(uid, with: .dictionary(d))
        case (_, .dictionary(var d)):
            guard let newName = KeyedArchiveGraph.className(new, in: storage.objects),
                KeyedArchiveGraph.kindOfClass[newName] == kind, newName != oldName,
                !["string", "data"].contains(kind)
            else { return }
            d[ArchiveVocabulary.classKey] = oldClass
            storage.replace(uid, with: .dictionary(d))
        default:
            return
        }
    }

    /// Writes a value with the keyed archiver and adds its objects to the graph; returns the slot's
    /// value (inline, or the UID of the value's object).
    mutating func archived(_ value: AnyArchived, reuse: Int?, context: inout ImportContext) throws -> PlistValue {
        let archiver = KeyedArchiver()
        // Every collection of the value its own object (the graph's objects keep their identity, and so
        // do new ones: a class edit of one must not change another).
        archiver.state.distinctObjects = true
        try archiver.encode(value, forKey: "v")
        let bytes = try archiver.finishEncoding()
        let archive: PlistValue
        do {
            archive = try BinaryPlistDocument(bytes).value()
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        guard case .dictionary(let root) = archive, case .array(let objects)? = root[ArchiveVocabulary.objectsKey],
            case .dictionary(let top)? = root[ArchiveVocabulary.topKey], let slot = top["v"]
        else { throw KeyedArchiveError(.unencodable, "the archiver wrote no value") }

        // UIDs of the new archive → UIDs in the graph (-1: not placed yet).
        var map = [Int](repeating: -1, count: objects.count)
        map[0] = 0
        var instances: [(ArchivedInstance, Int)] = []
        value.forEachInstance { instance in
            guard let uid = archiver.state.uidByObject.find(ObjectIdentifier(instance)), uid < map.count else { return }
            instances.append((instance, uid))
            if let placed = context.instances[ObjectIdentifier(instance)] { map[uid] = placed }
        }
        for i in 1..<objects.count where map[i] < 0 {
            if let key = GraphStorage.classKey(objects[i]), let existing = storage.classDescription(key) {
                map[i] = existing
            }
        }
        var rootUID = -1
        if case .uid(let r) = slot, r > 0, Int(r) < map.count, map[Int(r)] < 0 {
            rootUID = Int(r)
            if let reuse { map[rootUID] = reuse }
        }
        let base = storage.objects.count
        var next = base
        for i in 1..<objects.count where map[i] < 0 {
            map[i] = next
            next += 1
        }
        for i in 1..<objects.count {
            let target = map[i]
            if target >= base {
                let placed = storage.append(try KeyedArchiveGraph.movingUIDs(objects[i], map))
                assert(placed == target)
            } else if i == rootUID, let reuse, target == reuse {
                storage.replace(reuse, with: try KeyedArchiveGraph.movingUIDs(objects[i], map))
            }
        }
        for (instance, uid) in instances where context.instances[ObjectIdentifier(instance)] == nil {
            context.instances[ObjectIdentifier(instance)] = map[uid]
            context.held.append(instance)
        }
        return try KeyedArchiveGraph.movingUIDs(slot, map)
    }

    /// `value` with every UID `u` replaced by `map[u]`.
    static func movingUIDs(_ value: PlistValue, _ map: [Int], depth: Int = 0) throws -> PlistValue {
        switch value {
        case .uid(let u):
            guard u < UInt64(map.count), map[Int(u)] >= 0 else {
                throw KeyedArchiveError(.badReference, object: Int(clamping: u), "UID \(u) has no place in the graph")
            }
            return .uid(UInt64(map[Int(u)]))
        case .array(let xs), .set(let xs):
            guard depth < 512 else { throw KeyedArchiveError(.limitExceeded, "values nested deeper than 512 levels") }
            let moved = try xs.map { try movingUIDs($0, map, depth: depth + 1) }
            if case .set = value { return .set(moved) }
            return .array(moved)
        case .dictionary(let d):
            guard depth < 512 else { throw KeyedArchiveError(.limitExceeded, "values nested deeper than 512 levels") }
            return .dictionary(
                PlistDictionary(
                    try d.entries.map {
                        (try movingUIDs($0.key, map, depth: depth + 1), try movingUIDs($0.value, map, depth: depth + 1))
                    }))
        default:
            return value
        }
    }
}
