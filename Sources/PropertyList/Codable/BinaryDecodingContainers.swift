// Sources/PropertyList/Codable/BinaryDecodingContainers.swift - The keyed, unkeyed and single-value
// containers of the binary decoder.
//
// Each scalar overload reads the value in place (BinaryDecoding.swift) and turns a failed read into
// a `DecodingError` with the container's coding path and the key; `decode<T>` goes through
// `BinaryDecoderImpl.decodeValue`, which reads the types the format holds directly and runs any
// other type's `init(from:)` as a nested value.

struct BinaryKeyedDecoding<Key: CodingKey>: NumberKeyedDecoding {
    let impl: BinaryDecoderImpl
    /// The dictionary object, where its key references start, and its entry count.
    let ref: Int
    let keysStart: Int
    let count: Int
    /// The key memo of `Key` (KeyMemo.swift), and whether the dictionary holds a key twice.
    let memo: Int
    let repeated: Bool
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
            guard let k = try? impl.read({ (r) throws(DecodeFailure) in impl.reference(r, keysStart, i) }),
                let text = try? impl.string(k), let key = Key(stringValue: text)
            else { continue }
            keys.append(key)
        }
        return keys
    }

    /// The value reference of the key with text `key`, or nil when the dictionary has none.
    @inline(__always)
    func find(_ key: String) throws(DecodeFailure) -> Int? {
        try impl.lookup(key, memo: memo, dictionary: ref, keysStart: keysStart, count: count, repeated: repeated)
    }

    /// The value reference of `key`, or nil when the dictionary has none. A key whose tag
    /// (`keyTag`) was met before names its memo slot: no `stringValue`, no text compared.
    /// (Small, so that the scalar reads it is inlined into stay specialized: the search is out of line.)
    @inline(__always)
    func find(_ key: Key) throws(DecodeFailure) -> Int? {
        guard let tag = keyTag(key) else { return try find(key.stringValue) }
        if let s = impl.taggedSlot(tag, memo: memo) {
            return try impl.lookup(slot: s, keysStart: keysStart, count: count, repeated: repeated)
        }
        return try impl.lookup(
            key.stringValue, tag: tag, memo: memo, dictionary: ref, keysStart: keysStart, count: count,
            repeated: repeated)
    }

    func contains(_ key: Key) -> Bool { ((try? find(key)) ?? nil) != nil }

    /// The value reference of `key`, counted against the budget.
    @inline(__always)
    func value(_ key: Key) throws -> Int {
        let found: Int?
        do throws(DecodeFailure) {
            found = try find(key)
        } catch {
            throw error.decodingError(Any.self, codingPath + [key])
        }
        guard let found else { throw keyNotFound(key) }
        try impl.countValue(depth: depth)
        return found
    }

    func keyNotFound(_ key: Key) -> DecodingError {
        let off = impl.offsetIfValid(ref)
        let error = impl.located(.keyNotFound, ref, offset: off, "no value for the key \"\(key.stringValue)\"")
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    func scalar<T>(_ key: Key, _ read: (BinaryDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
        let v = try value(key)
        do throws(DecodeFailure) {
            return try read(impl, v)
        } catch {
            throw error.decodingError(T.self, codingPath + [key])
        }
    }

    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try scalar(key) { (d, v) throws(DecodeFailure) in try d.integer(v, as: I.self) }
    }

    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
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
        let found: Int?
        do throws(DecodeFailure) {
            found = try find(key)
        } catch {
            throw error.decodingError(T.self, codingPath + [key])
        }
        guard let found, !impl.isNull(found) else { return nil }
        try impl.countValue(depth: depth)
        return try impl.decodeValue(type, found, depth: depth, prefix: prefix, step: .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let v = try value(key)
        return try impl.keyedContainer(type, ref: v, depth: depth, prefix: try nestedPrefix(key))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let v = try value(key)
        return try impl.unkeyedContainer(ref: v, depth: depth, prefix: try nestedPrefix(key))
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
        guard let found = try? find(key.stringValue) else {
            let off = impl.offsetIfValid(ref)
            let error = impl.located(.keyNotFound, ref, offset: off, "no value for the key \"\(key.stringValue)\"")
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
        try impl.countValue(depth: depth)
        return BinaryChildDecoder(impl: impl, ref: found, codingPath: try nestedPrefix(key))
    }
}

/// An unkeyed container: three words (the decoder, a handle to its array's facts in the decoder's
/// state, the position), so that the `any UnkeyedDecodingContainer` holding it keeps it inline. A
/// larger container is boxed, and every `mutating` call through the existential then checks the
/// box for uniqueness (measured: 11 % of a numbers decode).
struct BinaryUnkeyedDecoding: NumberUnkeyedDecoding {
    let impl: BinaryDecoderImpl
    /// The array's facts in `impl.state.unkeyed` (index and generation, see `UnkeyedInfo`).
    let handle: Int
    var currentIndex = 0

    init(impl: BinaryDecoderImpl, handle: Int) {
        self.impl = impl
        self.handle = handle
    }

    /// The index of this container's facts, or nil when its value was decoded already (the facts
    /// were recycled).
    @inline(__always)
    var slot: Int? { impl.unkeyedSlot(handle) }

    var codingPath: [any CodingKey] {
        guard let i = slot else { return impl.codingPath }
        return impl.state.unkeyed[i].prefix ?? impl.codingPath(depth: impl.state.unkeyed[i].depth)
    }
    var count: Int? { slot.map { impl.state.unkeyed[$0].n } }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The reference of the current element, counted against the budget.
    @inline(__always)
    func element(_ type: Any.Type) throws -> Int {
        guard let i = slot else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: impl.codingPath,
                    debugDescription: "an unkeyed container was used after the value it belongs to was decoded"))
        }
        let n = impl.state.unkeyed[i].n
        guard currentIndex < n else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [PlistCodingKey(index: currentIndex)],
                    debugDescription: "the array has no element \(currentIndex) (it has \(n))"))
        }
        try impl.countValue(depth: impl.state.unkeyed[i].depth)
        return impl.elementReference(start: impl.state.unkeyed[i].start, currentIndex)
    }

    /// The depth and prefix the elements are decoded with.
    @inline(__always)
    var nesting: (depth: Int, prefix: [any CodingKey]?) {
        guard let i = slot else { return (impl.state.frames.count, nil) }
        return (impl.state.unkeyed[i].depth, impl.state.unkeyed[i].prefix)
    }

    @inline(__always)
    mutating func scalar<T>(_ read: (BinaryDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
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
        let index = currentIndex
        let (depth, prefix) = nesting
        let result = try impl.decodeValue(type, v, depth: depth, prefix: prefix, step: .index(index))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let v = try element(KeyedDecodingContainer<NestedKey>.self)
        let container = try impl.keyedContainer(type, ref: v, depth: nesting.depth, prefix: try nestedPrefix())
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let v = try element((any UnkeyedDecodingContainer).self)
        let container = try impl.unkeyedContainer(ref: v, depth: nesting.depth, prefix: try nestedPrefix())
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let v = try element((any Decoder).self)
        let decoder = BinaryChildDecoder(impl: impl, ref: v, codingPath: try nestedPrefix())
        currentIndex += 1
        return decoder
    }

    func nestedPrefix() throws -> [any CodingKey] {
        let path = codingPath + [PlistCodingKey(index: currentIndex)]
        guard path.count <= impl.maxDepth else { throw impl.depthExceeded(path) }
        return path
    }
}

struct BinarySingleValueDecoding: NumberSingleValueDecoding {
    let impl: BinaryDecoderImpl
    let ref: Int
    let depth: Int
    let prefix: [any CodingKey]?

    var codingPath: [any CodingKey] { prefix ?? impl.codingPath(depth: depth) }

    @inline(__always)
    func scalar<T>(_ read: (BinaryDecoderImpl, Int) throws(DecodeFailure) -> T) throws -> T {
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
