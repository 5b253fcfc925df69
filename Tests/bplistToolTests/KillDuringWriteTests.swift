// Tests/bplistToolTests/KillDuringWriteTests.swift - `bplist` killed with SIGKILL at random moments
// of large writes, hundreds of times: the target is always byte for byte the file before or the
// complete new one, and a killed writer's temporary file never outlives the next write.
//
// Three writers take turns, each over its own target, alternating between two versions so that
// every run replaces the file: `convert --to xml -o` (text streamed to the file in 64 KiB pieces),
// `convert --to binary -o` (one buffer written whole) and `generate strings --out` (the streaming
// writer's 1 MiB chunks straight into the atomic file). Half the kills come at a uniformly random
// moment of the run, half at a random moment after the temporary file appears (inside the write,
// the flush or the rename). The reference bytes of each output come from a run left to finish.
//
// The outputs are 2.8 MB (XML), 2 MiB (binary) and 2 MB (generate). Bounded for CI: 300 kills or
// 40 s, whichever comes first; at least 100 kills required, for which a slow machine gets up to 60 s.
// `KEYEDARCHIVE_KILLS=N KEYEDARCHIVE_KILL_SECONDS=S` run longer (`scripts/soak` does).

import Foundation
import PropertyList
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct KillDuringWriteTests {
    static let environment = ProcessInfo.processInfo.environment
    /// The tool's environment: a tool built for coverage (`scripts/test --coverage`) writes its profile
    /// as it exits, and one killed in the middle of that leaves a torn profile that fails the merge of
    /// every profile after the run; the killed runs' profiles go to /dev/null.
    static let unprofiled = environment.merging(["LLVM_PROFILE_FILE": "/dev/null"]) { $1 }
    static let kills = environment["KEYEDARCHIVE_KILLS"].flatMap(Int.init) ?? 300
    static let seconds = environment["KEYEDARCHIVE_KILL_SECONDS"].flatMap(Double.init) ?? 40

    /// One writer: its arguments for each version, its target, and what each version writes.
    struct Writer {
        var name: String
        var arguments: [[String]]
        var target: String
        var references: [Data] = []
        /// How long an unkilled run takes, and when its temporary file appears (seconds).
        var duration = 0.0
        var temporaryAppears = 0.0
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = start.duration(to: .now).components
        return Double(d.seconds) + Double(d.attoseconds) * 1e-18
    }

    /// Runs the tool to its end, watching for a temporary file of `target`; (seconds, first seen), or
    /// nil when it failed.
    static func timedRun(_ exe: URL, _ arguments: [String], target: String) throws -> (Double, Double)? {
        let process = Process()
        process.executableURL = exe
        process.arguments = arguments
        process.environment = unprofiled
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        var appears: Double?
        while process.isRunning {
            if appears == nil, !temporaries(of: target).isEmpty { appears = seconds(since: start) }
            usleep(500)
        }
        process.waitUntilExit()
        let total = seconds(since: start)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return (total, appears ?? total * 0.8)
    }

    /// The temporary files of the atomic write of `target` in its directory.
    static func temporaries(of target: String) -> [String] {
        let url = URL(fileURLWithPath: target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        return names.filter { $0.hasPrefix("." + url.lastPathComponent + ".keyedarchive-") }
    }

    /// What the kill loop saw.
    struct Summary: Sendable {
        var kills = 0
        var finished = 0
        var killedWithTemporary = 0
        /// Kills that left the file before, and the new file.
        var outcomes = [0, 0]
        var elapsed = 0.0
        /// Anything that broke the guarantee (or kept the loop from running).
        var violations: [String] = []
        var line = ""
    }

    @Test func killedWritesLeaveTheFileBeforeOrTheCompleteNewOne() async throws {
        let exe = try #require(Tool.executable, "bplist executable not found")
        let dir = try TempDir()
        // The loop blocks its thread (it sleeps to the moment of each kill): a thread of its own, so
        // that the tests sharing the cooperative pool keep running meanwhile.
        let summary = await withCheckedContinuation { (done: CheckedContinuation<Summary, Never>) in
            let thread = Thread {
                var summary = Summary()
                do {
                    try Self.killLoop(exe, in: dir, into: &summary)
                } catch {
                    summary.violations.append("the loop failed: \(error)")
                }
                done.resume(returning: summary)
            }
            thread.start()
        }
        print(summary.line)
        for violation in summary.violations { Issue.record(Comment(rawValue: violation)) }
        #expect(summary.kills >= min(Self.kills, 100), "only \(summary.kills) kills in \(summary.elapsed) s")
        #expect(summary.outcomes[1] > 0, "no kill came late enough to leave the new file")
    }

    /// Kills writers until `kills` or `seconds`, recording what breaks the guarantee in `summary`.
    static func killLoop(_ exe: URL, in dir: TempDir, into summary: inout Summary) throws {
        let inputs = try [1, 2].map { seed in
            try dir.write(try WriteFaultTests.blobs(seed: UInt8(seed), count: 2).encoded(), "input\(seed).bplist")
        }
        let out = dir.file("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        var writers = [
            Writer(
                name: "convert --to xml",
                arguments: inputs.map { ["convert", $0, "--to", "xml", "-o", out + "/a.xml"] },
                target: out + "/a.xml"),
            Writer(
                name: "convert --to binary",
                arguments: inputs.map { ["convert", $0, "--to", "binary", "-o", out + "/b.bplist"] },
                target: out + "/b.bplist"),
            Writer(
                name: "generate strings",
                arguments: ["1", "2"].map {
                    ["generate", "strings", "--bytes", "2M", "--seed", $0, "--out", out + "/g.bplist"]
                },
                target: out + "/g.bplist"),
        ]
        // The references: each version run to its end (the second run also times a replacement).
        for w in writers.indices {
            for version in [1, 0] {
                guard
                    let (duration, appears) = try timedRun(
                        exe, writers[w].arguments[version], target: writers[w].target)
                else {
                    summary.violations.append("\(writers[w].name) failed without a fault")
                    return
                }
                writers[w].references.insert(try Data(contentsOf: URL(fileURLWithPath: writers[w].target)), at: 0)
                writers[w].duration = duration
                writers[w].temporaryAppears = appears
            }
        }
        // Each target now holds version 0. The kill windows adapt to the load: widened while kills
        // keep coming before the rename, narrowed when runs finish first.
        var current = writers.map { _ in 0 }
        var scale = writers.map { _ in 1.0 }
        var earlyInARow = writers.map { _ in 0 }
        var rng = SystemRandomNumberGenerator()
        let start = ContinuousClock.now
        var round = 0
        // Until `kills` or `seconds`; on a slow machine, on to 100 kills within half as long again.
        while summary.kills < Self.kills
            && (seconds(since: start) < Self.seconds
                || (summary.kills < 100 && seconds(since: start) < Self.seconds * 1.5))
        {
            let w = round % writers.count
            round += 1
            let writer = writers[w]
            let next = 1 - current[w]
            let process = Process()
            process.executableURL = exe
            process.arguments = writer.arguments[next]
            process.environment = Self.unprofiled
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let launched = ContinuousClock.now
            try process.run()
            let delay: Double
            if round % 2 == 0 {
                // Any moment of the run.
                delay = Double.random(in: 0...(writer.duration * 1.1 * scale[w]), using: &rng)
            } else {
                // A moment after the temporary file appears (watched for at most three times the run).
                while process.isRunning && temporaries(of: writer.target).isEmpty
                    && seconds(since: launched) < writer.duration * 3 * scale[w]
                {
                    usleep(1000)  // a coarse watch: the tool needs the processor more
                }
                let window = max(writer.duration - writer.temporaryAppears, 0.002) * 1.2 * scale[w]
                delay = seconds(since: launched) + Double.random(in: 0...window, using: &rng)
            }
            let remaining = delay - seconds(since: launched)
            if remaining > 0 { usleep(UInt32(remaining * 1e6)) }
            let hadTemporary = !temporaries(of: writer.target).isEmpty
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let bytes = try Data(contentsOf: URL(fileURLWithPath: writer.target))
            let leftovers = temporaries(of: writer.target)
            if process.terminationReason == .uncaughtSignal {
                summary.kills += 1
                if hadTemporary { summary.killedWithTemporary += 1 }
                if bytes == writer.references[next] {
                    summary.outcomes[1] += 1
                    current[w] = next
                    earlyInARow[w] = 0
                } else if bytes == writer.references[current[w]] {
                    summary.outcomes[0] += 1
                    earlyInARow[w] += 1
                    if earlyInARow[w] >= 8 {
                        scale[w] = min(scale[w] * 1.3, 8)
                        earlyInARow[w] = 0
                    }
                } else {
                    summary.violations.append(
                        "\(writer.name) killed after \(delay) s left \(bytes.count) bytes: neither file")
                    break
                }
                // At most the killed run's own temporary file: it removed any earlier leftover first.
                if leftovers.count > 1 { summary.violations.append("\(writer.name) left \(leftovers)") }
            } else {
                summary.finished += 1
                scale[w] = max(scale[w] * 0.9, 0.5)
                if process.terminationStatus != 0 || bytes != writer.references[next] || !leftovers.isEmpty {
                    summary.violations.append(
                        "\(writer.name) finished with status \(process.terminationStatus), "
                            + "\(bytes == writer.references[next] ? "the new file" : "other bytes"), leftovers \(leftovers)"
                    )
                }
                current[w] = next
            }
        }
        summary.elapsed = seconds(since: start)
        // One more write of each target, left to finish: every leftover is gone.
        for (w, writer) in writers.enumerated() {
            let finished = try timedRun(exe, writer.arguments[1 - current[w]], target: writer.target) != nil
            let bytes = try Data(contentsOf: URL(fileURLWithPath: writer.target))
            if !finished || bytes != writer.references[1 - current[w]] {
                summary.violations.append("\(writer.name): the last write failed")
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        if names != ["a.xml", "b.bplist", "g.bplist"] { summary.violations.append("left in the directory: \(names)") }
        summary.line =
            "kill test: \(summary.kills) SIGKILLs in \(String(format: "%.1f", summary.elapsed)) s "
            + "(\(summary.killedWithTemporary) while a temporary file existed; \(summary.outcomes[0]) left the file "
            + "before, \(summary.outcomes[1]) the new one), \(summary.finished) runs finished first; runs take "
            + writers.map { "\($0.name) \(String(format: "%.2f", $0.duration)) s" }.joined(separator: ", ")
            + "; sizes " + writers.map { "\($0.references[0].count)" }.joined(separator: ", ") + " bytes"
    }
}
