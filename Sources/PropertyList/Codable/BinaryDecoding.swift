// Sources/PropertyList/Codable/BinaryDecoding.swift - Decodable values straight from a binary
// property list: the decoder's state, its reads, nested values, budget, depth and cycles.
//
// No `PlistValue` tree is built. The decoder is one `BinaryDecoderImpl` for the whole decode; a
// nested value is decoded by pointing it at another object (`state.current`) for the extent of the
// value's `init(from:)`, with a frame pushed on `state.frames`:
//
//   frames[i] = (object, the key or position that led to it)     the path, bottom to top
//
// A container remembers how many frames were below it when it was made (`depth`): its coding path
// is the keys of those frames, made only when an error needs it. Frames also give the cycle check
// (an object reached again while it is being decoded) and the depth bound (`PlistLimits.maxDepth`).
// Codable has no identity, so a shared sub-tree is decoded once per reference: every value counts
// against a budget (`PlistDecoder.valueBudget(for:)`), and a small file that would expand to 2^40
// values stops with `limitExceeded` instead of growing.
//
// Scalars are read in place: the object's offset from the table, its marker, and for the common
// forms (integers, reals, booleans, dates, short ASCII strings) no call to the general scanner.
// Strings become `String`s only when a value keeps them; keys are compared as bytes (KeyMemo.swift).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The mutable state of a binary decode (kept in `BinaryDecoderImpl.state`, see CoderCells.swift).
struct DecoderState {
    /// The input, lent for the whole top-level decode (nil outside it).
    var input: ByteReader? = nil
    /// The object that the next `container(keyedBy:)`/`unkeyedContainer()`/`singleValueContainer()`
    /// of the decoder reads.
    var current: Int
    /// The nested values being decoded, bottom to top.
    var frames: [DecodeFrame] = []
    /// Objects of the frames from `DecodeFrame.linearCycleCheck` on, for the cycle check of deep paths.
    var deepOpen: [Int: Int] = [:]
    /// Values decoded so far, and how many may be.
    var values = 0
    let budget: Int
    /// The key memo of each container type met (KeyMemo.swift).
    var memos: [DecodeKeyMemo] = []
    /// The slots of every memo, 64 per memo (`DecodeKeyMemo.base`).
    var keySlots: [DecodeKeySlot] = []
    var memoIndex: [ObjectIdentifier: Int] = [:]
    var lastMemoType: ObjectIdentifier? = nil
    var lastMemo = 0
    /// The key index of the last large dictionary searched without a memo slot (KeyMemo.swift).
    var largeIndex: LargeDictionaryIndex? = nil
    /// The facts of the unkeyed containers of the frames on the stack (see `UnkeyedInfo`).
    var unkeyed: [UnkeyedInfo] = []
    var unkeyedGeneration = 0
    /// Whether the last type asked about is a `Dictionary` (`isStringKeyedDictionary`).
    var dictionaryTypes = TypeMemo()
    /// The string cache (see `string(_:)`): object index and `String` per slot; mask -1 until made,
    /// `stringCacheOff` once the first 4,096 misses found fewer than 512 hits (strings that do not
    /// repeat gain nothing from it).
    var stringCacheKeys: [Int] = []
    var stringCacheValues: [String] = []
    var stringCacheMask = -1
    var stringCacheHits = 0
    var stringCacheMisses = 0
    static let stringCacheOff = -2

    init(current: Int, budget: Int) {
        self.current = current
        self.budget = budget
    }
}

/// The facts of one unkeyed container, kept in the decoder's state so that the container itself
/// stays three words (`BinaryUnkeyedDecoding`). Recycled when the frame it was made in is popped;
/// the generation tells a recycled entry from the container's own.
struct UnkeyedInfo {
    var start: Int
    var n: Int
    var depth: Int
    var prefix: [any CodingKey]?
    var generation: Int
}

/// How a nested value was reached from its parent.
enum DecodeStep {
    /// The same value again (a single-value container decoding another type from it), or the root.
    case none
    case key(any CodingKey)
    case index(Int)
}

/// One nested value being decoded.
struct DecodeFrame {
    /// Frames below this many are checked for cycles by a linear search; deeper ones by a table.
    static let linearCycleCheck = 64

    var ref: Int
    var step: DecodeStep
    /// `state.unkeyed.count` when the frame was pushed: entries above are recycled when it pops.
    var unkeyedMark = 0
    /// The whole coding path of the parent, when the parent is a decoder made by `superDecoder()`
    /// (whose path is not the frames below); `nil` otherwise.
    var prefix: [any CodingKey]?
    /// Whether the object was registered in `deepOpen`.
    var registered = false
}

/// A failure of one read, before the container that made it adds its coding path.
struct DecodeFailure: Error {
    enum Kind {
        case typeMismatch, outOfRange, valueNotFound, corrupted
    }

    var kind: Kind
    /// The located error (code, byte offset, object index, detail).
    var error: PlistError

    /// The `DecodingError` for this failure while decoding `type` at `codingPath`.
    func decodingError(_ type: Any.Type, _ codingPath: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: error.description, underlyingError: error)
        switch kind {
        case .typeMismatch: return .typeMismatch(type, context)
        case .valueNotFound: return .valueNotFound(type, context)
        case .outOfRange, .corrupted: return .dataCorrupted(context)
        }
    }
}

// MARK: - Reads

extension BinaryDecoderImpl {
    /// Runs `body` over the input: the lent bytes inside a top-level decode, a new borrow otherwise.
    @inline(__always)
    func read<R>(_ body: (ByteReader) throws(DecodeFailure) -> R) throws(DecodeFailure) -> R {
        if let r = state.input { return try body(r) }
        return try document.withBytes(body)
    }

    /// A located error: byte offset and object index, unless the document was made from a tree.
    func located(_ code: PlistError.Code, _ ref: Int, offset: Int?, _ detail: String) -> PlistError {
        reportsLocations
            ? PlistError(code, offset: offset, object: ref, detail) : PlistError(code, detail)
    }

    /// The offset of object `ref`, checked against the object count.
    @inline(__always)
    func offset(_ r: ByteReader, _ ref: Int) throws(DecodeFailure) -> Int {
        guard ref >= 0, ref < objectCount else {
            throw DecodeFailure(
                kind: .corrupted,
                error: located(
                    .badReference, ref, offset: nil,
                    "reference \(ref) is not below the object count \(objectCount)"
                ))
        }
        // ref < objectCount, and `r` is this document's input: the table entry was proven at open.
        return ScanContext.objectOffset(r, ref, table: tableOffset, width: offsetWidth)
    }

    /// The marker byte of the object at `off` (an offset from the table: inside the object region).
    @inline(__always)
    func marker(_ r: ByteReader, _ off: Int) -> UInt8 { r.byte(at: off) ?? 0xFF }

    /// Object `ref` decoded by the general scanner (payload extent proven).
    func scan(_ r: ByteReader, _ ref: Int) throws(DecodeFailure) -> RawObject {
        _ = try offset(r, ref)
        do throws(PlistError) {
            return try context.scan(r, ref)
        } catch {
            throw DecodeFailure(
                kind: .corrupted, error: reportsLocations ? error : PlistError(error.code, error.detail))
        }
    }

    /// What object `ref` holds, for messages ("an integer", "the string \"$null\"").
    func describe(_ r: ByteReader, _ ref: Int) -> String {
        guard let raw = try? scan(r, ref) else { return "a malformed object" }
        switch raw.kind {
        case .null: return "null"
        case .fill: return "a fill byte (0x0F, padding, not a value)"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .real: return "a real"
        case .date: return "a date"
        case .data: return "data"
        case .ascii, .utf16: return "a string"
        case .uid: return "a UID"
        case .array: return "an array"
        case .set: return "a set"
        case .dictionary: return "a dictionary"
        }
    }

    /// The failure for object `ref` not being `expected`: `valueNotFound` for null or a `"$null"`
    /// string (how Foundation writes nil), `typeMismatch` otherwise.
    func mismatch(_ r: ByteReader, _ ref: Int, expected: String) -> DecodeFailure {
        let off =
            ref >= 0 && ref < objectCount
            ? ScanContext.objectOffset(r, ref, table: tableOffset, width: offsetWidth) : nil
        if isNull(r, ref) {
            return DecodeFailure(
                kind: .valueNotFound,
                error: located(.valueNotFound, ref, offset: off, "expected \(expected), found null"))
        }
        return DecodeFailure(
            kind: .typeMismatch,
            error: located(.typeMismatch, ref, offset: off, "expected \(expected), found \(describe(r, ref))"))
    }

    /// Whether object `ref` is null: the null object (`0x00`), or the string `"$null"`, which
    /// Foundation's encoder writes for `nil`.
    func isNull(_ r: ByteReader, _ ref: Int) -> Bool {
        guard let off = try? offset(r, ref) else { return false }
        let m = marker(r, off)
        if m == 0x00 { return true }
        // "$null": an ASCII string of 5 bytes (0x55) or UTF-16 of 5 units (0x65).
        if m == 0x55 { return r.bytes(at: off &+ 1, equal: BinaryDecoderImpl.nullBytes) }
        if m == 0x65, let raw = try? scan(r, ref), let s = try? context.makeString(r, raw, ref) { return s == "$null" }
        return false
    }

    static let nullBytes: [UInt8] = Array("$null".utf8)

    /// Whether object `ref` is null (see `isNull(_:_:)`).
    func isNull(_ ref: Int) -> Bool {
        (try? read { (r) throws(DecodeFailure) in isNull(r, ref) }) ?? false
    }

    /// The string object `ref` holds: in place when it can be (`inPlaceString`), else through the
    /// string cache (`cachedString`).
    func string(_ ref: Int) throws(DecodeFailure) -> String {
        if let r = state.input, let s = inPlaceString(r, ref) { return s }
        return try cachedString(ref)
    }

    /// Object `ref` as a `String` made from the input where it lies, when that is the cheapest way:
    /// an ASCII string of at most 14 bytes (cheaper made than looked up), or a longer ASCII string
    /// when the string cache is off (strings that do not repeat). Nil for anything else, including
    /// a reference out of range: the caller then goes through `cachedString`, which reports it.
    /// `r` is this document's input.
    ///
    /// `@inline(always)` (Swift 6.3): `@inline(__always)` is a hint, and the inliner judged this
    /// body too big for the loop of `strings` (called there: 121.4 M instructions for a Codable
    /// decode of 212,000 strings, 118.0 M inlined).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    func inPlaceString(_ r: ByteReader, _ ref: Int) -> String? {
        guard ref >= 0, ref < objectCount else { return nil }
        // ref < objectCount and `r` is this document's input: the table entry was proven at open.
        let off = ScanContext.objectOffset(r, ref, table: tableOffset, width: offsetWidth)
        let m = marker(r, off)
        guard m &>> 4 == 0x5 else { return nil }
        let short = Int(m & 0x0F)
        let start: Int
        let count: Int
        if short < 0x0F {
            start = off &+ 1
            count = short
        } else {
            guard state.stringCacheMask == DecoderState.stringCacheOff,
                let (n, at) = ScanContext.shortCount(r, marker: m, at: off, end: tableOffset)
            else { return nil }
            start = at
            count = n
        }
        // The payload must lie in the object region.
        guard count <= tableOffset &- start else { return nil }
        return r.asciiString(at: start, length: count)
    }

    /// The string object `ref` holds, through a small cache by object index.
    ///
    /// A string of more than 15 bytes, or of UTF-16, is kept in the cache: writers store equal
    /// strings once, so the same object read again (a name repeated in 50,000 records) gives the
    /// same `String`, made once and shared (Swift strings are values).
    func cachedString(_ ref: Int) throws(DecodeFailure) -> String {
        if state.stringCacheMask < 0 {
            if state.stringCacheMask == DecoderState.stringCacheOff { return try readString(ref) }
            makeStringCache()
        }
        let slot = ref & state.stringCacheMask
        if state.stringCacheKeys[slot] == ref {
            state.stringCacheHits &+= 1
            return state.stringCacheValues[slot]
        }
        let text = try readString(ref)
        state.stringCacheKeys[slot] = ref
        state.stringCacheValues[slot] = text
        state.stringCacheMisses &+= 1
        if state.stringCacheMisses == 4096 && state.stringCacheHits < 512 {
            // Strings that do not repeat (the file stores each once): the cache only costs.
            state.stringCacheMask = DecoderState.stringCacheOff
            state.stringCacheKeys = []
            state.stringCacheValues = []
        }
        return text
    }

    /// Sizes the string cache for the document: a power of two up to 4,096 slots.
    func makeStringCache() {
        var capacity = 16
        while capacity < 4096 && capacity < objectCount { capacity &<<= 1 }
        state.stringCacheKeys = Array(repeating: -1, count: capacity)
        state.stringCacheValues = Array(repeating: "", count: capacity)
        state.stringCacheMask = capacity &- 1
    }

    /// The string object `ref` holds, made from its bytes.
    func readString(_ ref: Int) throws(DecodeFailure) -> String {
        try read { (r) throws(DecodeFailure) -> String in
            let off = try offset(r, ref)
            let m = marker(r, off)
            if m >> 4 == 0x5, let (count, start) = ScanContext.shortCount(r, marker: m, at: off, end: tableOffset),
                count <= tableOffset &- start, let s = r.asciiString(at: start, length: count)
            {
                return s
            }
            let raw = try scan(r, ref)
            guard raw.kind == .ascii || raw.kind == .utf16 else { throw mismatch(r, ref, expected: "a string") }
            do throws(PlistError) {
                return try context.makeString(r, raw, ref)
            } catch {
                throw DecodeFailure(
                    kind: .corrupted, error: reportsLocations ? error : PlistError(error.code, error.detail))
            }
        }
    }

    /// The number object `ref` holds: an integer, a real or a boolean.
    @inline(__always)
    func number(_ ref: Int) throws(DecodeFailure) -> StoredNumber {
        try read { (r) throws(DecodeFailure) -> StoredNumber in
            let off = try offset(r, ref)
            let m = marker(r, off)
            // off < tableOffset <= r.count (an offset-table entry, proven at open).
            if let n = ScanContext.fixedNumber(r, marker: m, at: off, end: tableOffset) { return n }
            let raw = try scan(r, ref)
            switch raw.kind {
            case .integer: return .integer(raw.integer)
            case .real: return .real(Double(bitPattern: raw.scalar))
            case .bool: return .bool(raw.scalar != 0)
            default: throw mismatch(r, ref, expected: "a number")
            }
        }
    }

    /// `number(_:)` converted by the shared rule (``NumberConversion``).
    @inline(__always)
    func integer<T: FixedWidthInteger>(_ ref: Int, as type: T.Type) throws(DecodeFailure) -> T {
        let n = try number(ref)
        switch NumberConversion.integer(n, as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw conversionFailure(f, ref)
        }
    }

    @inline(__always)
    func floatingPoint<T: BinaryFloatingPoint>(_ ref: Int, as type: T.Type) throws(DecodeFailure) -> T {
        let n = try number(ref)
        switch NumberConversion.floatingPoint(n, as: T.self) {
        case .success(let v): return v
        case .failure(let f): throw conversionFailure(f, ref)
        }
    }

    @inline(__always)
    func bool(_ ref: Int) throws(DecodeFailure) -> Bool {
        let n = try number(ref)
        switch NumberConversion.bool(n) {
        case .success(let v): return v
        case .failure(let f): throw conversionFailure(f, ref)
        }
    }

    func conversionFailure(_ f: NumberConversionFailure, _ ref: Int) -> DecodeFailure {
        let off = (try? read { (r) throws(DecodeFailure) in try offset(r, ref) })
        switch f.kind {
        case .typeMismatch:
            return DecodeFailure(kind: .typeMismatch, error: located(.typeMismatch, ref, offset: off, f.detail))
        case .outOfRange:
            return DecodeFailure(kind: .outOfRange, error: located(.numberOutOfRange, ref, offset: off, f.detail))
        }
    }

    /// The date object `ref` holds.
    func date(_ ref: Int) throws(DecodeFailure) -> Date {
        try read { (r) throws(DecodeFailure) -> Date in
            let off = try offset(r, ref)
            if case .date(let d) = ScanContext.fixedScalar(
                r, marker: marker(r, off), at: off, end: tableOffset, maxUID: maxUID)
            {
                return d
            }
            let raw = try scan(r, ref)
            guard raw.kind == .date else { throw mismatch(r, ref, expected: "a date") }
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw.scalar))
        }
    }

    /// A copy of the bytes of the data object `ref`.
    func data(_ ref: Int) throws(DecodeFailure) -> Data {
        try read { (r) throws(DecodeFailure) -> Data in
            let raw = try scan(r, ref)
            guard raw.kind == .data else { throw mismatch(r, ref, expected: "data") }
            return r.data(offset: raw.payload, length: raw.count) ?? Data()
        }
    }

    /// The value of the UID object `ref`.
    func uid(_ ref: Int) throws(DecodeFailure) -> UInt64 {
        try read { (r) throws(DecodeFailure) -> UInt64 in
            let raw = try scan(r, ref)
            guard raw.kind == .uid else { throw mismatch(r, ref, expected: "a UID") }
            return raw.scalar
        }
    }

    /// The reference at position `index` of the reference list starting at `start` (a list the
    /// scanner proved inside the object region).
    @inline(__always)
    func reference(_ r: ByteReader, _ start: Int, _ index: Int) -> Int {
        Int(truncatingIfNeeded: r.uint(at: start &+ index &* refWidth, width: refWidth) ?? UInt64.max)
    }

    /// The container object `ref`: a dictionary for a keyed container, an array or a set for an
    /// unkeyed one.
    func container(_ ref: Int, keyed: Bool) throws(DecodeFailure) -> RawObject {
        try read { (r) throws(DecodeFailure) -> RawObject in
            let raw = try scan(r, ref)
            if keyed ? raw.kind == .dictionary : (raw.kind == .array || raw.kind == .set) { return raw }
            throw mismatch(r, ref, expected: keyed ? "a dictionary" : "an array")
        }
    }
}

// MARK: - Paths, budget, nesting

extension BinaryDecoderImpl {
    /// The coding path of a container made when `depth` frames were on the stack.
    func codingPath(depth: Int) -> [any CodingKey] {
        let frames = state.frames
        let top = min(depth, frames.count)
        var start = 0
        var path = basePath
        var j = top - 1
        while j >= 0 {
            if let prefix = frames[j].prefix {
                path = prefix
                start = j
                break
            }
            j -= 1
        }
        for i in start..<top {
            switch frames[i].step {
            case .none: break
            case .key(let k): path.append(k)
            case .index(let n): path.append(PlistCodingKey(index: n))
            }
        }
        return path
    }

    var codingPath: [any CodingKey] { codingPath(depth: state.frames.count) }

    /// Counts one value against the budget.
    @inline(__always)
    func countValue(depth: Int) throws {
        state.values &+= 1
        if state.values > state.budget { try budgetExceeded(depth: depth) }
    }

    func budgetExceeded(depth: Int) throws -> Never {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(depth: depth),
                debugDescription: "more than \(state.budget) values decoded",
                underlyingError: PlistError(
                    .limitExceeded,
                    "more than \(state.budget) values decoded (a shared sub-tree is decoded once per reference; "
                        + "raise PlistLimits.maxValues or PlistDecoder.expansionLimit for larger trusted input)")))
    }

    /// Whether object `ref` is being decoded already (a frame holds it).
    func isOpen(_ ref: Int) -> Bool {
        let frames = state.frames
        let n = min(frames.count, DecodeFrame.linearCycleCheck)
        for i in 0..<n where frames[i].ref == ref { return true }
        return frames.count > n && state.deepOpen[ref] != nil
    }

    /// Decodes the nested value `ref` as `T` through its `init(from:)`, with a frame pushed.
    func decodeNested<T: Decodable>(_ type: T.Type, _ ref: Int, _ step: DecodeStep, prefix: [any CodingKey]?)
        throws -> T
    {
        try withFrame(ref, step, prefix: prefix) { _ in try T(from: self) }
    }

    /// Runs `body` with a frame for the nested value `ref` pushed and the decoder pointed at it;
    /// `body` gets the depth of the containers made inside it.
    ///
    /// - Parameters:
    ///   - step: How `ref` was reached (`.none`: it is the value being decoded already).
    ///   - prefix: The parent's whole coding path, when the parent is not the frames below.
    /// - Throws: `cycle` when `ref` is being decoded already, `limitExceeded` past the depth limit.
    @inline(__always)
    func withFrame<R>(_ ref: Int, _ step: DecodeStep, prefix: [any CodingKey]?, _ body: (Int) throws -> R) throws -> R {
        let depth = state.frames.count
        var isNew = true
        if case .none = step { isNew = false }
        if isNew && isOpen(ref) {
            var path = prefix ?? codingPath(depth: depth)
            appendStep(step, to: &path)
            let error = located(.cycle, ref, offset: offsetIfValid(ref), "object \(ref) contains itself")
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path, debugDescription: error.description, underlyingError: error))
        }
        guard depth < maxDepth else {
            var path = prefix ?? codingPath(depth: depth)
            appendStep(step, to: &path)
            throw depthExceeded(path)
        }
        var frame = DecodeFrame(ref: ref, step: step, unkeyedMark: state.unkeyed.count, prefix: prefix)
        if isNew && depth >= DecodeFrame.linearCycleCheck {
            frame.registered = true
            state.deepOpen[ref, default: 0] += 1
        }
        state.frames.append(frame)
        let saved = state.current
        state.current = ref
        defer {
            state.current = saved
            if let last = state.frames.popLast() {
                if last.unkeyedMark < state.unkeyed.count {
                    state.unkeyed.removeSubrange(last.unkeyedMark...)
                }
                if last.registered {
                    if let n = state.deepOpen[last.ref], n > 1 {
                        state.deepOpen[last.ref] = n - 1
                    } else {
                        state.deepOpen[last.ref] = nil
                    }
                }
            }
        }
        return try body(depth &+ 1)
    }

    func appendStep(_ step: DecodeStep, to path: inout [any CodingKey]) {
        switch step {
        case .none: break
        case .key(let k): path.append(k)
        case .index(let n): path.append(PlistCodingKey(index: n))
        }
    }
}

// MARK: - Decoder

extension BinaryDecoderImpl {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(type, ref: state.current, depth: state.frames.count, prefix: nil)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(ref: state.current, depth: state.frames.count, prefix: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        BinarySingleValueDecoding(impl: self, ref: state.current, depth: state.frames.count, prefix: nil)
    }

    /// Files the facts of a new unkeyed container; returns its handle (index, and the generation in
    /// the high 32 bits).
    func registerUnkeyed(start: Int, n: Int, depth: Int, prefix: [any CodingKey]?) -> Int {
        state.unkeyedGeneration = (state.unkeyedGeneration &+ 1) & 0x7FFF_FFFF
        let generation = state.unkeyedGeneration
        let index = state.unkeyed.count
        state.unkeyed.append(UnkeyedInfo(start: start, n: n, depth: depth, prefix: prefix, generation: generation))
        return index | generation << 32
    }

    /// The index of the facts a handle names, or nil when they were recycled.
    @inline(__always)
    func unkeyedSlot(_ handle: Int) -> Int? {
        let index = handle & 0xFFFF_FFFF
        guard index < state.unkeyed.count, state.unkeyed[index].generation == handle >> 32 else { return nil }
        return index
    }

    /// The reference at `position` of the reference list at `start` (proven by the container's scan).
    @inline(__always)
    func elementReference(start: Int, _ position: Int) -> Int {
        if let r = state.input { return reference(r, start, position) }
        return (try? read { (r) throws(DecodeFailure) in reference(r, start, position) }) ?? -1
    }

    /// A keyed container over the dictionary `ref`.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, ref: Int, depth: Int, prefix: [any CodingKey]?)
        throws -> KeyedDecodingContainer<Key>
    {
        let raw: RawObject
        let m = memo(for: Key.self)
        let repeated: Bool
        do throws(DecodeFailure) {
            raw = try container(ref, keyed: true)
            repeated = try hasRepeatedKeys(memo: m, keysStart: raw.payload, count: raw.count)
        } catch {
            throw error.decodingError([String: Any].self, prefix ?? codingPath(depth: depth))
        }
        return KeyedDecodingContainer(
            BinaryKeyedDecoding<Key>(
                impl: self, ref: ref, keysStart: raw.payload, count: raw.count, memo: m, repeated: repeated,
                depth: depth, prefix: prefix))
    }

    /// An unkeyed container over the array or set `ref`.
    func unkeyedContainer(ref: Int, depth: Int, prefix: [any CodingKey]?) throws -> any UnkeyedDecodingContainer {
        let raw: RawObject
        do throws(DecodeFailure) {
            raw = try container(ref, keyed: false)
        } catch {
            throw error.decodingError([Any].self, prefix ?? codingPath(depth: depth))
        }
        return BinaryUnkeyedDecoding(
            impl: self, handle: registerUnkeyed(start: raw.payload, n: raw.count, depth: depth, prefix: prefix))
    }
}

/// The decoder `superDecoder()` and `superDecoder(forKey:)` return: the same decode, pointed at one
/// object, with its own coding path.
final class BinaryChildDecoder: Decoder {
    let impl: BinaryDecoderImpl
    let ref: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { impl.userInfo }

    init(impl: BinaryDecoderImpl, ref: Int, codingPath: [any CodingKey]) {
        self.impl = impl
        self.ref = ref
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try impl.keyedContainer(type, ref: ref, depth: impl.state.frames.count, prefix: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try impl.unkeyedContainer(ref: ref, depth: impl.state.frames.count, prefix: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        BinarySingleValueDecoding(impl: impl, ref: ref, depth: impl.state.frames.count, prefix: codingPath)
    }
}
