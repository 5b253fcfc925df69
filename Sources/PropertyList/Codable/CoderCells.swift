// Sources/PropertyList/Codable/CoderCells.swift - The Codable coders' mutable state without run-time
// exclusivity checks, the input lent to a decode, and the checked byte reads the decoder needs.
//
// Fenced (scripts/check-unsafe). Three things here need unsafe constructs:
//
// 1. The state of `BinaryDecoderImpl`, `BinaryEncoderImpl` and `XMLEncoderImpl`. Every field or element read or written
//    touches the coder's state (the value budget, the key memo, the frame stack). As a stored `var`
//    of a class, each of those accesses is checked for exclusivity at run time (`swift_beginAccess`,
//    `swift_endAccess`): measured on the unarchiver, 18 % of its instructions. In release builds the
//    state lives in one heap cell owned by the coder (`CoderCell`), and `state` is a computed
//    property whose addressors hand out the cell's address: no run-time check, and no coroutine
//    (`_read`/`_modify` accessors measured a call per access here).
//    Why this is sound. Lifetime: the cell is allocated and initialised in the coder's initialiser
//    and deinitialised and freed in its deinit; `state` is reachable only through the coder, so the
//    address is never used outside the cell's lifetime. Exclusivity: what the run-time check would
//    catch is two overlapping accesses to `state` (a mutation in progress when another begins).
//    Each access lasts one expression, and no such expression calls back into the coder (user code
//    runs only between accesses: `init(from:)` and `encode(to:)` are called with no access open).
//    Debug builds keep `state` a plain stored property, so the whole test suite runs with every
//    access checked: an overlap traps there. The coders are not `Sendable`, so no access comes from
//    another thread.
// 2. The input of a binary decode, lent once for the whole top-level decode (as the unarchiver's
//    `LentInput`): borrowing `Data`'s bytes costs about 300 instructions, paid per read otherwise.
//    Why this is sound: `state.input` is set only inside `withLentBytes`'s closure and reset by
//    `defer` before that closure returns, so it is never read after the borrow ends; reads nested
//    in the closure run on the same thread, synchronously; and a decoder kept by a type and used
//    after the top-level decode returns finds `input` empty and borrows anew for each read.
// 3. Two checked reads over `ByteReader` (an ASCII string and a key comparison), each of which proves
//    its range with `contains` before the unchecked load.
// 4. `identityCast`: a value of type `V` returned as the generic `T` the caller has proven to be `V`
//    (checked again here). `as! T` would do the same through the run time's cast machinery, and
//    `as? T` builds `Optional<T>`, whose metadata generic code looks up on every call (measured: a
//    third of a `[Record]` decode).
// 5. `keyTag`: the one byte of a coding key whose type is plain data of at most one byte (a
//    synthesized `CodingKeys` enum: its case number), read by `unsafeBitCast` to `UInt8`. Sound: the
//    type is checked to be POD (no references, every byte the value's own) and its size to be 1
//    (size 0 reads nothing), the size of a `UInt8`, whose every bit pattern is a value.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Decoder` of a binary decode: reads straight from a ``BinaryPlistDocument`` (see
/// BinaryDecoding.swift). One instance serves the whole decode; nested values are decoded by
/// pointing it at another object (`state.current`) for the extent of their `init(from:)`.
final class BinaryDecoderImpl: Decoder, ScalarReading {
    let document: BinaryPlistDocument
    let userInfo: [CodingUserInfoKey: Any]
    /// The coding path of the decode's root (the components of `decode(_:from:at:)`).
    let basePath: [any CodingKey]
    /// Whether errors name byte offsets and object indices (false when the document was made from a
    /// `PlistValue` or a text form, whose offsets would mean nothing to the caller).
    let reportsLocations: Bool
    /// The read-side facts of the document, copied once.
    let context: ScanContext
    let objectCount: Int
    let tableOffset: Int
    let offsetWidth: Int
    let refWidth: Int
    let maxUID: UInt64
    let maxDepth: Int

    #if DEBUG
        var state: DecoderState
    #else
        private let cell: CoderCell<DecoderState>
        var state: DecoderState {
            unsafeAddress { unsafe UnsafePointer(cell.address) }
            unsafeMutableAddress { unsafe cell.address }
        }
        deinit { cell.destroy() }
    #endif

    init(
        document: BinaryPlistDocument, userInfo: [CodingUserInfoKey: Any], basePath: [any CodingKey],
        reportsLocations: Bool, root: Int, valueBudget: Int
    ) {
        self.document = document
        self.userInfo = userInfo
        self.basePath = basePath
        self.reportsLocations = reportsLocations
        context = document.scanContext
        objectCount = document.trailer.objectCount
        tableOffset = document.trailer.offsetTableOffset
        offsetWidth = document.trailer.offsetIntSize
        refWidth = document.trailer.objectRefSize
        maxUID = document.limits.maxUID
        maxDepth = document.limits.maxDepth
        #if DEBUG
            state = DecoderState(current: root, budget: valueBudget)
        #else
            cell = CoderCell(DecoderState(current: root, budget: valueBudget))
        #endif
    }

    /// Runs `body` with the document's bytes lent to every read it makes (one borrow for the whole
    /// decode; see the file header).
    func withLentInput<R>(_ body: () throws -> R) throws -> R {
        try unsafe document.withLentBytes { (lent) throws -> R in
            state.input = unsafe lent.bytes
            defer { state.input = nil }
            return try body()
        }
    }
}

/// The `Decoder` of the text forms and of trees: reads a ``PlistTape`` (see TapeDecoding.swift). One
/// instance serves the whole decode; nested values are decoded by pointing it at another entry
/// (`state.current`) for the extent of their `init(from:)`.
final class TapeDecoderImpl: Decoder, ScalarReading {
    let tape: PlistTape
    let userInfo: [CodingUserInfoKey: Any]
    let maxDepth: Int
    /// How many values the decode may produce (see `PlistDecoder.valueBudget(forInputBytes:)`).
    let budget: Int

    #if DEBUG
        var state: TapeDecoderState
    #else
        private let cell: CoderCell<TapeDecoderState>
        var state: TapeDecoderState {
            unsafeAddress { unsafe UnsafePointer(cell.address) }
            unsafeMutableAddress { unsafe cell.address }
        }
        deinit { cell.destroy() }
    #endif

    init(tape: PlistTape, userInfo: [CodingUserInfoKey: Any], maxDepth: Int, budget: Int) {
        self.tape = tape
        self.userInfo = userInfo
        self.maxDepth = maxDepth
        self.budget = budget
        #if DEBUG
            state = TapeDecoderState(current: tape.root)
        #else
            cell = CoderCell(TapeDecoderState(current: tape.root))
        #endif
    }

    /// Runs `body` with the tape's source bytes lent to every read it makes (one borrow for the whole
    /// decode, as `BinaryDecoderImpl.withLentInput`; see the file header, point 2: `state.input` is
    /// set only inside the borrow's closure and reset before it returns).
    func withLentInput<R>(_ body: () throws -> R) throws -> R {
        guard let source = tape.source else { return try body() }
        return try ByteReader.read(source) { (r) throws -> R in
            state.input = r
            defer { state.input = nil }
            return try body()
        }
    }

    /// The text of a string entry of form `.input` or `.inputASCII`: bytes of the tape's source.
    ///
    /// Why the bytes are not validated again: such entries are made only by `XMLTapeSink.string`, of
    /// the `Data` the tape keeps as its `source` and never changes; it gives the form `.inputASCII`
    /// only to bytes its scan found all below 0x80 (`XMLInput.scanText`), and checks every other run
    /// with `XMLScan.firstInvalidUTF8` before it records it. The range is checked against the bytes
    /// here.
    @inline(__always)
    func inputText(_ e: PlistTape.Entry) -> String {
        let offset = e.index
        let length = Int(e.count)
        let ascii = e.form == .inputASCII
        return read { (r) -> String in
            guard r.contains(offset: offset, length: length, limit: r.count) else { return "" }
            // In bounds (checked just above), valid UTF-8, and ASCII when the form says so (see above).
            return unsafe r.string(validUTF8Unchecked: offset, length: length, ascii: ascii)
        }
    }

    /// Runs `body` over a new borrow of the tape's source bytes (none: an empty reader, which no
    /// entry of such a tape reads).
    func withSourceBytes<R>(_ body: (ByteReader) -> R) -> R {
        guard let source = tape.source else {
            return unsafe body(ByteReader(UnsafeRawBufferPointer(start: nil, count: 0)))
        }
        return ByteReader.read(source, body)
    }
}

/// The `Encoder` of a binary encode: writes straight into an ``ObjectTableBuilder`` (see
/// BinaryEncoding.swift). One instance serves the whole encode; `state.current` is the frame the
/// next container request goes to.
final class BinaryEncoderImpl: Encoder {
    let userInfo: [CodingUserInfoKey: Any]
    let sortsKeys: Bool
    let maxDepth: Int

    #if DEBUG
        var state: EncoderState
    #else
        private let cell: CoderCell<EncoderState>
        var state: EncoderState {
            unsafeAddress { unsafe UnsafePointer(cell.address) }
            unsafeMutableAddress { unsafe cell.address }
        }
        deinit { cell.destroy() }
    #endif

    init(userInfo: [CodingUserInfoKey: Any], sortsKeys: Bool, maxDepth: Int) {
        self.userInfo = userInfo
        self.sortsKeys = sortsKeys
        self.maxDepth = maxDepth
        #if DEBUG
            state = EncoderState()
        #else
            cell = CoderCell(EncoderState())
        #endif
    }
}

/// The `Encoder` of an XML encode: writes the text as the values are encoded (see XMLEncoding.swift).
/// One instance serves the whole encode; `state.current` is the frame the next container request
/// goes to.
final class XMLEncoderImpl: Encoder {
    let userInfo: [CodingUserInfoKey: Any]
    let sortsKeys: Bool
    let maxDepth: Int

    #if DEBUG
        var state: XMLEncoderState
    #else
        private let cell: CoderCell<XMLEncoderState>
        var state: XMLEncoderState {
            unsafeAddress { unsafe UnsafePointer(cell.address) }
            unsafeMutableAddress { unsafe cell.address }
        }
        deinit { cell.destroy() }
    #endif

    init(userInfo: [CodingUserInfoKey: Any], sortsKeys: Bool, maxDepth: Int) {
        self.userInfo = userInfo
        self.sortsKeys = sortsKeys
        self.maxDepth = maxDepth
        #if DEBUG
            state = XMLEncoderState()
        #else
            cell = CoderCell(XMLEncoderState())
        #endif
    }
}

#if !DEBUG
    /// One heap cell holding a coder's state, owned by exactly one coder (see the file header).
    @safe struct CoderCell<State: ~Copyable> {
        private let pointer: UnsafeMutablePointer<State>

        /// A cell holding `state`.
        init(_ state: consuming State) {
            let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
            unsafe pointer.initialize(to: state)
            unsafe self.pointer = pointer
        }

        /// Ends the cell's life: called once, from the owning coder's deinit.
        func destroy() {
            unsafe pointer.deinitialize(count: 1)
            unsafe pointer.deallocate()
        }

        /// The cell's address, valid until `destroy()`.
        var address: UnsafeMutablePointer<State> { unsafe pointer }
    }
#endif

/// The case number of `key` when its type is plain data of at most one byte (a synthesized
/// `CodingKeys` enum of up to 256 cases, or a single-case one: 0); nil for any other key type.
///
/// Equal tags are equal keys (a plain-data value is its bytes, and a key's `stringValue` is a function
/// of its value), so the coders remember a key's memo slot by its tag (`EncodeKeyMemos.slot(forTag:in:)`,
/// `BinaryDecoderImpl.taggedSlot`) and do not ask for its `stringValue`, nor compare that text, again:
/// about 100 instructions a key (KeyMemo.swift).
@inline(__always)
func keyTag<K: CodingKey>(_ key: K) -> Int? {
    guard _isPOD(K.self), MemoryLayout<K>.size <= 1 else { return nil }
    guard MemoryLayout<K>.size == 1 else { return 0 }
    // One byte, the whole value (POD, size 1): the same size and representation as a `UInt8`.
    return Int(unsafe unsafeBitCast(key, to: UInt8.self))
}

/// `value` as `T`, when `T` is `V` (checked: a mismatch traps, and no caller can make one, since the
/// callers compare the metatypes first; the types come from the code, never from input).
@inline(__always)
package func identityCast<V, T>(_ value: V, to type: T.Type) -> T {
    precondition(V.self == T.self, "identityCast between different types")
    // Same type, hence same size, alignment and representation.
    return unsafe unsafeBitCast(value, to: T.self)
}

extension Array {
    /// Calls `body` with each element where it lies in the array's storage. The element is passed
    /// `inout` only so that the compiler hands over its address: `body` must read it and never change
    /// it (the storage may be shared with other arrays).
    ///
    /// Why: in generic code, `for in`, the subscript, a `Span` and an unsafe pointer's `pointee` each
    /// copy an element before passing it to a function the compiler cannot see into (it cannot prove
    /// that the memory stays unchanged during the call); an `inout` argument is passed by address. For
    /// a record of strings, each copy is a retain and a release of every string (measured: 5 % of a
    /// Codable XML encode of 50,000 records).
    ///
    /// Why this is sound: the buffer is the array's storage, alive for the whole call (`self` is held by
    /// the caller and immutable here); every index is below its count, so each pointer names an
    /// initialised element; the callers' bodies only read the element (pass it on as a borrowed
    /// argument), so no byte of the shared storage is written.
    @inline(__always)
    func forEachInPlace<Failure: Error>(_ body: (inout Element) throws(Failure) -> Void) throws(Failure) {
        try unsafe withUnsafeBufferPointer { (buffer) throws(Failure) in
            guard let base = buffer.baseAddress else { return }
            let elements = unsafe UnsafeMutablePointer(mutating: base)
            for i in 0..<buffer.count { try unsafe body(&elements[i]) }
        }
    }
}

extension ByteReader {
    /// The bytes `offset ..< offset + length` as a `String` when the range lies inside the input and
    /// every byte is ASCII; `nil` otherwise.
    @inline(__always)
    func asciiString(at offset: Int, length: Int) -> String? {
        guard contains(offset: offset, length: length, limit: count) else { return nil }
        // In bounds: offset ..< offset + length lies inside 0 ..< count (checked just above).
        return unsafe asciiString(unchecked: offset, length: length)
    }

    /// The bytes `offset ..< offset + length`, valid UTF-8 (the caller's proof, with the range), as a
    /// `String`: made from a `UTF8Span` without validation (`String(validating:as:)` would validate, and
    /// is generic over the encoding: it looks up the metadata of `UnsafeBufferPointer<UInt8>` per call).
    /// `ascii`: the caller also proves every byte below 0x80 (then not even the ASCII flag is computed).
    @unsafe @inline(__always)
    func string(validUTF8Unchecked offset: Int, length: Int, ascii: Bool) -> String {
        assert(contains(offset: offset, length: length, limit: count))
        guard length > 0, let base = unsafe buffer.baseAddress else { return "" }
        // In bounds (the caller's proof).
        let start = unsafe (base + offset).assumingMemoryBound(to: UInt8.self)
        let bytes = unsafe UnsafeBufferPointer(start: start, count: length)
        // Valid UTF-8, and ASCII when `ascii` is true (the caller's proof).
        return String(copying: unsafe UTF8Span(unchecked: bytes.span, isKnownASCII: ascii))
    }

    /// True when the bytes `offset ..< offset + key.count` lie inside the input and are `key`'s (a
    /// `String`'s UTF-8 span: a native string lends its bytes in place, a small one from where it is
    /// held, so no copy is made).
    @inline(__always)
    func bytes(at offset: Int, equal key: Span<UInt8>) -> Bool {
        let length = key.count
        guard contains(offset: offset, length: length, limit: count) else { return false }
        return unsafe key.withUnsafeBytes { k in
            guard let kb = k.baseAddress else { return true }
            var i = 0
            while i &+ 8 <= length {
                // i + 8 <= length: inside `k` (length bytes) and offset ..< offset + length (checked above).
                let a = unsafe buffer.loadUnaligned(fromByteOffset: offset &+ i, as: UInt64.self)
                let b = unsafe kb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if a != b { return false }
                i &+= 8
            }
            while i < length {
                // i < length: inside both ranges.
                let a = unsafe buffer.load(fromByteOffset: offset &+ i, as: UInt8.self)
                let b = unsafe kb.load(fromByteOffset: i, as: UInt8.self)
                if a != b { return false }
                i &+= 1
            }
            return true
        }
    }

    /// True when the bytes `offset ..< offset + key.count` lie inside the input and equal `key`.
    @inline(__always)
    func bytes(at offset: Int, equal key: [UInt8]) -> Bool {
        let length = key.count
        guard contains(offset: offset, length: length, limit: count) else { return false }
        return unsafe key.withUnsafeBufferPointer { k in
            var i = 0
            while i &+ 8 <= length {
                // i + 8 <= length: inside `k` (length bytes) and offset ..< offset + length (checked above).
                let a = unsafe buffer.loadUnaligned(fromByteOffset: offset &+ i, as: UInt64.self)
                let b = unsafe UnsafeRawPointer(k.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)
                if a != b { return false }
                i &+= 8
            }
            while i < length {
                // i < length: inside both ranges.
                if unsafe buffer.load(fromByteOffset: offset &+ i, as: UInt8.self) != k[i] { return false }
                i &+= 1
            }
            return true
        }
    }
}
