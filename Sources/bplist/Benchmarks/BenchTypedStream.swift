// Sources/bplist/Benchmarks/BenchTypedStream.swift - `bplist bench` of typedstreams, and `bplist generate`'s
// typedstream workloads.
//
// Two kinds of file:
//   a typedstream (one large stream: `bplist generate typedstream`, an NSArray of records whose keys,
//     names and owners are shared objects, so most mentions are references)
//   a binary property list whose root is an array of data values that are typedstreams (`bplist
//     generate messages`: Messages `attributedBody` blobs of the shapes Messages writes)
// Operations (each over the whole file; for the messages file, over every blob in turn):
//   ts-events    TypedStreamReader: every event, nothing built
//   ts-read      TypedStreamArchive: the object layer (groups, objects, classes)
//   ts-decode    TypedStreamArchive.decodeRoot(from:): the typed values straight from the bytes (what
//                python-typedstream's unarchive_from_data builds), the operation compared with the peer
//   ts-archive-decode  TypedStreamArchive(data).decodeRoot(): the same values through the object layer
//   ts-messages  MessageBody(attributedBody:) (messages file only): text, runs, parts
// The blobs of a messages file are read out of the plist before any timing.

import ArgumentParser
import BenchmarkWorkloads
import Foundation
import KeyedArchive
import PropertyList
import TypedStream

enum BenchTypedStream {
    static let operations = ["ts-events", "ts-read", "ts-decode", "ts-archive-decode", "ts-messages"]

    /// The blobs of `input`: itself when it is a typedstream, the data elements of its root array
    /// when it is a plist of typedstreams; `nil` otherwise.
    ///
    /// Read through the lazy document: only the root and its first element are looked at before the
    /// answer is known, so the check leaves no tree behind. (It decoded the whole file, untimed, before
    /// every other operation: the "cold" runs reused the memory that decode had faulted in and freed.)
    static func blobs(_ input: Data) -> [Data]? {
        if TypedStreamArchive.isTypedStream(input) { return [input] }
        guard input.starts(with: "bplist".utf8), let doc = try? BinaryPlistDocument(input),
            case .array(let items)? = try? doc.object(doc.root), let firstRef = items.first,
            let first = try? doc.data(firstRef), TypedStreamArchive.isTypedStream(first)
        else { return nil }
        return items.compactMap { try? doc.data($0) }
    }

    /// Runs the requested typedstream operations over `blobs`.
    static func run(
        _ blobs: [Data], isMessages: Bool, ops requested: Set<String>, timer: inout RepTimer, report: Reporter
    ) throws {
        let ops = requested.isDisjoint(with: operations) ? Set(operations) : requested
        if ops.contains("ts-events") {
            let count = try timer.measure { () throws(TypedStreamError) -> Int in
                var events = 0
                for blob in blobs {
                    var reader = try TypedStreamReader(blob)
                    while try reader.next() != nil { events += 1 }
                }
                return events
            }
            report("ts-events", timer.times, items: count)
        }
        if ops.contains("ts-read") {
            let objects = try timer.measure { () throws(TypedStreamError) -> Int in
                var objects = 0
                for blob in blobs { objects += try TypedStreamArchive(blob).objects.count }
                return objects
            }
            report("ts-read", timer.times, items: objects)
        }
        if ops.contains("ts-decode") {
            _ = try timer.measure { () throws(TypedStreamError) -> Int in
                var n = 0
                for blob in blobs {
                    if case .null = try TypedStreamArchive.decodeRoot(from: blob) { n -= 1 }
                    n += 1
                }
                return n
            }
            report("ts-decode", timer.times, items: blobs.count)
        }
        if ops.contains("ts-archive-decode") {
            _ = try timer.measure { () throws(TypedStreamError) -> Int in
                var n = 0
                for blob in blobs {
                    if case .null = try TypedStreamArchive(blob).decodeRoot() { n -= 1 }
                    n += 1
                }
                return n
            }
            report("ts-archive-decode", timer.times, items: blobs.count)
        }
        if ops.contains("ts-messages"), isMessages {
            let runs = try timer.measure { () throws(TypedStreamError) -> Int in
                var runs = 0
                for blob in blobs { runs += try MessageBody(attributedBody: blob).runs.count }
                return runs
            }
            report("ts-messages", timer.times, items: runs)
        }
    }

    /// `bplist generate messages|typedstream`: `count` message bodies as a plist of data values, or
    /// one stream of `count` records.
    static func generate(messages: Bool, count: Int, seed: UInt64, out: String) throws {
        let start = ContinuousClock.now
        let bytes: Data
        if messages {
            let blobs = TypedStreamSamples.messageBodies(count: count, seed: seed)
            bytes = try BinaryPlistWriter().write(.array(blobs.map(PlistValue.data)))
        } else {
            bytes = TypedStreamSamples.objectGraph(count: count, seed: seed)
        }
        if out == "-" {
            FileHandle.standardOutput.write(bytes)
        } else {
            try IO.write(bytes, to: out)
        }
        let seconds = Generate.seconds(since: start)
        IO.printError(
            "generate \(messages ? "messages" : "typedstream"): \(Generate.grouped(count)) "
                + "\(messages ? "message bodies" : "records"), \(Generate.grouped(bytes.count)) bytes in "
                + String(format: "%.2f s", seconds) + " -> \(out)")
    }

    /// About how many bytes one element of each workload takes (for --bytes).
    static func bytesPerElement(messages: Bool) -> Int { messages ? 330 : 92 }
}
