// Sources/KeyedArchive/Graph/KeyedArchiveGraph.swift - Any keyed archive as an inspectable object graph.
//
// No Swift types are instantiated: every `$objects` entry becomes a node (plain value, class
// description, or object with class name, class chain and fields), UIDs stay references, so
// cycles and sharing are represented as they are in the file. `resolve` then interprets the
// Foundation classes (NSArray, NSDictionary, NSDate, …) into a tree for display, bounded in depth
// and marking back-references instead of following cycles.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A keyed archive of unknown classes, decoded into nodes for tools (`bplist unarchive`).
///
/// ```swift
/// let graph = try KeyedArchiveGraph(data)
/// if case .object(let person) = graph.node(graph.root ?? 0) {
///     print(person.className, person.classChain, person.fields.map(\.key))
/// }
/// ```
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

        /// The value of a field.
        public subscript(key: String) -> PlistValue? { fields.first { $0.key == key }?.value }

        /// UIDs this object refers to, in field order (0 = `$null` omitted).
        public var references: [Int] {
            var out: [Int] = []
            for f in fields { KeyedArchiveGraph.collectUIDs(f.value, into: &out) }
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
        case dictionary([ResolvedEntry])
        case date(Date)
        case uuid(UUID)
        case url(String)
        case object(className: String, fields: [ResolvedField])
        /// A typed Foundation or AppKit value (NSColor, NSFont, NSIndexPath, NSValue, …) as
        /// ``AnyArchived/typedDescription`` shows it.
        case typed(className: String, text: String)
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
    public let top: [Field]
    /// `$objects`, by UID.
    public let nodes: [Node]
    /// The archive, for the typed decoders (one reference: the graph stays small to copy).
    let source: Source

    final class Source: Sendable {
        let document: BinaryPlistDocument
        let limits: KeyedUnarchiver.Limits
        init(_ document: BinaryPlistDocument, _ limits: KeyedUnarchiver.Limits) {
            self.document = document
            self.limits = limits
        }
    }

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
    ///   - data: The archive: a binary property list (plain or in a zlib/gzip envelope) or an XML one.
    ///   - limits: Bounds for hostile input, as for ``KeyedUnarchiver``.
    ///   - allowedClasses: When given, an object of any other class is `classNotAllowed`.
    ///   - requiredTopKey: A `$top` key that must be present (default `"root"`; `nil` for none).
    /// - Throws: ``KeyedArchiveError``: `plist`, `notAKeyedArchive`, `missingKey`, `badUID` (a UID
    ///   outside `$objects` anywhere), `corrupted` (`$class` not pointing at a class description,
    ///   a dictionary without `$class`), `classNotAllowed`.
    public init(
        _ data: Data, limits: KeyedUnarchiver.Limits = KeyedUnarchiver.Limits(), allowedClasses: Set<String>? = nil,
        requiredTopKey: String? = "root"
    ) throws {
        let doc: BinaryPlistDocument
        do {
            doc = try BinaryPlistDocument.openArchive(data, limits: limits.plist)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
        let parts = try KeyedUnarchiver.topLevel(doc)
        func value(_ ref: ObjectRef, uid: Int?) throws -> PlistValue {
            do {
                return try doc.value(of: ref)
            } catch {
                throw KeyedArchiveError(plist: error, uid: uid)
            }
        }
        let count = parts.objects.count
        func checkUIDs(_ v: PlistValue, key: [String], uid: Int?) throws {
            var uids: [Int] = []
            KeyedArchiveGraph.collectUIDs(v, into: &uids, limit: count)
            if let bad = uids.first(where: { $0 >= count }) {
                throw KeyedArchiveError(
                    .badUID, keyPath: key, uid: bad, "UID \(bad) is outside $objects (\(count) entries)")
            }
        }
        // Materialised once each (shared sub-trees memoised, depth and node budgets enforced).
        guard case .dictionary(let topDict) = try value(parts.topRef, uid: nil),
            case .array(let raw) = try value(parts.objectsRef, uid: nil), raw.count == count
        else {
            throw KeyedArchiveError(.notAKeyedArchive, "$top or $objects changed kind")
        }
        var top: [Field] = []
        for (k, v) in topDict.entries {
            guard let key = k.stringValue else { continue }
            try checkUIDs(v, key: [key], uid: nil)
            top.append(Field(key: key, value: v))
        }
        if let requiredTopKey, !top.contains(where: { $0.key == requiredTopKey }) {
            throw KeyedArchiveError(.missingKey, keyPath: [requiredTopKey], "$top has no \"\(requiredTopKey)\"")
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        for uid in 0..<count {
            if uid == 0 {
                nodes.append(.null)
                continue
            }
            guard case .dictionary(let dict) = raw[uid] else {
                nodes.append(.value(raw[uid]))
                continue
            }
            guard let cls = dict[ArchiveVocabulary.classKey] else {
                if let name = dict[ArchiveVocabulary.classNameKey]?.stringValue {
                    nodes.append(
                        .classDescription(
                            name: name, chain: KeyedArchiveGraph.strings(dict[ArchiveVocabulary.classesKey])))
                    continue
                }
                throw KeyedArchiveError(.corrupted, uid: uid, "object \(uid) is a dictionary without $class")
            }
            guard case .uid(let cu) = cls, cu > 0, cu < UInt64(count) else {
                throw KeyedArchiveError(.badUID, uid: uid, "$class of object \(uid) is not a UID inside $objects")
            }
            guard case .dictionary(let cd) = raw[Int(cu)], let name = cd[ArchiveVocabulary.classNameKey]?.stringValue
            else {
                throw KeyedArchiveError(
                    .corrupted, uid: uid,
                    "$class of object \(uid) points at UID \(cu), which is not a class description")
            }
            if let allowedClasses, !allowedClasses.contains(name) {
                throw KeyedArchiveError(
                    .classNotAllowed, className: name, uid: uid, "class \(name) is not in the allow-list")
            }
            var fields: [Field] = []
            for (k, v) in dict.entries {
                guard let stored = k.stringValue, let key = ArchiveVocabulary.unescape(stored) else { continue }
                try checkUIDs(v, key: [key], uid: uid)
                fields.append(Field(key: key, value: v))
            }
            for key in [ArchiveVocabulary.classesKey, "$classhints"] {
                guard let list = cd[key] else { continue }
                guard case .array(let names) = list, names.allSatisfy({ $0.stringValue != nil }) else {
                    throw KeyedArchiveError(
                        .corrupted, className: name, uid: Int(cu),
                        "\(key) of the class description at UID \(cu) is not an array of strings")
                }
            }
            let chain = KeyedArchiveGraph.strings(cd[ArchiveVocabulary.classesKey])
            nodes.append(
                .object(
                    Object(
                        uid: uid, className: name, classChain: chain.isEmpty ? [name] : chain,
                        classHints: KeyedArchiveGraph.strings(cd["$classhints"]), fields: fields)))
        }
        self.top = top
        self.nodes = nodes
        self.source = Source(doc, limits)
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
            let decoder = unarchiver ?? (try? KeyedUnarchiver(document: source.document, limits: source.limits)),
            let value = try? decoder.decodeObject(atUID: uid), value.typedDescription != nil
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
        guard let decoder = unarchiver ?? (try? KeyedUnarchiver(document: source.document, limits: source.limits)),
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

    // MARK: - Resolving

    /// Interprets a value (a field, a `$top` entry, or `.uid(n)`) with the Foundation classes
    /// understood: NSArray/NSSet/NSDictionary (and mutable forms), NSDate, NSUUID, NSURL,
    /// NSString/NSData wrappers. Other objects become `.object` with resolved fields.
    public func resolve(_ value: PlistValue, maxDepth: Int = 64) -> Resolved {
        var onPath = ResolvePath(decoder: try? KeyedUnarchiver(document: source.document, limits: source.limits))
        return resolve(value, depth: 0, maxDepth: maxDepth, onPath: &onPath)
    }

    /// Resolves the root object.
    public func resolvedRoot(maxDepth: Int = 64) -> Resolved {
        guard let root else { return .null }
        return resolve(.uid(UInt64(root)), maxDepth: maxDepth)
    }

    private func resolve(_ value: PlistValue, depth: Int, maxDepth: Int, onPath: inout ResolvePath) -> Resolved {
        guard depth <= maxDepth else {
            if case .uid(let u) = value { return .truncated(Int(clamping: u)) }
            return .truncated(-1)
        }
        switch value {
        case .uid(let u):
            let uid = Int(clamping: u)
            guard uid != 0, let node = node(uid) else { return .null }
            switch node {
            case .null: return .null
            case .value(let v): return resolve(v, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath)
            case .classDescription(let name, _): return .value(.string(name))
            case .object(let o):
                guard onPath.insert(uid).inserted else { return .backReference(uid) }
                defer { onPath.remove(uid) }
                return resolveObject(o, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath)
            }
        case .array(let a):
            return .array(a.map { resolve($0, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath) })
        case .set(let a):
            return .set(a.map { resolve($0, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath) })
        case .dictionary(let d):
            return .dictionary(
                d.entries.map {
                    ResolvedEntry(
                        key: resolve($0.key, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath),
                        value: resolve($0.value, depth: depth + 1, maxDepth: maxDepth, onPath: &onPath))
                })
        case .string(let s) where s == ArchiveVocabulary.null: return .null
        default: return .value(value)
        }
    }

    private func resolveObject(_ o: Object, depth: Int, maxDepth: Int, onPath: inout ResolvePath) -> Resolved {
        func r(_ v: PlistValue?) -> Resolved {
            guard let v else { return .null }
            return resolve(v, depth: depth, maxDepth: maxDepth, onPath: &onPath)
        }
        func list(_ v: PlistValue?) -> [Resolved]? {
            guard case .array(let a)? = v else { return nil }
            return a.map { resolve($0, depth: depth, maxDepth: maxDepth, onPath: &onPath) }
        }
        if o.className == "NSNull" { return .null }
        if let typed = typedValue(at: o.uid, using: onPath.decoder)?.typedDescription {
            return .typed(className: typed.className, text: typed.text)
        }
        let chain = Set(o.classChain + [o.className])
        if chain.contains("NSDictionary"), let ks = list(o["NS.keys"]), let vs = list(o["NS.objects"]),
            ks.count == vs.count
        {
            return .dictionary(zip(ks, vs).map { ResolvedEntry(key: $0, value: $1) })
        }
        if chain.contains("NSArray") || chain.contains("NSOrderedSet"), let xs = list(o["NS.objects"]) {
            return .array(xs)
        }
        if chain.contains("NSSet"), let xs = list(o["NS.objects"]) { return .set(xs) }
        // NSDate, NSUUID, NSURL, NSString, NSData: the unarchiver's decoders, the one reading of them.
        switch foundationValue(at: o.uid, using: onPath.decoder) {
        case .date(let d)?: return .date(d)
        case .uuid(let u)?: return .uuid(u)
        case .url(let u)?: return .url(u.absoluteString)
        case .string(let s)?: return .value(.string(s))
        case .data(let d)?: return .value(.data(d))
        case .nsNull?: return .null
        default: break
        }
        return .object(className: o.className, fields: o.fields.map { ResolvedField(key: $0.key, value: r($0.value)) })
    }
}
