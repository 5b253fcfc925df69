// Tests/TypedStreamTests/HostileInputTests.swift - Malformed and hostile streams: every one is a
// typed error with the byte where it is, never a trap, a hang or an allocation out of proportion.

import Foundation
import KeyedArchiveTestSupport
import Testing
import TypedStream

@Suite struct HostileInputTests {
    @Test func headers() throws {
        #expect(readError(Data())?.code == .notATypedStream)
        #expect(readError(data("04"))?.code == .notATypedStream)
        #expect(readError(data("05 0b \"streamtyped\" 81 e8 03"))?.code == .notATypedStream)
        #expect(readError(data("04 0a \"streamtype\" 81 e8 03"))?.code == .notATypedStream)
        #expect(readError(data("04 0b \"streamtypex\" 81 e8 03"))?.offset == 2)
        #expect(readError(data("04 0b \"streamtyped\" 81 e8"))?.code == .truncated)
        #expect(readError(Data("bplist00".utf8))?.code == .notATypedStream)
        // A header alone is an empty stream: no groups.
        #expect(try TypedStreamArchive(data(header)).groups.isEmpty)
    }

    @Test func everyTruncationIsATypedError() throws {
        for fixture in [EventTests.nsString, MessageFixtures.hi, MessageFixtures.threeParts] {
            let full = bytes(fixture)
            _ = try TypedStreamArchive(Data(full))
            for n in 0..<full.count where n != 16 {  // 16 bytes: the header alone, an empty stream
                let e = readError(Data(full[..<n]))
                #expect(e != nil, "prefix of \(n) bytes read without error")
                guard let e else { continue }
                if n < 13 {
                    #expect(e.code == .notATypedStream)
                } else {
                    #expect([.truncated, .trailingData].contains(e.code), "\(n): \(e)")
                }
                #expect((e.offset ?? 0) <= n, "\(n): \(e)")
            }
        }
    }

    @Test func badReferences() {
        // A shared-string reference to an entry not read.
        var e = readError(data("\(header) 84 01 \"i\" 05 93 05"))
        #expect(e?.code == .trailingData)  // at the top level, bytes that do not begin a group
        e = readError(data("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 85 95 05 86"))
        #expect(e?.code == .badReference)
        #expect(e?.offset == 28)
        #expect(e?.object == 0)
        // An object reference past the table.
        e = readError(data("\(header) 84 01 \"@\" 95"))
        #expect(e?.code == .badReference)
        #expect(e?.offset == 19)
        // A class reference that names an object.
        e = readError(data("\(header) 84 02 \"@@\" 84 84 84 03 \"Foo\" 00 85 86 84 92 86"))
        #expect(e?.code == .badReference)
        // A C-string reference that names a class.
        e = readError(data("\(header) 84 02 \"#*\" 84 84 03 \"Foo\" 00 85 92"))
        #expect(e?.code == .badReference)
        // A reference number below -110 (0x81 -200) names no entry.
        e = readError(data("\(header) 84 01 \"@\" 81 38 ff"))
        #expect(e?.code == .badReference)
    }

    @Test func lengthsAndCountsAreCheckedBeforeUse() {
        // A negative string length.
        var e = readError(data("\(header) 84 01 \"+\" ff"))
        #expect(e?.code == .invalidLength)
        #expect(e?.offset == 19)
        // A string longer than what remains.
        e = readError(data("\(header) 84 01 \"+\" 82 ff ff ff 7f 41"))
        #expect(e?.code == .truncated)
        // An array of a million ints in three bytes: refused before any element is read.
        e = readError(data("\(header) 84 0a \"[1000000i]\" 01 02 03"))
        #expect(e?.code == .invalidLength)
        #expect(e?.offset == 28)
        // A count beyond Int32.max does not parse.
        e = readError(data("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 85 84 0d \"[4294967296i]\" 86"))
        #expect(e?.code == .invalidType)
        // A byte array longer than what remains.
        e = readError(data("\(header) 84 05 \"[10c]\" 01 02"))
        #expect(e?.code == .truncated)
    }

    @Test func valuesThatTakeNoBytesAreBoundedByTheInput() {
        let e = readError(data("\(header) 84 09 \"[100000!]\""))
        #expect(e?.code == .limitExceeded)
        // A few are fine.
        #expect(readError(data("\(header) 84 04 \"[8!]\"")) == nil)
    }

    @Test func limits() {
        // Objects nested deeper than maxDepth.
        var b = bytes("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 85")
        for _ in 0..<20 { b += bytes("92 84 93") }
        b += [UInt8](repeating: 0x86, count: 21)
        #expect(readError(Data(b)) == nil)
        let deep = readError(Data(b), limits: TypedStreamLimits(maxDepth: 10))
        #expect(deep?.code == .limitExceeded)
        // Values.
        let values = readError(data("\(header) 84 04 \"[9i]\" 01 02 03 04 05 06 07 08 09"), limits: .init(maxValues: 5))
        #expect(values?.code == .limitExceeded)
        // Table entries.
        let table = readError(Data(b), limits: .init(maxTableEntries: 5))
        #expect(table?.code == .limitExceeded)
        // Shared strings.
        let strings = readError(data("\(header) 84 01 \"i\" 01 84 01 \"s\" 02"), limits: .init(maxSharedStrings: 1))
        #expect(strings?.code == .limitExceeded)
        // A long type encoding.
        let long = readError(data("\(header) 84 05 \"iiiii\" 01 02 03 04 05"), limits: .init(maxTypeEncodingLength: 4))
        #expect(long?.code == .limitExceeded)
    }

    @Test func trailingData() throws {
        let valid = bytes(EventTests.nsString)
        let junk = Data(valid + Array("junk".utf8))
        let e = readError(junk)
        #expect(e?.code == .trailingData)
        #expect(e?.offset == valid.count)
        let accepted = try TypedStreamArchive(junk, options: .init(allowsTrailingData: true))
        #expect(accepted.trailingDataOffset == valid.count)
        #expect(accepted.groups.count == 1)
        // Two streams back to back: the second header is where the first stream ends.
        let twice = Data(valid + valid)
        #expect(readError(twice)?.offset == valid.count)
        #expect(try TypedStreamArchive(Data(valid)).trailingDataOffset == nil)
    }

    @Test func structuralDefects() {
        // A class chain that names its own class as superclass.
        var e = readError(data("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 93"))
        #expect(e?.code == .corrupted)
        // An object without a class.
        e = readError(data("\(header) 84 01 \"@\" 84 85 86"))
        #expect(e?.code == .corrupted)
        #expect(e?.object == 0)
        // A class without a name.
        e = readError(data("\(header) 84 01 \"#\" 84 85 00 85"))
        #expect(e?.code == .corrupted)
        // A nil type encoding inside an object.
        e = readError(data("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 85 85 86"))
        #expect(e?.code == .corrupted)
        // End of object where an integer is expected.
        e = readError(data("\(header) 84 01 \"i\" 86"))
        #expect(e?.code == .unexpectedTag)
        #expect(e?.offset == 19)
        // A reserved tag.
        e = readError(data("\(header) 84 01 \"i\" 80"))
        #expect(e?.code == .unexpectedTag)
        // A 64-bit integer for `i`.
        e = readError(data("\(header) 84 01 \"i\" 87 00 00 00 00 01 00 00 00"))
        #expect(e?.code == .numberOutOfRange)
    }

    @Test func invalidTypeEncodings() {
        for bad in ["^i", "v", "[c]", "{ii", "[2ii]", "ii}", "(i]", "b4", "?"] {
            let raw = Array(bad.utf8)
            // Inside an object: an invalid type.
            var b = bytes("\(header) 84 01 \"@\" 84 84 84 03 \"Foo\" 00 85 84")
            b += [UInt8(raw.count)] + raw + [0x00, 0x86]
            #expect(readError(Data(b))?.code == .invalidType, "\(bad)")
            // At the top level: not a group, so trailing data (the detail says why).
            let top = readError(Data(bytes(header) + [0x84, UInt8(raw.count)] + raw + [0x00]))
            #expect(top?.code == .trailingData, "\(bad)")
            #expect(top?.detail.contains("invalidType") == true)
        }
    }

    /// Thousands of byte mutations of valid streams: an error is typed and located inside the input;
    /// a stream that reads writes back to a stream that reads equal.
    @Test func mutations() throws {
        var rng = SplitMix64(seed: propertySeed())
        let fixtures = [EventTests.nsString, MessageFixtures.hi, MessageFixtures.threeParts, TypedFixtures.colors]
        for fixture in fixtures {
            let original = bytes(fixture)
            for _ in 0..<1500 {
                var b = original
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let i = Int.random(in: 13..<b.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: b[i] = UInt8.random(in: 0...255, using: &rng)
                    case 1: b[i] = [0x81, 0x82, 0x84, 0x85, 0x86, 0x87, 0x92, 0x7f].randomElement(using: &rng) ?? 0
                    default: b.insert(UInt8.random(in: 0...255, using: &rng), at: i)
                    }
                }
                do {
                    let archive = try TypedStreamArchive(Data(b))
                    let again = try TypedStreamArchive(try TypedStreamWriter.write(archive))
                    #expect(again.groups.count == archive.groups.count)
                    #expect(try TypedStreamWriter.write(again) == TypedStreamWriter.write(archive))
                    _ = try? archive.decodeValues()
                } catch let e {
                    #expect((e.offset ?? 0) >= 0 && (e.offset ?? 0) <= b.count, "\(e)")
                }
            }
        }
    }

    /// fuzz/regressions/oracle-typedstream-malformed-array-contains-itself.bin (configuration 04 00:
    /// default limits, pointer size 8, nested archives not decoded): an NSArray whose count (65)
    /// does not match its one element, itself. It does not fit the array layout, so it is an
    /// instance, which may contain itself: both decoders agree (the object layer's decoder used to
    /// call it a cycle, the one-pass decoder did not).
    @Test func oracleTypedstreamMalformedArrayContainsItself() throws {
        let payload = data(
            """
            04 0b "streamtyped" 81 e8 03
            84 01 "@" 84 84 84 07 "NSArray" 00 85   // group "@": a new object of a new class NSArray v0
            84 01 "i" 41                            // group "i": 65
            92 92                                   // group "@" (string 0): object 0, itself
            86
            """)
        let archive = try TypedStreamArchive(payload)
        let viaArchive = try archive.decodeRoot()
        let onePass = try TypedStreamArchive.decodeRoot(from: payload)
        for root in [viaArchive, onePass] {
            guard case .object(let instance) = root else {
                Issue.record("not an instance: \(root)")
                continue
            }
            #expect(instance.className == "NSArray")
            #expect(instance.unkeyed.count == 2)
            if case .object(let inner)? = instance.unkeyed.last {
                #expect(inner === instance)
            } else {
                Issue.record("no self")
            }
            root.breakReferenceCycles()
        }
    }

    /// An instance that names the array it is in, while the array is still open: the object layer's
    /// decoder converts the array first (recursively) and gives the instance the finished array;
    /// the one-pass decoder gives it a placeholder, replaced once the stream is read. Both give the
    /// same graph (found by FuzzTypedStream: a dictionary that fits no layout naming its array).
    @Test func anInstanceNamingTheOpenArrayItIsIn() throws {
        let payload = data(
            """
            04 0b "streamtyped" 81 e8 03
            84 01 "@" 84 84 84 07 "NSArray" 00 85   // object 0: NSArray
            84 01 "i" 01                            //   count 1
            92 84 84 84 05 "Owner" 00 85            //   "@": object 1, class Owner
            92 92                                   //     "@": object 0, the array still open
            86 86
            """)
        let archive = try TypedStreamArchive(payload)
        for root in [try archive.decodeRoot(), try TypedStreamArchive.decodeRoot(from: payload)] {
            guard case .array(let items) = root, items.count == 1, case .object(let owner) = items[0] else {
                Issue.record("not an array of one instance: \(root)")
                continue
            }
            #expect(owner.className == "Owner")
            if owner.unkeyed.count == 1, case .array(let inner) = owner.unkeyed[0], inner.count == 1,
                case .object(let same) = inner[0]
            {
                #expect(same === owner)
            } else {
                Issue.record("the owner does not hold the array: \(owner.unkeyed)")
            }
            root.breakReferenceCycles()
        }
    }

    /// A dictionary that fits its layout names the array it is in, and the array fits no layout
    /// (count 2, one element): an array that contains itself through values is a cycle, whatever its
    /// count says, for both decoders (the object layer's decoder, converting recursively, used to
    /// give the dictionary the array's instance; found by FuzzTypedStream).
    @Test func aValueNamingTheOpenMalformedArrayItIsInIsACycle() throws {
        let payload = data(
            """
            04 0b "streamtyped" 81 e8 03
            84 01 "@" 84 84 84 07 "NSArray" 00 85          // object 0: NSArray
            84 01 "i" 02                                   //   count 2, one element follows
            92 84 84 84 0c "NSDictionary" 00 85            //   "@": object 1, NSDictionary
            94 01                                          //     "i" (string 2): 1 pair
            92 84 84 84 08 "NSString" 01 85 84 01 "+" 01 "k" 86   // key: object 2, "k"
            92 92                                          //     value: object 0, still open
            86 86
            """)
        let archive = try TypedStreamArchive(payload)
        var errors: [TypedStreamError] = []
        do { _ = try archive.decodeValues() } catch { errors.append(error) }
        do { _ = try TypedStreamArchive.decodeValues(from: payload) } catch { errors.append(error) }
        #expect(errors.count == 2)
        for e in errors {
            #expect(e.code == .cycle)
            #expect(e.object == 0)
        }
    }
}
