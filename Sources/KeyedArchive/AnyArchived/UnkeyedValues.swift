// Sources/KeyedArchive/AnyArchived/UnkeyedValues.swift - Values encoded without a key.
//
// NSKeyedArchiver stores what `-encodeObject:` (no key) writes under the reserved keys `$0`, `$1`,
// … of the object being encoded (or of `$top`), in order, and NSKeyedUnarchiver's `-decodeObject`
// reads them back in the same order. Keys an object encodes itself never collide with these: a
// key beginning with `$` is escaped with another `$`.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedArchiver {
    /// Encodes a value without a key, as `NSCoder.encode(_:)` in a keyed archive: the n-th such
    /// value of an object (or of the top level) is stored under the reserved key `$n`.
    ///
    /// - Parameter value: The value; read it back with ``KeyedUnarchiver/decodeObject()``.
    public func encode(_ value: some KeyedArchiveValue) throws {
        try checkOpen()
        let v = try encodeGuarded(value)
        if state.appendUnkeyedField(v.ref) { try drain() }
    }

    /// Encodes a value under a key stored exactly as given (not escaped).
    func encodeRaw(_ value: some KeyedArchiveValue, storedKey: String) throws {
        let v = try encodeGuarded(value)
        if state.appendRawField(storedKey, v.ref) { try drain() }
    }
}

extension KeyedArchiver.State {
    /// Appends a value under the first `$n` the top frame does not hold yet (the key strings are
    /// shared by the builder, so a held key is found by reference). Returns `true` at `$top`.
    mutating func appendUnkeyedField(_ value: BuilderRef) -> Bool {
        let top = frameCount &- 1
        var n = 0
        var key = builder.addString("$0")
        while frames[top].keys.contains(key) {
            n &+= 1
            key = builder.addString("$\(n)")
        }
        frames[top].keys.append(key)
        frames[top].values.append(value)
        return top == 0
    }

    /// Appends a field whose key is stored as given. Returns `true` when the top frame is `$top`.
    mutating func appendRawField(_ stored: String, _ value: BuilderRef) -> Bool {
        let top = frameCount &- 1
        frames[top].keys.append(builder.addString(stored))
        frames[top].values.append(value)
        return top == 0
    }
}

extension KeyedUnarchiver {
    /// Decodes the next value encoded without a key (`$0`, then `$1`, …, of the object being
    /// decoded or of `$top`), as `NSCoder.decodeObject()`: `nil` when there is none left or it is
    /// `$null`.
    public func decodeObject() throws -> AnyArchived? {
        // The position is kept per frame depth, with the UID of the object it counts for (an
        // object is decoded once, so a new UID at a depth is a new object: start again at $0).
        let depth = state.frames.count &- 1
        let uid = state.frames[depth].uid ?? -1
        let box = extrasBox
        while box.unkeyedPositions.count <= depth { box.unkeyedPositions.append((uid: -2, next: 0)) }
        if box.unkeyedPositions[depth].uid != uid { box.unkeyedPositions[depth] = (uid, 0) }
        let n = box.unkeyedPositions[depth].next
        box.unkeyedPositions[depth].next = n &+ 1
        return try decodeRaw(AnyArchived?.self, storedKey: "$\(n)")
    }

    /// Decodes the value under a key stored exactly as given (not escaped); `nil` when absent.
    func decodeRaw<T: KeyedArchiveValue>(_ type: T?.Type, storedKey: String) throws -> T? {
        guard let frame = state.frames.last else { return nil }
        path.append(.key(storedKey))
        let value: T?
        do {
            value = try withInput { (r: borrowing PlistReader) throws -> T? in
                guard let ref = try field(r, storedKey, keys: frame.keys, values: frame.values) else { return nil }
                return try decodeValue(T?.self, UnarchivedValue(ref: ref), r)
            }
        } catch {
            _ = state.popPath()
            throw error
        }
        if state.popPath() { try drainPending() }
        return value
    }
}

extension KeyedUnarchiver {
    /// What an unarchiver keeps for the calls most archives never need.
    final class Extras {
        var codableUserInfo: [CodingUserInfoKey: any Sendable] = [:]
        var codableNames: [ObjectIdentifier: Set<String>] = [:]
        var unknownClassHandler: ((String, [String]) -> (any KeyedArchivable.Type)?)?
        /// Per frame depth: the object whose values without a key are being read, and the next `$n`.
        var unkeyedPositions: [(uid: Int, next: Int)] = []
        /// What a failed optional decode does (`KeyedUnarchiver.decodingFailurePolicy`).
        var decodingFailurePolicy = DecodingFailurePolicy.throwError
        /// The first failure recorded under `.setErrorAndReturn`.
        var error: KeyedArchiveError?
    }

    /// The `userInfo` of the Codable decoder using this unarchiver.
    var codableUserInfo: [CodingUserInfoKey: any Sendable] {
        get { extras?.codableUserInfo ?? [:] }
        set { extrasBox.codableUserInfo = newValue }
    }

    /// The class names the Codable decoder accepts per type.
    var codableNames: [ObjectIdentifier: Set<String>] {
        get { extras?.codableNames ?? [:] }
        set { extrasBox.codableNames = newValue }
    }

    /// The extras, created on first use.
    var extrasBox: Extras {
        if let extras { return extras }
        let box = Extras()
        extras = box
        return box
    }
}
