// Sources/KeyedArchive/Coding/PortingConveniences.swift - Small things code ported from NSCoding
// expects: enums archived as their raw values, and what the reader left after the archive.

public import PropertyList

/// A `RawRepresentable` type whose raw value is archivable is archived as its raw value, with no
/// code: declaring the conformance is enough.
///
/// ```swift
/// enum Suit: String, KeyedArchiveValue { case hearts, spades }
/// try coder.encode(Suit.hearts, forKey: "suit")          // stored as the string "hearts"
/// let suit = try coder.decode(Suit.self, forKey: "suit")
/// ```
///
/// A stored raw value that names no case is ``KeyedArchiveError/Code/typeMismatch``.
extension KeyedArchiveValue where Self: RawRepresentable, RawValue: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        try rawValue.encodeArchiveValue(to: archiver)
    }

    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }

    public static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        let raw = try RawValue.decodeArchiveValue(value, from: unarchiver, reader: reader)
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
