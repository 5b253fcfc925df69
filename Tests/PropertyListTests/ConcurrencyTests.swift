// Tests/PropertyListTests/ConcurrencyTests.swift - The core codec used from many threads at once.
//
// `BinaryPlistDocument` and `PlistValue` are `Sendable` values: one document may be read by any
// number of tasks at once (in memory or memory-mapped), and writers share nothing. Every task checks
// what it read or wrote against a result computed once, before the tasks start, so a race shows as
// a wrong value here and as a report under ThreadSanitizer (`.ci/run` runs these suites with
// `--sanitize=thread`; see CONTRIBUTING.md).

import Foundation
import PropertyList
import Testing

@Suite struct ConcurrencyTests {
    /// How many tasks each test runs at once (more than the cores, so they interleave).
    static let tasks = 16

    /// A tree with every kind of value, shared sub-trees, long ASCII strings (slices of the input)
    /// and UTF-16 strings.
    static let tree: PlistValue = {
        let values: [PlistValue] = (0..<20).map { .integer(PlistInteger($0)) }
        let shared: PlistValue = ["kind": "shared", "values": .array(values)]
        let people: [PlistValue] = (0..<400).map { i in person(i, group: shared) }
        return ["version": 3, "people": .array(people), "tags": .set(["a", "b", "c"])]
    }()

    static func person(_ i: Int, group: PlistValue) -> PlistValue {
        let name = PlistValue.string("person number \(i), with a name longer than fifteen bytes")
        let city = PlistValue.string(i % 3 == 0 ? "Zürich" : "Lyon")
        let avatar = Data((0..<(i % 40)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var d = PlistDictionary()
        d["name"] = name
        d["city"] = city
        d["age"] = .integer(PlistInteger(i % 90))
        d["score"] = .real(Double(i) / 7)
        d["active"] = .bool(i % 2 == 0)
        d["joined"] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400))
        d["avatar"] = .data(avatar)
        d["group"] = group
        return .dictionary(d)
    }

    /// Runs `body(task)` in `tasks` concurrent tasks and returns their results in task order.
    static func concurrently<R: Sendable>(
        _ tasks: Int = ConcurrencyTests.tasks, _ body: @escaping @Sendable (Int) throws -> R
    ) async throws -> [R] {
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            for t in 0..<tasks { group.addTask { (t, try body(t)) } }
            var results = [R?](repeating: nil, count: tasks)
            for try await (t, r) in group { results[t] = r }
            return results.compactMap { $0 }
        }
    }

    /// What every reader of the document must see: the whole tree, and a few lookups.
    static func readEverything(_ doc: BinaryPlistDocument, task: Int) throws -> Bool {
        let i = (task * 37) % 400
        guard try doc.value() == tree,
            try doc.lookup("people.\(i).name") == .string("person number \(i), with a name longer than fifteen bytes"),
            try doc.lookup("people.\(i).group.values.19") == 19,
            try doc.lookup("version") == 3
        else { return false }
        // The raw, lazy view too: count the dictionaries under "people".
        guard let people = try doc.ref(at: "people"), case .array(let refs) = try doc.object(people) else {
            return false
        }
        var dictionaries = 0
        for ref in refs {
            if case .dictionary = try doc.object(ref) { dictionaries += 1 }
        }
        return dictionaries == 400
    }

    @Test func manyTasksReadOneDocumentInMemory() async throws {
        let doc = try BinaryPlistDocument(try BinaryPlistWriter().write(Self.tree))
        let ok = try await Self.concurrently { t in try Self.readEverything(doc, task: t) }
        #expect(ok == Array(repeating: true, count: Self.tasks))
    }

    @Test func manyTasksReadOneMappedDocument() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conc-\(UUID().uuidString).bplist")
        try BinaryPlistWriter().write(Self.tree).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let doc = try BinaryPlistDocument(contentsOf: url, access: .mapped)
        #expect(doc.isMemoryMapped == BinaryPlistDocument.FileAccess.mappingIsAvailable)
        let ok = try await Self.concurrently { t in try Self.readEverything(doc, task: t) }
        #expect(ok == Array(repeating: true, count: Self.tasks))
        try doc.checkFileUnchanged()
    }

    @Test func manyTasksOpenAndMapTheSameFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conc-\(UUID().uuidString).bplist")
        try BinaryPlistWriter().write(Self.tree).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // Each task maps (and unmaps) its own documents while the others read theirs: the guard's
        // slot table is claimed and released from many threads.
        let ok = try await Self.concurrently { t in
            for _ in 0..<4 {
                let doc = try BinaryPlistDocument(contentsOf: url, access: t % 2 == 0 ? .mapped : .read)
                guard try Self.readEverything(doc, task: t) else { return false }
            }
            return true
        }
        #expect(ok == Array(repeating: true, count: Self.tasks))
    }

    @Test func oneTreeIsReadAndComparedFromManyTasks() async throws {
        // A decoded tree shares the input's bytes (string slices) and its sub-trees between copies.
        let decoded = try BinaryPlistDocument(try BinaryPlistWriter().write(Self.tree)).value()
        let ok = try await Self.concurrently { t in
            var copy = decoded
            guard copy == Self.tree, copy.hashValue == Self.tree.hashValue else { return false }
            if case .dictionary(var d) = copy {
                d["task"] = .integer(PlistInteger(t))
                copy = .dictionary(d)
            }
            return copy != decoded && decoded == Self.tree
        }
        #expect(ok == Array(repeating: true, count: Self.tasks))
    }

    @Test func writersOnManyThreadsWriteTheSameBytes() async throws {
        let expected = try BinaryPlistWriter().write(Self.tree)
        let expectedXML = try XMLPlist.encode(Self.tree)
        let expectedZlib = try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(Self.tree)
        let results = try await Self.concurrently { _ in
            (
                try BinaryPlistWriter().write(Self.tree), try XMLPlist.encode(Self.tree),
                try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(Self.tree)
            )
        }
        for (binary, xml, zlib) in results {
            #expect(binary == expected)
            #expect(xml == expectedXML)
            #expect(zlib == expectedZlib)
        }
    }

    @Test func streamingWritersOnManyThreads() async throws {
        let results = try await Self.concurrently { t in
            // Each writer writes a different array; small offset memory, so some spill their
            // offset table to their own temporary file.
            let count = 2_000 + t * 500
            let sink = PlistDataSink()
            var options = StreamingPlistWriter.Options()
            options.offsetMemory = 16 << 10
            var writer = StreamingPlistWriter(to: sink, options: options)
            try writer.beginArray(count: count)
            for i in 0..<count {
                try writer.beginDictionary(count: 2)
                try writer.key("task")
                try writer.int(t)
                try writer.key("name")
                try writer.string("item \(i) of the writer on task \(t)")
                try writer.end()
            }
            try writer.end()
            try writer.finish()
            return sink.data
        }
        for (t, data) in results.enumerated() {
            let count = 2_000 + t * 500
            let expected = PlistValue.array(
                (0..<count).map { i in
                    ["task": .integer(PlistInteger(t)), "name": .string("item \(i) of the writer on task \(t)")]
                })
            #expect(try BinaryPlistDocument(data).value() == expected)
        }
    }

    @Test func nestedPlistsExpandInParallel() async throws {
        let inner = try BinaryPlistWriter().write(["inner": "value", "n": 42])
        let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 6).write(["deep": .data(inner)])
        let outer: PlistValue = .array((0..<50).map { i in ["i": .integer(PlistInteger(i)), "blob": .data(packed)] })
        let expected = PlistValue.array(
            (0..<50).map { i in
                [
                    "i": .integer(PlistInteger(i)),
                    "blob": [
                        PlistValue.nestedPlistKey: [
                            "deep": [PlistValue.nestedPlistKey: ["inner": "value", "n": 42]]
                        ]
                    ],
                ]
            })
        let results = try await Self.concurrently { _ in outer.expandingNestedPlists() }
        for result in results {
            #expect(result.issues.isEmpty)
            #expect(result.value == expected)
        }
    }
}
