// Sources/PropertyList/Codable/BinaryDecodingValues.swift - `decode<T>` of the binary decoder: the
// types the format holds are read directly, arrays and dictionaries of them in one loop, anything
// else through its `init(from:)` as a nested value.
//
//   String, integers, Float, Double, Bool   in place (numbers by the shared rule, NumberConversion)
//   Date, Data                              the format's date and data objects, as Foundation writes them
//   PlistUID                                a UID object (keyed-archive references)
//   [String], [Int], [Double], [Bool]       one loop over the array, no container per element
//   [String: V], [Int: V]                   one loop over the dictionary's entries
//   anything else (URL, UUID, Decimal, …)   its own Codable conformance, as with Foundation's decoder

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension BinaryDecoderImpl {
    /// The offset of object `ref` when it is a valid reference (for error locations).
    func offsetIfValid(_ ref: Int) -> Int? {
        guard ref >= 0, ref < objectCount else { return nil }
        return try? read { (r) throws(DecodeFailure) in try offset(r, ref) }
    }

    func depthExceeded(_ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path, debugDescription: "nested deeper than \(maxDepth) levels",
                underlyingError: PlistError(
                    .limitExceeded, "nested deeper than PlistLimits.maxDepth (\(maxDepth)) levels")))
    }

    /// Decodes value `ref` as `T` (already counted against the budget by the container).
    ///
    /// - Parameters:
    ///   - depth: The frames below the container asking; `prefix`: its whole path when a child
    ///     decoder made it.
    ///   - step: How the container reached `ref` (made only for a nested value).
    ///   - key: The same, for the coding path of an error.
    @inline(__always)
    func decodeValue<T: Decodable, K: CodingKey>(
        _ type: T.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?, step: @autoclosure () -> DecodeStep,
        key: K?
    ) throws -> T {
        do throws(DecodeFailure) {
            if let v = try scalarValue(type, ref) { return v }
        } catch {
            var path = prefix ?? codingPath(depth: depth)
            if let key { path.append(key) }
            throw error.decodingError(T.self, path)
        }
        if let v = try collectionValue(type, ref, depth: depth, prefix: prefix, step: step(), key: key) { return v }
        return try decodeNested(type, ref, step(), prefix: prefix)
    }

    /// `ref` as `T` when `T` is a type the format holds directly; `nil` for any other type.
    @inline(__always)
    func scalarValue<T>(_ type: T.Type, _ ref: Int) throws(DecodeFailure) -> T? {
        if T.self == String.self { return try string(ref) as? T }
        if T.self == Int.self { return try integer(ref, as: Int.self) as? T }
        if T.self == Double.self { return try floatingPoint(ref, as: Double.self) as? T }
        if T.self == Bool.self { return try bool(ref) as? T }
        if T.self == Date.self { return try date(ref) as? T }
        if T.self == Data.self { return try data(ref) as? T }
        if T.self == Float.self { return try floatingPoint(ref, as: Float.self) as? T }
        if T.self == Int64.self { return try integer(ref, as: Int64.self) as? T }
        if T.self == UInt64.self { return try integer(ref, as: UInt64.self) as? T }
        if T.self == Int32.self { return try integer(ref, as: Int32.self) as? T }
        if T.self == UInt32.self { return try integer(ref, as: UInt32.self) as? T }
        if T.self == UInt8.self { return try integer(ref, as: UInt8.self) as? T }
        if T.self == Int8.self { return try integer(ref, as: Int8.self) as? T }
        if T.self == Int16.self { return try integer(ref, as: Int16.self) as? T }
        if T.self == UInt16.self { return try integer(ref, as: UInt16.self) as? T }
        if T.self == UInt.self { return try integer(ref, as: UInt.self) as? T }
        if T.self == Int128.self { return try integer(ref, as: Int128.self) as? T }
        if T.self == UInt128.self { return try integer(ref, as: UInt128.self) as? T }
        if T.self == PlistUID.self { return PlistUID(try uid(ref)) as? T }
        return nil
    }

    /// `ref` as `T` when `T` is an array of strings, integers, reals or booleans, or a dictionary
    /// keyed by `String` or `Int`; `nil` for any other type.
    @inline(__always)
    func collectionValue<T: Decodable, K: CodingKey>(
        _ type: T.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?, step: @autoclosure () -> DecodeStep, key: K?
    ) throws -> T? {
        if T.self == [String].self {
            return try array(String.self, ref, depth: depth, prefix: prefix, key: key) { (v) throws(DecodeFailure) in
                try string(v)
            } as? T
        }
        if T.self == [Int].self {
            return try array(Int.self, ref, depth: depth, prefix: prefix, key: key) { (v) throws(DecodeFailure) in
                try integer(v, as: Int.self)
            } as? T
        }
        if T.self == [Double].self {
            return try array(Double.self, ref, depth: depth, prefix: prefix, key: key) { (v) throws(DecodeFailure) in
                try floatingPoint(v, as: Double.self)
            } as? T
        }
        if T.self == [Bool].self {
            return try array(Bool.self, ref, depth: depth, prefix: prefix, key: key) { (v) throws(DecodeFailure) in
                try bool(v)
            } as? T
        }
        if let dictionary = T.self as? any StringKeyedDictionaryDecodable.Type {
            return try dictionary.decodeEntries(from: self, ref, step: step(), prefix: prefix) as? T
        }
        return nil
    }

    /// The elements of array (or set) `ref` read by `element`, in one loop.
    @inline(__always)
    func array<E, K: CodingKey>(
        _ type: E.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?, key: K?,
        _ element: (Int) throws(DecodeFailure) -> E
    ) throws -> [E] {
        func path(_ index: Int?) -> [any CodingKey] {
            var p = prefix ?? codingPath(depth: depth)
            if let key { p.append(key) }
            if let index { p.append(PlistCodingKey(index: index)) }
            return p
        }
        let raw: RawObject
        do throws(DecodeFailure) {
            raw = try container(ref, keyed: false)
        } catch {
            throw error.decodingError([E].self, path(nil))
        }
        let n = raw.count
        guard state.values <= state.budget &- n else { try budgetExceeded(depth: depth) }
        state.values &+= n
        var result: [E] = []
        result.reserveCapacity(n)
        var i = 0
        do throws(DecodeFailure) {
            while i < n {
                let index = i
                let v = try read { (r) throws(DecodeFailure) in reference(r, raw.payload, index) }
                result.append(try element(v))
                i &+= 1
            }
        } catch {
            throw error.decodingError(E.self, path(i))
        }
        return result
    }
}

// MARK: - Dictionaries

/// `[String: V]` and `[Int: V]`: decoded entry by entry from the dictionary, in one loop (the
/// standard library's conformance would look every key up again by name).
protocol StringKeyedDictionaryDecodable {
    static func decodeEntries(from impl: BinaryDecoderImpl, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?)
        throws -> Self
}

extension Dictionary: StringKeyedDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func decodeEntries(from impl: BinaryDecoderImpl, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?)
        throws -> Self
    {
        guard Key.self == String.self || Key.self == Int.self else {
            // Any other key type: the standard library's conformance (an array of alternating keys
            // and values, as Foundation writes it).
            return try impl.decodeNested(Self.self, ref, step, prefix: prefix)
        }
        return try impl.withFrame(ref, step, prefix: prefix) { (depth) throws -> Self in
            let raw: RawObject
            do throws(DecodeFailure) {
                raw = try impl.container(ref, keyed: true)
            } catch {
                throw error.decodingError(Self.self, impl.codingPath(depth: depth))
            }
            let n = raw.count
            var result: [Key: Value] = [:]
            result.reserveCapacity(n)
            for i in 0..<n {
                try impl.countValue(depth: depth)
                let (k, v) = try impl.read { (r) throws(DecodeFailure) in
                    (impl.reference(r, raw.payload, i), impl.reference(r, raw.payload, n &+ i))
                }
                let text: String
                do throws(DecodeFailure) {
                    text = try impl.string(k)
                } catch {
                    throw error.decodingError(Key.self, impl.codingPath(depth: depth))
                }
                let codingKey = PlistCodingKey(text)
                let key: Key
                if let s = text as? Key {
                    key = s
                } else if let number = Int(text), let n = number as? Key {
                    key = n
                } else {
                    throw DecodingError.typeMismatch(
                        Key.self,
                        DecodingError.Context(
                            codingPath: impl.codingPath(depth: depth) + [codingKey],
                            debugDescription: "expected an Int key, found the key \"\(text)\""))
                }
                result[key] = try impl.decodeValue(
                    Value.self, v, depth: depth, prefix: nil, step: .key(codingKey), key: codingKey)
            }
            return result
        }
    }
}
