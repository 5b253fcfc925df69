// Sources/KeyedArchive/AnyArchived/AnyArchived.swift - Any archived value, for archives of classes we
// have no Swift type for.
//
// Plain values (strings, numbers, data, dates) and the Foundation value classes (NSArray, NSSet,
// NSOrderedSet, NSDictionary, NSDate, NSUUID, NSURL, NSString, NSData and their mutable
// subclasses) become cases of `AnyArchived`; every other archived object becomes one
// `ArchivedInstance` (class name, `$classes`, fields). Instances keep their identity: an object
// referenced from several places is one instance, and cycles through instances are kept (an
// instance is registered before its fields are read, as a two-phase object).

@_spi(Internals) import PropertyList
import Synchronization

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Any value a keyed archive can hold, read without knowing its classes.
///
/// ```swift
/// let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
/// let root = try unarchiver.decode(AnyArchived.self, forKey: KeyedArchiver.rootObjectKey)
/// if case .object(let instance) = root {
///     print(instance.className, instance.fields.keys.sorted())
/// }
/// ```
///
/// The cases whose payload is large (colour, date components, affine transform, name components,
/// paragraph style) are `indirect`, so that a value is small to copy (35 bytes instead of 283).
///
/// Archiving an `AnyArchived` writes the same object graph back: the same class names, chains and
/// fields, with shared instances archived once. Collections and the Foundation values are values:
/// two equal arrays may share one object in the output, as ``KeyedArchiver`` shares equal values,
/// and a mutable collection is written as its immutable class. To rewrite an archive as it was, with
/// its collections' classes and identities, edit it as a ``KeyedArchiveGraph``
/// (<doc:EditingArchives>).
public enum AnyArchived: Hashable, Sendable {
    /// `$null` (`nil` in Objective-C).
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A real (4-byte reals are widened).
    case real(Double)
    /// A string (NSString, NSMutableString).
    case string(String)
    /// Bytes (NSData, NSMutableData).
    case data(Data)
    /// A date (NSDate).
    case date(Date)
    /// A UUID (NSUUID).
    case uuid(UUID)
    /// A URL (NSURL, resolved against its `NS.base`).
    case url(URL)
    /// An ordered collection (NSArray, NSMutableArray).
    case array([AnyArchived])
    /// An unordered collection (NSSet, NSMutableSet).
    case set(Set<AnyArchived>)
    /// An ordered collection of distinct values (NSOrderedSet, NSMutableOrderedSet).
    case orderedSet([AnyArchived])
    /// A dictionary with keys of any kind (NSDictionary, NSMutableDictionary).
    case dictionary([AnyArchived: AnyArchived])
    /// `NSNull`, the object standing for nothing inside collections (not `$null`).
    case nsNull
    /// An index path (NSIndexPath).
    case indexPath(IndexPath)
    /// An index set (NSIndexSet, NSMutableIndexSet).
    case indexSet(ArchivedIndexSet)
    /// A locale (NSLocale), by identifier.
    case locale(ArchivedLocale)
    /// A time zone (NSTimeZone).
    case timeZone(ArchivedTimeZone)
    /// A point, size, rectangle, range or edge insets (NSValue).
    case geometry(ArchivedGeometry)
    /// A regular expression (NSRegularExpression).
    case regularExpression(ArchivedRegularExpression)
    /// A colour (NSColor, UIColor).
    indirect case color(ArchivedColor)
    /// A font (NSFont, UIFont).
    case font(ArchivedFont)
    /// An attributed string (NSAttributedString, NSMutableAttributedString).
    case attributedString(ArchivedAttributedString)
    /// Date components without a calendar or time zone (NSDateComponents).
    indirect case dateComponents(DateComponents)
    /// A decimal number (NSDecimalNumber).
    case decimal(Decimal)
    /// An error: domain, code and user info (NSError).
    case error(ArchivedError)
    /// An affine transform (NSAffineTransform).
    indirect case affineTransform(ArchivedAffineTransform)
    /// The parts of a person's name (NSPersonNameComponents).
    indirect case personNameComponents(ArchivedPersonNameComponents)
    /// A paragraph style (NSParagraphStyle, NSMutableParagraphStyle).
    indirect case paragraphStyle(ArchivedParagraphStyle)
    /// A font descriptor (NSFontDescriptor, UIFontDescriptor).
    case fontDescriptor(ArchivedFontDescriptor)
    /// An object of a class without a Swift type here.
    case object(ArchivedInstance)
}

/// An archived object of a class the reader has no Swift type for: its class, its superclasses
/// and its fields.
///
/// One instance stands for one archived object: decoding an archive in which two objects refer to
/// a third gives both the same `ArchivedInstance`, and a cycle (an object reaching itself) is a
/// cycle of instances. Equality and hashing are by identity.
///
/// Instances are `Sendable`: their properties are kept behind a lock, so a decoded graph (or a
/// `MessageBody`, which holds one) can be handed to other tasks, and each property read or write
/// is atomic. (A sequence of writes that must be seen together is still the caller's to order.)
public final class ArchivedInstance: TwoPhaseKeyedArchivable, ReaderDecodable, Hashable, CustomStringConvertible,
    Sendable
{
    /// What an instance holds, behind its lock.
    struct Contents: Sendable {
        var className: String
        var classChain: [String]
        var fields: [String: AnyArchived]
        var unkeyed: [AnyArchived] = []
        var classVersions: [Int] = []
        var inlineKeys: Set<String> = []
        var origin: Int?
    }

    private let contents: Mutex<Contents>

    /// The archived class name (`$classname`).
    public var className: String {
        get { contents.withLock { $0.className } }
        set { contents.withLock { $0.className = newValue } }
    }
    /// The class and its superclasses (`$classes`), the class first.
    public var classChain: [String] {
        get { contents.withLock { $0.classChain } }
        set { contents.withLock { $0.classChain = newValue } }
    }
    /// The object's fields, by key (unescaped; `$class` is not a field).
    public var fields: [String: AnyArchived] {
        get { contents.withLock { $0.fields } }
        set { contents.withLock { $0.fields = newValue } }
    }
    /// The values the object encoded without a key (`$0`, `$1`, …), in order. A typedstream
    /// (`NSArchiver`) object has only these: its values in the order it wrote them.
    public var unkeyed: [AnyArchived] {
        get { contents.withLock { $0.unkeyed } }
        set { contents.withLock { $0.unkeyed = newValue } }
    }
    /// The version of each class of ``classChain``, when the archive records them (typedstream
    /// archives do); empty for keyed archives, which do not.
    public var classVersions: [Int] {
        get { contents.withLock { $0.classVersions } }
        set { contents.withLock { $0.classVersions = newValue } }
    }
    /// Fields stored as plain property-list arrays or sets inside the object's dictionary (not as
    /// NSArray objects), written back the same way.
    var inlineKeys: Set<String> {
        get { contents.withLock { $0.inlineKeys } }
        set { contents.withLock { $0.inlineKeys = newValue } }
    }

    /// Where the reader found this object: its UID in a keyed archive (set by the unarchiver that
    /// made it; the tool names an instance met inside a typed value by it).
    package var origin: Int? {
        get { contents.withLock { $0.origin } }
        set { contents.withLock { $0.origin = newValue } }
    }

    /// Changes several properties under one hold of the lock.
    func update<R>(_ body: (inout Contents) throws -> R) rethrows -> R {
        try contents.withLock { try body(&$0) }
    }

    /// An object of class `className`.
    ///
    /// - Parameters:
    ///   - className: The class name to archive (`$classname`).
    ///   - classChain: `$classes`; default `[className, "NSObject"]`. The class is added in front
    ///     when the chain does not start with it.
    ///   - fields: The fields, by key.
    public init(className: String, classChain: [String]? = nil, fields: [String: AnyArchived] = [:]) {
        let chain = classChain ?? [className, "NSObject"]
        contents = Mutex(
            Contents(
                className: className, classChain: chain.first == className ? chain : [className] + chain,
                fields: fields))
    }

    /// An empty `NSObject`.
    public convenience init() {
        self.init(className: "NSObject", classChain: ["NSObject"])
    }

    /// The value of a field, `nil` when absent.
    public subscript(key: String) -> AnyArchived? {
        get { contents.withLock { $0.fields[key] } }
        set { contents.withLock { $0.fields[key] = newValue } }
    }

    /// Reads the fields of the object being decoded (used while unarchiving).
    public func decodeFields(from coder: KeyedUnarchiver) throws {
        try coder.decodeDynamicFields(into: self)
    }

    /// Writes the fields, in key order (the class name is written by the archiver).
    public func encode(with coder: KeyedArchiver) throws {
        let (fields, inlineKeys, unkeyed) = contents.withLock { ($0.fields, $0.inlineKeys, $0.unkeyed) }
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            if inlineKeys.contains(key) {
                switch value {
                case .array(let elements):
                    try coder.encode(InlineList(elements: elements, isSet: false), forKey: key)
                    continue
                case .set(let members):
                    try coder.encode(InlineList(elements: Array(members), isSet: true), forKey: key)
                    continue
                default: break
                }
            }
            try coder.encode(value, forKey: key)
        }
        for (i, value) in unkeyed.enumerated() { try coder.encodeRaw(value, storedKey: "$\(i)") }
    }

    /// Reads an archived object of any class that is not a Foundation value class.
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws
        -> ArchivedInstance
    {
        try unarchiver.decodeBorrowing(ArchivedInstance.self, value)
    }

    /// Reads an archived object of any class that is not a Foundation value class, through the
    /// unarchiver's reader.
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> ArchivedInstance {
        let any = try unarchiver.decodeAny(reader, value)
        guard case .object(let instance) = any else {
            throw unarchiver.error(.typeMismatch, "expected an object, found \(any.kindName)")
        }
        return instance
    }

    public static func == (a: ArchivedInstance, b: ArchivedInstance) -> Bool { a === b }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `"<XWZCat: name, age>"`: the class and its field names.
    public var description: String {
        contents.withLock { "<\($0.className): \($0.fields.keys.sorted().joined(separator: ", "))>" }
    }
}

extension AnyArchived: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        switch self {
        case .null: return ArchivedValue(ref: archiver.nullUID, isReference: true)
        case .bool(let b): return try b.encodeArchiveValue(to: archiver)
        case .integer(let i): return try i.encodeArchiveValue(to: archiver)
        case .real(let d): return try d.encodeArchiveValue(to: archiver)
        case .string(let s): return try s.encodeArchiveValue(to: archiver)
        case .data(let d): return try d.encodeArchiveValue(to: archiver)
        case .date(let d): return try d.encodeArchiveValue(to: archiver)
        case .uuid(let u): return try u.encodeArchiveValue(to: archiver)
        case .url(let u): return try u.encodeArchiveValue(to: archiver)
        case .array(let a): return try a.encodeArchiveValue(to: archiver)
        case .set(let s): return try s.encodeArchiveValue(to: archiver)
        case .dictionary(let d): return try d.encodeArchiveValue(to: archiver)
        case .orderedSet(let elements):
            let refs = try archiver.nested { () throws -> [BuilderRef] in
                try elements.map { try archiver.elementReference($0) }
            }
            // One key per element, as Apple's NSOrderedSet writes it.
            return ArchivedValue(
                ref: try archiver.foundationObject(
                    "NSOrderedSet", keys: refs.indices.map { "NS.object.\($0)" }, values: refs),
                isReference: true)
        case .nsNull: return try ArchivedNull().encodeArchiveValue(to: archiver)
        case .indexPath(let v): return try v.encodeArchiveValue(to: archiver)
        case .indexSet(let v): return try v.encodeArchiveValue(to: archiver)
        case .locale(let v): return try v.encodeArchiveValue(to: archiver)
        case .timeZone(let v): return try v.encodeArchiveValue(to: archiver)
        case .geometry(let v): return try v.encodeArchiveValue(to: archiver)
        case .regularExpression(let v): return try v.encodeArchiveValue(to: archiver)
        case .color(let v): return try v.encodeArchiveValue(to: archiver)
        case .font(let v): return try v.encodeArchiveValue(to: archiver)
        case .attributedString(let v): return try v.encodeArchiveValue(to: archiver)
        case .dateComponents(let v): return try v.encodeArchiveValue(to: archiver)
        case .decimal(let v): return try v.encodeArchiveValue(to: archiver)
        case .error(let v): return try v.encodeArchiveValue(to: archiver)
        case .affineTransform(let v): return try v.encodeArchiveValue(to: archiver)
        case .personNameComponents(let v): return try v.encodeArchiveValue(to: archiver)
        case .paragraphStyle(let v): return try v.encodeArchiveValue(to: archiver)
        case .fontDescriptor(let v): return try v.encodeArchiveValue(to: archiver)
        case .object(let instance): return ArchivedValue(ref: archiver.reference(to: instance), isReference: true)
        }
    }

    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws
        -> AnyArchived
    {
        try unarchiver.decodeBorrowing(AnyArchived.self, value)
    }

    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> AnyArchived {
        try unarchiver.decodeAny(reader, value)
    }
}

extension AnyArchived {
    /// A short name of the case (`"string"`, `"object XWZCat"`), for messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .real: "real"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .uuid: "UUID"
        case .url: "URL"
        case .array: "array"
        case .set: "set"
        case .orderedSet: "ordered set"
        case .dictionary: "dictionary"
        case .nsNull: "NSNull"
        case .indexPath: "index path"
        case .indexSet: "index set"
        case .locale: "locale"
        case .timeZone: "time zone"
        case .geometry: "geometry"
        case .regularExpression: "regular expression"
        case .color: "color"
        case .font: "font"
        case .attributedString: "attributed string"
        case .dateComponents: "date components"
        case .decimal: "decimal"
        case .error: "error"
        case .affineTransform: "affine transform"
        case .personNameComponents: "person name components"
        case .paragraphStyle: "paragraph style"
        case .fontDescriptor: "font descriptor"
        case .object(let o): "object \(o.className)"
        }
    }
}

/// A plain property-list array or set of values inside an object's dictionary (not an NSArray).
struct InlineList: KeyedArchiveValue {
    var elements: [AnyArchived]
    var isSet: Bool

    func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let refs = try archiver.nested { () throws -> [BuilderRef] in
            try elements.map { try archiver.elementReference($0) }
        }
        let ref = isSet ? try archiver.state.builder.addSet(refs) : try archiver.state.builder.addArray(refs)
        return ArchivedValue(ref: ref, isReference: false)
    }

    static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> InlineList {
        throw unarchiver.error(.typeMismatch, "an inline list is only written")
    }
}

extension AnyArchived: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string (`NSString`): `try graph.set("dark", at: "root.theme")`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer (`NSNumber`).
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A real (`NSNumber`).
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A boolean (`NSNumber`).
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array (`NSArray`).
    public init(arrayLiteral elements: AnyArchived...) { self = .array(elements) }
    /// A dictionary (`NSDictionary`) with string keys.
    public init(dictionaryLiteral elements: (String, AnyArchived)...) {
        self = .dictionary(Dictionary(elements.map { (AnyArchived.string($0.0), $0.1) }, uniquingKeysWith: { $1 }))
    }
}
