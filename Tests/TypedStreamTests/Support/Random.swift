// Tests/TypedStreamTests/Support/Random.swift - Reproducible randomness for property tests.

import Foundation

/// SplitMix64: small, fast and reproducible from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed of one property run: `PROPERTY_SEED` when set (to replay a failure), else random (and
/// printed, so that a failure can be replayed).
func seed() -> UInt64 {
    if let s = ProcessInfo.processInfo.environment["PROPERTY_SEED"], let v = UInt64(s) { return v }
    let s = UInt64.random(in: 0...UInt64.max)
    print("TypedStreamTests: PROPERTY_SEED=\(s)")
    return s
}
