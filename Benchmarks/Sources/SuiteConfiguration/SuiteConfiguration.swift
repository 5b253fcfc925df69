// Benchmarks/Sources/SuiteConfiguration/SuiteConfiguration.swift - The one configuration both
// benchmark targets run with, and so the one place that says what CI gates.

import Benchmark

/// The suite's run settings, shared by `PropertyListBenchmarks` and `KeyedArchiveBenchmarks`.
public enum SuiteConfiguration {
    /// True when `BENCH_SMOKE` is set (and not `0`): a few iterations each, as `scripts/bench-check` runs.
    public static func isSmoke(_ environment: [String: String]) -> Bool {
        environment["BENCH_SMOKE"].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// The default configuration of every benchmark of the suite.
    ///
    /// - Parameter smoke: Whether this is a smoke run.
    public static func standard(smoke: Bool) -> Benchmark.Configuration {
        .init(
            // No peak RSS in smoke runs: its sampler thread wakes every 10 ms and allocates, which would
            // make the malloc counts depend on timing.
            metrics: smoke
                ? [.wallClock, .throughput, .mallocCountTotal]
                : [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: 1,
            maxDuration: smoke ? .milliseconds(100) : .seconds(2),
            maxIterations: smoke ? 3 : 1000,
            // Malloc counts are exact and repeat from run to run: the only metric with a CI threshold
            // (Benchmarks/Thresholds). Any change, better or worse, fails the check until updated.
            thresholds: [.mallocCountTotal: .init(relative: [.p90: 0], absolute: [.p90: 0])]
        )
    }
}
