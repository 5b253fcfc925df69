// Sources/PropertyList/Codable/TapeDecodingContainers.swift - The keyed, unkeyed and single-value
// containers of the tape decoder (TapeDecoding.swift).
//
// Each mirrors its binary counterpart (BinaryDecodingContainers.swift): the same budget counts, the
// same coding paths and error kinds; a container holds where its children start in the tape's
// reference list and how many there are.

struct TapeKeyedDecoding<Key: CodingKey>: NumberKeyedDecoding {
    let impl: TapeDecoderImpl
    /// Where the dictionary's keys start in `tape.refs` (its values follow them), and its entry count.
    let start: Int
    let count: Int
    /// Frames below this container, and its whole path when a child decoder made it.
    let depth: Int
    let prefix: [any CodingKey]?

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }

    /// The keys in the dictionary's order (keys that are not strings, or that `Key` does not
    /// accept, are left out).
    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        for i in 0..<count {
            guard let text = impl.keyText(impl.child(start, i)), let key = Key(stringValue: text) else { continue }
            keys.append(key)
        }
        return keys
    }

    /// The value entry of `key`, or nil when the dictionary has none.
    @inline(__always)
    func find(_ key: Key) -> Int? {
        guard let i = impl.find(key.stringValue, start: start, count: count) else { return nil }
        return impl.child(start, count &+ i)
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    /// The value of `key`, counted against the budget.
    @inline(__always)
    func value(_ key: Key) throws -> Int {
        guard let found = find(key) else { throw keyNotFound(key) }
        try impl.countValue(depth: depth)
        return found
    }

    func keyNotFound(_ key: some CodingKey) -> DecodingError {
        let error = PlistError(.keyNotFound, "no value for the key \"\(key.stringValue)\"")
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    @inline(__always)
    func scalar<T>(_ key: Key, _ read: (TapeDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
        let v = try value(key)
        do throws(DecodeFailure) {
            return try read(impl, v)
        } catch {
            throw error.decodingError(T.self, codingPath + [key])
        }
    }

    @inline(__always)
    func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try scalar(key) { (d, v) throws(DecodeFailure) in try d.integer(v, as: I.self) }
    }

    @inline(__always)
    func floatingPoint<F: BinaryFloatingPoint>(_ key: Key) throws -> F {
        try scalar(key) { (d, v) throws(DecodeFailure) in try d.floatingPoint(v, as: F.self) }
    }

    func decodeNil(forKey key: Key) throws -> Bool { impl.isNull(try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try scalar(key) { (d, v) throws(DecodeFailure) in try d.bool(v) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try scalar(key) { (d, v) throws(DecodeFailure) in try d.string(v) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let v = try value(key)
        return try impl.decodeValue(type, v, depth: depth, prefix: prefix, step: .key(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = find(key), !impl.isNull(found) else { return nil }
        try impl.countValue(depth: depth)
        return try impl.decodeValue(type, found, depth: depth, prefix: prefix, step: .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let v = try value(key)
        return try impl.keyedContainer(type, v, depth: depth, prefix: try nestedPrefix(key))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let v = try value(key)
        return try impl.unkeyedContainer(v, depth: depth, prefix: try nestedPrefix(key))
    }

    func superDecoder() throws -> any Decoder { try childDecoder(PlistCodingKey.superKey) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try childDecoder(key) }

    /// The path of a container nested under `key`, which has no frame of its own: bounded by the
    /// depth limit, as frames are.
    func nestedPrefix(_ key: some CodingKey) throws -> [any CodingKey] {
        let path = codingPath + [key]
        guard path.count <= impl.maxDepth else { throw impl.depthExceeded(path) }
        return path
    }

    func childDecoder(_ key: some CodingKey) throws -> any Decoder {
        guard let i = impl.find(key.stringValue, start: start, count: count) else { throw keyNotFound(key) }
        try impl.countValue(depth: depth)
        return TapeChildDecoder(impl: impl, ref: impl.child(start, count &+ i), codingPath: try nestedPrefix(key))
    }
}

/// An unkeyed container over an array's (or a set's) elements.
struct TapeUnkeyedDecoding: NumberUnkeyedDecoding {
    let impl: TapeDecoderImpl
    /// Where the elements start in `tape.refs`, and how many there are.
    let start: Int
    let n: Int
    let depth: Int
    let prefix: [any CodingKey]?
    var currentIndex = 0

    init(impl: TapeDecoderImpl, start: Int, count: Int, depth: Int, prefix: [any CodingKey]?) {
        self.impl = impl
        self.start = start
        self.n = count
        self.depth = depth
        self.prefix = prefix
    }

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }
    var count: Int? { n }
    var isAtEnd: Bool { currentIndex >= n }

    /// The current element, counted against the budget.
    @inline(__always)
    func element(_ type: Any.Type) throws -> Int {
        guard currentIndex < n else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [PlistCodingKey(index: currentIndex)],
                    debugDescription: "the array has no element \(currentIndex) (it has \(n))"))
        }
        try impl.countValue(depth: depth)
        return impl.child(start, currentIndex)
    }

    @inline(__always)
    mutating func scalar<T>(_ read: (TapeDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
        let v = try element(T.self)
        do throws(DecodeFailure) {
            let result = try read(impl, v)
            currentIndex += 1
            return result
        } catch {
            throw error.decodingError(T.self, codingPath + [PlistCodingKey(index: currentIndex)])
        }
    }

    @inline(__always)
    mutating func integer<I: FixedWidthInteger>() throws -> I {
        try scalar { (d, v) throws(DecodeFailure) in try d.integer(v, as: I.self) }
    }

    @inline(__always)
    mutating func floatingPoint<F: BinaryFloatingPoint>() throws -> F {
        try scalar { (d, v) throws(DecodeFailure) in try d.floatingPoint(v, as: F.self) }
    }

    mutating func decodeNil() throws -> Bool {
        let v = try element(Optional<Any>.self)
        if impl.isNull(v) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try scalar { (d, v) throws(DecodeFailure) in try d.bool(v) }
    }
    mutating func decode(_ type: String.Type) throws -> String {
        try scalar { (d, v) throws(DecodeFailure) in try d.string(v) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try element(T.self)
        let result = try impl.decodeValue(type, v, depth: depth, prefix: prefix, step: .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let v = try element(KeyedDecodingContainer<NestedKey>.self)
        let container = try impl.keyedContainer(type, v, depth: depth, prefix: try nestedPrefix())
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let v = try element((any UnkeyedDecodingContainer).self)
        let container = try impl.unkeyedContainer(v, depth: depth, prefix: try nestedPrefix())
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let v = try element((any Decoder).self)
        let decoder = TapeChildDecoder(impl: impl, ref: v, codingPath: try nestedPrefix())
        currentIndex += 1
        return decoder
    }

    func nestedPrefix() throws -> [any CodingKey] {
        let path = codingPath + [PlistCodingKey(index: currentIndex)]
        guard path.count <= impl.maxDepth else { throw impl.depthExceeded(path) }
        return path
    }
}

struct TapeSingleValueDecoding: NumberSingleValueDecoding {
    let impl: TapeDecoderImpl
    let ref: Int
    let depth: Int
    let prefix: [any CodingKey]?

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }

    @inline(__always)
    func scalar<T>(_ read: (TapeDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
        do throws(DecodeFailure) {
            return try read(impl, ref)
        } catch {
            throw error.decodingError(T.self, codingPath)
        }
    }

    @inline(__always)
    func integer<I: FixedWidthInteger>() throws -> I {
        try scalar { (d, v) throws(DecodeFailure) in try d.integer(v, as: I.self) }
    }

    @inline(__always)
    func floatingPoint<F: BinaryFloatingPoint>() throws -> F {
        try scalar { (d, v) throws(DecodeFailure) in try d.floatingPoint(v, as: F.self) }
    }

    func decodeNil() -> Bool { impl.isNull(ref) }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar { (d, v) throws(DecodeFailure) in try d.bool(v) } }
    func decode(_ type: String.Type) throws -> String {
        try scalar { (d, v) throws(DecodeFailure) in try d.string(v) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try impl.decodeValue(type, ref, depth: depth, prefix: prefix, step: .none)
    }
}
