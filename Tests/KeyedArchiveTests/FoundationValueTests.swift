// Tests/KeyedArchiveTests/FoundationValueTests.swift - The typed Foundation and AppKit values:
// Apple-made samples from the corpus, Foundation on Linux both ways, and a count over the corpus.

import BinaryPlist
import Foundation
import KeyedArchive
import Testing

@Suite struct FoundationValueTests {
    func root(_ name: String) throws -> AnyArchived {
        let data = try Corpus.data("valid/keyed", name)
        return try KeyedUnarchiver(forReadingFrom: data).decode(AnyArchived.self, forKey: "root")
    }

    @Test(.enabled(if: Corpus.available, "the shared corpus is not next to the package"))
    func appleSamplesDecodeToTypedValues() throws {
        #expect(try root("scf-macos1014-NSIndexPath-ManyIndices.bplist") == .indexPath([4, 8, 15, 16, 23, 42]))
        #expect(try root("scf-macos1014-NSIndexPath-OneIndex.bplist") == .indexPath([52]))
        #expect(try root("scf-macos1014-NSIndexPath-Empty.bplist") == .indexPath([]))
        #expect(try root("scf-macos1014-NSIndexSet-OneRange.bplist") == .indexSet(ArchivedIndexSet(ranges: [0..<50])))
        guard case .indexSet(let many) = try root("scf-macos1014-NSIndexSet-ManyRanges.bplist") else {
            Issue.record("not an index set")
            return
        }
        #expect(many.ranges.count == 4 && many.ranges[0] == 0..<50 && many.ranges[1] == 100..<150)
        #expect(
            try root("scf-macos1014-NSMutableIndexSet-Empty.bplist")
                == .indexSet(ArchivedIndexSet(ranges: [], isMutable: true)))
        #expect(
            try root("scf-NSKeyedUnarchiver-RectTest.fromxml.bplist")
                == .geometry(.rect(x: 400, y: 300, width: 200, height: 300)))
        #expect(
            try root("scf-NSKeyedUnarchiver-RangeTest.fromxml.bplist")
                == .geometry(.range(location: 97345, length: 98345)))
        #expect(
            try root("scf-NSKeyedUnarchiver-EdgeInsetsTest.fromxml.bplist")
                == .geometry(.edgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        #expect(
            try root("terminal-solarized-dark-Font.bplist") == .font(ArchivedFont(name: "Monaco", size: 11, flags: 16)))
        guard case .color(let background) = try root("terminal-solarized-dark-BackgroundColor.bplist") else {
            Issue.record("not a colour")
            return
        }
        #expect(background.colorSpace == 2)
        #expect(background.hex == "#022B36")
        guard case .color(let black) = try root("terminal-solarized-dark-ANSIBlackColor.bplist") else {
            Issue.record("not a colour")
            return
        }
        #expect(black.colorSpace == 1 && black.spaceComponents?.count == 4)
        #expect(black.iccProfile?.count ?? 0 > 1000, "the custom colour space's ICC profile")
        guard case .attributedString(let text) = try root("scf-macos1014-NSAttributedString.bplist") else {
            Issue.record("not an attributed string")
            return
        }
        #expect(text.string == "0123456789")
        #expect(text.runTexts == ["0", "1", "2345", "67", "8", "9"])
        #expect(text.runs[1].attributes["Font"] == .string("Helvetica"))
        #expect(text.runs[2].attributes["Size"] == .integer(456))
        guard case .attributedString(let mutable) = try root("scf-macos1014-NSMutableAttributedString.bplist") else {
            Issue.record("not an attributed string")
            return
        }
        #expect(mutable.isMutable && mutable.runs == text.runs)
        guard case .object(let formatter) = try root("scf-macos1014-DateIntervalFormatter-Default.bplist") else {
            Issue.record("not an object")
            return
        }
        #expect(formatter["NS.locale"] == .locale(ArchivedLocale(identifier: "")))
        guard case .timeZone(let zone)? = formatter["NS.timeZone"] else {
            Issue.record("no time zone")
            return
        }
        #expect(zone.name == "GMT" && zone.data?.prefix(4) == Data("TZif".utf8) && zone.timeZone?.secondsFromGMT() == 0)
        guard case .object(let result) = try root("scf-macos1014-NSTextCheckingResult-SimpleRegex.bplist") else {
            Issue.record("not an object")
            return
        }
        #expect(result["NSRegularExpression"] == .regularExpression(ArchivedRegularExpression(pattern: "aaa")))
        #expect(result["NSRangeArray"] == .array([.geometry(.range(location: 0, length: 3))]))
    }

    @Test(.enabled(if: Corpus.available, "the shared corpus is not next to the package"))
    func graphResolvesTypedValuesThroughTheDecoders() throws {
        let font = try KeyedArchiveGraph(Corpus.data("valid/keyed", "terminal-solarized-dark-Font.bplist"))
        #expect(font.resolvedRoot() == .typed(className: "NSFont", text: "Monaco 11pt"))
        #expect(font.typedValue(at: font.root ?? 0) == .font(ArchivedFont(name: "Monaco", size: 11, flags: 16)))
        let path = try KeyedArchiveGraph(Corpus.data("valid/keyed", "scf-macos1014-NSIndexPath-ManyIndices.bplist"))
        #expect(path.resolvedRoot() == .typed(className: "NSIndexPath", text: "[4, 8, 15, 16, 23, 42]"))
        // Objects of other classes are not typed values.
        let xcode = try KeyedArchiveGraph(Corpus.data("valid/keyed", "go-ios-XCTCapabilities.bplist"))
        #expect(xcode.typedValue(at: xcode.root ?? 0) == nil)
    }

    /// Every instance of a typed class in the corpus decodes to its typed value: none is left an
    /// `ArchivedInstance`. (NSValue objects holding C arrays, `$0` = "[3i]", have no geometry and
    /// are not counted.)
    @Test(.enabled(if: Corpus.available, "the shared corpus is not next to the package"))
    func everyTypedClassInstanceInTheCorpusDecodes() throws {
        let typed: Set<String> = [
            "NSNull", "NSIndexPath", "NSIndexSet", "NSMutableIndexSet", "NSLocale", "NSTimeZone", "NSValue",
            "NSRegularExpression", "NSColor", "NSFont", "NSAttributedString", "NSMutableAttributedString",
            "NSOrderedSet", "NSMutableOrderedSet", "NSURL",
        ]
        var archived = 0
        var leftAsInstances: [String] = []
        for (folder, name) in KeyedCorpus.all {
            let data = try KeyedCorpus.data("\(folder)/\(name)")
            // Instances in the file (C-array NSValues aside).
            let rootValue: PlistValue =
                XMLPlist.looksLikeXML(data) ? try XMLPlist.decode(data) : try BinaryPlistDocument(data).value()
            guard case .array(let objects)? = rootValue["$objects"] else { continue }
            for o in objects {
                guard case .uid(let c)? = o["$class"], Int(c) < objects.count,
                    case .string(let cls)? = objects[Int(c)]["$classname"], typed.contains(cls), o["$0"] == nil
                else { continue }
                archived += 1
            }
            // Decoded: walk everything reachable from $top.
            let un = try KeyedUnarchiver(forReadingFrom: data)
            var values: [AnyArchived] = []
            for key in try KeyedCorpus.topKeys(data) where !key.hasPrefix("$") {
                values.append(try un.decode(AnyArchived.self, forKey: key))
            }
            while let v = try un.decodeObject() { values.append(v) }
            var seen = Set<ObjectIdentifier>()
            while let v = values.popLast() {
                switch v {
                case .array(let a), .orderedSet(let a): values += a
                case .set(let s): values += s
                case .dictionary(let d): values += Array(d.keys) + Array(d.values)
                case .attributedString(let s): values += s.runs.flatMap { $0.attributes.values }
                case .object(let o):
                    guard seen.insert(ObjectIdentifier(o)).inserted else { continue }
                    if typed.contains(o.className), o.unkeyed.isEmpty {
                        leftAsInstances.append("\(name): \(o.className)")
                    }
                    values += o.fields.values
                    values += o.unkeyed
                default: break
                }
            }
        }
        #expect(leftAsInstances.isEmpty, "\(leftAsInstances)")
        #expect(archived == 84, "instances of the typed classes in the corpus")
    }

    func roundTripThroughFoundation<T: KeyedArchiveValue & Equatable>(_ value: T, check: (Any?) -> Bool) throws {
        let data = try KeyedArchiver.archivedData(withRootObject: value)
        let un = try NSKeyedUnarchiver(forReadingFrom: data)
        un.requiresSecureCoding = false
        let object = un.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        #expect(check(object), "Foundation reads \(T.self): \(String(describing: object))")
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data) == value)
    }

    func fromFoundation<T: KeyedArchiveValue>(_ object: Any, as type: T.Type) throws -> T {
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        return try KeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data)
    }

    @Test func foundationReadsAndWritesTheTypedValues() throws {
        try roundTripThroughFoundation(IndexPath(indexes: [3, 1, 4, 1, 5])) { ($0 as? IndexPath) == [3, 1, 4, 1, 5] }
        try roundTripThroughFoundation(IndexPath(index: 7)) { ($0 as? IndexPath) == [7] }
        #expect(
            try fromFoundation(NSIndexPath(indexes: [2, 300, 70000], length: 3), as: IndexPath.self) == [2, 300, 70000])

        let set = ArchivedIndexSet(ranges: [1..<4, 10..<11, 300..<400])
        try roundTripThroughFoundation(set) { ($0 as? IndexSet).map { Array($0) } == set.indexes }
        var fset = IndexSet(integersIn: 5..<9)
        fset.insert(100)
        #expect(try fromFoundation(NSIndexSet(indexSet: fset), as: ArchivedIndexSet.self).indexes == Array(fset))

        try roundTripThroughFoundation(ArchivedGeometry.range(location: 5, length: 10)) {
            ($0 as? NSValue)?.rangeValue == NSRange(location: 5, length: 10)
        }
        try roundTripThroughFoundation(ArchivedGeometry.point(x: 1.5, y: -2)) {
            ($0 as? NSValue)?.pointValue == NSPoint(x: 1.5, y: -2)
        }
        try roundTripThroughFoundation(ArchivedGeometry.size(width: 3, height: 4.25)) {
            ($0 as? NSValue)?.sizeValue == NSSize(width: 3, height: 4.25)
        }
        try roundTripThroughFoundation(ArchivedGeometry.rect(x: 1, y: 2, width: 0.1, height: 400)) {
            ($0 as? NSValue)?.rectValue == NSRect(x: 1, y: 2, width: 0.1, height: 400)
        }
        #expect(
            try fromFoundation(NSValue(rect: NSRect(x: 0.5, y: 1, width: 2, height: 3)), as: ArchivedGeometry.self)
                == .rect(x: 0.5, y: 1, width: 2, height: 3))
        #expect(
            try fromFoundation(NSValue(range: NSRange(location: 9, length: 1)), as: ArchivedGeometry.self)
                == .range(location: 9, length: 1))

        try roundTripThroughFoundation(ArchivedLocale(identifier: "fr_FR")) { ($0 as? Locale)?.identifier == "fr_FR" }
        #expect(try fromFoundation(NSLocale(localeIdentifier: "de_CH"), as: ArchivedLocale.self).identifier == "de_CH")

        try roundTripThroughFoundation(ArchivedTimeZone(name: "GMT")) { ($0 as? TimeZone)?.identifier == "GMT" }
        #expect(
            try fromFoundation(NSTimeZone(name: "Europe/Paris") as Any, as: ArchivedTimeZone.self).name
                == "Europe/Paris")

        try roundTripThroughFoundation(ArchivedRegularExpression(pattern: "a+b", options: 1)) {
            ($0 as? NSRegularExpression)?.pattern == "a+b" && ($0 as? NSRegularExpression)?.options == .caseInsensitive
        }
        let regex = try NSRegularExpression(pattern: "x*", options: [.anchorsMatchLines])
        #expect(
            try fromFoundation(regex, as: ArchivedRegularExpression.self)
                == ArchivedRegularExpression(pattern: "x*", options: 16))

        let ordered = AnyArchived.orderedSet([.string("a"), .integer(2)])
        try roundTripThroughFoundation(ordered) {
            ($0 as? NSOrderedSet)?.array.count == 2 && ($0 as? NSOrderedSet)?.firstObject as? String == "a"
        }
        #expect(
            try fromFoundation(NSOrderedSet(array: ["x", "y"]), as: AnyArchived.self)
                == .orderedSet([.string("x"), .string("y")]))

        var components = DateComponents()
        components.year = 2024
        components.month = 5
        components.day = 17
        try roundTripThroughFoundation(components) {
            let c = $0 as? DateComponents
            return c?.year == 2024 && c?.month == 5 && c?.day == 17 && c?.hour == nil
        }
        #expect(try fromFoundation(components as NSDateComponents, as: DateComponents.self) == components)
        #expect(
            try fromFoundation(components as NSDateComponents, as: AnyArchived.self) == .dateComponents(components))

        try roundTripThroughFoundation(ArchivedNull()) { $0 is NSNull }
        #expect(try fromFoundation(NSNull(), as: ArchivedNull.self) == ArchivedNull())
    }

    @Test func colorsFontsAndAttributedStringsWriteAppleLayouts() throws {
        let color = ArchivedColor.rgb(1, 0.5, 0)
        let font = ArchivedFont(name: "Menlo-Regular", size: 12)
        let text = ArchivedAttributedString(
            string: "héllo",
            runs: [
                .init(range: 0..<2, attributes: ["NSFont": .font(font), "NSColor": .color(color)]),
                .init(range: 2..<5, attributes: ["NSFont": .font(font)]),
            ])
        let data = try KeyedArchiver.archivedData(withRootObject: AnyArchived.attributedString(text))
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: data)
        #expect(back == .attributedString(text))
        #expect(text.runTexts == ["hé", "llo"])
        // The layout: NSString, NSAttributes (two dictionaries), NSAttributeInfo varints.
        let graph = try KeyedArchiveGraph(data)
        guard case .object(let root)? = graph.node(graph.root ?? 0) else {
            Issue.record("no root object")
            return
        }
        #expect(root.className == "NSAttributedString")
        #expect(Set(root.fields.map(\.key)) == ["NSString", "NSAttributes", "NSAttributeInfo"])
        #expect(
            try KeyedUnarchiver.unarchivedObject(
                ofClass: ArchivedColor.self, from: KeyedArchiver.archivedData(withRootObject: color)) == color)
        #expect(color.hex == "#FF8000")
        let ui = ArchivedColor(colorSpace: 2, components: [0, 0, 1, 0.5], isUIColor: true)
        #expect(
            try KeyedUnarchiver.unarchivedObject(
                ofClass: ArchivedColor.self, from: KeyedArchiver.archivedData(withRootObject: ui)) == ui)
    }
}
