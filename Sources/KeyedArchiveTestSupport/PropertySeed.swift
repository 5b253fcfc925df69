// Sources/KeyedArchiveTestSupport/PropertySeed.swift - The seed of a property run, and the modules
// every test target needs beside this one.
//
// The seeded generator (`SplitMix64`), the typedstream sample writer (`TypedStreamWriter`,
// `TypedStreamSamples`) and the benchmark models live in BenchmarkWorkloads, because the shipped
// `bplist` tool uses them too (`generate`, `bench`) and must not link test code; they are re-exported
// here, so a test imports this one module.

@_exported public import BenchmarkWorkloads
import Foundation

/// The seed of one property run: `PROPERTY_SEED` when set (to replay a failure), else random and
/// printed, so that a failure can be replayed (each failing property also names its seed).
public func propertySeed() -> UInt64 {
    if let s = ProcessInfo.processInfo.environment["PROPERTY_SEED"], let v = UInt64(s) { return v }
    let s = UInt64.random(in: 0...UInt64.max)
    print("property seed: PROPERTY_SEED=\(s)")
    return s
}
