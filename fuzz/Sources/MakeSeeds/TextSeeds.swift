// fuzz/Sources/MakeSeeds/TextSeeds.swift - Seeds for the text-format targets (FuzzXML, FuzzJSON,
// FuzzOpenStep): our own writers' XML, canonical JSON and OpenStep text, the text encodings the
// sniffer knows, and hand-written shapes (comments, escapes, a .strings file, a DOCTYPE subset).

import Foundation
import PropertyList

extension Seeds {
    /// `Seeds.mixed` without what XML cannot hold (null).
    static let xmlable: PlistValue = [
        "name": "Ada & <Charles>", "age": 36, "ratio": 0.25, "on": true, "off": false,
        "bytes": .data(Data([0, 1, 2, 0xFF])), "when": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
        "list": [1, -1, "two", 3.5, ["nested": [.uid(7), .real(.nan), .real(-.infinity)]]],
        "unicode": "h\u{E9}llo \u{1F600} \u{4E2D}\u{6587}", "big": .int(UInt64.max),
    ]

    /// What OpenStep text holds: strings, data, arrays, dictionaries.
    static let openStepValue: PlistValue = [
        "plain": "a.b/c:d-e_f$", "spaced": "a b \"q\" \\ \n\t\u{1}", "unicode": "h\u{E9}llo \u{1F600}",
        "data": .data(Data([0, 1, 0xAB, 0xCD, 0xEF])), "list": ["x", [], [:], "1"], "empty": "",
    ]

    mutating func text() throws {
        let xml = try Seeds.xmlable.encoded(as: .xml)
        add("text-xml-mixed", xml)
        add("text-xml-sorted", try Seeds.xmlable.encoded(as: .xml, options: PlistWriteOptions(sortsKeys: true)))
        let xmlText = String(decoding: xml, as: UTF8.self)
        add("text-xml-utf16le-bom", [0xFF, 0xFE] + Array(xmlText.data(using: .utf16LittleEndian) ?? Data()))
        add("text-xml-utf16be", Array(xmlText.data(using: .utf16BigEndian) ?? Data()))
        add("text-xml-utf32be-bom", [0, 0, 0xFE, 0xFF] + Array(xmlText.data(using: .utf32BigEndian) ?? Data()))
        add(
            "text-xml-markup",
            Array(
                ("<?xml version=\"1.0\"?>\n<!-- c --><!DOCTYPE plist SYSTEM \"x\">\n<plist><dict><key>a&amp;b</key>"
                    + "<string><![CDATA[<x>]]>&#x1F600;&#65;</string><key>d</key><data>AAE\nC</data>"
                    + "<key>r</key><real>-inf</real><key>i</key><integer>0x7f</integer>"
                    + "<key>t</key><date>2001-01-01T00:00:00.5Z</date><key>u</key>"
                    + "<dict><key>CF$UID</key><integer>3</integer></dict></dict></plist>\n").utf8))
        add(
            "text-xml-doctype-subset",
            Array("<!DOCTYPE plist [ <!ENTITY e \"x\"> ]><plist><string>&e;</string></plist>".utf8))
        add("text-json-mixed", Array(try Seeds.xmlable.encoded(as: .json, options: PlistWriteOptions(sortsKeys: true))))
        add(
            "text-json-tags",
            Array(
                ("[{\"$set\": [1, \"a\"]}, {\"$dict\": [[1, \"one\"]]}, {\"$uid\": 5}, {\"$data\": \"AAE=\"},"
                    + " {\"$date\": \"2001-01-01T00:00:00.5Z\"}, {\"$real\": \"nan\"}, 1.5e300, \"\\ud83d\\ude00\"]")
                    .utf8))
        add("text-openstep-value", try Seeds.openStepValue.encoded(as: .openStep))
        add(
            "text-openstep-project",
            Array(
                ("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n/* Begin PBXBuildFile section */\n"
                    + "\t\tA1 /* main.m */ = {isa = PBXBuildFile; fileRef = B2; };\n"
                    + "\t\tB2 = {isa = PBXFileReference; path = \"My App.app\"; flags = (\"-ObjC\", x, ); };\n"
                    + "\t};\n\trootObject = A1;\n}\n").utf8))
        let strings = "/* c */\n\"KEY\" = \"Value \\U00e9 \\UD83D\\UDE00 \\101\";\nSAME;\n'k' = <0fa1 23>;\n"
        add("text-openstep-strings", Array(strings.utf8))
        add("text-openstep-strings-utf16", [0xFF, 0xFE] + Array(strings.data(using: .utf16LittleEndian) ?? Data()))
    }
}
