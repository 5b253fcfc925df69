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
    /// Written without `T?` or any other type built on `T`: in this generic code each would cost a
    /// run-time metadata lookup per call (measured: a third of a `[Record]` decode).
    ///
    /// - Parameters:
    ///   - depth: The frames below the container asking; `prefix`: its whole path when a child
    ///     decoder made it.
    ///   - step: How the container reached `ref` (made only for a nested value or an error).
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?, step: @autoclosure () -> DecodeStep
    ) throws -> T {
        if let kind = ScalarKind.of(T.self) {
            do throws(DecodeFailure) {
                return try readScalar(kind, ref, as: T.self)
            } catch {
                var path = prefix ?? codingPath(depth: depth)
                appendStep(step(), to: &path)
                throw error.decodingError(T.self, path)
            }
        }
        switch CollectionKind.of(T.self) {
        case .stringArray:
            return identityCast(try strings(ref, depth, prefix, step()), to: T.self)
        case .intArray:
            let ints = try array(ref, depth, prefix, step()) { (d, v) throws(DecodeFailure) in
                try d.integer(v, as: Int.self)
            }
            return identityCast(ints, to: T.self)
        case .doubleArray:
            let doubles = try array(ref, depth, prefix, step()) { (d, v) throws(DecodeFailure) in
                try d.floatingPoint(v, as: Double.self)
            }
            return identityCast(doubles, to: T.self)
        case .boolArray:
            let bools = try array(ref, depth, prefix, step()) { (d, v) throws(DecodeFailure) in try d.bool(v) }
            return identityCast(bools, to: T.self)
        case .other: break
        }
        if isStringKeyedDictionary(T.self), let dictionary = T.self as? any StringKeyedDictionaryDecodable.Type {
            return try entries(dictionary, as: T.self, ref, step: step(), prefix: prefix)
        }
        return try decodeNested(type, ref, step(), prefix: prefix)
    }

    /// The dictionary `ref` decoded as `D` (which is `T`), entry by entry.
    func entries<D: StringKeyedDictionaryDecodable, T>(
        _ type: D.Type, as result: T.Type, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?
    ) throws -> T {
        identityCast(try D.decodeEntries(from: self, ref, step: step, prefix: prefix), to: T.self)
    }

    /// Whether `type` conforms to `StringKeyedDictionaryDecodable` (a `Dictionary`).
    @inline(__always)
    func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        state.dictionaryTypes.answer(for: type) { $0 is any StringKeyedDictionaryDecodable.Type }
    }

    /// The strings of array (or set) `ref`, in one loop over its references: an ASCII string is made
    /// from the input where it lies (`inPlaceString`), any other through the string cache
    /// (`cachedString`). Its own loop, not `array`'s: it takes the input once for the whole array,
    /// where `array` borrows it for each reference (`read`).
    ///
    /// Measured on the peers' strings workload (212,000 ASCII strings of 16 to 56 bytes): calling
    /// `string(_:)` per element spent about 260 instructions a string in our code, this loop about
    /// 100; what is left is the standard library making each `String` and `malloc`.
    func strings(
        _ ref: Int, _ depth: Int, _ prefix: [any CodingKey]?, _ step: @autoclosure () -> DecodeStep
    ) throws -> [String] {
        guard let r = state.input else {
            return try array(ref, depth, prefix, step()) { (d, v) throws(DecodeFailure) in try d.string(v) }
        }
        let raw = try elements(ref, depth, prefix, step(), of: String.self)
        var result: [String] = []
        result.reserveCapacity(raw.count)
        var i = 0
        do throws(DecodeFailure) {
            while i < raw.count {
                let v = reference(r, raw.payload, i)
                if let s = inPlaceString(r, v) {
                    result.append(s)
                } else {
                    result.append(try cachedString(v))
                }
                i &+= 1
            }
        } catch {
            throw error.decodingError(String.self, elementPath(depth, prefix, step(), i))
        }
        return result
    }

    /// The elements of array (or set) `ref` read by `element`, in one loop.
    @inline(__always)
    func array<E>(
        _ ref: Int, _ depth: Int, _ prefix: [any CodingKey]?, _ step: @autoclosure () -> DecodeStep,
        _ element: (BinaryDecoderImpl, Int) throws(DecodeFailure) -> E
    ) throws -> [E] {
        let raw = try elements(ref, depth, prefix, step(), of: E.self)
        var result: [E] = []
        result.reserveCapacity(raw.count)
        var i = 0
        do throws(DecodeFailure) {
            while i < raw.count {
                let index = i
                let v = try read { (r) throws(DecodeFailure) in reference(r, raw.payload, index) }
                result.append(try element(self, v))
                i &+= 1
            }
        } catch {
            throw error.decodingError(E.self, elementPath(depth, prefix, step(), i))
        }
        return result
    }

    /// Array (or set) `ref`, its elements counted against the value budget: what `array` and
    /// `strings` read before their loops. A mismatch is reported as a `[E]` at the container's path.
    func elements<E>(
        _ ref: Int, _ depth: Int, _ prefix: [any CodingKey]?, _ step: @autoclosure () -> DecodeStep, of: E.Type
    ) throws -> RawObject {
        let raw: RawObject
        do throws(DecodeFailure) {
            raw = try container(ref, keyed: false)
        } catch {
            throw error.decodingError([E].self, elementPath(depth, prefix, step(), nil))
        }
        guard state.values <= state.budget &- raw.count else { try budgetExceeded(depth: depth) }
        state.values &+= raw.count
        return raw
    }

    /// The coding path of element `index` of an array reached by `step` (of the array itself when
    /// `index` is nil): made only for an error.
    func elementPath(_ depth: Int, _ prefix: [any CodingKey]?, _ step: DecodeStep, _ index: Int?) -> [any CodingKey] {
        var p = prefix ?? codingPath(depth: depth)
        appendStep(step, to: &p)
        if let index { p.append(PlistCodingKey(index: index)) }
        return p
    }
}

/// The types `decodeValue` and `encodeValue` read and write directly, told apart once per call by
/// metatype comparisons (no `T?` made).
enum ScalarKind {
    case string, int, double, bool, date, data, float, int64, uint64, int32, uint32, uint8, int8, int16, uint16
    case uint, int128, uint128, uid

    @inline(__always)
    static func of(_ type: Any.Type) -> ScalarKind? {
        if type == String.self { return .string }
        if type == Int.self { return .int }
        if type == Double.self { return .double }
        if type == Bool.self { return .bool }
        if type == Date.self { return .date }
        if type == Data.self { return .data }
        if type == Float.self { return .float }
        if type == Int64.self { return .int64 }
        if type == UInt64.self { return .uint64 }
        if type == Int32.self { return .int32 }
        if type == UInt32.self { return .uint32 }
        if type == UInt8.self { return .uint8 }
        if type == Int8.self { return .int8 }
        if type == Int16.self { return .int16 }
        if type == UInt16.self { return .uint16 }
        if type == UInt.self { return .uint }
        if type == Int128.self { return .int128 }
        if type == UInt128.self { return .uint128 }
        if type == PlistUID.self { return .uid }
        return nil
    }
}

/// A decoder's reads of the types `ScalarKind` names, from one of its nodes (an object index, a tape
/// entry, a tree value), so that the three decoders share the one switch over the kinds
/// (`readScalar`). Each calls it on itself, a concrete class: the switch is inlined there.
protocol ScalarReading {
    associatedtype Node
    func string(_ node: Node) throws(DecodeFailure) -> String
    func integer<T: FixedWidthInteger>(_ node: Node, as type: T.Type) throws(DecodeFailure) -> T
    func floatingPoint<T: BinaryFloatingPoint>(_ node: Node, as type: T.Type) throws(DecodeFailure) -> T
    func bool(_ node: Node) throws(DecodeFailure) -> Bool
    func date(_ node: Node) throws(DecodeFailure) -> Date
    func data(_ node: Node) throws(DecodeFailure) -> Data
    func uid(_ node: Node) throws(DecodeFailure) -> UInt64
}

extension ScalarReading {
    /// `node` read as `T`, which is the type `kind` names: each value is returned as `T` without a cast.
    @inline(__always)
    func readScalar<T>(_ kind: ScalarKind, _ node: Node, as type: T.Type) throws(DecodeFailure) -> T {
        switch kind {
        case .string: return identityCast(try string(node), to: T.self)
        case .int: return identityCast(try integer(node, as: Int.self), to: T.self)
        case .double: return identityCast(try floatingPoint(node, as: Double.self), to: T.self)
        case .bool: return identityCast(try bool(node), to: T.self)
        case .date: return identityCast(try date(node), to: T.self)
        case .data: return identityCast(try data(node), to: T.self)
        case .float: return identityCast(try floatingPoint(node, as: Float.self), to: T.self)
        case .int64: return identityCast(try integer(node, as: Int64.self), to: T.self)
        case .uint64: return identityCast(try integer(node, as: UInt64.self), to: T.self)
        case .int32: return identityCast(try integer(node, as: Int32.self), to: T.self)
        case .uint32: return identityCast(try integer(node, as: UInt32.self), to: T.self)
        case .uint8: return identityCast(try integer(node, as: UInt8.self), to: T.self)
        case .int8: return identityCast(try integer(node, as: Int8.self), to: T.self)
        case .int16: return identityCast(try integer(node, as: Int16.self), to: T.self)
        case .uint16: return identityCast(try integer(node, as: UInt16.self), to: T.self)
        case .uint: return identityCast(try integer(node, as: UInt.self), to: T.self)
        case .int128: return identityCast(try integer(node, as: Int128.self), to: T.self)
        case .uint128: return identityCast(try integer(node, as: UInt128.self), to: T.self)
        case .uid: return identityCast(PlistUID(try uid(node)), to: T.self)
        }
    }
}

/// The arrays `decodeValue` and `encodeValue` read and write in one loop.
enum CollectionKind {
    case stringArray, intArray, doubleArray, boolArray, other

    @inline(__always)
    static func of(_ type: Any.Type) -> CollectionKind {
        if type == [String].self { return .stringArray }
        if type == [Int].self { return .intArray }
        if type == [Double].self { return .doubleArray }
        if type == [Bool].self { return .boolArray }
        return .other
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
                result[key] = try impl.decodeValue(Value.self, v, depth: depth, prefix: nil, step: .key(codingKey))
            }
            return result
        }
    }
}
