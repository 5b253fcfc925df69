// Sources/PropertyList/Codable/TapeDecoding.swift - Decodable values from a `PlistTape`: the decoder's
// reads, nested values, budget and depth.
//
// The decoder of XML: the reader writes the document into a tape as it parses (XMLTapeSink.swift),
// and this reads it, with no `PlistValue` made. It follows the binary decoder (BinaryDecoding.swift)
// and the tree decoder (TreeDecoding.swift) rule for rule: the same types read directly, the same
// number rule (`NumberConversion`), `null` and the string `"$null"` as nil, the same `DecodingError`
// kinds, coding paths and messages (a tape's `PlistError`s carry no byte offsets, as a tree's do
// not), the same depth bound and value budget; CodableXMLTapeTests holds it to the tree decoder,
// error for error. A tape cannot hold a cycle (its children come before it), so there is no cycle
// check.
//
// One `TapeDecoderImpl` serves the whole decode; a nested value is decoded by pointing it at another
// entry (`state.current`) for the extent of the value's `init(from:)`, with a frame pushed on
// `state.frames`: a container remembers how many frames were below it (`depth`), and its coding path
// is made from them only when an error or the caller asks for it. Strings that are bytes of the input
// are read through the input lent for the top-level decode (CoderCells.swift).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One nested value being decoded from a tape: how it was reached, and the parent's whole path when
/// the parent is a decoder made by `superDecoder()`.
struct TapeFrame {
    var step: DecodeStep
    var prefix: [any CodingKey]?
}

/// The mutable state of a tape decode (kept in `TapeDecoderImpl.state`, see CoderCells.swift).
struct TapeDecoderState {
    /// The tape's source bytes, lent for the whole top-level decode (nil outside it).
    var input: ByteReader? = nil
    /// The entry that the next `container(keyedBy:)`/`unkeyedContainer()`/`singleValueContainer()`
    /// of the decoder reads.
    var current: Int
    /// The nested values being decoded, bottom to top.
    var frames: [TapeFrame] = []
    /// Values decoded so far.
    var values = 0
    /// The position after the last key found in a dictionary: keys are usually asked for in order,
    /// so the next one is looked at there first (only a hint, checked before it is used).
    var keyHint = 0
    /// Whether the last type asked about is a `Dictionary` (`isStringKeyedDictionary`).
    var dictionaryTypes = TypeMemo()
}

extension TapeDecoderImpl {
    var codingPath: [any CodingKey] { codingPath(depth: state.frames.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(type, state.current, depth: state.frames.count, prefix: nil)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(state.current, depth: state.frames.count, prefix: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueDecoding(impl: self, ref: state.current, depth: state.frames.count, prefix: nil)
    }
}

// MARK: - Reads

extension TapeDecoderImpl {
    /// Runs `body` over the tape's source bytes: the lent bytes inside a top-level decode, a new
    /// borrow otherwise (a decoder a type kept and uses later).
    @inline(__always)
    func read<R>(_ body: (ByteReader) -> R) -> R {
        if let r = state.input { return body(r) }
        return withSourceBytes(body)
    }

    @inline(__always)
    func entry(_ ref: Int) -> PlistTape.Entry { tape.entries[ref] }

    /// What entry `ref` is, for messages (the binary decoder's words).
    func describe(_ ref: Int) -> String {
        switch entry(ref).kind {
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

    /// Whether entry `ref` is null: the null value, or the string `"$null"` (how Foundation writes nil).
    func isNull(_ ref: Int) -> Bool {
        let e = entry(ref)
        switch e.kind {
        case .null: return true
        case .string: return textEquals(e, "$null")
        default: return false
        }
    }

    /// The failure for entry `ref` not being `expected`: `valueNotFound` for null, `typeMismatch`
    /// otherwise.
    func mismatch(_ ref: Int, expected: String) -> DecodeFailure {
        if isNull(ref) {
            return DecodeFailure(
                kind: .valueNotFound, error: PlistError(.valueNotFound, "expected \(expected), found null"))
        }
        return DecodeFailure(
            kind: .typeMismatch, error: PlistError(.typeMismatch, "expected \(expected), found \(describe(ref))"))
    }

    /// The text of a string entry.
    @inline(__always)
    func text(_ e: PlistTape.Entry) -> String {
        switch e.form {
        case .inputASCII, .input:
            return inputText(e)
        case .side, .inline:
            return tape.plistString(e).string
        }
    }

    /// Whether the string entry `e` is the text `key`, byte for byte.
    @inline(__always)
    func textEquals(_ e: PlistTape.Entry, _ key: String) -> Bool {
        switch e.form {
        case .inputASCII, .input:
            let k = key.utf8.span
            guard k.count == Int(e.count) else { return false }
            return read { r in r.bytes(at: e.index, equal: k) }
        case .side, .inline:
            return tape.plistString(e) == key
        }
    }

    @inline(__always)
    func string(_ ref: Int) throws(DecodeFailure) -> String {
        let e = entry(ref)
        guard e.kind == .string else { throw mismatch(ref, expected: "a string") }
        return text(e)
    }

    /// The number entry `ref` holds: an integer, a real or a boolean.
    @inline(__always)
    func number(_ ref: Int) throws(DecodeFailure) -> StoredNumber {
        let e = entry(ref)
        switch e.kind {
        case .integer: return .integer(integerValue(e))
        case .real: return .real(Double(bitPattern: e.a))
        case .bool: return .bool(e.a != 0)
        default: throw mismatch(ref, expected: "a number")
        }
    }

    @inline(__always)
    func integerValue(_ e: PlistTape.Entry) -> PlistInteger { tape.integer(e) }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ ref: Int, as type: T.Type) throws(DecodeFailure) -> T {
        let e = entry(ref)
        if e.kind == .integer, e.form == .inline, let v = T(exactly: Int64(bitPattern: e.a)) { return v }
        switch NumberConversion.integer(try number(ref), as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw TapeDecoderImpl.conversionFailure(f)
        }
    }

    @inline(__always)
    func floatingPoint<T: BinaryFloatingPoint>(_ ref: Int, as type: T.Type) throws(DecodeFailure) -> T {
        let e = entry(ref)
        if e.kind == .real, T.self == Double.self { return T(Double(bitPattern: e.a)) }
        switch NumberConversion.floatingPoint(try number(ref), as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw TapeDecoderImpl.conversionFailure(f)
        }
    }

    @inline(__always)
    func bool(_ ref: Int) throws(DecodeFailure) -> Bool {
        let e = entry(ref)
        if e.kind == .bool { return e.a != 0 }
        switch NumberConversion.bool(try number(ref)) {
        case .success(let v): return v
        case .failure(let f): throw TapeDecoderImpl.conversionFailure(f)
        }
    }

    static func conversionFailure(_ f: NumberConversionFailure) -> DecodeFailure {
        switch f.kind {
        case .typeMismatch: DecodeFailure(kind: .typeMismatch, error: PlistError(.typeMismatch, f.detail))
        case .outOfRange: DecodeFailure(kind: .outOfRange, error: PlistError(.numberOutOfRange, f.detail))
        }
    }

    func date(_ ref: Int) throws(DecodeFailure) -> Date {
        let e = entry(ref)
        guard e.kind == .date else { throw mismatch(ref, expected: "a date") }
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: e.a))
    }

    func data(_ ref: Int) throws(DecodeFailure) -> Data {
        let e = entry(ref)
        guard e.kind == .data else { throw mismatch(ref, expected: "data") }
        return tape.data(e)
    }

    func uid(_ ref: Int) throws(DecodeFailure) -> UInt64 {
        let e = entry(ref)
        guard e.kind == .uid else { throw mismatch(ref, expected: "a UID") }
        return e.a
    }

    /// Where the elements of the array or set `ref` start in `tape.refs`, and how many there are
    /// (what an unkeyed container reads).
    @inline(__always)
    func elements(_ ref: Int) throws(DecodeFailure) -> (start: Int, count: Int) {
        let e = entry(ref)
        guard e.kind == .array || e.kind == .set else { throw mismatch(ref, expected: "an array") }
        return (e.index, Int(e.count))
    }

    /// Where the keys of the dictionary `ref` start in `tape.refs` (its values follow them), and how
    /// many entries it has (what a keyed container reads).
    @inline(__always)
    func entries(_ ref: Int) throws(DecodeFailure) -> (start: Int, count: Int) {
        let e = entry(ref)
        guard e.kind == .dictionary else { throw mismatch(ref, expected: "a dictionary") }
        return (e.index, Int(e.count))
    }

    /// The child `i` of the reference list starting at `start`.
    @inline(__always)
    func child(_ start: Int, _ i: Int) -> Int { Int(tape.refs[start &+ i]) }

    /// The text of the key entry `ref`, or nil when it is not a string.
    func keyText(_ ref: Int) -> String? {
        let e = entry(ref)
        return e.kind == .string ? text(e) : nil
    }

    /// The position of the entry whose key is the string `key` in the dictionary whose `count` keys
    /// start at `start`, or nil. A dictionary's keys are unique (the readers merge repeated keys, as
    /// ``PlistDictionary`` does), so any match is the one.
    @inline(__always)
    func find(_ key: String, start: Int, count n: Int) -> Int? {
        let hint = state.keyHint
        if hint < n, keyIs(child(start, hint), key) {
            state.keyHint = hint &+ 1
            return hint
        }
        var i = 0
        while i < n {
            if keyIs(child(start, i), key) {
                state.keyHint = i &+ 1
                return i
            }
            i &+= 1
        }
        return nil
    }

    @inline(__always)
    func keyIs(_ ref: Int, _ key: String) -> Bool {
        let e = entry(ref)
        return e.kind == .string && textEquals(e, key)
    }
}

// MARK: - Paths, budget, nesting

extension TapeDecoderImpl {
    /// The coding path of a container made when `depth` frames were on the stack.
    func codingPath(depth: Int) -> [any CodingKey] {
        let top = min(depth, state.frames.count)
        var start = 0
        var path: [any CodingKey] = []
        var j = top - 1
        while j >= 0 {
            if let prefix = state.frames[j].prefix {
                path = prefix
                start = j
                break
            }
            j -= 1
        }
        for i in start..<top { TapeDecoderImpl.appendStep(state.frames[i].step, to: &path) }
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
        state.values &+= 1
        if state.values > budget { try budgetExceeded(depth: depth) }
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

    /// Decodes the nested entry `ref` as `T` through its `init(from:)`, with a frame pushed.
    func decodeNested<T: Decodable>(_ type: T.Type, _ ref: Int, _ step: DecodeStep, prefix: [any CodingKey]?)
        throws -> T
    {
        try withFrame(ref, step, prefix: prefix) { _ in try T(from: self) }
    }

    /// Runs `body` with a frame for the nested entry `ref` pushed and the decoder pointed at it;
    /// `body` gets the depth of the containers made inside it.
    ///
    /// - Throws: `limitExceeded` past the depth limit.
    @inline(__always)
    func withFrame<R>(_ ref: Int, _ step: DecodeStep, prefix: [any CodingKey]?, _ body: (Int) throws -> R)
        throws -> R
    {
        let depth = state.frames.count
        guard depth < maxDepth else {
            var path = prefix ?? codingPath(depth: depth)
            TapeDecoderImpl.appendStep(step, to: &path)
            throw depthExceeded(path)
        }
        state.frames.append(TapeFrame(step: step, prefix: prefix))
        let saved = state.current
        state.current = ref
        defer {
            state.current = saved
            state.frames.removeLast()
        }
        return try body(depth &+ 1)
    }

    /// A keyed container over the dictionary `ref`.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?)
        throws -> KeyedDecodingContainer<Key>
    {
        let found: (start: Int, count: Int)
        do throws(DecodeFailure) {
            found = try entries(ref)
        } catch {
            throw error.decodingError([String: Any].self, prefix ?? codingPath(depth: depth))
        }
        return KeyedDecodingContainer(
            TapeKeyedDecoding<Key>(impl: self, start: found.start, count: found.count, depth: depth, prefix: prefix))
    }

    /// An unkeyed container over the array or set `ref`.
    func unkeyedContainer(_ ref: Int, depth: Int, prefix: [any CodingKey]?) throws -> any UnkeyedDecodingContainer {
        let found: (start: Int, count: Int)
        do throws(DecodeFailure) {
            found = try elements(ref)
        } catch {
            throw error.decodingError([Any].self, prefix ?? codingPath(depth: depth))
        }
        return TapeUnkeyedDecoding(impl: self, start: found.start, count: found.count, depth: depth, prefix: prefix)
    }
}

// MARK: - decode<T>

extension TapeDecoderImpl {
    /// Decodes entry `ref` as `T` (already counted against the budget by the container): the types the
    /// format holds directly, arrays of them and string-keyed dictionaries in one loop, anything else
    /// through its `init(from:)` as a nested value (BinaryDecodingValues.swift's rules).
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ ref: Int, depth: Int, prefix: [any CodingKey]?, step: @autoclosure () -> DecodeStep
    ) throws -> T {
        if let kind = ScalarKind.of(T.self) {
            do throws(DecodeFailure) {
                return try readScalar(kind, ref, as: T.self)
            } catch {
                var path = prefix ?? codingPath(depth: depth)
                TapeDecoderImpl.appendStep(step(), to: &path)
                throw error.decodingError(T.self, path)
            }
        }
        switch CollectionKind.of(T.self) {
        case .stringArray:
            let strings = try array(ref, depth, prefix, step()) { (d, v) throws(DecodeFailure) in try d.string(v) }
            return identityCast(strings, to: T.self)
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
        if isStringKeyedDictionary(T.self), let dictionary = T.self as? any TapeDictionaryDecodable.Type {
            return try entries(dictionary, as: T.self, ref, step: step(), prefix: prefix)
        }
        return try decodeNested(type, ref, step(), prefix: prefix)
    }

    /// The dictionary `ref` decoded as `D` (which is `T`), entry by entry.
    func entries<D: TapeDictionaryDecodable, T>(
        _ type: D.Type, as result: T.Type, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?
    ) throws -> T {
        identityCast(try D.decodeEntries(from: self, ref, step: step, prefix: prefix), to: T.self)
    }

    /// Whether `type` conforms to `TapeDictionaryDecodable` (a `Dictionary`).
    @inline(__always)
    func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        state.dictionaryTypes.answer(for: type) { $0 is any TapeDictionaryDecodable.Type }
    }

    /// The elements of array (or set) `ref` read by `element`, in one loop.
    @inline(__always)
    func array<E>(
        _ ref: Int, _ depth: Int, _ prefix: [any CodingKey]?, _ step: @autoclosure () -> DecodeStep,
        _ element: (TapeDecoderImpl, Int) throws(DecodeFailure) -> E
    ) throws -> [E] {
        func path(_ index: Int?) -> [any CodingKey] {
            var p = prefix ?? codingPath(depth: depth)
            TapeDecoderImpl.appendStep(step(), to: &p)
            if let index { p.append(PlistCodingKey(index: index)) }
            return p
        }
        let items: (start: Int, count: Int)
        do throws(DecodeFailure) {
            items = try elements(ref)
        } catch {
            throw error.decodingError([E].self, path(nil))
        }
        let n = items.count
        guard state.values <= budget &- n else { try budgetExceeded(depth: depth) }
        state.values &+= n
        var result: [E] = []
        result.reserveCapacity(n)
        var i = 0
        do throws(DecodeFailure) {
            while i < n {
                result.append(try element(self, child(items.start, i)))
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
protocol TapeDictionaryDecodable {
    static func decodeEntries(from impl: TapeDecoderImpl, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?)
        throws -> Self
}

extension Dictionary: TapeDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func decodeEntries(from impl: TapeDecoderImpl, _ ref: Int, step: DecodeStep, prefix: [any CodingKey]?)
        throws -> Self
    {
        guard Key.self == String.self || Key.self == Int.self else {
            // Any other key type: the standard library's conformance (an array of alternating keys
            // and values, as Foundation writes it).
            return try impl.decodeNested(Self.self, ref, step, prefix: prefix)
        }
        return try impl.withFrame(ref, step, prefix: prefix) { (depth) throws -> Self in
            let found: (start: Int, count: Int)
            do throws(DecodeFailure) {
                found = try impl.entries(ref)
            } catch {
                throw error.decodingError(Self.self, impl.codingPath(depth: depth))
            }
            var result: [Key: Value] = [:]
            result.reserveCapacity(found.count)
            for i in 0..<found.count {
                try impl.countValue(depth: depth)
                let text: String
                do throws(DecodeFailure) {
                    text = try impl.string(impl.child(found.start, i))
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
                    Value.self, impl.child(found.start, found.count &+ i), depth: depth, prefix: nil,
                    step: .key(codingKey))
            }
            return result
        }
    }
}

/// The decoder `superDecoder()` and `superDecoder(forKey:)` return: the same decode, pointed at one
/// entry, with its own coding path.
final class TapeChildDecoder: Decoder {
    let impl: TapeDecoderImpl
    let ref: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { impl.userInfo }

    init(impl: TapeDecoderImpl, ref: Int, codingPath: [any CodingKey]) {
        self.impl = impl
        self.ref = ref
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try impl.keyedContainer(type, ref, depth: impl.state.frames.count, prefix: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try impl.unkeyedContainer(ref, depth: impl.state.frames.count, prefix: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueDecoding(impl: impl, ref: ref, depth: impl.state.frames.count, prefix: codingPath)
    }
}
