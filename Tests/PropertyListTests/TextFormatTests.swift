// Tests/PropertyListTests/TextFormatTests.swift - The format sniffer, XML in UTF-16 and UTF-32, lone
// UTF-16 surrogates in binary strings, XML output that XML parsers read, and DOCTYPE subsets.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

private let sample: PlistValue = ["name": "Ada", "list": [1, "two", .data(Data([3, 4]))], "é": "ü€😀"]

/// The XML of `sample` in another encoding, with or without a byte-order mark.
private func xml(_ encoding: String.Encoding, bom: [UInt8] = []) throws -> Data {
    let text = try String(decoding: XMLPlist.encode(sample), as: UTF8.self)
        .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
    return Data(bom) + (text.data(using: encoding) ?? Data())
}

@Suite struct FormatSniffingTests {
    @Test func everyTextEncodingOfXMLReads() throws {
        let cases: [(String, Data)] = [
            ("UTF-16LE with BOM", try xml(.utf16LittleEndian, bom: [0xFF, 0xFE])),
            ("UTF-16BE with BOM", try xml(.utf16BigEndian, bom: [0xFE, 0xFF])),
            ("UTF-16LE without BOM", try xml(.utf16LittleEndian)),
            ("UTF-16BE without BOM", try xml(.utf16BigEndian)),
            ("UTF-32LE with BOM", try xml(.utf32LittleEndian, bom: [0xFF, 0xFE, 0, 0])),
            ("UTF-32BE with BOM", try xml(.utf32BigEndian, bom: [0, 0, 0xFE, 0xFF])),
            ("UTF-32LE without BOM", try xml(.utf32LittleEndian)),
            ("UTF-32BE without BOM", try xml(.utf32BigEndian)),
            (
                "UTF-8 with BOM and whitespace",
                Data([0xEF, 0xBB, 0xBF]) + Data(" \n\t".utf8) + (try XMLPlist.encode(sample))
            ),
        ]
        for (what, data) in cases {
            #expect(try PlistValue.decode(from: data).pair == (sample, .xml), "\(what)")
            #expect(try XMLPlist.decode(data) == sample, "\(what)")
            #expect(XMLPlist.looksLikeXML(data), "\(what)")
        }
    }

    @Test func foundationReadsTheUTF16FilesWeRead() throws {
        // The generated UTF-16 input is one Foundation (CoreFoundation's parser) reads too.
        let data = try xml(.utf16LittleEndian, bom: [0xFF, 0xFE])
        let theirs = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        #expect(theirs?["name"] as? String == "Ada")
    }

    @Test func formsAreToldApart() throws {
        #expect(try PlistSniffer.sniff(BinaryPlistWriter().write(sample)) == .binary)
        #expect(
            try PlistSniffer.sniff(BinaryPlistWriter(compression: .zlib, compressionLevel: -1).write(sample)) == .binary
        )
        #expect(try PlistSniffer.sniff(Data(sample.canonicalJSON().utf8)) == .json)
        #expect(try PlistSniffer.sniff(Data("[1]".utf8)) == .json)
        #expect(try PlistSniffer.sniff(Data(" {}".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("{ a = b; }".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("{ \"a\" = b; }".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("(a, b)".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("'k' = v;".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("<0fa1>".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("// c\n\"k\" = \"v\";".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("key = value;".utf8)) == .openStep(.utf8))
        #expect(try PlistSniffer.sniff(Data("\"k\" = \"v\";".utf16BigEndianWithBOM)) == .openStep(.utf16BE))
        #expect(try PlistSniffer.sniff(Data("<?xml version=\"1.0\"?><plist/>".utf8)) == .xml(.utf8))
        let padded = String(repeating: " \n", count: 5000)
        #expect(try PlistSniffer.sniff(Data((padded + "<plist><true/></plist>").utf8)) == .xml(.utf8))
        #expect(try PlistSniffer.sniff(Data((padded + "[1]").utf8)) == .json)
    }

    @Test func anythingElseSaysWhatItStartsWith() {
        let cases: [(Data, String)] = [
            (
                Data("%PDF-1.4 and more".utf8),
                "not a property list: starts with 25 50 44 46 2D 31 2E 34 … (\"%PDF-1.4\")"
            ),
            (
                Data("junk<?xml version=\"1.0\"?><plist/>".utf8),
                "not a property list: starts with 6A 75 6E 6B 3C 3F 78 6D … (\"junk<?xm\")"
            ),
            (Data([0x00, 0x01, 0x02]), "not a property list: starts with 00 01 02 (\"...\")"),
            (Data("<!A".utf8), "not a property list: starts with 3C 21 41 (\"<!A\")"),
            (Data(), "not a property list: the input is empty"),
        ]
        for (data, detail) in cases {
            do {
                _ = try PlistValue.decode(from: data)
                Issue.record("decoded \(data as NSData)")
            } catch {
                #expect(error.code == .notAPropertyList)
                #expect(error.detail == detail)
                #expect(error.offset == 0)
            }
        }
    }

    @Test func transcodingErrorsHaveOffsets() {
        // A lone high surrogate at byte 6 of UTF-16LE text (after the BOM and "<p").
        let data = Data([0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00, 0x00, 0xD8, 0x41, 0x00])
        do {
            _ = try XMLPlist.decode(data)
            Issue.record("decoded a lone surrogate")
        } catch {
            #expect(error.code == .syntax)
            #expect(error.offset == 6)
        }
    }

    @Test func doctypeWithAnInternalSubsetIsRejectedAsCoreFoundationDoes() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY e \"x\"> ]>\n<plist><string>a</string></plist>"
        do {
            _ = try XMLPlist.decode(Data(text.utf8))
            Issue.record("read an internal subset")
        } catch {
            #expect(error.code == .syntax)
            #expect(error.detail.hasPrefix("line 2, column 17:"))
        }
        // Foundation refuses it too.
        #expect(throws: (any Error).self) {
            try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        }
        // A DOCTYPE without a subset is skipped.
        #expect(try XMLPlist.decode(Data("<!DOCTYPE plist SYSTEM \"x[y]\"><plist><true/></plist>".utf8)) == true)
    }
}

extension String {
    fileprivate var utf16BigEndianWithBOM: [UInt8] {
        [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

// MARK: - Lone surrogates in binary strings

@Suite struct LoneSurrogateTests {
    /// A binary plist whose one UTF-16 string holds a lone high surrogate before "x" (written as
    /// "éx", then the unit of "é" replaced).
    static func fileWithLoneSurrogate(_ unit: UInt16) throws -> Data {
        var bytes = [UInt8](try BinaryPlistWriter().write(["k": "éx"]))
        let needle: [UInt8] = [0x00, 0xE9, 0x00, 0x78]
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == needle })
        bytes[at] = UInt8(unit >> 8)
        bytes[at + 1] = UInt8(unit & 0xFF)
        return Data(bytes)
    }

    @Test(arguments: [UInt16(0xD800), 0xDBFF, 0xDC00, 0xDFFF])
    func strictIsExactAndLenientReadsReplacement(_ unit: UInt16) throws {
        let data = try Self.fileWithLoneSurrogate(unit)
        do {
            _ = try BinaryPlistDocument(data).value()
            Issue.record("strict read a lone surrogate")
        } catch {
            #expect(error.code == .invalidString)
            #expect(error.detail.contains("code unit 0"))
        }
        let lenient = try BinaryPlistDocument(data, options: .init(replacesLoneSurrogates: true))
        #expect(try lenient.value() == ["k": "\u{FFFD}x"])
        // The lazy reader takes the same path.
        let ref = try #require(try lenient.ref(at: ["k"]))
        #expect(try lenient.string(ref) == "\u{FFFD}x")
    }

    @Test func foundationReadsTheFileToo() throws {
        let data = try Self.fileWithLoneSurrogate(0xD800)
        let theirs = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        #expect(theirs?["k"]?.utf16.count == 2)
    }

    @Test func pairsAreNotReplaced() throws {
        let data = try BinaryPlistWriter().write(["k": "😀x"])
        #expect(try BinaryPlistDocument(data, options: .init(replacesLoneSurrogates: true)).value() == ["k": "😀x"])
    }
}

// MARK: - XML output that parsers read

@Suite struct XMLOutputValidityTests {
    @Test func charactersOutsideXMLAreAnErrorNamingTheObject() {
        let cases: [(PlistValue, String)] = [
            (["a": ["b", "x\u{1}y"]], "the string at \"a\" → \"1\" holds U+0001"),
            (["ok": "fine", "k\u{B}": "v"], "the key \"k\\u{0B}\" holds U+000B"),
            ("\u{FFFE}", "the string at the root holds U+FFFE"),
        ]
        for (value, prefix) in cases {
            do {
                _ = try XMLPlist.encode(value)
                Issue.record("wrote \(value)")
            } catch {
                #expect(error.code == .unencodable)
                #expect(error.detail.hasPrefix(prefix), "\(error.detail)")
            }
        }
        // Tab, LF, CR, DEL and C1 controls are XML 1.0 characters.
        #expect(throws: Never.self) { try XMLPlist.encode("\t\n\r\u{7F}\u{85}\u{10FFFF}") }
    }

    static var pythonAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")
    }

    /// Every corpus file we can write as XML parses with plistlib; the rest are refused with a reason.
    @Test(
        .enabled(if: Corpus.isPresent, "corpus not found at ../shared/corpus (set KEYEDARCHIVE_CORPUS)"),
        .enabled(if: pythonAvailable, "python3 not found")
    )
    func plistlibParsesTheXMLWeWriteForEveryCorpusFile() throws {
        // Not valid-unreadable-by-plistlib: its values (dates of year 0) have no Python form at all.
        let files = Corpus.validBinary + Corpus.validXML + Corpus.invalidKeyed + Corpus.invalidKeyedXML
        var written: [String: Data] = [:]
        var refused: [String: String] = [:]
        for file in files {
            guard let value = try? PlistValue.decode(from: file.bytes()).value else { continue }
            do {
                written[file.relativePath] = try XMLPlist.encode(value)
            } catch {
                #expect(error.code == .unencodable)
                refused[file.relativePath] = error.detail
            }
        }
        #expect(written.count >= 250, "\(written.count) written")
        // The octal-escape file holds control characters: refused, by name.
        let octal = refused.first { $0.key.contains("oldStylePlist-octal") }
        #expect(octal?.value.contains("XML 1.0 cannot hold") == true, "\(refused)")
        // One python3 process: a list of XML documents in, the names of failures out.
        let batch = PlistValue.array(
            written.sorted { $0.key < $1.key }.map { .array([.string($0.key), .data($0.value)]) })
        let script = """
            import plistlib, sys
            failed = []
            for name, xml in plistlib.loads(sys.stdin.buffer.read()):
                try:
                    plistlib.loads(xml, fmt=plistlib.FMT_XML)
                except Exception as e:
                    failed.append(name + ": " + repr(e))
            sys.stdout.write("\\n".join(failed))
            """
        let failures = String(decoding: try python(script, input: BinaryPlistWriter().write(batch)), as: UTF8.self)
        #expect(failures.isEmpty, "plistlib refused: \(failures)")
    }
}
