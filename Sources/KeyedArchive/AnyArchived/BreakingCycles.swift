// Sources/KeyedArchive/AnyArchived/BreakingCycles.swift - Freeing a decoded graph that refers to itself.
//
// `ArchivedInstance` is a class so that a shared object stays one instance and a cycle (a parent and
// its children pointing back) is representable. Swift frees objects by reference counting, so a
// cycle keeps itself alive after the last outside reference is gone: a server that reads untrusted
// archives in a loop would leak every cyclic one. `breakReferenceCycles()` empties the instances a
// value reaches, so the graph is freed when the caller lets go of it.

extension AnyArchived {
    /// Empties the fields and unkeyed values of every ``ArchivedInstance`` this value reaches,
    /// directly or through collections and attributed-string attributes, so that a graph with
    /// reference cycles is freed once nothing else holds it.
    ///
    /// Call it when you are done with a graph that may contain cycles (any graph decoded from input
    /// you did not write). Acyclic graphs are freed without it. Every instance reached is visited once
    /// (an explicit work list, no recursion), so the cost is linear in the graph.
    ///
    /// ```swift
    /// let value = try unarchiver.decode(AnyArchived.self, forKey: KeyedArchiver.rootObjectKey)
    /// defer { value.breakReferenceCycles() }
    /// ```
    public func breakReferenceCycles() {
        var instances: [ArchivedInstance] = []
        forEachInstance { instances.append($0) }
        for instance in instances {
            instance.fields = [:]
            instance.unkeyed = []
        }
    }
}

extension AnyArchived {
    /// Calls `body` once for each instance this value reaches, through collections, the typed
    /// classes' dictionaries and instances' fields; each instance once, however often it is named.
    /// Iterative: a deep or cyclic graph uses no call stack.
    func forEachInstance(_ body: (ArchivedInstance) -> Void) {
        var work: [AnyArchived] = [self]
        var seen: Set<ObjectIdentifier> = []
        while let value = work.popLast() {
            switch value {
            case .array(let xs), .orderedSet(let xs): work.append(contentsOf: xs)
            case .set(let xs): work.append(contentsOf: xs)
            case .dictionary(let d):
                for (k, v) in d {
                    work.append(k)
                    work.append(v)
                }
            case .attributedString(let s):
                for run in s.runs { work.append(contentsOf: run.attributes.values) }
            case .error(let e): work.append(contentsOf: e.userInfo.values)
            case .fontDescriptor(let d): work.append(contentsOf: d.attributes.values)
            case .paragraphStyle(let p):
                work.append(contentsOf: p.otherFields.values)
                work.append(contentsOf: (p.textBlocks ?? []) + (p.textLists ?? []))
                for tab in p.tabStops ?? [] { work.append(contentsOf: tab.otherFields.values) }
            case .object(let instance):
                guard seen.insert(ObjectIdentifier(instance)).inserted else { continue }
                body(instance)
                work.append(contentsOf: instance.fields.values)
                work.append(contentsOf: instance.unkeyed)
            default:
                continue
            }
        }
    }
}
