// Benchmarks/Benchmarks/TypedStreamBenchmarks/TypedStreamBenchmarks.swift - typedstream (NSArchiver)
// reading on two generated workloads (TypedStreamSamples, the ones `bplist generate messages|typedstream`
// writes). No Foundation row: swift-corelibs-foundation has no NSUnarchiver; the Python peer is in
// scripts/compare-typedstream.
//
// Names are `workload/operation/TypedStream`:
//   messages     2,000 Messages `attributedBody` blobs (text, runs, attachments, mentions, links,
//                styles, effects), each read on its own
//   typedstream  one stream: an NSArray of 50,000 records whose keys, names and owners are shared
//                objects, so most mentions are references (past table entry 2^16)
// Operations:
//   events   TypedStreamReader, every event, nothing built
//   read     TypedStreamArchive, the object layer
//   decode   TypedStreamArchive.decodeRoot(from:), the typed values in one pass
//   body     MessageBody(attributedBody:), text, runs and parts (messages only)
//
// Size: as above, or divided by BENCH_DIVISOR; in smoke runs BENCH_DIVISOR defaults to 25 (80
// blobs, 2,000 records). Environment: BENCH_SMOKE=1 (a few iterations each, no peak-RSS sampling:
// CI), BENCH_DIVISOR. One iteration processes the whole workload.

import Benchmark
import Foundation
import SuiteConfiguration
import TypedStream
import Workloads

let benchmarks: @Sendable () -> Void = {
    let environment = ProcessInfo.processInfo.environment
    let smoke = SuiteConfiguration.isSmoke(environment)
    Benchmark.defaultConfiguration = SuiteConfiguration.standard(smoke: smoke)

    let divisor = max(1, environment["BENCH_DIVISOR"].flatMap { Int($0) } ?? (smoke ? 25 : 1))
    // Built in the setup of the benchmark that runs (each runs in its own process), not here: this
    // closure also runs when the benchmarks are only listed.
    let inputs = TypedStreamInputs(messages: 2_000 / divisor, records: 50_000 / divisor)
    let setup: Benchmark.BenchmarkSetupHook = { _ = inputs.value }
    registerMessages(inputs, setup)
    registerGraph(inputs, setup)
}

func registerMessages(_ inputs: TypedStreamInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    Benchmark("messages/events/TypedStream") { benchmark in
        let blobs = inputs.value.messages
        for _ in benchmark.scaledIterations {
            for blob in blobs {
                var reader = try TypedStreamReader(blob)
                while let event = try reader.next() { blackHole(event) }
            }
        }
    } setup: {
        try await setup()
    }
    Benchmark("messages/read/TypedStream") { benchmark in
        let blobs = inputs.value.messages
        for _ in benchmark.scaledIterations {
            for blob in blobs { blackHole(try TypedStreamArchive(blob)) }
        }
    } setup: {
        try await setup()
    }
    Benchmark("messages/decode/TypedStream") { benchmark in
        let blobs = inputs.value.messages
        for _ in benchmark.scaledIterations {
            for blob in blobs { blackHole(try TypedStreamArchive.decodeRoot(from: blob)) }
        }
    } setup: {
        try await setup()
    }
    Benchmark("messages/body/TypedStream") { benchmark in
        let blobs = inputs.value.messages
        for _ in benchmark.scaledIterations {
            for blob in blobs { blackHole(try MessageBody(attributedBody: blob)) }
        }
    } setup: {
        try await setup()
    }
}

func registerGraph(_ inputs: TypedStreamInputs, _ setup: @escaping Benchmark.BenchmarkSetupHook) {
    Benchmark("typedstream/events/TypedStream") { benchmark in
        let stream = inputs.value.graph
        for _ in benchmark.scaledIterations {
            var reader = try TypedStreamReader(stream)
            while let event = try reader.next() { blackHole(event) }
        }
    } setup: {
        try await setup()
    }
    Benchmark("typedstream/read/TypedStream") { benchmark in
        let stream = inputs.value.graph
        for _ in benchmark.scaledIterations {
            blackHole(try TypedStreamArchive(stream))
        }
    } setup: {
        try await setup()
    }
    Benchmark("typedstream/decode/TypedStream") { benchmark in
        let stream = inputs.value.graph
        for _ in benchmark.scaledIterations {
            blackHole(try TypedStreamArchive.decodeRoot(from: stream))
        }
    } setup: {
        try await setup()
    }
}

/// The workloads, built once in the process of the benchmark that runs.
final class TypedStreamInputs {
    struct Loaded {
        let messages: [Data]
        let graph: Data
    }

    let messageCount: Int
    let recordCount: Int
    private var loaded: Loaded?

    init(messages: Int, records: Int) {
        messageCount = messages
        recordCount = records
    }

    /// The inputs; the first call builds them, checks that both decoders read them, and prints their
    /// sizes (for MB/s: throughput × size).
    var value: Loaded {
        if let loaded { return loaded }
        let value = Loaded(
            messages: TypedStreamSamples.messageBodies(count: messageCount),
            graph: TypedStreamSamples.objectGraph(count: recordCount))
        do {
            for blob in value.messages { _ = try MessageBody(attributedBody: blob) }
            for root in [
                try TypedStreamArchive.decodeRoot(from: value.graph), try TypedStreamArchive(value.graph).decodeRoot(),
            ] {
                guard case .array(let records) = root, records.count == recordCount else {
                    fatalError("typedstream workload: the stream does not read back as \(recordCount) records")
                }
            }
        } catch {
            fatalError("typedstream workload: \(error)")
        }
        print(
            "typedstream workloads: \(value.messages.count) message bodies, "
                + "\(value.messages.reduce(0) { $0 + $1.count }) bytes; one stream of \(recordCount) records, "
                + "\(value.graph.count) bytes")
        loaded = value
        return value
    }
}
