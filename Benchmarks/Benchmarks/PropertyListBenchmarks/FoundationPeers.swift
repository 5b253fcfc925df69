// Benchmarks/Benchmarks/PropertyListBenchmarks/FoundationPeers.swift - Foundation on the same inputs:
// PropertyListSerialization (untyped trees) and PropertyListDecoder/Encoder (Codable models of the
// workloads), so every row of ours has its Foundation row in the same run.

import Benchmark
import Foundation
import Workloads

/// Foundation on one workload.
func registerFoundation(_ w: Workload) {
    let name = w.name
    let bytes = w.bytes

    Benchmark("\(name)/decode/PropertyListSerialization") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
        }
    }
    // The tree PropertyListSerialization itself produced: what a Foundation user encodes.
    let tree = try? PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
    Benchmark("\(name)/encode/PropertyListSerialization") { benchmark in
        guard let tree else { return }
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0))
        }
    }
    let components = w.keyPath.components.map(\.key)
    Benchmark("\(name)/lookup/PropertyListSerialization") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                lookup(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil), components))
        }
    }

    switch name {
    case "mixed": registerCodable(name, bytes, [Record].self)
    case "strings": registerCodable(name, bytes, [String].self)
    case "numbers": registerCodable(name, bytes, Numbers.self)
    default: break
    }
}

/// PropertyListDecoder/Encoder with `.binary` output, into and from a Codable model.
private func registerCodable<T: Codable>(_ name: String, _ bytes: Data, _ type: T.Type) {
    Benchmark("\(name)/decode/PropertyListDecoder") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListDecoder().decode(T.self, from: bytes))
        }
    }
    let model = try? PropertyListDecoder().decode(T.self, from: bytes)
    Benchmark("\(name)/encode/PropertyListEncoder") { benchmark in
        guard let model else { return }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(model))
        }
    }
}

/// Follows a key path through a Foundation tree (array indices and dictionary keys).
private func lookup(_ root: Any, _ components: [String]) -> Any? {
    var current: Any = root
    for component in components {
        if let array = current as? [Any], let i = Int(component), array.indices.contains(i) {
            current = array[i]
        } else if let dictionary = current as? [String: Any], let next = dictionary[component] {
            current = next
        } else {
            return nil
        }
    }
    return current
}

/// One element of the mixed workload.
struct Record: Codable {
    var name: String
    var title: String
    var email: String
    var id: Int
    var delta: Int
    var score: Double
    var active: Bool
    var created: Date
    var blob: Data
    var tags: [String]
}

/// The numbers workload: one array alternating integers and doubles.
struct Numbers: Codable {
    var integers: [Int] = []
    var doubles: [Double] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            integers.append(try container.decode(Int.self))
            if !container.isAtEnd { doubles.append(try container.decode(Double.self)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for (i, integer) in integers.enumerated() {
            try container.encode(integer)
            if i < doubles.count { try container.encode(doubles[i]) }
        }
    }
}
