// Sources/KeyedArchive/Graph/KeyedArchiveGraph.swift - Any keyed archive as its object graph: to
// inspect, to edit by path, and to write back as it was.
//
// No Swift types are instantiated: every `$objects` entry becomes a node (plain value, class
// description, or object with class name, class chain and fields), UIDs stay references, so
// cycles and sharing are represented as they are in the file. The property list read is kept
// (GraphStorage.swift): edits change it in place (GraphEditing.swift, GraphImport.swift), and it is
// what is written back (GraphWriting.swift). `resolve` interprets the Foundation classes for
// display (GraphResolving.swift).

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Any keyed archive as its object graph: inspected without its classes, edited by path, and
/// written back as it was.
///
/// Every `$objects` entry is a node: a plain value, a class description, or an object with its
/// class name, class chain and fields. UIDs stay references, so shared objects and cycles (through
/// objects or through collections) are as they are in the file.
///
/// ```swift
/// var graph = try KeyedArchiveGraph(data)                  // binary, XML or JSON; plain, zlib or gzip
/// if case .object(let person) = graph.node(graph.root ?? 0) {
///     print(person.className, person.classChain, person.fields.map(\.key))
/// }
/// try graph.set("dark", at: "root.settings.theme")                 // a PlistKeyPath: `\.` escapes a dot
/// try graph.append("notes.txt", to: "root.recent")
/// let edited = try graph.encoded()                        // in the form it was read in
/// ```
///
/// Written back without edits, the archive is the property list it was read from: every object
/// keeps its UID, its class and class chain (an `NSMutableArray` stays one), its fields in their
/// order, its values without a key, and its identity (distinct objects stay distinct, shared ones
/// shared); so do dictionary and set orders, `$null`s and collections that contain themselves. An
/// edit changes only the value it names. <doc:EditingArchives> describes paths, edits and what may
/// still differ in the bytes.
public struct KeyedArchiveGraph: Sendable {
    /// An archived object (a dictionary with `$class`).
    public struct Object: Sendable, Hashable {
        /// The UID (index in `$objects`).
        public var uid: Int
        /// `$classname` of its class description.
        public var className: String
        /// `$classes`: the class and its superclasses.
        public var classChain: [String]
        /// `$classhints`, when present.
        public var classHints: [String]
        /// The fields in file order, keys unescaped (`$class` omitted). References are `.uid`.
        public var fields: [Field]
        /// The values the object encoded without a key (stored as `$0`, `$1`, …), in order.
        public var unkeyed: [PlistValue] = []

        /// The value of a field.
        public subscript(key: String) -> PlistValue? { fields.first { $0.key == key }?.value }

        /// UIDs this object refers to, in field order, then those of its values without a key
        /// (0 = `$null` omitted).
        public var references: [Int] {
            var out: [Int] = []
            for f in fields { KeyedArchiveGraph.collectUIDs(f.value, into: &out) }
            for v in unkeyed { KeyedArchiveGraph.collectUIDs(v, into: &out) }
            return out
        }
    }

    /// One field of an object.
    public struct Field: Sendable, Hashable {
        public var key: String
        public var value: PlistValue
    }

    /// One `$objects` entry.
    public enum Node: Sendable, Hashable {
        /// `$objects[0]`, the `$null` marker.
        case null
        /// A plain value stored directly (string, number, data…).
        case value(PlistValue)
        /// A class description (`$classname`, `$classes`).
        case classDescription(name: String, chain: [String])
        /// An object.
        case object(Object)
    }

    /// A resolved, display-oriented value: Foundation classes interpreted.
    public indirect enum Resolved: Sendable, Hashable {
        case null
        case value(PlistValue)
        case array([Resolved])
        case set([Resolved])
        /// An NSOrderedSet or NSMutableOrderedSet, in order.
        case orderedSet([Resolved])
        case dictionary([ResolvedEntry])
        case date(Date)
        case uuid(UUID)
        case url(String)
        case object(className: String, fields: [ResolvedField])
        /// A typed Foundation or AppKit value (NSColor, NSFont, NSAttributedString, NSIndexPath,
        /// NSValue, …): its archived class and the value itself, every field and nested value kept
        /// (``AnyArchived/typedDescription`` gives a short text of it for people).
        case typed(className: String, value: AnyArchived)
        /// A UID already being expanded on the current path (a cycle).
        case backReference(Int)
        /// Nesting deeper than the limit given to ``resolve(_:maxDepth:)``.
        case truncated(Int)
    }

    public struct ResolvedEntry: Sendable, Hashable {
        public var key: Resolved
        public var value: Resolved
    }

    public struct ResolvedField: Sendable, Hashable {
        public var key: String
        public var value: Resolved
    }

    /// `$top` entries in file order (values are usually `.uid`).
    public internal(set) var top: [Field]
    /// `$objects`, by UID.
    public internal(set) var nodes: [Node]
    /// The archive as stored: what is written back, and what edits change.
    var storage: GraphStorage
    /// The archive, for the typed decoders (one reference: the graph stays small to copy).
    var source: Source

    /// The form the archive was read in, and in which ``encoded()`` writes it back. Set it to convert.
    public var format: PlistFormat
    /// The compression envelope the archive was read in, and in which ``encoded()`` writes it back.
    public var compression: PlistCompression

    /// The UID under `$top.root`, if it is a UID.
    public var root: Int? {
        guard let v = top.first(where: { $0.key == ArchiveVocabulary.rootKey })?.value, case .uid(let u) = v else {
            return nil
        }
        return Int(u)
    }

    /// The node at a UID, or `nil` when out of range.
    public func node(_ uid: Int) -> Node? { nodes.indices.contains(uid) ? nodes[uid] : nil }

    /// Decodes the whole archive into nodes.
    ///
    /// - Parameters:
    ///   - data: The archive: a binary, XML or typed-JSON property list, in a zlib or gzip envelope or not.
    ///   - limits: Bounds for hostile input, as for ``KeyedUnarchiver``.
    ///   - allowedClasses: When given, an object of any other class is `classNotAllowed`.
    ///   - requiredTopKey: A `$top` key that must be present (default `"root"`; `nil` for none).
    /// - Throws: ``KeyedArchiveError``: the property-list layer's codes, `notAKeyedArchive`,
    ///   `keyNotFound` (no `requiredTopKey`), `badReference` (a UID outside `$objects` anywhere),
    ///   `corrupted` (`$class` not pointing at a class description, a dictionary without `$class`),
    ///   `classNotAllowed`.
    public init(
        _ data: Data, limits: KeyedArchiveLimits = .default, allowedClasses: Set<String>? = nil,
        requiredTopKey: String? = "root"
    ) throws(KeyedArchiveError) {
        self = try KeyedArchiveError.catching { () throws in
            try KeyedArchiveGraph(
                reading: data, limits: limits, allowedClasses: allowedClasses, requiredTopKey: requiredTopKey)
        }
    }

    /// ``init(_:limits:allowedClasses:requiredTopKey:)``.
    init(reading data: Data, limits: KeyedArchiveLimits, allowedClasses: Set<String>?, requiredTopKey: String?) throws {
        let doc: BinaryPlistDocument
        let form: (PlistFormat, PlistCompression)
        do {
            form = try KeyedArchiveGraph.sniff(data, limits: limits.plist)
            doc = try BinaryPlistDocument.openArchive(data, limits: limits.plist)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        _ = try KeyedUnarchiver.topLevel(doc)
        // Materialised once (shared sub-trees memoised, depth and node budgets enforced).
        let archive: PlistValue
        do {
            archive = try doc.value()
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        guard case .dictionary(let root) = archive, case .dictionary(let topDict)? = root[ArchiveVocabulary.topKey],
            case .array(let raw)? = root[ArchiveVocabulary.objectsKey]
        else {
            throw KeyedArchiveError(.notAKeyedArchive, "$top or $objects changed kind")
        }
        let count = raw.count
        var top: [Field] = []
        for (k, v) in topDict.entries {
            guard let key = k.stringValue else { continue }
            try KeyedArchiveGraph.checkUIDs(v, count: count, key: [key], uid: nil)
            top.append(Field(key: key, value: v))
        }
        if let requiredTopKey, !top.contains(where: { $0.key == requiredTopKey }) {
            throw KeyedArchiveError(.keyNotFound, keys: [requiredTopKey], "$top has no \"\(requiredTopKey)\"")
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        for uid in 0..<count {
            nodes.append(try KeyedArchiveGraph.makeNode(uid, raw, allowedClasses: allowedClasses))
        }
        self.top = top
        self.nodes = nodes
        self.storage = GraphStorage(archive: root, objects: raw, top: topDict)
        self.source = Source(doc, limits)
        (self.format, self.compression) = form
    }

    /// The node of `$objects[uid]`, its references checked.
    static func makeNode(_ uid: Int, _ raw: [PlistValue], allowedClasses: Set<String>? = nil) throws -> Node {
        let count = raw.count
        if uid == 0 { return .null }
        guard case .dictionary(let dict) = raw[uid] else { return .value(raw[uid]) }
        guard let cls = dict[ArchiveVocabulary.classKey] else {
            if let name = dict[ArchiveVocabulary.classNameKey]?.stringValue {
                return .classDescription(
                    name: name, chain: KeyedArchiveGraph.strings(dict[ArchiveVocabulary.classesKey]))
            }
            throw KeyedArchiveError(.corrupted, object: uid, "object \(uid) is a dictionary without $class")
        }
        guard case .uid(let cu) = cls, cu > 0, cu < UInt64(count) else {
            throw KeyedArchiveError(.badReference, object: uid, "$class of object \(uid) is not a UID inside $objects")
        }
        guard case .dictionary(let cd) = raw[Int(cu)], let name = cd[ArchiveVocabulary.classNameKey]?.stringValue
        else {
            throw KeyedArchiveError(
                .corrupted, object: uid, "$class of object \(uid) points at UID \(cu), which is not a class description"
            )
        }
        if let allowedClasses, !allowedClasses.contains(name) {
            throw KeyedArchiveError(
                .classNotAllowed, className: name, object: uid, "class \(name) is not in the allow-list")
        }
        var fields: [Field] = []
        var unkeyed: [(Int, PlistValue)] = []
        for (k, v) in dict.entries {
            guard let stored = k.stringValue else { continue }
            guard let key = ArchiveVocabulary.unescape(stored) else {
                if let n = KeyedArchiveGraph.unkeyedIndex(stored) {
                    try checkUIDs(v, count: count, key: [stored], uid: uid)
                    unkeyed.append((n, v))
                }
                continue
            }
            try checkUIDs(v, count: count, key: [key], uid: uid)
            fields.append(Field(key: key, value: v))
        }
        unkeyed.sort { $0.0 < $1.0 }
        for key in [ArchiveVocabulary.classesKey, "$classhints"] {
            guard let list = cd[key] else { continue }
            guard case .array(let names) = list, names.allSatisfy({ $0.stringValue != nil }) else {
                throw KeyedArchiveError(
                    .corrupted, className: name, object: Int(cu),
                    "\(key) of the class description at UID \(cu) is not an array of strings")
            }
        }
        let chain = KeyedArchiveGraph.strings(cd[ArchiveVocabulary.classesKey])
        return .object(
            Object(
                uid: uid, className: name, classChain: chain.isEmpty ? [name] : chain,
                classHints: KeyedArchiveGraph.strings(cd["$classhints"]), fields: fields, unkeyed: unkeyed.map(\.1)))
    }

    /// Throws `badUID` when a value holds a UID outside `$objects`.
    static func checkUIDs(_ v: PlistValue, count: Int, key: [String], uid: Int?) throws {
        var uids: [Int] = []
        KeyedArchiveGraph.collectUIDs(v, into: &uids, limit: count)
        if let bad = uids.first(where: { $0 >= count }) {
            throw KeyedArchiveError(
                .badReference, keys: key, object: bad, "UID \(bad) is outside $objects (\(count) entries)")
        }
    }

    /// The object at `uid` decoded by the unarchiver's typed decoders when its class is a typed
    /// Foundation or AppKit value class (NSColor, NSFont, NSAttributedString, NSIndexPath,
    /// NSIndexSet, NSValue geometry, NSLocale, NSTimeZone, NSRegularExpression, NSNull); `nil`
    /// for other classes or an object those decoders cannot read.
    ///
    /// - Parameters:
    ///   - uid: The object's UID.
    ///   - unarchiver: An unarchiver of the same archive to decode with; pass one when asking for
    ///     many objects (each call without one opens the archive again).
    public func typedValue(at uid: Int, using unarchiver: KeyedUnarchiver? = nil) -> AnyArchived? {
        guard case .object(let o)? = node(uid), AnyArchived.typedValueClasses[o.className] != nil,
            let decoder = unarchiver ?? source.unarchiver(),
            let value = try? decoder.decodeObject(atUID: uid), value.typedClassName != nil
        else { return nil }
        return value
    }

    /// The object at `uid` read by the unarchiver's decoders when its class is one of Foundation's
    /// plain value classes: NSDate (`.date`), NSUUID (`.uuid`), NSURL, relative to its base
    /// (`.url`), NSString and NSData and their subclasses (`.string`, `.data`), NSNull (`.nsNull`);
    /// `nil` for other classes or an object those decoders reject. The graph, `bplist unarchive` and
    /// ``AnyArchived`` read these classes through this one interpretation.
    ///
    /// - Parameters:
    ///   - uid: The object's UID.
    ///   - unarchiver: An unarchiver of the same archive to decode with (see ``typedValue(at:using:)``).
    public func foundationValue(at uid: Int, using unarchiver: KeyedUnarchiver? = nil) -> AnyArchived? {
        guard case .object(let o)? = node(uid) else { return nil }
        let plainClasses: Set<String> = [
            "NSDate", "NSUUID", "NSURL", "NSNull", "NSString", "NSMutableString", "NSData", "NSMutableData",
        ]
        guard plainClasses.contains(o.className) || o.classChain.contains("NSString") || o.classChain.contains("NSData")
        else { return nil }
        guard let decoder = unarchiver ?? source.unarchiver(),
            let value = try? decoder.decodeObject(atUID: uid)
        else { return nil }
        switch value {
        case .date, .uuid, .url, .string, .data, .nsNull: return value
        default: return nil
        }
    }

    /// The path being resolved (for cycles) and one unarchiver for the typed values met.
    struct ResolvePath {
        var uids = Set<Int>()
        var decoder: KeyedUnarchiver?
        mutating func insert(_ uid: Int) -> (inserted: Bool, memberAfterInsert: Int) { uids.insert(uid) }
        mutating func remove(_ uid: Int) { uids.remove(uid) }
    }

    static func strings(_ v: PlistValue?) -> [String] {
        guard case .array(let a)? = v else { return [] }
        return a.compactMap(\.stringValue)
    }

    /// Collects UIDs in a value (iteratively), stopping early once a bad one is seen.
    static func collectUIDs(_ v: PlistValue, into out: inout [Int], limit: Int = .max) {
        var stack = [v]
        while let x = stack.popLast() {
            switch x {
            case .uid(let u):
                let i = Int(clamping: u)
                if i != 0 { out.append(i) }
                if i >= limit { return }
            case .array(let a), .set(let a): stack.append(contentsOf: a.reversed())
            case .dictionary(let d): stack.append(contentsOf: d.values.reversed())
            default: break
            }
        }
    }
}
