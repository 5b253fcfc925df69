// fuzz/Sources/FuzzKeyed/FuzzKeyed.swift - libFuzzer entry point: keyed archives.
//
// 1. The generic graph decode (KeyedArchiveGraph) and its resolver, bounded in depth.
// 2. KeyedUnarchiver decoding a few value types, AnyArchived (any archive, typed Foundation values)
//    and two KeyedArchivable classes (one two-phase, which may be cyclic); KeyedArchiveDecoder
//    decoding a Codable struct.
// Oracles: errors are typed (KeyedArchiveError, or DecodingError for Codable); whatever decodes
// re-archives and decodes equal.

import Foundation
import FuzzCommon
import KeyedArchive
import PropertyList

/// A plain archivable class (cycles through it are errors).
final class Person: KeyedArchivable {
    static let archiveClassName = "Person"
    var name: String
    var age: Int
    var friend: Person?
    var tags: [String]

    init(name: String, age: Int, friend: Person?, tags: [String]) {
        self.name = name
        self.age = age
        self.friend = friend
        self.tags = tags
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
        try coder.encode(friend, forKey: "friend")
        try coder.encode(tags, forKey: "tags")
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        friend = try coder.decodeIfPresent(Person.self, forKey: "friend")
        tags = try coder.decodeIfPresent([String].self, forKey: "tags") ?? []
    }

    /// Structural equality along the `friend` chain (acyclic by construction), bounded.
    func same(as other: Person, depth: Int = 0) -> Bool {
        guard name.utf8.elementsEqual(other.name.utf8), age == other.age, tags == other.tags, depth < 600 else {
            return false
        }
        switch (friend, other.friend) {
        case (nil, nil): return true
        case (let a?, let b?): return a.same(as: b, depth: depth + 1)
        default: return false
        }
    }
}

/// A two-phase class: graphs of nodes may be cyclic.
final class Node: TwoPhaseKeyedArchivable {
    static let archiveClassName = "Node"
    var value = 0
    var next: Node?
    var children: [Node] = []

    init() {}

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(value, forKey: "value")
        try coder.encode(next, forKey: "next")
        try coder.encode(children, forKey: "children")
    }

    func decodeFields(from coder: KeyedUnarchiver) throws {
        value = try coder.decode(Int.self, forKey: "value")
        next = try coder.decodeIfPresent(Node.self, forKey: "next")
        children = try coder.decodeIfPresent([Node].self, forKey: "children") ?? []
    }
}

/// A Codable value for KeyedArchiveDecoder.
struct Settings: Codable, Equatable {
    var name: String
    var count: Int
    var enabled: Bool
    var tags: [String]
    var limits: [String: Int]
    var blob: Data?
    var children: [Settings]
}

/// Counts nodes and edges of a Node graph (identity-based, iterative), to compare two graphs' shapes.
func shape(_ root: Node, cap: Int = 4096) -> [Int]? {
    var index: [ObjectIdentifier: Int] = [:]
    var order: [Node] = []
    var stack = [root]
    while let n = stack.popLast() {
        guard index[ObjectIdentifier(n)] == nil else { continue }
        index[ObjectIdentifier(n)] = order.count
        order.append(n)
        if order.count > cap { return nil }
        stack.append(contentsOf: n.children.reversed())
        if let next = n.next { stack.append(next) }
    }
    // Value, next's index, and children's indexes of every node in discovery order.
    var out: [Int] = []
    for n in order {
        out.append(n.value)
        out.append(n.next.map { index[ObjectIdentifier($0)] ?? -2 } ?? -1)
        out.append(n.children.count)
        for c in n.children { out.append(index[ObjectIdentifier(c)] ?? -2) }
    }
    return out
}

/// Runs a keyed decode; errors must be KeyedArchiveError.
func keyed<T>(_ what: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let e as KeyedArchiveError {
        require(!e.detail.isEmpty, "\(what): KeyedArchiveError without detail")
        return nil
    } catch {
        require(false, "\(what) threw a non-KeyedArchiveError: \(type(of: error)) \(error)")
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let payload = input.payload
    let plistLimits = input.config.limits
    let limits = KeyedArchiveLimits(
        maxDepth: plistLimits.maxDepth, maxValues: min(plistLimits.maxValues, 1 << 16), plist: plistLimits)

    // 1. Generic graph.
    if let graph = keyed("KeyedArchiveGraph", { try KeyedArchiveGraph(payload, limits: limits) }) {
        for node in graph.nodes {
            if case .object(let o) = node {
                for r in o.references { require(r >= 0 && r < graph.nodes.count, "graph reference \(r) out of range") }
            }
        }
        _ = graph.resolvedRoot(maxDepth: 16)
        // Written back, the graph reads as the same nodes (or the limits stop the second read).
        if let out = keyed("KeyedArchiveGraph.encoded", { try graph.encoded(as: .binary) }),
            let again = keyed("KeyedArchiveGraph again", { try KeyedArchiveGraph(out, limits: limits) })
        {
            require(again.nodes == graph.nodes && again.top == graph.top, "the graph written back reads differently")
        }
        // Edits by paths the input names: applied, or a typed error that leaves the graph as it was.
        var edited = graph
        var keys = ["root"]
        if let root = graph.root, case .object(let o)? = graph.node(root), let first = o.fields.first {
            keys.append(first.key)
        }
        let path = PlistKeyPath(keys: keys)
        _ = keyed("KeyedArchiveGraph.apply", { try edited.apply([.set(.string("x"), at: path)]) })
        let before = keyed("KeyedArchiveGraph.encoded", { try edited.encoded(as: .binary) })
        if let before {
            _ = keyed("KeyedArchiveGraph edited", { try KeyedArchiveGraph(before, limits: limits) })
        }
        // The second edit names what the first removed: the call fails, and changes nothing.
        if keyed("KeyedArchiveGraph.apply", { try edited.apply([.remove(at: path), .remove(at: path)]) }) == nil {
            let after = keyed("KeyedArchiveGraph.encoded", { try edited.encoded(as: .binary) })
            require(after == before, "a failed edit changed the graph")
        }
    }

    // 2. Typed decodes through the unarchiver, each from a fresh unarchiver.
    func unarchive<T: KeyedArchiveValue>(_ type: T.Type) -> T? {
        keyed("decode \(T.self)") {
            try KeyedUnarchiver(forReadingFrom: payload, limits: limits).decode(type, forKey: "root")
        }
    }
    _ = unarchive(String.self)
    _ = unarchive(Int.self)
    _ = unarchive(Data.self)
    _ = unarchive(Date.self)
    _ = unarchive(URL.self)
    _ = unarchive(UUID.self)
    _ = unarchive([Int: String].self)
    _ = unarchive(Set<String>.self)
    if let strings = unarchive([String?].self) {
        let again = keyed("re-archive [String?]") {
            try KeyedUnarchiver.unarchivedObject(
                ofClass: [String?].self, from: try KeyedArchiver.archivedData(withRootObject: strings))
        }
        require(again == strings, "[String?] round trip changed the value")
    }
    if let person = unarchive(Person.self) {
        let again = keyed("re-archive Person") {
            try KeyedUnarchiver.unarchivedObject(
                ofClass: Person.self, from: try KeyedArchiver.archivedData(withRootObject: person))
        }
        require(again.map { person.same(as: $0) } == true, "Person round trip changed the value")
    }
    if let nodes = unarchive([Node].self), let first = nodes.first, let before = shape(first) {
        let again = keyed("re-archive [Node]") {
            try KeyedUnarchiver.unarchivedObject(
                ofClass: [Node].self, from: try KeyedArchiver.archivedData(withRootObject: nodes))
        }
        require(again?.first.flatMap { shape($0) } == before, "[Node] round trip changed the graph")
    }
    _ = unarchive(Node.self)
    // Any value: whatever decodes archives again, and that archive reads back (typed errors only).
    if let any = unarchive(AnyArchived.self) {
        let again = keyed("re-archive AnyArchived") {
            try KeyedUnarchiver(forReadingFrom: try KeyedArchiver.archivedData(withRootObject: any), limits: limits)
                .decode(AnyArchived.self, forKey: "root")
        }
        // A cyclic graph keeps itself alive (LeakSanitizer reports it): free both, as a server must.
        any.breakReferenceCycles()
        again?.breakReferenceCycles()
    }

    // 3. Codable.
    do {
        let settings = try KeyedArchiveDecoder().decode(Settings.self, from: payload)
        do {
            let again = try KeyedArchiveDecoder().decode(Settings.self, from: KeyedArchiveEncoder().encode(settings))
            require(again == settings, "Settings round trip changed the value")
        } catch {
            require(false, "Settings round trip failed: \(error)")
        }
    } catch is DecodingError {
    } catch {
        require(false, "KeyedArchiveDecoder threw a non-DecodingError: \(type(of: error)) \(error)")
    }
    return 0
}
