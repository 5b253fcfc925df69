// fuzz/Sources/MakeSeeds/MakeSeeds.swift - Writes the fuzz seed corpus from our own writer.
//
//   swift run --package-path fuzz MakeSeeds fuzz/seeds      (or scripts/make-fuzz-seeds)
//
// Every seed is `config prefix (2 bytes) + payload` (see FuzzInput.swift). Payloads are written by
// PlistValue.encoded / ObjectTableBuilder, or assembled byte by byte here for shapes our writer
// never produces (cycles, bad trailers, counts past the end, appended data, envelopes). Nothing is
// copied from any external corpus.

import Foundation
import FuzzCommon
@_spi(Internals) import PropertyList

@main
struct MakeSeeds {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        let directory = URL(fileURLWithPath: arguments.first ?? "fuzz/seeds", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var seeds = Seeds()
        try seeds.makeAll()
        // Replace the directory's seeds so that a removed seed does not linger.
        for old in try FileManager.default.contentsOfDirectory(atPath: directory.path) where old.hasSuffix(".bin") {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(old))
        }
        for (name, bytes) in seeds.files {
            try Data(bytes).write(to: directory.appendingPathComponent(name + ".bin"))
        }
        let total = seeds.files.reduce(0) { $0 + $1.bytes.count }
        print("wrote \(seeds.files.count) seeds (\(total) bytes) to \(directory.path)")
    }
}

/// The seed set, in a fixed order (deterministic output).
struct Seeds {
    var files: [(name: String, bytes: [UInt8])] = []
    var names: Set<String> = []

    mutating func add(_ name: String, _ payload: some Sequence<UInt8>, config: [UInt8] = [0, 0]) {
        precondition(names.insert(name).inserted, "duplicate seed name \(name)")
        files.append((name, config + Array(payload)))
    }

    mutating func makeAll() throws {
        try valid()
        try keyed()
        hostile()
        try appended()
        try compressed()
        try truncatedAndConfigured()
        try text()
        try codable()
        typedStreams()
    }

    // MARK: Valid files from our writer

    static let mixed: PlistValue = [
        "name": "Ada", "age": 36, "ratio": 0.25, "on": true, "off": false,
        "bytes": .data(Data([0, 1, 2, 0xFF])), "when": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
        "list": [1, -1, "two", 3.5, ["nested": [.null, .uid(7)]]],
        "unicode": "h\u{E9}llo \u{1F600} \u{4E2D}\u{6587}", "long": "a string of more than fifteen bytes",
        "big": .int(UInt64.max), "neg128": .int(Int128(Int64.min) - 1),
        "set": .set([1, 2, "three"]),
    ]

    mutating func valid() throws {
        let w = SeedWriter()
        let scalars: [(String, PlistValue)] = [
            ("int-0", 0), ("int-255", 255), ("int-65536", 65536), ("int-minus1", -1),
            ("int-int64max", .int(Int64.max)), ("int-uint64max", .int(UInt64.max)),
            ("int-128bit-min", .integer(.min)), ("real", 1.5), ("real-nan", .real(.nan)),
            ("real-minus0", .real(-0.0)), ("date", .date(Date(timeIntervalSinceReferenceDate: -1.5))),
            ("data-empty", .data(Data())), ("data-20", .data(Data(0..<20))), ("ascii-a", "a"),
            ("ascii-empty", ""), ("ascii-15", "fifteen bytes!!"), ("utf16", "h\u{E9}llo"),
            ("utf16-surrogates", "\u{1F600}\u{1F601}x"), ("null", .null), ("true", true),
            ("uid-5", .uid(5)), ("uid-u32max", .uid(UInt64(UInt32.max))), ("uid-big", .uid(1 << 40)),
            ("dict-a5", ["a": 5]), ("dict-empty", .dictionary(PlistDictionary())), ("array-empty", []),
            ("set-empty", .set([])),
        ]
        for (name, v) in scalars { add("valid-\(name)", try w.write(v)) }
        add("valid-mixed", try w.write(Seeds.mixed))
        add("valid-mixed-nodedup", try Seeds.mixed.encoded(options: PlistWriteOptions(deduplicates: false)))
        add("valid-array-300-ints", try w.write(.array((0..<300).map { .int($0) })))
        add(
            "valid-dict-40-keys",
            try w.write(.dictionary(PlistDictionary((0..<40).map { (.string("k\($0)"), .int($0)) }))))
        add(
            "valid-int-keys",
            try w.write(.dictionary(PlistDictionary([(1, "one"), (2.5, "real"), (.data(Data([1])), "d")]))))
        add("valid-big-data", try w.write(.data(Data(repeating: 0xAB, count: 600))))

        // Builder-level shapes: a real Float, duplicate keys, shared sub-trees, deep nesting.
        var b = ObjectTableBuilder()
        let f = b.addFloat(0.5)
        let floats = try b.addArray([f, f])
        add("valid-float32", try b.finish(root: floats))

        b = ObjectTableBuilder(deduplicate: false)
        let k1 = b.addString("k")
        let k2 = b.addString("k")
        let v1 = b.addInt(1)
        let v2 = b.addInt(2)
        let duplicated = try b.addDictionary(keys: [k1, k2], values: [v1, v2])
        add("valid-duplicate-keys", try b.finish(root: duplicated))

        for levels in [4, 22, 60] {
            b = ObjectTableBuilder()
            var node = b.addInt(42)
            for _ in 0..<levels { node = try b.addArray([node, node]) }
            add("dag-\(levels)-levels", try b.finish(root: node))
        }
        b = ObjectTableBuilder()
        var leaf = b.addString("leaf")
        for i in 0..<12 {
            let ka = b.addString("a\(i % 3)")
            let kb = b.addString("b")
            leaf = try b.addDictionary(keys: [ka, kb], values: [leaf, leaf])
        }
        add("dag-dict-12-levels", try b.finish(root: leaf))

        for depth in [5, 40, 600] {
            var v: PlistValue = "bottom"
            for i in 0..<depth { v = i % 2 == 0 ? [v] : ["k": v] }
            add("deep-\(depth)", try w.write(v))
        }
    }

    // MARK: NSKeyedArchiver-shaped archives (built as plain property lists)

    mutating func keyed() throws {
        func archive(_ objects: [PlistValue], top: PlistValue = ["root": .uid(1)]) -> PlistValue {
            [
                "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": top,
                "$objects": .array(["$null"] + objects),
            ]
        }
        let w = SeedWriter()
        let dictClass: PlistValue = ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]]
        let arrayClass: PlistValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
        let custom: PlistValue = ["$classname": "Person", "$classes": ["Person", "NSObject"]]
        add("keyed-string", try w.write(archive(["hello"])))
        add(
            "keyed-dictionary",
            try w.write(
                archive([
                    ["NS.keys": [.uid(2), .uid(3)], "NS.objects": [.uid(4), .uid(5)], "$class": .uid(6)],
                    "a", "b", 1, "x", dictClass,
                ])))
        add(
            "keyed-array",
            try w.write(
                archive([["NS.objects": [.uid(2), .uid(2), .uid(0)], "$class": .uid(3)], "same", arrayClass])))
        add(
            "keyed-object-cycle",
            try w.write(
                archive([
                    ["name": .uid(2), "friend": .uid(3), "age": 36, "$class": .uid(4)], "Ada",
                    ["name": .uid(2), "friend": .uid(1), "$class": .uid(4)], custom,
                ])))
        // Hostile keyed shapes: $class to a non-dictionary, a cyclic $class, keys/objects mismatch,
        // UIDs past $objects, a huge NS.count, a wrong type under each key.
        add("keyed-class-not-dict", try w.write(archive([["$class": .uid(2)], "not a class"])))
        add("keyed-class-cycle", try w.write(archive([["$class": .uid(1)]])))
        add(
            "keyed-keys-objects-mismatch",
            try w.write(
                archive([["NS.keys": [.uid(2), .uid(2)], "NS.objects": [.uid(2)], "$class": .uid(3)], "k", dictClass])))
        add(
            "keyed-uid-out-of-range",
            try w.write(archive([["NS.objects": [.uid(99)], "$class": .uid(2)], arrayClass])))
        add("keyed-top-out-of-range", try w.write(archive(["x"], top: ["root": .uid(1000)])))
        add(
            "keyed-huge-count",
            try w.write(
                archive([["NS.count": .int(Int64.max), "NS.objects": [], "$class": .uid(2)], arrayClass])))
        add(
            "keyed-wrong-types",
            try w.write(
                archive(
                    [
                        ["NS.keys": "not an array", "NS.objects": 5, "$class": ["$classname": 7]], "x",
                    ], top: ["root": "not a uid"])))
    }

    // MARK: Hand-assembled hostile shapes (FORMAT.md 1.10 and 5)

    mutating func hostile() {
        let a = Asm.self
        add("cycle-array-self", a.file([[0xA1, 0]]))
        add("cycle-dict-value", a.file([[0xD1, 1, 0], a.ascii("k")]))
        add("cycle-dict-key-self", a.file([[0xD1, 0, 1], a.ascii("v")]))
        add("cycle-two-levels", a.file([[0xA1, 1], [0xA1, 0]]))
        add("cycle-set-self", a.file([[0xC1, 0]]))
        add("utf16-count-overrun", a.file([[0xA1, 1], [0x6F, 0x10, 0x28] + [UInt8](repeating: 0x41, count: 40)]))
        add("utf16-lone-surrogate", a.file([[0x61, 0xD8, 0x00]]))
        add("ascii-high-bytes", a.file([[0x53, 0xC3, 0xA9, 0x21]]))
        add("ascii-high-bytes-utf8-option", a.file([[0x53, 0xC3, 0xA9, 0x21]]), config: [2, 0])
        add("string-count-past-end", a.file([[0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]]))
        add("data-count-int64max", a.file([[0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        add("array-count-past-end", a.file([[0xAF, 0x12, 0x10, 0, 0, 0, 0]]))
        add("dict-count-overflow", a.file([[0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0]], refSize: 8))
        add("extended-count-not-int", a.file([[0xAF, 0x51, 0x41]]))
        add("extended-count-negative", a.file([[0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        add("extended-count-16-byte", a.file([[0x5F, 0x14] + [UInt8](repeating: 0, count: 15) + [1, 0x41]]))
        add("ref-out-of-range", a.file([[0xA2, 1, 9], [0x10, 1]]))
        add("dict-key-container", a.file([[0xD1, 1, 2], [0xA0], [0x10, 1]]))
        add("dict-key-bool", a.file([[0xD1, 1, 1], [0x09]]))
        add("dict-key-null", a.file([[0xD1, 1, 2], [0x00], [0x10, 1]]))
        add("fill-root", a.file([[0x0F]]))
        add("fill-in-array", a.file([[0xA1, 1], [0x0F]]))
        for marker: UInt8 in [0x01, 0x0C, 0x0D, 0x0E, 0x15, 0x21, 0x24, 0x30, 0x34, 0x70, 0x90, 0xB0, 0xE0, 0xF0] {
            add("marker-\(hexString([marker]))", a.file([[0xA1, 1], [marker, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]))
        }
        add("int-16-byte-all-ones", a.file([[0x14] + [UInt8](repeating: 0xFF, count: 16)]))
        add("uid-5-byte-over-u32", a.file([[0x84, 1, 0, 0, 0, 0]]))
        add("uid-16-byte", a.file([[0x8F] + [UInt8](repeating: 0, count: 15) + [3]]))
        add("uid-16-byte-high-bits", a.file([[0x8F, 1] + [UInt8](repeating: 0, count: 15)]))
        add("date-nan", a.file([[0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 1]]))
        add("real-float32-nan", a.file([[0x22, 0x7F, 0xC0, 0, 1]]))
        add("offsets-3-byte-refs-3-byte", a.file([[0xA2, 0, 0, 1, 0, 0, 1], [0x10, 7]], refSize: 3, offsetSize: 3))
        add("refs-8-byte", a.file([[0xA1, 0, 0, 0, 0, 0, 0, 0, 1], [0x10, 7]], refSize: 8, offsetSize: 8))
        // Trailer fields one at a time.
        let good = a.file([[0xA2, 1, 2], a.ascii("a"), [0x10, 5]])
        add("trailer-good", good)
        for (name, field, value) in [
            ("offset-size-0", 6, [0]), ("offset-size-9", 6, [9]), ("ref-size-0", 7, [0]), ("ref-size-9", 7, [9]),
            ("count-0", 8, [0, 0, 0, 0, 0, 0, 0, 0]),
            ("count-huge", 8, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("count-2-pow-63", 8, [0x80, 0, 0, 0, 0, 0, 0, 0]), ("top-out-of-range", 16, [0, 0, 0, 0, 0, 0, 0, 3]),
            ("top-huge", 16, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("table-in-header", 24, [0, 0, 0, 0, 0, 0, 0, 0]),
            ("table-past-end", 24, [0, 0, 0, 0, 0, 0, 0x10, 0]),
            ("table-huge", 24, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]),
            ("unused-bytes-set", 0, [1, 2, 3, 4, 5, 6]),
        ] as [(String, Int, [UInt8])] {
            add("trailer-\(name)", a.patchTrailer(good, field, value))
        }
        add("offset-into-header", a.patchOffset(good, index: 1, value: 2))
        add("offset-into-table", a.patchOffset(good, index: 2, value: UInt8(good.count - 32 - 3)))
        add("ref-size-too-small-300", a.file((0..<300).map { _ in [0x09] }, refSize: 1))
        add(
            "offset-size-too-small",
            a.file([[0x4F, 0x11, 0x01, 0x00] + [UInt8](repeating: 7, count: 256)], offsetSize: 1))
        add("version-bplist0x", a.file([[0x10, 1]], version: "0x"))
        add("version-bplist15", a.file([[0x10, 1]], version: "15"))
        add("version-bplist17", a.file([[0x10, 1]], version: "17"))
        add("header-only", Array("bplist00".utf8))
        add("empty", [])
        add("short", Array("bplis".utf8))
        add("header-and-trailer-only", Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32))
        add("garbage-between-table-and-trailer", a.insertBeforeTrailer(good, [0xEE]))
    }

    // MARK: Appended data and back-to-back files

    mutating func appended() throws {
        let w = SeedWriter()
        let a = try Array(w.write(["a": 5]))
        let b = try Array(w.write(Seeds.mixed))
        for (config, suffix) in [([0, 0] as [UInt8], "strict"), ([1, 0], "lenient")] {
            add("appended-junk-\(suffix)", a + Array("junk".utf8), config: config)
            add("appended-one-byte-\(suffix)", a + [0], config: config)
            add("appended-same-\(suffix)", a + a, config: config)
            add("appended-other-\(suffix)", a + b, config: config)
            add("appended-partial-\(suffix)", a + b.prefix(20), config: config)
            add("appended-trailer-copy-\(suffix)", a + a.suffix(32), config: config)
        }
        add("back-to-back-three", a + b + a)
    }

    // MARK: zlib and gzip envelopes

    mutating func compressed() throws {
        let plain = try SeedWriter().write(Seeds.mixed)
        add("zlib-level1", try Zlib.deflate(plain, level: 1))
        add("zlib-level9", try Zlib.deflate(plain, level: 9))
        add("zlib-stored", try Zlib.deflate(plain, level: 0))
        add("zlib-nested", try Zlib.deflate(Zlib.deflate(plain, level: 1), level: 1))
        add("zlib-not-a-plist", try Zlib.deflate(Data("hello, world".utf8), level: 6))
        let packed = try Zlib.deflate(plain, level: 6)
        add("zlib-truncated", packed.prefix(packed.count / 2))
        add("zlib-trailing-byte", packed + [0])
        add("zlib-corrupt", Data(packed.prefix(10)) + Data([0xFF, 0xFF]) + packed.dropFirst(12))
        add("gzip", Asm.gzip(plain))
        // A bomb: 60 KB of zeros inside a data object, read with a 100-byte and a 64 KiB cap.
        let bomb = try Zlib.deflate(SeedWriter().write(.data(Data(count: 60_000))), level: 9)
        add("zlib-bomb-cap-100", bomb, config: [0, 0x20])
        add("zlib-bomb-cap-64k", bomb)
        add("zlib-rejected-by-option", packed, config: [4, 0])
    }

    // MARK: Truncations and limit configurations

    mutating func truncatedAndConfigured() throws {
        let plain = try Array(SeedWriter().write(Seeds.mixed))
        for cut in [9, 40, plain.count / 2, plain.count - 33, plain.count - 32, plain.count - 1] {
            add("truncated-mixed-\(cut)", plain.prefix(cut))
        }
        let configs: [(String, [UInt8])] = [
            ("depth-1", [0x08, 0]), ("depth-4", [0x10, 0]), ("nodes-8", [0x60, 0]), ("nodes-64", [0x80, 0]),
            ("objects-1", [0, 1]), ("objects-16", [0, 2]), ("uid-max-0", [0, 4]), ("uid-max-u64", [0, 0x0C]),
            ("choice-1", [0, 0x40]), ("choice-2", [0, 0x80]), ("choice-3", [0, 0xC0]), ("everything-lenient", [3, 0]),
        ]
        for (name, config) in configs { add("config-\(name)", plain, config: config) }
    }
}

/// A tiny assembler for hand-made files: header, objects, offset table, trailer.
enum Asm {
    static func be(_ v: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - $0))) }
    }

    static func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }

    static func file(_ objects: [[UInt8]], refSize: UInt8 = 1, offsetSize: Int? = nil, version: String = "00")
        -> [UInt8]
    {
        var bytes = Array("bplist".utf8) + Array(version.utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(bytes.count)
            bytes += o
        }
        let table = bytes.count
        let width = offsetSize ?? (table <= 0xFF ? 1 : table <= 0xFFFF ? 2 : 4)
        for off in offsets { bytes += be(UInt64(off), width) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(width), refSize]
        bytes += be(UInt64(objects.count), 8) + be(0, 8) + be(UInt64(table), 8)
        return bytes
    }

    /// Overwrites trailer bytes starting at `field` (0 = first unused byte, 6 = offset size, ...).
    static func patchTrailer(_ file: [UInt8], _ field: Int, _ value: [UInt8]) -> [UInt8] {
        var out = file
        let start = file.count - 32 + field
        out.replaceSubrange(start..<start + value.count, with: value)
        return out
    }

    /// Overwrites offset-table entry `index` of a file with 1-byte offsets.
    static func patchOffset(_ file: [UInt8], index: Int, value: UInt8) -> [UInt8] {
        let table = Int(file[file.count - 1])
        var out = file
        out[table + index] = value
        return out
    }

    static func insertBeforeTrailer(_ file: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        var out = file
        out.insert(contentsOf: bytes, at: file.count - 32)
        return out
    }

    /// A gzip member around `data`: the raw deflate stream of our zlib output, re-wrapped.
    static func gzip(_ data: Data) -> [UInt8] {
        guard let zlib = try? Zlib.deflate(data, level: 6) else { return [] }
        let raw = Array(zlib.dropFirst(2).dropLast(4))
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        let size = UInt32(truncatingIfNeeded: data.count)
        let le: (UInt32) -> [UInt8] = { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + raw + le(crc) + le(size)
    }
}

/// The binary form of values, as the library writes it (`PlistValue.encoded()`).
struct SeedWriter {
    func write(_ value: PlistValue) throws(PlistError) -> Data { try value.encoded() }
}
