// Sources/bplist/Benchmarks/Bench.swift - `bplist bench FILE REPS [OUT]`: the peer protocol of ../shared/peers.
//
// One process per (codec, workload), like every peer: the file is read before any timing, then each
// operation runs WARMUP untimed times (environment, default 1) and REPS timed times, and prints one
// JSON line:
//
//   {"peer":"ours","workload":"mixed","op":"decode","median_ms":..,"min_ms":..,"times_ms":[..],
//    "in_bytes":..,"out_bytes":..,"items":..}
//
// MB/s is computed by the caller as in_bytes / median (in_bytes is always the input file's size, also
// for encode and the zlib operations, so every op of a workload shares one denominator). The clock is
// monotonic; the previous repetition's result is released before the clock starts.
//
// Operations (BENCH_OPS=decode,encode,... selects some, BENCH_OPS=all adds the keyed ones to the default):
//   decode        BinaryPlistDocument(data).value(): open, validate and build the full owned tree
//   encode        BinaryPlistWriter().write(tree), deduplicating; written to OUT when given
//   encode-compact  the same with `widths: .compact` (1-8 byte references and offsets, smallest output)
//   open          BinaryPlistDocument(data): header, trailer and whole offset-table validation
//   lookup        doc.lookup(path) on an opened document, for one two-level key path chosen up front
//   deflate       BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(tree)
//   inflate       Zlib.inflate of that output (zlib's own cost, the lower bound of the next op)
//   zlib-decode   BinaryPlistDocument(compressed).value(): inflate + full decode
//   decode-codable  PlistDecoder().decode(Model.self, from: data) into the peers' Codable models
//                 (../shared/peers/swift-peer: [Record] for mixed, [String] for strings, Numbers for numbers;
//                 chosen by the file name's prefix; skipped for other files unless asked for by name)
//   encode-codable  PlistEncoder().encode(model) of what decode-codable returned; written to OUT when
//                 `encode` is not measured
//   decode-codable-floor, encode-codable-floor  (by name only, either form) the floor of Codable on the same
//                 model: its init(from:) against a decoder that replays recorded scalars, its encode(to:)
//                 against an encoder that writes nothing (CodableFloor.swift)
// On the file itself, without reading it first (opt-in, for the scale curve; when only these are
// asked for, the file is never read into memory, so peak RSS is what they cost):
//   open-file     BinaryPlistDocument(contentsOf:access: .mappedIfLarge): a map (from 1 MiB) and the validation
//   lookup-file   the same open, then the lookup above: RSS is the offset table plus the path's pages
//   decode-file   the same open, then value(): the whole tree from the mapped file
//   decode-codable-file   the same open, then PlistDecoder().decode([Record].self, from: document) (mixed)
//   lookup-codable-file   the same open, then PlistDecoder().decode(Record.self, from: document, at: path)
//                 of the middle record (mixed): RSS is the offset table plus that record's pages
// And for a keyed archive (a root dictionary with `$archiver`), through KeyedArchive:
//   unarchive     KeyedUnarchiver.unarchivedObject(ofClass: [Person].self): the object graph, as
//                 NSKeyedUnarchiver does in the peers (classes swift_peer.Person / swift_peer.Dog)
//   archive       KeyedArchiver.archivedData(withRootObject:) of those objects
//   unarchive-macro, archive-macro  the same with classes whose conformance `@KeyedArchivable` generates
//                 (built with the package trait MacroBench: `swift build -c release --traits MacroBench`;
//                 off by default so that the tool builds without swift-syntax)
//   graph         KeyedArchiveGraph(data): the generic, class-agnostic decode
// And for a typedstream, or a plist whose root array holds typedstreams (BenchTypedStream.swift):
//   ts-events, ts-read, ts-decode, ts-archive-decode, ts-messages (all by default)
// On an archive of the realistic people workload (BenchPeople.swift), unarchive/archive and their
// -macro twins decode and write its classes instead; `archive` writes to OUT when `encode` is not asked.
//
// The XML form (FORM=xml in the environment, as ../shared/peers/bench.sh passes it to every peer, or an
// input that is an XML property list): the same JSON lines and operation names, on XML:
//   decode        XMLPlist.decode(data): the full owned tree
//   encode        XMLPlist.encode(tree); written to OUT when given
//   decode-codable  PlistDecoder().decode(Model.self, from: data) of the XML input
//   encode-codable  PlistEncoder with outputFormat .xml
// The operations of the binary form alone (encode-compact, open, lookup, zlib, keyed, file) are left
// out of the defaults and of BENCH_OPS=all, and are an error when named.

import ArgumentParser
import BenchmarkWorkloads
import Foundation
import KeyedArchive
@_spi(Internals) import PropertyList
import TypedStream

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time decode/encode of one file, printing one JSON line per operation.",
        discussion: """
            Reads FILE, then for each operation runs $WARMUP (default 1) untimed and REPS timed \
            repetitions and prints {"peer":"ours","workload":...,"op":...,"median_ms":...}. \
            Operations: decode, encode, encode-compact, open, lookup, deflate, inflate, zlib-decode, \
            decode-codable and encode-codable (PlistDecoder/PlistEncoder into the peers' Codable models, for files \
            named mixed*, strings*, numbers*), and for keyed \
            archives unarchive, archive, graph, and unarchive-macro, archive-macro when built with the \
            MacroBench trait ($BENCH_OPS=decode,encode selects some; \
            $BENCH_OPS=all runs all, including the keyed ones, which are off by default). The encoded output is written to OUT when given. \
            With $FORM=xml (or an XML input) FILE is read as an XML property list and encode writes XML: \
            decode, encode, decode-codable, encode-codable.
            """
    )

    /// The keyed operations are opt-in (`BENCH_OPS=all`): they need the peers' `swift_peer.Person`
    /// archive (any other keyed file fails the `Person` decode), and the peers' protocol knows only
    /// `decode` and `encode`.
    static let defaultOperations = [
        "decode", "encode", "encode-compact", "open", "lookup", "deflate", "inflate", "zlib-decode",
        "decode-codable", "encode-codable",
    ]
    #if MacroBench
        static let macroOperations = ["unarchive-macro", "archive-macro"]
    #else
        static let macroOperations: [String] = []
    #endif
    static let fileOperations: Set = [
        "open-file", "lookup-file", "decode-file", "decode-codable-file", "lookup-codable-file",
    ]
    static let allOperations =
        defaultOperations + ["unarchive", "archive"] + macroOperations + ["graph"] + fileOperations.sorted()
        + BenchTypedStream.operations
    /// The floor of Codable on the peers' models (CodableFloor.swift): asked for by name only.
    static let floorOperations = ["decode-codable-floor", "encode-codable-floor"]
    static let codableOperations = Set(["decode-codable", "encode-codable"] + floorOperations)
    /// The operations of the XML form (FORM=xml): the peers' two and the Codable pair (and the floor,
    /// by name).
    static let xmlOperations = ["decode", "encode", "decode-codable", "encode-codable"]

    @Argument(help: "The property list to time (binary; XML with FORM=xml).")
    var file: String

    @Argument(help: "Timed repetitions of each operation.")
    var reps: Int

    @Argument(help: "Where to write the encoded output (optional).")
    var out: String?

    mutating func validate() throws {
        guard reps >= 1 else { throw ValidationError("REPS must be at least 1") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let warmup = environment["WARMUP"].flatMap { Int($0) } ?? 1
        let requested = environment["BENCH_OPS"] ?? Bench.defaultOperations.joined(separator: ",")
        let ops = requested == "all" ? Set(Bench.allOperations) : Set(requested.split(separator: ",").map(String.init))
        if let unknown = ops.first(where: { !Bench.allOperations.contains($0) && !Bench.floorOperations.contains($0) })
        {
            if unknown.hasSuffix("-macro") {
                throw ValidationError(
                    "'\(unknown)': this bplist was built without the MacroBench trait "
                        + "(swift build -c release --product bplist --traits MacroBench)")
            }
            throw ValidationError("unknown operation '\(unknown)' in BENCH_OPS")
        }
        if !ops.isEmpty, ops.isSubset(of: Bench.fileOperations) {
            try fileOperations(ops, warmup: max(0, warmup))
            return
        }
        let input: Data
        do {
            input = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ValidationError("cannot read '\(file)': \(error.localizedDescription)")
        }
        let workload = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var timer = RepTimer(warmup: max(0, warmup), reps: reps)
        let report = Reporter(workload: workload, inBytes: input.count)
        if environment["FORM"] == "xml" || XMLPlist.looksLikeXML(input) {
            let asked = environment["BENCH_OPS"].map { $0 != "all" } ?? false
            let xmlOps = asked ? ops : Set(Bench.xmlOperations)
            if let binaryOnly = xmlOps.first(where: {
                !Bench.xmlOperations.contains($0) && !Bench.floorOperations.contains($0)
            }) {
                throw ValidationError(
                    "'\(binaryOnly)' is an operation of the binary form; the XML form (FORM=xml or an XML input) "
                        + "has \(Bench.xmlOperations.joined(separator: ", "))")
            }
            let named = environment["BENCH_OPS"].map { $0 != "all" && $0.contains("codable") } ?? false
            try xml(input, workload: workload, ops: xmlOps, named: named, timer: &timer, report: report)
            return
        }
        if let blobs = BenchTypedStream.blobs(input) {
            // A typedstream, or a plist of them (see BenchTypedStream.swift).
            try BenchTypedStream.run(
                blobs, isMessages: !TypedStreamArchive.isTypedStream(input), ops: requested == "all" ? [] : ops,
                timer: &timer, report: report)
            return
        }
        if [.openStep, .json].contains(PlistInput.sniff(input)) {
            throw ValidationError(
                "bench times the binary and XML forms (the peers' protocol); '\(file)' is "
                    + "\(Validate.name(PlistInput.sniff(input))): 'bplist convert FILE --to binary' first")
        }

        var compressed: Data?
        var items = 0
        do {
            // The owned tree lives in this block only: it is released before the operations below, so
            // they do not raise the peak RSS above that of the decode/encode pair.
            var decodeTimer = ops.contains("decode") ? timer : RepTimer(warmup: 0, reps: 1)
            let tree = try decodeTimer.measure { () throws(PlistError) in try BinaryPlistDocument(input).value() }
            items = Bench.topCount(tree)
            if ops.contains("decode") { report("decode", decodeTimer.times, items: items) }

            if ops.contains("encode") {
                let encoded = try timer.measure { () throws(PlistError) in try BinaryPlistWriter().write(tree) }
                report("encode", timer.times, outBytes: encoded.count, items: items)
                if let out {
                    try IO.write(encoded, to: out)
                }
            }

            if ops.contains("encode-compact") {
                let writer = BinaryPlistWriter(widths: .compact)
                let encoded = try timer.measure { () throws(PlistError) in try writer.write(tree) }
                report("encode-compact", timer.times, outBytes: encoded.count, items: items)
            }

            if ops.contains("deflate") || ops.contains("inflate") || ops.contains("zlib-decode") {
                let writer = BinaryPlistWriter(compression: .zlib, compressionLevel: 1)
                let z = try timer.measure { () throws(PlistError) in try writer.write(tree) }
                if ops.contains("deflate") { report("deflate", timer.times, outBytes: z.count, items: items) }
                compressed = z
            }
        }

        if ops.contains("open") || ops.contains("lookup") {
            let doc = try timer.measure { () throws(PlistError) in try BinaryPlistDocument(input) }
            if ops.contains("open") { report("open", timer.times, items: doc.objectCount) }
            if ops.contains("lookup") {
                let path = try Bench.samplePath(doc)
                let keyPath = PlistKeyPath(
                    keys: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
                _ = try timer.measure { () throws(PlistError) in try doc.lookup(keyPath) }
                report("lookup", timer.times, items: path.isEmpty ? 0 : path.split(separator: ".").count)
            }
        }

        if !ops.isDisjoint(with: Bench.codableOperations) {
            let named = environment["BENCH_OPS"].map { $0 != "all" && $0.contains("codable") } ?? false
            try codable(input, workload: workload, ops: ops, named: named, timer: &timer, report: report)
        }

        let keyedOps: Set = ["unarchive", "archive", "unarchive-macro", "archive-macro", "graph"]
        if !ops.isDisjoint(with: keyedOps), (try? BinaryPlistDocument(input).ref(at: "$archiver")) != nil {
            try keyed(input, ops: ops, timer: &timer, report: report)
        }

        if let compressed {
            if ops.contains("inflate") {
                let plain = try timer.measure { () throws(PlistError) in
                    try Zlib.inflate(compressed, limit: PlistLimits.default.maxDecompressedBytes)
                }
                report("inflate", timer.times, outBytes: plain.count, items: 1)
            }
            if ops.contains("zlib-decode") {
                _ = try timer.measure { () throws(PlistError) in try BinaryPlistDocument(compressed).value() }
                report("zlib-decode", timer.times, items: items)
            }
        }
    }

    /// `open-file` and `lookup-file`: the file is mapped, never read whole.
    private func fileOperations(_ ops: Set<String>, warmup: Int) throws {
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        let report = Reporter(workload: url.deletingPathExtension().lastPathComponent, inBytes: size)
        var timer = RepTimer(warmup: warmup, reps: reps)
        // Each document is closed (unmapped) before the next one opens, so that the peak RSS of the
        // process is that of one open document, as a user's would be.
        if ops.contains("open-file") {
            let doc = try timer.measure { () throws(PlistError) in
                try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge)
            }
            report("open-file", timer.times, items: doc.objectCount)
        }
        if ops.contains("lookup-file") {
            let path = try Bench.samplePath(BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge))
            let keyPath = PlistKeyPath(
                keys: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
            _ = try timer.measure { () throws(PlistError) in
                try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge).lookup(keyPath)
            }
            report("lookup-file", timer.times, items: path.isEmpty ? 0 : path.split(separator: ".").count)
        }
        if ops.contains("decode-file") {
            let tree = try timer.measure { () throws(PlistError) in
                try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge).value()
            }
            report("decode-file", timer.times, items: Bench.topCount(tree))
        }
        if ops.contains("decode-codable-file") {
            let records = try timer.measure {
                try PlistDecoder().decode(
                    [BenchRecord].self, from: BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge))
            }
            report("decode-codable-file", timer.times, items: records.count)
        }
        if ops.contains("lookup-codable-file") {
            // The probe document is released before the timed opens (one map at a time, as in lookup-file).
            let count = try { () throws -> Int in
                let doc = try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge)
                guard case .array(let list) = try doc.object(doc.root) else { return 0 }
                return list.count
            }()
            guard count > 0 else { throw ValidationError("lookup-codable-file: the root is not a non-empty array") }
            let path: PlistKeyPath = [PlistKeyPath.Component(index: count / 2)]
            _ = try timer.measure {
                try PlistDecoder().decode(
                    BenchRecord.self, from: BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge), at: path)
            }
            report("lookup-codable-file", timer.times, items: 1)
        }
    }

    /// The XML form: `decode` and `encode` of the owned tree, then the Codable pair on XML.
    private func xml(
        _ input: Data, workload: String, ops: Set<String>, named: Bool, timer: inout RepTimer, report: Reporter
    ) throws {
        if ops.contains("decode") || ops.contains("encode") {
            // The tree lives in this block only (as in the binary form).
            var decodeTimer = ops.contains("decode") ? timer : RepTimer(warmup: 0, reps: 1)
            let tree = try decodeTimer.measure { () throws(PlistError) in try XMLPlist.decode(input) }
            let items = Bench.topCount(tree)
            if ops.contains("decode") { report("decode", decodeTimer.times, items: items) }
            if ops.contains("encode") {
                let encoded = try timer.measure { () throws(PlistError) in try XMLPlist.encode(tree) }
                report("encode", timer.times, outBytes: encoded.count, items: items)
                if let out {
                    try encoded.write(to: URL(fileURLWithPath: out))
                }
            }
        }
        if !ops.isDisjoint(with: Bench.codableOperations) {
            try codable(input, workload: workload, ops: ops, named: named, format: .xml, timer: &timer, report: report)
        }
    }

    /// `decode-codable` and `encode-codable`: the peers' Codable models, chosen by the file name (a
    /// file without one is skipped, or an error when BENCH_OPS names these operations); encode
    /// writes `format`.
    private func codable(
        _ input: Data, workload: String, ops: Set<String>, named: Bool, format: PlistFormat = .binary,
        timer: inout RepTimer, report: Reporter
    ) throws {
        var encoder = PlistEncoder()
        encoder.outputFormat = format
        func run<T: Codable>(_ type: T.Type, count: (T) -> Int) throws {
            // Decoded once, untimed, when only the other operations are asked for.
            var decodeTimer = ops.contains("decode-codable") ? timer : RepTimer(warmup: 0, reps: 1)
            let value = try decodeTimer.measure { try PlistDecoder().decode(T.self, from: input) }
            if ops.contains("decode-codable") { report("decode-codable", decodeTimer.times, items: count(value)) }
            if ops.contains("decode-codable-floor") {
                // The same model from recorded scalars (CodableFloor.swift); the recording is untimed.
                let recorded = try FloorEncoder.record(value)
                // The root through `value`, as PlistDecoder decodes its root (an array of strings in one loop).
                let replayed = try timer.measure { try FloorDecoder(recorded).value(T.self) }
                // Its long strings and data are inline stand-ins (CodableFloor.swift): its shape is checked.
                guard count(replayed) == count(value) else {
                    throw ValidationError(
                        "decode-codable-floor: the replay made \(count(replayed)) items, not \(count(value))")
                }
                report("decode-codable-floor", timer.times, items: count(replayed))
            }
            if ops.contains("encode-codable-floor") {
                let scalars = try timer.measure { try FloorEncoder.count(value) }
                report("encode-codable-floor", timer.times, items: scalars)
            }
            if ops.contains("encode-codable") {
                let encoded = try timer.measure { try encoder.encode(value) }
                report("encode-codable", timer.times, outBytes: encoded.count, items: count(value))
                if let out, !ops.contains("encode") {
                    try IO.write(encoded, to: out)
                }
            }
        }
        if workload.hasPrefix("mixed") {
            try run([BenchRecord].self) { $0.count }
        } else if workload.hasPrefix("strings") {
            try run([String].self) { $0.count }
        } else if workload.hasPrefix("numbers") {
            try run(BenchNumbers.self) { $0.ints.count + $0.doubles.count }
        } else if named {
            throw ValidationError(
                "decode-codable/encode-codable: no Codable model for '\(workload)' (the file name must start with "
                    + "mixed, strings or numbers)")
        }
    }

    /// The keyed-archive operations on the peers' 20,000-`Person` archive, or on the people workload.
    private func keyed(_ input: Data, ops: Set<String>, timer: inout RepTimer, report: Reporter) throws {
        if Bench.isPeopleArchive(input) {
            // OUT holds the encode output when there is one, otherwise our archive of the people graph.
            try people(input, ops: ops, timer: &timer, report: report, out: ops.contains("encode") ? nil : out)
            if ops.contains("graph") {
                let graph = try timer.measure { try KeyedArchiveGraph(input) }
                report("graph", timer.times, items: graph.nodes.count)
            }
            return
        }
        if ops.contains("unarchive") || ops.contains("archive") {
            let persons = try timer.measure {
                try KeyedUnarchiver.unarchivedObject(ofClass: [BenchPerson].self, from: input)
            }
            // The shape the peers check: each run of ten persons shares one dog instance.
            if persons.count > 10, persons[0].dog == nil || persons[0].dog !== persons[9].dog {
                throw ValidationError("unarchive: the dogs of persons 0 and 9 are not one shared instance")
            }
            if ops.contains("unarchive") { report("unarchive", timer.times, items: persons.count) }
            if ops.contains("archive") {
                let data = try timer.measure { try KeyedArchiver.archivedData(withRootObject: persons) }
                report("archive", timer.times, outBytes: data.count, items: persons.count)
            }
        }
        #if MacroBench
            if ops.contains("unarchive-macro") || ops.contains("archive-macro") {
                try keyedMacro(input, ops: ops, timer: &timer, report: report)
            }
        #endif
        if ops.contains("graph") {
            let graph = try timer.measure { try KeyedArchiveGraph(input) }
            report("graph", timer.times, items: graph.nodes.count)
        }
    }

    #if MacroBench
        /// The keyed operations through `@KeyedArchivable` classes (trait MacroBench).
        private func keyedMacro(_ input: Data, ops: Set<String>, timer: inout RepTimer, report: Reporter) throws {
            let persons = try timer.measure {
                try KeyedUnarchiver.unarchivedObject(ofClass: [MacroBenchPerson].self, from: input)
            }
            if persons.count > 10, persons[0].dog == nil || persons[0].dog !== persons[9].dog {
                throw ValidationError("unarchive-macro: the dogs of persons 0 and 9 are not one shared instance")
            }
            if ops.contains("unarchive-macro") { report("unarchive-macro", timer.times, items: persons.count) }
            if ops.contains("archive-macro") {
                let data = try timer.measure { try KeyedArchiver.archivedData(withRootObject: persons) }
                report("archive-macro", timer.times, outBytes: data.count, items: persons.count)
            }
        }
    #endif

    /// Elements of the top-level container (what the peers report as `items`).
    static func topCount(_ value: PlistValue) -> Int {
        switch value {
        case .array(let a), .set(let a): a.count
        case .dictionary(let d): d.count
        default: 1
        }
    }

    /// A key path two levels deep into the middle of the file: the middle element of a top-level
    /// array (or the last key of a top-level dictionary), then that object's last key or middle
    /// element. Empty when the root is a scalar or an empty container.
    static func samplePath(_ doc: BinaryPlistDocument) throws(PlistError) -> String {
        var components: [String] = []
        var current = doc.root
        for _ in 0..<2 {
            switch try doc.object(current) {
            case .array(let refs) where !refs.isEmpty:
                components.append(String(refs.count / 2))
                current = refs[refs.count / 2]
            case .dictionary(let keys, let values) where !keys.isEmpty:
                guard let key = try doc.string(keys[keys.count - 1]), !key.contains(".") else {
                    return components.joined(separator: ".")
                }
                components.append(key)
                current = values[values.count - 1]
            default:
                return components.joined(separator: ".")
            }
        }
        return components.joined(separator: ".")
    }
}

/// Untimed warm-up runs, then timed runs of one operation.
struct RepTimer {
    let warmup: Int
    let reps: Int
    /// Milliseconds of each timed run of the last `measure`.
    var times: [Double] = []

    /// Runs `body` `warmup + reps` times and returns the last result. The previous result is released
    /// before the clock starts, so deallocation is never timed.
    mutating func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        times = []
        let clock = ContinuousClock()
        var last: T?
        for i in 0..<(warmup + reps) {
            last = nil
            let start = clock.now
            let result = try body()
            let elapsed = start.duration(to: clock.now)
            last = result
            if i >= warmup {
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
            }
        }
        // warmup + reps >= 1 (validate() checks reps), so the loop assigned `last`.
        guard let last else { fatalError("unreachable: no repetition ran") }
        return last
    }
}

/// Prints one JSON line per operation, with the peers' fields in the peers' order.
struct Reporter {
    let workload: String
    let inBytes: Int

    func callAsFunction(_ op: String, _ times: [Double], outBytes: Int = 0, items: Int) {
        let sorted = times.sorted()
        let n = sorted.count
        let median = n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        let list = times.map(Reporter.ms).joined(separator: ",")
        let line =
            "{\"peer\":\"ours\",\"workload\":\"\(Reporter.escaped(workload))\",\"op\":\"\(op)\","
            + "\"median_ms\":\(Reporter.ms(median)),\"min_ms\":\(Reporter.ms(sorted.first ?? 0)),"
            + "\"times_ms\":[\(list)],\"in_bytes\":\(inBytes),\"out_bytes\":\(outBytes),\"items\":\(items)}\n"
        // Unbuffered: each line reaches the pipe as soon as its operation is done.
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Milliseconds with three decimals, or six below one millisecond (lookups take microseconds).
    static func ms(_ value: Double) -> String {
        String(format: value >= 1 ? "%.3f" : "%.6f", value)
    }

    /// A file base name as a JSON string body.
    static func escaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
