// Sources/PropertyList/Codable/XMLEncoding.swift - Encodable values written straight as XML text, in
// the order they are encoded: no object table, no tree.
//
// XML has no sharing and no offsets, so what a value encodes can be written as it comes: a scalar
// where it is encoded, a container's opening tag with its first element (so that one that stays
// empty is written `<dict/>`), its closing tag when it is done. Each value being encoded, and each
// nested container or super encoder, is a frame on `state.frames` (as in BinaryEncoding.swift, for
// the coding path and the depth):
//
//   frames[i] = (kind, parent, step from it, depth, indentation, entries written, keys used, ...)
//
// A frame is open while it is the innermost frame or below one. A write into frame `f` first closes
// the frames above it (`settle`): the nested containers and super encoders `f` gave out, which the
// write makes finished, as the text that follows belongs to `f`. A nested value's frame is closed
// when its `encode(to:)` returns.
//
// What cannot be written as it comes is not written here at all: the encode is abandoned, and
// `PlistEncoder` encodes the value again through the object table (the binary form's route, which
// places every value whatever the order). That happens when a value writes into a container that is
// already closed (a nested container used after its parent wrote again, a container kept and used
// after its value was encoded), writes into an outer container while a nested value is still being
// encoded, encodes a key twice in one container (the last one wins, in its first place), asks one
// value for two kinds of container or a single-value container twice, or encodes something XML cannot
// hold (a string with a character XML 1.0 cannot hold, a date out of range, a `UInt128` above
// `Int128.max`), or nests deeper than the limit: each of these is written, or refused with its error
// and coding path, exactly as the table's route does. Real `Encodable` types (synthesised
// conformances, nested containers used in order, `super.encode(to: superEncoder())`) never leave the
// stream; the mistakes above are rare, and their cost is one encode more.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The mutable state of an XML encode (kept in `XMLEncoderImpl.state`, see CoderCells.swift).
struct XMLEncoderState: ~Copyable {
    var out = XMLOutput(capacity: 1 << 16)
    /// The open frames are `frames[0 ..< frameCount]`; those above are kept for reuse.
    var frames: [XMLEncodeFrame] = []
    var frameCount = 0
    /// The frame that the next container request of the encoder goes to.
    var current = -1
    /// The generation given to the next frame pushed.
    var generation = 0
    /// Each container type's keys (KeyMemo.swift), as the number of their `<key>…</key>\n` line
    /// saved in `out` (a snippet).
    var keyMemos = EncodeKeyMemos<Int>()
    /// The stream cannot hold what was asked (see the file header): the encode is done again through
    /// the object table.
    var abandoned = false
    /// An error left a nested value's `encode(to:)`: the text holds part of that value. Harmless when
    /// the error ends the encode; when a value caught it and went on, the encode is done again.
    var interrupted = false
    /// Whether the last type asked about is a `Dictionary` (`isStringKeyedDictionary`).
    var dictionaryTypes = TypeMemo()
    /// Whether the last type asked about is an `Array` of encodable elements (`isEncodableArray`).
    var arrayTypes = TypeMemo()
}

/// A value being encoded, a nested container or a super encoder (see the file header).
struct XMLEncodeFrame {
    var kind = EncodeFrame.Kind.empty
    var generation = 0
    var parent = -1
    var step = EncodeStep.none
    /// Nesting depth, counted as the binary encoder counts it (the root's frame is 1).
    var depth = 0
    /// The tabs before the value's tag (its elements get one more).
    var indent = 0
    /// Entries or elements written (nested containers and super encoders included).
    var count = 0
    /// Whether the opening tag (`<dict>`, `<array>`) is written.
    var isOpen = false
    /// Whether this is a value whose `encode(to:)` is running (it closes when that returns).
    var isEncoding = false
    /// Keyed: the key memo of its container type (-1 until one is asked for) and the memo's slots
    /// used (bit i: slot i), to find a key encoded twice.
    var memo = -1
    var usedSlots: UInt64 = 0
    /// Keyed: the keys used that are not in the memo (past its capacity).
    var otherKeys: Set<String>? = nil
    /// Single: whether its value is written.
    var hasSingle = false
    /// Keyed, when keys are sorted: where each entry starts in the output, and its key.
    var entryStarts: [Int] = []
    var entryKeys: [String] = []

    /// Counts an entry whose key is memo slot `slot`, and opens the frame: nil when that key was used
    /// already, else whether the frame was open before.
    @inline(__always)
    mutating func enter(slot: Int) -> Bool? {
        let bit: UInt64 = 1 &<< UInt64(slot)
        guard usedSlots & bit == 0 else { return nil }
        usedSlots |= bit
        count &+= 1
        let wasOpen = isOpen
        isOpen = true
        return wasOpen
    }

    /// Counts an element and opens the frame: whether it was open before.
    @inline(__always)
    mutating func enterElement() -> Bool {
        count &+= 1
        let wasOpen = isOpen
        isOpen = true
        return wasOpen
    }

    /// Makes this (reused) frame a new one, keeping its arrays' capacity.
    mutating func reset(
        kind: EncodeFrame.Kind, generation: Int, parent: Int, step: EncodeStep, depth: Int, indent: Int,
        isEncoding: Bool
    ) {
        (self.kind, self.generation, self.parent, self.step) = (kind, generation, parent, step)
        (self.depth, self.indent, self.isEncoding) = (depth, indent, isEncoding)
        (count, isOpen, memo, usedSlots, hasSingle) = (0, false, -1, 0, false)
        if otherKeys != nil { otherKeys = nil }
        if !entryStarts.isEmpty {
            entryStarts.removeAll(keepingCapacity: true)
            entryKeys.removeAll(keepingCapacity: true)
        }
    }
}

/// Thrown through the values' `encode(to:)` when the stream is abandoned (see the file header);
/// `PlistEncoder` catches it and encodes again through the object table.
struct XMLStreamAbandoned: Error {}

// MARK: - Frames

extension XMLEncoderImpl {
    /// Marks the stream abandoned; the error to throw.
    func abandon() -> XMLStreamAbandoned {
        state.abandoned = true
        return XMLStreamAbandoned()
    }

    /// Pushes a new frame under `parent`; returns its index.
    func pushFrame(parent: Int, step: EncodeStep, kind: EncodeFrame.Kind, indent: Int, isEncoding: Bool) -> Int {
        let index = state.frameCount
        let depth = parent >= 0 ? state.frames[parent].depth &+ 1 : 1
        state.generation &+= 1
        if index == state.frames.count { state.frames.append(XMLEncodeFrame()) }
        state.frames[index].reset(
            kind: kind, generation: state.generation, parent: parent, step: step, depth: depth, indent: indent,
            isEncoding: isEncoding)
        state.frameCount = index &+ 1
        return index
    }

    /// Whether frame `f` is still the open frame a container with generation `generation` was made for.
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

    /// Makes frame `f` (of generation `generation`) the innermost one for a write into it: closes the
    /// nested containers and super encoders above it. Abandons the stream when `f` is closed already,
    /// or a value above it is still being encoded (see the file header).
    @inline(__always)
    func settle(_ f: Int, _ generation: Int) throws(XMLStreamAbandoned) {
        guard !state.abandoned, isLive(f, generation) else { throw abandon() }
        if f != state.frameCount &- 1 { try close(above: f) }
    }

    /// Closes and pops every frame above `f`.
    func close(above f: Int) throws(XMLStreamAbandoned) {
        while state.frameCount &- 1 > f {
            let top = state.frameCount &- 1
            guard !state.frames[top].isEncoding else { throw abandon() }
            try close(top)
            state.frameCount = top
        }
    }

    /// Writes the end of frame `f`'s value (it is the innermost frame).
    func close(_ f: Int) throws(XMLStreamAbandoned) {
        // The fields it needs, not a copy of the frame (whose arrays, set and step a copy retains).
        let isOpen = state.frames[f].isOpen
        switch state.frames[f].kind {
        case .empty:
            // A value that encoded nothing is an empty dictionary, as with Foundation's encoders.
            state.out.append(word: 0x0a3e_2f74_6369_643c, 8)  // "<dict/>\n"
        case .keyed:
            if isOpen {
                if sortsKeys {
                    let (starts, keys) = (state.frames[f].entryStarts, state.frames[f].entryKeys)
                    state.out.sortRuns(starts: starts, keys: keys)
                }
                state.out.append(tabs: state.frames[f].indent)
                state.out.append(word: 0x0a3e_7463_6964_2f3c, 8)  // "</dict>\n"
            } else {
                state.out.append(word: 0x0a3e_2f74_6369_643c, 8)  // "<dict/>\n"
            }
        case .unkeyed:
            if isOpen {
                state.out.append(tabs: state.frames[f].indent)
                state.out.append(words: 0x3e79_6172_7261_2f3c, 0x0a, 9)  // "</array>\n"
            } else {
                state.out.append(words: 0x3e2f_7961_7272_613c, 0x0a, 9)  // "<array/>\n"
            }
        case .single:
            // A single-value container with no value is an error (the table's route reports it).
            guard state.frames[f].hasSingle else { throw abandon() }
        }
    }

    /// Sets the kind of frame `f` for a container request (and, for a keyed one, its key memo); a
    /// second, different kind or key type abandons the stream.
    func claim(_ f: Int, as kind: EncodeFrame.Kind, memo: Int = -1) {
        guard f >= 0 && f < state.frameCount else {
            state.abandoned = true
            return
        }
        let existing = state.frames[f].kind
        if existing == .empty {
            state.frames[f].kind = kind
        } else if existing != kind {
            state.abandoned = true
        }
        if kind == .keyed {
            let existingMemo = state.frames[f].memo
            if existingMemo < 0 {
                state.frames[f].memo = memo
            } else if existingMemo != memo {
                state.abandoned = true
            }
        }
    }

    // MARK: Entries

    /// Starts the entry `key` of keyed frame `f`: its `<key>` line and the indentation of its value,
    /// which is returned. Abandons the stream for a key encoded twice or one XML cannot hold.
    @inline(__always)
    func beginEntry(_ f: Int, _ generation: Int, key: String) throws(XMLStreamAbandoned) -> Int {
        try settle(f, generation)
        let m = state.frames[f].memo
        guard state.frames[f].kind == .keyed, m >= 0 else { throw abandon() }
        let indent = state.frames[f].indent &+ 1
        if !sortsKeys, let slot = state.keyMemos.find(key, in: m) { return try enter(f, memo: m, slot: slot) }
        openTag(f, keyed: true)
        if sortsKeys {
            state.frames[f].entryStarts.append(state.out.count)
            state.frames[f].entryKeys.append(key)
        }
        state.out.append(tabs: indent)
        if let slot = state.keyMemos.find(key, in: m) {
            try use(slot, in: f)
            state.out.appendSnippet(state.keyMemos.made(slot, in: m))
        } else {
            let mark = state.out.count
            try appendKeyLine(key)
            if state.keyMemos.hasRoom(in: m),
                let slot = state.keyMemos.add(key, made: state.out.saveSnippet(from: mark), to: m)
            {
                try use(slot, in: f)
            } else {
                if state.frames[f].otherKeys == nil { state.frames[f].otherKeys = [] }
                guard state.frames[f].otherKeys?.insert(key).inserted == true else { throw abandon() }
            }
        }
        state.out.append(tabs: indent)
        state.frames[f].count &+= 1
        return indent
    }

    /// Starts the entry of the key with tag `tag` (`keyTag`, -1 for none) in keyed frame `f`, as
    /// `beginEntry(_:_:key:)` does: a tag met before names its memo slot, and `key` (the key's
    /// `stringValue`) is not asked for.
    @inline(__always)
    func beginEntry(_ f: Int, _ generation: Int, tag: Int, key: () -> String) throws(XMLStreamAbandoned) -> Int {
        // The memo, when the key will be in it after this entry (it has room for one more): its slot
        // is then recorded under the tag. (A full memo's other keys go by their text every time.)
        var recordIn = -1
        if tag >= 0 && !sortsKeys {
            try settle(f, generation)
            let m = state.frames[f].memo
            if state.frames[f].kind == .keyed, m >= 0 {
                if let slot = state.keyMemos.slot(forTag: tag, in: m) { return try enter(f, memo: m, slot: slot) }
                if state.keyMemos.hasRoom(in: m) { recordIn = m }
            }
        }
        let text = key()
        let indent = try beginEntry(f, generation, key: text)
        if recordIn >= 0, let slot = state.keyMemos.find(text, in: recordIn) {
            state.keyMemos.record(tag: tag, slot: slot, in: recordIn)
        }
        return indent
    }

    /// The usual entry: a key the memo holds (in `slot` of memo `m`), not used yet in keyed frame `f`.
    /// One change to the frame, one store of the tabs, the key line and the value's tabs; returns the
    /// value's indentation.
    @inline(__always)
    private func enter(_ f: Int, memo m: Int, slot: Int) throws(XMLStreamAbandoned) -> Int {
        let indent = state.frames[f].indent &+ 1
        guard let wasOpen = state.frames[f].enter(slot: slot) else { throw abandon() }
        if !wasOpen { state.out.append(word: 0x0a_3e74_6369_643c, 7) }  // "<dict>\n"
        state.out.appendSnippet(state.keyMemos.made(slot, in: m), tabs: indent)
        return indent
    }

    /// Marks memo slot `slot` used in frame `f`; a key used twice abandons the stream.
    @inline(__always)
    private func use(_ slot: Int, in f: Int) throws(XMLStreamAbandoned) {
        let bit: UInt64 = 1 &<< UInt64(slot)
        guard state.frames[f].usedSlots & bit == 0 else { throw abandon() }
        state.frames[f].usedSlots |= bit
    }

    /// `<key>key</key>\n`; abandons the stream for a key XML 1.0 cannot hold.
    @inline(__always)
    func appendKeyLine(_ key: String) throws(XMLStreamAbandoned) {
        state.out.append(word: 0x3e_7965_6b3c, 5)  // "<key>"
        guard XMLPlistWriter.appendText(key.utf8.span, checked: true, into: &state.out) else { throw abandon() }
        state.out.append(word: 0x0a_3e79_656b_2f3c, 7)  // "</key>\n"
    }

    /// Starts the next element of unkeyed frame `f`; returns the indentation of its value.
    @inline(__always)
    func beginElement(_ f: Int, _ generation: Int) throws(XMLStreamAbandoned) -> Int {
        try settle(f, generation)
        guard state.frames[f].kind == .unkeyed else { throw abandon() }
        let indent = state.frames[f].indent &+ 1
        if !state.frames[f].enterElement() { state.out.append(word: 0x0a3e_7961_7272_613c, 8) }  // "<array>\n"
        state.out.append(tabs: indent)
        return indent
    }

    /// Starts the value of single-value frame `f`; returns its indentation (the frame's own).
    @inline(__always)
    func beginSingle(_ f: Int, _ generation: Int) throws(XMLStreamAbandoned) -> Int {
        try settle(f, generation)
        guard state.frames[f].kind == .single, !state.frames[f].hasSingle else { throw abandon() }
        state.frames[f].hasSingle = true
        return state.frames[f].indent
    }

    /// Writes frame `f`'s opening tag before its first entry or element.
    @inline(__always)
    private func openTag(_ f: Int, keyed: Bool) {
        guard !state.frames[f].isOpen else { return }
        state.frames[f].isOpen = true
        if keyed {
            state.out.append(word: 0x0a_3e74_6369_643c, 7)  // "<dict>\n"
        } else {
            state.out.append(word: 0x0a3e_7961_7272_613c, 8)  // "<array>\n"
        }
    }
}

// MARK: - Values

extension XMLEncoderImpl {
    /// Writes the whole document of `value`.
    func encodeRoot<T: Encodable>(_ value: T) throws -> Data {
        state.out.append(contentsOf: XMLPlistWriter.header.utf8)
        try writeValue(value, parent: -1, indent: 0, step: .none)
        state.out.append(words: 0x3e74_7369_6c70_2f3c, 0x0a, 9)  // "</plist>\n"
        return state.out.take()
    }

    /// Writes `value` (after its indentation, which is `indent` tabs) as a child of frame `parent`.
    @inline(__always)
    func writeValue<T: Encodable>(_ value: T, parent: Int, indent: Int, step: @autoclosure () -> EncodeStep) throws {
        if try writeScalar(value, indent: indent) { return }
        if try writeCollection(value, parent: parent, indent: indent, step: step()) { return }
        try writeNested(value, parent: parent, indent: indent, step: step())
    }

    /// Writes `value` when it is a type the format holds directly; false for any other.
    @inline(__always)
    func writeScalar<T>(_ value: T, indent: Int) throws(XMLStreamAbandoned) -> Bool {
        guard let kind = ScalarKind.of(T.self) else { return false }
        switch kind {
        case .string: try writeString(identityCast(value, to: String.self))
        case .int: writeInteger(Int64(identityCast(value, to: Int.self)))
        case .double: writeReal(identityCast(value, to: Double.self))
        case .bool: writeBool(identityCast(value, to: Bool.self))
        case .date: try writeDate(identityCast(value, to: Date.self))
        case .data: writeData(identityCast(value, to: Data.self), indent: indent)
        case .float: writeReal(Double(identityCast(value, to: Float.self)))
        case .int64: writeInteger(identityCast(value, to: Int64.self))
        case .uint64: writeInteger(PlistInteger(identityCast(value, to: UInt64.self)))
        case .int32: writeInteger(Int64(identityCast(value, to: Int32.self)))
        case .uint32: writeInteger(Int64(identityCast(value, to: UInt32.self)))
        case .uint8: writeInteger(Int64(identityCast(value, to: UInt8.self)))
        case .int8: writeInteger(Int64(identityCast(value, to: Int8.self)))
        case .int16: writeInteger(Int64(identityCast(value, to: Int16.self)))
        case .uint16: writeInteger(Int64(identityCast(value, to: UInt16.self)))
        case .uint: writeInteger(PlistInteger(identityCast(value, to: UInt.self)))
        case .int128: writeInteger(PlistInteger(identityCast(value, to: Int128.self)))
        case .uint128: try writeInteger(identityCast(value, to: UInt128.self))
        case .uid: writeUID(identityCast(value, to: PlistUID.self).value, indent: indent)
        }
        return true
    }

    @inline(__always)
    func writeString(_ s: String) throws(XMLStreamAbandoned) {
        state.out.append(word: 0x3e67_6e69_7274_733c, 8)  // "<string>"
        guard XMLPlistWriter.appendText(s.utf8.span, checked: true, into: &state.out) else { throw abandon() }
        state.out.append(words: 0x676e_6972_7473_2f3c, 0x0a3e, 10)  // "</string>\n"
    }

    @inline(__always)
    func writeInteger(_ v: Int64) { XMLPlistWriter.appendInteger(v, into: &state.out) }

    @inline(__always)
    func writeInteger(_ v: PlistInteger) { XMLPlistWriter.appendInteger(v, into: &state.out) }

    /// A `UInt128` above `Int128.max` is an error (the table's route reports it with its coding path).
    @inline(__always)
    func writeInteger(_ v: UInt128) throws(XMLStreamAbandoned) {
        guard let i = Int128(exactly: v) else { throw abandon() }
        writeInteger(PlistInteger(i))
    }

    @inline(__always)
    func writeReal(_ d: Double) { XMLPlistWriter.appendReal(d, into: &state.out) }

    @inline(__always)
    func writeBool(_ b: Bool) { XMLPlistWriter.appendBool(b, into: &state.out) }

    @inline(__always)
    func writeDate(_ d: Date) throws(XMLStreamAbandoned) {
        do { try XMLPlistWriter.appendDateElement(d, into: &state.out) } catch { throw abandon() }
    }

    @inline(__always)
    func writeData(_ d: Data, indent: Int) { XMLPlistWriter.appendDataElement(d, indent: indent, into: &state.out) }

    @inline(__always)
    func writeUID(_ u: UInt64, indent: Int) { XMLPlistWriter.appendUID(u, indent: indent, into: &state.out) }

    /// Writes `value` when it is an array of strings, integers, reals or booleans, or a dictionary
    /// keyed by `String` or `Int`; false for any other type.
    @inline(__always)
    func writeCollection<T: Encodable>(_ value: T, parent: Int, indent: Int, step: @autoclosure () -> EncodeStep)
        throws -> Bool
    {
        switch CollectionKind.of(T.self) {
        case .stringArray:
            try writeArray(identityCast(value, to: [String].self), indent: indent) {
                (impl, s) throws(XMLStreamAbandoned) in
                try impl.writeString(s)
            }
            return true
        case .intArray:
            writeArray(identityCast(value, to: [Int].self), indent: indent) { $0.writeInteger(Int64($1)) }
            return true
        case .doubleArray:
            writeArray(identityCast(value, to: [Double].self), indent: indent) { $0.writeReal($1) }
            return true
        case .boolArray:
            writeArray(identityCast(value, to: [Bool].self), indent: indent) { $0.writeBool($1) }
            return true
        case .other: break
        }
        if isStringKeyedDictionary(T.self), let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try dictionary.writeEntries(to: self, parent: parent, indent: indent, step: step())
        }
        if isEncodableArray(T.self), let array = value as? any EncodableArray {
            try array.writeElements(to: self, parent: parent, indent: indent, step: step())
            return true
        }
        return false
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

    /// An array of `elements`, each written by `write` after its indentation.
    @inline(__always)
    func writeArray<E, Failure: Error>(
        _ elements: [E], indent: Int, _ write: (XMLEncoderImpl, E) throws(Failure) -> Void
    ) throws(Failure) {
        guard !elements.isEmpty else {
            state.out.append(words: 0x3e2f_7961_7272_613c, 0x0a, 9)  // "<array/>\n"
            return
        }
        state.out.append(word: 0x0a3e_7961_7272_613c, 8)  // "<array>\n"
        let inner = indent &+ 1
        // Each element read where it lies (`for in` would copy it: a retain and a release of a string).
        try elements.forEachInPlace { (e) throws(Failure) in
            state.out.append(tabs: inner)
            try write(self, e)
        }
        state.out.append(tabs: indent)
        state.out.append(words: 0x3e79_6172_7261_2f3c, 0x0a, 9)  // "</array>\n"
    }

    /// Writes `value` through its `encode(to:)` in a new frame under `parent`.
    func writeNested<T: Encodable>(_ value: T, parent: Int, indent: Int, step: EncodeStep) throws {
        try inNewFrame(parent: parent, indent: indent, step: step) { try value.encode(to: self) }
    }

    /// Runs `body`, which encodes one value through this encoder, in a new frame under `parent`, the
    /// current one meanwhile; then closes the frame.
    @inline(__always)
    func inNewFrame(parent: Int, indent: Int, step: EncodeStep, _ body: () throws -> Void) throws {
        let f = pushFrame(parent: parent, step: step, kind: .empty, indent: indent, isEncoding: true)
        // Deeper than the limit: the table's route throws the error, with its coding path.
        guard state.frames[f].depth <= maxDepth else { throw abandon() }
        let saved = state.current
        state.current = f
        defer { state.current = saved }
        do {
            try body()
        } catch {
            if !(error is XMLStreamAbandoned) { state.interrupted = true }
            throw error
        }
        try close(above: f)
        try close(f)
        state.frameCount = f
    }

    /// A new frame for a nested container or super encoder under `key` of keyed frame `f`; -1 (and the
    /// stream abandoned) when the entry cannot be written.
    func nestedFrame(in f: Int, _ generation: Int, key: some CodingKey, kind: EncodeFrame.Kind) -> Int {
        guard let indent = try? beginEntry(f, generation, key: key.stringValue) else { return -1 }
        return pushFrame(parent: f, step: .key(key), kind: kind, indent: indent, isEncoding: false)
    }

    /// A new frame for a nested container or super encoder as the next element of unkeyed frame `f`.
    func nestedFrame(in f: Int, _ generation: Int, kind: EncodeFrame.Kind) -> Int {
        let index = f >= 0 && f < state.frameCount ? state.frames[f].count : 0
        guard let indent = try? beginElement(f, generation) else { return -1 }
        return pushFrame(parent: f, step: .index(index), kind: kind, indent: indent, isEncoding: false)
    }
}

// MARK: - Dictionaries

extension Dictionary where Key: Encodable, Value: Encodable {
    /// `[String: V]` and `[Int: V]` as one XML dictionary (keys as text), entry by entry in the
    /// dictionary's order, as `encodeEntries` adds them; false for any other key type.
    func writeEntries(to impl: XMLEncoderImpl, parent: Int, indent: Int, step: EncodeStep) throws -> Bool {
        guard Key.self == String.self || Key.self == Int.self else { return false }
        let f = impl.pushFrame(parent: parent, step: step, kind: .keyed, indent: indent, isEncoding: true)
        guard impl.state.frames[f].depth <= impl.maxDepth else { throw impl.abandon() }
        guard !isEmpty else {
            impl.state.out.append(word: 0x0a3e_2f74_6369_643c, 8)  // "<dict/>\n"
            impl.state.frameCount = f
            return true
        }
        impl.state.out.append(word: 0x0a_3e74_6369_643c, 7)  // "<dict>\n"
        let inner = indent &+ 1
        var starts: [Int] = []
        var keys: [String] = []
        if impl.sortsKeys {
            starts.reserveCapacity(count)
            keys.reserveCapacity(count)
        }
        for (k, v) in self {
            let text = k as? String ?? (k as? Int).map { String($0) } ?? "\(k)"
            if impl.sortsKeys {
                starts.append(impl.state.out.count)
                keys.append(text)
            }
            impl.state.out.append(tabs: inner)
            try impl.appendKeyLine(text)
            impl.state.out.append(tabs: inner)
            try impl.writeValue(v, parent: f, indent: inner, step: .key(PlistCodingKey(text)))
        }
        if impl.sortsKeys { impl.state.out.sortRuns(starts: starts, keys: keys) }
        impl.state.out.append(tabs: indent)
        impl.state.out.append(word: 0x0a3e_7463_6964_2f3c, 8)  // "</dict>\n"
        impl.state.frameCount = f
        return true
    }
}

// MARK: - Arrays

extension Array where Element: Encodable {
    /// `EncodableArray`'s XML method (the conformance is in BinaryEncoding.swift).
    func writeElements(to impl: XMLEncoderImpl, parent: Int, indent: Int, step: EncodeStep) throws {
        try impl.inNewFrame(parent: parent, indent: indent, step: step) {
            var container = impl.elementContainer(frame: impl.state.current)
            // Each element read where it lies, not copied (`forEachInPlace`: the closure only reads it).
            try forEachInPlace { try container.encode($0) }
        }
    }
}

// MARK: - Encoder

extension XMLEncoderImpl {
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyedContainer(type, frame: state.current)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { unkeyedContainer(frame: state.current) }

    func singleValueContainer() -> any SingleValueEncodingContainer { singleValueContainer(frame: state.current) }

    func keyedContainer<Key: CodingKey>(_ type: Key.Type, frame f: Int) -> KeyedEncodingContainer<Key> {
        claim(f, as: .keyed, memo: state.keyMemos.memo(for: Key.self))
        return KeyedEncodingContainer(XMLKeyedEncoding<Key>(impl: self, frame: f, generation: generation(of: f)))
    }

    func unkeyedContainer(frame f: Int) -> any UnkeyedEncodingContainer { elementContainer(frame: f) }

    /// `unkeyedContainer(frame:)` as its concrete type.
    func elementContainer(frame f: Int) -> XMLUnkeyedEncoding {
        claim(f, as: .unkeyed)
        return XMLUnkeyedEncoding(impl: self, frame: f, generation: generation(of: f))
    }

    func singleValueContainer(frame f: Int) -> any SingleValueEncodingContainer {
        claim(f, as: .single)
        return XMLSingleValueEncoding(impl: self, frame: f, generation: generation(of: f))
    }

    /// The generation of frame `f`, -1 for no frame.
    func generation(of f: Int) -> Int { f >= 0 && f < state.frameCount ? state.frames[f].generation : -1 }
}

/// The encoder `superEncoder()` and `superEncoder(forKey:)` return: the same encode, writing into one
/// frame of its own.
final class XMLChildEncoder: Encoder {
    let impl: XMLEncoderImpl
    let frame: Int
    let generation: Int
    var userInfo: [CodingUserInfoKey: Any] { impl.userInfo }
    var codingPath: [any CodingKey] { impl.codingPath(frame: frame) }

    init(impl: XMLEncoderImpl, frame: Int) {
        self.impl = impl
        self.frame = frame
        generation = impl.generation(of: frame)
    }

    /// The frame containers go to: -1 (and the stream abandoned) once this encoder's frame is closed.
    private var target: Int {
        if impl.isLive(frame, generation) { return frame }
        impl.state.abandoned = true
        return -1
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        impl.keyedContainer(type, frame: target)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { impl.unkeyedContainer(frame: target) }

    func singleValueContainer() -> any SingleValueEncodingContainer { impl.singleValueContainer(frame: target) }
}
