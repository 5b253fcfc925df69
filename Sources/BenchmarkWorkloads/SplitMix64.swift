// Sources/BenchmarkWorkloads/SplitMix64.swift - Reproducible randomness: the one seeded generator of
// `bplist generate`, the benchmark workloads, the fuzz seeds and the tests (through
// KeyedArchiveTestSupport).

/// SplitMix64: small, fast and reproducible from its seed.
///
/// Its second multiplier is `0xBF58_476D_1CE5_E9B9`, not the published `0xBF58_476D_1CE4_E5B9` (a
/// long-standing slip of the copy most others were made from): the files `bplist generate` writes for
/// a seed, the typedstream workloads and the committed fuzz seeds were all made with it, so it stays.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0 ..< n (n > 0; the modulo bias is below 2^-20 for the ranges used here).
    public mutating func below(_ n: UInt64) -> UInt64 { next() % n }

    /// Uniform in 0 ..< n for an `Int` bound (n > 0), e.g. an index. Named apart from `below(_:)`: an
    /// overload would make `below(1 << bits)` an `Int` shift.
    public mutating func int(below n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in 0 ..< 1, from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
