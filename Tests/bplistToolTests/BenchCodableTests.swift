// Tests/bplistToolTests/BenchCodableTests.swift - `bplist bench` times PlistDecoder/PlistEncoder into the
// peers' Codable models (decode-codable, encode-codable) on files named after their workloads.

import Foundation
import PropertyList
import Testing

@Suite struct BenchCodableTests {
    /// One JSON line of `bench` output.
    struct Line: Decodable {
        var op: String
        var workload: String
        var items: Int
        var out_bytes: Int
    }

    @Test(arguments: ["mixed", "strings", "numbers"]) func codableOperations(workload: String) throws {
        let dir = try TempDir()
        let file = dir.file("\(workload)-small.bplist").path
        // 2,000 elements and the root: numbers pairs every integer with a real, as the peers do.
        #expect(try Tool.run(["generate", workload, "--objects", "2001", "--out", file]).status == 0)
        let r = try Tool.run(["bench", file, "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try r.stdoutText.split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        let ops = Dictionary(lines.map { ($0.op, $0) }, uniquingKeysWith: { a, _ in a })
        let decode = try #require(ops["decode-codable"])
        let encode = try #require(ops["encode-codable"])
        // The untyped decode counts the same top-level elements (numbers: ints plus doubles).
        let untyped = try #require(ops["decode"])
        #expect(decode.items == untyped.items)
        #expect(encode.items == untyped.items)
        #expect(encode.out_bytes > 0)
    }

    /// The floor operations (CodableFloor.swift) run by name only, in both forms: the decode floor
    /// replays what `decode-codable` made (as many items), the encode floor counts the scalars the
    /// model hands over.
    @Test(arguments: ["mixed", "strings", "numbers"]) func floorOperations(workload: String) throws {
        let dir = try TempDir()
        let binary = dir.file("\(workload)-small.bplist").path
        let xml = dir.file("\(workload)-small.xml").path
        #expect(try Tool.run(["generate", workload, "--objects", "2001", "--out", binary]).status == 0)
        #expect(try Tool.run(["convert", binary, "--to", "xml", "-o", xml]).status == 0)
        // Not among the default operations.
        let plain = try Tool.run(["bench", binary, "1"])
        #expect(plain.status == 0 && !plain.stdoutText.contains("floor"), "\(plain.stderr)")
        for (file, form) in [(binary, "binary"), (xml, "xml")] {
            let r = try Tool.run(
                ["bench", file, "2"],
                environment: [
                    "BENCH_OPS": "decode-codable,decode-codable-floor,encode-codable-floor", "FORM": form,
                    "WARMUP": "0",
                ])
            #expect(r.status == 0, "\(form): \(r.stderr)")
            let lines = try r.stdoutText.split(separator: "\n").map {
                try JSONDecoder().decode(Line.self, from: Data($0.utf8))
            }
            #expect(lines.map(\.op) == ["decode-codable", "decode-codable-floor", "encode-codable-floor"], "\(form)")
            guard lines.count == 3 else { continue }
            let items = lines[0].items
            #expect(items > 0 && lines[1].items == items, "\(form)")
            // The scalars each model hands an encoder: a record has nine besides its tags, which hold three
            // strings; the others hand over one per item.
            #expect(lines[2].items == (workload == "mixed" ? items * 12 : items), "\(form)")
        }
    }

    /// A file with no Codable model is skipped by default, and an error when asked for by name.
    @Test func otherFilesAreSkipped() throws {
        let dir = try TempDir()
        let file = dir.file("other.bplist")
        try BinaryPlistWriter().write(["a": 1]).write(to: file)
        let r = try Tool.run(["bench", file.path, "1"])
        #expect(r.status == 0)
        #expect(!r.stdoutText.contains("codable"))
    }
}
