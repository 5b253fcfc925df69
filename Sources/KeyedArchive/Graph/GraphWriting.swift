// Sources/KeyedArchive/Graph/GraphWriting.swift - Writing a graph back: the archive's property list
// as stored, in the form it was read in.
//
// Without edits, the property list written is the one read: the same `$objects` in the same order
// (so every UID is the same), the same keys in the same order in every dictionary, the same `$top`,
// `$archiver`, `$version` and any other root key. After edits, the entries no longer reachable from
// `$top` because of them are dropped and the UIDs after them move down (entries that nothing
// reached before the edits stay, as they were). In the binary form every dictionary of `$objects`
// is its own object in the file, even when equal to another, as Apple's writer leaves them.

@_spi(Internals) public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension KeyedArchiveGraph {
    /// The archive in the ``format`` and ``compression`` it was read in (or set since): the object
    /// graph as read, with the edits applied.
    ///
    /// - Throws: ``KeyedArchiveError`` with the property-list writer's code (`unencodable` for the
    ///   XML form: a dictionary key that is not a string, a string XML cannot hold).
    public func encoded() throws(KeyedArchiveError) -> Data {
        try encoded(as: format, compression: compression)
    }

    /// The archive in a given form and envelope.
    ///
    /// - Parameters:
    ///   - format: Binary (as `NSKeyedArchiver` writes by default), XML (UIDs as `CF$UID`
    ///     dictionaries, as `NSKeyedArchiver` writes with `outputFormat = .xml`) or JSON (typed JSON,
    ///     UIDs as `{"$uid": n}`); OpenStep cannot hold an archive and throws `unencodable`.
    ///   - compression: A zlib or gzip envelope around it (default none).
    public func encoded(as format: PlistFormat, compression: PlistCompression = .none) throws(KeyedArchiveError)
        -> Data
    {
        let (objects, top) = try KeyedArchiveError.catching { () throws in try written() }
        do {
            let plain: Data
            switch format {
            case .binary:
                plain = try KeyedArchiveGraph.binary(storage.archive, objects, top)
            case .xml, .openStep, .json:
                plain = try KeyedArchiveGraph.archive(storage.archive, objects, top).encoded(as: format)
            }
            return try compression.wrap(plain, level: -1)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
    }

    /// Reads the archive in a file (see ``init(_:limits:allowedClasses:requiredTopKey:)``).
    ///
    /// - Throws: `io` when the file cannot be read, else what reading the
    ///   archive throws.
    public init(
        contentsOf url: URL, limits: KeyedArchiveLimits = .default,
        allowedClasses: Set<String>? = nil, requiredTopKey: String? = "root"
    ) throws(KeyedArchiveError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw KeyedArchiveError(.io, "reading \(url.lastPathComponent) failed: \(error)")
        }
        try self.init(data, limits: limits, allowedClasses: allowedClasses, requiredTopKey: requiredTopKey)
    }

    /// Writes the archive (``encoded()``) to a file atomically and durably: the file is either as it
    /// was or the complete new archive, never a partial write (a symbolic link keeps pointing at it,
    /// its mode is kept).
    ///
    /// - Throws: What ``encoded()`` throws (the file is untouched), or `io` naming the file and the
    ///   cause (the file is untouched).
    public func write(to url: URL) throws(KeyedArchiveError) {
        try KeyedArchiver.writeAtomically(try encoded(), to: url)
    }

    /// Reads an archive, applies edits and writes it back in the form it came in: the one call for a
    /// tool that edits archives given as bytes.
    ///
    /// ```swift
    /// let edited = try KeyedArchiveGraph.applying([.set("dark", at: "root.settings.theme")], to: data)
    /// ```
    ///
    /// - Parameters:
    ///   - edits: The changes, in order (see ``apply(_:sharedObjects:)``).
    ///   - data: A keyed archive in any form (binary, XML, JSON), in a compression envelope or not.
    ///   - limits: Bounds for hostile input, as for ``KeyedUnarchiver``.
    ///   - sharedObjects: Whether a path may pass through a shared object.
    /// - Returns: The edited archive, in the form of `data`.
    /// - Throws: ``KeyedArchiveError``: what reading the archive, applying the edits or writing it
    ///   throws.
    public static func applying(
        _ edits: [PlistEdit<AnyArchived>], to data: Data, limits: KeyedArchiveLimits = .default,
        sharedObjects: SharedObjects = .edit
    ) throws(KeyedArchiveError) -> Data {
        var graph = try KeyedArchiveGraph(data, limits: limits, requiredTopKey: nil)
        try graph.apply(edits, sharedObjects: sharedObjects)
        return try graph.encoded()
    }

    /// Whether `data` is a keyed archive this type reads (any form or envelope, with
    /// `$archiver` `NSKeyedArchiver`): how a tool decides between editing a plain property list and
    /// editing an archive's object graph. Reads no more than the archive's root dictionary.
    public static func isKeyedArchive(_ data: Data, limits: KeyedArchiveLimits = .default) -> Bool {
        guard let document = try? BinaryPlistDocument.openArchive(data, limits: limits.plist) else { return false }
        return (try? KeyedUnarchiver.topLevel(document)) != nil
    }

    // MARK: - Internals

    /// `$objects` and `$top` as written: unchanged without edits; after edits, without the entries
    /// they made unreachable, UIDs moved down over them.
    func written() throws -> (objects: [PlistValue], top: PlistDictionary) {
        guard storage.edited else { return (storage.objects, storage.top) }
        let count = storage.objects.count
        var keep = [Bool](repeating: false, count: count)
        var work: [Int] = []
        func reach(_ v: PlistValue) {
            for u in GraphStorage.uids(in: v) where u < count && !keep[u] {
                keep[u] = true
                work.append(u)
            }
        }
        if count > 0 { keep[0] = true }
        reach(.dictionary(storage.top))
        // What no path reached before the edits is not part of the graph; the archive keeps it.
        if case .array(let original)? = storage.archive[ArchiveVocabulary.objectsKey],
            case .dictionary(let originalTop)? = storage.archive[ArchiveVocabulary.topKey]
        {
            let before = KeyedArchiveGraph.reachable(original, from: originalTop)
            for u in before.indices where !before[u] && u < count && !keep[u] {
                keep[u] = true
                work.append(u)
            }
        }
        while let u = work.popLast() { reach(storage.objects[u]) }
        guard keep.contains(false) else { return (storage.objects, storage.top) }
        var map = [Int](repeating: -1, count: count)
        var objects: [PlistValue] = []
        for u in 0..<count where keep[u] {
            map[u] = objects.count
            objects.append(storage.objects[u])
        }
        for i in objects.indices { objects[i] = try KeyedArchiveGraph.movingUIDs(objects[i], map) }
        guard case .dictionary(let top) = try KeyedArchiveGraph.movingUIDs(.dictionary(storage.top), map) else {
            return (objects, storage.top)
        }
        return (objects, top)
    }

    /// Which entries of `objects` `$top` reaches (entry 0, `$null`, counts as reached).
    static func reachable(_ objects: [PlistValue], from top: PlistDictionary) -> [Bool] {
        var seen = [Bool](repeating: false, count: objects.count)
        if !seen.isEmpty { seen[0] = true }
        var work: [Int] = []
        func reach(_ v: PlistValue) {
            for u in GraphStorage.uids(in: v) where u < seen.count && !seen[u] {
                seen[u] = true
                work.append(u)
            }
        }
        reach(.dictionary(top))
        while let u = work.popLast() { reach(objects[u]) }
        return seen
    }

    /// The root dictionary with `$objects` and `$top` replaced (keys where they were).
    static func archive(_ root: PlistDictionary, _ objects: [PlistValue], _ top: PlistDictionary) -> PlistValue {
        var d = root
        d[ArchiveVocabulary.objectsKey] = .array(objects)
        d[ArchiveVocabulary.topKey] = .dictionary(top)
        return .dictionary(d)
    }

    /// The binary form: equal scalars and inline values once, each dictionary of `$objects` (every
    /// archived object and class description) as an object of its own.
    static func binary(_ root: PlistDictionary, _ objects: [PlistValue], _ top: PlistDictionary) throws(PlistError)
        -> Data
    {
        var builder = ObjectTableBuilder()
        var refs: [BuilderRef] = []
        refs.reserveCapacity(objects.count)
        for entry in objects {
            guard case .dictionary(let d) = entry else {
                refs.append(try builder.add(entry))
                continue
            }
            var keys: [BuilderRef] = []
            var values: [BuilderRef] = []
            keys.reserveCapacity(d.count)
            values.reserveCapacity(d.count)
            for e in d.entries {
                keys.append(try builder.add(e.key))
                values.append(try builder.add(e.value))
            }
            refs.append(try builder.addDistinctDictionary(keys: keys, values: values))
        }
        let objectsRef = try builder.addArray(refs)
        let topRef = try builder.add(.dictionary(top))
        var keys: [BuilderRef] = []
        var values: [BuilderRef] = []
        for e in root.entries {
            keys.append(try builder.add(e.key))
            switch e.key.stringValue {
            case ArchiveVocabulary.objectsKey?: values.append(objectsRef)
            case ArchiveVocabulary.topKey?: values.append(topRef)
            default: values.append(try builder.add(e.value))
            }
        }
        let root = try builder.addDictionary(keys: keys, values: values)
        return try builder.finish(root: root)
    }
}
