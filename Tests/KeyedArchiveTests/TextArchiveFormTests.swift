// Tests/KeyedArchiveTests/TextArchiveFormTests.swift - Keyed archives through the format sniffer:
// XML in UTF-16 reads, OpenStep output is refused (an archive holds UIDs and integers).

import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite struct TextArchiveFormTests {
    @Test func utf16XMLArchiveReads() throws {
        let dog = Dog(name: "Rex — ñ", age: 3)
        let xml = try KeyedArchiver.archivedData(withRootObject: dog, format: .xml)
        let utf16 = try #require(String(decoding: xml, as: UTF8.self).data(using: .utf16))
        #expect(utf16.starts(with: [0xFF, 0xFE]) || utf16.starts(with: [0xFE, 0xFF]))
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: utf16)
        #expect(back.name == "Rex — ñ" && back.age == 3)
    }

    @Test func openStepOutputIsRefused() {
        let archiver = KeyedArchiver()
        archiver.outputFormat = .openStep
        #expect(throws: KeyedArchiveError.self) {
            try archiver.encode(Dog(name: "Rex", age: 3), forKey: "root")
            _ = try archiver.finishEncoding()
        }
    }

    @Test func junkIsNotAnArchive() {
        #expect(throws: KeyedArchiveError.self) {
            _ = try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: Data("%PDF-1.4".utf8))
        }
    }
}
