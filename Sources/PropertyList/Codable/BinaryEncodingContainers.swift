// Sources/PropertyList/Codable/BinaryEncodingContainers.swift - The keyed, unkeyed and single-value
// containers of the binary encoder.
//
// A container names its frame and the frame's generation (BinaryEncoding.swift); every write checks
// that the frame is still the one it was made for. Scalars go straight into the builder; `nil` is the
// string `"$null"`, as Foundation's `PropertyListEncoder` writes it.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

struct BinaryKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let impl: BinaryEncoderImpl
    let frame: Int
    let generation: Int
    /// The key memo of `Key` (KeyMemo.swift).
    let memo: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    /// Checks the frame is live and keyed.
    @inline(__always)
    func check(_ value: @autoclosure () -> Any, _ key: Key) throws {
        guard impl.isLive(frame, generation), impl.state.frames[frame].kind == .keyed else {
            throw impl.staleContainer(value(), codingPath + [key])
        }
    }

    @inline(__always)
    func put(_ slot: Int32, _ key: Key) {
        let tag = keyTag(key) ?? -1
        if let s = impl.state.keyMemos.slot(forTag: tag, in: memo) {
            // A key met before is found by its tag: no `stringValue`, no text compared.
            impl.store(
                slot, key: impl.state.keyMemos.made(s, in: memo), text: impl.state.keyMemos.key(s, in: memo),
                in: frame)
            return
        }
        let text = key.stringValue
        let (ref, s) = impl.keyReferenceAndSlot(text, memo: memo)
        impl.state.keyMemos.record(tag: tag, slot: s, in: memo)
        impl.store(slot, key: ref, text: text, in: frame)
    }

    @inline(__always)
    func put(_ value: some Any, _ key: Key, _ add: (inout ObjectTableBuilder) -> BuilderRef) throws {
        try check(value, key)
        put(add(&impl.state.builder).id, key)
    }

    mutating func encodeNil(forKey key: Key) throws { try put("$null", key) { $0.addString("$null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) { $0.addBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) { $0.addString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) { $0.addReal(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) { $0.addFloat(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try put(value, key) { $0.addInteger(PlistInteger(Int64(value))) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) { $0.addInt(value) } }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try put(value, key) { $0.addInteger(value) } }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        guard let v = Int128(exactly: value) else { throw impl.tooLarge(value, codingPath + [key]) }
        try put(value, key) { $0.addInteger(v) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try check(value, key)
        let slot = try impl.encodeValue(value, parent: frame, step: .key(key))
        put(slot, key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        impl.keyedContainer(keyType, frame: nestedFrame(key, kind: .keyed))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        impl.unkeyedContainer(frame: nestedFrame(key, kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        BinaryChildEncoder(impl: impl, frame: nestedFrame(PlistCodingKey.superKey, kind: .empty))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        BinaryChildEncoder(impl: impl, frame: nestedFrame(key, kind: .empty))
    }

    /// A new frame stored under `key`, for a nested container or a super encoder; -1 when this
    /// container is stale (recorded as the encode's failure).
    func nestedFrame(_ key: some CodingKey, kind: EncodeFrame.Kind) -> Int {
        guard impl.isLive(frame, generation), impl.state.frames[frame].kind == .keyed else {
            impl.recordFailure("a container was used after the value it belongs to was encoded", frame: -1)
            return -1
        }
        let f = impl.pushFrame(parent: frame, step: .key(key), kind: kind)
        impl.state.frames[frame].hasFrameSlots = true
        let text = key.stringValue
        impl.store(EncodeFrame.slot(frame: f), key: impl.keyReference(text, memo: memo), text: text, in: frame)
        return f
    }
}

struct BinaryUnkeyedEncoding: UnkeyedEncodingContainer {
    let impl: BinaryEncoderImpl
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }
    var count: Int { impl.isLive(frame, generation) ? impl.state.frames[frame].values.count : 0 }

    @inline(__always)
    func check(_ value: @autoclosure () -> Any) throws {
        guard impl.isLive(frame, generation), impl.state.frames[frame].kind == .unkeyed else {
            throw impl.staleContainer(value(), codingPath + [PlistCodingKey(index: count)])
        }
    }

    @inline(__always)
    func put(_ value: some Any, _ add: (inout ObjectTableBuilder) -> BuilderRef) throws {
        try check(value)
        let id = add(&impl.state.builder).id
        impl.state.frames[frame].values.append(id)
    }

    mutating func encodeNil() throws { try put("$null") { $0.addString("$null") } }
    mutating func encode(_ value: Bool) throws { try put(value) { $0.addBool(value) } }
    mutating func encode(_ value: String) throws { try put(value) { $0.addString(value) } }
    mutating func encode(_ value: Double) throws { try put(value) { $0.addRealDeferred(value) } }
    mutating func encode(_ value: Float) throws { try put(value) { $0.addFloat(value) } }
    mutating func encode(_ value: Int) throws { try put(value) { $0.addIntegerDeferred(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int16) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int32) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int64) throws { try put(value) { $0.addIntegerDeferred(value) } }
    mutating func encode(_ value: UInt) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt8) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt16) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt32) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt64) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int128) throws { try put(value) { $0.addInteger(value) } }
    mutating func encode(_ value: UInt128) throws {
        guard let v = Int128(exactly: value) else {
            throw impl.tooLarge(value, codingPath + [PlistCodingKey(index: count)])
        }
        try put(value) { $0.addInteger(v) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try check(value)
        let index = impl.state.frames[frame].values.count
        if index == ObjectTableBuilder.sampledChildren, frame == 0,
            impl.state.rootCount > 2 &* ObjectTableBuilder.sampledChildren
        {
            // The root array's first elements tell what the rest will add: sized once for it.
            impl.state.builder.reserveRest(of: impl.state.rootCount &- index)
        }
        let slot = try impl.encodeValue(value, parent: frame, step: .index(index))
        impl.state.frames[frame].values.append(slot)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        impl.keyedContainer(keyType, frame: nestedFrame(kind: .keyed))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        impl.unkeyedContainer(frame: nestedFrame(kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        BinaryChildEncoder(impl: impl, frame: nestedFrame(kind: .empty))
    }

    /// A new frame appended as the next element; -1 when this container is stale.
    func nestedFrame(kind: EncodeFrame.Kind) -> Int {
        guard impl.isLive(frame, generation), impl.state.frames[frame].kind == .unkeyed else {
            impl.recordFailure("a container was used after the value it belongs to was encoded", frame: -1)
            return -1
        }
        let index = impl.state.frames[frame].values.count
        let f = impl.pushFrame(parent: frame, step: .index(index), kind: kind)
        impl.state.frames[frame].hasFrameSlots = true
        impl.state.frames[frame].values.append(EncodeFrame.slot(frame: f))
        return f
    }
}

struct BinarySingleValueEncoding: SingleValueEncodingContainer {
    let impl: BinaryEncoderImpl
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    @inline(__always)
    func check(_ value: @autoclosure () -> Any) throws {
        guard impl.isLive(frame, generation), impl.state.frames[frame].kind == .single else {
            throw impl.staleContainer(value(), codingPath)
        }
        guard impl.state.frames[frame].single == nil else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "a single-value container was encoded into twice"))
        }
    }

    @inline(__always)
    func put(_ value: some Any, _ add: (inout ObjectTableBuilder) -> BuilderRef) throws {
        try check(value)
        let id = add(&impl.state.builder).id
        impl.state.frames[frame].single = id
    }

    mutating func encodeNil() throws { try put("$null") { $0.addString("$null") } }
    mutating func encode(_ value: Bool) throws { try put(value) { $0.addBool(value) } }
    mutating func encode(_ value: String) throws { try put(value) { $0.addString(value) } }
    mutating func encode(_ value: Double) throws { try put(value) { $0.addReal(value) } }
    mutating func encode(_ value: Float) throws { try put(value) { $0.addFloat(value) } }
    mutating func encode(_ value: Int) throws { try put(value) { $0.addInteger(PlistInteger(Int64(value))) } }
    mutating func encode(_ value: Int8) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int16) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int32) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int64) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt8) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt16) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt32) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: UInt64) throws { try put(value) { $0.addInt(value) } }
    mutating func encode(_ value: Int128) throws { try put(value) { $0.addInteger(value) } }
    mutating func encode(_ value: UInt128) throws {
        guard let v = Int128(exactly: value) else { throw impl.tooLarge(value, codingPath) }
        try put(value) { $0.addInteger(v) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try check(value)
        let slot = try impl.encodeValue(value, parent: frame, step: .none)
        impl.state.frames[frame].single = slot
    }
}
