// Tests/PropertyListTests/StreamingWriterTests.swift - StreamingPlistWriter: bytes against an independent
// model, round trips through value(_:) and through events, the offset spill file, the bounded scalar
// table, misuse errors, sinks, and Foundation and plistlib reading the output.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

/// Writes `v` as events (the public event API, not `value(_:)`); string keys through `key(_:)`.
func emitEvents(_ v: PlistValue, _ w: inout StreamingPlistWriter) throws(PlistError) {
    switch v {
    case .null: try w.null()
    case .bool(let x): try w.bool(x)
    case .integer(let x): try w.integer(x)
    case .real(let x): try w.real(x)
    case .date(let x): try w.date(x)
    case .data(let x): try w.data(x)
    case .string(let x): try w.string(x)
    case .uid(let x): try w.uid(x)
    case .array(let xs):
        try w.beginArray(count: xs.count)
        for x in xs { try emitEvents(x, &w) }
        try w.end()
    case .set(let xs):
        try w.beginSet(count: xs.count)
        for x in xs { try emitEvents(x, &w) }
        try w.end()
    case .dictionary(let d):
        try w.beginDictionary(count: d.count)
        for (k, x) in d.entries {
            if case .string(let s) = k { try w.key(s) } else { try emitEvents(k, &w) }
            try emitEvents(x, &w)
        }
        try w.end()
    }
}

/// `v` written by a streaming writer into memory, through `value(_:)` or through events.
func streamed(_ v: PlistValue, _ options: StreamingPlistWriter.Options = .init(), events: Bool = false)
    throws(PlistError) -> (data: Data, trailer: BinaryPlistTrailer)
{
    let sink = PlistDataSink()
    var w = StreamingPlistWriter(to: sink, options: options)
    if events { try emitEvents(v, &w) } else { try w.value(v) }
    let trailer = try w.finish()
    return (sink.data, trailer)
}

/// Values in `v`, each occurrence and each dictionary key counted: the streaming writer's object count.
func valueCount(_ v: PlistValue) -> Int {
    switch v {
    case .array(let xs), .set(let xs): return 1 + xs.reduce(0) { $0 + valueCount($1) }
    case .dictionary(let d): return 1 + d.entries.reduce(0) { $0 + valueCount($1.key) + valueCount($1.value) }
    default: return 1
    }
}

/// A plain model of the streaming writer's bytes, sharing no code with it: values in event order
/// (pre-order; a dictionary's key then value), each container naming a block of fresh indices that
/// its children fill (a dictionary's keys first in the block, then its values), and a scalar whose
/// encoding was written before pointing at that earlier offset (the scalar encodings come from
/// `ReferenceEncoder`).
func streamModel(_ value: PlistValue, refSize: Int, deduplicate: Bool = true) -> Data {
    var body: [UInt8] = Array("bplist00".utf8)
    var offsets: [Int] = [-1]
    var earlier: [[UInt8]: Int] = [:]
    func scalarBytes(_ v: PlistValue) -> [UInt8] {
        var m = ReferenceEncoder()
        guard case .scalar(_, let bytes) = m.keys[m.intern(v)] else { return [] }
        return bytes
    }
    func place(_ v: PlistValue, _ index: Int) {
        let children: [PlistValue]
        let marker: UInt8
        switch v {
        case .array(let xs): (children, marker) = (xs, 0xA0)
        case .set(let xs): (children, marker) = (xs, 0xC0)
        case .dictionary(let d): (children, marker) = (d.keys + d.values, 0xD0)
        default:
            let bytes = scalarBytes(v)
            if deduplicate, let at = earlier[bytes] {
                offsets[index] = at
            } else {
                offsets[index] = body.count
                earlier[bytes] = body.count
                body += bytes
            }
            return
        }
        let base = offsets.count
        offsets += Array(repeating: -1, count: children.count)
        offsets[index] = body.count
        body += ReferenceEncoder.header(marker, marker == 0xD0 ? children.count / 2 : children.count)
        for i in 0..<children.count { body += ReferenceEncoder.bigEndian(UInt64(base + i), refSize) }
        if marker == 0xD0 {
            let n = children.count / 2
            for k in 0..<n {
                place(children[k], base + k)
                place(children[n + k], base + n + k)
            }
        } else {
            for (i, c) in children.enumerated() { place(c, base + i) }
        }
    }
    place(value, 0)
    let tableOffset = body.count
    let offsetSize = ReferenceEncoder.width(UInt64(tableOffset), compact: false)
    for o in offsets { body += ReferenceEncoder.bigEndian(UInt64(o), offsetSize) }
    body += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    body += ReferenceEncoder.bigEndian(UInt64(offsets.count), 8) + ReferenceEncoder.bigEndian(0, 8)
    body += ReferenceEncoder.bigEndian(UInt64(tableOffset), 8)
    return Data(body)
}

/// Runs `body`, which must throw a `PlistError` with `code`; returns it.
@discardableResult
func expectWriterError(
    _ code: PlistError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> PlistError? {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as PlistError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a PlistError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The offset-table entries of a bplist (read from its trailer, not through the library).
func offsetTable(_ data: Data) -> [Int] {
    let bytes = Array(data)
    func uint(_ at: Int, _ width: Int) -> Int { (at..<at + width).reduce(0) { $0 << 8 | Int(bytes[$1]) } }
    let t = bytes.count - 32
    let (width, count, table) = (Int(bytes[t + 6]), uint(t + 8, 8), uint(t + 24, 8))
    return (0..<count).map { uint(table + $0 * width, width) }
}

/// Finishes `w`, which must throw a `PlistError` with `code`; returns it.
@discardableResult
func expectFinishError(
    _ code: PlistError.Code, _ w: consuming StreamingPlistWriter,
    sourceLocation: SourceLocation = #_sourceLocation
) -> PlistError? {
    do {
        try w.finish()
        Issue.record("expected \(code), finish() succeeded", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    }
}

/// A sink that fails from its `failAfter`-th write on.
final class FailingSink: PlistByteSink {
    var writes = 0
    let failAfter: Int
    init(failAfter: Int) { self.failAfter = failAfter }
    func write(_ bytes: Span<UInt8>) throws(PlistError) {
        writes += 1
        if writes > failAfter { throw PlistError(.io, "disk full (test)") }
    }
}

@Suite struct StreamingWriterTests {
    static let seeds = Gen.int(in: 0...Int.max)

    // MARK: Bytes and round trips

    @Test func bytesEqualTheModelThroughValueAndThroughEvents() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let model = streamModel(v, refSize: 4)
                #expect(try streamed(v).data == model, "seed \(seed)")
                #expect(try streamed(v, events: true).data == model, "seed \(seed)")
                // A small buffer (many flushes) changes nothing.
                #expect(try streamed(v, .init(bufferSize: 256), events: true).data == model, "seed \(seed)")
                // Nor does turning deduplication off, against the model without it.
                let plain = streamModel(v, refSize: 4, deduplicate: false)
                #expect(try streamed(v, .init(deduplicates: false)).data == plain, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func decodesEqualToTheTreeAndToBinaryPlistWritersOutput() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            do {
                let ours = try decode(streamed(v, events: true).data)
                #expect(ours == v, "seed \(seed): \(firstDifference(v, ours) ?? "")")
                let decoded = try decode(BinaryPlistWriter().write(v))
                #expect(ours == decoded, "seed \(seed)")
                // A decoded tree's strings are slices of its input: written from there, the same bytes.
                #expect(try streamed(decoded).data == streamModel(v, refSize: 4), "seed \(seed)")
                #expect(try streamed(decoded, events: true).data == streamModel(v, refSize: 4), "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func widthsAreMinimalWithAnExactCountAndFourBytesWithout() async {
        await propertyCheck(count: 200, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed))
            let v = g.value()
            let n = valueCount(v)
            do {
                let (data, trailer) = try streamed(v, .init(expectedObjectCount: n))
                let doc = try BinaryPlistDocument(data)
                #expect(doc.trailer == trailer, "seed \(seed)")
                #expect(doc.objectCount == n, "seed \(seed)")
                #expect(doc.root == ObjectRef(0))
                #expect(doc.trailer.objectRefSize == (n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : 4), "seed \(seed)")
                let t = doc.trailer.offsetTableOffset
                #expect(doc.trailer.offsetIntSize == (t <= 0xFF ? 1 : t <= 0xFFFF ? 2 : 4), "seed \(seed)")
                #expect(data.count == t + n * doc.trailer.offsetIntSize + 32)
                #expect(data == streamModel(v, refSize: doc.trailer.objectRefSize), "seed \(seed)")
                // Without the count: 4-byte references.
                #expect(try streamed(v).trailer.objectRefSize == 4, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func compactWidthsUseThreeByteReferences() throws {
        let v = PlistValue.array((0..<70_000).map { .int($0) })
        let (data, trailer) = try streamed(v, .init(expectedObjectCount: 70_001, widths: .compact))
        #expect(trailer.objectRefSize == 3)
        #expect(trailer.offsetIntSize == 3)
        #expect(try decode(data) == v)
    }

    @Test func aFlatArrayOfDistinctScalarsIsByteForByteBinaryPlistWritersOutput() throws {
        // Root first, then the elements in order, indices 1...n: the layout of the tree writer.
        var g = PlistGenerator(seed: 7)
        var seen = Set<PlistValue>()
        var xs: [PlistValue] = []
        while xs.count < 400 {
            let x = g.scalar()
            if seen.insert(x).inserted { xs.append(x) }
        }
        let v = PlistValue.array(xs)
        let theirs = try BinaryPlistWriter().write(v)
        #expect(try streamed(v, .init(expectedObjectCount: 401)).data == theirs)
        #expect(try streamed(v, .init(expectedObjectCount: 401), events: true).data == theirs)
    }

    // MARK: Deduplication

    @Test func repeatedScalarsAreWrittenOnceAndShareAnOffset() throws {
        let v = PlistValue.array(
            Array(repeating: "a repeated string", count: 1000) + Array(repeating: .int(70_000), count: 1000))
        let (data, _) = try streamed(v, .init(expectedObjectCount: 2001))
        let (plain, _) = try streamed(v, .init(expectedObjectCount: 2001, deduplicates: false))
        #expect(try decode(data) == v)
        #expect(try decode(plain) == v)
        // 2 payloads instead of 2,000: 18 + 5 bytes for all the strings and ints.
        #expect(plain.count - data.count == 999 * 20 + 999 * 5)
        let doc = try BinaryPlistDocument(data)
        #expect(doc.objectCount == 2001)
        let offsets = offsetTable(data)
        #expect(Set(offsets[1...1000]).count == 1)
        #expect(Set(offsets[1001...2000]).count == 1)
        // Every object decodes on its own (what `bplist validate` does), shared offsets included.
        for i in 0..<doc.objectCount { _ = try doc.object(ObjectRef(i)) }
    }

    @Test func theScalarTableStartsOverWhenFull() throws {
        // 3,000 distinct strings, then the first 10 again: a 4 KiB table has long forgotten them.
        let strings = (0..<3000).map { PlistValue.string("string number \($0)") }
        let v = PlistValue.array(strings + strings.prefix(10))
        let small = PlistDataSink()
        var w = StreamingPlistWriter(to: small, options: .init(deduplicationMemory: 4096))
        try w.value(v)
        let generations = w.deduplicationGenerations
        #expect(generations > 10)
        try w.finish()
        let (large, _) = try streamed(v)
        #expect(try decode(small.data) == v)
        #expect(try decode(large) == v)
        // With the default table the 10 repeats cost no bytes; with the small one they are written again.
        let rewritten = (0..<10).reduce(0) { sum, k in
            let n = "string number \(k)".utf8.count
            return sum + (n < 15 ? 1 : 3) + n
        }
        #expect(small.data.count - large.count == rewritten)
    }

    // MARK: The offset table's temporary file

    @Test func theOffsetTableSpillsToATemporaryFileAndReadsBack() throws {
        // 2 pages (2,048 offsets) in memory; the tree has ~60,000 objects, written through many
        // interleaved runs (dictionaries' keys and values, nested arrays), and a chain of 40 nested
        // arrays, so pages are evicted, re-read and evicted again.
        var records: [PlistValue] = []
        for i in 0..<2000 {
            let tags: PlistValue = .array((0..<(i % 7)).map { .string("tag\($0 + i % 5)") })
            records.append([
                "id": .int(i), "name": .string("name-\(i % 97)"), "tags": tags, "score": .real(Double(i) / 3),
                "nested": ["a": .int(i), "b": [.int(i), .int(-i)]],
            ])
        }
        var chain: PlistValue = .array([1, 2, 3])
        for depth in 0..<40 { chain = .array([.int(depth), chain, .string("level \(depth)")]) }
        let v = PlistValue.array([.array(records), chain])
        let options = StreamingPlistWriter.Options(offsetMemory: 16 << 10, bufferSize: 4096)
        for events in [false, true] {
            let sink = PlistDataSink()
            var w = StreamingPlistWriter(to: sink, options: options)
            if events { try emitEvents(v, &w) } else { try w.value(v) }
            let spilled = w.hasSpilledOffsets
            #expect(spilled)
            try w.finish()
            #expect(sink.data == streamModel(v, refSize: 4))
            #expect(try decode(sink.data) == v)
        }
    }

    @Test func aDeepChainWithFewPagesInMemory() throws {
        // 600 nested arrays of 1,100 elements, element 0 of each being the next: the first offset of
        // each level's block is set on the way down, and the other 1,099 on the way up, long after
        // its page went to the file with 2 pages in memory. So every page is written, read back and
        // filled.
        let sink = PlistDataSink()
        var w = StreamingPlistWriter(to: sink, options: .init(offsetMemory: 0))
        for _ in 0..<600 { try w.beginArray(count: 1100) }
        for k in 0..<1100 { try w.int(599 * 7 + k % 3) }
        try w.end()
        for d in (0..<599).reversed() {
            for k in 1..<1100 { try w.int(d * 7 + k % 3) }
            try w.end()
        }
        let spilled = w.hasSpilledOffsets
        #expect(spilled)
        let trailer = try w.finish()
        #expect(trailer.objectCount == 1 + 600 * 1100)
        let doc = try BinaryPlistDocument(sink.data, limits: .init(maxDepth: 1000))
        var ref = doc.root
        for d in 0..<600 {
            guard case .array(let list) = try doc.object(ref), list.count == 1100 else {
                Issue.record("level \(d) is not an array of 1,100")
                return
            }
            #expect(try doc.value(of: list[3]) == .int(d * 7))
            #expect(try doc.value(of: list[1099]) == .int(d * 7 + 1))
            if d < 599 { ref = list[0] } else { #expect(try doc.value(of: list[0]) == .int(d * 7)) }
        }
    }

    // MARK: Large payloads and sinks

    @Test func largePayloadsGoStraightThroughTheBuffer() throws {
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let ascii = String(repeating: "abcdefghij", count: 20_000)
        let unicode = String(repeating: "é中😀x", count: 10_000)
        let v: PlistValue = ["data": .data(big), "ascii": .string(ascii), "unicode": .string(unicode), "again": "é中"]
        for bufferSize in [256, 4096, 1 << 20] {
            let (data, _) = try streamed(v, .init(bufferSize: bufferSize), events: true)
            #expect(data == streamModel(v, refSize: 4), "buffer \(bufferSize)")
            #expect(try decode(data) == v)
        }
    }

    @Test func aFileSinkWritesTheSameBytes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var g = PlistGenerator(seed: 11)
        let v = PlistValue.array((0..<50).map { _ in g.value() })
        let path = dir.appendingPathComponent("out.bplist").path
        let sink = try PlistFileSink(path: path)
        var w = StreamingPlistWriter(to: sink, options: .init(bufferSize: 512, temporaryDirectory: dir.path))
        try w.value(v)
        try w.finish()
        try sink.close()
        try sink.close()  // closing twice does nothing
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == (try streamed(v).data))
        let one = Data([1])
        expectWriterError(.io) { try sink.write(one.span) }
        // The offset spill file was unlinked: nothing but the output is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.bplist"])
    }

    @Test func sinkAndFileErrorsAreIOErrors() throws {
        expectWriterError(.io) { _ = try PlistFileSink(path: "/nonexistent-directory/x.bplist") }
        // A sink that fails from its second write on (the first is the array's references): the error
        // is reported, and again by every later call.
        var w = StreamingPlistWriter(to: FailingSink(failAfter: 1), options: .init(bufferSize: 256))
        try w.beginArray(count: 100)
        let first = expectWriterError(.io) { for i in 0..<100 { try w.string("\(i) 0123456789") } }
        #expect(first?.detail == "disk full (test)")
        expectWriterError(.io) { try w.int(1) }
        expectWriterError(.io) { try w.end() }
        expectFinishError(.io, w)
        // A temporary directory that does not exist fails when the offsets first spill.
        var s = StreamingPlistWriter(
            to: PlistDataSink(), options: .init(offsetMemory: 0, temporaryDirectory: "/nonexistent-directory"))
        try s.beginArray(count: 5000)
        expectWriterError(.io) { for i in 0..<5000 { try s.int(i) } }
    }

    // MARK: Misuse

    @Test func structuralMisuseThrowsAndChangesNothing() throws {
        let sink = PlistDataSink()
        var w = StreamingPlistWriter(to: sink)
        expectWriterError(.unencodable) { try w.end() }
        expectWriterError(.unencodable) { try w.key("k") }
        expectWriterError(.unencodable) { try w.beginArray(count: -1) }
        try w.beginArray(count: 3)
        try w.int(1)
        expectWriterError(.unencodable) { try w.key("k") }
        let early = expectWriterError(.unencodable) { try w.end() }
        #expect(early?.detail.contains("1 of 3 elements") == true)
        #expect(early?.object == 0)
        try w.beginDictionary(count: 1)
        try w.key("k")
        expectWriterError(.unencodable) { try w.key("k2") }
        expectWriterError(.unencodable) { try w.end() }
        try w.value(["nested": [1, 2]])
        expectWriterError(.unencodable) { try w.string("too many") }
        try w.end()
        let before = (w.byteCount, w.objectCount)
        try w.string("third")
        expectWriterError(.unencodable) { try w.int(4) }
        expectWriterError(.unencodable) { try w.value([1]) }
        let objectsAfter = w.objectCount
        #expect(objectsAfter == before.1)
        try w.end()
        expectWriterError(.unencodable) { try w.end() }
        expectWriterError(.unencodable) { try w.null() }
        try w.finish()
        let expected: PlistValue = [1, ["k": ["nested": [1, 2]]], "third"]
        #expect(try decode(sink.data) == expected)
    }

    @Test func finishWithContainersOpenOrNoRootThrows() throws {
        expectFinishError(.unencodable, StreamingPlistWriter(to: PlistDataSink()))
        var open = StreamingPlistWriter(to: PlistDataSink())
        try open.beginArray(count: 2)
        try open.beginDictionary(count: 1)
        let e = expectFinishError(.unencodable, open)
        #expect(e?.detail.contains("2 containers open") == true)
    }

    @Test func keysMustBeStringsNumbersDatesOrData() throws {
        let sink = PlistDataSink()
        var w = StreamingPlistWriter(to: sink)
        try w.beginDictionary(count: 5)
        expectWriterError(.invalidKey) { try w.beginArray(count: 0) }
        expectWriterError(.invalidKey) { try w.bool(true) }
        expectWriterError(.invalidKey) { try w.null() }
        expectWriterError(.invalidKey) { try w.uid(1) }
        expectWriterError(.invalidKey) { try w.value([1]) }
        try w.int(1)
        try w.beginArray(count: 0)  // a container as a value is fine
        try w.end()
        try w.real(2.5)
        try w.bool(false)
        try w.date(Date(timeIntervalSinceReferenceDate: 0))
        try w.null()
        try w.data(Data([1]))
        try w.uid(3)
        try w.key("s")
        try w.string("v")
        try w.end()
        // A bad key deep inside a value: refused before anything is written.
        let badKey = PlistValue.dictionary(PlistDictionary([(PlistValue.bool(true), PlistValue.int(1))]))
        let bytes = w.byteCount
        expectWriterError(.unencodable) { try w.value(["a": badKey]) }
        let bytesAfter = w.byteCount
        #expect(bytesAfter == bytes)
        try w.finish()
        let d = try decode(sink.data)
        #expect(d.dictionaryValue?.count == 5)

        var fresh = StreamingPlistWriter(to: PlistDataSink())
        let byteCount = fresh.byteCount
        expectWriterError(.invalidKey) { try fresh.value(["a": badKey]) }
        let (freshBytes, freshObjects) = (fresh.byteCount, fresh.objectCount)
        #expect(freshBytes == byteCount)
        #expect(freshObjects == 1)
    }

    @Test func moreObjectsThanTheReferencesAddressThrows() throws {
        // Room for 255 objects with 1-byte references.
        var w = StreamingPlistWriter(to: PlistDataSink(), options: .init(expectedObjectCount: 200))
        let width = w.referenceWidth
        #expect(width == 1)
        try w.beginArray(count: 2)
        expectWriterError(.unencodable) { try w.beginArray(count: 253) }
        expectWriterError(.unencodable) { try w.value(.array(Array(repeating: 1, count: 253))) }
        try w.value(.array(Array(repeating: 1, count: 252)))
        expectWriterError(.unencodable) { try w.beginDictionary(count: 1) }
        try w.int(5)
        try w.end()
        let trailer = try w.finish()
        #expect(trailer.objectCount == 255)
        #expect(trailer.objectRefSize == 1)
    }

    @Test func aHugeSharedSubtreeIsRefusedAtOnce() throws {
        // 64 levels of [x, x]: 2^65 values when expanded; counted per distinct array, refused.
        var x: PlistValue = .array([1, 2])
        for _ in 0..<64 { x = .array([x, x]) }
        var w = StreamingPlistWriter(to: PlistDataSink())
        let clock = ContinuousClock()
        let start = clock.now
        expectWriterError(.unencodable) { try w.value(x) }
        #expect(clock.now - start < .seconds(5))
        let written = w.byteCount
        #expect(written == 8)
        // A shared sub-tree that fits is written once per appearance.
        var y: PlistValue = .array(["leaf"])
        for _ in 0..<8 { y = .array([y, y]) }
        try w.value(y)
        let sink = PlistDataSink()
        var v = StreamingPlistWriter(to: sink)
        try v.value(y)
        try v.finish()
        #expect(try decode(sink.data) == y)
        #expect(try BinaryPlistDocument(sink.data).objectCount == valueCount(y))
    }

    // MARK: Other readers

    @Test func foundationReadsWhatItWrites() async {
        await propertyCheck(count: 100, input: Self.seeds) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .foundation)
            let v = g.value()
            do {
                let data = try streamed(v, events: true).data
                let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                let difference = plistValue(fromFoundation: back).map { firstDifference(v, $0) } ?? "unconvertible"
                #expect(difference == nil, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func foundationsDecoderAndSerializationReadSharedOffsets() throws {
        struct Lists: Decodable, Equatable {
            var names: [String]
            var n: [Int]
        }
        let v: PlistValue = ["names": ["x", "y", "x", "x"], "n": [1, 1, 2, 1]]
        let data = try streamed(v).data
        let offsets = offsetTable(data)
        #expect(Set(offsets).count == offsets.count - 4)  // the repeated "x" twice, 1 twice
        #expect(
            try PropertyListDecoder().decode(Lists.self, from: data)
                == Lists(names: ["x", "y", "x", "x"], n: [1, 1, 2, 1]))
        let any = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        #expect(any?["names"] as? [String] == ["x", "y", "x", "x"])
        #expect(any?["n"] as? [Int] == [1, 1, 2, 1])
    }

    @Test func plistlibReadsWhatItWrites() throws {
        let seed = propertySeed()
        var g = PlistGenerator(seed: seed, profile: .plistlib)
        let values = (0..<120).map { _ in g.value() }
        let batch = PlistValue.array(values + Array(repeating: "repeated", count: 20))
        let ours = try streamed(batch, .init(bufferSize: 512)).data
        let script = """
            import plistlib, sys
            v = plistlib.loads(sys.stdin.buffer.read())
            sys.stdout.buffer.write(plistlib.dumps(v, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """
        let theirs = try python(script, input: ours)
        let back = try decode(theirs)
        #expect(back == batch, "seed \(seed): \(firstDifference(batch, back) ?? "")")
    }
}
