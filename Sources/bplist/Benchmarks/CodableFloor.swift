// Sources/bplist/Benchmarks/CodableFloor.swift - The floor of Codable on the peers' models: what Swift's
// Codable machinery costs when the decoder reads nothing and the encoder writes nothing.
//
// `decode-codable-floor` runs the model's `init(from:)` against `FloorDecoder`, which hands out, in
// order, the scalars an earlier decode produced (recorded once, untimed, by `FloorEncoder`): no
// bytes are read, no key is looked up (each container takes the next value whatever key it is asked
// for), no error or coding path is kept, and no value is made: every string of more than 15 UTF-8
// bytes is replaced by a short one and every `Data` by an empty one, values stored inline, so that
// the replay touches no memory and no reference count for them (numbers, dates, booleans and short
// strings are inline values already, handed over as recorded). What is left is what every decoder
// behind `Decoder` pays on this model: the calls through the existential containers and their boxes,
// the generic metadata of each `KeyedDecodingContainer<Key>`, the model's arrays and structs. Both
// sides take the root, `String`, `Date`, `Data` and `[String]` as the plist coders do (an array of
// strings in one loop, no container per element); the coders' other one-loop types (arrays of
// numbers or booleans, string-keyed dictionaries) are not in the peers' models, and here go through
// their Codable conformance.
// `encode-codable-floor` runs `encode(to:)` against `FloorEncoder`, which keeps a count of what it is
// given (and reads each string's length, which the string holds inline) and does nothing else.
//
// So no `PlistDecoder`/`PlistEncoder`, however fast its format code, can take less time than these
// operations on the same model; a decoder also makes the values the model keeps (each distinct string
// of more than 15 bytes, each `Data`), which the floor leaves out. The ratio of a peer's time to the
// floor is the most any Swift Codable coder can reach against it (Benchmarks/README, "The Codable
// floor").

import BenchmarkWorkloads
import Foundation
import PropertyList

/// One scalar as a model hands it to an encoder, or an unkeyed container's element count.
enum FloorValue {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case count(Int)
    case null
}

/// Thrown when a replay asks for something the recording did not hold (a model whose `init(from:)`
/// does not mirror its `encode(to:)`).
struct FloorMismatch: Error, CustomStringConvertible {
    let position: Int
    var description: String { "decode-codable-floor: the model asked for another value at position \(position)" }
}

// MARK: - The encoding floor, and the recording (untimed)

/// Takes a model's `encode(to:)` and keeps a count of the scalars it is given and of the bytes of its
/// strings (see the file header); made with `records`, it also records them in order, for
/// `FloorDecoder` to replay (every long string and every `Data` as an inline stand-in). One concrete
/// class with concrete containers: generic containers would be called through witness tables,
/// unspecialised, and the floor would be higher than it is.
final class FloorEncoder: Encoder {
    let records: Bool
    var scalars = 0
    /// The UTF-8 bytes of the strings given (each string's length is read, as a writer must).
    var bytes = 0
    /// What is recorded when `records` is set.
    var values: [FloorValue] = []
    /// What a recording holds in place of every string of more than 15 bytes, and of every `Data`:
    /// values stored inline, which a replay hands out without touching memory or a reference count.
    let standInString = "floor"
    let standInData = Data()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(records: Bool) { self.records = records }

    /// How many scalars `value` hands an encoder.
    static func count(_ value: some Encodable) throws -> Int {
        let encoder = FloorEncoder(records: false)
        try encoder.nested(value)
        return encoder.scalars
    }

    /// The scalars of `value`, in order, for `FloorDecoder`.
    static func record(_ value: some Encodable) throws -> [FloorValue] {
        let encoder = FloorEncoder(records: true)
        try encoder.nested(value)
        return encoder.values
    }

    @inline(__always)
    func scalar(_ value: @autoclosure () -> FloorValue) {
        scalars &+= 1
        if records { values.append(value()) }
    }

    @inline(__always)
    func string(_ value: String) {
        let n = value.utf8.count
        bytes &+= n
        scalar(.string(n > 15 ? standInString : value))
    }

    @inline(__always)
    func integer(_ value: some BinaryInteger) { scalar(.int(Int(truncatingIfNeeded: value))) }

    /// A nested value: the format's own types directly (as every plist encoder writes them), any
    /// other through its `encode(to:)`.
    func nested<T: Encodable>(_ value: T) throws {
        if T.self == String.self {
            string(identityCast(value, to: String.self))
        } else if T.self == Date.self {
            scalar(.date(identityCast(value, to: Date.self)))
        } else if T.self == Data.self {
            scalar(.data(standInData))
        } else if T.self == [String].self {
            // An array of strings in one loop, as the plist encoders write one; each string's length is
            // read, the least a writer does with it.
            let strings = identityCast(value, to: [String].self)
            guard records else {
                var n = 0
                for s in strings { n &+= s.utf8.count }
                scalars &+= strings.count
                bytes &+= n
                return
            }
            let slot = beginUnkeyed()
            for s in strings { string(s) }
            counted(slot, strings.count)
        } else {
            try value.encode(to: self)
        }
    }

    /// An unkeyed container begins: the place of its element count in a recording, or -1.
    @inline(__always)
    func beginUnkeyed() -> Int {
        guard records else { return -1 }
        values.append(.count(0))
        return values.count - 1
    }

    @inline(__always)
    func counted(_ slot: Int, _ count: Int) {
        if slot >= 0 { values[slot] = .count(count) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self, slot: beginUnkeyed()) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: FloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) { encoder.scalar(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) { encoder.scalar(.bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) { encoder.string(value) }
        mutating func encode(_ value: Double, forKey key: Key) { encoder.scalar(.double(value)) }
        mutating func encode(_ value: Float, forKey key: Key) { encoder.scalar(.double(Double(value))) }
        mutating func encode(_ value: Int, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: Int8, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: Int16, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: Int32, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: Int64, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) { encoder.integer(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) { encoder.integer(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.nested(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { encoder.container(keyedBy: keyType) }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: FloorEncoder
        /// The place of the element count in a recording, or -1.
        let slot: Int
        var codingPath: [any CodingKey] { [] }
        var count = 0

        /// One element, which `write` hands the encoder.
        @inline(__always)
        mutating func element(_ write: (FloorEncoder) throws -> Void) rethrows {
            try write(encoder)
            count &+= 1
            encoder.counted(slot, count)
        }

        mutating func encodeNil() { element { $0.scalar(.null) } }
        mutating func encode(_ value: Bool) { element { $0.scalar(.bool(value)) } }
        mutating func encode(_ value: String) { element { $0.string(value) } }
        mutating func encode(_ value: Double) { element { $0.scalar(.double(value)) } }
        mutating func encode(_ value: Int) { element { $0.integer(value) } }
        mutating func encode<T: Encodable>(_ value: T) throws { try element { try $0.nested(value) } }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            element { _ in }
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            element { _ in }
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            element { _ in }
            return encoder
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: FloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() { encoder.scalar(.null) }
        mutating func encode(_ value: Bool) { encoder.scalar(.bool(value)) }
        mutating func encode(_ value: String) { encoder.string(value) }
        mutating func encode(_ value: Double) { encoder.scalar(.double(value)) }
        mutating func encode(_ value: Int) { encoder.integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.nested(value) }
    }
}

// MARK: - The decoding floor

/// Replays recorded scalars into a model's `init(from:)` (see the file header).
final class FloorDecoder: Decoder {
    let values: [FloorValue]
    var position = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ values: [FloorValue]) { self.values = values }

    @inline(__always)
    func next() throws -> FloorValue {
        guard position < values.count else { throw FloorMismatch(position: position) }
        defer { position &+= 1 }
        return values[position]
    }

    /// Whether the next value is a null (then it is taken).
    func nextIsNull() -> Bool {
        guard position < values.count, case .null = values[position] else { return false }
        position &+= 1
        return true
    }

    func string() throws -> String {
        guard case .string(let s) = try next() else { throw FloorMismatch(position: position - 1) }
        return s
    }

    func int<I: FixedWidthInteger>(_: I.Type) throws -> I {
        guard case .int(let i) = try next() else { throw FloorMismatch(position: position - 1) }
        return I(truncatingIfNeeded: i)
    }

    func double() throws -> Double {
        guard case .double(let d) = try next() else { throw FloorMismatch(position: position - 1) }
        return d
    }

    func bool() throws -> Bool {
        guard case .bool(let b) = try next() else { throw FloorMismatch(position: position - 1) }
        return b
    }

    /// A nested value: the format's own types directly (as every plist decoder reads them), any
    /// other through its `init(from:)`.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            guard case .date(let d) = try next() else { throw FloorMismatch(position: position - 1) }
            return identityCast(d, to: T.self)
        }
        if T.self == Data.self {
            guard case .data(let d) = try next() else { throw FloorMismatch(position: position - 1) }
            return identityCast(d, to: T.self)
        }
        if T.self == String.self { return identityCast(try string(), to: T.self) }
        if T.self == [String].self {
            // An array of strings made at its size, as the plist decoders make one.
            guard case .count(let n) = try next() else { throw FloorMismatch(position: position - 1) }
            var strings: [String] = []
            strings.reserveCapacity(n)
            for _ in 0..<n { strings.append(try string()) }
            return identityCast(strings, to: T.self)
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .count(let n) = try next() else { throw FloorMismatch(position: position - 1) }
        return Unkeyed(decoder: self, n: n)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: FloorDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { decoder.nextIsNull() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoder.double()) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.int(Int.self) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.int(Int8.self) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.int(Int16.self) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.int(Int32.self) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.int(Int64.self) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.int(UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.int(UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.int(UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.int(UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.int(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.value(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { try decoder.container(keyedBy: type) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: FloorDecoder
        let n: Int
        var codingPath: [any CodingKey] { [] }
        var count: Int? { n }
        var isAtEnd: Bool { currentIndex >= n }
        var currentIndex = 0

        init(decoder: FloorDecoder, n: Int) {
            self.decoder = decoder
            self.n = n
        }

        mutating func decodeNil() throws -> Bool {
            guard decoder.nextIsNull() else { return false }
            currentIndex &+= 1
            return true
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool {
            currentIndex &+= 1
            return try decoder.bool()
        }
        mutating func decode(_ type: String.Type) throws -> String {
            currentIndex &+= 1
            return try decoder.string()
        }
        mutating func decode(_ type: Double.Type) throws -> Double {
            currentIndex &+= 1
            return try decoder.double()
        }
        mutating func decode(_ type: Int.Type) throws -> Int {
            currentIndex &+= 1
            return try decoder.int(Int.self)
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex &+= 1
            return try decoder.value(type)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            currentIndex &+= 1
            return try decoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex &+= 1
            return try decoder.unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder {
            currentIndex &+= 1
            return decoder
        }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: FloorDecoder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { decoder.nextIsNull() }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
        func decode(_ type: Int.Type) throws -> Int { try decoder.int(Int.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(type) }
    }
}
