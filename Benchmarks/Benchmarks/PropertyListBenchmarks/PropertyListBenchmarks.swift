// Benchmarks/Benchmarks/PropertyListBenchmarks/PropertyListBenchmarks.swift - The core codec against
// Foundation, in one run, on the mixed/strings/numbers workloads.
//
// Names are `workload/operation/implementation`:
//   decode        full owned tree        PropertyList | PropertyListSerialization | PropertyListDecoder
//   encode        tree -> bplist bytes   PropertyList (deduplicating) | PropertyListSerialization | PropertyListEncoder
//   open          lazy open + whole offset-table validation     PropertyList (Foundation has no lazy reader)
//   lookup        one two-level key path PropertyList on an opened document |
//                 PropertyListSerialization (a full parse, then subscripts: Foundation's only way)
//   zlibDecode    zlib envelope -> tree  PropertyList | zlib (inflate alone: the lower bound)
//   zlibEncode    tree -> zlib envelope  PropertyList (level 1)
// Foundation has no zlib envelope on Linux, so the zlib rows compare with zlib itself.
// Codable rows (PlistDecoder, PlistEncoder, and the decoder's allocation floor): CodableBenchmarks.swift.
//
// Environment: BENCH_SMOKE=1 (a few iterations each, no peak-RSS sampling: CI), BENCH_DATA_DIR,
// BENCH_DIVISOR (see Workloads).
// One iteration processes the whole workload; throughput is workloads per second, so MB/s is
// throughput × the input size printed at start-up.

import Benchmark
import Foundation
@_spi(Internals) import PropertyList
import SuiteConfiguration
import Workloads

let benchmarks: @Sendable () -> Void = {
    let environment = ProcessInfo.processInfo.environment
    let smoke = SuiteConfiguration.isSmoke(environment)
    Benchmark.defaultConfiguration = SuiteConfiguration.standard(smoke: smoke)

    let workloads: [Workload]
    do {
        workloads = try Workload.loadAll(environment: environment)
    } catch {
        fatalError("cannot load the workloads: \(error)")
    }
    for w in workloads {
        print(
            "workload \(w.name): \(w.bytes.count) bytes (zlib \(w.zlibBytes.count)), \(w.count) elements, \(w.source)")
        registerCore(w)
        registerFoundation(w)
        registerPlistCoders(w)  // Codable (CodableBenchmarks.swift)
    }
}

/// Our implementation on one workload.
func registerCore(_ w: Workload) {
    let name = w.name
    let bytes = w.bytes
    let value = w.value

    Benchmark("\(name)/decode/PropertyList") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try BinaryPlistDocument(bytes).value())
        }
    }
    Benchmark("\(name)/encode/PropertyList") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try value.encoded())
        }
    }
    Benchmark("\(name)/open/PropertyList") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try BinaryPlistDocument(bytes))
        }
    }
    let document = try? BinaryPlistDocument(bytes)
    let path = w.keyPath
    Benchmark("\(name)/lookup/PropertyList") { benchmark in
        guard let document else { return }
        for _ in benchmark.scaledIterations {
            blackHole(try document.lookup(path))
        }
    }

    let zlibBytes = w.zlibBytes
    Benchmark("\(name)/zlibDecode/PropertyList") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try BinaryPlistDocument(zlibBytes).value())
        }
    }
    Benchmark("\(name)/zlibDecode/zlib") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Zlib.inflate(zlibBytes, limit: PlistLimits.default.maxDecompressedBytes))
        }
    }
    let level1 = PlistWriteOptions(compressionLevel: 1)
    Benchmark("\(name)/zlibEncode/PropertyList") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try value.encoded(compression: .zlib, options: level1))
        }
    }
}
