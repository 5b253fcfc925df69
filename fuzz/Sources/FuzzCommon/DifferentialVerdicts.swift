// fuzz/Sources/FuzzCommon/DifferentialVerdicts.swift - What the differential targets (FuzzDifferential,
// FuzzDifferentialArchive) do with a verdict: count it, log it, or stop the run.
//
// Every disagreement with Foundation must have a name (a decision of ours, a Foundation defect, or an
// input Foundation is not asked). An unnamed one stops the run with the input's hex, unless
// FUZZ_DIFF_DISCOVER=1, which logs it as `DIFF …` and goes on (how the long runs find new classes, and
// how `fuzz/run --ci` samples). FUZZ_DIFF_STATS=1 counts every verdict and prints the counts at exit.

import Foundation
import Synchronization

/// The verdict bookkeeping of one differential target (a fuzz process runs one target).
public enum DifferentialVerdicts {
    /// FUZZ_DIFF_DISCOVER=1: an unnamed disagreement is logged and counted, not fatal.
    public static let discovering = ProcessInfo.processInfo.environment["FUZZ_DIFF_DISCOVER"] == "1"
    /// FUZZ_DIFF_STATS=1: every verdict counted, the counts printed at exit.
    public static let printsStats = ProcessInfo.processInfo.environment["FUZZ_DIFF_STATS"] == "1"

    /// The target's name (set by the first verdict counted) and the counts by key.
    private static let state = Mutex<(target: String, tally: [String: Int])>(("", [:]))

    /// Records the verdict on one input: counted under `key`; `unnamed`, the disagreement no class
    /// names, is logged (its first `logLimit` characters, and `inputHex()`, the whole fuzz input) or
    /// stops the run.
    public static func record(
        target name: String, key: String, unnamed: String?, logLimit: Int = 400, inputHex: () -> String
    ) {
        if printsStats {
            let first = state.withLock { s in
                defer { s.target = name }
                return s.target.isEmpty
            }
            if first { atexit { DifferentialVerdicts.printTally() } }
        }
        if let unnamed {
            let hex = inputHex()
            guard discovering else {
                fatalError(
                    "fuzz oracle failed: unclassified disagreement with Foundation: \(unnamed)\ninput hex: \(hex)")
            }
            FileHandle.standardError.write(Data("DIFF \(unnamed.prefix(logLimit)) | hex \(hex)\n".utf8))
            state.withLock { $0.tally[key, default: 0] += 1 }
            return
        }
        if printsStats { state.withLock { $0.tally[key, default: 0] += 1 } }
    }

    private static func printTally() {
        let (target, tally) = state.withLock { ($0.target, $0.tally) }
        var lines = ["\(target) verdicts:"]
        for (k, n) in tally.sorted(by: { $0.value > $1.value }) { lines.append("  \(n)\t\(k)") }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
