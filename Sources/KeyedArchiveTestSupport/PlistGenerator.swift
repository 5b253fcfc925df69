// Sources/KeyedArchiveTestSupport/PlistGenerator.swift - Seeded random property lists for property tests.

public import BenchmarkWorkloads
public import Foundation
public import PropertyList

/// What a generated value may contain (peers support different subsets).
public struct GenerationProfile: Sendable {
    public var sets = true
    public var uids = true
    public var null = true
    public var int128 = true
    public var nan = true
    /// Dates with sub-second fractions (plistlib keeps microseconds only).
    public var fractionalDates = true
    public var nonStringKeys = true
    /// -0.0 next to 0.0 (plistlib's writer deduplicates them into one object, as `0.0 == -0.0` in Python).
    public var negativeZero = true
    /// "e\u{301}" beside "é" (Swift's `Dictionary<String, _>` merges canonically equivalent keys).
    public var decomposedText = true
    public var maxDepth = 5
    public var maxWidth = 8

    public init(
        sets: Bool = true, uids: Bool = true, null: Bool = true, int128: Bool = true, nan: Bool = true,
        fractionalDates: Bool = true, nonStringKeys: Bool = true, negativeZero: Bool = true,
        decomposedText: Bool = true, maxDepth: Int = 5, maxWidth: Int = 8
    ) {
        (self.sets, self.uids, self.null, self.int128, self.nan) = (sets, uids, null, int128, nan)
        (self.fractionalDates, self.nonStringKeys, self.negativeZero) = (fractionalDates, nonStringKeys, negativeZero)
        (self.decomposedText, self.maxDepth, self.maxWidth) = (decomposedText, maxDepth, maxWidth)
    }

    public static let full = GenerationProfile()
    public static let foundation = GenerationProfile(
        sets: false, uids: false, null: false, int128: false, nan: false,
        nonStringKeys: false, decomposedText: false)
    public static let plistlib = GenerationProfile(
        sets: false, uids: true, null: false, int128: false, nan: false,
        fractionalDates: false, nonStringKeys: false, negativeZero: false)
}

public struct PlistGenerator {
    public var rng: SplitMix64
    public var profile: GenerationProfile
    /// A small pool so that values repeat and deduplication and shared sub-trees are exercised.
    public var pool: [PlistValue] = []

    public init(seed: UInt64, profile: GenerationProfile = .full) {
        rng = SplitMix64(seed: seed)
        self.profile = profile
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    public mutating func string() -> String {
        var alphabets: [[String]] = [
            ["a", "b", "c", "name", "x", "$", "0"],
            ["é", "e\u{301}", "ß", "中", "😀", "\u{0}", "\u{7F}", "Ω", "𝄞", " ", "\u{FEFF}"],
        ]
        let n = int(0...20)
        let pick = int(0...2)
        if !profile.decomposedText { alphabets[1].removeAll { $0 == "e\u{301}" } }
        return (0..<n).map { _ -> String in
            let a = pick == 2 ? alphabets[int(0...1)] : alphabets[pick]
            return a[int(0...a.count - 1)]
        }.joined()
    }

    public mutating func integer() -> Int128 {
        switch int(0...7) {
        case 0: return Int128(int(0...255))
        case 1: return Int128(int(-300...300))
        case 2: return Int128(Int64.random(in: .min ... .max, using: &rng))
        case 3: return Int128(UInt64.random(in: 0 ... .max, using: &rng))
        case 4:
            return [Int128(Int64.min), Int128(Int64.max), Int128(UInt64.max), 0, Int128(UInt32.max) + 1][int(0...4)]
        case 5 where profile.int128:
            return Int128(bitPattern: UInt128(rng.next()) << 64 | UInt128(rng.next()))
        default: return Int128(int(0...70_000))
        }
    }

    public mutating func real() -> Double {
        switch int(0...5) {
        case 0:
            let specials: [Double] = [
                0.0, 1.0, -1.5, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.0,
            ]
            return specials[int(0...(profile.negativeZero ? 7 : 6))]
        case 1 where profile.nan: return Double(bitPattern: 0x7FF8_0000_0000_0000 | (rng.next() & 0xFFFF))
        case 2: return Double(Float.random(in: -1e6...1e6, using: &rng))
        default: return Double.random(in: -1e12...1e12, using: &rng)
        }
    }

    public mutating func date() -> Date {
        let seconds = Double(int(-2_000_000_000...2_000_000_000))
        let fraction = profile.fractionalDates ? Double.random(in: 0..<1, using: &rng) : 0
        return Date(timeIntervalSinceReferenceDate: seconds + fraction)
    }

    public mutating func scalar() -> PlistValue {
        switch int(0...11) {
        case 0: return .bool(int(0...1) == 1)
        case 1, 2: return .integer(PlistInteger(integer()))
        case 3: return .real(real())
        case 4: return .date(date())
        case 5: return .data(Data((0..<int(0...40)).map { _ in UInt8(int(0...255)) }))
        case 6 where profile.uids: return .uid(UInt64(int(0...Int(UInt32.max))))
        case 7 where profile.null: return .null
        default: return .string(string())
        }
    }

    public mutating func key() -> PlistValue {
        guard profile.nonStringKeys, int(0...9) == 0 else { return .string(string()) }
        switch int(0...3) {
        case 0: return .integer(PlistInteger(integer()))
        case 1: return .real(Double(int(-5...5)))
        case 2: return .date(date())
        default: return .data(Data([UInt8(int(0...255))]))
        }
    }

    public mutating func value(depth: Int = 0) -> PlistValue {
        if !pool.isEmpty && int(0...9) == 0 { return pool[int(0...pool.count - 1)] }
        let v: PlistValue
        if depth >= profile.maxDepth || int(0...2) == 0 {
            v = scalar()
        } else {
            let n = int(0...profile.maxWidth)
            switch int(0...4) {
            case 0 where profile.sets: v = .set((0..<n).map { _ in scalar() })
            case 1, 2:
                var d = PlistDictionary()
                for _ in 0..<n { d[key()] = value(depth: depth + 1) }
                v = .dictionary(d)
            default: v = .array((0..<n).map { _ in value(depth: depth + 1) })
            }
        }
        if int(0...4) == 0 { pool.append(v) }
        return v
    }
}

/// The number of distinct objects an ideal deduplicating writer emits for `v`: an independent model
/// (hash sets over values) of what the writer's tables do.
public func distinctObjectCount(_ v: PlistValue) -> Int {
    var seen = Set<PlistValue>()
    var containers = Set<PlistValue>()
    var stack = [v]
    while let x = stack.popLast() {
        switch x {
        case .array(let xs), .set(let xs):
            // Equal containers have equal children: visit each distinct container once.
            if containers.insert(x).inserted { stack.append(contentsOf: xs) }
        case .dictionary(let d):
            if containers.insert(x).inserted {
                stack.append(contentsOf: d.keys)
                stack.append(contentsOf: d.values)
            }
        default:
            seen.insert(x)
        }
    }
    return seen.count + containers.count
}

/// A short description of where two values first differ (for readable property failures).
public func firstDifference(_ a: PlistValue, _ b: PlistValue, path: String = "$") -> String? {
    switch (a, b) {
    case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
        if x.count != y.count { return "\(path): \(x.count) vs \(y.count) elements" }
        for (i, (p, q)) in zip(x, y).enumerated() {
            if let d = firstDifference(p, q, path: "\(path).\(i)") { return d }
        }
        return nil
    case (.dictionary(let x), .dictionary(let y)):
        if x.count != y.count { return "\(path): \(x.count) vs \(y.count) entries; keys \(x.keys) vs \(y.keys)" }
        for (k, v) in x.entries {
            guard let w = y[k] else { return "\(path): key \(k) missing" }
            if let d = firstDifference(v, w, path: "\(path).\(k)") { return d }
        }
        return nil
    default:
        return a == b ? nil : "\(path): \(a) vs \(b)"
    }
}
