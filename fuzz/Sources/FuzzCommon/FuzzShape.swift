// fuzz/Sources/FuzzCommon/FuzzShape.swift - The enum field of the Codable fuzz models (FuzzCodable's
// FuzzModel, FuzzDifferentialArchive's DiffModel): cases with and without associated values, recursive.

/// A shape: Codable's synthesized enum coding (a case name keyed to its associated values).
public indirect enum FuzzShape: Codable, Equatable, Sendable {
    case point
    case circle(radius: Double)
    case labelled(String, points: [Int])
    case nested(FuzzShape?)
}
