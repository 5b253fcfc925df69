// Tests/TypedStreamTests/Support/SameGraph.swift - Two decoded values with the same shape: instances
// paired one to one (their equality is identity), reals by bit pattern.

import Foundation
import KeyedArchive

/// Whether `a` and `b` are the same graph.
func sameGraph(_ a: AnyArchived, _ b: AnyArchived) -> Bool {
    var pairs: [ObjectIdentifier: ObjectIdentifier] = [:]
    return sameGraph(a, b, &pairs)
}

func sameGraph(_ a: AnyArchived, _ b: AnyArchived, _ pairs: inout [ObjectIdentifier: ObjectIdentifier]) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
        if let paired = pairs[ObjectIdentifier(x)] { return paired == ObjectIdentifier(y) }
        pairs[ObjectIdentifier(x)] = ObjectIdentifier(y)
        guard x.className == y.className, x.classChain == y.classChain, x.classVersions == y.classVersions,
            x.unkeyed.count == y.unkeyed.count, x.fields.isEmpty, y.fields.isEmpty
        else { return false }
        for (p, q) in zip(x.unkeyed, y.unkeyed) where !sameGraph(p, q, &pairs) { return false }
        return true
    case (.array(let x), .array(let y)):
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where !sameGraph(p, q, &pairs) { return false }
        return true
    case (.dictionary(let x), .dictionary(let y)):
        // Keys compared as values (the streams compared here key by strings and numbers).
        guard x.count == y.count else { return false }
        for (k, v) in x {
            guard let w = y[k], sameGraph(v, w, &pairs) else { return false }
        }
        return true
    case (.real(let x), .real(let y)):
        return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    default:
        return a == b
    }
}

/// Whether two lists of decoded values are the same graphs (instances paired across the lists).
func sameGraphs(_ a: [AnyArchived], _ b: [AnyArchived]) -> Bool {
    guard a.count == b.count else { return false }
    var pairs: [ObjectIdentifier: ObjectIdentifier] = [:]
    for (p, q) in zip(a, b) where !sameGraph(p, q, &pairs) { return false }
    return true
}
