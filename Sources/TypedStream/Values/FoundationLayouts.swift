// Sources/TypedStream/Values/FoundationLayouts.swift - How Foundation's classes lay out their values
// in a typedstream, and the typed value each one is.
//
// Layouts (the values of the object's groups, in order; facts from python-typedstream's
// `types/foundation.py`, the Messages `attributedBody` write-ups and NeXT's typedstream.m, read, not
// copied):
//   NSString, NSMutableString (v1)         `+` the UTF-8 bytes
//   NSData, NSMutableData (v0)             `i` length, `[Nc]` the bytes
//   NSNumber, NSValue (v0)                 `*` the value's type encoding, then one value of it
//   NSArray, NSMutableArray (v0)           `i` count, then count × `@`
//   NSSet, NSMutableSet (v0)               `I` count, then count × `@`
//   NSDictionary, NSMutableDictionary (v0) `i` count, then count × (`@` key, `@` value)
//   NSDate (v0)                            `d` seconds since 2001-01-01
//   NSURL (v0)                             `c` 1 when relative, then `@` the base NSURL, then `@` the
//                                          NSString
//   NSNull                                 nothing
// Groups do not matter (`@@` or two `@` groups read alike): the values are taken in order.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension TypedObjectSource {
    /// The typed value of an object of class kind `kind` (see ``ClassKind``), or `nil` when the class
    /// has no interpretation or its values are not the layout this package knows.
    mutating func typedValue(kind: ClassKind, _ values: Fields) throws(TypedStreamError) -> AnyArchived? {
        switch kind {
        case .other:
            return nil
        case .string:
            guard values.count == 1, case .string(let d?) = values[0] else { return nil }
            return .string(String(decoding: d, as: UTF8.self))
        case .data:
            guard values.count == 2, let length = values[0].intValue, case .bytes(let d) = values[1],
                d.count == length
            else { return nil }
            return .data(d)
        case .number, .value:
            return try numberValue(values, isNumber: kind == .number)
        case .array, .set:
            guard let count = values.first?.intValue, count == values.count - 1 else { return nil }
            var elements: [AnyArchived] = []
            elements.reserveCapacity(count)
            for v in values.dropFirst() {
                guard case .object(let n) = v else { return nil }
                elements.append(try n.map { (n) throws(TypedStreamError) in try object(n) } ?? .null)
            }
            return kind == .array ? .array(elements) : .set(Set(elements))
        case .dictionary:
            guard let count = values.first?.intValue, count >= 0, count * 2 == values.count - 1 else { return nil }
            var d: [AnyArchived: AnyArchived] = [:]
            d.reserveCapacity(count)
            var i = 1
            while i < values.count {
                guard case .object(let k) = values[i], case .object(let v) = values[i + 1] else { return nil }
                let key = try k.map { (n) throws(TypedStreamError) in try object(n) } ?? .null
                d[key] = try v.map { (n) throws(TypedStreamError) in try object(n) } ?? .null
                i += 2
            }
            return .dictionary(d)
        case .date:
            guard values.count == 1, let t = values[0].doubleValue else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: t))
        case .url:
            return try url(values)
        case .null:
            return values.isEmpty ? .nsNull : nil
        case .attributedString(let mutable):
            return try attributedString(values, mutable: mutable).map { .attributedString($0) }
        case .color:
            return try color(values).map { .color($0) }
        case .font:
            return font(values).map { .font($0) }
        }
    }

    /// NSNumber and NSValue: the type encoding, then a value of it.
    private mutating func numberValue(_ values: Fields, isNumber: Bool) throws(TypedStreamError)
        -> AnyArchived?
    {
        guard values.count == 2, case .cString(let type?) = values[0] else { return nil }
        switch (type, values[1]) {
        case ("c", .integer(let b)) where isNumber && (b == 0 || b == 1):
            // A BOOL: NSNumber's `numberWithBool:` archives as `c`.
            return .bool(b == 1)
        case ("B", .bool(let b)):
            return .bool(b)
        case (_, .integer(let i)):
            return Int(exactly: i).map(AnyArchived.integer)
        case (_, .unsignedInteger(let u)):
            // Above Int.max: no exact typed value; kept as an instance.
            return Int(exactly: u).map(AnyArchived.integer)
        case (_, .float(let f)):
            return .real(Double(f))
        case (_, .double(let d)):
            return .real(d)
        case (_, .structure(let name, let fields)) where !isNumber:
            return TypedLayouts.geometry(name: name, fields).map(AnyArchived.geometry)
        default:
            return nil
        }
    }

    /// NSURL: a relative flag, the base when relative, the string.
    private mutating func url(_ values: Fields) throws(TypedStreamError) -> AnyArchived? {
        guard let flag = values.first?.intValue else { return nil }
        var base: URL?
        let stringIndex: Int
        switch flag {
        case 0 where values.count == 2:
            stringIndex = 1
        case 1 where values.count == 3:
            guard case .object(let b?) = values[1], case .url(let u) = try object(b) else { return nil }
            base = u
            stringIndex = 2
        default:
            return nil
        }
        guard case .object(let s?) = values[stringIndex], case .string(let text) = try object(s),
            let url = URL(string: text, relativeTo: base)
        else { return nil }
        return .url(url)
    }
}

/// The classes with an interpretation, by what they are (decided once per class, by name).
enum ClassKind: Equatable {
    case string, data, number, value, array, set, dictionary, date, url, null, color, font
    case attributedString(mutable: Bool)
    /// A class without an interpretation: an instance.
    case other

    init(_ name: String) { self = Self.byName[name] ?? .other }

    /// The kinds of the classes read as values (one hash instead of a comparison per case).
    private static let byName: [String: ClassKind] = [
        "NSString": .string, "NSMutableString": .string, "NSData": .data, "NSMutableData": .data,
        "NSNumber": .number, "NSValue": .value, "NSArray": .array, "NSMutableArray": .array, "NSSet": .set,
        "NSMutableSet": .set, "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary, "NSDate": .date,
        "NSURL": .url, "NSNull": .null, "NSAttributedString": .attributedString(mutable: false),
        "NSMutableAttributedString": .attributedString(mutable: true), "NSColor": .color, "NSFont": .font,
    ]

    /// Whether the class is read as a value (so that one reaching itself is a cycle) rather than as
    /// an instance.
    var isValue: Bool { self != .other }
}

/// What the layouts share that needs no decoder.
enum TypedLayouts {
    /// The geometry a structure holds: points, sizes, rectangles, ranges and edge insets of
    /// Foundation, AppKit and Core Graphics (`{CGRect={CGPoint=dd}{CGSize=dd}}`, `{_NSRange=QQ}`, …).
    static func geometry(name: String?, _ fields: [TypedStreamValue]) -> ArchivedGeometry? {
        guard let name else { return nil }
        let numbers = fields.compactMap(\.doubleValue)
        switch name {
        case "CGPoint", "_NSPoint", "NSPoint":
            guard fields.count == 2, numbers.count == 2 else { return nil }
            return .point(x: numbers[0], y: numbers[1])
        case "CGSize", "_NSSize", "NSSize":
            guard fields.count == 2, numbers.count == 2 else { return nil }
            return .size(width: numbers[0], height: numbers[1])
        case "CGRect", "_NSRect", "NSRect":
            guard fields.count == 2, case .structure(let n0, let origin) = fields[0],
                case .structure(let n1, let size) = fields[1],
                case .point(let x, let y)? = geometry(name: n0, origin),
                case .size(let w, let h)? = geometry(name: n1, size)
            else { return nil }
            return .rect(x: x, y: y, width: w, height: h)
        case "_NSRange", "NSRange":
            guard fields.count == 2, let location = fields[0].intValue, let length = fields[1].intValue else {
                return nil
            }
            return .range(location: location, length: length)
        case "NSEdgeInsets", "UIEdgeInsets":
            guard fields.count == 4, numbers.count == 4 else { return nil }
            return .edgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
        default:
            return nil
        }
    }
}

extension TypedStreamValue {
    /// The geometry a structure value holds (a point, size, rectangle, range or edge insets of
    /// Foundation, AppKit or Core Graphics), `nil` for other values.
    public var geometry: ArchivedGeometry? {
        guard case .structure(let name, let fields) = self else { return nil }
        return TypedLayouts.geometry(name: name, fields)
    }
}
