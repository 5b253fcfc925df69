// Tests/bplistToolTests/GenerateCommandTests.swift - `bplist generate`, run as a subprocess.
//
//   generate WORKLOAD --out FILE (--bytes SIZE | --objects N) [--seed S] [--verify]
//     0 + "generate WORKLOAD: E elements, N objects, B bytes in S s (R MB/s) -> FILE" on stderr
//     64 for usage errors

import Foundation
import PropertyList
import Testing

@Suite("bplist generate", .timeLimit(.minutes(10)))
struct GenerateCommandTests {
    /// `generate … --out FILE`; the decoded document and stderr.
    static func generate(_ args: [String], in dir: TempDir) throws -> (BinaryPlistDocument, ToolResult, Data) {
        let path = dir.file("out.bplist").path
        let r = try Tool.run(["generate"] + args + ["--out", path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return (try BinaryPlistDocument(data), r, data)
    }

    @Test func mixedHasThePeersRecordShapeAndTheExactObjectCount() throws {
        let dir = try TempDir()
        let (doc, r, data) = try Self.generate(["mixed", "--objects", "2401"], in: dir)
        #expect(
            r.stderrLines.first?.wholeMatch(
                of: #/generate mixed: 100 elements, 2,401 objects, [0-9,]+ bytes in [0-9.]+ s \([0-9.]+ MB/s\) -> .+/#)
                != nil, "\(r.stderr)")
        #expect(r.stderrLines.first?.contains(Self.grouped(data.count)) == true)
        #expect(doc.objectCount == 2401)
        #expect(doc.trailer.objectRefSize == 2)  // minimal: the count is known before writing
        guard case .array(let records) = try doc.value() else {
            Issue.record("the root is not an array")
            return
        }
        #expect(records.count == 100)
        for (i, record) in records.enumerated() {
            guard case .dictionary(let d) = record else {
                Issue.record("element \(i) is not a dictionary")
                continue
            }
            #expect(
                d.keys == ["name", "title", "email", "id", "delta", "score", "active", "created", "blob", "tags"])
            #expect(d["id"] == .int(i))
            #expect(d["active"] == .bool(i % 3 == 0))
            #expect(
                d["email"] == .string("user" + String(repeating: "0", count: 6 - String(i).count) + "\(i)@example.com"))
            #expect(d["delta"].flatMap(\.intValue).map { $0 < 0 && $0 >= -(1 << 40) } == true)
            #expect(d["score"].flatMap(\.doubleValue).map { $0 >= 0 && $0 < 1000 } == true)
            #expect(d["blob"]?.dataValue?.count == 16)
            #expect(
                d["created"]?.dateValue.map {
                    $0.timeIntervalSinceReferenceDate.rounded() == $0.timeIntervalSinceReferenceDate
                } == true)
        }
        // gen_data.py's strings: element 5.
        #expect(records[5].dictionaryValue?["name"] == "foxtrot-alpha")
        #expect(records[5].dictionaryValue?["title"] == "naïve façade 5")
        #expect(records[5].dictionaryValue?["tags"] == ["foxtrot", "golf", "hotel"])
        #expect(records[47].dictionaryValue?["name"] == "hotel-charlie")
        #expect(records[47].dictionaryValue?["title"] == "Straße 47")
        // Repeated scalars are written once; `inspect` counts their indices as shared, not duplicated.
        let inspect = try Tool.run(["inspect", dir.file("out.bplist").path])
        #expect(inspect.stdoutText.contains("duplicates:  0 values stored more than once"), "\(inspect.stdoutText)")
        #expect(inspect.stdoutText.contains("shared:      1369 objects point at another object's bytes"))
    }

    @Test func theSameSeedGivesTheSameBytes() throws {
        let dir = try TempDir()
        let (_, _, a) = try Self.generate(["mixed", "--bytes", "64K"], in: dir)
        let (_, _, b) = try Self.generate(["mixed", "--bytes", "64K"], in: dir)
        let (_, _, c) = try Self.generate(["mixed", "--bytes", "64K", "--seed", "1"], in: dir)
        #expect(a == b)
        #expect(a != c)
        #expect(a.count == c.count || abs(a.count - c.count) < a.count / 50)
    }

    @Test(arguments: ["mixed", "strings", "numbers"])
    func bytesComesWithinOnePercentAndVerifies(_ workload: String) throws {
        let dir = try TempDir()
        let (doc, r, data) = try Self.generate([workload, "--bytes", "256K", "--verify"], in: dir)
        #expect(abs(data.count - 262_144) < 262_144 / 100, "\(data.count) bytes")
        #expect(r.stderrLines.last?.hasPrefix("verify: ") == true, "\(r.stderr)")
        // Reference and offset widths are the smallest that fit.
        let n = doc.objectCount
        #expect(doc.trailer.objectRefSize == (n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : 4))
        #expect(doc.trailer.offsetIntSize == (doc.trailer.offsetTableOffset <= 0xFFFF ? 2 : 4))
    }

    @Test func standardOutputAndUsageErrors() throws {
        let r = try Tool.run(["generate", "numbers", "--objects", "1000", "--out", "-"])
        #expect(r.status == 0)
        #expect(try BinaryPlistDocument(r.stdout).objectCount == 1000)
        let dir = try TempDir()
        let out = dir.file("x").path
        #expect(try Tool.run(["generate", "mixed", "--out", out]).status == 64)
        #expect(try Tool.run(["generate", "mixed", "--out", out, "--bytes", "1M", "--objects", "5"]).status == 64)
        #expect(try Tool.run(["generate", "mixed", "--out", out, "--bytes", "lots"]).status == 64)
        #expect(try Tool.run(["generate", "jumbled", "--out", out, "--objects", "5"]).status == 64)
        #expect(try Tool.run(["generate", "mixed", "--out", "-", "--objects", "5", "--verify"]).status == 64)
        let failed = try Tool.run(["generate", "mixed", "--objects", "5", "--out", "/nonexistent-directory/x.bplist"])
        #expect(failed.status == 1)
        // The file as given and the cause (the atomic write's temporary file is never named).
        #expect(
            failed.stderrLines.first?.hasPrefix("error: io: cannot write '/nonexistent-directory/x.bplist': ") == true,
            "\(failed.stderr)")
        #expect(failed.stderr.contains("No such file or directory"), "\(failed.stderr)")
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        return s.enumerated().map { i, c in (i > 0 && (s.count - i) % 3 == 0 ? "," : "") + String(c) }.joined()
    }
}
