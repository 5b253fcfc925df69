// Tests/bplistToolTests/UnarchiveTypedValuesTests.swift - `bplist unarchive` shows the typed
// Foundation and AppKit values as values, never as their archive fields.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct UnarchiveTypedValuesTests {
    static let corpus = Corpus.root.appendingPathComponent("valid/keyed")
    static var available: Bool { Corpus.isPresent }

    func unarchive(_ name: String, json: Bool = false) throws -> String {
        let r = try Tool.run(["unarchive"] + (json ? ["--json"] : []) + [Self.corpus.appendingPathComponent(name).path])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdoutText
    }

    @Test(.enabled(if: available, "the shared corpus is not next to the package"))
    func typedValuesAreShownAsValues() throws {
        let cases: [(String, String, [String])] = [
            ("terminal-solarized-dark-BackgroundColor.bplist", "NSColor device RGB", ["NSRGB", "NSColorSpace"]),
            ("terminal-solarized-dark-ANSIBlackColor.bplist", "#0A2933", ["NSComponents", "NSICC"]),
            ("terminal-solarized-dark-Font.bplist", "NSFont Monaco 11pt", ["NSName", "NSfFlags"]),
            ("scf-macos1014-NSIndexPath-ManyIndices.bplist", "NSIndexPath [4, 8, 15, 16, 23, 42]", ["NSIndexPathData"]),
            ("scf-macos1014-NSIndexSet-ManyRanges.bplist", "NSIndexSet [0...49, 100...149", ["NSRangeData"]),
            ("scf-NSKeyedUnarchiver-RectTest.fromxml.bplist", "NSValue rect {{400, 300}, {200, 300}}", ["NS.rectval"]),
            (
                "scf-macos1014-NSAttributedString.bplist", "\"2345\" => {Font: \"Times\", Size: 456}",
                ["NSAttributeInfo"]
            ),
            ("scf-macos1014-NSTextCheckingResult-SimpleRegex.bplist", "NSRegularExpression /aaa/", ["NSPattern"]),
            ("scf-macos1014-DateIntervalFormatter-Default.bplist", "NSTimeZone \"GMT\"", ["NS.name"]),
        ]
        for (name, shown, hidden) in cases {
            let text = try unarchive(name)
            #expect(text.contains(shown), "\(name): \(text)")
            for field in hidden { #expect(!text.contains(field), "\(name) shows \(field)") }
        }
        let json = try unarchive("terminal-solarized-dark-Font.bplist", json: true)
        #expect(
            try PlistValue(canonicalJSON: json)
                == ["root": ["$class": "NSFont", "name": "Monaco", "size": .real(11), "flags": 16]], "\(json)")
    }

    /// The values added for NSDecimalNumber, NSError, NSAffineTransform, NSPersonNameComponents,
    /// NSParagraphStyle and NSFontDescriptor, archived in Apple's layout by our archiver.
    @Test func moreTypedValuesAreShownAsValues() throws {
        let dir = try TempDir()
        var style = ArchivedParagraphStyle(
            alignment: 2, tabStops: [.init(location: 28), .init(location: 56)], isMutable: true)
        style.lineSpacing = 2
        let cases: [(AnyArchived, String, [String])] = [
            (.decimal(Decimal(string: "-123.45") ?? 0), "NSDecimalNumber -123.45", ["NS.mantissa", "NS.exponent"]),
            (
                .error(ArchivedError(domain: "NSCocoaErrorDomain", code: 260, userInfo: ["NSFilePath": .string("/x")])),
                "NSError NSCocoaErrorDomain 260 {NSFilePath: \"/x\"}", ["NSDomain", "NSUserInfo"]
            ),
            (
                .affineTransform(ArchivedAffineTransform(m11: 2, m12: 0, m21: 0, m22: 2, tX: 10, tY: -5)),
                "NSAffineTransform [2 0 0 2 10 -5]", ["NSTransformStruct"]
            ),
            (
                .personNameComponents(ArchivedPersonNameComponents(givenName: "Ada", familyName: "Lovelace")),
                "NSPersonNameComponents Ada Lovelace", ["NS.givenName", "$null"]
            ),
            (
                .paragraphStyle(style),
                "NSMutableParagraphStyle {alignment center, line spacing 2, tab stops [28, 56]}",
                ["NSTabStops", "NSTextTab", "NSLocation", "NSAlignment"]
            ),
            (
                .fontDescriptor(
                    ArchivedFontDescriptor(
                        attributes: ["NSFontNameAttribute": .string("Menlo-Regular"), "NSFontSizeAttribute": .real(11)])
                ),
                "NSFontDescriptor Menlo-Regular 11pt", ["NSFontDescriptorAttributes"]
            ),
            (
                .attributedString(
                    ArchivedAttributedString(
                        string: "a\tb",
                        runs: [.init(range: 0..<3, attributes: ["NSParagraphStyle": .paragraphStyle(style)])])),
                "NSParagraphStyle: NSMutableParagraphStyle {alignment center", ["NSTabStops", "NSLocation"]
            ),
        ]
        for (i, (value, shown, hidden)) in cases.enumerated() {
            let path = try dir.write(KeyedArchiver.archivedData(withRootObject: value), "\(i).bplist")
            let r = try Tool.run(["unarchive", path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdoutText.contains(shown), "\(shown): \(r.stdoutText)")
            for field in hidden { #expect(!r.stdoutText.contains(field), "\(shown) shows \(field)") }
        }
    }
}

/// `bplist unarchive` types ordered sets, in both layouts, and shows values encoded without a key.
@Suite struct UnarchiveOrderedSetTests {
    @Test(.enabled(if: UnarchiveTypedValuesTests.available, "the shared corpus is not next to the package"))
    func appleOrderedSetsAreOrderedSets() throws {
        for name in ["scf-macos1014-NSMutableOrderedSet-Numbers.bplist", "scf-macos1014-NSOrderedSet-Numbers.bplist"] {
            let path = UnarchiveTypedValuesTests.corpus.appendingPathComponent(name).path
            let text = try Tool.run(["unarchive", "--no-color", path])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdoutText.hasPrefix("<ordered set> ["), "\(name): \(text.stdoutText)")
            #expect(!text.stdoutText.contains("NS.object."), "\(name) shows its fields")
            let json = try Tool.run(["unarchive", "--json", path])
            #expect(json.stdoutText.contains("\"$orderedSet\":"), "\(name): \(json.stdoutText)")
            #expect(!json.stdoutText.contains("NS.object."))
        }
    }

    @Test func orderedSetsInEitherLayoutAndUnkeyedValues() throws {
        let dir = try TempDir()
        let file = dir.url.appendingPathComponent("set.archive")
        // NS.objects layout (as our archiver wrote it before), and an object with two values without a key.
        let objects: [PlistValue] = [
            "$null",
            ["$class": .uid(2), "title": .uid(3), "$0": .uid(4), "$1": 7],
            ["$classname": "XWZThing", "$classes": ["XWZThing", "NSObject"]],
            ["$class": .uid(5), "NS.objects": [.uid(6), .uid(7)]],
            "first unkeyed",
            ["$classname": "NSMutableOrderedSet", "$classes": ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]],
            "p",
            "q",
        ]
        let archive: PlistValue = [
            "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        try BinaryPlistWriter().write(archive).write(to: file)
        let text = try Tool.run(["unarchive", "--no-color", file.path]).stdoutText
        #expect(text.contains("title: <ordered set> ["), "\(text)")
        #expect(text.contains("0 => \"p\""), "\(text)")
        #expect(text.contains("$0: \"first unkeyed\""), "\(text)")
        #expect(text.contains("$1: 7"), "\(text)")
        let json = try Tool.run(["unarchive", "--json", file.path]).stdoutText
        #expect(json.contains("\"$orderedSet\": [\n    \"p\",\n    \"q\""), "\(json)")
        #expect(json.contains("\"$$0\": \"first unkeyed\""), "\(json)")
    }
}
