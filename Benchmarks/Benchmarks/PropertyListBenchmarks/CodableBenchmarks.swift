// Benchmarks/Benchmarks/PropertyListBenchmarks/CodableBenchmarks.swift - PlistDecoder/PlistEncoder
// (issue 21) on the Codable models of the workloads, beside Foundation's PropertyListDecoder/Encoder
// rows (FoundationPeers.swift) in the same run:
//
//   decode/PlistDecoder   bytes -> model, straight from the document (no tree)
//   encode/PlistEncoder   model -> bplist bytes, straight into the object-table builder
//   encodeNested/PlistEncoder   (strings only) the strings as [[String]], arrays of three: many
//                         small typed arrays in a row, each reserving room in the builder. Its malloc
//                         count guards the growth of that room: reserving exactly what each array
//                         needed reallocated the whole child list per array (quadratic; 80,000
//                         arrays took 0.4 s), tens of thousands of mallocs here instead of a few dozen.
//   decode/ModelFloor     the allocation floor of decoding: a fresh copy of the decoded model, made
//                         by hand (each string longer than 15 bytes, each Data, each array and the
//                         top-level array allocated as the decoder must; the strings shared by
//                         value in the file, e.g. the 400 distinct titles of mixed, made once each,
//                         as the decoder's string cache does). Its malloc count is what the
//                         decoder's count is compared with in Benchmarks/README.md.

import Benchmark
import Foundation
import PropertyList
import Workloads

/// Our Codable rows on one workload.
func registerPlistCoders(_ w: Workload) {
    switch w.name {
    case "mixed":
        registerPlistCoders(w.name, w.bytes, [BenchRecord].self) { records in
            // Equal long strings (names, titles) are shared in the file and in the decoded model.
            var shared: [String: String] = [:]
            func long(_ s: String) -> String {
                guard s.utf8.count > 15 else { return s }
                if let existing = shared[s] { return existing }
                let copy = fresh(s)
                shared[s] = copy
                return copy
            }
            return records.map { r in
                BenchRecord(
                    name: long(r.name), title: long(r.title),
                    email: String(decoding: Array(r.email.utf8), as: UTF8.self),
                    id: r.id, delta: r.delta, score: r.score, active: r.active, created: r.created,
                    blob: Data(r.blob), tags: r.tags.map { $0 })
            }
        }
    case "strings":
        registerPlistCoders(w.name, w.bytes, [String].self) { strings in
            strings.map { fresh($0) }
        }
        let strings = (try? PlistDecoder().decode([String].self, from: w.bytes)) ?? []
        let nested = stride(from: 0, to: strings.count, by: 3).map { Array(strings[$0..<min($0 + 3, strings.count)]) }
        Benchmark("\(w.name)/encodeNested/PlistEncoder") { benchmark in
            let encoder = PlistEncoder()
            for _ in benchmark.scaledIterations {
                blackHole(try encoder.encode(nested))
            }
        }
    case "numbers":
        registerPlistCoders(w.name, w.bytes, BenchNumbers.self) { numbers in
            // BenchNumbers' own init(from:) reserves both arrays from the element count, as the peers'
            // model does, then appends: the floor is those two allocations.
            var copy = numbers
            copy.ints = []
            copy.doubles = []
            copy.ints.reserveCapacity(numbers.ints.count)
            copy.doubles.reserveCapacity(numbers.doubles.count)
            for (i, integer) in numbers.ints.enumerated() {
                copy.ints.append(integer)
                if i < numbers.doubles.count { copy.doubles.append(numbers.doubles[i]) }
            }
            return copy
        }
    default:
        break
    }
}

/// A copy of `s` in storage of its own (one allocation when it is longer than 15 bytes).
private func fresh(_ s: String) -> String { String(decoding: s.utf8, as: UTF8.self) }

/// A copy of `d` in storage of its own, allocated as `Data(bytes:count:)` allocates.
private func fresh(_ d: Data) -> Data {
    var copy = Data(count: d.count)
    copy.replaceSubrange(0..<d.count, with: d)
    return copy
}

private func registerPlistCoders<T: Codable>(
    _ name: String, _ bytes: Data, _ type: T.Type, floor: @escaping @Sendable (T) -> T
) {
    Benchmark("\(name)/decode/PlistDecoder") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PlistDecoder().decode(T.self, from: bytes))
        }
    }
    let model = try? PlistDecoder().decode(T.self, from: bytes)
    Benchmark("\(name)/decode/ModelFloor") { benchmark in
        guard let model else { return }
        for _ in benchmark.scaledIterations {
            blackHole(floor(model))
        }
    }
    Benchmark("\(name)/encode/PlistEncoder") { benchmark in
        guard let model else { return }
        let encoder = PlistEncoder()
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(model))
        }
    }
}
