// Sources/KeyedArchive/Graph/GraphEditing.swift - Changing, inserting and removing values by path in
// an archive's object graph, and reading one value by path.
//
// An edit changes the one stored value its path names (a field of an object, an element or entry of
// a collection, a `$top` key) and nothing else: every other object keeps its UID, class, fields, key
// order and identity. New values are written by the keyed archiver into new `$objects` entries (see
// GraphImport.swift); objects an edit leaves unreachable are dropped when the graph is written.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedArchiveGraph {
    /// One change to the graph, as performed: a `PlistEdit` (or a link, a class change) with its
    /// path as keys.
    enum Operation {
        /// Replaces the value at `path`, or adds it when the last component names a field, a
        /// dictionary key or a `$top` key that is absent (an index must exist).
        case set(_ path: [String], _ value: AnyArchived)
        /// Adds a value: at an index of an array, set or ordered set (the members from there on move
        /// up one; the index may equal the count), or under a field, dictionary key or `$top` key
        /// that must not exist yet.
        case insert(_ path: [String], _ value: AnyArchived)
        /// Adds a value at the end of the array, set or ordered set at `path`.
        case append(_ path: [String], _ value: AnyArchived)
        /// Makes the value at `path` the object at `target`.
        case link(_ path: [String], to: [String])
        /// Removes the field, entry, member or `$top` key at `path`.
        case remove(_ path: [String])
        /// Gives the object at `path` another class chain.
        case setClass(_ path: [String], _ classChain: [String])
    }

    /// What an edit does when its path passes through an object that is referenced from more than one
    /// place (shared objects are one object in the archive, as in the program that wrote it).
    public enum SharedObjects: Sendable, Hashable {
        /// Change the object once: every reference to it sees the change (the default, and what the
        /// program that wrote the archive would see had it made the change itself).
        case edit
        /// Throw `sharedObject`, naming the path and the object's UID.
        case reject
    }

    // MARK: - Public API

    /// Applies edits in order: all of them, or none when one throws (the graph is then unchanged).
    ///
    /// Paths start at a `$top` key (`root.settings.theme`) and are described in <doc:EditingArchives>.
    /// New values are written as ``KeyedArchiver`` writes them; one ``ArchivedInstance`` used by
    /// several edits of the same call becomes one object referenced from each place. A value that
    /// replaces an `NSMutableArray`, `NSMutableString`, … with a value of the same kind (an array, a
    /// string, …) keeps the replaced object's class, and a value replacing one stored as a reference is
    /// stored as a reference. With `creatingParents`, missing dictionaries on the way are added (as
    /// `NSDictionary` objects), and an `append` to a missing key adds an array.
    ///
    /// ```swift
    /// try graph.apply([.set("dark", at: "root.settings.theme"), .append("notes.txt", to: "root.recent")])
    /// ```
    ///
    /// - Parameters:
    ///   - edits: The changes, applied one after the other (a path may name what an earlier edit added).
    ///   - sharedObjects: Whether a path may pass through a shared object (default ``SharedObjects/edit``).
    /// - Throws: ``KeyedArchiveError``, with the codes `PlistValue` editing uses: `keyNotFound` (a
    ///   path names nothing; a `replace` or `remove` of something absent), `indexOutOfRange`,
    ///   `notAContainer` (a path passes through a value without members), `alreadyExists` (an
    ///   insertion under an existing key); and `sharedObject`, or what archiving a new value throws.
    public mutating func apply(_ edits: [PlistEdit<AnyArchived>], sharedObjects: SharedObjects = .edit)
        throws(KeyedArchiveError)
    {
        var operations: [Operation] = []
        var replacing: Set<Int> = []
        try KeyedArchiveError.catching { () throws in
            for edit in edits {
                let path = edit.keyPath.components.map(\.key)
                switch edit {
                case .insert(let value, _, let parents):
                    if parents { try createParents(of: path, into: &operations) }
                    operations.append(.insert(path, value))
                case .replace(let value, _):
                    replacing.insert(operations.count)
                    operations.append(.set(path, value))
                case .set(let value, _, let parents):
                    if parents { try createParents(of: path, into: &operations) }
                    operations.append(.set(path, value))
                case .remove:
                    operations.append(.remove(path))
                case .append(let value, _, let parents):
                    if parents {
                        try createParents(of: path, into: &operations)
                        if !(try exists(path, after: operations)) { operations.append(.set(path, .array([]))) }
                    }
                    operations.append(.append(path, value))
                }
            }
        }
        try perform(operations, sharedObjects: sharedObjects, replacing: replacing)
    }

    /// Replaces (or adds) the value at a path; see `PlistEdit.set`.
    public mutating func set(
        _ value: AnyArchived, at path: PlistKeyPath, creatingParents: Bool = false,
        sharedObjects: SharedObjects = .edit
    ) throws(KeyedArchiveError) {
        try apply([.set(value, at: path, creatingParents: creatingParents)], sharedObjects: sharedObjects)
    }

    /// Replaces the value at a path, which must exist; see `PlistEdit.replace`.
    public mutating func replace(_ value: AnyArchived, at path: PlistKeyPath, sharedObjects: SharedObjects = .edit)
        throws(KeyedArchiveError)
    {
        try apply([.replace(value, at: path)], sharedObjects: sharedObjects)
    }

    /// Inserts a value at a path; see `PlistEdit.insert`.
    public mutating func insert(
        _ value: AnyArchived, at path: PlistKeyPath, creatingParents: Bool = false,
        sharedObjects: SharedObjects = .edit
    ) throws(KeyedArchiveError) {
        try apply([.insert(value, at: path, creatingParents: creatingParents)], sharedObjects: sharedObjects)
    }

    /// Appends a value to the array, set or ordered set at a path; see
    /// `PlistEdit.append`.
    public mutating func append(
        _ value: AnyArchived, to path: PlistKeyPath, creatingParents: Bool = false,
        sharedObjects: SharedObjects = .edit
    ) throws(KeyedArchiveError) {
        try apply([.append(value, to: path, creatingParents: creatingParents)], sharedObjects: sharedObjects)
    }

    /// Removes the field, entry, member or `$top` key at a path; see `PlistEdit.remove`.
    public mutating func remove(at path: PlistKeyPath, sharedObjects: SharedObjects = .edit)
        throws(KeyedArchiveError)
    {
        try apply([.remove(at: path)], sharedObjects: sharedObjects)
    }

    /// Makes the value at `path` (replaced, or added as ``set(_:at:creatingParents:sharedObjects:)``
    /// adds) the object at `target`: one object, referenced from both places, as a program shares an
    /// object. A `target` that holds a plain value stored inline gets a copy of it.
    public mutating func link(_ path: PlistKeyPath, to target: PlistKeyPath, sharedObjects: SharedObjects = .edit)
        throws(KeyedArchiveError)
    {
        try perform(
            [.link(path.components.map(\.key), to: target.components.map(\.key))], sharedObjects: sharedObjects)
    }

    /// Gives the object at a path another class: `classChain` is the class and its superclasses
    /// (`["NSMutableArray", "NSArray", "NSObject"]`). Its fields are kept.
    public mutating func setClass(_ classChain: [String], at path: PlistKeyPath, sharedObjects: SharedObjects = .edit)
        throws(KeyedArchiveError)
    {
        try perform([.setClass(path.components.map(\.key), classChain)], sharedObjects: sharedObjects)
    }

    /// The value at a path, read as ``AnyArchived`` (objects through the unarchiver's decoders).
    ///
    /// - Throws: ``KeyedArchiveError``: `keyNotFound`, `indexOutOfRange` or `notAContainer` for a path
    ///   that names nothing, or what decoding the value throws.
    public func value(at path: PlistKeyPath) throws(KeyedArchiveError) -> AnyArchived {
        try KeyedArchiveError.catching { () throws -> AnyArchived in try value(atKeys: path.components.map(\.key)) }
    }

    /// ``value(at:)`` for a path of keys.
    func value(atKeys path: [String]) throws -> AnyArchived {
        let location = try self.location(of: path)
        guard let stored = stored(at: location) else {
            throw KeyedArchiveError(.keyNotFound, keys: path, "nothing is stored at \(path.joined(separator: "."))")
        }
        guard let decoder = source.unarchiver() else {
            throw KeyedArchiveError(.unencodable, keys: path, "the edited archive could not be opened again")
        }
        return try KeyedArchiveGraph.anyValue(stored, decoder: decoder, depth: 0)
    }

    /// Whether something is stored at `path` (a path through a missing key names nothing).
    func exists(_ path: [String]) -> Bool {
        guard let location = try? location(of: path) else { return false }
        return stored(at: location) != nil
    }

    /// Whether something is stored at `path` once `operations` are performed.
    func exists(_ path: [String], after operations: [Operation]) throws -> Bool {
        var probe = self
        var context = ImportContext()
        for operation in operations { try probe.perform(operation, rejectShared: false, context: &context) }
        return probe.exists(path)
    }

    /// Adds to `operations` those that create the missing dictionaries on the way to `path`'s last
    /// component: each missing prefix after the `$top` key becomes an empty dictionary (looked up in
    /// the graph as the operations before leave it).
    func createParents(of path: [String], into operations: inout [Operation]) throws {
        guard path.count > 2 else { return }
        var probe = self
        var context = ImportContext()
        for operation in operations { try probe.perform(operation, rejectShared: false, context: &context) }
        for end in 2..<path.count where !probe.exists(Array(path.prefix(end))) {
            let operation = Operation.set(Array(path.prefix(end)), .dictionary([:]))
            try probe.perform(operation, rejectShared: false, context: &context)
            operations.append(operation)
        }
    }

    /// Performs `operations` on a copy, kept only when all succeed. `replacing` holds the positions
    /// of operations that replace: their path must name a value already.
    mutating func perform(_ operations: [Operation], sharedObjects: SharedObjects, replacing: Set<Int> = [])
        throws(KeyedArchiveError)
    {
        var graph = self
        try KeyedArchiveError.catching { () throws in
            let reject = sharedObjects == .reject
            if reject { _ = graph.storage.referenceCounts() }
            var context = ImportContext()
            for (i, operation) in operations.enumerated() {
                if replacing.contains(i), case .set(let path, _) = operation, !graph.exists(path) {
                    _ = try graph.location(of: path)  // the error that says which component is missing
                    throw KeyedArchiveError(
                        .keyNotFound, keys: path, "nothing is stored at \(path.joined(separator: ".")) to replace")
                }
                try graph.perform(operation, rejectShared: reject, context: &context)
            }
            graph.finishEditing()
        }
        self = graph
    }

    // MARK: - Performing edits

    /// Performs one operation on this working copy.
    mutating func perform(_ edit: Operation, rejectShared: Bool, context: inout ImportContext) throws {
        switch edit {
        case .set(let path, let value):
            let container = try containerOfLast(path, rejectShared: rejectShared)
            try set(path[path.count - 1], of: container, to: .value(value), path: path, context: &context)
        case .link(let path, let target):
            let stored = try stored(at: location(of: target)) ?? .uid(0)
            let container = try containerOfLast(path, rejectShared: rejectShared)
            try set(path[path.count - 1], of: container, to: .stored(stored), path: path, context: &context)
        case .insert(let path, let value):
            let container = try containerOfLast(path, rejectShared: rejectShared)
            try insert(.value(value), as: path[path.count - 1], of: container, path: path, context: &context)
        case .append(let path, let value):
            let container = try containerOfLast(path + ["0"], rejectShared: rejectShared)
            switch container {
            case .list(let location, _, _):
                try insert(
                    .value(value), as: String(members(location).count), of: container, path: path, context: &context)
            case .numbered(let uid):
                let count = numberedMembers(uid, prefix: "NS.object.").count
                try insert(.value(value), as: String(count), of: container, path: path, context: &context)
            default:
                throw KeyedArchiveError(
                    .notAContainer, keys: path,
                    "\(path.joined(separator: ".")) is not an array, set or ordered set: insert under a key instead")
            }
        case .remove(let path):
            let container = try containerOfLast(path, rejectShared: rejectShared)
            try remove(path[path.count - 1], of: container, path: path)
        case .setClass(let path, let chain):
            let container = try containerOfLast(path, rejectShared: rejectShared)
            try setClass(chain, of: path[path.count - 1], in: container, path: path)
        }
        refreshNodes()
    }

    /// Replaces (or adds) one member.
    mutating func set(
        _ component: String, of container: Container, to value: NewValue, path: [String],
        context: inout ImportContext
    ) throws {
        let slice = path[...]
        switch container {
        case .top:
            let raw = try put(value, replacing: storage.top[component], reference: false, context: &context)
            modify(Location(owner: .top)) { v in
                v = KeyedArchiveGraph.setting(v, key: .string(PlistString(component)), to: raw)
            }
        case .fields(let uid):
            let d = dictionary(uid)
            var key = ArchiveVocabulary.escape(component)
            if d[key] == nil, let n = KeyedArchiveGraph.unkeyedIndex(component) {
                let count = numberedMembers(uid, prefix: "$").count
                guard d[component] != nil || n == count else {
                    throw KeyedArchiveError(
                        .keyNotFound, keys: path, object: uid,
                        "the object has \(count) values without a key: \(component) can only be added as $\(count)")
                }
                key = component
            }
            let raw = try put(value, replacing: d[key], reference: false, context: &context)
            modify(Location(owner: .object(uid))) { v in
                v = KeyedArchiveGraph.setting(v, key: .string(PlistString(key)), to: raw)
            }
        case .list(let location, let references, _):
            let i = try KeyedArchiveGraph.index(component, path: slice)
            let list = members(location)
            guard i < list.count else {
                throw KeyedArchiveError(
                    .indexOutOfRange, keys: path, "index \(i) is out of range (\(list.count) members)")
            }
            let raw = try put(value, replacing: list[i], reference: references, context: &context)
            modify(location.appending(.index(i))) { $0 = raw }
        case .numbered(let uid):
            let i = try KeyedArchiveGraph.index(component, path: slice)
            let list = numberedMembers(uid, prefix: "NS.object.")
            guard i < list.count else {
                throw KeyedArchiveError(
                    .indexOutOfRange, keys: path, "index \(i) is out of range (\(list.count) members)")
            }
            let raw = try put(value, replacing: list[i], reference: true, context: &context)
            modify(.key(.object(uid), "NS.object.\(i)")) { $0 = raw }
        case .entries:
            guard let location = try member(component, of: container, path: slice) else {
                try insert(value, as: component, of: container, path: path, context: &context)
                return
            }
            let raw = try put(value, replacing: stored(at: location), reference: true, context: &context)
            modify(location) { $0 = raw }
        case .plainDictionary:
            guard let location = try member(component, of: container, path: slice) else {
                try insert(value, as: component, of: container, path: path, context: &context)
                return
            }
            let old = stored(at: location)
            let references = if case .uid? = old { true } else { false }
            let raw = try put(value, replacing: old, reference: references, context: &context)
            modify(location) { $0 = raw }
        }
    }

    /// Adds one member.
    mutating func insert(
        _ value: NewValue, as component: String, of container: Container, path: [String],
        context: inout ImportContext
    ) throws {
        let slice = path[...]
        func exists(_ what: String) -> KeyedArchiveError {
            KeyedArchiveError(
                .alreadyExists, keys: path, "\(what) \"\(component)\" exists already: set it to replace it")
        }
        switch container {
        case .top:
            guard storage.top[component] == nil else { throw exists("$top key") }
            let raw = try put(value, replacing: nil, reference: false, context: &context)
            modify(Location(owner: .top)) { v in
                v = KeyedArchiveGraph.setting(v, key: .string(PlistString(component)), to: raw)
            }
        case .fields(let uid):
            let d = dictionary(uid)
            let key = ArchiveVocabulary.escape(component)
            if d[key] == nil, let n = KeyedArchiveGraph.unkeyedIndex(component) {
                guard var list = KeyedArchiveGraph.numbered(d, prefix: "$") else {
                    throw KeyedArchiveError(
                        .corrupted, keys: path, object: uid,
                        "the object's values without a key are not numbered $0, $1, … without a gap")
                }
                guard n <= list.count else {
                    throw KeyedArchiveError(
                        .indexOutOfRange, keys: path, object: uid,
                        "index \(n) is out of range (\(list.count) values without a key)")
                }
                list.insert(try put(value, replacing: nil, reference: false, context: &context), at: n)
                modify(Location(owner: .object(uid))) { v in v = KeyedArchiveGraph.renumbering(v, prefix: "$", list) }
                return
            }
            guard d[key] == nil else { throw exists("field") }
            let raw = try put(value, replacing: nil, reference: false, context: &context)
            modify(Location(owner: .object(uid))) { v in
                v = KeyedArchiveGraph.setting(v, key: .string(PlistString(key)), to: raw)
            }
        case .list(let location, let references, _):
            let i = try KeyedArchiveGraph.index(component, path: slice)
            let count = members(location).count
            guard i <= count else {
                throw KeyedArchiveError(.indexOutOfRange, keys: path, "index \(i) is out of range (\(count) members)")
            }
            let raw = try put(value, replacing: nil, reference: references, context: &context)
            modify(location) { v in
                switch v {
                case .array(var a):
                    a.insert(raw, at: i)
                    v = .array(a)
                case .set(var a):
                    a.insert(raw, at: i)
                    v = .set(a)
                default: break
                }
            }
        case .numbered(let uid):
            let i = try KeyedArchiveGraph.index(component, path: slice)
            var list = numberedMembers(uid, prefix: "NS.object.")
            guard i <= list.count else {
                throw KeyedArchiveError(
                    .indexOutOfRange, keys: path, "index \(i) is out of range (\(list.count) members)")
            }
            list.insert(try put(value, replacing: nil, reference: true, context: &context), at: i)
            modify(Location(owner: .object(uid))) { v in
                v = KeyedArchiveGraph.renumbering(v, prefix: "NS.object.", list)
            }
        case .entries(_, let keys, let values):
            guard try member(component, of: container, path: slice) == nil else { throw exists("key") }
            let key = try store(.string(component), replacing: nil, reference: true, context: &context)
            let raw = try put(value, replacing: nil, reference: true, context: &context)
            modify(keys) { v in v = KeyedArchiveGraph.appending(v, key) }
            modify(values) { v in v = KeyedArchiveGraph.appending(v, raw) }
        case .plainDictionary(let location):
            guard try member(component, of: container, path: slice) == nil else { throw exists("key") }
            var references = false
            if case .dictionary(let d)? = stored(at: location) {
                references = d.values.contains { if case .uid = $0 { true } else { false } }
            }
            let raw = try put(value, replacing: nil, reference: references, context: &context)
            modify(location) { v in v = KeyedArchiveGraph.setting(v, key: .string(PlistString(component)), to: raw) }
        }
    }

    /// Removes one member.
    mutating func remove(_ component: String, of container: Container, path: [String]) throws {
        let slice = path[...]
        guard let location = try member(component, of: container, path: slice) else {
            throw KeyedArchiveError(.keyNotFound, keys: path, missing(component, in: container))
        }
        switch container {
        case .top, .plainDictionary:
            guard case .key(let key)? = location.steps.last else { return }
            let parent = Location(owner: location.owner, steps: Array(location.steps.dropLast()))
            modify(parent) { v in v = KeyedArchiveGraph.setting(v, key: key, to: nil) }
        case .fields(let uid):
            guard case .key(let key)? = location.steps.last, let stored = key.stringValue else { return }
            if KeyedArchiveGraph.unkeyedIndex(stored) != nil, let n = KeyedArchiveGraph.unkeyedIndex(component),
                var list = KeyedArchiveGraph.numbered(dictionary(uid), prefix: "$"), n < list.count
            {
                // The values after it move down one, as `decodeObject()` reads them in order.
                list.remove(at: n)
                modify(Location(owner: .object(uid))) { v in v = KeyedArchiveGraph.renumbering(v, prefix: "$", list) }
            } else {
                modify(Location(owner: .object(uid))) { v in v = KeyedArchiveGraph.setting(v, key: key, to: nil) }
            }
        case .list(let list, _, _):
            guard case .index(let i)? = location.steps.last else { return }
            modify(list) { v in v = KeyedArchiveGraph.removing(v, at: i) }
        case .numbered(let uid):
            var list = numberedMembers(uid, prefix: "NS.object.")
            let i = try KeyedArchiveGraph.index(component, path: slice)
            guard i < list.count else { return }
            list.remove(at: i)
            modify(Location(owner: .object(uid))) { v in
                v = KeyedArchiveGraph.renumbering(v, prefix: "NS.object.", list)
            }
        case .entries(_, let keys, let values):
            guard case .index(let j)? = location.steps.last else { return }
            modify(keys) { v in v = KeyedArchiveGraph.removing(v, at: j) }
            modify(values) { v in v = KeyedArchiveGraph.removing(v, at: j) }
        }
    }

    /// Gives the object a member refers to another class.
    mutating func setClass(_ chain: [String], of component: String, in container: Container, path: [String]) throws {
        guard let location = try member(component, of: container, path: path[...]) else {
            throw KeyedArchiveError(.keyNotFound, keys: path, missing(component, in: container))
        }
        guard case .uid(let u)? = stored(at: location), u > 0, u < UInt64(nodes.count),
            case .object = nodes[Int(u)]
        else {
            throw KeyedArchiveError(
                .typeMismatch, keys: path, "\(path.joined(separator: ".")) is not an archived object")
        }
        guard let name = chain.first, !name.isEmpty else {
            throw KeyedArchiveError(.unencodable, keys: path, "a class chain starts with the class name")
        }
        let key = GraphStorage.ClassKey(name: name, chain: chain, hints: [])
        let cls =
            storage.classDescription(key)
            ?? storage.append(
                .dictionary(
                    PlistDictionary([
                        (.string(PlistString(ArchiveVocabulary.classNameKey)), .string(PlistString(name))),
                        (
                            .string(PlistString(ArchiveVocabulary.classesKey)),
                            .array(chain.map { .string(PlistString($0)) })
                        ),
                    ])))
        modify(.key(.object(Int(u)), ArchiveVocabulary.classKey)) { $0 = .uid(UInt64(cls)) }
    }

    // MARK: - Changing stored values

    /// What an edit stores: a new value, or a value already stored (a reference to an object).
    enum NewValue {
        case value(AnyArchived)
        case stored(PlistValue)
    }

    /// Stores a new value (see `store`), or puts a stored one in a slot (an inline value where a
    /// reference is wanted becomes an entry of its own).
    mutating func put(_ new: NewValue, replacing old: PlistValue?, reference: Bool, context: inout ImportContext)
        throws -> PlistValue
    {
        switch new {
        case .value(let value):
            return try store(value, replacing: old, reference: reference, context: &context)
        case .stored(let raw):
            if case .uid = raw { return raw }
            if reference || old?.uidValue != nil { return .uid(UInt64(storage.append(raw))) }
            return raw
        }
    }

    /// The dictionary stored for object `uid` (empty when it is not one).
    func dictionary(_ uid: Int) -> PlistDictionary {
        if case .dictionary(let d) = storage.objects[uid] { d } else { PlistDictionary() }
    }

    /// The numbered members of object `uid` (`NS.object.<i>`, or `$<i>`).
    func numberedMembers(_ uid: Int, prefix: String) -> [PlistValue] {
        KeyedArchiveGraph.numbered(dictionary(uid), prefix: prefix) ?? []
    }

    /// Changes the value stored at a location; references are counted again for its owner.
    mutating func modify(_ location: Location, _ change: (inout PlistValue) -> Void) {
        switch location.owner {
        case .top:
            var v = PlistValue.dictionary(storage.top)
            KeyedArchiveGraph.update(&v, location.steps[...], change)
            guard case .dictionary(let d) = v else { return }
            storage.recount(removing: .dictionary(storage.top), adding: v)
            storage.top = d
            storage.edited = true
        case .object(let uid):
            var v = storage.objects[uid]
            KeyedArchiveGraph.update(&v, location.steps[...], change)
            storage.replace(uid, with: v)
        }
    }

    /// Applies `change` to the value `steps` lead to inside `v` (nothing when they lead nowhere).
    static func update(
        _ v: inout PlistValue, _ steps: ArraySlice<Location.Step>, _ change: (inout PlistValue) -> Void
    ) {
        guard let step = steps.first else {
            change(&v)
            return
        }
        switch (step, v) {
        case (.key(let k), .dictionary(var d)):
            guard var x = d[k] else { return }
            update(&x, steps.dropFirst(), change)
            d[k] = x
            v = .dictionary(d)
        case (.index(let i), .array(var a)) where a.indices.contains(i):
            update(&a[i], steps.dropFirst(), change)
            v = .array(a)
        case (.index(let i), .set(var a)) where a.indices.contains(i):
            update(&a[i], steps.dropFirst(), change)
            v = .set(a)
        default:
            return
        }
    }

    /// A dictionary value with `key` set (kept in place, or added at the end) or removed (`nil`).
    static func setting(_ v: PlistValue, key: PlistValue, to value: PlistValue?) -> PlistValue {
        guard case .dictionary(var d) = v else { return v }
        d[key] = value
        return .dictionary(d)
    }

    /// An object's dictionary with its numbered members replaced.
    static func renumbering(_ v: PlistValue, prefix: String, _ members: [PlistValue]) -> PlistValue {
        guard case .dictionary(let d) = v else { return v }
        return .dictionary(renumbered(d, prefix: prefix, members))
    }

    /// A list with `member` added at the end.
    static func appending(_ v: PlistValue, _ member: PlistValue) -> PlistValue {
        switch v {
        case .array(let a): .array(a + [member])
        case .set(let a): .set(a + [member])
        default: v
        }
    }

    /// A list without its member `i`.
    static func removing(_ v: PlistValue, at i: Int) -> PlistValue {
        switch v {
        case .array(var a) where a.indices.contains(i):
            a.remove(at: i)
            return .array(a)
        case .set(var a) where a.indices.contains(i):
            a.remove(at: i)
            return .set(a)
        default:
            return v
        }
    }

    /// Brings the nodes up to date with the stored objects an edit changed or added.
    mutating func refreshNodes() {
        let touched = storage.touched
        storage.touched = []
        while nodes.count < storage.objects.count { nodes.append(.null) }
        for uid in touched.sorted() where uid < nodes.count {
            // The archiver wrote these objects, or an edit changed a field: they read as nodes.
            nodes[uid] = (try? KeyedArchiveGraph.makeNode(uid, storage.objects)) ?? .value(storage.objects[uid])
        }
    }

    /// After the last edit: `$top` as fields again, and the typed decoders reading the edited archive.
    mutating func finishEditing() {
        refreshNodes()
        top = storage.top.entries.compactMap { entry in
            entry.key.stringValue.map { Field(key: $0, value: entry.value) }
        }
        source = Source(edited: storage.archiveValue, source.limits)
    }

    /// A stored value as `AnyArchived`: UIDs through the unarchiver, inline values as they are.
    static func anyValue(_ v: PlistValue, decoder: KeyedUnarchiver, depth: Int) throws -> AnyArchived {
        try AnyArchived.converting(v, depth: depth) { u in try decoder.decodeObject(atUID: Int(clamping: u)) }
    }
}
