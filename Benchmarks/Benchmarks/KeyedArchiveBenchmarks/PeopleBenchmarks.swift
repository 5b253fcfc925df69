// Benchmarks/Benchmarks/KeyedArchiveBenchmarks/PeopleBenchmarks.swift - The people rows (the realistic
// keyed workload, PeopleWorkload.swift), named `people/operation/implementation` for NSKeyedArchiver's
// archive and `people-ours/unarchive/implementation` for KeyedArchiver's archive of the same graph:
//   unarchive   KeyedArchive (hand-written) | macro (@KeyedArchivable) | NSKeyedUnarchiver
//   archive     KeyedArchive | macro | NSKeyedArchiver (each archives its own graph of the same data)
//   decode      the plist layer of Foundation's archive: PropertyList | PropertyListSerialization

import Benchmark
import Foundation
import KeyedArchive
import PeopleModel
import PropertyList
import Workloads

func registerPeople(_ inputs: PeopleInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    for (workload, bytes) in [("people", \PeopleInputs.Loaded.foundationBytes), ("people-ours", \.ourBytes)] {
        Benchmark("\(workload)/unarchive/KeyedArchive") { benchmark in
            let data = inputs.value[keyPath: bytes]
            for _ in benchmark.scaledIterations {
                blackHole(try BenchPeoplePerson.unarchive(data))
            }
        } setup: {
            try await setup()
        }
        Benchmark("\(workload)/unarchive/macro") { benchmark in
            let data = inputs.value[keyPath: bytes]
            for _ in benchmark.scaledIterations {
                blackHole(try MacroPeoplePerson.unarchive(data))
            }
        } setup: {
            try await setup()
        }
        Benchmark("\(workload)/unarchive/NSKeyedUnarchiver") { benchmark in
            let data = inputs.value[keyPath: bytes]
            for _ in benchmark.scaledIterations {
                blackHole(try unarchivePeople(data))
            }
        } setup: {
            try await setup()
        }
    }

    Benchmark("people/archive/KeyedArchive") { benchmark in
        let graph = inputs.value.ours
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiver.archivedData(withRootObject: graph))
        }
    } setup: {
        try await setup()
    }
    Benchmark("people/archive/macro") { benchmark in
        let graph = inputs.value.macro
        for _ in benchmark.scaledIterations {
            blackHole(try KeyedArchiver.archivedData(withRootObject: graph))
        }
    } setup: {
        try await setup()
    }
    Benchmark("people/archive/NSKeyedArchiver") { benchmark in
        let graph = inputs.value.foundation
        for _ in benchmark.scaledIterations {
            blackHole(try archivePeople(graph))
        }
    } setup: {
        try await setup()
    }

    Benchmark("people/decode/PropertyList") { benchmark in
        let data = inputs.value.foundationBytes
        for _ in benchmark.scaledIterations {
            blackHole(try BinaryPlistDocument(data).value())
        }
    } setup: {
        try await setup()
    }
    Benchmark("people/decode/PropertyListSerialization") { benchmark in
        let data = inputs.value.foundationBytes
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
        }
    } setup: {
        try await setup()
    }
}
