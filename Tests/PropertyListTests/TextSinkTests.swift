// Tests/PropertyListTests/TextSinkTests.swift - The text writers write through a fixed-size buffer:
// the same bytes as their whole-output results, in deliveries of at most the buffer's size.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// What a delivering sink handed on: every chunk's size and (optionally) the bytes.
private final class Deliveries {
    var sizes: [Int] = []
    var bytes: [UInt8] = []
    let keepsBytes: Bool
    /// Deliveries accepted before `deliver` starts failing (nil: never fails).
    let failAfter: Int?

    init(keepsBytes: Bool = true, failAfter: Int? = nil) {
        self.keepsBytes = keepsBytes
        self.failAfter = failAfter
    }

    func sink(capacity: Int) -> TextSink {
        TextSink(capacity: capacity) { chunk in
            if let failAfter = self.failAfter, self.sizes.count >= failAfter {
                self.sizes.append(chunk.count)
                return false
            }
            self.sizes.append(chunk.count)
            if self.keepsBytes { self.bytes.append(contentsOf: chunk) }
            return true
        }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Every delivery but the last is exactly `capacity` bytes, and none is longer.
    func areFullBuffers(_ capacity: Int) -> Bool {
        sizes.dropLast().allSatisfy { $0 == capacity } && (sizes.last ?? 0) <= capacity && (sizes.last ?? 1) > 0
    }
}

/// Values of every kind, nested, with strings that need escapes, for the byte-identity checks.
private let samples: [PlistValue] = [
    "plain",
    ["name": "Ada & <Charles>", "quote": "say \"hi\"\n\ttab", "é": "ü€😀", "ctl": "\u{7F}\u{01}"],
    [1, -2, 3.5, -0.0, .real(.nan), true, false, .data(Data(0..<200)), .uid(7), .null],
    .set(["a", "b", ["nested": [[], [:], ["x"]]]]),
    .dictionary(
        PlistDictionary([(.integer(1), "non-string key"), (.string("k"), .date(Date(timeIntervalSince1970: 0)))])),
    ["$real": "a tag-like key"],
    .data(Data()),
]

/// Text-only samples (XML and OpenStep hold no null; OpenStep holds strings, data, arrays, dictionaries).
private let openStepSamples: [PlistValue] = [
    "root string",
    ["name": "Ada", "list": ["a", "b c", "//comment-like", ""], "blob": .data(Data(0..<37)), "empty": [:]],
    [["deep": [["deeper": ["x"]]]]],
]

@Suite struct TextSinkTests {
    // MARK: The buffer

    @Test("deliveries are exactly the buffer's size except the last; the buffer never grows")
    func chunking() {
        let record = Deliveries()
        var sink = record.sink(capacity: 8)
        let initialRoom = sink.bufferCapacity
        sink.write("abc")  // 3
        sink.write("defghijklmnopqrst")  // longer than the room left: split over deliveries
        sink.write(UInt8(ascii: "u"))
        sink.write(repeating: UInt8(ascii: "-"), count: 20)
        sink.write(Array("xyz".utf8))
        let (pending, room) = (sink.pendingBytes, sink.bufferCapacity)
        #expect(pending <= 8)
        #expect(room == initialRoom)
        let complete = sink.finish()
        #expect(complete)
        #expect(record.text == "abcdefghijklmnopqrstu" + String(repeating: "-", count: 20) + "xyz")
        #expect(record.sizes == [8, 8, 8, 8, 8, 4])
    }

    @Test func collectingKeepsEverythingAndNeverDelivers() {
        var sink = TextSink.collecting(reserving: 4)
        for _ in 0..<1000 { sink.write("0123456789") }
        let (pending, delivered) = (sink.pendingBytes, sink.deliveredBytes)
        #expect(pending == 10_000)
        #expect(delivered == 0)
        let bytes = sink.takeBytes()
        #expect(bytes == Array(String(repeating: "0123456789", count: 1000).utf8))
    }

    @Test("a failed delivery stops the sink: later bytes are dropped and finish reports it")
    func failedDeliveryStops() {
        let record = Deliveries(failAfter: 1)
        var sink = record.sink(capacity: 4)
        sink.write("abcdefgh")  // delivers "abcd" (accepted); "efgh" waits
        let stoppedEarly = sink.isStopped
        #expect(!stoppedEarly)
        sink.write("ijkl")  // delivering "efgh" fails
        let stopped = sink.isStopped
        #expect(stopped)
        sink.write("mnopqrstuvwxyz")
        let complete = sink.finish()
        #expect(!complete)
        #expect(record.text == "abcd")
        #expect(record.sizes == [4, 4], "nothing is offered after the failure")
    }

    // MARK: The writers through the sink

    @Test(
        "streamed canonical JSON, XML and OpenStep are the bytes of the whole-output APIs, at any buffer size",
        arguments: [1, 7, 64, TextSink.defaultCapacity])
    func streamedEqualsWhole(capacity: Int) throws {
        for value in samples {
            let json = Deliveries()
            var sink = json.sink(capacity: capacity)
            try value.writeCanonicalJSON(into: &sink)
            let complete = sink.finish()
            #expect(complete)
            #expect(json.text == (try value.canonicalJSON()))
            #expect(json.areFullBuffers(capacity))
        }
        for value in samples + openStepSamples where !value.containsDistinctNode(where: { $0 == .null }) {
            for sortKeys in [false, true] {
                let xml = Deliveries()
                var sink = xml.sink(capacity: capacity)
                guard (try? XMLPlist.encode(value, sortKeys: sortKeys)) != nil else { continue }
                try XMLPlist.write(value, sortKeys: sortKeys, into: &sink)
                let complete = sink.finish()
                #expect(complete)
                #expect(Data(xml.bytes) == (try XMLPlist.encode(value, sortKeys: sortKeys)))
                #expect(xml.areFullBuffers(capacity))
            }
        }
        for value in openStepSamples {
            let text = Deliveries()
            var sink = text.sink(capacity: capacity)
            try OpenStepPlist.write(value, into: &sink)
            let complete = sink.finish()
            #expect(complete)
            #expect(Data(text.bytes) == (try OpenStepPlist.encode(value)))
            #expect(text.areFullBuffers(capacity))
        }
    }

    @Test("every valid corpus file: streamed canonical JSON is its oracle, streamed XML is encode's bytes")
    func corpusStreamsAsItWritesWhole() throws {
        let files = Corpus.validBinary.filter(\.hasOracle)
        guard Corpus.isPresent, !files.isEmpty else { return }
        for file in files {
            let value = try BinaryPlistDocument(file.bytes()).value()
            let json = Deliveries()
            var sink = json.sink(capacity: 251)
            try value.writeCanonicalJSON(into: &sink)
            let complete = sink.finish()
            #expect(complete)
            #expect(json.text == (try value.canonicalJSON()), "\(file)")
            #expect(CanonicalJSONCompare.diff(try file.oracle(), json.text) == nil, "\(file)")
            if let whole = try? XMLPlist.encode(value) {
                let xml = Deliveries()
                var xmlSink = xml.sink(capacity: 251)
                try XMLPlist.write(value, into: &xmlSink)
                let complete = xmlSink.finish()
                #expect(complete)
                #expect(Data(xml.bytes) == whole, "\(file)")
            }
        }
    }

    @Test("tens of megabytes of JSON from a small shared value pass through a 64 KiB buffer")
    func largeOutputInBoundedMemory() throws {
        // 1,000 references to one array of 100 strings of about 300 characters: 30.8 MB of JSON from
        // a value that holds 30 KB of text once.
        let line = String(repeating: "0123456789", count: 30)
        let block = PlistValue.array((0..<100).map { .string(line + String($0)) })
        let value = PlistValue.array(Array(repeating: block, count: 1000))
        let record = Deliveries(keepsBytes: false)
        var sink = record.sink(capacity: TextSink.defaultCapacity)
        let room = sink.bufferCapacity
        try value.writeCanonicalJSON(into: &sink)
        let (grown, pending) = (sink.bufferCapacity, sink.pendingBytes)
        #expect(grown == room, "the buffer never grew")
        #expect(pending <= TextSink.defaultCapacity)
        let written = sink.deliveredBytes + sink.pendingBytes
        let complete = sink.finish()
        #expect(complete)
        // Python's json.dumps(indent=1): one space per level, "," between elements, "\n" + indent
        // before each element and before the closing bracket, "\n" at the end.
        let strings = (0..<100).reduce(0) { $0 + 2 + line.utf8.count + String($1).utf8.count }
        let blockBytes = 1 + 100 * 3 + strings + 99 + 3  // "[", "\n  " per element, commas, "\n ]"
        let expected = 1 + 1000 * 2 + 1000 * blockBytes + 999 + 2 + 1  // "[", "\n " each, commas, "\n]", "\n"
        #expect(expected > 30_000_000)
        #expect(written == expected)
        #expect(record.sizes.reduce(0, +) == expected)
        #expect(record.areFullBuffers(TextSink.defaultCapacity))
        #expect(record.sizes.count == (expected + TextSink.defaultCapacity - 1) / TextSink.defaultCapacity)
    }

    @Test("a failed delivery ends the walk: the writer stops instead of writing the rest into nothing")
    func writersStopWhenTheSinkStops() throws {
        // About 10 MB of text in each form.
        let value = PlistValue.array(Array(repeating: .string(String(repeating: "x", count: 1000)), count: 10_000))
        for form in TextForm.allCases {
            let record = Deliveries(failAfter: 2)
            var sink = record.sink(capacity: 1024)
            try form.write(value, into: &sink)
            let stopped = sink.isStopped
            #expect(stopped)
            let dropped = sink.droppedBytes
            let complete = sink.finish()
            #expect(!complete)
            #expect(record.sizes == [1024, 1024, 1024], "\(form): two accepted, one refused, none offered after")
            // One element's text at most (and the buffer's) is written after the failure, not the 10 MB.
            #expect(dropped < 4096, "\(form): \(dropped) bytes written after the failure")
        }
    }

    // MARK: Refusals come before the first byte

    @Test("XML and OpenStep check what they cannot hold before writing: an error delivers nothing")
    func refusalsWriteNothing() throws {
        // The offending value comes last, after far more than a buffer of text.
        let long = PlistValue.array(Array(repeating: "some text", count: 50_000))
        let cases: [(PlistValue, TextForm, String)] = [
            (.array([long, .null]), .xml, "no null"),
            (.array([long, ["k": "bad \u{1}"]]), .xml, "U+0001"),
            (.array([long, .dictionary(PlistDictionary([(.integer(1), "v")]))]), .xml, "keys must be strings"),
            (.array([long, .date(Date(timeIntervalSinceReferenceDate: .infinity))]), .xml, "cannot be written"),
            (.array([long, 5]), .openStep, "at 1 (integer)"),
            (.array([long, ["a": .set([])]]), .openStep, "at 1.a (set)"),
        ]
        for (value, form, mention) in cases {
            let record = Deliveries()
            var sink = record.sink(capacity: 4096)
            let error = form.error(writing: value, into: &sink)
            #expect(error?.code == .unencodable)
            #expect(error?.detail.contains(mention) == true, "\(error?.detail ?? "no error")")
            let pending = sink.pendingBytes
            #expect(record.sizes.isEmpty && pending == 0, "nothing written before the error")
        }
    }

    @Test("the streamed writers' errors are the whole-output APIs' errors, key path included")
    func sameErrors() throws {
        let refusedByXML: [PlistValue] = [
            ["a": ["b": [1, .null]]],
            ["x": ["y\u{2}": "z"]],
            ["d": .dictionary(PlistDictionary([(.bool(true), "v")]))],
        ]
        for value in refusedByXML {
            var sink = TextSink.discarding()
            let whole = #expect(throws: PlistError.self) { try XMLPlist.encode(value) }
            let streamed = TextForm.xml.error(writing: value, into: &sink)
            #expect(streamed != nil)
            #expect(streamed?.detail == whole?.detail)
        }
        let refusedByOpenStep: [PlistValue] = [
            ["a": ["b": ["ok", .null]]],
            ["list": ["ok", .set(["s"])]],
            ["d": .dictionary(PlistDictionary([(.bool(true), "v")]))],
        ]
        for value in refusedByOpenStep {
            var sink = TextSink.discarding()
            let whole = #expect(throws: PlistError.self) { try OpenStepPlist.encode(value) }
            let streamed = TextForm.openStep.error(writing: value, into: &sink)
            #expect(streamed != nil)
            #expect(streamed?.detail == whole?.detail)
        }
    }

    @Test("an array and a set sharing storage are told apart by the check (OpenStep refuses only the set)")
    func sharedStorageOfAnArrayAndASet() throws {
        let members: [PlistValue] = ["a", "b"]
        let value = PlistValue.array([.array(members), .set(members)])
        var sink = TextSink.discarding()
        let error = TextForm.openStep.error(writing: value, into: &sink)
        #expect(error?.detail.contains("at 1 (set)") == true, "\(error?.detail ?? "no error")")
    }

    @Test("the check visits each shared container once: the 2^41-path doubling chain takes a few dozen steps")
    func checkIsLinearInDistinctNodes() throws {
        let value = try BinaryPlistDocument(DoublingChain.bytes).value()
        var calls = 0
        let found = value.containsDistinctNode { _ in
            calls += 1
            return false
        }
        #expect(!found)
        #expect(calls < 100, "\(calls) predicate calls for 41 distinct objects")
    }

    @Test("the budget is checked before the first byte: over it, nothing is delivered")
    func budgetBeforeWriting() throws {
        let value = try BinaryPlistDocument(DoublingChain.bytes).value()
        for form in TextForm.allCases {
            let record = Deliveries()
            var sink = record.sink(capacity: 16)
            let error = form.error(writing: value, into: &sink)
            #expect(error?.code == .limitExceeded, "\(form)")
            let pending = sink.pendingBytes
            #expect(record.sizes.isEmpty && pending == 0, "\(form)")
        }
    }
}

/// The three streamed text writers.
private enum TextForm: CaseIterable {
    case json, xml, openStep

    func write(_ value: PlistValue, into out: inout TextSink) throws(PlistError) {
        switch self {
        case .json: try value.writeCanonicalJSON(into: &out)
        case .xml: try XMLPlist.write(value, into: &out)
        case .openStep: try OpenStepPlist.write(value, into: &out)
        }
    }

    /// The error writing `value` throws, nil when it writes.
    func error(writing value: PlistValue, into out: inout TextSink) -> PlistError? {
        do {
            try write(value, into: &out)
            return nil
        } catch {
            return error
        }
    }
}
