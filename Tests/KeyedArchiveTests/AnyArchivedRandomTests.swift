// Tests/KeyedArchiveTests/AnyArchivedRandomTests.swift - Random object graphs (shared objects,
// cycles, collections, typed values) archived as AnyArchived, read back and archived again.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct AnyArchivedRandomTests {
    /// A random graph: `count` instances whose fields are random values, some referring to other
    /// instances (so objects are shared and cycles occur).
    func randomGraph(_ rng: inout SplitMix64) -> AnyArchived {
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

    @Test func randomGraphsRoundTrip() throws {
        for seed in UInt64(1)...200 {
            var rng = SplitMix64(seed: seed)
            let graph = randomGraph(&rng)
            let first = try KeyedArchiver.archivedData(withRootObject: graph)
            let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: first)
            #expect(sameGraph(graph, decoded), "seed \(seed): the decoded graph differs")
            let second = try KeyedArchiver.archivedData(withRootObject: decoded)
            #expect(try ArchiveGraphEquivalence.same(first, second), "seed \(seed): the archives differ")
        }
    }
}
