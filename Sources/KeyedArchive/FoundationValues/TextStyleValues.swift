// Sources/KeyedArchive/FoundationValues/TextStyleValues.swift - NSParagraphStyle /
// NSMutableParagraphStyle, NSFontDescriptor / UIFontDescriptor.
//
// Layouts (keyed):
//   NSParagraphStyle  Each field is written only when it is not the default:
//                     NSAlignment (int: 0 left, 1 right, 2 center, 3 justified, 4 natural),
//                     NSLineBreakMode (int), reals NSLineSpacing, NSParagraphSpacing,
//                     NSHeadIndent, NSFirstLineHeadIndent, NSTailIndent, NSMinLineHeight,
//                     NSMaxLineHeight, NSLineHeightMultiple, NSParagraphSpacingBefore,
//                     NSDefaultTabInterval, NSHyphenationFactor, NSTighteningFactorForTruncation
//                     (default 0.05), NSHeaderLevel (a real); NSTabStops (an array of NSTextTab:
//                     NSLocation, NSTextAlignment, NSType, NSTabOptions; or $null: always
//                     written); NSTextBlocks, NSTextLists
//                     (arrays); NSWritingDirection (1 left to right, 2 right to left, absent:
//                     natural); NSAllowsTighteningForTruncation (int 1); and newer settings
//                     (NSLineBreakStrategy, NSLineBoundsOptions, NSTextHorizontalAlignment, …).
//   NSFontDescriptor  NSFontDescriptorAttributes (a dictionary: NSFontNameAttribute,
//                     NSFontSizeAttribute, NSFontFamilyAttribute, NSCTFontTraitsAttribute, …),
//                     NSFontDescriptorOptions when archived. UIFontDescriptor:
//                     UIFontDescriptorAttributes, UIFontDescriptorOptions.
// Facts from GNUstep libs-gui (NSParagraphStyle.m, NSFontDescriptor.m) and Apple-made archives,
// read, not copied.

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - NSParagraphStyle

/// A paragraph style (`NSParagraphStyle`, `NSMutableParagraphStyle`), as an attributed string's
/// `NSParagraphStyle` attribute holds it.
public struct ArchivedParagraphStyle: Hashable, Sendable {
    /// A tab stop (`NSTextTab`): its location and alignment, and any other archived settings as
    /// they are.
    public struct TabStop: Hashable, Sendable {
        /// `NSLocation`: points from the line's start.
        public var location: Double
        /// `NSTextAlignment` as archived (0 left, 1 right, 2 center, 3 justified, 4 natural), when
        /// archived.
        public var alignment: Int?
        /// The tab's other fields (`NSTabOptions`, `NSType`), by archive key.
        public var otherFields: [String: AnyArchived]

        /// A tab stop at `location`.
        public init(location: Double, alignment: Int? = nil, otherFields: [String: AnyArchived] = [:]) {
            self.location = location
            self.alignment = alignment
            self.otherFields = otherFields
        }
    }

    /// The alignment as archived: 0 left, 1 right, 2 center, 3 justified, 4 natural.
    public var alignment: Int = 0
    /// `NSLineBreakMode`: 0 word wrapping, 1 char wrapping, 2 clipping, 3 truncating head,
    /// 4 truncating tail, 5 truncating middle.
    public var lineBreakMode: Int = 0
    /// `NSLineSpacing`: points added between lines.
    public var lineSpacing: Double = 0
    /// `NSParagraphSpacing`: points added after the paragraph.
    public var paragraphSpacing: Double = 0
    /// `NSHeadIndent`: the leading indent of lines other than the first.
    public var headIndent: Double = 0
    /// `NSFirstLineHeadIndent`: the leading indent of the first line.
    public var firstLineHeadIndent: Double = 0
    /// `NSTailIndent`: the trailing indent (negative: from the trailing margin).
    public var tailIndent: Double = 0
    /// `NSMinLineHeight`.
    public var minimumLineHeight: Double = 0
    /// `NSMaxLineHeight` (0: no maximum).
    public var maximumLineHeight: Double = 0
    /// `NSLineHeightMultiple`.
    public var lineHeightMultiple: Double = 0
    /// `NSParagraphSpacingBefore`: points added before the paragraph.
    public var paragraphSpacingBefore: Double = 0
    /// `NSDefaultTabInterval`: the interval of tab stops after the last one.
    public var defaultTabInterval: Double = 0
    /// `NSHyphenationFactor` (0 to 1).
    public var hyphenationFactor: Double = 0
    /// The tightening factor for truncation, `nil` for the system default (0.05).
    public var tighteningFactorForTruncation: Double?
    /// `NSHeaderLevel` (0: not a heading), archived as a real.
    public var headerLevel: Int = 0
    /// The tab stops, `nil` for the default ones (archived as `$null`).
    public var tabStops: [TabStop]?
    /// `NSWritingDirection`: -1 natural, 0 left to right, 1 right to left.
    public var baseWritingDirection: Int = -1
    /// `NSAllowsTighteningForTruncation`.
    public var allowsDefaultTighteningForTruncation: Bool = false
    /// `NSTextBlocks` (text table blocks, objects of their own), when archived.
    public var textBlocks: [AnyArchived]?
    /// `NSTextLists` (list markers, objects of their own), when archived.
    public var textLists: [AnyArchived]?
    /// Settings this type does not name (line break strategy, composition language, …), by archive
    /// key, written back as they are.
    public var otherFields: [String: AnyArchived] = [:]
    /// Whether the archived object is an `NSMutableParagraphStyle`.
    public var isMutable: Bool = false

    /// The default paragraph style (every setting its default).
    public init() {}

    /// A paragraph style with an alignment and tab stops.
    public init(alignment: Int, tabStops: [TabStop]? = nil, isMutable: Bool = false) {
        self.alignment = alignment
        self.tabStops = tabStops
        self.isMutable = isMutable
    }

    /// The real-valued settings with their archive keys, in archive order.
    static var reals: [(String, WritableKeyPath<ArchivedParagraphStyle, Double>)] {
        [
            ("NSLineSpacing", \.lineSpacing), ("NSParagraphSpacing", \.paragraphSpacing),
            ("NSHeadIndent", \.headIndent),
            ("NSFirstLineHeadIndent", \.firstLineHeadIndent), ("NSTailIndent", \.tailIndent),
            ("NSMinLineHeight", \.minimumLineHeight), ("NSMaxLineHeight", \.maximumLineHeight),
            ("NSLineHeightMultiple", \.lineHeightMultiple), ("NSParagraphSpacingBefore", \.paragraphSpacingBefore),
            ("NSDefaultTabInterval", \.defaultTabInterval), ("NSHyphenationFactor", \.hyphenationFactor),
        ]
    }

    /// Every archive key this type reads into a property (others go to ``otherFields``).
    static let namedKeys: Set<String> = Set(reals.map(\.0)).union([
        "NSAlignment", "NSLineBreakMode", "NSTighteningFactorForTruncation", "NSHeaderLevel", "NSTabStops",
        "NSWritingDirection", "NSAllowsTighteningForTruncation", "NSTextBlocks", "NSTextLists",
    ])
}

extension ArchivedParagraphStyle: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSParagraphStyle", "NSMutableParagraphStyle"]

    static func fromFields(_ f: ValueFields) -> ArchivedParagraphStyle? {
        var s = ArchivedParagraphStyle()
        s.isMutable = f.className == "NSMutableParagraphStyle"
        func integer(_ key: String) -> Int?? {
            guard let v = f[key], v != .null else { return .some(nil) }
            return f.int(key).map { .some($0) }
        }
        guard case .some(let alignment) = integer("NSAlignment"), case .some(let mode) = integer("NSLineBreakMode"),
            case .some(let direction) = integer("NSWritingDirection"),
            case .some(let tightening) = integer("NSAllowsTighteningForTruncation")
        else { return nil }
        s.alignment = alignment ?? 0
        s.lineBreakMode = mode ?? 0
        if let direction {
            guard direction == 1 || direction == 2 else { return nil }
            s.baseWritingDirection = direction - 1
        }
        s.allowsDefaultTighteningForTruncation = (tightening ?? 0) != 0
        for (key, path) in reals {
            guard let v = f[key], v != .null else { continue }
            guard let d = f.double(key) else { return nil }
            s[keyPath: path] = d
        }
        if let v = f["NSTighteningFactorForTruncation"], v != .null {
            guard let d = f.double("NSTighteningFactorForTruncation") else { return nil }
            s.tighteningFactorForTruncation = d
        }
        if let v = f["NSHeaderLevel"], v != .null {
            guard let d = f.double("NSHeaderLevel"), let level = Int(exactly: d) else { return nil }
            s.headerLevel = level
        }
        switch f["NSTabStops"] {
        case nil, .null?: break
        case .array(let tabs)?:
            var stops: [TabStop] = []
            for tab in tabs {
                guard case .object(let o) = tab, o.className == "NSTextTab" else { return nil }
                var other = o.fields
                let location: Double
                switch other.removeValue(forKey: "NSLocation") {
                case .real(let d)?: location = d
                case .integer(let i)?: location = Double(i)
                case nil: location = 0
                default: return nil
                }
                var alignment: Int?
                switch other.removeValue(forKey: "NSTextAlignment") {
                case .integer(let i)?: alignment = i
                case nil: break
                default: return nil
                }
                stops.append(TabStop(location: location, alignment: alignment, otherFields: other))
            }
            s.tabStops = stops
        default: return nil
        }
        for (key, path) in [("NSTextBlocks", \ArchivedParagraphStyle.textBlocks), ("NSTextLists", \.textLists)] {
            switch f[key] {
            case nil, .null?: continue
            case .array(let a)?: s[keyPath: path] = a
            default: return nil
            }
        }
        for (key, value) in f.fields where !namedKeys.contains(key) { s.otherFields[key] = value }
        return s
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        var fields: [(String, ArchivedValue)] = []
        if alignment != 0 { fields.append(("NSAlignment", archiver.inline(alignment))) }
        if lineBreakMode != 0 { fields.append(("NSLineBreakMode", archiver.inline(lineBreakMode))) }
        for (key, path) in Self.reals where self[keyPath: path] != 0 {
            fields.append((key, archiver.inline(self[keyPath: path])))
        }
        if let tighteningFactorForTruncation {
            fields.append(("NSTighteningFactorForTruncation", archiver.inline(tighteningFactorForTruncation)))
        }
        if headerLevel != 0 { fields.append(("NSHeaderLevel", archiver.inline(Double(headerLevel)))) }
        let tabs = tabStops.map { stops in
            AnyArchived.array(
                stops.map { stop in
                    var fields = stop.otherFields
                    fields["NSLocation"] = .real(stop.location)
                    if let alignment = stop.alignment { fields["NSTextAlignment"] = .integer(alignment) }
                    return .object(ArchivedInstance(className: "NSTextTab", fields: fields))
                })
        }
        fields.append(("NSTabStops", try archiver.object(tabs ?? .null)))
        if let textBlocks { fields.append(("NSTextBlocks", try archiver.object(AnyArchived.array(textBlocks)))) }
        if let textLists { fields.append(("NSTextLists", try archiver.object(AnyArchived.array(textLists)))) }
        if baseWritingDirection == 0 || baseWritingDirection == 1 {
            fields.append(("NSWritingDirection", archiver.inline(baseWritingDirection + 1)))
        }
        if allowsDefaultTighteningForTruncation {
            fields.append(("NSAllowsTighteningForTruncation", archiver.inline(1)))
        }
        for key in otherFields.keys.sorted() where !Self.namedKeys.contains(key) {
            guard let value = otherFields[key] else { continue }
            fields.append((key, try archiver.object(value)))
        }
        let chain =
            isMutable
            ? ["NSMutableParagraphStyle", "NSParagraphStyle", "NSObject"] : ["NSParagraphStyle", "NSObject"]
        return (chain[0], chain, fields)
    }
}

// MARK: - NSFontDescriptor / UIFontDescriptor

/// A font descriptor (`NSFontDescriptor`, `UIFontDescriptor`): the attributes that describe a
/// font (name, family, size, traits, …).
public struct ArchivedFontDescriptor: Hashable, Sendable {
    /// The attributes, by name (`NSFontNameAttribute`, `NSFontSizeAttribute`,
    /// `NSFontFamilyAttribute`, `NSCTFontTraitsAttribute`, …).
    public var attributes: [String: AnyArchived]
    /// `NSFontDescriptorOptions` / `UIFontDescriptorOptions`, when archived.
    public var options: Int?
    /// Whether the archived object is a `UIFontDescriptor`.
    public var isUIFontDescriptor: Bool

    /// A descriptor of `attributes`.
    public init(attributes: [String: AnyArchived], options: Int? = nil, isUIFontDescriptor: Bool = false) {
        self.attributes = attributes
        self.options = options
        self.isUIFontDescriptor = isUIFontDescriptor
    }

    /// `NSFontNameAttribute`, when present.
    public var fontName: String? {
        if case .string(let s)? = attributes["NSFontNameAttribute"] { return s }
        return nil
    }

    /// `NSFontSizeAttribute`, when present (archived as a number or a string).
    public var pointSize: Double? {
        switch attributes["NSFontSizeAttribute"] {
        case .real(let d)?: return d
        case .integer(let i)?: return Double(i)
        case .string(let s)?: return Double(s)
        default: return nil
        }
    }
}

extension ArchivedFontDescriptor: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSFontDescriptor", "UIFontDescriptor"]

    static func fromFields(_ f: ValueFields) -> ArchivedFontDescriptor? {
        let prefix = f.className == "UIFontDescriptor" ? "UI" : "NS"
        var attributes: [String: AnyArchived] = [:]
        switch f[prefix + "FontDescriptorAttributes"] {
        case nil, .null?: break
        case .dictionary(let d)?:
            for (key, value) in d {
                guard case .string(let k) = key else { return nil }
                attributes[k] = value
            }
        default: return nil
        }
        let optionsKey = prefix + "FontDescriptorOptions"
        if let v = f[optionsKey], v != .null, f.int(optionsKey) == nil { return nil }
        return ArchivedFontDescriptor(
            attributes: attributes, options: f.int(optionsKey), isUIFontDescriptor: prefix == "UI")
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        let prefix = isUIFontDescriptor ? "UI" : "NS"
        let d = AnyArchived.dictionary(
            Dictionary(uniqueKeysWithValues: attributes.map { (AnyArchived.string($0.key), $0.value) }))
        var fields = [(prefix + "FontDescriptorAttributes", try archiver.object(d))]
        if let options { fields.append((prefix + "FontDescriptorOptions", archiver.inline(options))) }
        let name = prefix + "FontDescriptor"
        return (name, [name, "NSObject"], fields)
    }
}
