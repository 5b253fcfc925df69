// fuzz/Sources/FuzzCommon/DifferentialVerdicts.swift - What the differential targets (FuzzDifferential,
// FuzzDifferentialArchive) do with a verdict: count it, log it, or stop the run.
//
// Every disagreement with Foundation must have a name (a decision of ours, a Foundation defect, or an
// input Foundation is not asked). An unnamed one stops the run with the input's hex, unless
// FUZZ_DIFF_DISCOVER=1, which logs it as `DIFF …` and goes on (how the long runs find new classes, and
// how `fuzz/run --ci` samples). FUZZ_DIFF_STATS=1 counts every verdict and prints the counts at exit.

import Foundation

/// The verdict bookkeeping of one differential target (a fuzz process runs one target).
public enum DifferentialVerdicts {
    /// FUZZ_DIFF_DISCOVER=1: an unnamed disagreement is logged and counted, not fatal.
    public static let discovering = ProcessInfo.processInfo.environment["FUZZ_DIFF_DISCOVER"] == "1"
    /// FUZZ_DIFF_STATS=1: every verdict counted, the counts printed at exit.
    public static let printsStats = ProcessInfo.processInfo.environment["FUZZ_DIFF_STATS"] == "1"

    // libFuzzer calls the target on one thread.
    nonisolated(unsafe) private static var tally: [String: Int] = [:]
    nonisolated(unsafe) private static var target = ""

    /// Records the verdict on one input (`start`, `size`: the whole fuzz input, for the log): counted under
    /// `key`; `unnamed`, the disagreement no class names, is logged (first `logLimit` characters) or stops
    /// the run.
    public static func record(
        target name: String, key: String, unnamed: String?, logLimit: Int = 400,
        input start: UnsafePointer<UInt8>?, size: Int
    ) {
        if printsStats, target.isEmpty {
            target = name
            atexit { DifferentialVerdicts.printTally() }
        }
        if let unnamed {
            let hex = hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0)))
            guard discovering else {
                fatalError(
                    "fuzz oracle failed: unclassified disagreement with Foundation: \(unnamed)\ninput hex: \(hex)")
            }
            FileHandle.standardError.write(Data("DIFF \(unnamed.prefix(logLimit)) | hex \(hex)\n".utf8))
            tally[key, default: 0] += 1
            return
        }
        if printsStats { tally[key, default: 0] += 1 }
    }

    private static func printTally() {
        var lines = ["\(target) verdicts:"]
        for (k, n) in tally.sorted(by: { $0.value > $1.value }) { lines.append("  \(n)\t\(k)") }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
