// Sources/KeyedArchive/Archivable/KeyedArchivable.swift - The NSCoding-like protocols.

@_spi(Internals) import PropertyList

/// A class whose instances are archived as keyed objects, like `NSCoding`.
///
/// ```swift
/// final class Dog: KeyedArchivable {
///     static let archiveClassName = "XWZDog"   // optional; default: the Swift type name
///     var name: String
///     init(name: String) { self.name = name }
///     func encode(with coder: KeyedArchiver) throws { try coder.encode(name, forKey: "name") }
///     init(from coder: KeyedUnarchiver) throws { name = try coder.decode(String.self, forKey: "name") }
/// }
/// ```
///
/// An instance referenced from several places is archived once and unarchived as one shared
/// instance. A type whose instances can reach themselves (cycles) must adopt
/// ``TwoPhaseKeyedArchivable``; for any other type a cycle is a `cycle`
/// error when unarchiving.
///
/// Subclasses: a non-final class must mark `init(from:)` `required`; a subclass that should be
/// archived under its own name overrides `class var archiveClassName` and must be registered
/// with the unarchiver (``KeyedUnarchiver/setClass(_:forClassName:)-method``) to be accepted where its
/// superclass is expected.
public protocol KeyedArchivable: AnyObject, KeyedArchiveValue, SendableMetatype {
    /// The class name written in the archive (`$classname`). Default: the Swift type name.
    static var archiveClassName: String { get }
    /// The superclass names written after ``archiveClassName`` in `$classes`. Default: the
    /// ``archiveClassName`` of each superclass that is itself `KeyedArchivable`, nearest first,
    /// then `"NSObject"`, as Apple's archivers end every chain: `Cat: Animal` writes
    /// `[XWZCat, XWZAnimal, NSObject]`. Override it only to name classes Swift does not see
    /// (an Objective-C superclass of the archive's origin).
    static var archiveSuperclassNames: [String] { get }
    /// Writes the instance's fields with the archiver's `encode(_:forKey:)` methods.
    func encode(with coder: KeyedArchiver) throws
    /// Reads the fields back. Throwing aborts the whole unarchive.
    init(from coder: KeyedUnarchiver) throws
}

extension KeyedArchivable {
    public static var archiveClassName: String { String(describing: self) }
    public static var archiveSuperclassNames: [String] {
        var names: [String] = []
        var next: AnyClass? = _getSuperclass(self)
        while let type = next {
            if let archivable = type as? any KeyedArchivable.Type {
                let name = archivable.archiveClassName
                // A subclass that does not override the name inherits it: write it once.
                if name != names.last ?? archiveClassName { names.append(name) }
            }
            next = _getSuperclass(type)
        }
        names.append("NSObject")
        return names
    }
}

/// A class that can take part in reference cycles: it is unarchived in two phases.
///
/// 1. `init()` creates an empty instance, which is registered under its UID at once;
/// 2. ``decodeFields(from:)`` reads the fields.
///
/// Any reference to the object met while its fields (or those of objects it reaches) are being
/// decoded receives the registered instance, so cyclic graphs (a parent and its children pointing
/// back) round-trip. Fields of two-phase objects are decoded from a work queue rather than by
/// recursion, so long chains (linked lists) have no depth limit.
///
/// The contract: inside `decodeFields(from:)`, a two-phase object you receive from the coder may
/// still be empty (its own `decodeFields` may not have run yet): store the reference, do not read
/// its fields. Every object is complete when the top-level decode call returns.
/// ``KeyedArchivable/init(from:)`` is provided (`init()` then `decodeFields(from:)`).
public protocol TwoPhaseKeyedArchivable: KeyedArchivable {
    /// Phase 1: an empty instance.
    init()
    /// Phase 2: reads the fields into the instance.
    func decodeFields(from coder: KeyedUnarchiver) throws
}

extension TwoPhaseKeyedArchivable {
    public init(from coder: KeyedUnarchiver) throws {
        self.init()
        try decodeFields(from: coder)
    }
}

/// A value that can be stored under a key of a keyed archive.
///
/// The package conforms the Swift and Foundation value types (`Bool`, all integer types, `Float`,
/// `Double`, `String`, `Data`, `Date`, `URL`, `UUID`), `Array`, `Set`, `Dictionary` and `Optional`
/// of conforming types, and every ``KeyedArchivable`` class. Scalars are stored inline in the
/// owning object (as `encodeInteger:forKey:` does); everything else as a reference to an object in
/// `$objects`, in the shape Apple's unarchiver expects (NSString, NSData, NSDate, NSURL, NSUUID,
/// NSArray, NSSet, NSDictionary).
///
/// To archive your own value type, implement both requirements by delegating to a conforming
/// type, e.g. `try rawValue.encodeArchiveValue(to: archiver)`.
public protocol KeyedArchiveValue {
    /// Archives the value and returns what to store under its key.
    func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue
    /// Reads a value back from what was stored under its key.
    static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self
}

/// The package's own value types, read through the reader the unarchiver lent for the current
/// top-level read. Not a requirement of the public protocol (no performance device is part of the
/// public contract): each type's ``KeyedArchiveValue/decodeArchiveValue(_:from:)`` finds the lent
/// reader (`KeyedUnarchiver.decodeBorrowing`) and calls this; inside the package, code that holds a
/// reader and knows the type calls it directly.
protocol ReaderDecodable: KeyedArchiveValue {
    /// Reads a value back through `reader`, the unarchiver's lent reader, valid for this call.
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self
}

extension KeyedArchivable {
    /// The object stored in `value`: the unarchiver's object path, which every class takes (the
    /// default ``KeyedArchiveValue/decodeArchiveValue(_:from:)``).
    @inline(__always)
    static func decodeObject(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        guard let object = try unarchiver.decodeObject(reader, Self.self, from: value) else {
            throw unarchiver.error(.typeMismatch, uid: 0, "expected a \(archiveClassName) object, found $null")
        }
        return object
    }
}

/// What an archived value stores under its key: an inline scalar or a reference (UID). Opaque.
public struct ArchivedValue: Sendable {
    let ref: BuilderRef
    /// `true` when `ref` is a UID (an object in `$objects`), `false` for an inline scalar.
    let isReference: Bool
}

/// A stored value being read back: an inline scalar or a reference (UID). Opaque.
public struct UnarchivedValue: Sendable {
    /// The stored object: a UID or an inline scalar, as found in the owning dictionary or array.
    let ref: ObjectRef
}
