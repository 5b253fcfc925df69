// Tests/TypedStreamTests/TypedValueTests.swift - The typed layer: Foundation and AppKit classes as the
// values keyed archives decode to, unknown classes as instances, cycles.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import Testing
@_spi(Internals) import TypedStream

@Suite struct TypedValueTests {
    @Test func foundationClasses() throws {
        let archive = try TypedStreamArchive(data(TypedFixtures.foundation))
        #expect(archive.objects.count == 21)
        guard case .array(let items) = try archive.decodeRoot() else {
            Issue.record("the root is not an array")
            return
        }
        #expect(items.count == 15)
        guard items.count == 15 else { return }
        #expect(items[0] == .string("é"))
        #expect(items[1] == .data(Data([1, 2, 3])))
        #expect(items[2] == .integer(42))
        #expect(items[3] == .integer(1 << 40))
        #expect(items[4] == .bool(true))
        #expect(items[5] == .real(2.5))
        #expect(items[6] == .date(Date(timeIntervalSinceReferenceDate: 10.5)))
        #expect(items[7] == .url(URL(string: "https://example.com/a/")!))
        guard case .url(let relative) = items[8] else {
            Issue.record("not a URL: \(items[8])")
            return
        }
        #expect(relative.absoluteString == "https://example.com/a/b/c")
        #expect(relative.relativeString == "b/c")
        #expect(items[9] == .dictionary([.string("k"): .string("v")]))
        #expect(items[10] == .set([.integer(42), .integer(7)]))
        #expect(items[11] == .geometry(.rect(x: 1, y: 2, width: 3.5, height: 4)))
        #expect(items[12] == .geometry(.range(location: 5, length: 10)))
        #expect(items[13] == .nsNull)
        guard case .object(let thing) = items[14] else {
            Issue.record("not an instance: \(items[14])")
            return
        }
        #expect(thing.className == "XYZThing")
        #expect(thing.classChain == ["XYZThing", "NSObject"])
        #expect(thing.classVersions == [3, 0])
        #expect(thing.unkeyed == [.integer(7), .string("é")])
        #expect(thing.fields.isEmpty)
        // The object layer keeps what the stream says: the shared string is one object.
        #expect(
            archive.objects[20].groups == [
                TypedStreamGroup(
                    types: "i@", values: [.integer(7), .object(1)], offset: archive.objects[20].groups[0].offset)
            ])
        #expect(archive.className(of: 4) == "NSNumber")
        #expect(archive.objects[4].values == [.cString("q"), .integer(1 << 40)])
    }

    /// Reading straight from the bytes gives the values of the object layer, for every fixture.
    @Test func theOnePassDecoderAgreesWithTheObjectLayer() throws {
        for fixture in [
            TypedFixtures.foundation, TypedFixtures.colors, TypedFixtures.font, MessageFixtures.hi,
            MessageFixtures.threeParts, EventTests.nsString,
        ] {
            let d = data(fixture)
            #expect(sameGraphs(try TypedStreamArchive(d).decodeValues(), try TypedStreamArchive.decodeValues(from: d)))
        }
        for blob in TypedStreamSamples.messageBodies(count: 100) + [TypedStreamSamples.objectGraph(count: 40)] {
            #expect(
                sameGraphs(try TypedStreamArchive(blob).decodeValues(), try TypedStreamArchive.decodeValues(from: blob))
            )
        }
        // A value class containing itself: a cycle both ways.
        let cyclic = data("\(header) 84 01 \"@\" 84 84 84 07 \"NSArray\" 00 85 84 01 \"i\" 01 92 92 86")
        #expect(throws: TypedStreamError.self) { try TypedStreamArchive.decodeRoot(from: cyclic) }
    }

    @Test func aSharedObjectIsOneInstance() throws {
        // Two references to one unknown object: one ArchivedInstance.
        let d = data(
            """
            \(header)
            84 03 "@@@"
            84 84 84 03 "Foo" 01 85          // O0: object 0, O1: class Foo v1
            84 01 "i" 05 86                  // its value, 5
            92                               // object 0 again
            84 84 84 03 "Bar" 00 93          // O2: object 1, O3: class Bar, superclass Foo (O1)
            84 01 "@" 92 86                  // its value: object 0
            """)
        let values = try TypedStreamArchive(d).decodeValues()
        #expect(values.count == 3)
        guard case .object(let a) = values[0], case .object(let b) = values[1], case .object(let c) = values[2] else {
            Issue.record("not instances: \(values)")
            return
        }
        #expect(a === b)
        #expect(c.classChain == ["Bar", "Foo"])
        #expect(c.classVersions == [0, 1])
        #expect(c.unkeyed == [.object(a)])
    }

    @Test func cyclesThroughInstancesAreKept() throws {
        // Object 0 (Foo) holds object 1 (Bar) which names object 0: one cycle of instances.
        let d = data(
            """
            \(header)
            84 01 "@"
            84 84 84 03 "Foo" 00 85          // O0: object 0, O1: class Foo
            92 84 84 84 03 "Bar" 00 85       // "@", O2: object 1, O3: class Bar
            92 92 86                         // "@": object 0, still open
            86
            """)
        guard case .object(let foo) = try TypedStreamArchive(d).decodeRoot(),
            case .object(let bar)? = foo.unkeyed.first, case .object(let back)? = bar.unkeyed.first
        else {
            Issue.record("not a cycle of instances")
            return
        }
        #expect(back === foo)
    }

    @Test func aValueClassContainingItselfIsACycle() throws {
        let d = data(
            """
            \(header)
            84 01 "@"
            84 84 84 07 "NSArray" 00 85      // O0: object 0, O1: class NSArray
            84 01 "i" 01                     // one element
            92 92                            // "@": itself
            86
            """)
        let archive = try TypedStreamArchive(d)
        #expect(archive.root == .object(0))
        #expect(throws: TypedStreamError.self) { try archive.decodeRoot() }
        do {
            _ = try archive.decodeRoot()
        } catch {
            #expect(error.code == .cycle)
            #expect(error.object == 0)
        }
    }

    @Test func knownClassesWithAnotherLayoutAreInstances() throws {
        // An NSString with an integer instead of its string; an NSArray whose count is wrong.
        let d = data(
            """
            \(header)
            84 02 "@@"
            84 84 84 08 "NSString" 01 85 84 01 "i" 07 86
            84 84 84 07 "NSArray" 00 85 94 05 86
            """)
        let values = try TypedStreamArchive(d).decodeValues()
        guard values.count == 2, case .object(let s) = values[0], case .object(let a) = values[1] else {
            Issue.record("not instances: \(values)")
            return
        }
        #expect(s.className == "NSString")
        #expect(s.unkeyed == [.integer(7)])
        #expect(a.className == "NSArray")
        #expect(a.unkeyed == [.integer(5)])
    }

    @Test func colorList() throws {
        let archive = try TypedStreamArchive(data(TypedFixtures.colors))
        let list = try archive.colorList()
        #expect(list.name == nil)
        #expect(list.entries.map(\.key) == ["Red", "Gray", "Again"])
        #expect(list["Red"] == ArchivedColor(colorSpace: 1, components: [0.3, 0.6, 0, 1]))
        #expect(list["Gray"] == ArchivedColor(colorSpace: 3, components: [0.5, 1]))
        #expect(list["Again"] == list["Red"])
        #expect(list["Red"]?.hex == "#4D9900")
        // Not a colour list.
        #expect(throws: TypedStreamError.self) { try TypedStreamArchive(data(EventTests.nsString)).colorList() }
    }

    @Test func colorsOfEveryKind() throws {
        let d = data(
            """
            \(header)
            84 04 "@@@@"
            84 84 84 07 "NSColor" 00 85      // O0: object 0 (O1: class NSColor), device CMYK
            84 01 "c" 05                     // S2 "c": kind 5
            84 05 "fffff" 00 01 00 00 01     // S3: cyan 0, magenta 1, yellow 0, black 0, alpha 1
            86
            84 93 94 04 84 02 "ff" 00 01 86  // O2: object 1, device white 0, alpha 1
            84 93 94 06                      // O3: object 2, named
            84 03 "@@@"                      // S5
            84 84 84 08 "NSString" 01 85     // O4: object 3, O5: class NSString
            84 01 "+" 06 "System" 86         // S7 "+"
            84 97 99 0c "controlColor" 86    // O6: object 4
            94                               // the colour it stands for: object 1 (O2)
            86
            84 93 94 07 86                   // O7: object 5, kind 7: not a layout this package knows
            """)
        let values = try TypedStreamArchive(d).decodeValues()
        #expect(values.count == 4)
        guard values.count == 4 else { return }
        #expect(values[0] == .color(ArchivedColor(colorSpace: 5, components: [0, 1, 0, 0, 1])))
        #expect(values[1] == .color(ArchivedColor(colorSpace: 4, components: [0, 1])))
        #expect(
            values[2]
                == .color(
                    ArchivedColor(colorSpace: 6, components: [0, 1], catalogName: "System", colorName: "controlColor")))
        guard case .object(let unknown) = values[3] else {
            Issue.record("kind 7 is not an instance: \(values[3])")
            return
        }
        #expect(unknown.className == "NSColor")
        #expect(unknown.unkeyed == [.integer(7)])
    }

    @Test func font() throws {
        let value = try TypedStreamArchive(data(TypedFixtures.font)).decodeRoot()
        #expect(value == .font(ArchivedFont(name: "Helvetica", size: 12, flags: 16)))
        // Same description as a keyed NSFont.
        #expect(value.typedDescription?.className == "NSFont")
    }

    @Test func serializedPropertyLists() {
        // An array of a string (NeXTSTEP encoding), data, nil, and a dictionary; little-endian.
        var b: [UInt8] = []
        func u32(_ v: Int) { b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        u32(2)
        u32(4)  // four elements
        u32(12)
        u32(12)
        u32(4)
        u32(28)  // their lengths
        u32(5)
        u32(3)
        b += Array("abc".utf8) + [0]  // "abc", one byte of padding
        u32(4)
        u32(1)
        b += [0xFF, 0, 0, 0]  // data FF, padding
        u32(8)  // nil
        u32(7)
        u32(1)
        u32(5)
        u32(1)
        b += Array("k".utf8) + [0, 0, 0]  // key "k"
        u32(4)  // its value's length
        u32(8)  // nil
        let expected: AnyArchived = .array([
            .string("abc"), .data(Data([0xFF])), .null, .dictionary([.string("k"): AnyArchived.null]),
        ])
        #expect(SerializedPropertyList.decode(Data(b)) == expected)
        // A length past the end, a bad type, trailing bytes.
        #expect(SerializedPropertyList.decode(Data([5, 0, 0, 0, 9, 0, 0, 0, 65])) == nil)
        #expect(SerializedPropertyList.decode(Data([9, 0, 0, 0])) == nil)
        #expect(SerializedPropertyList.decode(Data([8, 0, 0, 0, 0])) == nil)
        // Big-endian (a PowerPC writer).
        #expect(SerializedPropertyList.decode(Data([0, 0, 0, 6, 0, 0, 0, 2, 0, 0x41, 0, 0])) == .string("A"))
    }

    @Test func valuesOfScalarGroupsAndStructures() throws {
        let d = data(
            """
            \(header)
            84 0d "{_NSPoint=ff}"            // an NSPoint of 32-bit floats
            83 00 00 80 3e 02                // 0.25, 2
            84 09 "{?=i[2c]}" 05 "ab"        // an anonymous structure: kept as its fields
            84 03 "QB!"
            ff 01                            // Q -1: UInt64.max (no Int), B true, ! nothing
            """)
        let values = try TypedStreamArchive(d).decodeValues()
        #expect(
            values == [
                .geometry(.point(x: 0.25, y: 2)), .array([.integer(5), .data(Data("ab".utf8))]),
                .real(Double(UInt64.max)),
                .bool(true),
            ])
    }
}
