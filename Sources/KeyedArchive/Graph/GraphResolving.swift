// Sources/KeyedArchive/Graph/GraphResolving.swift - A graph value interpreted for display: the
// Foundation classes read as arrays, sets, ordered sets, dictionaries and values, bounded in depth,
// with back-references instead of cycles.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedArchiveGraph {
    /// Interprets a value (a field, a `$top` entry, or `.uid(n)`) with the Foundation classes
    /// understood: NSArray/NSSet/NSDictionary (and mutable forms), NSDate, NSUUID, NSURL,
    /// NSString/NSData wrappers. Other objects become `.object` with resolved fields.
    public func resolve(_ value: PlistValue, maxDepth: Int = 64) -> Resolved {
        var onPath = ResolvePath(decoder: source.unarchiver())
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
        if let typed = typedValue(at: o.uid, using: onPath.decoder), let className = typed.typedClassName {
            return .typed(className: className, value: typed)
        }
        let chain = Set(o.classChain + [o.className])
        if chain.contains("NSDictionary"), let ks = list(o["NS.keys"]), let vs = list(o["NS.objects"]),
            ks.count == vs.count
        {
            return .dictionary(zip(ks, vs).map { ResolvedEntry(key: $0, value: $1) })
        }
        if chain.contains("NSOrderedSet"), let refs = KeyedArchiveGraph.orderedSetMembers(o) {
            return .orderedSet(refs.map { resolve($0, depth: depth, maxDepth: maxDepth, onPath: &onPath) })
        }
        if chain.contains("NSArray"), let xs = list(o["NS.objects"]) {
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
        var fields = o.fields.map { ResolvedField(key: $0.key, value: r($0.value)) }
        for (n, value) in o.unkeyed.enumerated() { fields.append(ResolvedField(key: "$\(n)", value: r(value))) }
        return .object(className: o.className, fields: fields)
    }
}

extension KeyedArchiveGraph {
    /// The elements of an NSOrderedSet object: `NS.objects`, or Apple's one key per element,
    /// `NS.object.0`, `NS.object.1`, … (numbered without a gap); `nil` for neither.
    package static func orderedSetMembers(_ o: Object) -> [PlistValue]? {
        if case .array(let xs)? = o["NS.objects"] { return xs }
        var numbered: [(Int, PlistValue)] = []
        for field in o.fields where field.key.hasPrefix("NS.object.") {
            guard let n = Int(field.key.dropFirst(10)), n >= 0 else { continue }
            numbered.append((n, field.value))
        }
        numbered.sort { $0.0 < $1.0 }
        guard numbered.indices.allSatisfy({ numbered[$0].0 == $0 }) else { return nil }
        return numbered.map(\.1)
    }
}
