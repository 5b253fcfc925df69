// Sources/PropertyList/Codable/TreeDecoding.swift - Decodable values straight from a `PlistValue`
// tree: the decoder's state, its reads, nested values, budget and depth.
//
// The decoder of `PlistDecoder.decode(_:from: PlistValue)` and of OpenStep and JSON, which are read
// into a tree first (XML is read into a tape instead, with no tree: TapeDecoding.swift). It follows the binary decoder (BinaryDecoding.swift) rule
// for rule: the same types read directly, the same number rule (`NumberConversion`), `null` and the
// string `"$null"` as nil, the same `DecodingError` kinds, coding paths and messages (a tree has no
// byte offsets, so its `PlistError`s carry none, as the binary decoder's do for a document made from
// a tree), the same depth bound and value budget. A tree cannot hold a cycle, so there is no cycle
// check. (The tree used to be written as a binary property list and decoded from that; this
// decoder reads the tree in place.)
//
// One `TreeDecoderImpl` serves the whole decode; a nested value is decoded by pointing it at another
// value (`current`) for the extent of the value's `init(from:)`, with a frame pushed on `frames`:
// a container remembers how many frames were below it (`depth`), and its coding path is made from
// them only when an error or the caller asks for it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One nested value being decoded from a tree: how it was reached, and the parent's whole path when
/// the parent is a decoder made by `superDecoder()`.
struct TreeFrame {
    var step: DecodeStep
    var prefix: [any CodingKey]?
}

/// The `Decoder` of a decode from a ``PlistValue``.
final class TreeDecoderImpl: Decoder, ScalarReading {
    let userInfo: [CodingUserInfoKey: Any]
    let maxDepth: Int
    /// How many values the decode may produce (see `PlistDecoder.valueBudget(forInputBytes:)`).
    let budget: Int
    /// Values decoded so far.
    var values = 0
    /// The value that the next `container(keyedBy:)`/`unkeyedContainer()`/`singleValueContainer()`
    /// of the decoder reads.
    var current: PlistValue
    /// The nested values being decoded, bottom to top.
    var frames: [TreeFrame] = []
    /// The position after the last key found in a dictionary: keys are usually asked for in order,
    /// so the next one is looked at there first (only a hint, checked before it is used).
    var keyHint = 0
    /// Whether the last type asked about is a `Dictionary` (`isStringKeyedDictionary`).
    var dictionaryTypes = TypeMemo()

    init(root: PlistValue, userInfo: [CodingUserInfoKey: Any], maxDepth: Int, budget: Int) {
        current = root
        self.userInfo = userInfo
        self.maxDepth = maxDepth
        self.budget = budget
    }

    var codingPath: [any CodingKey] { codingPath(depth: frames.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(type, current, depth: frames.count, prefix: nil)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(current, depth: frames.count, prefix: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueDecoding(impl: self, value: current, depth: frames.count, prefix: nil)
    }
}

// MARK: - Reads

extension TreeDecoderImpl {
    /// What `value` is, for messages (the binary decoder's words).
    static func describe(_ value: PlistValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .real: "a real"
        case .date: "a date"
        case .data: "data"
        case .string: "a string"
        case .uid: "a UID"
        case .array: "an array"
        case .set: "a set"
        case .dictionary: "a dictionary"
        }
    }

    /// Whether `value` is null: the null object, or the string `"$null"` (how Foundation writes nil).
    static func isNull(_ value: PlistValue) -> Bool {
        switch value {
        case .null: true
        case .string(let s): s.utf8Count == 5 && s == "$null"
        default: false
        }
    }

    /// The failure for `value` not being `expected`: `valueNotFound` for null, `typeMismatch` otherwise.
    func mismatch(_ value: PlistValue, expected: String) -> DecodeFailure {
        if TreeDecoderImpl.isNull(value) {
            return DecodeFailure(
                kind: .valueNotFound, error: PlistError(.valueNotFound, "expected \(expected), found null"))
        }
        return DecodeFailure(
            kind: .typeMismatch,
            error: PlistError(.typeMismatch, "expected \(expected), found \(TreeDecoderImpl.describe(value))"))
    }

    @inline(__always)
    func string(_ value: PlistValue) throws(DecodeFailure) -> String {
        guard case .string(let s) = value else { throw mismatch(value, expected: "a string") }
        return s.string
    }

    /// The number `value` holds: an integer, a real or a boolean.
    @inline(__always)
    func number(_ value: PlistValue) throws(DecodeFailure) -> StoredNumber {
        switch value {
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        case .bool(let b): return .bool(b)
        default: throw mismatch(value, expected: "a number")
        }
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ value: PlistValue, as type: T.Type) throws(DecodeFailure) -> T {
        if case .integer(let i) = value, let v = T(exactly: i) { return v }
        switch NumberConversion.integer(try number(value), as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw TreeDecoderImpl.conversionFailure(f)
        }
    }

    @inline(__always)
    func floatingPoint<T: BinaryFloatingPoint>(_ value: PlistValue, as type: T.Type) throws(DecodeFailure) -> T {
        switch NumberConversion.floatingPoint(try number(value), as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw TreeDecoderImpl.conversionFailure(f)
        }
    }

    @inline(__always)
    func bool(_ value: PlistValue) throws(DecodeFailure) -> Bool {
        if case .bool(let b) = value { return b }
        switch NumberConversion.bool(try number(value)) {
        case .success(let v): return v
        case .failure(let f): throw TreeDecoderImpl.conversionFailure(f)
        }
    }

    static func conversionFailure(_ f: NumberConversionFailure) -> DecodeFailure {
        switch f.kind {
        case .typeMismatch: DecodeFailure(kind: .typeMismatch, error: PlistError(.typeMismatch, f.detail))
        case .outOfRange: DecodeFailure(kind: .outOfRange, error: PlistError(.numberOutOfRange, f.detail))
        }
    }

    func date(_ value: PlistValue) throws(DecodeFailure) -> Date {
        guard case .date(let d) = value else { throw mismatch(value, expected: "a date") }
        return d
    }

    func data(_ value: PlistValue) throws(DecodeFailure) -> Data {
        guard case .data(let d) = value else { throw mismatch(value, expected: "data") }
        return d
    }

    func uid(_ value: PlistValue) throws(DecodeFailure) -> UInt64 {
        guard case .uid(let u) = value else { throw mismatch(value, expected: "a UID") }
        return u
    }

    /// The elements of an array or a set (what an unkeyed container reads).
    @inline(__always)
    func elements(_ value: PlistValue) throws(DecodeFailure) -> [PlistValue] {
        switch value {
        case .array(let a), .set(let a): return a
        default: throw mismatch(value, expected: "an array")
        }
    }

    /// The entries of a dictionary (what a keyed container reads).
    @inline(__always)
    func entries(_ value: PlistValue) throws(DecodeFailure) -> [PlistDictionary.Element] {
        guard case .dictionary(let d) = value else { throw mismatch(value, expected: "a dictionary") }
        return d.entries
    }

    /// The position of the entry whose key is the string `key` in `entries`, or nil. A dictionary's
    /// keys are unique (``PlistDictionary``), so any match is the one.
    @inline(__always)
    func find(_ key: String, in entries: [PlistDictionary.Element]) -> Int? {
        let n = entries.count
        let hint = keyHint
        if hint < n, case .string(let s) = entries[hint].key, s == key {
            keyHint = hint &+ 1
            return hint
        }
        var i = 0
        while i < n {
            if case .string(let s) = entries[i].key, s == key {
                keyHint = i &+ 1
                return i
            }
            i &+= 1
        }
        return nil
    }
}

// MARK: - Paths, budget, nesting

extension TreeDecoderImpl {
    /// The coding path of a container made when `depth` frames were on the stack.
    func codingPath(depth: Int) -> [any CodingKey] {
        let top = min(depth, frames.count)
        var start = 0
        var path: [any CodingKey] = []
        var j = top - 1
        while j >= 0 {
            if let prefix = frames[j].prefix {
                path = prefix
                start = j
                break
            }
            j -= 1
        }
        for i in start..<top { TreeDecoderImpl.appendStep(frames[i].step, to: &path) }
        return path
    }

    static func appendStep(_ step: DecodeStep, to path: inout [any CodingKey]) {
        switch step {
        case .none: break
        case .key(let k): path.append(k)
        case .index(let n): path.append(PlistCodingKey(index: n))
        }
    }

    /// Counts one value against the budget.
    @inline(__always)
    func countValue(depth: Int) throws {
        values &+= 1
        if values > budget { try budgetExceeded(depth: depth) }
    }

    func budgetExceeded(depth: Int) throws -> Never {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(depth: depth),
                debugDescription: "more than \(budget) values decoded",
                underlyingError: PlistError(
                    .limitExceeded,
                    "more than \(budget) values decoded (a shared sub-tree is decoded once per reference; "
                        + "raise PlistLimits.maxValues or PlistDecoder.expansionLimit for larger trusted input)")))
    }

    func depthExceeded(_ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path, debugDescription: "nested deeper than \(maxDepth) levels",
                underlyingError: PlistError(
                    .limitExceeded, "nested deeper than PlistLimits.maxDepth (\(maxDepth)) levels")))
    }

    /// Decodes the nested value as `T` through its `init(from:)`, with a frame pushed.
    func decodeNested<T: Decodable>(_ type: T.Type, _ value: PlistValue, _ step: DecodeStep, prefix: [any CodingKey]?)
        throws -> T
    {
        try withFrame(value, step, prefix: prefix) { _ in try T(from: self) }
    }

    /// Runs `body` with a frame for the nested `value` pushed and the decoder pointed at it; `body`
    /// gets the depth of the containers made inside it.
    ///
    /// - Throws: `limitExceeded` past the depth limit.
    @inline(__always)
    func withFrame<R>(_ value: PlistValue, _ step: DecodeStep, prefix: [any CodingKey]?, _ body: (Int) throws -> R)
        throws -> R
    {
        let depth = frames.count
        guard depth < maxDepth else {
            var path = prefix ?? codingPath(depth: depth)
            TreeDecoderImpl.appendStep(step, to: &path)
            throw depthExceeded(path)
        }
        frames.append(TreeFrame(step: step, prefix: prefix))
        let saved = current
        current = value
        defer {
            current = saved
            frames.removeLast()
        }
        return try body(depth &+ 1)
    }

    /// A keyed container over the dictionary `value`.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, _ value: PlistValue, depth: Int, prefix: [any CodingKey]?)
        throws -> KeyedDecodingContainer<Key>
    {
        let found: [PlistDictionary.Element]
        do throws(DecodeFailure) {
            found = try entries(value)
        } catch {
            throw error.decodingError([String: Any].self, prefix ?? codingPath(depth: depth))
        }
        return KeyedDecodingContainer(TreeKeyedDecoding<Key>(impl: self, entries: found, depth: depth, prefix: prefix))
    }

    /// An unkeyed container over the array or set `value`.
    func unkeyedContainer(_ value: PlistValue, depth: Int, prefix: [any CodingKey]?) throws
        -> any UnkeyedDecodingContainer
    {
        let found: [PlistValue]
        do throws(DecodeFailure) {
            found = try elements(value)
        } catch {
            throw error.decodingError([Any].self, prefix ?? codingPath(depth: depth))
        }
        return TreeUnkeyedDecoding(impl: self, elements: found, depth: depth, prefix: prefix)
    }
}

// MARK: - decode<T>

extension TreeDecoderImpl {
    /// Decodes `value` as `T` (already counted against the budget by the container): the types the
    /// format holds directly, arrays of them and string-keyed dictionaries in one loop, anything else
    /// through its `init(from:)` as a nested value (BinaryDecodingValues.swift's rules).
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: PlistValue, depth: Int, prefix: [any CodingKey]?, step: @autoclosure () -> DecodeStep
    ) throws -> T {
        if let kind = ScalarKind.of(T.self) {
            do throws(DecodeFailure) {
                return try readScalar(kind, value, as: T.self)
            } catch {
                var path = prefix ?? codingPath(depth: depth)
                TreeDecoderImpl.appendStep(step(), to: &path)
                throw error.decodingError(T.self, path)
            }
        }
        switch CollectionKind.of(T.self) {
        case .stringArray:
            let strings = try array(value, depth, prefix, step()) { (d, v) throws(DecodeFailure) in try d.string(v) }
            return identityCast(strings, to: T.self)
        case .intArray:
            let ints = try array(value, depth, prefix, step()) { (d, v) throws(DecodeFailure) in
                try d.integer(v, as: Int.self)
            }
            return identityCast(ints, to: T.self)
        case .doubleArray:
            let doubles = try array(value, depth, prefix, step()) { (d, v) throws(DecodeFailure) in
                try d.floatingPoint(v, as: Double.self)
            }
            return identityCast(doubles, to: T.self)
        case .boolArray:
            let bools = try array(value, depth, prefix, step()) { (d, v) throws(DecodeFailure) in try d.bool(v) }
            return identityCast(bools, to: T.self)
        case .other: break
        }
        if isStringKeyedDictionary(T.self), let dictionary = T.self as? any TreeDictionaryDecodable.Type {
            return try entries(dictionary, as: T.self, value, step: step(), prefix: prefix)
        }
        return try decodeNested(type, value, step(), prefix: prefix)
    }

    /// The dictionary `value` decoded as `D` (which is `T`), entry by entry.
    func entries<D: TreeDictionaryDecodable, T>(
        _ type: D.Type, as result: T.Type, _ value: PlistValue, step: DecodeStep, prefix: [any CodingKey]?
    ) throws -> T {
        identityCast(try D.decodeEntries(from: self, value, step: step, prefix: prefix), to: T.self)
    }

    /// Whether `type` conforms to `TreeDictionaryDecodable` (a `Dictionary`).
    @inline(__always)
    func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        dictionaryTypes.answer(for: type) { $0 is any TreeDictionaryDecodable.Type }
    }

    /// The elements of array (or set) `value` read by `element`, in one loop.
    @inline(__always)
    func array<E>(
        _ value: PlistValue, _ depth: Int, _ prefix: [any CodingKey]?, _ step: @autoclosure () -> DecodeStep,
        _ element: (TreeDecoderImpl, PlistValue) throws(DecodeFailure) -> E
    ) throws -> [E] {
        func path(_ index: Int?) -> [any CodingKey] {
            var p = prefix ?? codingPath(depth: depth)
            TreeDecoderImpl.appendStep(step(), to: &p)
            if let index { p.append(PlistCodingKey(index: index)) }
            return p
        }
        let items: [PlistValue]
        do throws(DecodeFailure) {
            items = try elements(value)
        } catch {
            throw error.decodingError([E].self, path(nil))
        }
        let n = items.count
        guard values <= budget &- n else { try budgetExceeded(depth: depth) }
        values &+= n
        var result: [E] = []
        result.reserveCapacity(n)
        var i = 0
        do throws(DecodeFailure) {
            while i < n {
                result.append(try element(self, items[i]))
                i &+= 1
            }
        } catch {
            throw error.decodingError(E.self, path(i))
        }
        return result
    }
}

// MARK: - Dictionaries

/// `[String: V]` and `[Int: V]`: decoded entry by entry from the dictionary, in one loop.
protocol TreeDictionaryDecodable {
    static func decodeEntries(
        from impl: TreeDecoderImpl, _ value: PlistValue, step: DecodeStep, prefix: [any CodingKey]?
    )
        throws -> Self
}

extension Dictionary: TreeDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func decodeEntries(
        from impl: TreeDecoderImpl, _ value: PlistValue, step: DecodeStep, prefix: [any CodingKey]?
    )
        throws -> Self
    {
        guard Key.self == String.self || Key.self == Int.self else {
            // Any other key type: the standard library's conformance (an array of alternating keys
            // and values, as Foundation writes it).
            return try impl.decodeNested(Self.self, value, step, prefix: prefix)
        }
        return try impl.withFrame(value, step, prefix: prefix) { (depth) throws -> Self in
            let found: [PlistDictionary.Element]
            do throws(DecodeFailure) {
                found = try impl.entries(value)
            } catch {
                throw error.decodingError(Self.self, impl.codingPath(depth: depth))
            }
            var result: [Key: Value] = [:]
            result.reserveCapacity(found.count)
            for entry in found {
                try impl.countValue(depth: depth)
                let text: String
                do throws(DecodeFailure) {
                    text = try impl.string(entry.key)
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
                    Value.self, entry.value, depth: depth, prefix: nil, step: .key(codingKey))
            }
            return result
        }
    }
}

/// The decoder `superDecoder()` and `superDecoder(forKey:)` return: the same decode, pointed at one
/// value, with its own coding path.
final class TreeChildDecoder: Decoder {
    let impl: TreeDecoderImpl
    let value: PlistValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { impl.userInfo }

    init(impl: TreeDecoderImpl, value: PlistValue, codingPath: [any CodingKey]) {
        self.impl = impl
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try impl.keyedContainer(type, value, depth: impl.frames.count, prefix: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try impl.unkeyedContainer(value, depth: impl.frames.count, prefix: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueDecoding(impl: impl, value: value, depth: impl.frames.count, prefix: codingPath)
    }
}
