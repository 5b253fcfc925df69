// Sources/BenchmarkWorkloads/PlistWorkloads.swift - The plist benchmark inputs: in-process, deterministic
// equivalents of ../shared/peers' workloads, or the real files when BENCH_DATA_DIR names a folder.
//
// Shapes follow ../shared/peers/gen_data.py (same fields, key order, value kinds and distributions),
// scaled down by BENCH_DIVISOR (default 25) so that a CI smoke run stays short:
//
//   mixed    array of 50,000 / d dictionaries: name (400 distinct ASCII), title (400 distinct,
//            non-ASCII, so UTF-16), email (unique), id, delta (negative), score (double), active,
//            created (date), blob (16 bytes), tags (3 of 20 words)
//   strings  array of 212,000 / d distinct ASCII strings, 16...56 characters
//   numbers  array of 1,000,000 / d numbers: ints of 8/16/32/63 bits (10 % negative) alternating
//            with doubles in -1e6...1e6
//
// The generated values are not byte-identical to the Python files (another PRNG: the shared
// `SplitMix64`), but malloc counts of the generated inputs are deterministic, which is what
// Benchmarks/Thresholds relies on.
// With BENCH_DATA_DIR set, `<dir>/<name>.bplist` is read instead (e.g. .build-peers/data); the
// thresholds do not apply to such runs.

public import Foundation
public import PropertyList

/// One benchmark input: the tree and its encoding.
public struct Workload: Sendable {
    /// `mixed`, `strings` or `numbers`: the first component of every benchmark name.
    public let name: String
    /// The property list as an owned tree.
    public let value: PlistValue
    /// The binary property list (our writer's output for generated data, else the file's bytes).
    public let bytes: Data
    /// The same, in a zlib envelope (level 1).
    public let zlibBytes: Data
    /// A key path two levels deep into the middle of the file, for lookup benchmarks.
    public let keyPath: PlistKeyPath
    /// Where the bytes came from (`generated/25` or a file path).
    public let source: String

    /// Elements in the top-level array.
    public var count: Int { value.arrayValue?.count ?? 0 }
}

/// How a workload failed to load (unreadable or invalid file).
public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String
}

extension Workload {
    public static let names = ["mixed", "strings", "numbers"]

    /// Loads every workload, from BENCH_DATA_DIR when it is set, else generated at 1/BENCH_DIVISOR.
    public static func loadAll(environment: [String: String]) throws -> [Workload] {
        if let dir = environment["BENCH_DATA_DIR"], !dir.isEmpty {
            return try names.map { try load(name: $0, path: dir + "/" + $0 + ".bplist") }
        }
        let divisor = max(1, environment["BENCH_DIVISOR"].flatMap { Int($0) } ?? 25)
        return try names.map { try generated(name: $0, divisor: divisor) }
    }

    /// A generated workload (see the file header for the shapes).
    public static func generated(name: String, divisor: Int) throws -> Workload {
        var rng = SplitMix64(seed: 20_240_601)
        let value: PlistValue
        switch name {
        case "mixed": value = mixed(count: 50_000 / divisor, &rng)
        case "strings": value = strings(count: 212_000 / divisor, &rng)
        case "numbers": value = numbers(pairs: 500_000 / divisor, &rng)
        default: throw WorkloadError(description: "unknown workload \(name)")
        }
        let bytes = try value.encoded()
        return try Workload(name: name, value: value, bytes: bytes, source: "generated/\(divisor)")
    }

    /// A workload read from a file.
    public static func load(name: String, path: String) throws -> Workload {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw WorkloadError(description: "cannot read \(path): \(error)")
        }
        let value = try BinaryPlistDocument(bytes).value()
        return try Workload(name: name, value: value, bytes: bytes, source: path)
    }

    init(name: String, value: PlistValue, bytes: Data, source: String) throws {
        self.name = name
        self.value = value
        self.bytes = bytes
        self.zlibBytes = try value.encoded(compression: .zlib, options: PlistWriteOptions(compressionLevel: 1))
        self.keyPath = try Workload.middlePath(BinaryPlistDocument(bytes))
        self.source = source
    }

    /// The middle element of the top-level array, then its last key (or middle element).
    static func middlePath(_ doc: BinaryPlistDocument) throws(PlistError) -> PlistKeyPath {
        guard case .array(let refs) = try doc.object(doc.root), !refs.isEmpty else { return PlistKeyPath(keys: []) }
        let middle = refs.count / 2
        switch try doc.object(refs[middle]) {
        case .dictionary(let keys, _) where !keys.isEmpty:
            return PlistKeyPath(keys: ["\(middle)", try doc.string(keys[keys.count - 1]) ?? ""])
        case .array(let inner) where !inner.isEmpty:
            return PlistKeyPath(keys: ["\(middle)", "\(inner.count / 2)"])
        default:
            return PlistKeyPath(keys: ["\(middle)"])
        }
    }
}

// MARK: - Generators

private let words = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
]

/// Non-ASCII title templates (written as UTF-16); `#` is replaced by a number.
private let titles = [
    "Café №#", "Zürich–Genève #", "Ελληνικά #", "日本語テキスト#", "Москва #", "naïve façade #", "emoji 🎉 #",
    "Straße #",
]

private let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.".utf8)

private func padded(_ n: Int, width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}

private func mixed(count: Int, _ rng: inout SplitMix64) -> PlistValue {
    var out: [PlistValue] = []
    out.reserveCapacity(count)
    for i in 0..<count {
        let blob = Data((0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let title = titles[i % 8].replacing("#", with: String(i % 50))
        out.append(
            .dict([
                "name": .string(words[i % 20] + "-" + words[(i / 20) % 20]),
                "title": .string(title),
                "email": .string("user\(padded(i, width: 6))@example.com"),
                "id": .int(i),
                "delta": .int(-Int64(rng.below(1 << 40) + 1)),
                "score": .real(rng.unit() * 1000),
                "active": .bool(i % 3 == 0),
                "created": .date(Date(timeIntervalSinceReferenceDate: Double(rng.below(700_000_000)))),
                "blob": .data(blob),
                "tags": .array((0..<3).map { .string(words[(i + $0) % 20]) }),
            ]))
    }
    return .array(out)
}

private func strings(count: Int, _ rng: inout SplitMix64) -> PlistValue {
    var out: [PlistValue] = []
    out.reserveCapacity(count)
    for i in 0..<count {
        let n = 8 + Int(rng.below(41))
        var bytes = Array((padded(i, width: 7) + ":").utf8)
        for _ in 0..<n { bytes.append(alphabet[Int(rng.below(UInt64(alphabet.count)))]) }
        out.append(.string(String(decoding: bytes, as: UTF8.self)))
    }
    return .array(out)
}

private func numbers(pairs: Int, _ rng: inout SplitMix64) -> PlistValue {
    var out: [PlistValue] = []
    out.reserveCapacity(2 * pairs)
    for i in 0..<pairs {
        let bits: UInt64 = [8, 16, 32, 63][i % 4]
        let v = Int64(rng.below(1 << bits))
        out.append(.int(i % 10 == 9 ? -v : v))
        out.append(.real(rng.unit() * 2e6 - 1e6))
    }
    return .array(out)
}
