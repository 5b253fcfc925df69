// Sources/KeyedArchiveTestSupport/SameGraph.swift - Two decoded values with the same shape: instances
// paired one to one (their equality is identity), reals by bit pattern.

public import KeyedArchive

/// Whether `a` and `b` are the same graph: every instance of one is paired with exactly one of the
/// other (an instance met twice is the same partner both times, and two are never one), paired
/// instances have the same class, class chain and versions, the same keyed fields and the same
/// unkeyed values in order; arrays and ordered sets are the same in order, dictionaries key by key
/// (keys compared as values), reals by bit pattern (any NaN matches any NaN), anything else by `==`.
public func sameGraph(_ a: AnyArchived, _ b: AnyArchived) -> Bool {
    var pairs = InstancePairs()
    return pairs.same(a, b)
}

/// Whether two lists of decoded values are the same graphs (instances paired across the lists).
public func sameGraphs(_ a: [AnyArchived], _ b: [AnyArchived]) -> Bool {
    guard a.count == b.count else { return false }
    var pairs = InstancePairs()
    for (p, q) in zip(a, b) where !pairs.same(p, q) { return false }
    return true
}

/// The instances of the first graph paired with the second's, both ways.
private struct InstancePairs {
    var forward: [ObjectIdentifier: ObjectIdentifier] = [:]
    var backward: Set<ObjectIdentifier> = []

    mutating func same(_ a: AnyArchived, _ b: AnyArchived) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            if let paired = forward[ObjectIdentifier(x)] { return paired == ObjectIdentifier(y) }
            guard backward.insert(ObjectIdentifier(y)).inserted else { return false }
            forward[ObjectIdentifier(x)] = ObjectIdentifier(y)
            guard x.className == y.className, x.classChain == y.classChain, x.classVersions == y.classVersions,
                x.unkeyed.count == y.unkeyed.count, x.fields.keys.sorted() == y.fields.keys.sorted()
            else { return false }
            for (p, q) in zip(x.unkeyed, y.unkeyed) where !same(p, q) { return false }
            for (k, p) in x.fields {
                guard let q = y.fields[k], same(p, q) else { return false }
            }
            return true
        case (.array(let x), .array(let y)), (.orderedSet(let x), .orderedSet(let y)):
            guard x.count == y.count else { return false }
            for (p, q) in zip(x, y) where !same(p, q) { return false }
            return true
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            for (k, v) in x {
                guard let w = y[k], same(v, w) else { return false }
            }
            return true
        case (.real(let x), .real(let y)):
            return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        default:
            return a == b
        }
    }
}
