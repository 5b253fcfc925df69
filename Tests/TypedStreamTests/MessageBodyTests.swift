// Tests/TypedStreamTests/MessageBodyTests.swift - Messages bodies: text, runs, parts, attachments,
// mentions, links, styles, effects, nested keyed archives; the traps of hand-written scanners
// (strings of 128 bytes and more, references past entry 110, big-endian streams, 0x87).

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import Testing
import TypedStream

@Suite struct MessageBodyTests {
    typealias A = MessageBody.Attribute

    @Test func oneTextPart() throws {
        let body = try MessageBody(attributedBody: data(MessageFixtures.hi))
        #expect(body.text == "hi")
        #expect(body.runs == [MessageBody.Run(range: 0..<2, text: "hi", attributes: [A.partIndex: .integer(0)])])
        #expect(body.parts.count == 1)
        #expect(body.parts.first?.index == 0)
        #expect(body.parts.first?.text == "hi")
        #expect(body.parts.first?.attachmentGUID == nil)
    }

    @Test func attachmentMentionLinkAndSharedDictionaries() throws {
        let body = try MessageBody(attributedBody: data(MessageFixtures.threeParts))
        #expect(body.text == "\u{FFFC}hi Sam, see https://ex.test/x")
        #expect(body.runs.map(\.range) == [0..<1, 1..<4, 4..<7, 7..<13, 13..<30])
        #expect(body.runs.map(\.text) == ["\u{FFFC}", "hi ", "Sam", ", see ", "https://ex.test/x"])
        #expect(body.runs.map(\.partIndex) == [0, 1, 1, 1, 1])
        #expect(body.runs[0].fileTransferGUID == "AT_0_GUID")
        #expect(body.runs[0].isAttachment)
        #expect(body.runs[2].mention == "+15550100")
        #expect(body.runs[3].attributes == body.runs[1].attributes)  // dictionary 2 again
        #expect(body.runs[4].link == URL(string: "https://ex.test/x"))
        #expect(body.runs[4].isBold)
        #expect(!body.runs[3].isBold)
        let parts = body.parts
        #expect(parts.count == 2)
        #expect(parts[0].attachmentGUID == "AT_0_GUID")
        #expect(parts[1].index == 1)
        #expect(parts[1].text == "hi Sam, see https://ex.test/x")
        #expect(parts[1].links == [URL(string: "https://ex.test/x")!])
        #expect(parts[1].mentions.map(\.handle) == ["+15550100"])
        #expect(parts[1].mentions.map(\.text) == ["Sam"])
    }

    /// The typed value of a typedstream attributed string is the value a keyed archive of the same
    /// attributed string decodes to.
    @Test func sameValueAsAKeyedArchive() throws {
        let fromStream = try TypedStreamArchive(data(MessageFixtures.threeParts)).decodeRoot()
        guard case .attributedString(let typed) = fromStream else {
            Issue.record("not an attributed string: \(fromStream)")
            return
        }
        #expect(typed.isMutable)
        let keyed = try KeyedArchiver.archivedData(withRootObject: AnyArchived.attributedString(typed))
        let back = try KeyedUnarchiver(forReadingFrom: keyed).decodeObject(forKey: KeyedArchiver.rootObjectKey)
        #expect(back == fromStream)
    }

    @Test func stylesAndEffects() throws {
        let blob = TypedStreamSamples.attributedBody(
            "bold italic under strike big boom ???",
            runs: [
                (4, [(A.partIndex, .int(0)), (A.bold, .int(1))]),
                (1, [(A.partIndex, .int(0))]),
                (6, [(A.partIndex, .int(0)), (A.italic, .int(1))]),
                (1, [(A.partIndex, .int(0))]),
                (5, [(A.partIndex, .int(0)), (A.underline, .int(1))]),
                (1, [(A.partIndex, .int(0))]),
                (6, [(A.partIndex, .int(0)), (A.strikethrough, .int(1))]),
                (1, [(A.partIndex, .int(0))]),
                (3, [(A.partIndex, .int(0)), (A.textEffect, .int(5))]),
                (1, [(A.partIndex, .int(0))]),
                (4, [(A.partIndex, .int(0)), (A.textEffect, .int(12))]),
                (1, [(A.partIndex, .int(0))]),
                (3, [(A.partIndex, .int(0)), (A.textEffect, .int(99)), (A.bold, .int(0))]),
            ])
        let body = try MessageBody(attributedBody: blob)
        #expect(body.runs.count == 13)
        #expect(body.runs.map(\.isBold) == [true] + Array(repeating: false, count: 12))
        #expect(body.runs[2].isItalic)
        #expect(body.runs[4].isUnderlined)
        #expect(body.runs[6].isStrikethrough)
        #expect(body.runs[8].textEffect == .big)
        #expect(body.runs[8].text == "big")
        #expect(body.runs[10].textEffect == .explode)
        #expect(body.runs[12].textEffect == .other(99))
        #expect(body.runs[1].textEffect == nil)
        #expect(body.parts.count == 1)
        #expect(body.parts[0].text == body.text)
    }

    /// 200-byte texts (length 0x81 c8 00), 130 distinct dictionaries (references past entry 110 of
    /// both tables, and past 237), both byte orders, 64-bit numbers (0x87).
    @Test func theTrapsOfHandWrittenScanners() throws {
        let words = (0..<130).map { "w\($0)" }
        let text = String(repeating: "é", count: 100) + words.joined()  // 200 bytes, then the words
        var runs: [(Int, [(String, TypedStreamSamples.BodyValue)])] = [(100, [(A.partIndex, .int(0))])]
        for (i, w) in words.enumerated() {
            runs.append((w.utf16.count, [(A.partIndex, .int(1)), ("k\(i)", .longLong(Int64(i) << 33))]))
        }
        for order in [TypedStreamByteOrder.littleEndian, .bigEndian] {
            let blob = TypedStreamSamples.attributedBody(text, runs: runs, byteOrder: order)
            #expect(blob.contains(0x87))
            let body = try MessageBody(attributedBody: blob)
            #expect(body.text == text)
            #expect(body.runs.count == 131)
            #expect(body.runs[0].text == String(repeating: "é", count: 100))
            #expect(body.runs[130].text == "w129")
            #expect(body.runs[130].attributes["k129"] == .integer(129 << 33))
            #expect(body.runs[120].partIndex == 1)
            #expect(body.parts.count == 2)
        }
        // The archive has past 240 objects: the later ones are referenced by 0x81 numbers.
        let archive = try TypedStreamArchive(TypedStreamSamples.attributedBody(text, runs: runs))
        #expect(archive.objects.count > 240)
    }

    @Test func dataDetectedKeyedArchivesAreDecodedInPlace() throws {
        let result = ArchivedInstance(className: "DDScannerResult", fields: ["T": .string("PhoneNumber")])
        let archived = try KeyedArchiver.archivedData(withRootObject: AnyArchived.object(result))
        let blob = TypedStreamSamples.attributedBody(
            "call 555-0100",
            runs: [
                (5, [(A.partIndex, .int(0))]),
                (8, [(A.partIndex, .int(0)), (A.dataDetected, .data([UInt8](archived)))]),
            ])
        let body = try MessageBody(attributedBody: blob)
        guard case .object(let decoded)? = body.runs[1].dataDetected else {
            Issue.record("not decoded: \(String(describing: body.runs[1].dataDetected))")
            return
        }
        #expect(decoded.className == "DDScannerResult")
        #expect(decoded["T"] == .string("PhoneNumber"))
        // Off: the data as archived.
        let raw = try MessageBody(attributedBody: blob, options: .init(decodesNestedKeyedArchives: false))
        #expect(raw.runs[1].dataDetected == .data(archived))
        // Data that is not a keyed archive stays data.
        let other = try MessageBody(
            attributedBody: TypedStreamSamples.attributedBody(
                "x", runs: [(1, [(A.dataDetected, .data(Array("bplist00 no".utf8)))])]))
        #expect(other.runs[0].dataDetected == .data(Data("bplist00 no".utf8)))
    }

    @Test func errorsSayWhatAndWhere() {
        // Not a typedstream.
        #expect(throws: TypedStreamError.self) { try MessageBody(attributedBody: Data("hello".utf8)) }
        // The root is an NSString, not an attributed string.
        do {
            _ = try MessageBody(attributedBody: data(EventTests.nsString))
            Issue.record("an NSString read as a message body")
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.offset == 19)
            #expect(error.detail.contains("NSString"))
        }
        // Runs longer than the text.
        let long = TypedStreamSamples.attributedBody("ab", runs: [(3, [(A.partIndex, .int(0))])])
        #expect(throws: TypedStreamError.self) { try MessageBody(attributedBody: long) }
        // A truncated blob: the byte where it ends.
        let full = bytes(MessageFixtures.hi)
        do {
            _ = try MessageBody(attributedBody: Data(full.dropLast(10)))
            Issue.record("a truncated body read")
        } catch {
            #expect(error.code == .truncated)
            #expect((error.offset ?? 0) <= full.count - 10)
        }
    }

    @Test func aBodyFromAKeyedAttributedString() {
        let attributed = ArchivedAttributedString(
            string: "a😀b",
            runs: [
                .init(range: 0..<1, attributes: [A.partIndex: .integer(0)]),
                .init(range: 1..<3, attributes: [A.partIndex: .integer(0), A.bold: .integer(1)]),
                .init(range: 3..<4, attributes: [A.partIndex: .integer(0)]),
            ])
        let body = MessageBody(attributed)
        #expect(body.runs.map(\.text) == ["a", "😀", "b"])
        #expect(body.runs[1].isBold)
    }

    /// Runs that split a surrogate pair (not written by Messages, but possible in hand-made input)
    /// get replacement characters; runs past the text are clamped.
    @Test func runsThatSplitASurrogatePair() {
        let attributed = ArchivedAttributedString(
            string: "a😀b",
            runs: [
                .init(range: 0..<2, attributes: [:]), .init(range: 2..<4, attributes: [:]),
                .init(range: 4..<9, attributes: [:]),
            ],
            isMutable: false)
        let body = MessageBody(attributed)
        #expect(body.runs.map(\.text) == ["a\u{FFFD}", "\u{FFFD}b", ""])
        #expect(body.runs.map(\.range) == [0..<2, 2..<4, 4..<9])
    }
}
