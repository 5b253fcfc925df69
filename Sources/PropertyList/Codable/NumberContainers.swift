// Sources/PropertyList/Codable/NumberContainers.swift - The number overloads the decoding containers of
// `PlistDecoder` share.
//
// `KeyedDecodingContainerProtocol`, `UnkeyedDecodingContainer` and `SingleValueDecodingContainer` ask
// for an overload per number type (fifteen integer types, `Double`, `Float`), and a keyed container's
// `decodeIfPresent` for each scalar type (whose default implementations look the key up three times).
// The package's three decoders (binary, tape, tree) read every integer type through one generic
// `integer` and every floating-point type through one `floatingPoint` (the shared number rule,
// `NumberConversion`), and an optional scalar through their own generic `decodeIfPresent`: these
// protocols hold the overloads once, and each container conforms with its two (or three) reads. The
// defaults are specialised for each container type, as its own methods are (callgrind: the same
// instruction counts as the overloads written out in each container, measured on the binary, XML
// and tree decodes of the peers' workloads).

/// A keyed container whose numbers are read by `integer` and `floatingPoint`, and whose optional
/// scalars by its generic `decodeIfPresent` (one lookup each).
protocol NumberKeyedDecoding: KeyedDecodingContainerProtocol {
    func integer<I: FixedWidthInteger>(_ key: Key) throws -> I
    func floatingPoint<F: BinaryFloatingPoint>(_ key: Key) throws -> F
}

extension NumberKeyedDecoding {
    @inline(__always) func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try floatingPoint(key) }
    @inline(__always) func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try floatingPoint(key) }
    @inline(__always) func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    @inline(__always) func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    @inline(__always) func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    @inline(__always) func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    @inline(__always) func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    @inline(__always) func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    @inline(__always) func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    @inline(__always) func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    @inline(__always) func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    @inline(__always) func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    @inline(__always) func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    @inline(__always) func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }

    // One lookup per optional field (the protocol's defaults look the key up three times).
    @inline(__always) func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    @inline(__always) func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try optional(type, key)
    }
    @inline(__always) func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try optional(type, key)
    }

    /// The container's generic `decodeIfPresent`, for a scalar type (a generic call, so not the
    /// overload that calls it).
    @inline(__always)
    func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }
}

/// An unkeyed container whose numbers are read by `integer` and `floatingPoint`.
protocol NumberUnkeyedDecoding: UnkeyedDecodingContainer {
    mutating func integer<I: FixedWidthInteger>() throws -> I
    mutating func floatingPoint<F: BinaryFloatingPoint>() throws -> F
}

extension NumberUnkeyedDecoding {
    mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint() }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint() }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }
}

/// A single-value container whose numbers are read by `integer` and `floatingPoint`.
protocol NumberSingleValueDecoding: SingleValueDecodingContainer {
    func integer<I: FixedWidthInteger>() throws -> I
    func floatingPoint<F: BinaryFloatingPoint>() throws -> F
}

extension NumberSingleValueDecoding {
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint() }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint() }
    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }
}
