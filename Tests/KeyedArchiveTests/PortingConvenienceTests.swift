// Tests/KeyedArchiveTests/PortingConvenienceTests.swift - Raw-value enums, trailing data.

import Foundation
import KeyedArchive
import PropertyList
import Testing

enum PortSuit: String, KeyedArchiveValue {
    case hearts, spades
}

enum PortLevel: Int, KeyedArchiveValue {
    case low = 1
    case high = 9
}

@Suite struct PortingConvenienceTests {
    @Test func rawRepresentableTypesArchiveAsTheirRawValues() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(PortSuit.spades, forKey: "suit")
        try archiver.encode(PortLevel.high, forKey: "level")
        try archiver.encode([PortSuit.hearts, .spades], forKey: "suits")
        try archiver.encode("clubs", forKey: "bad")
        let data = try archiver.finishEncoding()
        let un = try KeyedUnarchiver(forReadingFrom: data)
        #expect(try un.decode(PortSuit.self, forKey: "suit") == .spades)
        #expect(try un.decode(PortLevel.self, forKey: "level") == .high)
        #expect(try un.decode([PortSuit].self, forKey: "suits") == [.hearts, .spades])
        #expect(try un.decodeInteger(forKey: "level") == 9, "stored inline as its raw integer")
        #expect(try un.decodeObject(forKey: "suit") == .string("spades"))
        let e = try #require(throws: KeyedArchiveError.self) { try un.decode(PortSuit.self, forKey: "bad") }
        #expect(e.code == .typeMismatch)
        // Foundation sees the raw values.
        let f = try NSKeyedUnarchiver(forReadingFrom: data)
        f.requiresSecureCoding = false
        #expect(f.decodeObject(forKey: "suit") as? String == "spades")
        #expect(f.decodeInteger(forKey: "level") == 9)
    }

    @Test func trailingDataIsAnErrorUnlessAllowed() throws {
        var data = try KeyedArchiver.archivedData(withRootObject: "text")
        data.append(contentsOf: [0xDE, 0xAD, 0xBE])
        let e = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver(forReadingFrom: data) }
        #expect(e.code == .trailingData)
        #expect(e.underlying?.code == .trailingData)
        #expect(e.offset != nil)
        let un = try KeyedUnarchiver(forReadingFrom: data, options: .init(allowsTrailingData: true))
        #expect(un.trailingByteCount == 3)
        #expect(try un.decode(String.self, forKey: KeyedArchiver.rootObjectKey) == "text")
        #expect(try KeyedUnarchiver(forReadingFrom: data.dropLast(3)).trailingByteCount == 0)
    }
}
