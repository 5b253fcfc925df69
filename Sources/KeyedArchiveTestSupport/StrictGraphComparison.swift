// Sources/KeyedArchiveTestSupport/StrictGraphComparison.swift - "The same object graph, node by
// node", decided on the raw property lists of two keyed archives, with nothing forgiven.
//
// Unlike `ArchiveGraphEquivalence` (which compares the Foundation classes as values, mutable and
// immutable alike, and sets and dictionaries in any order), this comparison pairs every `$objects`
// entry reached from `$top` in one archive with exactly one in the other (a bijection: an entry
// reached twice is the same entry of the other both times, and two entries are never one), and asks
// of each pair:
// - an object: the same `$classname`, `$classes` and `$classhints`, the same stored keys in the same
//   order (`$class` aside; `$0`, `$1`, … included), with equivalent values;
// - a plain value (string, number, data, date, array, dictionary): equal, containers in order;
// inline values anywhere: equal (reals by bit pattern), containers in order, UIDs paired. So
// mutability (the class chain), identity (the pairing), NSArray / NSSet / NSOrderedSet member order
// and NSDictionary entry order (the `NS.keys` and `NS.objects` lists) all count.

public import Foundation
public import PropertyList

public struct StrictGraphComparison {
    typealias Side = KeyedArchivePlist
    public typealias Failure = GraphMismatch

    let a: Side
    let b: Side
    var forward: [Int: Int] = [:]
    var backward: [Int: Int] = [:]
    /// Pairs still to compare.
    var work: [(Int, Int, String)] = []

    init(_ first: Data, _ second: Data) throws {
        a = try Side(first)
        b = try Side(second)
    }

    /// The number of `$objects` entries paired when the graphs are the same; throws the first
    /// difference otherwise.
    public static func compare(_ first: Data, _ second: Data) throws -> Int {
        var c = try StrictGraphComparison(first, second)
        try c.run()
        return c.forward.count
    }

    mutating func run() throws {
        let ka = a.top.entries.map(\.key)
        let kb = b.top.entries.map(\.key)
        guard ka == kb else { throw Failure("$top keys \(ka) against \(kb)") }
        for (x, y) in zip(a.top.entries, b.top.entries) {
            try inline(x.value, y.value, path: x.key.stringValue ?? "?")
        }
        while let (u, v, path) = work.popLast() { try entries(u, v, path: path) }
    }

    /// Two UIDs: paired, or pairs them (and queues the pair).
    mutating func pair(_ u: Int, _ v: Int, path: String) throws {
        guard u < a.objects.count, v < b.objects.count else { throw Failure("\(path): a UID outside $objects") }
        if let p = forward[u] {
            guard p == v else { throw Failure("\(path): UID \(u) was paired with \(p), now with \(v) (sharing lost)") }
            return
        }
        if let q = backward[v] {
            throw Failure("\(path): UID \(v) stands for both \(q) and \(u) (distinct objects merged)")
        }
        forward[u] = v
        backward[v] = u
        work.append((u, v, path))
    }

    /// Two inline values (or the contents of two paired entries).
    mutating func inline(_ x: PlistValue, _ y: PlistValue, path: String) throws {
        switch (x, y) {
        case (.uid(let u), .uid(let v)):
            try pair(Int(clamping: u), Int(clamping: v), path: path)
        case (.array(let p), .array(let q)), (.set(let p), .set(let q)):
            guard p.count == q.count else { throw Failure("\(path): \(p.count) members against \(q.count)") }
            for i in p.indices { try inline(p[i], q[i], path: "\(path).\(i)") }
        case (.dictionary(let p), .dictionary(let q)):
            let kp = p.entries.map(\.key)
            let kq = q.entries.map(\.key)
            guard kp == kq else { throw Failure("\(path): keys \(kp) against \(kq) (in order)") }
            for (e, f) in zip(p.entries, q.entries) {
                try inline(e.value, f.value, path: "\(path).\(e.key.stringValue ?? "?")")
            }
        case (.real(let p), .real(let q)):
            guard p.bitPattern == q.bitPattern else { throw Failure("\(path): \(p) ≠ \(q)") }
        default:
            guard x == y, x.kind == y.kind else { throw Failure("\(path): \(x) ≠ \(y)") }
        }
    }

    /// Two paired `$objects` entries.
    mutating func entries(_ u: Int, _ v: Int, path: String) throws {
        let x = a.objects[u]
        let y = b.objects[v]
        if case .dictionary(let p) = x, case .dictionary(let q) = y, p["$class"] != nil || q["$class"] != nil {
            guard let cx = a.classOf(p), let cy = b.classOf(q) else { throw Failure("\(path): $class is not a class") }
            guard cx == cy else { throw Failure("\(path): class \(cx) against \(cy)") }
            let fx = p.entries.filter { $0.key != "$class" }
            let fy = q.entries.filter { $0.key != "$class" }
            guard fx.map(\.key) == fy.map(\.key) else {
                throw Failure("\(path): fields \(fx.map(\.key)) against \(fy.map(\.key)) (in order)")
            }
            for (e, f) in zip(fx, fy) { try inline(e.value, f.value, path: "\(path).\(e.key.stringValue ?? "?")") }
            return
        }
        try inline(x, y, path: path)
    }
}

extension PlistValue {
    /// Equal, with dictionaries compared in order and reals by bit pattern (`==` ignores key order).
    public func sameInOrder(_ other: PlistValue) -> Bool {
        switch (self, other) {
        case (.array(let p), .array(let q)), (.set(let p), .set(let q)):
            return p.count == q.count && zip(p, q).allSatisfy { $0.sameInOrder($1) }
        case (.dictionary(let p), .dictionary(let q)):
            return p.count == q.count
                && zip(p.entries, q.entries).allSatisfy { $0.key.sameInOrder($1.key) && $0.value.sameInOrder($1.value) }
        case (.real(let p), .real(let q)):
            return p.bitPattern == q.bitPattern
        default:
            return self == other && kind == other.kind
        }
    }
}
