// fuzz/Sources/MakeSeeds/TypedStreamSeeds.swift - Seeds for FuzzTypedStream (names start with `ts-`):
// streams of our test-support writer (Messages bodies, the benchmark graph, colour lists, fonts, every type
// code, both byte orders, streamer version 3) and hostile shapes (truncated, bad references, deep
// nesting, trailing bytes, a class chain naming itself), each behind a configuration prefix.

import Foundation
import TypedStream
import Workloads

extension Seeds {
    mutating func typedStreams() {
        typealias S = TypedStreamSamples
        let part = "__kIMMessagePartAttributeName"
        let hi = S.attributedBody("hi", runs: [(2, [(part, .int(0))])])
        add("ts-message-hi", hi)
        add(
            "ts-message-three-parts",
            S.attributedBody(
                "\u{FFFC}hi Sam https://ex.test/x",
                runs: [
                    (1, [("__kIMFileTransferGUIDAttributeName", .string("AT_0_GUID")), (part, .int(0))]),
                    (3, [(part, .int(1))]),
                    (3, [(part, .int(1)), ("__kIMMentionConfirmedMention", .string("+15550100"))]),
                    (1, [(part, .int(1))]),
                    (
                        17,
                        [
                            (part, .int(1)), ("__kIMLinkAttributeName", .url("https://ex.test/x")),
                            ("__kIMTextBoldAttributeName", .int(1)),
                        ]
                    ),
                ], mutable: true))
        add(
            "ts-message-big-endian",
            S.attributedBody("big", runs: [(3, [(part, .longLong(1 << 40))])], byteOrder: .bigEndian))
        for (i, blob) in S.messageBodies(count: 6, seed: 3).enumerated() { add("ts-message-\(i)", blob) }
        add("ts-graph", S.objectGraph(count: 12))

        // Every scalar type code, arrays, structures, unions.
        var w = TypedStreamWriter()
        w.beginGroup("cCsSiIlLqQfdB!*%:+")
        w.byte(0xFF)
        w.byte(0xFF)
        w.integer(-32768)
        w.unsignedInteger(65535, bits: 16)
        w.integer(Int64(Int32.min))
        w.unsignedInteger(UInt64(UInt32.max), bits: 32)
        w.integer(-110)
        w.unsignedInteger(127, bits: 32)
        w.integer(.min)
        w.unsignedInteger(.max, bits: 64)
        w.float(1.5)
        w.double(-2.25)
        w.byte(1)
        w.cString("i")
        w.sharedString(Array("atom".utf8))
        w.sharedString(nil)
        w.unsharedString(Array("text".utf8))
        w.beginGroup("[3s]{CGRect={CGPoint=dd}{CGSize=dd}}(u=ic)[4c]#@")
        for v in [1, 2, 3] as [Int64] { w.integer(v) }
        for d in [1.0, 2.5, 3, 4] { w.double(d) }
        w.raw([1, 2, 3, 4])
        w.raw(Array("wxyz".utf8))
        w.classChain([(0, "Foo", 7), (1, "NSObject", 0)])
        w.nilValue()
        let scalars = w.bytes
        add("ts-every-type", scalars)
        add("ts-every-type-union-4", scalars, config: [0, 0x40])

        // A colour list, a font, streamer version 3, big-endian.
        var c = TypedStreamWriter()
        c.beginGroup("i")
        c.integer(1)
        c.beginGroup("@i")
        c.nilValue()
        c.integer(2)
        for (name, kind, comps) in [("Red", 1, [1.0, 0, 0, 1]), ("Gray", 3, [0.5, 1])] as [(String, Int64, [Double])] {
            c.beginGroup("@@")
            c.beginObject([(0, "NSColor", 0), (1, "NSObject", 0)])
            c.beginGroup("c")
            c.byte(UInt8(kind))
            c.beginGroup(String(repeating: "f", count: comps.count))
            for x in comps { c.float(Float(x)) }
            c.endObject()
            c.beginObject([(2, "NSString", 1), (1, "NSObject", 0)])
            c.beginGroup("+")
            c.unsharedString(Array(name.utf8))
            c.endObject()
        }
        add("ts-color-list", c.bytes)
        var v3 = TypedStreamWriter(byteOrder: .bigEndian, streamerVersion: 3, systemVersion: 930)
        v3.beginGroup("@")
        v3.beginObject([(0, "Foo", 5)])
        v3.beginGroup("i")
        v3.integer(256)
        v3.endObject()
        add("ts-v3-big-endian", v3.bytes)

        // Hostile shapes.
        add("ts-truncated", hi.prefix(hi.count - 7))
        add("ts-trailing-strict", hi + Array("junk".utf8))
        add("ts-trailing-lenient", hi + Array("junk".utf8), config: [1, 0])
        add("ts-twice", hi + hi)
        var header = TypedStreamWriter().bytes
        add("ts-bad-object-reference", header + [0x84, 0x01, 0x40, 0x95])
        add("ts-self-class", header + [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x00, 0x93])
        add("ts-huge-array", header + [0x84, 0x0A] + Array("[1000000i]".utf8) + [1, 2, 3])
        add("ts-many-empty", header + [0x84, 0x09] + Array("[100000!]".utf8))
        add("ts-negative-length", header + [0x84, 0x01, 0x2B, 0xFF])
        var deep = header + [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x03] + Array("Foo".utf8) + [0x00, 0x85]
        for _ in 0..<40 { deep += [0x92, 0x84, 0x93] }
        deep += [UInt8](repeating: 0x86, count: 41)
        add("ts-deep", deep)
        add("ts-deep-depth-4", deep, config: [0x10, 0])
        // An NSArray that contains itself; a cycle through unknown objects.
        header +=
            [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x07] + Array("NSArray".utf8) + [
                0x00, 0x85, 0x84, 0x01, 0x69, 0x01, 0x92, 0x92, 0x86,
            ]
        add("ts-array-contains-itself", header)
    }
}
