// Tests/TypedStreamTests/PublishedDumpTests.swift - A cross-check against a published description of
// the Messages layout: the four annotated dumps of docs/TYPEDSTREAM.md, section 8.1, of
// Avtraang/imessage-chatdb (checked there against every attributedBody of a live Messages database),
// read here with what that description says they hold.
//
// The hex dumps below are quoted from that document, under its licence:
//
//   MIT License
//
//   Copyright (c) 2026 Jeremy Pinchasi
//
//   Permission is hereby granted, free of charge, to any person obtaining a copy
//   of this software and associated documentation files (the "Software"), to deal
//   in the Software without restriction, including without limitation the rights
//   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
//   copies of the Software, and to permit persons to whom the Software is
//   furnished to do so, subject to the following conditions:
//
//   The above copyright notice and this permission notice shall be included in all
//   copies or substantial portions of the Software.
//
//   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
//   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
//   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
//   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
//   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
//   SOFTWARE.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import Testing
import TypedStream

@Suite struct PublishedDumpTests {
    /// (a) "hi", one part.
    static let a = hex(
        "040b73747265616d747970656481e803840140848484124e5341747472696275746564537472696e67008484084e534f626a65637400859284848408"
            + "4e53537472696e67019484012b02686986840269490102928484840c4e5344696374696f6e617279009484016901928496961d5f5f6b494d4d6573"
            + "73616765506172744174747269627574654e616d658692848484084e534e756d626572008484074e5356616c7565009484012a84999900868686"
    )

    /// (b) the same, mutable.
    static let b = hex(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e67008484124e534174747269"
            + "6275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c65537472696e67018484084e53537472696e670195"
            + "84012b02686986840269490102928484840c4e5344696374696f6e617279009584016901928498981d5f5f6b494d4d657373616765506172744174"
            + "747269627574654e616d658692848484084e534e756d626572008484074e5356616c7565009584012a849b9b00868686")

    /// (c) an attachment, a mention, a back-referenced dictionary and a rich link.
    static let c = hex(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e67008484124e534174747269"
            + "6275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c65537472696e67018484084e53537472696e670195"
            + "84012b23efbfbc20736565204053616d2068747470733a2f2f6578616d706c652e746573742f7886840269490101928484840c4e53446963746"
            + "96f6e61727900958401690392849898225f5f6b494d46696c655472616e73666572475549444174747269627574654e616d6586928498981341"
            + "545f305f303030302d46414b452d475549448692849898265f5f6b494d4261736557726974696e67446972656374696f6e41747472696275746"
            + "54e616d658692848484084e534e756d626572008484074e5356616c7565009584012a848401719fff86928498981d5f5f6b494d4d65737361"
            + "6765506172744174747269627574654e616d658692849f9e849b9b00868699020592849a9b01928498981d5f5f6b494d4d65737361676550617"
            + "2744174747269627574654e616d658692849f9ea49b01868699030492849a9b02928498981d5f5f6b494d4d657373616765506172744174747"
            + "269627574654e616d658692a7928498981c5f5f6b494d4d656e74696f6e436f6e6669726d65644d656e74696f6e8692849898092b31353535"
            + "30313030868699020199041692849a9b0392849898165f5f6b494d4c696e6b4174747269627574654e616d658692848484054e5355524c00958"
            + "4016300928498981668747470733a2f2f6578616d706c652e746573742f788686928498981d5f5f6b494d4d6573736167655061727441747472"
            + "69627574654e616d658692a792849898205f5f6b494d4c696e6b4973526963684c696e6b4174747269627574654e616d658692849f9e84a1a10"
            + "1868686")

    /// (d) NSData and a nested dictionary.
    static let d = hex(
        "040b73747265616d747970656481e803840140848484124e5341747472696275746564537472696e67008484084e534f626a65637400859284848408"
            + "4e53537472696e67019484012b02616286840269490101928484840c4e5344696374696f6e617279009484016902928496961d5f5f6b494d4d6573"
            + "73616765506172744174747269627574654e616d658692848484084e534e756d626572008484074e5356616c7565009484012a8499990086928496"
            + "961e5f5f6b494d4461746144657465637465644174747269627574654e616d658692848484064e53446174610094990384045b33635d00010286"
            + "869702019284989902928496961d5f5f6b494d4d657373616765506172744174747269627574654e616d6586929a928496961d5f5f6b494d4f6e"
            + "6554696d65436f64654174747269627574654e616d658692849899019284969604636f64658692849696043132333486868686")

    typealias A = MessageBody.Attribute

    @Test func lengthsAsPublished() {
        #expect(PublishedDumpTests.a.count == 177)
        #expect(PublishedDumpTests.b.count == 225)
        #expect(PublishedDumpTests.c.count == 694)
        #expect(PublishedDumpTests.d.count == 345)
    }

    /// Our byte-by-byte fixture, written from the format, is the published layout of a one-part message.
    @Test func ourFixtureIsThePublishedLayout() {
        #expect(data(MessageFixtures.hi) == PublishedDumpTests.a)
    }

    @Test func dumpA() throws {
        let body = try MessageBody(attributedBody: PublishedDumpTests.a)
        #expect(body.text == "hi")
        #expect(body.runs.map(\.range) == [0..<2])
        #expect(body.runs[0].attributes == [A.partIndex: .integer(0)])
    }

    @Test func dumpB() throws {
        guard case .attributedString(let s) = try TypedStreamArchive(PublishedDumpTests.b).decodeRoot() else {
            Issue.record("not an attributed string")
            return
        }
        #expect(s.isMutable)
        #expect(s.string == "hi")
        #expect(s.runs.map(\.attributes) == [[A.partIndex: .integer(0)]])
    }

    @Test func dumpC() throws {
        let body = try MessageBody(attributedBody: PublishedDumpTests.c)
        #expect(body.text == "\u{FFFC} see @Sam https://example.test/x")
        #expect(body.runs.map(\.range.count) == [1, 5, 4, 1, 22])
        #expect(body.runs.map(\.partIndex) == [0, 1, 1, 1, 1])
        #expect(body.runs[0].fileTransferGUID == "AT_0_0000-FAKE-GUID")
        #expect(body.runs[0].attributes[A.baseWritingDirection] == .integer(-1))
        #expect(body.runs[2].mention == "+15550100")
        #expect(body.runs[2].text == "@Sam")
        #expect(body.runs[3].attributes == body.runs[1].attributes)
        #expect(body.runs[4].link == URL(string: "https://example.test/x"))
        #expect(body.runs[4].attributes["__kIMLinkIsRichLinkAttributeName"] == .bool(true))
        #expect(body.parts.map(\.index) == [0, 1])
        #expect(body.parts[0].attachmentGUID == "AT_0_0000-FAKE-GUID")
    }

    @Test func dumpD() throws {
        let body = try MessageBody(attributedBody: PublishedDumpTests.d)
        #expect(body.text == "ab")
        #expect(body.runs[0].dataDetected == .data(Data([0, 1, 2])))
        #expect(
            body.runs[1].attributes["__kIMOneTimeCodeAttributeName"] == .dictionary([.string("code"): .string("1234")]))
        #expect(body.runs.map(\.partIndex) == [0, 0])
    }
}
