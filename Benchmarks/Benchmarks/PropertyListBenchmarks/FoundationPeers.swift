// Benchmarks/Benchmarks/PropertyListBenchmarks/FoundationPeers.swift - Foundation on the same inputs:
// PropertyListSerialization (untyped trees) and PropertyListDecoder/Encoder (the peers' Codable models of
// the workloads, BenchmarkWorkloads/PeerModels.swift), so every row of ours has its Foundation row in the
// same run.

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
    case "mixed": registerCodable(name, bytes, [BenchRecord].self)
    case "strings": registerCodable(name, bytes, [String].self)
    case "numbers": registerCodable(name, bytes, BenchNumbers.self)
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
