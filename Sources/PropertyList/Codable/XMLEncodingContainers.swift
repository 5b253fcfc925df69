// Sources/PropertyList/Codable/XMLEncodingContainers.swift - The keyed, unkeyed and single-value
// containers of the XML encoder.
//
// A container names its frame and the frame's generation (XMLEncoding.swift); every write starts its
// entry or element there (closing the frames above, checking the frame is still open), then writes
// the value in place. `nil` is the string `"$null"`, as Foundation's `PropertyListEncoder` writes it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

struct XMLKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let impl: XMLEncoderImpl
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    /// Starts the entry of `key`; returns the indentation of its value.
    @inline(__always)
    func begin(_ key: Key) throws -> Int {
        try impl.beginEntry(frame, generation, tag: keyTag(key) ?? -1) { key.stringValue }
    }

    mutating func encodeNil(forKey key: Key) throws {
        _ = try begin(key)
        try impl.writeString("$null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        _ = try begin(key)
        impl.writeBool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        _ = try begin(key)
        try impl.writeString(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        _ = try begin(key)
        impl.writeReal(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        _ = try begin(key)
        impl.writeReal(Double(value))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        _ = try begin(key)
        impl.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(PlistInteger(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(PlistInteger(value), key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try integer(PlistInteger(value), key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        _ = try begin(key)
        try impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: Int64, _ key: Key) throws {
        _ = try begin(key)
        impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: PlistInteger, _ key: Key) throws {
        _ = try begin(key)
        impl.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let indent = try begin(key)
        try impl.writeValue(value, parent: frame, indent: indent, step: .key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        impl.keyedContainer(keyType, frame: impl.nestedFrame(in: frame, generation, key: key, kind: .keyed))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        impl.unkeyedContainer(frame: impl.nestedFrame(in: frame, generation, key: key, kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        XMLChildEncoder(
            impl: impl, frame: impl.nestedFrame(in: frame, generation, key: PlistCodingKey.superKey, kind: .empty))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        XMLChildEncoder(impl: impl, frame: impl.nestedFrame(in: frame, generation, key: key, kind: .empty))
    }
}

struct XMLUnkeyedEncoding: UnkeyedEncodingContainer {
    let impl: XMLEncoderImpl
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }
    var count: Int { impl.isLive(frame, generation) ? impl.state.frames[frame].count : 0 }

    /// Starts the next element; returns the indentation of its value.
    @inline(__always)
    func begin() throws -> Int { try impl.beginElement(frame, generation) }

    mutating func encodeNil() throws {
        _ = try begin()
        try impl.writeString("$null")
    }
    mutating func encode(_ value: Bool) throws {
        _ = try begin()
        impl.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try begin()
        try impl.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        _ = try begin()
        impl.writeReal(value)
    }
    mutating func encode(_ value: Float) throws {
        _ = try begin()
        impl.writeReal(Double(value))
    }
    mutating func encode(_ value: Int) throws {
        _ = try begin()
        impl.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int8) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: UInt8) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt16) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt32) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt64) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: Int128) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: UInt128) throws {
        _ = try begin()
        try impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: Int64) throws {
        _ = try begin()
        impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: PlistInteger) throws {
        _ = try begin()
        impl.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        let indent = try begin()
        try impl.writeValue(value, parent: frame, indent: indent, step: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        impl.keyedContainer(keyType, frame: impl.nestedFrame(in: frame, generation, kind: .keyed))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        impl.unkeyedContainer(frame: impl.nestedFrame(in: frame, generation, kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        XMLChildEncoder(impl: impl, frame: impl.nestedFrame(in: frame, generation, kind: .empty))
    }
}

struct XMLSingleValueEncoding: SingleValueEncodingContainer {
    let impl: XMLEncoderImpl
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    /// Starts the value; returns its indentation.
    @inline(__always)
    func begin() throws -> Int { try impl.beginSingle(frame, generation) }

    mutating func encodeNil() throws {
        _ = try begin()
        try impl.writeString("$null")
    }
    mutating func encode(_ value: Bool) throws {
        _ = try begin()
        impl.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try begin()
        try impl.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        _ = try begin()
        impl.writeReal(value)
    }
    mutating func encode(_ value: Float) throws {
        _ = try begin()
        impl.writeReal(Double(value))
    }
    mutating func encode(_ value: Int) throws {
        _ = try begin()
        impl.writeInteger(Int64(value))
    }
    mutating func encode(_ value: Int8) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: UInt8) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt16) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt32) throws { try integer(Int64(value)) }
    mutating func encode(_ value: UInt64) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: Int128) throws { try integer(PlistInteger(value)) }
    mutating func encode(_ value: UInt128) throws {
        _ = try begin()
        try impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: Int64) throws {
        _ = try begin()
        impl.writeInteger(value)
    }

    @inline(__always)
    private func integer(_ value: PlistInteger) throws {
        _ = try begin()
        impl.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let indent = try begin()
        try impl.writeValue(value, parent: frame, indent: indent, step: .none)
    }
}
