// Tests/bplistToolTests/PlutilDifferentialTests.swift - `bplist plutil` against the toolchain's plutil,
// verb by verb, on the shared corpus and on generated files: the same exit status, the same text where
// plutil prints text (lint, -p, -type, -extract raw, messages), equal values where it writes a property
// list. Where plutil fails (JSON with dates and data, UIDs, files it misreads) we do better and only
// check that ours succeeds. Skipped, visibly, when no plutil is on PATH.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

enum PlutilOracle {
    /// The first `plutil` on PATH that is not this package's own tool (a link to bplist).
    static let url: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("plutil")
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            if candidate.resolvingSymlinksInPath().lastPathComponent == "bplist" { continue }
            return candidate
        }
        return nil
    }()

    /// The corpus of valid files beside the package (`../shared/corpus/valid`), when present.
    static let corpus: URL? = Corpus.isPresent ? Corpus.root.appendingPathComponent("valid") : nil
}

/// The same input files in two directories: one for plutil, one for ours, so that relative names (and
/// so messages) are the same.
struct PlutilWorkspace {
    let theirs: TempDir
    let ours: TempDir
    var names: [String] = []

    init() throws {
        theirs = try TempDir()
        ours = try TempDir()
    }

    mutating func add(_ data: Data, _ name: String) throws {
        _ = try theirs.write(data, name)
        _ = try ours.write(data, name)
        names.append(name)
    }

    /// Runs plutil and `bplist plutil` with `args` (and `files`, default all) in their directories.
    func run(_ args: [String], files: [String]? = nil) throws -> (theirs: ToolResult, ours: ToolResult) {
        let oracle = try #require(PlutilOracle.url)
        let all = files ?? names
        return (
            try Tool.run(args + all, executable: oracle, directory: theirs.url),
            try Tool.run(["plutil"] + args + all, directory: ours.url)
        )
    }

    /// Equal, except that plutil (CoreFoundation) writes every NaN as the same NaN, and a 4-byte real
    /// in its float form (XML "3.4028235e+38"), so those compare as floats.
    static func sameValue(_ a: PlistValue, _ b: PlistValue) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN) || Float(x) == Float(y)
        case (.array(let xs), .array(let ys)), (.set(let xs), .set(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { sameValue($0, $1) }
        case (.dictionary(let d), .dictionary(let e)):
            let index = Dictionary(e.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return d.count == e.count
                && d.entries.allSatisfy { entry in index[entry.key].map { sameValue(entry.value, $0) } == true }
        default: return a == b
        }
    }

    /// The value of an output file in one of the directories (nil when it was not written).
    func value(_ dir: TempDir, _ name: String) -> PlistValue? {
        guard let data = try? Data(contentsOf: dir.file(name)), !data.isEmpty else { return nil }
        if let value = try? PlistValue.decode(from: data).value { return value }
        return try? PlistValue(canonicalJSONBytes: data)
    }
}

/// Generated files: dictionaries of every kind plutil reads (dates in whole seconds), nested.
enum PlutilSamples {
    static func value(_ seed: Int) -> PlistValue {
        var rng = seed &* 2_654_435_761 &+ 12_345
        func next(_ n: Int) -> Int {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: UInt64(bitPattern: Int64(rng)) >> 33) % n
        }
        let strings = [
            "x", "hello world", "Zürich", "日本", "a\"b\\c", "line\nbreak", "tab\there", "emoji 🎉", "", "/path",
        ]
        let reals: [Double] = [0.1, 2.5, -1.25, 1e20, 123456.789, 0, 3e-7]
        func scalar() -> PlistValue {
            switch next(7) {
            case 0: return .string(PlistString(strings[next(strings.count)]))
            case 1: return .int([0, 1, -5, 42, 9_223_372_036_854_775_807, -9_223_372_036_854_775_808, 70_000][next(7)])
            case 2: return .real(reals[next(reals.count)])
            case 3: return .bool(next(2) == 0)
            case 4: return .date(Date(timeIntervalSinceReferenceDate: Double(next(2_000_000_000) - 1_000_000_000)))
            case 5: return .data(Data((0..<next(40)).map { _ in UInt8(16 + next(240)) }))
            default: return .string(PlistString("s\(next(100))"))
            }
        }
        func container(_ depth: Int) -> PlistValue {
            if depth > 2 || next(3) == 0 { return scalar() }
            if next(2) == 0 { return .array((0..<next(4)).map { _ in container(depth + 1) }) }
            let keys = ["a", "B", "b", "a10", "a9", "é", "k.dot", "1", "10", "2"]
            var pairs: [(PlistValue, PlistValue)] = []
            for _ in 0..<next(5) { pairs.append((.string(PlistString(keys[next(keys.count)])), container(depth + 1))) }
            return .dictionary(PlistDictionary(pairs))
        }
        // Fixed keys at the top for the key-path verbs: k0 a string, k1 an array, k2 a dictionary.
        var pairs: [(PlistValue, PlistValue)] = [
            ("k0", .string(PlistString(strings[next(strings.count)]))),
            ("k1", .array((0..<(1 + next(3))).map { _ in scalar() })),
            ("k2", ["inner": scalar(), "list": [scalar()]]),
        ]
        for i in 0..<next(6) { pairs.append((.string(PlistString("extra\(i)")), container(1))) }
        return .dictionary(PlistDictionary(pairs))
    }

    /// Whether `plutil -p` prints `value` exactly as ours (no data: plutil on Linux misprints its bytes).
    static func printsAlike(_ value: PlistValue) -> Bool {
        !value.containsDataOrOddKinds
    }
}

extension PlistValue {
    /// Whether this value holds data, a UID, a set or null anywhere.
    fileprivate var containsDataOrOddKinds: Bool {
        switch self {
        case .data, .uid, .set, .null: true
        case .array(let xs): xs.contains { $0.containsDataOrOddKinds }
        case .dictionary(let d): d.values.contains { $0.containsDataOrOddKinds }
        default: false
        }
    }

    /// Whether this value holds a date or data anywhere (plutil's JSON fails on them).
    fileprivate var containsDateOrData: Bool {
        switch self {
        case .date, .data: true
        case .array(let xs), .set(let xs): xs.contains { $0.containsDateOrData }
        case .dictionary(let d): d.values.contains { $0.containsDateOrData }
        default: false
        }
    }
}

@Suite(
    "bplist plutil against the toolchain's plutil", .serialized, .timeLimit(.minutes(10)),
    .enabled(
        if: PlutilOracle.url != nil, "no plutil on PATH (the Swift toolchain installs one): differential test skipped"))
struct PlutilDifferentialTests {
    static let sampleCount = 16

    /// Generated files as binary and XML, and (when present) the corpus's valid property lists.
    static func workspace(corpus: Bool = true) throws -> (PlutilWorkspace, [String: PlistValue]) {
        var ws = try PlutilWorkspace()
        var values: [String: PlistValue] = [:]
        for seed in 0..<sampleCount {
            let value = PlutilSamples.value(seed)
            try ws.add(try BinaryPlistWriter().write(value), "g\(seed).bplist")
            try ws.add(try XMLPlist.encode(value), "g\(seed).xml")
            values["g\(seed).bplist"] = value
            values["g\(seed).xml"] = value
        }
        if corpus, let root = PlutilOracle.corpus {
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                ?? []
            for url in files.sorted(by: { $0.path < $1.path }) where ["bplist", "plist"].contains(url.pathExtension) {
                let relative = url.path.dropFirst(root.path.count + 1).replacingOccurrences(of: "/", with: "-")
                let name = "c-" + relative
                try ws.add(try Data(contentsOf: url), name)
            }
        }
        return (ws, values)
    }

    @Test("-lint: every file plutil reads is OK for ours too, with the same line")
    func lint() throws {
        let (ws, _) = try Self.workspace()
        if PlutilOracle.corpus == nil { Issue.record("corpus not at ../shared/corpus: only generated files compared") }
        let (theirs, ours) = try ws.run(["-lint"])
        let ourLines = Swift.Set(ours.stdoutText.split(separator: "\n"))
        for line in theirs.stdoutText.split(separator: "\n") { #expect(ourLines.contains(line), "\(line)") }
        // Files plutil misreads (a UID-keyed file CoreFoundation fails on) are OK for ours: no errors at all.
        #expect(ours.status == 0, "\(ours.stderr)")
        #expect(ours.stderr.isEmpty)
    }

    @Test("-convert xml1, binary1, json: equal values wherever plutil succeeds; ours succeeds everywhere")
    func convert() throws {
        let (ws, values) = try Self.workspace()
        for (format, ext) in [("xml1", "o.xml"), ("binary1", "o.bin"), ("json", "o.json")] {
            let (theirs, _) = try ws.run(["-convert", format, "-e", ext])
            #expect(theirs.status == 0 || !theirs.stderr.isEmpty)
            var compared = 0
            for name in ws.names {
                let out = name.split(separator: ".").dropLast().joined(separator: ".") + "." + ext
                guard let expected = ws.value(ws.theirs, out) else {
                    // plutil failed (dates or data in JSON, UIDs): ours wrote it anyway.
                    if format == "json", let v = values[name] {
                        #expect(v.containsDateOrData, "\(name): plutil failed")
                    }
                    continue
                }
                compared += 1
                let ours = ws.value(ws.ours, out)
                #expect(ours.map { PlutilWorkspace.sameValue($0, expected) } == true, "\(format) \(name)")
            }
            #expect(compared > 0, "\(format): plutil converted nothing")
        }
    }

    @Test("-p prints the same text (files without data, whose bytes plutil on Linux misprints)")
    func prettyPrint() throws {
        let (ws, values) = try Self.workspace(corpus: false)
        let alike = ws.names.filter { values[$0].map(PlutilSamples.printsAlike) == true }
        #expect(alike.count >= 5)
        let (theirs, ours) = try ws.run(["-p"], files: alike)
        #expect(theirs.status == ours.status)
        #expect(ours.stdoutText == theirs.stdoutText)
    }

    @Test("-type and -extract: the same output and messages, for present and missing key paths")
    func typeAndExtract() throws {
        let (ws, _) = try Self.workspace(corpus: false)
        let paths = ["k0", "k1", "k1.0", "k1.9", "k2", "k2.inner", "k2.list.0", "nope", "k0.x", ""]
        for path in paths {
            for args in [["-type", path], ["-extract", path, "raw", "-n"], ["-type", path, "-expect", "string"]] {
                let (theirs, ours) = try ws.run(args)
                #expect(ours.status == theirs.status, "\(args)")
                #expect(ours.stdoutText == theirs.stdoutText, "\(args)")
                #expect(ours.stderr == theirs.stderr, "\(args)")
            }
            // A whole value extracted to a file: equal values.
            let (theirs, ours) = try ws.run(["-extract", path, "xml1", "-e", "x.xml"])
            #expect(ours.status == theirs.status, "\(path)")
            #expect(ours.stderr == theirs.stderr, "\(path)")
            for name in ws.names {
                let out = name.split(separator: ".").dropLast().joined(separator: ".") + ".x.xml"
                #expect(ws.value(ws.ours, out) == ws.value(ws.theirs, out), "extract \(path) \(name)")
            }
        }
    }

    @Test("-insert, -replace, -remove: the same values written back, the same messages")
    func edits() throws {
        let cases: [[String]] = [
            ["-insert", "new", "-string", "v"], ["-insert", "k0", "-string", "v"], ["-replace", "k0", "-integer", "7"],
            ["-replace", "missing", "-bool", "YES"], ["-remove", "k2.inner"], ["-remove", "nope"],
            ["-insert", "k1.0", "-float", "2.5"], ["-insert", "k1", "-string", "z", "-append"],
            ["-insert", "k1.99", "-string", "z"], ["-insert", "k2.list", "-json", "{\"a\":[1,2]}", "-append"],
            ["-insert", "deep.x", "-string", "q"], ["-insert", "k0.x", "-string", "q"],
            ["-insert", "k1.x", "-string", "q"],
            ["-insert", "d", "-date", "2020-01-02T03:04:05Z"], ["-insert", "b", "-data", "AAEC"],
            ["-insert", "x", "-xml", "<string>hi</string>"], ["-insert", "e", "-dictionary"],
            ["-insert", "k2.arr", "-array"],
            ["-replace", "k2", "-integer", "12abc"], ["-insert", "dot\\.key", "-string", "v"],
        ]
        for args in cases {
            let (ws, _) = try Self.workspace(corpus: false)
            let (theirs, ours) = try ws.run(args)
            #expect(ours.status == theirs.status, "\(args): \(ours.stderr) / \(theirs.stderr)")
            #expect(ours.stderr == theirs.stderr, "\(args)")
            for name in ws.names {
                #expect(ws.value(ws.ours, name) == ws.value(ws.theirs, name), "\(args) \(name)")
            }
        }
    }

    @Test("-create in every form plutil writes, and argument errors: the same bytes and messages")
    func createAndArguments() throws {
        let ws = try PlutilWorkspace()
        for args in [
            ["-create", "xml1", "-"], ["-create", "json", "-"], ["-create", "json", "-r", "-"],
            ["-create", "raw", "-"],
            ["-create", "type", "-"], ["-create", "swift", "-"], ["-create", "objc", "-"], ["-create", "bogus", "-"],
            [], ["-convert"], ["-extract"], ["-remove"], ["-insert", "a"], ["-insert", "a", "-string"],
            ["-insert", "a", "-bogus", "x", "f"], ["-lint", "-o", "x", "f"], ["-p", "-e", "x", "f"],
            ["-lint", "-x", "f"], ["-type", "a", "-expect", "nonsense", "f"], ["-convert", "xml1", "-header", "f"],
            ["-lint", "missing-file"], ["-o"],
        ] {
            let (theirs, ours) = try ws.run(args, files: [])
            #expect(ours.status == theirs.status, "\(args)")
            #expect(ours.stdout == theirs.stdout, "\(args)")
            #expect(ours.stderr == theirs.stderr, "\(args)")
        }
        let binary = try ws.run(["-create", "binary1", "-"], files: [])
        #expect(
            try BinaryPlistDocument(binary.ours.stdout).value()
                == (try BinaryPlistDocument(binary.theirs.stdout).value()))
    }

    @Test("the tool run through a link named plutil is plutil")
    func invokedAsPlutil() throws {
        let (ws, _) = try Self.workspace(corpus: false)
        let link = ws.ours.file("plutil")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try #require(Tool.executable))
        let oracle = try #require(PlutilOracle.url)
        let args = ["-type", "k1"] + ws.names
        let theirs = try Tool.run(args, executable: oracle, directory: ws.theirs.url)
        let ours = try Tool.run(args, executable: link, directory: ws.ours.url)
        #expect(ours.status == theirs.status)
        #expect(ours.stdout == theirs.stdout)
        #expect(try Tool.run(["-help"], executable: link).stdoutText.hasPrefix("plutil: [command_option]"))
    }
}
