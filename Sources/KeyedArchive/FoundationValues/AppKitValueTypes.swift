// Sources/KeyedArchive/FoundationValues/AppKitValueTypes.swift - NSColor / UIColor, NSFont /
// UIFont, NSAttributedString / NSMutableAttributedString.
//
// Layouts (keyed):
//   NSColor   NSColorSpace: 1 calibrated RGB, 2 device RGB (NSRGB), 3 calibrated white,
//             4 device white (NSWhite), 5 device CMYK (NSCMYK), 6 named (NSCatalogName,
//             NSColorName, NSColor: the colour it stands for), 10 a component colour space
//             (NSComponents, NSCustomColorSpace: an NSColorSpace with NSICC / NSID), usually with
//             NSRGB or NSWhite as well. The component fields are ASCII numbers separated by
//             spaces (NSRGB and NSWhite end with a NUL byte); a missing alpha is 1.
//   UIColor   UIColorComponentCount, UIRed, UIGreen, UIBlue, UIAlpha, or UIWhite, UIAlpha.
//   NSFont    NSName, NSSize, NSfFlags.   UIFont: UIFontName, UIFontPointSize.
//   NSAttributedString  NSString; NSAttributes: one dictionary (for the whole string), or an
//             array of distinct dictionaries with NSAttributeInfo: varint pairs (run length in
//             UTF-16 units, index into NSAttributes).

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

// MARK: - NSColor / UIColor

/// A colour archived by AppKit (`NSColor`) or UIKit (`UIColor`).
public struct ArchivedColor: Hashable, Sendable {
    /// `NSColorSpace`: 1 calibrated RGB, 2 device RGB, 3 calibrated white, 4 device white,
    /// 5 device CMYK, 6 named, 10 component-based (``spaceComponents`` in ``iccProfile``'s space).
    public var colorSpace: Int
    /// The components of `NSRGB` (red, green, blue, alpha), `NSWhite` (white, alpha) or `NSCMYK`
    /// (cyan, magenta, yellow, black, alpha), as archived (alpha may be absent: then 1).
    public var components: [Double]
    /// `NSComponents`: the components in the colour's own colour space (space 10).
    public var spaceComponents: [Double]?
    /// `NSCustomColorSpace`'s `NSICC` profile, when archived.
    public var iccProfile: Data?
    /// `NSCustomColorSpace`'s `NSID` (a standard colour space number), when archived.
    public var colorSpaceID: Int?
    /// `NSCatalogName` and `NSColorName` of a named colour (space 6).
    public var catalogName: String?
    public var colorName: String?
    /// Whether the archived object is a `UIColor`.
    public var isUIColor: Bool

    /// A colour in `colorSpace` with `components`.
    public init(
        colorSpace: Int, components: [Double], spaceComponents: [Double]? = nil, iccProfile: Data? = nil,
        colorSpaceID: Int? = nil, catalogName: String? = nil, colorName: String? = nil, isUIColor: Bool = false
    ) {
        self.colorSpace = colorSpace
        self.components = components
        self.spaceComponents = spaceComponents
        self.iccProfile = iccProfile
        self.colorSpaceID = colorSpaceID
        self.catalogName = catalogName
        self.colorName = colorName
        self.isUIColor = isUIColor
    }

    /// A device RGB colour.
    public static func rgb(_ red: Double, _ green: Double, _ blue: Double, alpha: Double = 1) -> ArchivedColor {
        ArchivedColor(colorSpace: 2, components: [red, green, blue, alpha])
    }

    /// Red, green, blue and alpha, for RGB and white colours (`nil` for others).
    public var rgba: (red: Double, green: Double, blue: Double, alpha: Double)? {
        let c = components
        switch c.count {
        case 3,
            4 where colorSpace != 5:
            return (c[0], c[1], c[2], c.count == 4 ? c[3] : 1)
        case 1, 2: return (c[0], c[0], c[0], c.count == 2 ? c[1] : 1)
        default: return nil
        }
    }

    /// `"#RRGGBB"` (or `"#RRGGBBAA"` when not opaque) for RGB and white colours.
    public var hex: String? {
        guard let (r, g, b, a) = rgba else { return nil }
        func byte(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(r) + byte(g) + byte(b) + (a < 1 ? byte(a) : "")
    }
}

extension ArchivedColor: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSColor", "UIColor"]

    static func components(_ data: Data?) -> [Double]? {
        guard var data else { return nil }
        if data.last == 0 { data.removeLast() }
        return NumberText.parse(String(decoding: data, as: UTF8.self))
    }

    static func fromFields(_ f: ValueFields) -> ArchivedColor? {
        if f.className == "UIColor", f["NSColorSpace"] == nil {
            if let w = f.double("UIWhite") {
                return ArchivedColor(colorSpace: 4, components: [w, f.double("UIAlpha") ?? 1], isUIColor: true)
            }
            guard let r = f.double("UIRed"), let g = f.double("UIGreen"), let b = f.double("UIBlue") else { return nil }
            return ArchivedColor(colorSpace: 2, components: [r, g, b, f.double("UIAlpha") ?? 1], isUIColor: true)
        }
        guard let space = f.int("NSColorSpace") else { return nil }
        var color = ArchivedColor(colorSpace: space, components: [], isUIColor: f.className == "UIColor")
        color.components = components(f.data("NSRGB") ?? f.data("NSWhite") ?? f.data("NSCMYK")) ?? []
        color.spaceComponents = components(f.data("NSComponents"))
        color.catalogName = f.string("NSCatalogName")
        color.colorName = f.string("NSColorName")
        if case .object(let custom)? = f["NSCustomColorSpace"] {
            if case .data(let icc)? = custom["NSICC"] { color.iccProfile = icc }
            if case .integer(let id)? = custom["NSID"] { color.colorSpaceID = id }
        }
        if case .color(let fallback)? = f["NSColor"], color.components.isEmpty {
            color.components = fallback.components
        }
        switch space {
        case 1...5, 10: return color.components.isEmpty && color.spaceComponents == nil ? nil : color
        case 6: return color.colorName == nil ? nil : color
        default: return nil
        }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        func text(_ c: [Double], nul: Bool) -> Data {
            Data((c.map(NumberText.format).joined(separator: " ") + (nul ? "\0" : "")).utf8)
        }
        var fields: [(String, ArchivedValue)] = [("NSColorSpace", archiver.inline(colorSpace))]
        if !components.isEmpty {
            let key = components.count <= 2 ? "NSWhite" : (colorSpace == 5 ? "NSCMYK" : "NSRGB")
            fields.append((key, try archiver.object(text(components, nul: key != "NSCMYK"))))
        }
        if let spaceComponents {
            fields.append(("NSComponents", try archiver.object(text(spaceComponents, nul: false))))
        }
        if iccProfile != nil || colorSpaceID != nil {
            var custom: [String: AnyArchived] = [:]
            if let iccProfile { custom["NSICC"] = .data(iccProfile) }
            if let colorSpaceID { custom["NSID"] = .integer(colorSpaceID) }
            let space = ArchivedInstance(className: "NSColorSpace", fields: custom)
            fields.append(("NSCustomColorSpace", try archiver.object(AnyArchived.object(space))))
        }
        if let catalogName { fields.append(("NSCatalogName", try archiver.object(catalogName))) }
        if let colorName { fields.append(("NSColorName", try archiver.object(colorName))) }
        if isUIColor, let (r, g, b, a) = rgba {
            fields.append(("UIColorComponentCount", archiver.inline(4)))
            fields.append(("UIRed", archiver.inline(r)))
            fields.append(("UIGreen", archiver.inline(g)))
            fields.append(("UIBlue", archiver.inline(b)))
            fields.append(("UIAlpha", archiver.inline(a)))
        }
        let name = isUIColor ? "UIColor" : "NSColor"
        return (name, [name, "NSObject"], fields)
    }
}

// MARK: - NSFont / UIFont

/// A font archived by AppKit (`NSFont`) or UIKit (`UIFont`): its PostScript name and size.
public struct ArchivedFont: Hashable, Sendable {
    /// `NSName` / `UIFontName` (`"Monaco"`, `"Helvetica-Bold"`).
    public var name: String
    /// `NSSize` / `UIFontPointSize`, in points.
    public var size: Double
    /// `NSfFlags`, when archived (AppKit's private font flags, kept as they are).
    public var flags: Int?
    /// Whether the archived object is a `UIFont`.
    public var isUIFont: Bool

    /// A font named `name` of `size` points.
    public init(name: String, size: Double, flags: Int? = nil, isUIFont: Bool = false) {
        self.name = name
        self.size = size
        self.flags = flags
        self.isUIFont = isUIFont
    }
}

extension ArchivedFont: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSFont", "UIFont"]

    static func fromFields(_ f: ValueFields) -> ArchivedFont? {
        if let name = f.string("NSName"), let size = f.double("NSSize") {
            return ArchivedFont(name: name, size: size, flags: f.int("NSfFlags"), isUIFont: f.className == "UIFont")
        }
        if let name = f.string("UIFontName"), let size = f.double("UIFontPointSize") {
            return ArchivedFont(name: name, size: size, isUIFont: true)
        }
        return nil
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        if isUIFont {
            return (
                "UIFont", ["UIFont", "NSObject"],
                [("UIFontName", try archiver.object(name)), ("UIFontPointSize", archiver.inline(size))]
            )
        }
        var fields = [("NSName", try archiver.object(name)), ("NSSize", archiver.inline(size))]
        if let flags { fields.append(("NSfFlags", archiver.inline(flags))) }
        return ("NSFont", ["NSFont", "NSObject"], fields)
    }
}

// MARK: - NSAttributedString

/// An attributed string: the text and its attribute runs.
public struct ArchivedAttributedString: Hashable, Sendable {
    /// A run of text sharing one set of attributes.
    public struct Run: Hashable, Sendable {
        /// The run's range, in UTF-16 code units of ``ArchivedAttributedString/string``.
        public var range: Range<Int>
        /// The attributes (`NSFont`, `NSColor`, `NSParagraphStyle`, …), by name.
        public var attributes: [String: AnyArchived]

        public init(range: Range<Int>, attributes: [String: AnyArchived]) {
            self.range = range
            self.attributes = attributes
        }
    }

    /// The text.
    public var string: String
    /// The attribute runs, in order, covering the whole text.
    public var runs: [Run]
    /// Whether the archived object is an `NSMutableAttributedString`.
    public var isMutable: Bool
    /// The index of each run's dictionary in the archived `NSAttributes` array (Apple's writer
    /// does not merge equal dictionaries of different runs): kept so the same layout is written.
    var archivedSlots: [Int]?

    /// An attributed string of `string` with `runs`.
    public init(string: String, runs: [Run], isMutable: Bool = false) {
        self.string = string
        self.runs = runs
        self.isMutable = isMutable
    }

    public static func == (a: ArchivedAttributedString, b: ArchivedAttributedString) -> Bool {
        a.string == b.string && a.runs == b.runs && a.isMutable == b.isMutable
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(string)
        hasher.combine(runs)
        hasher.combine(isMutable)
    }

    /// The text of each run.
    public var runTexts: [String] {
        let units = Array(string.utf16)
        return runs.map { run in
            let r = min(run.range.lowerBound, units.count)..<min(run.range.upperBound, units.count)
            return String(decoding: units[r], as: UTF16.self)
        }
    }
}

extension ArchivedAttributedString: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSAttributedString", "NSMutableAttributedString"]

    static func attributes(_ v: AnyArchived) -> [String: AnyArchived]? {
        guard case .dictionary(let d) = v else { return nil }
        var out: [String: AnyArchived] = [:]
        for (k, value) in d {
            guard case .string(let key) = k else { return nil }
            out[key] = value
        }
        return out
    }

    static func fromFields(_ f: ValueFields) -> ArchivedAttributedString? {
        guard let string = f.string("NSString") else { return nil }
        let mutable = f.className == "NSMutableAttributedString"
        let length = string.utf16.count
        guard let attributesField = f["NSAttributes"] else {
            return ArchivedAttributedString(string: string, runs: [], isMutable: mutable)
        }
        guard let info = f.data("NSAttributeInfo") else {
            guard let whole = attributes(attributesField) else { return nil }
            return ArchivedAttributedString(
                string: string, runs: [Run(range: 0..<length, attributes: whole)], isMutable: mutable)
        }
        guard case .array(let list) = attributesField, let numbers = Varint.decode(info), numbers.count % 2 == 0 else {
            return nil
        }
        let dictionaries = list.compactMap(attributes)
        guard dictionaries.count == list.count else { return nil }
        var runs: [Run] = []
        var slots: [Int] = []
        var at = 0
        for i in stride(from: 0, to: numbers.count, by: 2) {
            let (n, index) = (numbers[i], numbers[i + 1])
            guard index < dictionaries.count, n <= length - at else { return nil }
            runs.append(Run(range: at..<at + n, attributes: dictionaries[index]))
            slots.append(index)
            at += n
        }
        var result = ArchivedAttributedString(string: string, runs: runs, isMutable: mutable)
        result.archivedSlots = slots
        return result
    }

    /// The archived `NSAttributes` array and `NSAttributeInfo` numbers, when the slots kept from
    /// reading still describe the runs (each slot always the same dictionary, every slot used).
    func archivedLayout() -> (attributes: [[String: AnyArchived]], numbers: [Int])? {
        guard let slots = archivedSlots, slots.count == runs.count, let top = slots.max() else { return nil }
        var table: [[String: AnyArchived]?] = Array(repeating: nil, count: top + 1)
        for (run, slot) in zip(runs, slots) {
            if let known = table[slot], known != run.attributes { return nil }
            table[slot] = run.attributes
        }
        let attributes = table.compactMap { $0 }
        guard attributes.count == table.count else { return nil }
        return (attributes, zip(runs, slots).flatMap { [$0.range.count, $1] })
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        func dictionary(_ a: [String: AnyArchived]) -> AnyArchived {
            .dictionary(Dictionary(uniqueKeysWithValues: a.map { (AnyArchived.string($0.key), $0.value) }))
        }
        var fields = [("NSString", try archiver.object(string))]
        if runs.count == 1, let run = runs.first, run.range == 0..<string.utf16.count {
            fields.append(("NSAttributes", try archiver.object(dictionary(run.attributes))))
        } else if !runs.isEmpty {
            var (distinct, numbers) = archivedLayout() ?? ([], [])
            if numbers.isEmpty {
                for run in runs {
                    let index: Int
                    if let i = distinct.firstIndex(of: run.attributes) {
                        index = i
                    } else {
                        distinct.append(run.attributes)
                        index = distinct.count - 1
                    }
                    numbers += [run.range.count, index]
                }
            }
            fields.append(("NSAttributes", try archiver.object(distinct.map(dictionary))))
            fields.append(("NSAttributeInfo", try archiver.object(Varint.encode(numbers))))
        }
        let chain =
            isMutable
            ? ["NSMutableAttributedString", "NSAttributedString", "NSObject"] : ["NSAttributedString", "NSObject"]
        return (chain[0], chain, fields)
    }
}
