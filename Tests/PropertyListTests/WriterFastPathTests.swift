// Tests/PropertyListTests/WriterFastPathTests.swift - The tree writer's bytes against an independent
// model, against the builder fed by hand, and against Foundation.

import Foundation
import KeyedArchiveTestSupport
import PropertyBased
@_spi(Internals) import PropertyList
import Testing

/// A deliberately plain model of the writer's output: values interned by structural keys in a
/// `Dictionary` (recursively), numbered in pre-order from the root, and encoded by the format's rules.
/// It shares no code with the writer, so a fast path that dedups, numbers or sizes differently shows.
struct ReferenceEncoder {
    enum Key: Hashable {
        case scalar(kind: UInt8, bytes: [UInt8])
        case container(kind: UInt8, children: [Int])
    }

    var ids: [Key: Int] = [:]
    var keys: [Key] = []

    static func bigEndian(_ v: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - $0))) }
    }

    mutating func intern(_ v: PlistValue) -> Int {
        let key: Key
        switch v {
        case .null: key = .scalar(kind: 0x00, bytes: [0x00])
        case .bool(let b): key = .scalar(kind: 0x08, bytes: [b ? 0x09 : 0x08])
        case .integer(let plistInteger):
            let i = plistInteger.int128
            let bytes: [UInt8]
            if i >= 0 && i <= 0xFF {
                bytes = [0x10] + Self.bigEndian(UInt64(i), 1)
            } else if i >= 0 && i <= 0xFFFF {
                bytes = [0x11] + Self.bigEndian(UInt64(i), 2)
            } else if i >= 0 && i <= 0xFFFF_FFFF {
                bytes = [0x12] + Self.bigEndian(UInt64(i), 4)
            } else if let x = Int64(exactly: i) {
                bytes = [0x13] + Self.bigEndian(UInt64(bitPattern: x), 8)
            } else {
                let u = UInt128(bitPattern: i)
                bytes =
                    [0x14] + Self.bigEndian(UInt64(truncatingIfNeeded: u >> 64), 8)
                    + Self.bigEndian(UInt64(truncatingIfNeeded: u), 8)
            }
            key = .scalar(kind: 0x10, bytes: bytes)
        case .real(let d): key = .scalar(kind: 0x23, bytes: [0x23] + Self.bigEndian(d.bitPattern, 8))
        case .date(let d):
            key = .scalar(kind: 0x33, bytes: [0x33] + Self.bigEndian(d.timeIntervalSinceReferenceDate.bitPattern, 8))
        case .data(let d): key = .scalar(kind: 0x40, bytes: Self.header(0x40, d.count) + Array(d))
        case .string(let text):
            let s = text.string
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                key = .scalar(kind: 0x50, bytes: Self.header(0x50, s.utf8.count) + Array(s.utf8))
            } else {
                let units = Array(s.utf16)
                key = .scalar(
                    kind: 0x50, bytes: Self.header(0x60, units.count) + units.flatMap { Self.bigEndian(UInt64($0), 2) })
            }
        case .uid(let u):
            let w = Self.width(u, compact: false)
            key = .scalar(kind: 0x80, bytes: [0x80 | UInt8(w - 1)] + Self.bigEndian(u, w))
        case .array(let xs): key = .container(kind: 0xA0, children: xs.map { intern($0) })
        case .set(let xs): key = .container(kind: 0xC0, children: xs.map { intern($0) })
        case .dictionary(let d):
            let k = d.keys.map { intern($0) }
            key = .container(kind: 0xD0, children: k + d.values.map { intern($0) })
        }
        if let id = ids[key] { return id }
        ids[key] = keys.count
        keys.append(key)
        return keys.count - 1
    }

    static func width(_ v: UInt64, compact: Bool) -> Int {
        if compact { return max(1, (64 - v.leadingZeroBitCount + 7) / 8) }
        return v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    static func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
        if count < 15 { return [marker | UInt8(count)] }
        let w = width(UInt64(count), compact: false)
        return [marker | 0x0F, 0x10 | UInt8(w.trailingZeroBitCount)] + bigEndian(UInt64(count), w)
    }

    /// The file for `value`, as the writer must produce it.
    static func encode(_ value: PlistValue, compact: Bool = false) -> Data {
        var model = ReferenceEncoder()
        let root = model.intern(value)
        // Pre-order from the root; an object reached again keeps its first number.
        var number: [Int: Int] = [:]
        var order: [Int] = []
        var stack = [root]
        while let id = stack.popLast() {
            if number[id] != nil { continue }
            number[id] = order.count
            order.append(id)
            if case .container(_, let children) = model.keys[id] { stack.append(contentsOf: children.reversed()) }
        }
        let refSize = width(UInt64(order.count), compact: compact)
        var body: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for id in order {
            offsets.append(body.count)
            switch model.keys[id] {
            case .scalar(_, let bytes): body += bytes
            case .container(let kind, let children):
                body += header(kind, kind == 0xD0 ? children.count / 2 : children.count)
                for c in children { body += bigEndian(UInt64(number[c] ?? 0), refSize) }
            }
        }
        let tableOffset = body.count
        let offsetSize = width(UInt64(tableOffset), compact: compact)
        for o in offsets { body += bigEndian(UInt64(o), offsetSize) }
        body += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        body += bigEndian(UInt64(order.count), 8) + bigEndian(0, 8) + bigEndian(UInt64(tableOffset), 8)
        return Data(body)
    }
}

/// Feeds `value` to the builder bottom-up through its public API (the keyed archiver's path).
func addByHand(_ value: PlistValue, to b: inout ObjectTableBuilder) throws -> BuilderRef {
    switch value {
    case .null: return b.addNull()
    case .bool(let x): return b.addBool(x)
    case .integer(let x): return b.addInteger(x.int128)
    case .real(let x): return b.addReal(x)
    case .date(let x): return b.addDate(x)
    case .data(let x): return b.addData(x)
    case .string(let x): return b.addString(x)
    case .uid(let x): return b.addUID(x)
    case .array(let xs): return try b.addArray(xs.map { try addByHand($0, to: &b) })
    case .set(let xs): return try b.addSet(xs.map { try addByHand($0, to: &b) })
    case .dictionary(let d):
        let keys = try d.keys.map { try addByHand($0, to: &b) }
        return try b.addDictionary(keys: keys, values: d.values.map { try addByHand($0, to: &b) })
    }
}

@Suite struct WriterFastPathTests {
    func expectModelBytes(_ v: PlistValue, _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        for compact in [false, true] {
            let written = try BinaryPlistWriter(widths: compact ? .compact : .powersOfTwo).write(v)
            let model = ReferenceEncoder.encode(v, compact: compact)
            #expect(written == model, "\(note) compact: \(compact)", sourceLocation: sourceLocation)
        }
    }

    @Test func generatedValuesMatchTheModelByteForByte() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .full)
            let v = g.value()
            do {
                try expectModelBytes(v, "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func theBuilderFedByHandWritesTheSameBytes() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var g = PlistGenerator(seed: UInt64(seed), profile: .full)
            let v = g.value()
            do {
                var b = ObjectTableBuilder()
                let root = try addByHand(v, to: &b)
                #expect(try b.finish(root: root) == BinaryPlistWriter().write(v), "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func equalityEdgesAreKeptApart() throws {
        let wide = Int128(1) << 64
        let values: [PlistValue] = [
            // Integers never equal reals or booleans; -0.0 and 0.0 differ; NaN payloads are kept.
            1, 1.0, true, 0, 0.0, false, .real(-0.0), .real(.nan), .real(Double(bitPattern: 0x7FF8_0000_0000_0001)),
            // The same low 64 bits inside and outside Int64, and 16-byte values repeated.
            5, .int(wide + 5), .int(wide + 5), .int(-wide), .int(UInt64.max),
            .int(UInt64.max), -1, .int(Int64.min),
            // Canonically equivalent text is two strings; UTF-16 with astral scalars; repeats.
            "é", "e\u{301}", "é", "😀x", "😀x", "", .data(Data()), .data(Data("é".utf8)),
            // A UID, an int and a real with the same bits.
            .uid(7), 7, .real(Double(bitPattern: 7)), .uid(7), .date(Date(timeIntervalSinceReferenceDate: 0)),
            .real(0.0), .null, .null,
        ]
        try expectModelBytes(.array(values))
        try expectModelBytes(.set(values))
        let count = try BinaryPlistDocument(BinaryPlistWriter().write(.array(values))).objectCount
        #expect(count == distinctObjectCount(.array(values)))
        #expect(count == 27)
    }

    @Test func flatRootsGiveTheGeneralPathsBytes() throws {
        // A root array or set of scalars is written straight from the values; anything else, or a
        // container met late in the walk, goes through the builder. Both must agree byte for byte.
        let wide = Int128(1) << 70
        let scalars: [PlistValue] = [
            "a", "é", "😀", "a", "e\u{301}", .data(Data([1, 2])), .data(Data([1, 2])), .data(Data("a".utf8)),
            0, 1, 255, 256, 65_535, 65_536, -1, .int(Int64.min), .int(wide), .int(wide),
            .int(-wide),
            .int(UInt64.max), 1.0, .real(-0.0), 0.0, true, false, true, .null, .null, .uid(0), .uid(300),
            .uid(70_000), .uid(UInt64.max), .date(Date(timeIntervalSinceReferenceDate: -1)),
            .string(String(repeating: "long ", count: 40)), .string(String(repeating: "ü", count: 20)),
        ]
        let values: [PlistValue] = [
            .array(scalars), .set(scalars), .array(scalars + scalars), .array(Array(scalars.prefix(3))),
            .array(scalars + [["late"]]), .array([["early"]] + scalars), ["x"], .set(["x", "x"]), .array([]),
        ]
        for v in values {
            try expectModelBytes(v)
            var b = ObjectTableBuilder()
            let root = try addByHand(v, to: &b)
            #expect(try b.finish(root: root) == BinaryPlistWriter().write(v))
            #expect(
                try b.finish(root: root, widths: .compact) == BinaryPlistWriter(widths: .compact).write(v))
            // Through zlib too (the fast path hands its bytes to the same envelope).
            let packed = try BinaryPlistWriter(compression: .zlib, compressionLevel: 1).write(v)
            #expect(try decode(packed) == v)
        }
    }

    @Test func equalContainersAreWrittenOnce() throws {
        // Equal but separately built containers (different storage), nested; and the same with a
        // different key order, which is a different container.
        func record(_ i: Int) -> PlistValue { ["name": "n", "tags": ["a", "b"], "id": .int(i % 3)] }
        let v = PlistValue.array((0..<10).map(record) + [["id": 0, "tags": ["a", "b"], "name": "n"]])
        try expectModelBytes(v)
        // 3 records + 1 reordered + the shared tags array, its 2 strings, 3 keys, "n", 3 ids, and the root.
        #expect(try BinaryPlistDocument(BinaryPlistWriter().write(v)).objectCount == 15)
    }

    @Test func sharedAndDeepStructuresStayLinear() throws {
        // 60 levels of small shared containers (below the size the walker remembers by storage)
        // and of large ones: 2^60 leaves if anything walked the expansion.
        var small: PlistValue = "leaf"
        var large: PlistValue = .array((0..<100).map { .int($0) })
        for i in 0..<60 {
            small = [small, small, .int(i)]
            large = [large, large, .int(i)]
        }
        let a = try BinaryPlistWriter().write(small)
        #expect(try BinaryPlistDocument(a).objectCount == 1 + 60 * 2)
        #expect(try decode(a) == small)
        let b = try BinaryPlistWriter().write(large)
        // The 100 ints, their array, and one array per level (the level numbers are among the ints).
        #expect(try BinaryPlistDocument(b).objectCount == 101 + 60)
        #expect(try decode(b) == large)
        // A deep chain of arrays and dictionaries (kept at a depth Swift's recursive release of nested
        // enums survives on a test thread; HostileInputTests covers the writer itself further).
        var chain: PlistValue = "x"
        for i in 0..<1_500 { chain = i % 2 == 0 ? [chain] : ["k": chain] }
        let c = try BinaryPlistWriter().write(chain)
        #expect(try BinaryPlistDocument(c).objectCount == 1_500 + 2)
        try expectModelBytes(chain)
    }

    @Test func widthBoundariesMatchTheModel() throws {
        // Object counts around 255/256 and 65,535/65,536, and a table offset past 65,535 bytes.
        for n in [253, 254, 255, 256, 65_533, 65_534, 65_535, 65_536] {
            try expectModelBytes(.array((0..<n).map { .int($0) }), "n \(n)")
        }
        try expectModelBytes(.array((0..<3_000).map { .string("string number \($0)") }))
        try expectModelBytes(.array((0..<200).map { .data(Data(repeating: UInt8($0), count: $0)) }))
    }

    @Test func aCopiedBuilderDoesNotShareAppends() throws {
        var a = ObjectTableBuilder()
        let shared = a.addData(Data([1, 2, 3]))
        var b = a
        let onlyB = b.addData(Data([9, 9]))
        let onlyA = a.addData(Data([7, 7, 7, 7]))
        let wideA = a.addInteger(Int128(1) << 100)
        let wideB = b.addInteger(-(Int128(1) << 90))
        let rootA = try a.addArray([shared, onlyA, wideA])
        let rootB = try b.addArray([shared, onlyB, wideB])
        let fileA = try a.finish(root: rootA)
        let fileB = try b.finish(root: rootB)
        #expect(try decode(fileA) == [.data(Data([1, 2, 3])), .data(Data([7, 7, 7, 7])), .int(Int128(1) << 100)])
        #expect(try decode(fileB) == [.data(Data([1, 2, 3])), .data(Data([9, 9])), .int(-(Int128(1) << 90))])
    }

    @Test func foundationReadsLargeFlatOutput() throws {
        // The shapes of the benchmark workloads, small: unique strings, numbers, records.
        let strings = PlistValue.array((0..<5_000).map { .string("\($0):\(String(repeating: "x", count: $0 % 40))") })
        let numbers = PlistValue.array((0..<5_000).map { $0 % 2 == 0 ? .int($0 * 7919 % 1000) : .real(Double($0) / 7) })
        for v in [strings, numbers] {
            try expectModelBytes(v)
            let back = try PropertyListSerialization.propertyList(
                from: BinaryPlistWriter().write(v), options: [], format: nil)
            #expect(plistValue(fromFoundation: back).map { firstDifference(v, $0) } == .some(nil))
        }
    }
}
