// Sources/KeyedArchive/FoundationValues/FoundationValueTypes.swift - NSIndexPath, NSIndexSet,
// NSLocale, NSTimeZone, NSValue (geometry), NSRegularExpression, NSNull.
//
// Layouts (keyed):
//   NSIndexPath          NSIndexPathLength: n; n == 1: NSIndexPathValue; n > 1: NSIndexPathData
//                        (the indexes as unsigned LEB128 varints)
//   NSIndexSet,          NSRangeCount: n; n == 1: NSLocation, NSLength; n > 1: NSRangeData
//   NSMutableIndexSet    (location, length pairs as varints)
//   NSLocale             NS.identifier
//   NSTimeZone           NS.name, NS.data (the TZif rules, optional)
//   NSValue              NS.special: 1 point NS.pointval "{x, y}", 2 size NS.sizeval "{w, h}",
//                        3 rect NS.rectval "{{x, y}, {w, h}}", 4 range NS.rangeval.location /
//                        NS.rangeval.length, 12 edge insets NS.edgeval.top/left/bottom/right
//   NSRegularExpression  NSPattern, NSOptions
//   NSNull               no fields

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

// MARK: - NSIndexPath ↔ IndexPath

extension IndexPath: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSIndexPath"]

    static func fromFields(_ f: ValueFields) -> IndexPath? {
        let length = f.int("NSIndexPathLength") ?? 0
        switch length {
        case 0: return IndexPath()
        case 1: return f.int("NSIndexPathValue").map { IndexPath(index: $0) }
        default:
            guard let data = f.data("NSIndexPathData"), let indexes = Varint.decode(data), indexes.count == length
            else { return nil }
            return IndexPath(indexes: indexes)
        }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        var fields = [("NSIndexPathLength", archiver.inline(count))]
        if count == 1, let first {
            fields.append(("NSIndexPathValue", archiver.inline(first)))
        } else if count > 1 {
            fields.append(("NSIndexPathData", try archiver.object(Varint.encode(Array(self)))))
        }
        return ("NSIndexPath", ["NSIndexPath", "NSObject"], fields)
    }
}

// MARK: - NSIndexSet

/// The indexes of an `NSIndexSet` / `NSMutableIndexSet`, as sorted ranges.
public struct ArchivedIndexSet: Hashable, Sendable {
    /// The ranges of consecutive indexes, in order.
    public var ranges: [Range<Int>]
    /// Whether the archived object is an `NSMutableIndexSet` (written back as one).
    public var isMutable: Bool

    /// An index set of `ranges`.
    public init(ranges: [Range<Int>], isMutable: Bool = false) {
        self.ranges = ranges
        self.isMutable = isMutable
    }

    /// Every index, in order.
    public var indexes: [Int] { ranges.flatMap { Array($0) } }
    /// The number of indexes.
    public var count: Int { ranges.reduce(0) { $0 + $1.count } }
}

extension ArchivedIndexSet: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSIndexSet", "NSMutableIndexSet"]

    static func fromFields(_ f: ValueFields) -> ArchivedIndexSet? {
        let mutable = f.className == "NSMutableIndexSet"
        let count = f.int("NSRangeCount") ?? 0
        switch count {
        case 0: return ArchivedIndexSet(ranges: [], isMutable: mutable)
        case 1:
            guard let location = f.int("NSLocation"), let length = f.int("NSLength"), location >= 0, length >= 0,
                location <= Int.max - length
            else { return nil }
            return ArchivedIndexSet(ranges: [location..<location + length], isMutable: mutable)
        default:
            guard let data = f.data("NSRangeData"), let numbers = Varint.decode(data), numbers.count == 2 * count
            else { return nil }
            var ranges: [Range<Int>] = []
            for i in stride(from: 0, to: numbers.count, by: 2) {
                guard numbers[i] <= Int.max - numbers[i + 1] else { return nil }
                ranges.append(numbers[i]..<numbers[i] + numbers[i + 1])
            }
            return ArchivedIndexSet(ranges: ranges, isMutable: mutable)
        }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        var fields = [("NSRangeCount", archiver.inline(ranges.count))]
        if ranges.count == 1, let r = ranges.first {
            fields.append(("NSLocation", archiver.inline(r.lowerBound)))
            fields.append(("NSLength", archiver.inline(r.count)))
        } else if ranges.count > 1 {
            let numbers = ranges.flatMap { [$0.lowerBound, $0.count] }
            fields.append(("NSRangeData", try archiver.object(Varint.encode(numbers))))
        }
        let chain = isMutable ? ["NSMutableIndexSet", "NSIndexSet", "NSObject"] : ["NSIndexSet", "NSObject"]
        return (chain[0], chain, fields)
    }
}

// MARK: - NSLocale ↔ Locale

extension Locale: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSLocale"]

    static func fromFields(_ f: ValueFields) -> Locale? {
        f.string("NS.identifier").map { Locale(identifier: $0) }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        ("NSLocale", ["NSLocale", "NSObject"], [("NS.identifier", try archiver.object(identifier))])
    }
}

/// An `NSLocale` as archived: its identifier, kept exactly (a `Locale` may normalise it).
public struct ArchivedLocale: Hashable, Sendable {
    /// `NS.identifier` (`"en_US"`, or `""` for the system locale).
    public var identifier: String
    /// A locale of `identifier`.
    public init(identifier: String) { self.identifier = identifier }
    /// The `Locale` of the identifier.
    public var locale: Locale { Locale(identifier: identifier) }
}

extension ArchivedLocale: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSLocale"]

    static func fromFields(_ f: ValueFields) -> ArchivedLocale? {
        f.string("NS.identifier").map { ArchivedLocale(identifier: $0) }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        ("NSLocale", ["NSLocale", "NSObject"], [("NS.identifier", try archiver.object(identifier))])
    }
}

// MARK: - NSTimeZone

/// An `NSTimeZone` as archived: its name and, when present, its rules (TZif bytes).
public struct ArchivedTimeZone: Hashable, Sendable {
    /// `NS.name`: the identifier (`"Europe/Paris"`, `"GMT"`).
    public var name: String
    /// `NS.data`: the zone's rules as a TZif file, when archived.
    public var data: Data?

    /// A time zone named `name`.
    public init(name: String, data: Data? = nil) {
        self.name = name
        self.data = data
    }

    /// The `TimeZone` of that name, when this platform knows it.
    public var timeZone: TimeZone? { TimeZone(identifier: name) }
}

extension ArchivedTimeZone: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSTimeZone"]

    static func fromFields(_ f: ValueFields) -> ArchivedTimeZone? {
        f.string("NS.name").map { ArchivedTimeZone(name: $0, data: f.data("NS.data")) }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        // NS.data is written even without rules ($null), as Apple's archiver does.
        let fields = [("NS.name", try archiver.object(name)), ("NS.data", try archiver.object(data))]
        return ("NSTimeZone", ["NSTimeZone", "NSObject"], fields)
    }
}

extension TimeZone: KeyedArchiveValue {
    /// Archived as an `NSTimeZone` with its name.
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        try ArchivedTimeZone(name: identifier).encodeArchiveValue(to: archiver)
    }

    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> TimeZone
    {
        let archived = try ArchivedTimeZone.decodeArchiveValue(value, from: unarchiver)
        guard let zone = archived.timeZone else {
            throw unarchiver.error(.corrupted, "time zone \"\(archived.name)\" is not known on this platform")
        }
        return zone
    }
}

// MARK: - NSValue (geometry)

/// The geometry an `NSValue` holds: a point, size, rectangle, range or edge insets.
public enum ArchivedGeometry: Hashable, Sendable {
    /// `NSPoint` / `CGPoint` (NS.special 1).
    case point(x: Double, y: Double)
    /// `NSSize` / `CGSize` (NS.special 2).
    case size(width: Double, height: Double)
    /// `NSRect` / `CGRect` (NS.special 3).
    case rect(x: Double, y: Double, width: Double, height: Double)
    /// `NSRange` (NS.special 4).
    case range(location: Int, length: Int)
    /// `NSEdgeInsets` (NS.special 12).
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double)
}

extension ArchivedGeometry: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSValue", "NSConcreteValue"]

    static func fromFields(_ f: ValueFields) -> ArchivedGeometry? {
        func numbers(_ key: String, _ n: Int) -> [Double]? {
            guard let s = f.string(key) else { return nil }
            let v = NumberText.parse(s)
            return v.count == n ? v : nil
        }
        switch f.int("NS.special") {
        case 1: return numbers("NS.pointval", 2).map { .point(x: $0[0], y: $0[1]) }
        case 2: return numbers("NS.sizeval", 2).map { .size(width: $0[0], height: $0[1]) }
        case 3: return numbers("NS.rectval", 4).map { .rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        case 4:
            guard let l = f.int("NS.rangeval.location"), let n = f.int("NS.rangeval.length") else { return nil }
            return .range(location: l, length: n)
        case 12:
            guard let t = f.double("NS.edgeval.top"), let l = f.double("NS.edgeval.left"),
                let b = f.double("NS.edgeval.bottom"), let r = f.double("NS.edgeval.right")
            else { return nil }
            return .edgeInsets(top: t, left: l, bottom: b, right: r)
        default: return nil
        }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        let t = NumberText.format
        let fields: [(String, ArchivedValue)]
        switch self {
        case .point(let x, let y):
            fields = [("NS.special", archiver.inline(1)), ("NS.pointval", try archiver.object("{\(t(x)), \(t(y))}"))]
        case .size(let w, let h):
            fields = [("NS.special", archiver.inline(2)), ("NS.sizeval", try archiver.object("{\(t(w)), \(t(h))}"))]
        case .rect(let x, let y, let w, let h):
            fields = [
                ("NS.special", archiver.inline(3)),
                ("NS.rectval", try archiver.object("{{\(t(x)), \(t(y))}, {\(t(w)), \(t(h))}}")),
            ]
        case .range(let l, let n):
            fields = [
                ("NS.special", archiver.inline(4)), ("NS.rangeval.location", try archiver.object(l)),
                ("NS.rangeval.length", try archiver.object(n)),
            ]
        case .edgeInsets(let top, let left, let bottom, let right):
            fields = [
                ("NS.special", archiver.inline(12)), ("NS.edgeval.top", archiver.inline(top)),
                ("NS.edgeval.left", archiver.inline(left)), ("NS.edgeval.bottom", archiver.inline(bottom)),
                ("NS.edgeval.right", archiver.inline(right)),
            ]
        }
        return ("NSValue", ["NSValue", "NSObject"], fields)
    }
}

// MARK: - NSRegularExpression

/// An `NSRegularExpression`: its pattern and options (`NSRegularExpression.Options` raw value).
public struct ArchivedRegularExpression: Hashable, Sendable {
    /// `NSPattern`.
    public var pattern: String
    /// `NSOptions`: caseInsensitive 1, allowCommentsAndWhitespace 2, ignoreMetacharacters 4,
    /// dotMatchesLineSeparators 8, anchorsMatchLines 16, useUnixLineSeparators 32,
    /// useUnicodeWordBoundaries 64.
    public var options: Int

    /// A regular expression of `pattern`.
    public init(pattern: String, options: Int = 0) {
        self.pattern = pattern
        self.options = options
    }
}

extension ArchivedRegularExpression: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSRegularExpression"]

    static func fromFields(_ f: ValueFields) -> ArchivedRegularExpression? {
        f.string("NSPattern").map { ArchivedRegularExpression(pattern: $0, options: f.int("NSOptions") ?? 0) }
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        (
            "NSRegularExpression", ["NSRegularExpression", "NSObject"],
            [("NSPattern", try archiver.object(pattern)), ("NSOptions", archiver.inline(options))]
        )
    }
}

// MARK: - NSNull

/// `NSNull`: the object that stands for nothing inside collections (unlike `$null`, which is nil).
public struct ArchivedNull: Hashable, Sendable {
    /// The null object.
    public init() {}
}

extension ArchivedNull: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSNull"]

    static func fromFields(_ f: ValueFields) -> ArchivedNull? { ArchivedNull() }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        ("NSNull", ["NSNull", "NSObject"], [])
    }
}
