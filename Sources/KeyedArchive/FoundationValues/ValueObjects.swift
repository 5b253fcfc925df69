// Sources/KeyedArchive/FoundationValues/ValueObjects.swift - The shared machinery of the typed
// Foundation and AppKit value classes (NSNull, NSValue, NSIndexPath, NSIndexSet, NSLocale,
// NSTimeZone, NSRegularExpression, NSColor, NSFont, NSAttributedString, …).
//
// Each class has one interpretation, here: a decoder from the object's fields (decoded as
// `AnyArchived`) to a Swift value, and an encoder writing Apple's layout back. The unarchiver
// (`decode(T.self, …)`, `AnyArchived`), `KeyedArchiveGraph` and the tool all go through them.
// Layouts: see each type; facts from Apple-made archives in the shared corpus and the public
// swift-corelibs-foundation and GNUstep sources (read, not copied).

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fields of a value-class object, decoded.
struct ValueFields {
    var className: String
    var chain: [String]
    var uid: Int
    var fields: [String: AnyArchived]

    subscript(key: String) -> AnyArchived? { fields[key] }

    func int(_ key: String) -> Int? {
        switch fields[key] {
        case .integer(let i): i
        case .bool(let b): b ? 1 : 0
        case .real(let d): Int(exactly: d)
        default: nil
        }
    }

    func double(_ key: String) -> Double? {
        switch fields[key] {
        case .integer(let i): Double(i)
        case .real(let d): d
        default: nil
        }
    }

    func string(_ key: String) -> String? {
        if case .string(let s)? = fields[key] { return s }
        return nil
    }

    func data(_ key: String) -> Data? {
        if case .data(let d)? = fields[key] { return d }
        return nil
    }
}

/// A typed Foundation value class: how it is read from its fields and written back.
protocol ArchivedValueClass: ReaderDecodable, SendableMetatype {
    /// The class names read as this type (the first is written unless the value says otherwise).
    static var valueClassNames: [String] { get }
    /// The value, or `nil` when the fields are not a layout this package knows.
    static func fromFields(_ f: ValueFields) -> Self?
    /// The class name, `$classes`, and fields to write.
    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    )
}

extension ArchivedValueClass {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let (name, chain, fields) = try archiveFields(to: archiver)
        return ArchivedValue(
            ref: try archiver.valueObject(name, chain: chain, fields: fields.map { ($0.0, $0.1.ref) }),
            isReference: true)
    }

    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }

    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        let expected = valueClassNames[0]
        guard let f = try unarchiver.valueFields(reader, value, classNames: valueClassNames, expected: expected) else {
            throw unarchiver.error(.typeMismatch, uid: 0, "expected \(expected), found $null")
        }
        guard let v = fromFields(f) else {
            throw unarchiver.error(
                .corrupted, uid: f.uid, className: f.className,
                "the \(f.className) at UID \(f.uid) has an unknown layout")
        }
        return v
    }
}

extension KeyedArchiver {
    /// Adds `{$class: UID(class), key: value, …}` for a value class (equal objects share one UID).
    func valueObject(_ className: String, chain: [String], fields: [(String, BuilderRef)]) throws -> BuilderRef {
        let cls = try state.classUID(named: className, chain: chain)
        return try state.foundationObject(
            classUID: cls, classKey: classKey, keys: fields.map(\.0), values: fields.map(\.1))
    }

    /// An inline integer field.
    func inline(_ i: Int) -> ArchivedValue { ArchivedValue(ref: state.builder.addInt(i), isReference: false) }
    /// An inline real field.
    func inline(_ d: Double) -> ArchivedValue { ArchivedValue(ref: state.builder.addReal(d), isReference: false) }
    /// A field holding an object (string, data, collection…) by reference.
    func object(_ v: some KeyedArchiveValue) throws -> ArchivedValue {
        ArchivedValue(ref: try elementReference(v), isReference: true)
    }
}

extension KeyedUnarchiver {
    /// The fields of a value-class object of one of `classNames`, decoded; `nil` for `$null`.
    func valueFields(_ r: borrowing PlistReader, _ value: UnarchivedValue, classNames: [String], expected: String)
        throws -> ValueFields?
    {
        guard let f = try foundationObject(r, value, classNames: classNames, expected: expected) else { return nil }
        let info = try classInfo(r, keys: f.keys, values: f.values, uid: f.uid)
        return try valueFields(r, keys: f.keys, values: f.values, uid: f.uid, info: info)
    }

    /// The fields of an object dictionary, each decoded as `AnyArchived` now (one level deeper).
    func valueFields(_ r: borrowing PlistReader, keys: ReferenceList, values: ReferenceList, uid: Int, info: ClassInfo)
        throws -> ValueFields
    {
        try nestedCollection(uid: uid) { () throws -> ValueFields in
            var fields: [String: AnyArchived] = [:]
            for i in 0..<keys.count {
                guard let stored = try string(r, r.reference(at: i, in: keys)) else {
                    throw error(.corrupted, uid: uid, "key \(i) of the object at UID \(uid) is not a string")
                }
                guard let key = ArchiveVocabulary.unescape(stored) else { continue }
                path.append(.key(key))
                defer { path.removeLast() }
                fields[key] = try decodeAny(r, UnarchivedValue(ref: r.reference(at: i, in: values)))
            }
            return ValueFields(className: info.name, chain: info.chain, uid: uid, fields: fields)
        }
    }
}

// MARK: - Varints (NSIndexPathData, NSRangeData, NSAttributeInfo)

enum Varint {
    /// Unsigned LEB128 numbers, 7 bits a byte, low group first. `nil` when truncated or too large.
    static func decode(_ data: Data) -> [Int]? {
        var out: [Int] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in data {
            guard shift < 63 || (shift == 63 && byte & 0x7E == 0) else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                guard let v = Int(exactly: value) else { return nil }
                out.append(v)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return shift == 0 ? out : nil
    }

    static func encode(_ values: [Int]) -> Data {
        var out = Data()
        for v in values {
            var u = UInt64(clamping: v)
            repeat {
                let low = UInt8(u & 0x7F)
                u >>= 7
                out.append(u == 0 ? low : low | 0x80)
            } while u != 0
        }
        return out
    }
}

// MARK: - Numbers in text (NSRGB, NS.rectval)

enum NumberText {
    /// `1` for integral values, else the shortest text that reads back as the same double.
    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// The numbers in a text such as `"{{1, 2}, {3, 4}}"` or `"0.1 0.2 0.3"`.
    static func parse(_ s: String) -> [Double] {
        var out: [Double] = []
        var current = ""
        for c in s {
            if c.isNumber || c == "." || c == "-" || c == "e" || c == "E" || c == "+" {
                current.append(c)
            } else {
                if let d = Double(current) { out.append(d) }
                current = ""
            }
        }
        if let d = Double(current) { out.append(d) }
        return out
    }
}
