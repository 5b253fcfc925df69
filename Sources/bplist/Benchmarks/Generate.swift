// Sources/bplist/Benchmarks/Generate.swift - `bplist generate WORKLOAD --out FILE (--bytes SIZE | --objects N)`.
//
// Writes a synthetic property list of any size through `StreamingPlistWriter`, in constant memory:
// the input of the scale-curve benchmarks (decode, open and lookup of files from 1 MB to 1 GB and
// beyond). The workloads have the shape of ../shared/peers/gen_data.py's, scaled: a root array of
// elements generated in order from one seeded SplitMix64 stream, so a seed gives the same file
// every time (the values differ from gen_data.py's, which come from Python's Mersenne Twister; the
// kinds, lengths and repeats follow it):
//
//   mixed    dictionaries of name (400 distinct ASCII), title (400 distinct UTF-16), email (unique),
//            id (the index), delta (negative, 1...2^40), score (0 ..< 1000), active (every third),
//            created (a date in 2001 ..< 2023, whole seconds), blob (16 random bytes), tags (3 of 20
//            words), in that key order: 24 objects per element
//   strings  distinct ASCII strings "%07d:" + 8...48 random characters of a 66-character alphabet
//   numbers  integers (8-, 16-, 32-, 63-bit in turn, every tenth pair negative) alternating with
//            reals uniform in -1e6 ..< 1e6
//
// With --bytes the element count is chosen from calibration runs over the first elements (into a
// sink that only counts), so the file comes within about 1 % of the size (sizes just above 64 KiB,
// which 2-byte offsets cannot reach and 4-byte offsets overshoot, come out below); with --objects
// the object count is exact (the root plus whole elements: at least N). The reference width is
// then minimal (the object count is known before the first byte), and the offset table goes to a
// temporary file in the output's directory beyond 2 million objects. The file is written under a
// hidden temporary name beside FILE and renamed over it at the end (removed on failure).

import ArgumentParser
import BenchmarkWorkloads
import Foundation
import PropertyList

struct Generate: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic binary property list of a given size, streaming, in constant memory.",
        discussion: """
            WORKLOAD is mixed, strings or numbers: the shapes of the peers' benchmark files \
            (../shared/peers/gen_data.py), scaled to --bytes SIZE (about; K, M, G = 2^10, 2^20, 2^30) \
            or --objects N (the root and whole elements, at least N objects). The same --seed gives \
            the same bytes. Two typedstream workloads are written whole, not streamed (--objects is \
            their element count, --bytes an estimate): messages, a plist array of N Messages \
            attributedBody blobs; typedstream, one stream of an NSArray of N records full of \
            references. A summary line 'generate WORKLOAD: E elements, N objects, B bytes in S s \
            (R MB/s) -> FILE' goes to standard error. --verify then reads the file back (into memory, \
            element by element) and checks every element against the generator.

            Examples:
              bplist generate mixed --bytes 1G --out mixed-1g.bplist
              bplist generate mixed --objects 100000000 --out big.bplist
              bplist generate strings --bytes 10M --out strings.bplist --verify

            Exit status: 0 on success; 1 on any error (one 'error: ...' line on standard error; the \
            partial output is removed); 64 for usage errors.
            """
    )

    enum Workload: String, ExpressibleByArgument, CaseIterable {
        case mixed, strings, numbers
        /// typedstreams (BenchTypedStream.swift): Messages bodies in a plist, one stream of records.
        case messages, typedstream
    }

    @Argument(help: "The workload: mixed, strings, numbers, messages or typedstream.")
    var workload: Workload

    @Option(name: .long, help: "Where to write ('-' for standard output).")
    var out: String

    @Option(name: .long, help: "About how large the file should be: a byte count with an optional K, M or G.")
    var bytes: String?

    @Option(name: .long, help: "How many objects the file should hold (at least; rounded up to whole elements).")
    var objects: Int?

    @Option(name: .long, help: "The seed of the generator.")
    var seed: UInt64 = 20_240_601

    @Option(
        name: .long,
        help: "Memory for the writer's table of repeated scalars (default: the writer's, 32M; 0 = no deduplication).")
    var dedupMemory: String?

    @Flag(name: .long, help: "Read the file back and check every element.")
    var verify = false

    func validate() throws {
        switch (bytes, objects) {
        case (nil, nil): throw ValidationError("give --bytes SIZE or --objects N")
        case (.some, .some): throw ValidationError("give --bytes or --objects, not both")
        case (.some(let text), nil):
            guard let n = Generate.parseSize(text), n >= 64 else {
                throw ValidationError("--bytes '\(text)' is not a size of at least 64 bytes (such as 4096, 10M, 1G)")
            }
        case (nil, .some(let n)):
            guard n >= 1 else { throw ValidationError("--objects must be at least 1") }
        }
        if let text = dedupMemory, Generate.parseSize(text) == nil {
            throw ValidationError("--dedup-memory '\(text)' is not a size (such as 0, 4M, 32M)")
        }
        if verify && out == "-" { throw ValidationError("--verify needs a file, not standard output") }
        if verify && (workload == .messages || workload == .typedstream) {
            throw ValidationError("--verify is for the streamed workloads (mixed, strings, numbers)")
        }
    }

    func execute() throws {
        switch workload {
        case .mixed: try run(MixedWorkload.self)
        case .strings: try run(StringsWorkload.self)
        case .numbers: try run(NumbersWorkload.self)
        case .messages, .typedstream:
            let messages = workload == .messages
            let count =
                objects
                ?? max(1, (Generate.parseSize(bytes ?? "") ?? 0) / BenchTypedStream.bytesPerElement(messages: messages))
            try BenchTypedStream.generate(messages: messages, count: count, seed: seed, out: out)
        }
    }

    private func run<W: SyntheticWorkload>(_: W.Type) throws {
        let elements: Int
        if let objects {
            elements = (objects - 1 + W.objectsPerElement - 1) / W.objectsPerElement
        } else {
            elements = try Generate.elementCount(W.self, bytes: Generate.parseSize(bytes ?? "") ?? 0, seed: seed)
        }
        let (objectCount, overflow) = elements.multipliedReportingOverflow(by: W.objectsPerElement)
        guard !overflow, objectCount < Int.max else { throw ToolError("\(elements) elements are too many objects") }

        let start = ContinuousClock.now
        // Written through the library's atomic write, as the tool's other file outputs are: a
        // temporary file beside FILE, flushed, renamed over it.
        let file: AtomicFile? = out == "-" ? nil : AtomicFile(path: out)
        let sink: any PlistByteSink = file ?? PlistFileSink(fileDescriptor: 1)
        let directory = file?.directory ?? "."
        let trailer: BinaryPlistTrailer
        do {
            var options = StreamingPlistWriter.Options(
                expectedObjectCount: objectCount + 1, temporaryDirectory: directory)
            if let memory = dedupMemory.flatMap(Generate.parseSize) {
                options.deduplicates = memory > 0
                options.deduplicationMemory = memory
            }
            var writer = StreamingPlistWriter(to: sink, options: options)
            var generator = W(seed: seed)
            try writer.beginArray(count: elements)
            for i in 0..<elements { try generator.write(i, to: &writer) }
            try writer.end()
            trailer = try writer.finish()
            if let file {
                do {
                    try file.commit()
                } catch {
                    throw ToolError(error.detail)
                }
            }
        } catch {
            file?.abandon()
            throw error
        }
        let seconds = Generate.seconds(since: start)
        let size = trailer.offsetTableOffset + trailer.objectCount * trailer.offsetIntSize + BinaryPlistTrailer.size
        IO.printError(
            "generate \(workload.rawValue): \(Generate.grouped(elements)) elements, "
                + "\(Generate.grouped(trailer.objectCount)) objects, \(Generate.grouped(size)) bytes in "
                + String(format: "%.2f s (%.1f MB/s)", seconds, Double(size) / 1e6 / max(seconds, 1e-9))
                + " -> \(out)")
        if verify { try Generate.verify(W.self, path: out, trailer: trailer, elements: elements, seed: seed) }
    }

    /// The element count that makes a file of about `bytes` bytes, from calibration runs over the first
    /// elements (as many as the estimate when it is below 8,192, since first occurrences weigh more
    /// in a small file).
    static func elementCount<W: SyntheticWorkload>(_: W.Type, bytes target: Int, seed: UInt64) throws -> Int {
        var elements = max(1, target / 64)
        var calibrated = 0
        for _ in 0..<3 {
            let sample = min(8192, elements)
            if sample == calibrated { break }
            calibrated = sample
            var writer = StreamingPlistWriter(to: CountingSink())
            try writer.beginArray(count: sample)
            let before = writer.byteCount
            var generator = W(seed: seed)
            for i in 0..<sample { try generator.write(i, to: &writer) }
            // Bytes per element apart from references (written 4 bytes wide here) and offsets.
            let payload = Double(writer.byteCount - before) / Double(sample) - Double(4 * W.referencesPerElement)
            // Widths follow from the counts and the table's position, which follow from the widths:
            // the smallest offset width whose file reaches its table with that width.
            let sampled = elements
            for offset in [1, 2, 4, 8] {
                var e = sampled
                var objectBytes = 0.0
                for _ in 0..<4 {
                    let ref = Self.width(1 + e * W.objectsPerElement)
                    objectBytes = payload + Double(ref * (W.referencesPerElement + 1))
                    let perElement = objectBytes + Double(offset * W.objectsPerElement)
                    let fixed = 8 + 9 + offset + BinaryPlistTrailer.size
                    e = max(1, Int((Double(target - fixed) / perElement).rounded()))
                }
                elements = e
                if Self.width(8 + 9 + Int(Double(e) * objectBytes)) <= offset { break }
            }
        }
        return elements
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds `n`.
    static func width(_ n: Int) -> Int { n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : n <= 0xFFFF_FFFF ? 4 : 8 }

    /// Reads the file back and compares every element with a fresh generator's.
    ///
    /// The file is read into memory, not mapped: each `value(of:)` on a mapped document copies the
    /// whole input once for its strings (a decode's string buffer), which per element of a large file
    /// would never end.
    static func verify<W: SyntheticWorkload>(
        _: W.Type, path: String, trailer: BinaryPlistTrailer, elements: Int, seed: UInt64
    ) throws {
        let start = ContinuousClock.now
        var limits = PlistLimits.default
        limits.maxObjects = max(limits.maxObjects, trailer.objectCount)
        let document = try BinaryPlistDocument(contentsOf: URL(fileURLWithPath: path), access: .read, limits: limits)
        guard document.trailer == trailer else {
            throw ToolError("verify: the trailer read back differs from the one written", code: "verify")
        }
        guard case .array(let list) = try document.object(document.root), list.count == elements else {
            throw ToolError("verify: the root is not an array of \(elements) elements", code: "verify")
        }
        var generator = W(seed: seed)
        for i in 0..<elements {
            let expected = generator.value(i)
            let got = try document.value(of: list[i])
            guard got == expected else {
                throw ToolError("verify: element \(i) is \(got), not \(expected)", code: "verify")
            }
        }
        IO.printError(
            "verify: \(grouped(elements)) elements equal the generator's ("
                + String(format: "%.2f s", seconds(since: start)) + ")")
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = start.duration(to: .now).components
        return Double(d.seconds) + Double(d.attoseconds) * 1e-18
    }

    /// `4096`, `10M`, `1G`, `512k`, `2GB`: a byte count (K, M, G, T = powers of 1,024).
    static func parseSize(_ text: String) -> Int? {
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        var scale = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][unit] {
            scale = 1 << (10 * power)
            digits = digits.dropLast()
        }
        guard let n = Int(digits), n >= 0 else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : v
    }

    /// `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0 && (s.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}

/// Appends the decimal digits of `n` (non-negative), zero-padded to `minimum` digits.
func appendDigits(_ n: Int, minimum: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    var digits = 1
    while divisor <= n / 10 {
        divisor *= 10
        digits += 1
    }
    for _ in digits..<max(minimum, digits) { bytes.append(UInt8(ascii: "0")) }
    while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(n / divisor % 10))
        divisor /= 10
    }
}

/// A sink that keeps only the count (the size calibration).
final class CountingSink: PlistByteSink {
    var count = 0
    func write(_ bytes: Span<UInt8>) throws(PlistError) { count += bytes.count }
}

/// A root array's elements, generated in order: written to a streaming writer, or built as a value
/// (for --verify). Both consume the generator's stream alike, so element i is the same either way.
protocol SyntheticWorkload {
    /// Objects one element adds: itself and everything in it.
    static var objectsPerElement: Int { get }
    /// Object references inside one element (its containers' reference lists).
    static var referencesPerElement: Int { get }
    init(seed: UInt64)
    mutating func write(_ i: Int, to writer: inout StreamingPlistWriter) throws(PlistError)
    mutating func value(_ i: Int) -> PlistValue
}

/// gen_data.py's `mixed` records.
struct MixedWorkload: SyntheticWorkload {
    static let objectsPerElement = 24
    static let referencesPerElement = 23

    static let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
        "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    ]
    /// Non-ASCII strings (UTF-16BE in the file); `#` is replaced by a number 0...49.
    static let titles = [
        "Café №#", "Zürich–Genève #", "Ελληνικά #", "日本語テキスト#", "Москва #", "naïve façade #", "emoji 🎉 #",
        "Straße #",
    ]
    static let keys = ["name", "title", "email", "id", "delta", "score", "active", "created", "blob", "tags"]

    /// The 400 names (`words[j % 20]-words[j / 20]`) and 400 titles, made once.
    let names: [String] = (0..<400).map { words[$0 % 20] + "-" + words[$0 / 20] }
    let titleTexts: [String] = (0..<400).map { titles[$0 / 50].replacingOccurrences(of: "#", with: String($0 % 50)) }

    var rng: SplitMix64
    var blob = [UInt8](repeating: 0, count: 16)
    var text: [UInt8] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The random fields of element i, in the order gen_data.py draws them.
    private mutating func draw() -> (delta: Int64, score: Double, created: Double) {
        let delta = -Int64(1 + rng.below((1 << 40) - 1))
        let score = rng.unit() * 1000
        let created = Double(rng.below(700_000_000))
        let a = rng.next()
        let b = rng.next()
        for k in 0..<8 {
            blob[k] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(k)))
            blob[8 + k] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(k)))
        }
        return (delta, score, created)
    }

    /// `user000042@example.com`: at least 6 digits.
    private mutating func email(_ i: Int) -> String {
        text.removeAll(keepingCapacity: true)
        text.append(contentsOf: "user".utf8)
        appendDigits(i, minimum: 6, to: &text)
        text.append(contentsOf: "@example.com".utf8)
        return String(decoding: text, as: UTF8.self)
    }

    mutating func write(_ i: Int, to w: inout StreamingPlistWriter) throws(PlistError) {
        let r = draw()
        let keys = Self.keys
        try w.beginDictionary(count: 10)
        try w.key(keys[0])
        try w.string(names[i % 400])
        try w.key(keys[1])
        try w.string(titleTexts[(i % 8) * 50 + i % 50])
        try w.key(keys[2])
        try w.string(email(i))
        try w.key(keys[3])
        try w.int(i)
        try w.key(keys[4])
        try w.int(r.delta)
        try w.key(keys[5])
        try w.real(r.score)
        try w.key(keys[6])
        try w.bool(i % 3 == 0)
        try w.key(keys[7])
        try w.date(Date(timeIntervalSinceReferenceDate: r.created))
        try w.key(keys[8])
        try w.data(bytes: blob.span)
        try w.key(keys[9])
        try w.beginArray(count: 3)
        for k in 0..<3 { try w.string(Self.words[(i + k) % 20]) }
        try w.end()
        try w.end()
    }

    mutating func value(_ i: Int) -> PlistValue {
        let r = draw()
        let values: [PlistValue] = [
            .string(names[i % 400]), .string(titleTexts[(i % 8) * 50 + i % 50]), .string(email(i)), .int(i),
            .int(r.delta), .real(r.score), .bool(i % 3 == 0), .date(Date(timeIntervalSinceReferenceDate: r.created)),
            .data(Data(blob)), .array((0..<3).map { .string(Self.words[(i + $0) % 20]) }),
        ]
        return .dictionary(PlistDictionary(zip(Self.keys.map { PlistValue.string($0) }, values)))
    }
}

/// gen_data.py's `strings`: distinct ASCII strings of 16...56 characters.
struct StringsWorkload: SyntheticWorkload {
    static let objectsPerElement = 1
    static let referencesPerElement = 0
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.".utf8)

    var rng: SplitMix64
    var buffer: [UInt8] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private mutating func draw(_ i: Int) -> String {
        buffer.removeAll(keepingCapacity: true)
        appendDigits(i, minimum: 7, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        let n = 8 + Int(rng.below(41))
        // Eight characters from each random word: a byte scaled to the alphabet.
        var k = 0
        while k < n {
            var word = rng.next()
            for _ in 0..<min(8, n - k) {
                buffer.append(Self.alphabet[Int((word & 0xFF) &* UInt64(Self.alphabet.count) >> 8)])
                word >>= 8
            }
            k += 8
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    mutating func write(_ i: Int, to w: inout StreamingPlistWriter) throws(PlistError) {
        try w.string(draw(i))
    }

    mutating func value(_ i: Int) -> PlistValue { .string(draw(i)) }
}

/// gen_data.py's `numbers`: integers of 8, 16, 32 and 63 bits in turn (every tenth pair negative),
/// each followed by a real.
struct NumbersWorkload: SyntheticWorkload {
    static let objectsPerElement = 1
    static let referencesPerElement = 0

    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private mutating func draw(_ i: Int) -> PlistValue {
        let pair = i / 2
        guard i % 2 == 0 else { return .real((rng.unit() * 2 - 1) * 1e6) }
        let bits = [8, 16, 32, 63][pair % 4]
        let v = Int64(bitPattern: rng.next() & ((1 << UInt64(bits)) - 1))
        return .int(pair % 10 == 9 ? -v : v)
    }

    mutating func write(_ i: Int, to w: inout StreamingPlistWriter) throws(PlistError) {
        try w.value(draw(i))
    }

    mutating func value(_ i: Int) -> PlistValue { draw(i) }
}
