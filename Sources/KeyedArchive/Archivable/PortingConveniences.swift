// Sources/KeyedArchive/Archivable/PortingConveniences.swift - What code ported from NSCoding expects:
// enums archived as their raw values, what the reader left after the archive, and NSKeyedArchiver's
// and NSKeyedUnarchiver's calls by their own names (the parity table: <doc:FoundationParity>).

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A `RawRepresentable` type whose raw value is archivable is archived as its raw value, with no
/// code: declaring the conformance is enough.
///
/// ```swift
/// enum Suit: String, KeyedArchiveValue { case hearts, spades }
/// try coder.encode(Suit.hearts, forKey: "suit")          // stored as the string "hearts"
/// let suit = try coder.decode(Suit.self, forKey: "suit")
/// ```
///
/// A stored raw value that names no case is `typeMismatch`.
extension KeyedArchiveValue where Self: RawRepresentable, RawValue: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        try rawValue.encodeArchiveValue(to: archiver)
    }

    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        let raw = try unarchiver.withInput { (r: borrowing BinaryPlistDocument.Reader) throws -> RawValue in
            try unarchiver.decodeValue(RawValue.self, value, r)
        }
        guard let v = Self(rawValue: raw) else {
            throw unarchiver.error(.typeMismatch, "\(raw) is not a raw value of \(Self.self)")
        }
        return v
    }
}

extension KeyedUnarchiver {
    /// Bytes found after the archive: non-zero only when it was opened with
    /// `options: .init(allowsTrailingData: true)`.
    public var trailingByteCount: Int { document.trailingByteCount }
}

// MARK: - NSKeyedUnarchiver's calls, by their names

extension KeyedUnarchiver {
    /// What a failed decode does, as `NSCoder.DecodingFailurePolicy`.
    public enum DecodingFailurePolicy: Sendable, Hashable {
        /// Every failing call throws (the default): Swift's form of `raiseException`.
        case throwError
        /// The calls that return an optional (``KeyedUnarchiver/decodeObject(forKey:)``,
        /// ``KeyedUnarchiver/decodeObject(of:forKey:)``, ``KeyedUnarchiver/decodeIfPresent(_:forKey:)``,
        /// ``KeyedUnarchiver/decodeTopLevelObject(forKey:)``, ``KeyedUnarchiver/decodeTopLevelObject(of:forKey:)``)
        /// return `nil` and record the first failure in ``KeyedUnarchiver/error``; after a failure
        /// they return `nil` without reading, as `NSCoder` does. A call that returns a value
        /// (``KeyedUnarchiver/decode(_:forKey:)``) still throws: it has nothing to return. An error
        /// thrown by a type's own `init(from:)` is never swallowed.
        case setErrorAndReturn
    }

    /// What a failed decode does (default ``DecodingFailurePolicy/throwError``), as
    /// `NSKeyedUnarchiver.decodingFailurePolicy`.
    public var decodingFailurePolicy: DecodingFailurePolicy {
        get { extras?.decodingFailurePolicy ?? .throwError }
        set { extrasBox.decodingFailurePolicy = newValue }
    }

    /// The first failure recorded under ``DecodingFailurePolicy/setErrorAndReturn`` (`NSCoder.error`).
    public var error: KeyedArchiveError? { extras?.error }

    /// Whether decoding is secure, as `NSKeyedUnarchiver.requiresSecureCoding`: always `true` here.
    ///
    /// Every call names what it accepts (a type, a list of types, or ``AnyArchived`` for any value
    /// without instantiating a class), and the archived class is checked against it before any of its
    /// fields is read (<doc:SecureDecoding>). There is no insecure mode to turn on: code that set
    /// `requiresSecureCoding = false` to read classes it has no type for reads them as ``AnyArchived``.
    public var requiresSecureCoding: Bool { true }

    /// Whether failures are recorded instead of thrown (``DecodingFailurePolicy/setErrorAndReturn``).
    /// (`@usableFromInline`: the inlined ``decodeIfPresent(_:forKey:)`` checks it before anything else,
    /// so the default policy costs one load.)
    @usableFromInline
    var recordsFailures: Bool { extras?.decodingFailurePolicy == .setErrorAndReturn }

    /// Runs an optional decode under ``decodingFailurePolicy``. (`@usableFromInline`: the inlined
    /// ``decodeIfPresent(_:forKey:)`` calls it.)
    @usableFromInline
    func underFailurePolicy<T>(_ body: () throws -> T?) throws -> T? {
        guard decodingFailurePolicy == .setErrorAndReturn else { return try body() }
        if extras?.error != nil { return nil }
        do {
            return try body()
        } catch let error as KeyedArchiveError {
            extrasBox.error = error
            return nil
        }
    }

    /// Decodes the value under `key` (the root is `"root"`), as `NSCoder.decodeTopLevelObject(forKey:)`:
    /// `nil` when the key is absent or holds `$null`; a failure throws (or, under
    /// ``DecodingFailurePolicy/setErrorAndReturn``, is recorded in ``error``).
    public func decodeTopLevelObject(forKey key: String = KeyedArchiver.rootObjectKey) throws -> AnyArchived? {
        try underFailurePolicy { try decode(AnyArchived?.self, forKey: key) }
    }

    /// Decodes the value under `key` as `type`, as `NSCoder.decodeTopLevelObject(of:forKey:)`: `nil`
    /// when the key is absent or holds `$null`.
    public func decodeTopLevelObject<T: KeyedArchiveValue>(of type: T.Type, forKey key: String) throws -> T? {
        try underFailurePolicy { try decode(T?.self, forKey: key) }
    }

    /// Unarchives a root array whose elements are `type`, as
    /// `NSKeyedUnarchiver.unarchivedArrayOfObjects(ofClass:from:)`: `nil` when the root is `$null`.
    ///
    /// - Throws: ``KeyedArchiveError`` (`classNotAllowed` when an element is of another class, …),
    ///   or what an element's `init(from:)` throws.
    public static func unarchivedArrayOfObjects<T: KeyedArchiveValue>(
        ofClass type: T.Type, from data: Data, limits: KeyedArchiveLimits = .default
    ) throws -> [T]? {
        try KeyedUnarchiver(forReadingFrom: data, limits: limits).decode([T]?.self, forKey: ArchiveVocabulary.rootKey)
    }

    /// Unarchives a root dictionary whose keys are `keyType` and values `objectType`, as
    /// `NSKeyedUnarchiver.unarchivedDictionary(keysOfClass:objectsOfClass:from:)`: `nil` when the root
    /// is `$null`.
    public static func unarchivedDictionary<Key: KeyedArchiveValue & Hashable, Value: KeyedArchiveValue>(
        keysOfClass keyType: Key.Type, objectsOfClass objectType: Value.Type, from data: Data,
        limits: KeyedArchiveLimits = .default
    ) throws -> [Key: Value]? {
        try KeyedUnarchiver(forReadingFrom: data, limits: limits).decode(
            [Key: Value]?.self, forKey: ArchiveVocabulary.rootKey)
    }

    /// Unarchives the root object when its class is one of `types`, as
    /// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`: `nil` when the root is `$null`.
    public static func unarchivedObject(
        ofClasses types: [any KeyedArchivable.Type], from data: Data, limits: KeyedArchiveLimits = .default
    ) throws -> (any KeyedArchivable)? {
        try KeyedUnarchiver(forReadingFrom: data, limits: limits).decodeObject(
            of: types, forKey: ArchiveVocabulary.rootKey)
    }
}

extension KeyedArchiver {
    /// Archives a value under the key `"root"`, as `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)`.
    ///
    /// The archive is the same either way: `requiringSecureCoding` is a promise Foundation checks
    /// (that every class adopts `NSSecureCoding`); here every class is decoded securely (the reader
    /// names the types it accepts), so there is nothing to promise.
    public static func archivedData(
        withRootObject root: some KeyedArchiveValue, requiringSecureCoding: Bool
    ) throws -> Data {
        try archivedData(withRootObject: root)
    }

    /// Whether archives are for secure decoding, as `NSKeyedArchiver.requiresSecureCoding`: always
    /// `true` (see ``archivedData(withRootObject:requiringSecureCoding:)``).
    public var requiresSecureCoding: Bool { true }
}
