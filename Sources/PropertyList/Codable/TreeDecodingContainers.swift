// Sources/PropertyList/Codable/TreeDecodingContainers.swift - The keyed, unkeyed and single-value
// containers of the tree decoder (TreeDecoding.swift).
//
// Each mirrors its binary counterpart (BinaryDecodingContainers.swift): the same budget counts, the
// same coding paths and error kinds; a container holds the dictionary's entries or the array's
// elements themselves (shared storage, no copy).

struct TreeKeyedDecoding<Key: CodingKey>: NumberKeyedDecoding {
    let impl: TreeDecoderImpl
    let entries: [PlistDictionary.Element]
    /// Frames below this container, and its whole path when a child decoder made it.
    let depth: Int
    let prefix: [any CodingKey]?

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }

    /// The keys in the dictionary's order (keys that are not strings, or that `Key` does not
    /// accept, are left out).
    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let s) = entry.key, let key = Key(stringValue: s.string) else { continue }
            keys.append(key)
        }
        return keys
    }

    @inline(__always)
    func find(_ key: Key) -> PlistValue? {
        guard let i = impl.find(key.stringValue, in: entries) else { return nil }
        return entries[i].value
    }

    func contains(_ key: Key) -> Bool { impl.find(key.stringValue, in: entries) != nil }

    /// The value of `key`, counted against the budget.
    @inline(__always)
    func value(_ key: Key) throws -> PlistValue {
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
    func scalar<T>(_ key: Key, _ read: (TreeDecoderImpl, PlistValue) throws(DecodeFailure) -> T) throws -> T {
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

    func decodeNil(forKey key: Key) throws -> Bool { TreeDecoderImpl.isNull(try value(key)) }
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
        guard let found = find(key), !TreeDecoderImpl.isNull(found) else { return nil }
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
        guard let i = impl.find(key.stringValue, in: entries) else { throw keyNotFound(key) }
        try impl.countValue(depth: depth)
        return TreeChildDecoder(impl: impl, value: entries[i].value, codingPath: try nestedPrefix(key))
    }
}

/// An unkeyed container over an array's (or a set's) elements.
struct TreeUnkeyedDecoding: NumberUnkeyedDecoding {
    let impl: TreeDecoderImpl
    let elements: [PlistValue]
    let depth: Int
    let prefix: [any CodingKey]?
    var currentIndex = 0

    init(impl: TreeDecoderImpl, elements: [PlistValue], depth: Int, prefix: [any CodingKey]?) {
        self.impl = impl
        self.elements = elements
        self.depth = depth
        self.prefix = prefix
    }

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The current element, counted against the budget.
    @inline(__always)
    func element(_ type: Any.Type) throws -> PlistValue {
        let n = elements.count
        guard currentIndex < n else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [PlistCodingKey(index: currentIndex)],
                    debugDescription: "the array has no element \(currentIndex) (it has \(n))"))
        }
        try impl.countValue(depth: depth)
        return elements[currentIndex]
    }

    @inline(__always)
    mutating func scalar<T>(_ read: (TreeDecoderImpl, PlistValue) throws(DecodeFailure) -> T) throws -> T {
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
        if TreeDecoderImpl.isNull(v) {
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
        let decoder = TreeChildDecoder(impl: impl, value: v, codingPath: try nestedPrefix())
        currentIndex += 1
        return decoder
    }

    func nestedPrefix() throws -> [any CodingKey] {
        let path = codingPath + [PlistCodingKey(index: currentIndex)]
        guard path.count <= impl.maxDepth else { throw impl.depthExceeded(path) }
        return path
    }
}

struct TreeSingleValueDecoding: NumberSingleValueDecoding {
    let impl: TreeDecoderImpl
    let value: PlistValue
    let depth: Int
    let prefix: [any CodingKey]?

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }

    @inline(__always)
    func scalar<T>(_ read: (TreeDecoderImpl, PlistValue) throws(DecodeFailure) -> T) throws -> T {
        do throws(DecodeFailure) {
            return try read(impl, value)
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

    func decodeNil() -> Bool { TreeDecoderImpl.isNull(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar { (d, v) throws(DecodeFailure) in try d.bool(v) } }
    func decode(_ type: String.Type) throws -> String {
        try scalar { (d, v) throws(DecodeFailure) in try d.string(v) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try impl.decodeValue(type, value, depth: depth, prefix: prefix, step: .none)
    }
}
