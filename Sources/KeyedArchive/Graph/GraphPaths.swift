// Sources/KeyedArchive/Graph/GraphPaths.swift - Finding the value a path names in an archive's
// object graph, in the terms `bplist unarchive` prints it.
//
// A path starts with a `$top` key; each further component selects a member of the value reached so
// far: a field of an object (its key as the object encoded it, or `$0`, `$1`, … for the values it
// encoded without a key), an element of an NSArray, NSSet or NSOrderedSet (a decimal index, in file
// order), an entry of an NSDictionary (its key), or a member of a plain array or dictionary stored
// inside an object. UIDs are followed on the way. Every member is a *location*: an owner (`$top`, or
// one entry of `$objects`) and the steps into the owner's stored value, so an edit changes exactly
// one stored value, in place.

import PropertyList

extension KeyedArchiveGraph {
    /// Where a value is stored: in `$top` or in one `$objects` entry, then steps into it.
    struct Location: Hashable {
        enum Owner: Hashable {
            case top
            case object(Int)
        }

        enum Step: Hashable {
            case key(PlistValue)
            case index(Int)
        }

        var owner: Owner
        var steps: [Step] = []

        func appending(_ step: Step) -> Location {
            var l = self
            l.steps.append(step)
            return l
        }

        static func key(_ owner: Owner, _ key: String) -> Location {
            Location(owner: owner, steps: [.key(.string(PlistString(key)))])
        }
    }

    /// A value whose members a path component names.
    enum Container {
        /// `$top`: members by their stored key.
        case top
        /// An object: fields by key (as encoded, unescaped), values without a key as `$0`, `$1`, ….
        case fields(uid: Int)
        /// An array or set: members by index. `references`: members are stored as UIDs (the
        /// `NS.objects` of a collection object; a plain list holding UIDs). `object`: the collection
        /// object, when the list is one's.
        case list(Location, references: Bool, object: Int?)
        /// An NSOrderedSet in Apple's layout: members by index, stored under `NS.object.<i>`.
        case numbered(uid: Int)
        /// An NSDictionary: entries by key; keys and values are the two lists.
        case entries(uid: Int, keys: Location, values: Location)
        /// A plain dictionary stored inside an object (or as an entry of `$objects`): by string key.
        case plainDictionary(Location)

        /// The object this container belongs to (for the shared-object check), if any.
        var object: Int? {
            switch self {
            case .top, .plainDictionary: nil
            case .fields(let uid), .numbered(let uid), .entries(let uid, _, _): uid
            case .list(_, _, let object): object
            }
        }
    }

    /// The number of a numbered key: `prefix` then decimal digits (`NS.object.3`; `$3` for the values
    /// an object encoded without a key); `nil` for any other key.
    static func numberedIndex(_ key: String, prefix: String) -> Int? {
        guard key.hasPrefix(prefix) else { return nil }
        let digits = key.utf8.dropFirst(prefix.utf8.count)
        guard !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// The index of a value an object encoded without a key, from its stored key (`$3` → 3).
    static func unkeyedIndex(_ stored: String) -> Int? { numberedIndex(stored, prefix: "$") }

    /// A path component as an index: decimal digits only.
    static func parseIndex(_ component: String) -> Int? { numberedIndex(component, prefix: "") }

    /// The numbered members of a dictionary (under `prefix` and a number), in order of the number;
    /// `nil` unless numbered 0, 1, … with no gap or repeat.
    static func numbered(_ d: PlistDictionary, prefix: String) -> [PlistValue]? {
        var found: [(Int, PlistValue)] = []
        for entry in d.entries {
            guard let k = entry.key.stringValue, let n = numberedIndex(k, prefix: prefix) else { continue }
            found.append((n, entry.value))
        }
        found.sort { $0.0 < $1.0 }
        guard found.indices.allSatisfy({ found[$0].0 == $0 }) else { return nil }
        return found.map(\.1)
    }

    /// `d` with its numbered members replaced by `members`, numbered again from 0 (placed where
    /// the first numbered member was, or at the end).
    static func renumbered(_ d: PlistDictionary, prefix: String, _ members: [PlistValue]) -> PlistDictionary {
        var pairs: [(PlistValue, PlistValue)] = []
        var placed = false
        let fresh = members.enumerated().map {
            (PlistValue.string(PlistString(prefix + String($0.offset))), $0.element)
        }
        for entry in d.entries {
            if let k = entry.key.stringValue, numberedIndex(k, prefix: prefix) != nil {
                if !placed {
                    pairs.append(contentsOf: fresh)
                    placed = true
                }
                continue
            }
            pairs.append((entry.key, entry.value))
        }
        if !placed { pairs.append(contentsOf: fresh) }
        return PlistDictionary(pairs)
    }

    // MARK: - Reading locations

    /// The value stored at a location, `nil` when a step does not lead anywhere.
    func stored(at location: Location) -> PlistValue? {
        var v: PlistValue
        switch location.owner {
        case .top: v = .dictionary(storage.top)
        case .object(let uid):
            guard storage.objects.indices.contains(uid) else { return nil }
            v = storage.objects[uid]
        }
        for step in location.steps {
            switch (step, v) {
            case (.key(let k), .dictionary(let d)):
                guard let x = d[k] else { return nil }
                v = x
            case (.index(let i), .array(let a)), (.index(let i), .set(let a)):
                guard a.indices.contains(i) else { return nil }
                v = a[i]
            default:
                return nil
            }
        }
        return v
    }

    /// A list stored under `key` of object `uid`: inline, or a plain array one UID away.
    func listLocation(_ uid: Int, _ key: String) -> Location? {
        guard case .dictionary(let d) = storage.objects[uid], let v = d[key] else { return nil }
        switch v {
        case .array, .set: return .key(.object(uid), key)
        case .uid(let u):
            let p = Int(clamping: u)
            guard p > 0, p < storage.objects.count else { return nil }
            switch storage.objects[p] {
            case .array, .set: return Location(owner: .object(p))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The members of the list at a location.
    func members(_ location: Location) -> [PlistValue] {
        switch stored(at: location) {
        case .array(let a)?, .set(let a)?: a
        default: []
        }
    }

    /// How the object at `uid` is entered: as a collection when its class is one and its fields are
    /// the layout Foundation writes, else by its fields.
    func container(ofObject uid: Int) -> Container {
        guard case .object(let o) = nodes[uid] else { return .fields(uid: uid) }
        let chain = Set(o.classChain + [o.className])
        if chain.contains("NSDictionary"), let k = listLocation(uid, "NS.keys"),
            let v = listLocation(uid, "NS.objects"),
            members(k).count == members(v).count
        {
            return .entries(uid: uid, keys: k, values: v)
        }
        if chain.contains("NSOrderedSet") {
            if let l = listLocation(uid, "NS.objects") { return .list(l, references: true, object: uid) }
            if case .dictionary(let d) = storage.objects[uid],
                KeyedArchiveGraph.numbered(d, prefix: "NS.object.") != nil
            {
                return .numbered(uid: uid)
            }
        }
        if chain.contains("NSArray") || chain.contains("NSSet"), let l = listLocation(uid, "NS.objects") {
            return .list(l, references: true, object: uid)
        }
        return .fields(uid: uid)
    }

    /// The container a stored value is entered as; throws for a value without members.
    func container(entering location: Location, path: ArraySlice<String>) throws -> Container {
        let fail = { (what: String, uid: Int?) -> KeyedArchiveError in
            KeyedArchiveError(
                .notAContainer, keys: Array(path), object: uid,
                "\(path.joined(separator: ".")) is \(what), which has no members")
        }
        guard let v = stored(at: location) else {
            throw KeyedArchiveError(
                .keyNotFound, keys: Array(path), "nothing is stored at \(path.joined(separator: "."))")
        }
        switch v {
        case .uid(let u):
            let uid = Int(clamping: u)
            guard uid > 0 else { throw fail("nil ($null)", 0) }
            guard uid < storage.objects.count else { throw fail("a UID outside $objects", uid) }
            switch nodes[uid] {
            case .object: return container(ofObject: uid)
            case .classDescription: throw fail("a class description", uid)
            case .value(let plain):
                switch plain {
                case .array(let a), .set(let a):
                    let references = a.contains { if case .uid = $0 { true } else { false } }
                    return .list(Location(owner: .object(uid)), references: references, object: uid)
                case .dictionary: return .plainDictionary(Location(owner: .object(uid)))
                default: throw fail("a \(plain.kind)", uid)
                }
            case .null: throw fail("nil ($null)", 0)
            }
        case .array(let a), .set(let a):
            let references = a.contains { if case .uid = $0 { true } else { false } }
            return .list(location, references: references, object: nil)
        case .dictionary:
            return .plainDictionary(location)
        default:
            throw fail("a \(v.kind)", nil)
        }
    }

    // MARK: - Members

    /// The text a dictionary key is matched by: a string as it is, a number or boolean as printed.
    func keyText(_ key: PlistValue) -> String? {
        var v = key
        if case .uid(let u) = v {
            let uid = Int(clamping: u)
            guard uid > 0, uid < storage.objects.count else { return nil }
            v = storage.objects[uid]
        }
        switch v {
        case .string(let s): return s.string
        case .integer(let i): return i.description
        case .real(let d): return NumberText.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .dictionary(let d):
            // An NSString or NSMutableString object.
            if case .string(let s)? = d["NS.string"] { return s.string }
            return nil
        default: return nil
        }
    }

    /// The index a component names (decimal digits), or a `typeMismatch` error saying it is none.
    static func index(_ component: String, path: ArraySlice<String>) throws -> Int {
        guard let i = parseIndex(component) else {
            throw KeyedArchiveError(
                .indexOutOfRange, keys: Array(path), "\"\(component)\" is not an index (a decimal number from 0)")
        }
        return i
    }

    /// Where the member named `component` of `container` is stored; `nil` when there is none.
    func member(_ component: String, of container: Container, path: ArraySlice<String>) throws -> Location? {
        switch container {
        case .top:
            return storage.top[component] == nil ? nil : .key(.top, component)
        case .fields(let uid):
            guard case .dictionary(let d) = storage.objects[uid] else { return nil }
            let stored = ArchiveVocabulary.escape(component)
            if d[stored] != nil { return .key(.object(uid), stored) }
            if KeyedArchiveGraph.unkeyedIndex(component) != nil, d[component] != nil {
                return .key(.object(uid), component)
            }
            return nil
        case .list(let location, _, _):
            let i = try KeyedArchiveGraph.index(component, path: path)
            return i < members(location).count ? location.appending(.index(i)) : nil
        case .numbered(let uid):
            let i = try KeyedArchiveGraph.index(component, path: path)
            guard case .dictionary(let d) = storage.objects[uid],
                i < KeyedArchiveGraph.numbered(d, prefix: "NS.object.")?.count ?? 0
            else { return nil }
            return .key(.object(uid), "NS.object.\(i)")
        case .entries(_, let keys, let values):
            guard let j = members(keys).firstIndex(where: { keyText($0) == component }) else { return nil }
            return values.appending(.index(j))
        case .plainDictionary(let location):
            guard case .dictionary(let d)? = stored(at: location) else { return nil }
            guard let key = d.keys.first(where: { keyText($0) == component }) else { return nil }
            return location.appending(.key(key))
        }
    }

    /// Follows `path` to the container of its last component; returns that container.
    ///
    /// - Parameter rejectShared: Throw `sharedObject` when the path passes through an object that
    ///   more than one reference reaches (the last component's own value is not passed through).
    func containerOfLast(_ path: [String], rejectShared: Bool) throws -> Container {
        guard !path.isEmpty else {
            throw KeyedArchiveError(.keyNotFound, "an empty path: a path starts with a $top key, such as \"root\"")
        }
        var container = Container.top
        let counts = rejectShared ? referenceCounts() : []
        for (i, component) in path.dropLast().enumerated() {
            let prefix = path[...i]
            guard let location = try member(component, of: container, path: prefix) else {
                throw KeyedArchiveError(.keyNotFound, keys: Array(prefix), missing(component, in: container))
            }
            container = try self.container(entering: location, path: prefix)
            if rejectShared, let uid = container.object, uid < counts.count, counts[uid] > 1 {
                throw KeyedArchiveError(
                    .sharedObject, keys: Array(prefix), object: uid,
                    "\(prefix.joined(separator: ".")) is an object referenced from \(counts[uid]) places")
            }
        }
        return container
    }

    /// Where the value at `path` is stored.
    func location(of path: [String]) throws -> Location {
        let container = try containerOfLast(path, rejectShared: false)
        let last = path[path.count - 1]
        guard let location = try member(last, of: container, path: path[...]) else {
            throw KeyedArchiveError(.keyNotFound, keys: path, missing(last, in: container))
        }
        return location
    }

    /// Reference counts for a graph not being edited (computed each time: the graph is a value).
    func referenceCounts() -> [Int] {
        var s = storage
        return s.referenceCounts()
    }

    /// "there is no field \"x\"", "…no key", "…no index": for a missing member.
    func missing(_ component: String, in container: Container) -> String {
        switch container {
        case .top: "$top has no key \"\(component)\""
        case .fields(let uid):
            if case .object(let o) = nodes[uid] {
                "the \(o.className) object has no field \"\(component)\""
            } else {
                "no field \"\(component)\""
            }
        case .entries: "the dictionary has no key \"\(component)\""
        case .plainDictionary: "the dictionary has no key \"\(component)\""
        case .list, .numbered: "no member \(component)"
        }
    }
}
