// Benchmarks/Benchmarks/KeyedArchiveBenchmarks/KeyedArchiveBenchmarks.swift - Keyed archives
// (NSKeyedArchiver format) against Foundation, in one run, on the keyed workload (KeyedWorkload.swift).
//
// Names are `keyed/operation/implementation`:
//   unarchive   archive bytes -> object graph   KeyedArchive (KeyedUnarchiver.unarchivedObject(ofClass:)) |
//               NSKeyedUnarchiver (NSCoding classes); both read NSKeyedArchiver's archive of the workload
//   archive     object graph -> archive bytes   KeyedArchive (KeyedArchiver.archivedData(withRootObject:)) |
//               NSKeyedArchiver (archivedData(withRootObject:requiringSecureCoding: false))
//   (both)      macro: the same classes with `@KeyedArchivable` instead of hand-written coding;
//               Codable: the same values through KeyedArchiveEncoder/KeyedArchiveDecoder (its own
//               archive, in which each person's dog is a copy: Codable has no shared references)
//   decode      the plist layer of the same archive bytes, as an untyped tree
//               PropertyList (BinaryPlistDocument(data).value()) | PropertyListSerialization
// and the same operations on the realistic `people` workload (PeopleBenchmarks.swift).
//
// Size: 20,000 persons (the peers' file), or 20,000 / BENCH_DIVISOR; in smoke runs BENCH_DIVISOR
// defaults to 25 (800 persons, as the core workloads are scaled by default).
// Environment: BENCH_SMOKE=1 (a few iterations each, no peak-RSS sampling: CI), BENCH_DIVISOR.
// One iteration processes the whole workload; throughput is workloads per second, so MB/s is
// throughput × the archive size printed at start-up (printed by each benchmark's setup).

import Benchmark
import Foundation
import KeyedArchiveMacros
import PropertyList
import SuiteConfiguration

let benchmarks: @Sendable () -> Void = {
    let environment = ProcessInfo.processInfo.environment
    let smoke = SuiteConfiguration.isSmoke(environment)
    Benchmark.defaultConfiguration = SuiteConfiguration.standard(smoke: smoke)

    let divisor = max(1, environment["BENCH_DIVISOR"].flatMap { Int($0) } ?? (smoke ? 25 : 1))
    // Built in the setup of the benchmark that runs (each runs in its own process), not here: this
    // closure also runs when the benchmarks are only listed.
    let inputs = KeyedInputs(count: 20_000 / divisor)
    let setup: Benchmark.BenchmarkSetupHook = { _ = inputs.value }
    registerUnarchive(inputs, setup)
    registerArchive(inputs, setup)
    registerPlistDecode(inputs, setup)
    // The realistic workload (PeopleBenchmarks.swift), at the same size.
    let people = PeopleInputs(count: 20_000 / divisor)
    registerPeople(people) { _ = people.value }
}

func registerUnarchive(_ inputs: KeyedInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    Benchmark("keyed/unarchive/KeyedArchive") { benchmark in
        let bytes = inputs.value.bytes
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedUnarchiver.unarchivedObject(ofClass: [KAPerson].self, from: bytes))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/unarchive/macro") { benchmark in
        let bytes = inputs.value.bytes
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedUnarchiver.unarchivedObject(ofClass: [MacroPerson].self, from: bytes))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/unarchive/Codable") { benchmark in
        let bytes = inputs.value.codableBytes
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiveDecoder().decode([CodablePerson].self, from: bytes))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/unarchive/NSKeyedUnarchiver") { benchmark in
        let bytes = inputs.value.bytes
        for _ in benchmark.scaledIterations {
            blackHole(try foundationUnarchive(bytes))
        }
    } setup: {
        try await setup()
    }
}

func registerArchive(_ inputs: KeyedInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    // The one row whose malloc count is not exact: one run in four counts one allocation fewer
    // (144 instead of 145 in smoke mode), on the same binary and input, while every other row
    // repeats exactly. The cause is not found yet (not the writer's realloc growth, which the
    // interposer counts the same either way; not the identity table, which grows by count), so the
    // gate allows that one allocation here and nowhere else.
    var archiveConfiguration = Benchmark.defaultConfiguration
    archiveConfiguration.thresholds = [.mallocCountTotal: .init(relative: [.p90: 1], absolute: [.p90: 1])]
    Benchmark("keyed/archive/KeyedArchive", configuration: archiveConfiguration) { benchmark in
        let graph = inputs.value.ours
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiver.archivedData(withRootObject: graph))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/archive/macro", configuration: archiveConfiguration) { benchmark in
        let graph = inputs.value.macro
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiver.archivedData(withRootObject: graph))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/archive/Codable") { benchmark in
        let graph = inputs.value.codable
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiveEncoder().encode(graph))
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/archive/NSKeyedArchiver") { benchmark in
        let graph = inputs.value.foundation
        for _ in benchmark.scaledIterations {
            blackHole(try foundationArchive(graph))
        }
    } setup: {
        try await setup()
    }
}

/// The plist layer alone: the archive as an untyped tree (dictionaries, arrays, UIDs).
func registerPlistDecode(_ inputs: KeyedInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    Benchmark("keyed/decode/PropertyList") { benchmark in
        let bytes = inputs.value.bytes
        for _ in benchmark.scaledIterations {
            blackHole(try BinaryPlistDocument(bytes).value())
        }
    } setup: {
        try await setup()
    }
    Benchmark("keyed/decode/PropertyListSerialization") { benchmark in
        let bytes = inputs.value.bytes
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil))
        }
    } setup: {
        try await setup()
    }
}
