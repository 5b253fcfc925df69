// Tests/KeyedArchiveTests/AnyArchivedRandomTests.swift - Random object graphs (shared objects,
// cycles, collections, typed values) archived as AnyArchived, read back and archived again.

import Foundation
import KeyedArchive
import PropertyList
import Testing

/// A small deterministic generator (xorshift64*), so a failure can be replayed by its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

@Suite struct AnyArchivedRandomTests {
    /// A random graph: `count` instances whose fields are random values, some referring to other
    /// instances (so objects are shared and cycles occur).
    func randomGraph(_ rng: inout SeededGenerator) -> AnyArchived {
        let count = Int.random(in: 1...12, using: &rng)
        let classes = ["XWZNode", "XWZLeaf", "XWZBox"]
        let nodes = (0..<count).map { _ in
            let name = classes.randomElement(using: &rng) ?? "XWZNode"
            return ArchivedInstance(className: name, classChain: [name, "XWZBase", "NSObject"])
        }
        func value(_ depth: Int) -> AnyArchived {
            switch Int.random(in: 0..<(depth > 2 ? 9 : 13), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .integer(Int.random(in: -1_000_000...1_000_000, using: &rng))
            case 3: return .real(Double(Int.random(in: -1000...1000, using: &rng)) / 8)
            case 4: return .string(["", "a", "ñandú", "$dollar", "line\nbreak"].randomElement(using: &rng) ?? "")
            case 5: return .data(Data((0..<Int.random(in: 0...6, using: &rng)).map { UInt8($0) }))
            case 6: return .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...1000, using: &rng))))
            case 7: return .object(nodes[Int.random(in: 0..<count, using: &rng)])
            case 8: return .color(.rgb(0.25, 0.5, 1))
            case 9: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) })
            case 10:
                return .dictionary(
                    Dictionary(
                        (0..<Int.random(in: 0...3, using: &rng)).map {
                            (AnyArchived.string("k\($0)"), value(depth + 1))
                        },
                        uniquingKeysWith: { a, _ in a }))
            case 11: return .orderedSet([.integer(1), .string("two")])
            default: return .indexPath(IndexPath(indexes: (0..<Int.random(in: 0...4, using: &rng)).map { $0 * 7 }))
            }
        }
        for node in nodes {
            for f in 0..<Int.random(in: 0...4, using: &rng) { node["f\(f)"] = value(0) }
        }
        return .object(nodes[0])
    }

    /// Whether two decoded values are the same graph: instances paired one to one.
    func same(_ a: AnyArchived, _ b: AnyArchived, _ pairs: inout [ObjectIdentifier: ObjectIdentifier]) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            if let p = pairs[ObjectIdentifier(x)] { return p == ObjectIdentifier(y) }
            guard !pairs.values.contains(ObjectIdentifier(y)) else { return false }
            pairs[ObjectIdentifier(x)] = ObjectIdentifier(y)
            guard x.className == y.className, x.classChain == y.classChain,
                x.fields.keys.sorted() == y.fields.keys.sorted()
            else { return false }
            return x.fields.keys.allSatisfy { k in
                guard let u = x.fields[k], let v = y.fields[k] else { return false }
                return same(u, v, &pairs)
            }
        case (.array(let x), .array(let y)), (.orderedSet(let x), .orderedSet(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, &pairs) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count
                && x.allSatisfy { entry in y[entry.key].map { same(entry.value, $0, &pairs) } ?? false }
        default:
            return a == b
        }
    }

    @Test func randomGraphsRoundTrip() throws {
        for seed in UInt64(1)...200 {
            var rng = SeededGenerator(seed: seed)
            let graph = randomGraph(&rng)
            let first = try KeyedArchiver.archivedData(withRootObject: graph)
            let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: first)
            var pairs: [ObjectIdentifier: ObjectIdentifier] = [:]
            #expect(same(graph, decoded, &pairs), "seed \(seed): the decoded graph differs")
            let second = try KeyedArchiver.archivedData(withRootObject: decoded)
            #expect(try ArchiveGraphEquivalence.same(first, second), "seed \(seed): the archives differ")
        }
    }
}
