// Benchmarks/Sources/PeoplePeer/main.swift - Foundation's NSKeyedArchiver/NSKeyedUnarchiver on the
// people workload (PeopleModel), speaking the peer protocol of ../shared/peers, for
// scripts/compare-peers (the peers' swift-peer knows only the two-field keyed workload).
//
//   people-peer gen OUT [COUNT]       NSKeyedArchiver's archive of the generated graph (20,000 persons)
//   people-peer FILE REPS [OUT]       decode = NSKeyedUnarchiver into the NSCoding classes,
//                                     encode = NSKeyedArchiver of that graph (written to OUT)
//
// One JSON line per operation, as every peer prints them (peer "swift-NSKeyedArchiver"). WARMUP
// (environment, default 1) untimed runs come first; the previous result is released before the clock
// starts. The decoded graph is checked against the generated one (data, dog sharing, subclasses) once,
// after the timed runs, so a wrong reading fails the run instead of being timed.
//
// Run with SWIFT_DETERMINISTIC_HASHING=1 for `gen`: NSKeyedArchiver on Linux orders each object's keys
// by a Swift Dictionary, so the bytes (not the data) vary from process to process otherwise.

import Foundation
import PeopleModel

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// Milliseconds of each timed run and the last result.
func measure<T>(_ reps: Int, warmup: Int, _ body: () throws -> T) rethrows -> (ms: [Double], last: T) {
    var times: [Double] = []
    var last: T?
    let clock = ContinuousClock()
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
    guard let last else { fail("no repetition ran") }
    return (times, last)
}

func report(_ workload: String, _ op: String, _ times: [Double], inBytes: Int, outBytes: Int, items: Int) {
    let sorted = times.sorted()
    let n = sorted.count
    let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    let list = times.map { String(format: "%.3f", $0) }.joined(separator: ",")
    print(
        "{\"peer\":\"swift-NSKeyedArchiver\",\"workload\":\"\(workload)\",\"op\":\"\(op)\","
            + "\"median_ms\":\(String(format: "%.3f", median)),\"min_ms\":\(String(format: "%.3f", sorted[0])),"
            + "\"times_ms\":[\(list)],\"in_bytes\":\(inBytes),\"out_bytes\":\(outBytes),\"items\":\(items)}")
}

let args = CommandLine.arguments
guard args.count >= 3 else { fail("usage: people-peer gen OUT [COUNT] | people-peer FILE REPS [OUT]") }

if args[1] == "gen" {
    let count = args.count > 3 ? Int(args[3]) ?? 20_000 : 20_000
    let data = try archivePeople(makePeople(count: count))
    try data.write(to: URL(fileURLWithPath: args[2]))
    print("people: \(count) persons, \(data.count) bytes (NSKeyedArchiver) -> \(args[2])")
    exit(0)
}

guard let reps = Int(args[2]), reps >= 1 else { fail("REPS must be a positive integer") }
let path = args[1]
let out = args.count > 3 ? args[3] : nil
let warmup = max(0, ProcessInfo.processInfo.environment["WARMUP"].flatMap { Int($0) } ?? 1)
let workload = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
let input: Data
do {
    input = try Data(contentsOf: URL(fileURLWithPath: path))
} catch {
    fail("cannot read \(path): \(error)")
}

let decoded = try measure(reps, warmup: warmup) { try unarchivePeople(input) }
let people = decoded.last
// The generated graph of the same size is the oracle (the file is this generator's, or our archiver's
// archive of the same graph).
try checkPeople(peopleRows(people), against: peopleRows(makePeople(count: people.count)), "NSKeyedUnarchiver")
report(workload, "decode", decoded.ms, inBytes: input.count, outBytes: 0, items: people.count)

let encoded = try measure(reps, warmup: warmup) { try archivePeople(people) }
report(workload, "encode", encoded.ms, inBytes: input.count, outBytes: encoded.last.count, items: people.count)
if let out { try encoded.last.write(to: URL(fileURLWithPath: out)) }
