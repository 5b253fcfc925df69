// Tests/KeyedArchiveTests/FoundationValueTests.swift - The typed Foundation and AppKit values:
// Apple-made samples from the corpus, Foundation on Linux both ways, and a count over the corpus.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct FoundationValueTests {
    func root(_ name: String) throws -> AnyArchived {
        let data = try Corpus.data("valid/keyed", name)
        return try KeyedUnarchiver(forReadingFrom: data).decode(AnyArchived.self, forKey: "root")
    }

    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
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

    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
    func graphResolvesTypedValuesThroughTheDecoders() throws {
        let font = try KeyedArchiveGraph(Corpus.data("valid/keyed", "terminal-solarized-dark-Font.bplist"))
        let monaco = AnyArchived.font(ArchivedFont(name: "Monaco", size: 11, flags: 16))
        #expect(font.resolvedRoot() == .typed(className: "NSFont", value: monaco))
        #expect(font.typedValue(at: font.root ?? 0) == .font(ArchivedFont(name: "Monaco", size: 11, flags: 16)))
        let path = try KeyedArchiveGraph(Corpus.data("valid/keyed", "scf-macos1014-NSIndexPath-ManyIndices.bplist"))
        #expect(path.resolvedRoot() == .typed(className: "NSIndexPath", value: .indexPath([4, 8, 15, 16, 23, 42])))
        // Objects of other classes are not typed values.
        let xcode = try KeyedArchiveGraph(Corpus.data("valid/keyed", "go-ios-XCTCapabilities.bplist"))
        #expect(xcode.typedValue(at: xcode.root ?? 0) == nil)
    }

    /// Every instance of a typed class in the corpus decodes to its typed value: none is left an
    /// `ArchivedInstance`. (NSValue objects holding C arrays, `$0` = "[3i]", have no geometry and
    /// are not counted.)
    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
    func everyTypedClassInstanceInTheCorpusDecodes() throws {
        let typed: Set<String> = [
            "NSNull", "NSIndexPath", "NSIndexSet", "NSMutableIndexSet", "NSLocale", "NSTimeZone", "NSValue",
            "NSRegularExpression", "NSColor", "NSFont", "NSAttributedString", "NSMutableAttributedString",
            "NSOrderedSet", "NSMutableOrderedSet", "NSURL", "NSDecimalNumber", "NSDecimalNumberPlaceholder",
            "NSError", "NSAffineTransform", "NSPersonNameComponents", "NSParagraphStyle", "NSMutableParagraphStyle",
            "NSFontDescriptor", "UIFontDescriptor",
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
                    let cls = objects[Int(c)]["$classname"]?.stringValue, typed.contains(cls), o["$0"] == nil
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
                case .error(let e): values += e.userInfo.values
                case .fontDescriptor(let d): values += d.attributes.values
                case .paragraphStyle(let p): values += p.otherFields.values
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

// MARK: - NSDecimalNumber, NSError, NSAffineTransform, NSPersonNameComponents, NSParagraphStyle,
// NSFontDescriptor

extension FoundationValueTests {
    /// A `$class` object: `["$class": UID(cls)] + fields`.
    func object(_ cls: UInt64, _ fields: [(String, PlistValue)]) -> PlistValue {
        .dictionary(PlistDictionary([(.string("$class"), .uid(cls))] + fields.map { (.string($0.0), $0.1) }))
    }

    func classes(_ chain: [String]) -> PlistValue {
        ["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })]
    }

    func rootAny(_ data: Data) throws -> AnyArchived {
        try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: data)
    }

    func thrown(_ body: () throws -> Void) -> KeyedArchiveError? {
        do {
            try body()
            return nil
        } catch let e as KeyedArchiveError {
            return e
        } catch {
            return nil
        }
    }

    /// The fields of the root object of an archive we wrote, UIDs of plain values followed.
    func rootFields(_ data: Data) throws -> [String: PlistValue] {
        let graph = try KeyedArchiveGraph(data)
        guard case .object(let root)? = graph.node(graph.root ?? 0) else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: root.fields.map { field in
                guard case .uid(let u) = field.value else { return (field.key, field.value) }
                switch graph.node(Int(u)) {
                case .value(let v)?: return (field.key, v)
                case .null?: return (field.key, .null)
                default: return (field.key, field.value)
                }
            })
    }

    /// An NSDecimalNumber in Apple's layout (mantissa words little-endian unless `bo` says not).
    func decimalArchive(
        exponent: Int, length: Int, negative: Bool, mantissa: [UInt8], bo: Int = 1,
        className: String = "NSDecimalNumber"
    ) throws -> Data {
        try handArchive([
            object(
                2,
                [
                    ("NS.exponent", .integer(PlistInteger(exponent))), ("NS.length", .integer(PlistInteger(length))),
                    ("NS.negative", .bool(negative)), ("NS.compact", .bool(true)),
                    ("NS.mantissa.bo", .integer(PlistInteger(bo))), ("NS.mantissa", .uid(3)),
                ]),
            classes([className, "NSNumber", "NSValue", "NSObject"]),
            .data(Data(mantissa + Array(repeating: 0, count: max(0, 16 - mantissa.count)))),
        ])
    }

    @Test func decimalNumbersReadAppleLayoutAndRoundTrip() throws {
        // -123.45: mantissa 12345 = 0x3039, exponent -2.
        let apple = try decimalArchive(exponent: -2, length: 1, negative: true, mantissa: [0x39, 0x30])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: apple) == Decimal(string: "-123.45"))
        #expect(try rootAny(apple) == .decimal(Decimal(string: "-123.45") ?? 0))
        // Byte-swapped words (NS.mantissa.bo other than 1), and the placeholder class name.
        let swapped = try decimalArchive(
            exponent: 3, length: 2, negative: false, mantissa: [0x86, 0xA0, 0x00, 0x01], bo: 0,
            className: "NSDecimalNumberPlaceholder")
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: swapped) == Decimal(100_000_000))
        let nan = try decimalArchive(exponent: 0, length: 0, negative: true, mantissa: [])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: nan).isNaN)

        let values = [
            "0", "1", "-123.45", "0.000000000000000000000000000001", "340282366920938463463374607431768211455",
        ]
        for text in values {
            let d = try #require(Decimal(string: text))
            let data = try KeyedArchiver.archivedData(withRootObject: d)
            #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: data) == d, "\(text)")
            #expect(try rootAny(data) == .decimal(d))
        }
        // The layout written: Apple's keys, its class chain, mantissa words little-endian.
        let written = try KeyedArchiver.archivedData(withRootObject: Decimal(string: "-123.45") ?? 0)
        let fields = try rootFields(written)
        #expect(
            Set(fields.keys) == [
                "NS.exponent", "NS.length", "NS.negative", "NS.compact", "NS.mantissa.bo", "NS.mantissa",
            ])
        #expect(fields["NS.exponent"] == .integer(-2) && fields["NS.length"] == .integer(1))
        let graph = try KeyedArchiveGraph(written)
        guard case .object(let root)? = graph.node(graph.root ?? 0) else {
            Issue.record("no root object")
            return
        }
        #expect(root.classChain == ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
    }

    /// Random decimals of up to 38 digits and exponents across Apple's range archive and read back
    /// equal, with as many mantissa words as the significand needs.
    @Test func randomDecimalsRoundTrip() throws {
        var rng = SplitMix64(seed: 38)
        for _ in 0..<300 {
            let count = Int.random(in: 1...38, using: &rng)
            let digits = (0..<count).map { i in String(Int.random(in: (i == 0 ? 1 : 0)...9, using: &rng)) }.joined()
            let exponent = Int.random(in: -90...90, using: &rng)
            let text = (Bool.random(using: &rng) ? "-" : "") + digits + "e\(exponent)"
            let d = try #require(Decimal(string: text), "\(text)")
            let data = try KeyedArchiver.archivedData(withRootObject: d)
            #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: data) == d, "\(text)")
            guard case .integer(let length)? = try rootFields(data)["NS.length"] else {
                Issue.record("no NS.length for \(text)")
                continue
            }
            let bits = UInt128(d.significand.description).map { 128 - $0.leadingZeroBitCount } ?? 0
            #expect(Int(exactly: length) == (bits + 15) / 16, "\(text)")
        }
    }

    struct Price: Codable, Equatable {
        var amount: Decimal
        var currency: String
    }

    /// A `Decimal` inside a `Codable` value is archived as an NSDecimalNumber, as Apple's
    /// archivers hold decimals, not as `Decimal`'s own `Codable` fields.
    @Test func codableDecimalsAreDecimalNumbers() throws {
        let price = Price(amount: Decimal(string: "19.99") ?? 0, currency: "EUR")
        let data = try KeyedArchiveEncoder().encode(price)
        #expect(try KeyedArchiveDecoder().decode(Price.self, from: data) == price)
        let graph = try KeyedArchiveGraph(data)
        let classNames = graph.nodes.compactMap { node -> String? in
            if case .object(let o) = node { return o.className }
            return nil
        }
        #expect(classNames.contains("NSDecimalNumber"), "\(classNames)")
    }

    @Test func malformedDecimalNumbersAreTypedErrors() throws {
        let short = try handArchive([
            object(2, [("NS.exponent", 0), ("NS.length", 1), ("NS.negative", .bool(false)), ("NS.mantissa", .uid(3))]),
            classes(["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"]), .data(Data([1, 2, 3])),
        ])
        let e = thrown { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: short) }
        #expect(
            e?.code == .corrupted && e?.className == "NSDecimalNumber" && e?.object == 1, "\(String(describing: e))")
        // Through AnyArchived an unknown layout stays an instance, fields intact.
        guard case .object(let o) = try rootAny(short) else {
            Issue.record("not kept as an instance")
            return
        }
        #expect(o.className == "NSDecimalNumber" && o["NS.mantissa"] == .data(Data([1, 2, 3])))
        let tooLong = try decimalArchive(exponent: 0, length: 9, negative: false, mantissa: [1])
        #expect(
            thrown { _ = try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: tooLong) }?.code
                == .corrupted)
    }

    @Test func decimalNumbersAgainstFoundation() throws {
        // Foundation on Linux crashes archiving an NSDecimalNumber (NSKeyedArchiver recurses in
        // NSObject hashing), so only its reader is tried. It reads our archive as an
        // NSDecimalNumber with the right sign and exponent; its init(coder:) combines the mantissa
        // bytes with `&` instead of `|`, so the digits are lost on that side (a corelibs bug).
        let data = try KeyedArchiver.archivedData(withRootObject: Decimal(string: "-123.45") ?? 0)
        let un = try NSKeyedUnarchiver(forReadingFrom: data)
        un.requiresSecureCoding = false
        let number = un.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSDecimalNumber
        #expect(number?.decimalValue.exponent == -2 && number?.decimalValue.sign == .minus)
    }

    @Test func errorsRoundTripWithTheirUserInfo() throws {
        let error = ArchivedError(
            domain: "MyDomain", code: 7, userInfo: ["NSFilePath": .string("/tmp/x"), "count": .integer(3)])
        try roundTripThroughFoundation(error) {
            let e = $0 as? NSError
            return e?.domain == "MyDomain" && e?.code == 7 && e?.userInfo["NSFilePath"] as? String == "/tmp/x"
        }
        // An empty user info is still written (Foundation on Linux refuses an NSError without it).
        let plain = ArchivedError(domain: "D", code: -1)
        try roundTripThroughFoundation(plain) { ($0 as? NSError)?.userInfo.isEmpty == true }
        #expect(
            try rootFields(KeyedArchiver.archivedData(withRootObject: plain)).keys.sorted() == [
                "NSCode", "NSDomain", "NSUserInfo",
            ])
        // Foundation on Linux crashes archiving an NSError (NSObject hashing), so the other
        // direction is a hand-built archive in Apple's layout, with a nested underlying error.
        let apple = try handArchive([
            object(2, [("NSDomain", .uid(3)), ("NSCode", 260), ("NSUserInfo", .uid(4))]),
            classes(["NSError", "NSObject"]), "NSCocoaErrorDomain",
            object(5, [("NS.keys", [.uid(6), .uid(7)]), ("NS.objects", [.uid(8), .uid(9)])]),
            classes(["NSDictionary", "NSObject"]), "NSLocalizedDescription", "NSUnderlyingError",
            "The file doesn’t exist.",
            object(2, [("NSDomain", .uid(10)), ("NSCode", 2), ("NSUserInfo", .uid(0))]), "NSPOSIXErrorDomain",
        ])
        let read = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedError.self, from: apple)
        #expect(read.domain == "NSCocoaErrorDomain" && read.code == 260)
        #expect(read.localizedDescription == "The file doesn’t exist.")
        #expect(read.userInfo["NSUnderlyingError"] == .error(ArchivedError(domain: "NSPOSIXErrorDomain", code: 2)))
        #expect(try rootAny(apple) == .error(read))
        #expect(read.description.hasPrefix("NSCocoaErrorDomain 260 {NSLocalizedDescription: \"The file"))
    }

    @Test func affineTransformsUseSixBigEndianFloats() throws {
        let t = ArchivedAffineTransform(m11: 2, m12: 0.5, m21: -1, m22: 3, tX: 10.25, tY: -7)
        let data = try KeyedArchiver.archivedData(withRootObject: t)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedAffineTransform.self, from: data) == t)
        #expect(try rootAny(data) == .affineTransform(t))
        // 2.0 is 0x40000000 as a big-endian float; 10.25 is 0x41240000.
        guard case .data(let bytes)? = try rootFields(data)["NSTransformStruct"] else {
            Issue.record("no NSTransformStruct data")
            return
        }
        #expect(bytes.count == 24 && Array(bytes.prefix(4)) == [0x40, 0, 0, 0])
        #expect(Array(bytes[16..<20]) == [0x41, 0x24, 0, 0])

        // Apple's forms, by hand (Foundation on Linux writes and reads its own layout instead, a
        // `$0` array of six floats, so it is not the other side here).
        func transform(_ bytes: [UInt8]?) throws -> Data {
            try handArchive(
                [
                    object(2, bytes == nil ? [] : [("NSTransformStruct", .uid(3))]),
                    classes(["NSAffineTransform", "NSObject"]),
                ]
                    + (bytes.map { [.data(Data($0))] } ?? []))
        }
        let translate: [UInt8] = [
            0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3F, 0x80, 0, 0, 0x41, 0x20, 0, 0, 0x41, 0xA0, 0, 0,
        ]
        #expect(
            try rootAny(transform(translate))
                == .affineTransform(ArchivedAffineTransform(m11: 1, m12: 0, m21: 0, m22: 1, tX: 10, tY: 20)))
        #expect(try rootAny(transform(nil)) == .affineTransform(.identity))
        let scale: [UInt8] = [2, 0x40, 0, 0, 0, 0x40, 0x40, 0, 0]
        #expect(
            try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedAffineTransform.self, from: transform(scale))
                == ArchivedAffineTransform(m11: 2, m12: 0, m21: 0, m22: 3, tX: 0, tY: 0))
        let e = thrown {
            _ = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedAffineTransform.self, from: transform([1, 2, 3]))
        }
        #expect(e?.code == .corrupted && e?.className == "NSAffineTransform")
        #expect(t.description == "[2 0.5 -1 3 10.25 -7]")
    }

    @Test func personNameComponentsCrossFoundation() throws {
        let name = ArchivedPersonNameComponents(givenName: "Jane", familyName: "Doe", nickname: "JD")
        try roundTripThroughFoundation(name) {
            let p = ($0 as? NSPersonNameComponents)
            return p?.givenName == "Jane" && p?.familyName == "Doe" && p?.nickname == "JD" && p?.middleName == nil
        }
        var components = PersonNameComponents()
        components.namePrefix = "Dr."
        components.givenName = "Ada"
        components.familyName = "Lovelace"
        #expect(
            try fromFoundation(components as NSPersonNameComponents, as: ArchivedPersonNameComponents.self)
                == ArchivedPersonNameComponents(namePrefix: "Dr.", givenName: "Ada", familyName: "Lovelace"))
        #expect(
            try fromFoundation(components as NSPersonNameComponents, as: AnyArchived.self).typedDescription?.text
                == "Dr. Ada Lovelace")
        // A field this type does not hold keeps the object an instance (nothing dropped).
        let phonetic = try handArchive([
            object(2, [("NS.givenName", .uid(3)), ("NS.phoneticRepresentation", .uid(4))]),
            classes(["NSPersonNameComponents", "NSObject"]), "太郎", object(2, [("NS.givenName", .uid(5))]), "Taro",
        ])
        guard case .object(let o) = try rootAny(phonetic) else {
            Issue.record("not kept as an instance")
            return
        }
        #expect(
            o["NS.phoneticRepresentation"] == .personNameComponents(ArchivedPersonNameComponents(givenName: "Taro")))
    }

    /// An NSParagraphStyle as iOS writes one in an attributed string (Vectornator-like), with two
    /// NSTextTab stops and a setting this type does not name.
    func appleParagraphStyle() throws -> Data {
        try handArchive([
            object(
                2,
                [
                    ("NSAlignment", 2), ("NSLineSpacing", .real(2.5)), ("NSTabStops", .uid(3)),
                    ("NSTextBlocks", .uid(8)),
                    ("NSTextLists", .uid(8)), ("NSWritingDirection", 2), ("NSAllowsTighteningForTruncation", 1),
                    ("NSTighteningFactorForTruncation", .real(0.05000000074505806)), ("NSLineBreakStrategy", 65535),
                ]),
            classes(["NSMutableParagraphStyle", "NSParagraphStyle", "NSObject"]),
            object(4, [("NS.objects", [.uid(5), .uid(7)])]), classes(["NSArray", "NSObject"]),
            object(6, [("NSLocation", .real(28)), ("NSTextAlignment", 2), ("NSType", 0)]),
            classes(["NSTextTab", "NSObject"]),
            object(6, [("NSLocation", .real(56))]),
            object(4, [("NS.objects", [])]),
        ])
    }

    @Test func paragraphStylesReadAppleLayoutAndRoundTrip() throws {
        let style = try KeyedUnarchiver.unarchivedObject(
            ofClass: ArchivedParagraphStyle.self, from: appleParagraphStyle())
        #expect(style.isMutable && style.alignment == 2 && style.lineSpacing == 2.5)
        #expect(style.tabStops?.map(\.location) == [28, 56])
        #expect(style.tabStops?.first?.alignment == 2 && style.tabStops?.first?.otherFields == ["NSType": .integer(0)])
        #expect(style.baseWritingDirection == 1 && style.allowsDefaultTighteningForTruncation)
        #expect(style.tighteningFactorForTruncation == 0.05000000074505806)
        #expect(style.textLists == [] && style.textBlocks == [])
        #expect(style.otherFields == ["NSLineBreakStrategy": .integer(65535)])
        #expect(try rootAny(appleParagraphStyle()) == .paragraphStyle(style))
        #expect(
            style.description
                == "{alignment center, line spacing 2.5, tightening factor 0.05000000074505806, tab stops [28, 56], "
                + "right to left, allows tightening, 1 more settings}")

        let again = try KeyedArchiver.archivedData(withRootObject: style)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedParagraphStyle.self, from: again) == style)
        // Apple writes only settings that are not the default, and NSTabStops always ($null here).
        let plain = try KeyedArchiver.archivedData(withRootObject: ArchivedParagraphStyle())
        #expect(try rootFields(plain) == ["NSTabStops": .null])
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedParagraphStyle.self, from: plain) == .init())

        // As an attribute of an attributed string's run.
        let text = ArchivedAttributedString(
            string: "a\tb",
            runs: [.init(range: 0..<3, attributes: ["NSParagraphStyle": .paragraphStyle(style)])])
        let archived = try KeyedArchiver.archivedData(withRootObject: AnyArchived.attributedString(text))
        #expect(try rootAny(archived) == .attributedString(text))

        let bad = try handArchive([
            object(2, [("NSAlignment", .uid(3))]), classes(["NSParagraphStyle", "NSObject"]), "center",
        ])
        let e = thrown { _ = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedParagraphStyle.self, from: bad) }
        #expect(e?.code == .corrupted && e?.className == "NSParagraphStyle")
    }

    /// An NSFontDescriptor in Apple's layout: its attributes dictionary.
    func appleFontDescriptor() throws -> Data {
        try handArchive([
            object(2, [("NSFontDescriptorAttributes", .uid(3))]), classes(["NSFontDescriptor", "NSObject"]),
            object(4, [("NS.keys", [.uid(5), .uid(6)]), ("NS.objects", [.uid(7), .uid(8)])]),
            classes(["NSMutableDictionary", "NSDictionary", "NSObject"]), "NSFontNameAttribute", "NSFontSizeAttribute",
            "Helvetica-Bold", .real(12),
        ])
    }

    /// The hand-built Apple-layout archives, read as typed values and archived again, give the
    /// same object graph: the same classes, keys and values (nothing renamed, dropped or added).
    @Test func appleLayoutsArchiveBackUnchanged() throws {
        let translate: [UInt8] = [
            0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3F, 0x80, 0, 0, 0x41, 0x20, 0, 0, 0x41, 0xA0, 0, 0,
        ]
        let samples: [(String, Data)] = [
            ("NSDecimalNumber", try decimalArchive(exponent: -2, length: 1, negative: true, mantissa: [0x39, 0x30])),
            (
                "NSAffineTransform",
                try handArchive([
                    object(2, [("NSTransformStruct", .uid(3))]), classes(["NSAffineTransform", "NSObject"]),
                    .data(Data(translate)),
                ])
            ),
            ("NSMutableParagraphStyle", try appleParagraphStyle()),
            ("NSFontDescriptor", try appleFontDescriptor()),
            (
                "NSPersonNameComponents",
                try handArchive([
                    object(
                        2,
                        [
                            ("NS.namePrefix", .uid(0)), ("NS.givenName", .uid(3)), ("NS.middleName", .uid(0)),
                            ("NS.familyName", .uid(4)), ("NS.nameSuffix", .uid(0)), ("NS.nickname", .uid(0)),
                        ]),
                    classes(["NSPersonNameComponents", "NSObject"]), "Ada", "Lovelace",
                ])
            ),
        ]
        for (name, original) in samples {
            let value = try rootAny(original)
            #expect(value.typedDescription?.className == name, "\(name): \(value)")
            let again = try KeyedArchiver.archivedData(withRootObject: value)
            #expect(try ArchiveGraphEquivalence.same(original, again), "\(name) is not archived back as it was")
        }
    }

    @Test func fontDescriptorsKeepTheirAttributes() throws {
        let apple = try appleFontDescriptor()
        let descriptor = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedFontDescriptor.self, from: apple)
        #expect(descriptor.fontName == "Helvetica-Bold" && descriptor.pointSize == 12 && descriptor.options == nil)
        #expect(descriptor.description == "Helvetica-Bold 12pt")
        #expect(try rootAny(apple) == .fontDescriptor(descriptor))

        let ui = ArchivedFontDescriptor(
            attributes: ["NSCTFontUIUsageAttribute": .string("CTFontRegularUsage"), "NSFontSizeAttribute": .real(17)],
            options: 2_147_483_648, isUIFontDescriptor: true)
        let data = try KeyedArchiver.archivedData(withRootObject: ui)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedFontDescriptor.self, from: data) == ui)
        #expect(Set(try rootFields(data).keys) == ["UIFontDescriptorAttributes", "UIFontDescriptorOptions"])

        // A UIFont holding its descriptor still reads as the font it names.
        let font = try handArchive([
            object(
                2,
                [
                    ("UIFontName", .uid(3)), ("UIFontPointSize", .real(17)), ("UIFontDescriptor", .uid(4)),
                    ("UIFontTraits", 0),
                ]),
            classes(["UIFont", "NSObject"]), ".SFUI-Regular",
            object(5, [("UIFontDescriptorAttributes", .uid(0)), ("UIFontDescriptorOptions", 2_147_483_648)]),
            classes(["UIFontDescriptor", "NSObject"]),
        ])
        #expect(
            try rootAny(font) == .font(ArchivedFont(name: ".SFUI-Regular", size: 17, isUIFont: true)))
    }

    /// Every field of the new typed classes holding a value of the wrong kind (or out of range):
    /// the typed decode succeeds or throws a `KeyedArchiveError` naming the class, and the
    /// `AnyArchived` decode never fails for it (an unknown layout stays an instance).
    @Test func wrongFieldKindsAreErrorsNotCrashes() throws {
        let layouts: [([String], [String])] = [
            (
                ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
                ["NS.exponent", "NS.length", "NS.negative", "NS.compact", "NS.mantissa.bo", "NS.mantissa"]
            ),
            (["NSError", "NSObject"], ["NSDomain", "NSCode", "NSUserInfo"]),
            (["NSAffineTransform", "NSObject"], ["NSTransformStruct"]),
            (["NSPersonNameComponents", "NSObject"], ["NS.givenName", "NS.familyName", "NS.nickname"]),
            (
                ["NSParagraphStyle", "NSObject"],
                ["NSAlignment", "NSLineSpacing", "NSHeaderLevel", "NSTabStops", "NSWritingDirection", "NSTextLists"]
            ),
            (["NSFontDescriptor", "NSObject"], ["NSFontDescriptorAttributes", "NSFontDescriptorOptions"]),
        ]
        let wrong: [PlistValue] = [
            .uid(3), .integer(PlistInteger(Int64.max)), .integer(-200), .real(.nan), .real(1e300), .bool(true),
            .uid(4),
        ]
        for (chain, keys) in layouts {
            for key in keys {
                for value in wrong {
                    let data = try handArchive([
                        object(2, keys.map { ($0, $0 == key ? value : .integer(1)) }), classes(chain), "text",
                        .data(Data([1, 2, 3])),
                    ])
                    let any = try rootAny(data)
                    func check<T: KeyedArchiveValue>(_ type: T.Type) {
                        do {
                            _ = try KeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data)
                        } catch let e as KeyedArchiveError {
                            #expect(e.className == chain[0], "\(chain[0]).\(key) = \(value): \(e)")
                        } catch {
                            Issue.record("\(chain[0]).\(key) = \(value): not a KeyedArchiveError: \(error)")
                        }
                    }
                    switch chain[0] {
                    case "NSDecimalNumber": check(Decimal.self)
                    case "NSError": check(ArchivedError.self)
                    case "NSAffineTransform": check(ArchivedAffineTransform.self)
                    case "NSPersonNameComponents": check(ArchivedPersonNameComponents.self)
                    case "NSParagraphStyle": check(ArchivedParagraphStyle.self)
                    default: check(ArchivedFontDescriptor.self)
                    }
                    // The value, typed or not, describes itself without trapping.
                    _ = any.typedDescription
                }
            }
        }
    }

    /// An archive of the six new typed values, every byte changed three ways: each mutation reads
    /// as a value or fails with a `KeyedArchiveError` (as ``AnyArchived`` and as the typed array).
    @Test func everySingleByteMutationOfTheNewValuesIsAValueOrATypedError() throws {
        var style = ArchivedParagraphStyle(alignment: 1, tabStops: [.init(location: 36, alignment: 2)])
        style.headerLevel = 2
        let values: [AnyArchived] = [
            .decimal(Decimal(string: "-1234567890.123") ?? 0),
            .error(ArchivedError(domain: "D", code: 3, userInfo: ["NSLocalizedDescription": .string("x")])),
            .affineTransform(ArchivedAffineTransform(m11: 1, m12: 2, m21: 3, m22: 4, tX: 5, tY: 6)),
            .personNameComponents(ArchivedPersonNameComponents(givenName: "A", nickname: "B")),
            .paragraphStyle(style),
            .fontDescriptor(ArchivedFontDescriptor(attributes: ["NSFontNameAttribute": .string("Menlo")], options: 1)),
        ]
        let data = try KeyedArchiver.archivedData(withRootObject: AnyArchived.array(values))
        #expect(try rootAny(data) == .array(values))
        var outcomes = 0
        for i in 8..<data.count {
            for delta: UInt8 in [1, 0x80, 0xFF] {
                var m = data
                m[m.startIndex + i] &+= delta
                for decode in [
                    { _ = try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: m) },
                    { _ = try KeyedUnarchiver.unarchivedObject(ofClass: [AnyArchived].self, from: m) },
                ] as [() throws -> Void] {
                    do {
                        try decode()
                        outcomes += 1
                    } catch is KeyedArchiveError {
                        outcomes += 1
                    } catch {
                        Issue.record("byte \(i) + \(delta): \(error)")
                    }
                }
            }
        }
        #expect(outcomes == (data.count - 8) * 6)
    }
}
