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
