// Sources/PropertyList/Codable/PlistUID.swift - A keyed-archive UID as a Codable value.

/// A UID object of a property list (marker `0x8n`): the references between the objects of a keyed
/// archive (`NSKeyedArchiver`'s `$objects`), as a `Codable` value.
///
/// ``PlistDecoder`` decodes a UID object into it and ``PlistEncoder`` writes it as one, so a model
/// can hold an archive's raw references:
///
/// ```swift
/// struct Top: Decodable { var root: PlistUID }
/// let top = try PlistDecoder().decode(Top.self, from: archive, at: "$top")
/// top.root.value   // the position of the root object in $objects
/// ```
///
/// Other coders (`JSONEncoder`, Foundation's `PropertyListEncoder`) see it as the dictionary
/// `{"CF$UID": value}`, the form CoreFoundation gives a UID in an XML property list.
public struct PlistUID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The UID's value: an index into the archive's `$objects`.
    public var value: UInt64

    /// The UID with this value.
    ///
    /// - Parameter value: The index it refers to.
    public init(_ value: UInt64) { self.value = value }

    public var description: String { "UID(\(value))" }

    private enum CodingKeys: String, CodingKey {
        case value = "CF$UID"
    }

    /// Decodes a UID: from ``PlistDecoder``, a UID object; from any other decoder, the dictionary
    /// `{"CF$UID": value}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(UInt64.self, forKey: .value)
    }

    /// Encodes a UID: with ``PlistEncoder``, a UID object; with any other encoder, the dictionary
    /// `{"CF$UID": value}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
    }
}
