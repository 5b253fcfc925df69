// Sources/PropertyList/Codable/BinaryEncoding.swift - Encodable values straight into the object-table
// builder: the encoder's state, its frames, nested values and the types the format holds.
//
// No `PlistValue` tree is built. Each scalar is added to the `ObjectTableBuilder` as it is encoded
// (deduplicated there, as for every writer of this package), and a container becomes a builder
// object when its value's `encode(to:)` returns. Until then it is a frame on `state.frames`:
//
//   frames[i] = (kind, the builder ids of its keys and values, its parent frame, the step from it)
//
// A value slot holds a builder id, or (negative) the frame of a nested container or a super
// encoder, which can still be written until its parent is finished. Frames live and die in stack
// order: a value's frame is pushed when its `encode(to:)` starts, and it and every frame above it
// (its nested containers) are turned into builder objects and popped when it returns. A container
// keeps the generation of its frame, so a container kept and used after its value was finished is
// an error, never a write into another value. The coding path of an error is made from the frames'
// parent links, only when an error needs it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The mutable state of a binary encode (kept in `BinaryEncoderImpl.state`, see CoderCells.swift).
struct EncoderState {
    var builder = ObjectTableBuilder()
    /// The element count of the value encoded when it is a collection (else 0): a large root array
    /// has the builder's tables sized from its first elements (`ObjectTableBuilder.reserveRest`).
    var rootCount = 0
    /// The frames in use are `frames[0 ..< frameCount]`; the ones above are kept for reuse (their
    /// arrays keep their capacity, so a frame per record allocates nothing after the first).
    var frames: [EncodeFrame] = []
    var frameCount = 0
    /// The frame that the next container request of the encoder goes to.
    var current = -1
    /// The generation given to the next frame pushed.
    var generation = 0
    /// The key memo of each container type met (KeyMemo.swift): each key's string object.
    var keyMemos = EncodeKeyMemos<BuilderRef>()
    /// A misuse found where nothing can throw (`nestedContainer`, `superEncoder`, a second kind of
    /// container for one value): thrown when the encode ends.
    var failure: EncodingError? = nil
    /// Whether the last type asked about is a `Dictionary` (`isStringKeyedDictionary`).
    var dictionaryTypes = TypeMemo()
    /// Whether the last type asked about is an `Array` of encodable elements (`isEncodableArray`).
    var arrayTypes = TypeMemo()
}

/// How a nested value was reached from its parent.
enum EncodeStep {
    case none
    case key(any CodingKey)
    case index(Int)
}

extension EncodeStep {
    /// The coding path of frame `f` of a stack of `frameCount` frames: the steps from the root frame,
    /// found through each frame's `parent`.
    static func path(
        to f: Int, frameCount: Int, step: (Int) -> EncodeStep, parent: (Int) -> Int
    ) -> [any CodingKey] {
        var steps: [EncodeStep] = []
        var i = f
        while i >= 0 && i < frameCount {
            steps.append(step(i))
            i = parent(i)
        }
        var path: [any CodingKey] = []
        for step in steps.reversed() {
            switch step {
            case .none: break
            case .key(let k): path.append(k)
            case .index(let n): path.append(PlistCodingKey(index: n))
            }
        }
        return path
    }
}

/// A value being encoded, or a nested container of one (see the file header).
struct EncodeFrame {
    enum Kind: UInt8 {
        case empty, keyed, unkeyed, single
    }

    var kind = Kind.empty
    var generation = 0
    var parent = -1
    var step = EncodeStep.none
    /// Nesting depth (the root's frame is 1).
    var depth = 0
    /// Keyed: the builder ids of the keys, in encoding order.
    var keys: [BuilderRef] = []
    /// Keyed and unkeyed: the values (a builder id, or `-(frame + 1)` for a frame).
    var values: [Int32] = []
    /// Whether `values` holds a frame slot (a nested container or a super encoder).
    var hasFrameSlots = false
    /// Keyed, when keys are sorted: the text of each key.
    var keyStrings: [String] = []
    /// Keyed, past 32 keys: builder id of a key → its position (to replace a key encoded twice).
    var keyPositions: [Int32: Int]? = nil
    /// Single: the value, as `values` holds them; `nil` until encoded.
    var single: Int32? = nil

    static func slot(frame: Int) -> Int32 { -Int32(truncatingIfNeeded: frame) - 1 }

    /// Makes this (reused) frame a new one, keeping its arrays' capacity.
    mutating func reset(kind: Kind, generation: Int, parent: Int, step: EncodeStep, depth: Int) {
        self.kind = kind
        self.generation = generation
        self.parent = parent
        self.step = step
        self.depth = depth
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        if !keyStrings.isEmpty { keyStrings.removeAll(keepingCapacity: true) }
        keyPositions = nil
        single = nil
        hasFrameSlots = false
    }
}

// MARK: - Frames and paths

extension BinaryEncoderImpl {
    /// Pushes a new frame under `parent`; returns its index.
    func pushFrame(parent: Int, step: EncodeStep, kind: EncodeFrame.Kind = .empty) -> Int {
        let index = state.frameCount
        let depth = parent >= 0 ? state.frames[parent].depth &+ 1 : 1
        state.generation &+= 1
        if index == state.frames.count { state.frames.append(EncodeFrame()) }
        state.frames[index].reset(
            kind: kind, generation: state.generation, parent: parent, step: step, depth: depth)
        state.frameCount = index &+ 1
        return index
    }

    /// Pops frame `f` and every frame above it.
    @inline(__always)
    func popFrames(from f: Int) {
        if f < state.frameCount { state.frameCount = f }
    }

    /// Whether frame `f` is still the frame a container with generation `generation` was made for.
    @inline(__always)
    func isLive(_ f: Int, _ generation: Int) -> Bool {
        f >= 0 && f < state.frameCount && state.frames[f].generation == generation
    }

    /// The coding path of the value of frame `f`.
    func codingPath(frame f: Int) -> [any CodingKey] {
        EncodeStep.path(to: f, frameCount: state.frameCount) {
            state.frames[$0].step
        } parent: {
            state.frames[$0].parent
        }
    }

    var codingPath: [any CodingKey] { codingPath(frame: state.current) }

    /// The error for a container used after its value was finished.
    func staleContainer(_ value: Any, _ path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: path,
                debugDescription: "a container was used after the value it belongs to was encoded"))
    }

    /// The error for an integer the format cannot hold (a `UInt128` above `Int128.max`).
    func tooLarge(_ value: UInt128, _ path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: path,
                debugDescription: "\(value) is above the largest integer a property list holds (2^127 - 1)",
                underlyingError: PlistError(.unencodable, "\(value) does not fit in a signed 128-bit integer")))
    }

    /// Records a misuse that cannot be thrown where it happens; the encode throws it when it ends.
    func recordFailure(_ description: String, frame f: Int) {
        guard state.failure == nil else { return }
        state.failure = EncodingError.invalidValue(
            description, EncodingError.Context(codingPath: codingPath(frame: f), debugDescription: description))
    }

    /// Sets the kind of frame `f` for a container request; a second, different kind is a misuse.
    func claim(_ f: Int, as kind: EncodeFrame.Kind) {
        guard f >= 0 && f < state.frameCount else { return }
        let existing = state.frames[f].kind
        if existing == .empty {
            state.frames[f].kind = kind
        } else if existing != kind {
            recordFailure(
                "a value asked for a \(kind) container after it had asked for a \(existing) container", frame: f)
        }
    }
}

// MARK: - Values

extension BinaryEncoderImpl {
    /// Encodes `value` as a child of frame `parent`: the slot to store in the parent.
    ///
    /// - Parameters:
    ///   - step: How the parent reaches the value (made only for a nested value).
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, parent: Int, step: @autoclosure () -> EncodeStep) throws -> Int32 {
        if let id = scalarValue(value) { return id }
        if let id = try collectionValue(value, parent: parent, step: step()) { return id }
        return try encodeNested(value, parent: parent, step: step())
    }

    /// The builder id of `value` when it is a type the format holds directly; `nil` for any other.
    /// (`identityCast` after the metatype comparison: no run-time cast, no `T?`.)
    @inline(__always)
    func scalarValue<T>(_ value: T) -> Int32? {
        guard let kind = ScalarKind.of(T.self) else { return nil }
        switch kind {
        case .string: return state.builder.addString(identityCast(value, to: String.self)).id
        case .int: return state.builder.addInteger(PlistInteger(Int64(identityCast(value, to: Int.self)))).id
        case .double: return state.builder.addReal(identityCast(value, to: Double.self)).id
        case .bool: return state.builder.addBool(identityCast(value, to: Bool.self)).id
        case .date: return state.builder.addDate(identityCast(value, to: Date.self)).id
        case .data: return state.builder.addData(identityCast(value, to: Data.self)).id
        case .float: return state.builder.addFloat(identityCast(value, to: Float.self)).id
        case .int64: return state.builder.addInteger(PlistInteger(identityCast(value, to: Int64.self))).id
        case .uint64: return state.builder.addInt(identityCast(value, to: UInt64.self)).id
        case .int32: return state.builder.addInt(identityCast(value, to: Int32.self)).id
        case .uint32: return state.builder.addInt(identityCast(value, to: UInt32.self)).id
        case .uint8: return state.builder.addInt(identityCast(value, to: UInt8.self)).id
        case .int8: return state.builder.addInt(identityCast(value, to: Int8.self)).id
        case .int16: return state.builder.addInt(identityCast(value, to: Int16.self)).id
        case .uint16: return state.builder.addInt(identityCast(value, to: UInt16.self)).id
        case .uint: return state.builder.addInt(identityCast(value, to: UInt.self)).id
        case .int128: return state.builder.addInteger(identityCast(value, to: Int128.self)).id
        case .uint128:
            // Above Int128.max a UInt128 is an error with a coding path: its own encode(to:) reports it.
            guard let v = Int128(exactly: identityCast(value, to: UInt128.self)) else { return nil }
            return state.builder.addInteger(v).id
        case .uid: return state.builder.addUID(identityCast(value, to: PlistUID.self).value).id
        }
    }

    /// The builder id of `value` when it is an array of strings, integers, reals or booleans, or a
    /// dictionary keyed by `String` or `Int`; `nil` for any other type.
    @inline(__always)
    func collectionValue<T: Encodable>(_ value: T, parent: Int, step: @autoclosure () -> EncodeStep) throws -> Int32? {
        switch CollectionKind.of(T.self) {
        case .stringArray: return array(identityCast(value, to: [String].self)) { (b, e) in b.addString(e) }
        case .intArray:
            return array(identityCast(value, to: [Int].self)) { (b, e) in b.addIntegerDeferred(Int64(e)) }
        case .doubleArray: return array(identityCast(value, to: [Double].self)) { (b, e) in b.addRealDeferred(e) }
        case .boolArray: return array(identityCast(value, to: [Bool].self)) { (b, e) in b.addBool(e) }
        case .other: break
        }
        if isStringKeyedDictionary(T.self), let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try dictionary.encodeEntries(to: self, parent: parent, step: step())
        }
        if isEncodableArray(T.self), let array = value as? any EncodableArray {
            return try array.encodeElements(to: self, parent: parent, step: step())
        }
        return nil
    }

    /// Whether `type` conforms to `EncodableArray` (an `Array`).
    @inline(__always)
    func isEncodableArray(_ type: Any.Type) -> Bool {
        state.arrayTypes.answer(for: type) { $0 is any EncodableArray.Type }
    }

    /// Whether `type` conforms to `StringKeyedDictionaryEncodable` (a `Dictionary`).
    @inline(__always)
    func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        state.dictionaryTypes.answer(for: type) { $0 is any StringKeyedDictionaryEncodable.Type }
    }

    /// An array object of `elements`, each added by `add`.
    @inline(__always)
    func array<E>(_ elements: [E], _ add: (inout ObjectTableBuilder, E) -> BuilderRef) -> Int32 {
        // Room for every element at once: the builder's entries and dedup table would otherwise double
        // (and the table rehash) as they fill (measured: 12 % of the samples of encoding 212,000
        // strings). At most one entry and two slots an element, which the array itself outweighs.
        // Both grow geometrically: `reserveCapacity` of exactly what is needed reallocates the whole
        // child list for every small array in a row ([[String]] of 80,000 arrays took 0.4 s).
        state.builder.reserve(objects: elements.count &+ 1, sizing: false)
        let wanted = state.builder.children.count &+ elements.count
        if wanted > state.builder.children.capacity {
            state.builder.children.reserveCapacity(max(wanted, state.builder.children.capacity &* 2))
        }
        let start = state.builder.children.count
        // Each element read where it lies (`for in` would copy it: a retain and a release of a string).
        elements.forEachInPlace { e in
            let id = add(&state.builder, e).id
            state.builder.children.append(id)
        }
        return state.builder.finishContainer(.array, start).id
    }

    /// Encodes `value` through its `encode(to:)` in a new frame under `parent`.
    func encodeNested<T: Encodable>(_ value: T, parent: Int, step: EncodeStep) throws -> Int32 {
        try inNewFrame(value, parent: parent, step: step) { try value.encode(to: self) }
    }

    /// Runs `body`, which encodes `value` through this encoder, in a new frame under `parent`, the
    /// current one meanwhile; returns the frame's object.
    @inline(__always)
    func inNewFrame<T>(_ value: T, parent: Int, step: EncodeStep, _ body: () throws -> Void) throws -> Int32 {
        let f = pushFrame(parent: parent, step: step)
        guard state.frames[f].depth <= maxDepth else {
            let path = codingPath(frame: f)
            popFrames(from: f)
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path,
                    debugDescription: "nested deeper than \(maxDepth) levels (a cycle of references between "
                        + "class instances?)",
                    underlyingError: PlistError(.limitExceeded, "nested deeper than \(maxDepth) levels")))
        }
        let saved = state.current
        state.current = f
        defer { state.current = saved }
        do {
            try body()
            let id = try finish(f, value)
            popFrames(from: f)
            return id
        } catch {
            popFrames(from: f)
            throw error
        }
    }

    /// Turns frame `f` (and the frames its slots name) into a builder object; frames are not popped.
    func finish(_ f: Int, _ value: @autoclosure () -> Any) throws -> Int32 {
        switch state.frames[f].kind {
        case .empty:
            // A value that encoded nothing is an empty dictionary, as with Foundation's encoders.
            return state.builder.finishContainer(.dictionary, state.builder.children.count).id
        case .single:
            guard let slot = state.frames[f].single else {
                throw EncodingError.invalidValue(
                    value(),
                    EncodingError.Context(
                        codingPath: codingPath(frame: f),
                        debugDescription: "a single-value container was asked for, but no value was encoded into it"))
            }
            return slot >= 0 ? slot : try finish(Int(-slot - 1), value())
        case .unkeyed:
            try resolveFrameSlots(f, value())
            let start = state.builder.children.count
            state.builder.children.append(contentsOf: state.frames[f].values)
            return state.builder.finishContainer(.array, start).id
        case .keyed:
            try resolveFrameSlots(f, value())
            let start = state.builder.children.count
            let n = state.frames[f].keys.count
            if sortsKeys {
                let strings = state.frames[f].keyStrings
                let order = strings.indices.sorted { strings[$0].utf8.lexicographicallyPrecedes(strings[$1].utf8) }
                for i in order { state.builder.children.append(state.frames[f].keys[i].id) }
                for i in order { state.builder.children.append(state.frames[f].values[i]) }
            } else {
                for i in 0..<n { state.builder.children.append(state.frames[f].keys[i].id) }
                state.builder.children.append(contentsOf: state.frames[f].values)
            }
            return state.builder.finishContainer(.dictionary, start).id
        }
    }

    /// Replaces every frame slot of frame `f`'s values by the builder id of that frame.
    @inline(__always)
    func resolveFrameSlots(_ f: Int, _ value: @autoclosure () -> Any) throws {
        guard state.frames[f].hasFrameSlots else { return }
        let n = state.frames[f].values.count
        for i in 0..<n where state.frames[f].values[i] < 0 {
            let id = try finish(Int(-state.frames[f].values[i] - 1), value())
            state.frames[f].values[i] = id
        }
    }

    /// The builder id of the string object for `key` (a memo of each container type's keys).
    @inline(__always)
    func keyReference(_ key: String, memo m: Int) -> BuilderRef {
        keyReferenceAndSlot(key, memo: m).ref
    }

    /// The builder id of the string object for `key`, and its slot in memo `m` (-1 when the memo is
    /// full and does not hold it).
    @inline(__always)
    func keyReferenceAndSlot(_ key: String, memo m: Int) -> (ref: BuilderRef, slot: Int) {
        if let slot = state.keyMemos.find(key, in: m) { return (state.keyMemos.made(slot, in: m), slot) }
        let ref = state.builder.addString(key)
        return (ref, state.keyMemos.add(key, made: ref, to: m) ?? -1)
    }

    /// The memo of the container type `type`.
    @inline(__always)
    func memo(for type: Any.Type) -> Int { state.keyMemos.memo(for: type) }

    /// Stores `slot` under the key object `key` in keyed frame `f`, replacing a value encoded under
    /// the same key before (the last one wins, as in Foundation's encoders).
    @inline(__always)
    func store(_ slot: Int32, key: BuilderRef, text: @autoclosure () -> String, in f: Int) {
        let n = state.frames[f].keys.count
        if n <= 32 {
            for i in 0..<n where state.frames[f].keys[i] == key {
                state.frames[f].values[i] = slot
                return
            }
            if n == 32 {
                var positions: [Int32: Int] = [:]
                for i in 0..<n { positions[state.frames[f].keys[i].id] = i }
                state.frames[f].keyPositions = positions
            }
        } else if let i = state.frames[f].keyPositions?[key.id] {
            state.frames[f].values[i] = slot
            return
        }
        if n >= 32 { state.frames[f].keyPositions?[key.id] = n }
        state.frames[f].keys.append(key)
        state.frames[f].values.append(slot)
        if sortsKeys { state.frames[f].keyStrings.append(text()) }
    }
}

// MARK: - Dictionaries

/// An `Array` of encodable elements, encoded as `encode(to:)` encodes it (an unkeyed container, one
/// `encode` per element) but in one loop on the concrete container, each element read where it lies in
/// the array's storage: the standard library's loop copies every element (for a record of strings, a
/// retain and a release of each) and calls the container through its existential. Both encoders,
/// one method each.
protocol EncodableArray {
    func encodeElements(to impl: BinaryEncoderImpl, parent: Int, step: EncodeStep) throws -> Int32
    /// The XML encoder's twin (XMLEncoding.swift).
    func writeElements(to impl: XMLEncoderImpl, parent: Int, indent: Int, step: EncodeStep) throws
}

extension Array: EncodableArray where Element: Encodable {
    func encodeElements(to impl: BinaryEncoderImpl, parent: Int, step: EncodeStep) throws -> Int32 {
        try impl.inNewFrame(self, parent: parent, step: step) {
            var container = impl.elementContainer(frame: impl.state.current)
            // Each element read where it lies, not copied (`forEachInPlace`: the closure only reads it).
            try forEachInPlace { try container.encode($0) }
        }
    }
}

/// `[String: V]` and `[Int: V]`: written entry by entry into one dictionary object (keys as
/// strings, `"1"` for `1`, as Foundation writes them).
protocol StringKeyedDictionaryEncodable {
    func encodeEntries(to impl: BinaryEncoderImpl, parent: Int, step: EncodeStep) throws -> Int32?
    /// The XML encoder's twin (XMLEncoding.swift): writes the dictionary, or returns false.
    func writeEntries(to impl: XMLEncoderImpl, parent: Int, indent: Int, step: EncodeStep) throws -> Bool
}

extension Dictionary: StringKeyedDictionaryEncodable where Key: Encodable, Value: Encodable {
    func encodeEntries(to impl: BinaryEncoderImpl, parent: Int, step: EncodeStep) throws -> Int32? {
        guard Key.self == String.self || Key.self == Int.self else { return nil }
        let f = impl.pushFrame(parent: parent, step: step, kind: .keyed)
        defer { impl.popFrames(from: f) }
        guard impl.state.frames[f].depth <= impl.maxDepth else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: impl.codingPath(frame: f),
                    debugDescription: "nested deeper than \(impl.maxDepth) levels"))
        }
        var entries: [(text: String, key: BuilderRef, value: Int32)] = []
        entries.reserveCapacity(count)
        for (k, v) in self {
            let text = k as? String ?? (k as? Int).map { String($0) } ?? "\(k)"
            let codingKey = PlistCodingKey(text)
            let value = try impl.encodeValue(v, parent: f, step: .key(codingKey))
            entries.append((text, impl.state.builder.addString(text), value))
        }
        if impl.sortsKeys { entries.sort { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) } }
        let start = impl.state.builder.children.count
        for e in entries { impl.state.builder.children.append(e.key.id) }
        for e in entries { impl.state.builder.children.append(e.value) }
        return impl.state.builder.finishContainer(.dictionary, start).id
    }
}

// MARK: - Encoder

extension BinaryEncoderImpl {
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyedContainer(type, frame: state.current)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { unkeyedContainer(frame: state.current) }

    func singleValueContainer() -> any SingleValueEncodingContainer { singleValueContainer(frame: state.current) }

    func keyedContainer<Key: CodingKey>(_ type: Key.Type, frame f: Int) -> KeyedEncodingContainer<Key> {
        claim(f, as: .keyed)
        let generation = f >= 0 && f < state.frameCount ? state.frames[f].generation : -1
        return KeyedEncodingContainer(
            BinaryKeyedEncoding<Key>(impl: self, frame: f, generation: generation, memo: memo(for: Key.self)))
    }

    func unkeyedContainer(frame f: Int) -> any UnkeyedEncodingContainer { elementContainer(frame: f) }

    /// `unkeyedContainer(frame:)` as its concrete type.
    func elementContainer(frame f: Int) -> BinaryUnkeyedEncoding {
        claim(f, as: .unkeyed)
        let generation = f >= 0 && f < state.frameCount ? state.frames[f].generation : -1
        return BinaryUnkeyedEncoding(impl: self, frame: f, generation: generation)
    }

    func singleValueContainer(frame f: Int) -> any SingleValueEncodingContainer {
        claim(f, as: .single)
        let generation = f >= 0 && f < state.frameCount ? state.frames[f].generation : -1
        return BinarySingleValueEncoding(impl: self, frame: f, generation: generation)
    }
}

/// The encoder `superEncoder()` and `superEncoder(forKey:)` return: the same encode, writing into
/// one frame of its own (a slot of the container that made it).
final class BinaryChildEncoder: Encoder {
    let impl: BinaryEncoderImpl
    let frame: Int
    let generation: Int
    var userInfo: [CodingUserInfoKey: Any] { impl.userInfo }
    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    init(impl: BinaryEncoderImpl, frame: Int) {
        self.impl = impl
        self.frame = frame
        generation = impl.state.frames[frame].generation
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard impl.isLive(frame, generation) else {
            impl.recordFailure("a super encoder was used after its container's value was encoded", frame: -1)
            return impl.keyedContainer(type, frame: -1)
        }
        return impl.keyedContainer(type, frame: frame)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard impl.isLive(frame, generation) else {
            impl.recordFailure("a super encoder was used after its container's value was encoded", frame: -1)
            return impl.unkeyedContainer(frame: -1)
        }
        return impl.unkeyedContainer(frame: frame)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        guard impl.isLive(frame, generation) else {
            impl.recordFailure("a super encoder was used after its container's value was encoded", frame: -1)
            return impl.singleValueContainer(frame: -1)
        }
        return impl.singleValueContainer(frame: frame)
    }
}
