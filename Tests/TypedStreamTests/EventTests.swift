// Tests/TypedStreamTests/EventTests.swift - The low-level reader on streams written byte by byte:
// every type code, every integer form, both byte orders, both streamer versions, the two reference
// tables with references of every width, class chains with versions, several top-level groups.

import Foundation
import Testing
import TypedStream

@Suite struct EventTests {
    /// The NSString archive of python-typedstream's README example, written from the format.
    static let nsString = """
        \(header)
        84 01 "@"                      // S0 "@": a group of one object
        84                             // O0: a new object
        84 84 08 "NSString" 01         // O1: class NSString (S1), version 1
        84 84 08 "NSObject" 00         // O2: class NSObject (S2), version 0
        85                             // nil: NSObject is a root class
        84 01 "+"                      // S3 "+": the string's group
        0c "string value"              // 12 bytes
        86                             // end of O0
        """

    @Test func nsStringEvents() throws {
        let d = data(EventTests.nsString)
        #expect(d.count == 62)
        var reader = try TypedStreamReader(d)
        #expect(reader.streamerVersion == 4)
        #expect(reader.byteOrder == .littleEndian)
        #expect(reader.systemVersion == 1000)
        var seen: [TypedStreamEvent] = []
        var offsets: [Int] = []
        while let e = try reader.next() {
            seen.append(e)
            offsets.append(reader.offset)
        }
        #expect(
            seen == [
                .beginGroup(types: "@"), .beginObject(0, class: 0), .beginGroup(types: "+"), .string(49..<61),
                .endGroup,
                .endObject(0), .endGroup,
            ])
        #expect(offsets[1] == 19)  // the object's 0x84
        #expect(offsets[3] == 48)  // the string's length byte
        #expect(offsets[5] == 61)  // the 0x86
        #expect(reader.classInfo(0) == TypedStreamClass(name: "NSString", version: 1, superclass: 1))
        #expect(reader.classInfo(1) == TypedStreamClass(name: "NSObject", version: 0, superclass: nil))
        #expect(String(decoding: reader.bytes(49..<61), as: UTF8.self) == "string value")
        #expect(try reader.next() == nil)
    }

    @Test func everyScalarTypeAndIntegerForm() throws {
        let d = data(
            """
            \(header)
            84 0e "cCsSiIlLqQfdB!"
            ff                              // c: raw byte, -1
            ff                              // C: raw byte, 255
            81 00 80                        // s: int16 -32768
            ff                              // S: -1 written for 65535
            82 00 00 00 80                  // i: int32 -2147483648
            82 ff ff ff ff                  // I: -1 written for 4294967295
            92                              // l: -110, the smallest one-byte integer
            7f                              // L: 127, the largest
            87 00 00 00 00 00 00 00 80      // q: int64 minimum
            87 ff ff ff ff ff ff ff ff      // Q: -1 written for UInt64.max
            83 00 00 c0 3f                  // f: 1.5
            05                              // d: 5, a whole real written as an integer
            01                              // B: true
                                            // !: no bytes
            """)
        #expect(
            try events(d) == [
                .beginGroup(types: "cCsSiIlLqQfdB!"),
                .integer(-1, type: "c"), .unsignedInteger(255, type: "C"), .integer(-32768, type: "s"),
                .unsignedInteger(65535, type: "S"), .integer(-2_147_483_648, type: "i"),
                .unsignedInteger(4_294_967_295, type: "I"), .integer(-110, type: "l"), .unsignedInteger(127, type: "L"),
                .integer(Int64.min, type: "q"), .unsignedInteger(UInt64.max, type: "Q"), .float(1.5), .double(5),
                .bool(true), .ignored,
                .endGroup,
            ])
    }

    @Test func stringsClassesAndNil() throws {
        let d = data(
            """
            \(header)
            84 07 "+*%:#@*"
            85                              // +: nil
            84 84 04 "abcd"                 // *: a new C string (O0) whose text is new (S1)
            84 03 "xyz"                     // %: a new shared string (S2)
            85                              // :: nil
            84 84 03 "Foo" 07 85            // #: class Foo (O1, S3), version 7, a root class
            85                              // @: nil
            92                              // *: reference to O0, the C string
            """)
        let reader = try TypedStreamReader(d)
        #expect(
            try events(d) == [
                .beginGroup(types: "+*%:#@*"), .string(nil), .cString("abcd"), .sharedString("xyz", type: "%"),
                .sharedString(nil, type: ":"), .classValue(0), .nilObject, .cString("abcd"), .endGroup,
            ])
        _ = reader
    }

    @Test func arraysStructuresUnionsAndByteArrays() throws {
        let d = data(
            """
            \(header)
            84 2a "[3s]{CGPoint=dd}[2{_NSRange=II}](u=ic)[4c]"
            01 02 03                        // [3s]
            83 00 00 00 00 00 00 e0 3f 02   // {CGPoint=dd}: 0.5, 2
            01 02 03 04                     // [2{_NSRange=II}]: {1, 2}, {3, 4}
            aa bb cc dd                     // (u=ic): the 4 bytes of the union's C layout
            "wxyz"                          // [4c]: raw bytes
            """)
        let groupStart = 16 + 2 + 42
        #expect(
            try events(d) == [
                .beginGroup(types: "[3s]{CGPoint=dd}[2{_NSRange=II}](u=ic)[4c]"),
                .beginArray(count: 3), .integer(1, type: "s"), .integer(2, type: "s"), .integer(3, type: "s"),
                .endArray,
                .beginStructure(name: "CGPoint"), .double(0.5), .double(2), .endStructure,
                .beginArray(count: 2),
                .beginStructure(name: "_NSRange"), .unsignedInteger(1, type: "I"), .unsignedInteger(2, type: "I"),
                .endStructure,
                .beginStructure(name: "_NSRange"), .unsignedInteger(3, type: "I"), .unsignedInteger(4, type: "I"),
                .endStructure,
                .endArray,
                .union(groupStart + 3 + 10 + 4..<groupStart + 3 + 10 + 4 + 4),
                .bytes(groupStart + 21..<groupStart + 25),
                .endGroup,
            ])
    }

    @Test func unionSizeFollowsTheCLayout() throws {
        // (u=cd) is 8 bytes on any platform; (p=@c) is a pointer: 8 bytes by default, 4 on request.
        let body = """
            \(header)
            84 0c "(u=cd)(p=@c)"
            01 02 03 04 05 06 07 08
            11 12 13 14
            """
        #expect(throws: TypedStreamError.self) { try events(data(body)) }
        let four = try events(data(body), options: .init(unionPointerSize: 4))
        #expect(four == [.beginGroup(types: "(u=cd)(p=@c)"), .union(30..<38), .union(38..<42), .endGroup])
    }

    @Test func bigEndianStreams() throws {
        let d = data(
            """
            \(headerBE)
            84 03 "ifq"
            81 01 00                        // i: int16 256, big-endian
            83 3f c0 00 00                  // f: 1.5, big-endian
            87 00 00 00 01 00 00 00 00      // q: 2^32, big-endian int64
            """)
        let reader = try TypedStreamReader(d)
        #expect(reader.byteOrder == .bigEndian)
        #expect(reader.systemVersion == 1000)
        #expect(
            try events(d) == [
                .beginGroup(types: "ifq"), .integer(256, type: "i"), .float(1.5), .integer(1 << 32, type: "q"),
                .endGroup,
            ])
    }

    @Test func severalTopLevelGroups() throws {
        let d = data(
            """
            \(header)
            84 01 "i" 05
            84 01 "@" 85
            92 85                           // S0 again: an "i"? no: S0 is "i", so 0x85 is not an integer
            """)
        // The third group's type is S0 ("i"); its value byte 0x85 is nil, not an integer.
        let e = readError(d)
        #expect(e?.code == .unexpectedTag)
        #expect(e?.offset == 25)
        let ok = data(
            """
            \(header)
            84 01 "i" 05
            84 01 "@" 85
            92 7f
            93 85
            """)
        #expect(
            try events(ok) == [
                .beginGroup(types: "i"), .integer(5, type: "i"), .endGroup, .beginGroup(types: "@"), .nilObject,
                .endGroup,
                .beginGroup(types: "i"), .integer(127, type: "i"), .endGroup, .beginGroup(types: "@"), .nilObject,
                .endGroup,
            ])
        let archive = try TypedStreamArchive(ok)
        #expect(archive.groups.map(\.types) == ["i", "@", "i", "@"])
        #expect(archive.groups.map(\.offset) == [16, 20, 24, 26])
    }

    @Test func classChainsWithVersionsAndSuperclassReferences() throws {
        let d = data(
            """
            \(header)
            84 02 "@@"
            84                              // O0: object 0
            84 84 01 "C" 03                 // O1: class C v3
            84 84 01 "B" 02                 // O2: class B v2
            84 84 01 "A" 01 85              // O3: class A v1, a root
            86
            84                              // O4: object 1
            84 84 01 "D" 04                 // O5: class D v4
            94                              // its superclass: O2, class B
            86
            """)
        let archive = try TypedStreamArchive(d)
        #expect(
            archive.classes == [
                TypedStreamClass(name: "C", version: 3, superclass: 1),
                TypedStreamClass(name: "B", version: 2, superclass: 2),
                TypedStreamClass(name: "A", version: 1, superclass: nil),
                TypedStreamClass(name: "D", version: 4, superclass: 1),
            ])
        #expect(archive.classChain(of: 1).map(\.name) == ["D", "B", "A"])
        #expect(archive.classChain(of: 1).map(\.version) == [4, 2, 1])
        #expect(archive.objects.map(\.classNumber) == [0, 3])
        #expect(archive.root == .object(0))
    }

    /// References of every width: one byte 0x92…0xFF (entries 0…109), one byte 0x00…0x7F (110…237),
    /// and 0x81 int16 beyond; into both tables.
    @Test func referencesOfEveryWidth() throws {
        var b = bytes(header)
        // 241 shared strings: "[1c]" … "[241c]", each a group of k raw bytes.
        for k in 1...241 {
            let t = Array("[\(k)c]".utf8)
            b += [0x84, UInt8(t.count)] + t + [UInt8](repeating: UInt8(k & 0xFF), count: k)
        }
        // Entry 114 by a one-byte positive reference (114 - 110 = 4), entry 239 by 0x81 (239 - 110 = 129).
        b += [0x04] + [UInt8](repeating: 0xAB, count: 115)
        b += [0x81, 0x81, 0x00] + [UInt8](repeating: 0xCD, count: 240)
        // 250 objects of class Foo: O0 the first object, O1 the class, then objects at entries 2…250.
        b += bytes("84 01 \"@\" 84 84 84 03 \"Foo\" 00 85 86")
        let atString = 241  // S241 is "@"
        for _ in 1..<250 { b += [0x81] + le16(atString - 110) + bytes("84 93 86") }
        // Object at entry 150 (object 149) by 0x28, at entry 239 (object 238) by 0x81 0x81 0x00.
        b += [0x81] + le16(atString - 110) + [0x28]
        b += [0x81] + le16(atString - 110) + [0x81, 0x81, 0x00]
        let archive = try TypedStreamArchive(Data(b))
        #expect(archive.groups.count == 241 + 2 + 250 + 2)
        #expect(
            archive.groups[241]
                == TypedStreamGroup(
                    types: "[115c]", values: [.bytes(Data(repeating: 0xAB, count: 115))],
                    offset: archive.groups[241].offset))
        #expect(archive.groups[242].types == "[240c]")
        #expect(archive.groups[242].values == [.bytes(Data(repeating: 0xCD, count: 240))])
        #expect(archive.objects.count == 250)
        #expect(archive.groups[241 + 2 + 250].values == [.object(149)])
        #expect(archive.groups[241 + 2 + 251].values == [.object(238)])
    }

    @Test func streamerVersionThree() throws {
        // NeXTSTEP: big-endian, system version 930, an object without a type encoding (NXWriteObject),
        // an integer after its class chain, then a typed group.
        let d = data(
            """
            03 0b "typedstream" 81 03 a2    // streamer 3, system version 930
            84                              // O0: an object, no "@" before it
            84 84 03 "Foo" 05 85            // O1: class Foo v5
            00                              // version 3's integer after the chain
            84 01 "i" 81 01 00              // a group inside it: i 256
            86
            93 2a                           // a typed group at the top level: S1 "i" 42
            """)
        let reader = try TypedStreamReader(d)
        #expect(reader.streamerVersion == 3)
        #expect(reader.systemVersion == 930)
        #expect(
            try events(d) == [
                .beginGroup(types: "@"), .beginObject(0, class: 0), .beginGroup(types: "i"), .integer(256, type: "i"),
                .endGroup, .endObject(0), .endGroup, .beginGroup(types: "i"), .integer(42, type: "i"), .endGroup,
            ])
    }

    @Test func anObjectReferenceMayNameAClass() throws {
        // NEXTSTEP nibs name a class in an `@` slot: the reference resolves to the class.
        let d = data(
            """
            \(header)
            84 02 "@@"
            84 84 84 03 "Foo" 00 85 86      // O0 object, O1 class Foo
            93                              // @ naming O1, the class
            """)
        #expect(try events(d).contains(.classValue(0)))
        #expect(try TypedStreamArchive(d).groups[0].values == [.object(0), .class(0)])
    }

    @Test func typedStreamDetection() {
        #expect(TypedStreamReader.isTypedStream(data(header)))
        #expect(TypedStreamReader.isTypedStream(data(headerBE)))
        #expect(!TypedStreamReader.isTypedStream(Data("bplist00".utf8)))
        #expect(!TypedStreamReader.isTypedStream(data("04 0b \"streamtypeX\" 81 e8 03")))
        #expect(!TypedStreamReader.isTypedStream(data("04 0b \"streamtyp\"")))
    }
}

/// `v` as two little-endian bytes.
func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
