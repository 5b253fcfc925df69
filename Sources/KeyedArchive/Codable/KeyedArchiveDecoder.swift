// Sources/KeyedArchive/Codable/KeyedArchiveDecoder.swift - Decodable values from keyed archives.
//
// The inverse of KeyedArchiveEncoder's mapping. A keyed container reads an object's fields (keys
// unescaped, `$class` hidden) or an NSDictionary with string keys; an unkeyed container reads
// NSArray or NSSet `NS.objects`. Before a type's `init(from:)` runs, an object's `$class` must name
// that type (``KeyedArchiveClassNamed`` or the Swift type name, or a name mapped with
// ``KeyedArchiveDecoder/setClassName(_:for:)``): the Codable path is class-checked too.
// Errors are DecodingErrors with the coding path; the KeyedArchiveError is the underlying error.

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from keyed archives written by ``KeyedArchiveEncoder`` or by Apple's
/// `NSKeyedArchiver` (for the Foundation value classes).
///
/// ```swift
/// let settings = try KeyedArchiveDecoder().decode(Settings.self, from: data)
/// ```
public struct KeyedArchiveDecoder: Sendable {
    /// Contextual information for the values' `init(from:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Limits against hostile input.
    public var limits = KeyedArchiveLimits()
    var acceptedNames: [ObjectIdentifier: Set<String>] = [:]

    public init() {}

    /// Also accepts objects archived under `name` where `type` is expected (e.g. a module-qualified
    /// name written by another program).
    public mutating func setClassName(_ name: String, for type: any Decodable.Type) {
        acceptedNames[ObjectIdentifier(type), default: []].insert(name)
    }

    /// Decodes the archive's root value (key `"root"`) as `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let unarchiver: KeyedUnarchiver
        do {
            unarchiver = try KeyedUnarchiver(forReadingFrom: data, limits: limits)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
        unarchiver.codableUserInfo = userInfo
        unarchiver.codableNames = acceptedNames
        return try unarchiver.decodeDecodable(type, forKey: ArchiveVocabulary.rootKey)
    }
}

extension KeyedUnarchiver {
    /// Decodes a `Codable` value stored under `key` (by ``KeyedArchiver/encodeEncodable(_:forKey:)``).
    public func decodeDecodable<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T {
        let codingKey = PlistCodingKey(key)
        let ref: ObjectRef?
        do {
            ref = try lookup(key)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [codingKey], debugDescription: error.description, underlyingError: error))
        }
        guard let ref else {
            throw DecodingError.keyNotFound(
                codingKey, .init(codingPath: [], debugDescription: "no value for key \"\(key)\""))
        }
        path.append(.key(key))
        defer { path.removeLast() }
        let value = try decodeCodableValue(type, ref: ref, codingPath: [codingKey])
        if frames.count == 1 { try drainPending() }
        return value
    }

    func codableTypeName(_ type: Any.Type) -> String { KeyedArchiver.codableClassName(type) }

    /// Converts errors of this layer into `DecodingError`s at `codingPath`.
    func wrapped<R>(_ type: Any.Type, _ codingPath: [any CodingKey], _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as KeyedArchiveError {
            let context = DecodingError.Context(
                codingPath: codingPath, debugDescription: e.description, underlyingError: e)
            switch e.code {
            case .typeMismatch, .classNotAllowed: throw DecodingError.typeMismatch(type, context)
            case .keyNotFound:
                throw DecodingError.keyNotFound(codingPath.last ?? PlistCodingKey(""), context)
            default: throw DecodingError.dataCorrupted(context)
            }
        }
    }

    func decodeCodableValue<T: Decodable>(_ type: T.Type, ref: ObjectRef, codingPath: [any CodingKey]) throws -> T {
        if NumberConversion.handles(T.self) { return try decodeCodableNumber(type, ref: ref, codingPath: codingPath) }
        return try wrapped(T.self, codingPath) { () throws -> T in
            let value = UnarchivedValue(ref: ref)
            if let kv = T.self as? any KeyedArchiveValue.Type {
                guard let v = try kv.decodeArchiveValue(value, from: self) as? T else {
                    throw error(.typeMismatch, "decoded value is not a \(T.self)")
                }
                return v
            }
            try countValue()
            if let d = T.self as? any ArchiveDictionaryDecodable.Type {
                guard let v = try d.decodeArchiveDictionary(self, value: value, codingPath: codingPath) as? T else {
                    throw error(.typeMismatch, "decoded value is not a \(T.self)")
                }
                return v
            }
            let (o, _, uid) = try resolveRef(value)
            guard let uid, uid != 0, case .dictionary(let keys, let values) = o else {
                // Inline values, $null and plain objects go to a single-value container.
                return try T(from: ArchiveDecoderImpl(unarchiver: self, ref: ref, codingPath: codingPath))
            }
            // The class check, before `init(from:)` reads anything.
            let info = try classInfo(keys: keys, values: values, uid: uid)
            let expected = codableTypeName(T.self)
            let isContainerClass =
                FoundationClass.dictionary.contains(info.name) || FoundationClass.array.contains(info.name)
                || FoundationClass.set.contains(info.name)
            if !isContainerClass, info.name != expected,
                !(codableNames[ObjectIdentifier(T.self)]?.contains(info.name) ?? false),
                classMap[info.name] == nil
            {
                throw error(
                    .classNotAllowed, uid: uid, className: info.name, "archived class \(info.name) is not \(expected)")
            }
            return try nestedCollection(uid: uid) {
                try T(from: ArchiveDecoderImpl(unarchiver: self, ref: ref, codingPath: codingPath))
            }
        }
    }
}

extension KeyedUnarchiver {
    /// A number or `Bool` by the rule `PlistDecoder` follows too (``NumberConversion``): inline, or
    /// an `NSNumber` object reached through its UID.
    func decodeCodableNumber<T>(_ type: T.Type, ref: ObjectRef, codingPath: [any CodingKey]) throws -> T {
        let (object, uid): (PlistObject, Int?)
        do {
            (object, _, uid) = try resolveRef(UnarchivedValue(ref: ref))
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
        let number: StoredNumber
        switch object {
        case .integer(let i): number = .integer(i)
        case .real(let d): number = .real(d)
        case .bool(let b): number = .bool(b)
        default:
            let e = mismatch("a number", found: object, uid: uid)
            if case .null = object {
                throw DecodingError.valueNotFound(
                    T.self,
                    DecodingError.Context(codingPath: codingPath, debugDescription: e.description, underlyingError: e))
            }
            throw DecodingError.typeMismatch(
                T.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: e.description, underlyingError: e))
        }
        switch NumberConversion.convert(number, to: T.self) {
        case .success(let v)?: return v
        case .failure(let failure)?:
            let e = error(.typeMismatch, uid: uid, failure.detail)
            throw NumberConversion.decodingError(failure, type: T.self, codingPath: codingPath, underlying: e)
        case nil:
            throw DecodingError.typeMismatch(
                T.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(T.self) is not a number type"))
        }
    }
}

final class ArchiveDecoderImpl: Decoder {
    let unarchiver: KeyedUnarchiver
    let ref: ObjectRef
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { unarchiver.codableUserInfo }

    init(unarchiver: KeyedUnarchiver, ref: ObjectRef, codingPath: [any CodingKey]) {
        self.unarchiver = unarchiver
        self.ref = ref
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entries = try unarchiver.wrapped([String: Any].self, codingPath) { try unarchiver.keyedEntries(ref) }
        return KeyedDecodingContainer(
            ArchiveKeyedDecoding<Key>(decoder: self, entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let list = try unarchiver.wrapped([Any].self, codingPath) { () throws -> ReferenceList in
            let f = try unarchiver.requireFoundationObject(
                UnarchivedValue(ref: ref), classNames: FoundationClass.array + FoundationClass.set,
                expected: "an array")
            return try unarchiver.elementList(f)
        }
        return ArchiveUnkeyedDecoding(decoder: self, list: list, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ArchiveSingleDecoding(decoder: self)
    }
}

extension KeyedUnarchiver {
    /// The fields of an object (keys unescaped, reserved keys skipped) or of an NSDictionary.
    func keyedEntries(_ ref: ObjectRef) throws -> [String: ObjectRef] {
        let value = UnarchivedValue(ref: ref)
        let (o, _, uid) = try resolveRef(value)
        guard let uid, uid != 0, case .dictionary(let keys, let values) = o else {
            throw mismatch("an object", found: o, uid: uid)
        }
        let info = try classInfo(keys: keys, values: values, uid: uid)
        var entries: [String: ObjectRef] = [:]
        if FoundationClass.dictionary.contains(info.name) {
            let f = (keys: keys, values: values, uid: uid)
            let ks = try elementList(f, key: "NS.keys")
            let vs = try elementList(f, key: "NS.objects")
            guard ks.count == vs.count else {
                throw error(.corrupted, uid: uid, "NS.keys has \(ks.count) entries but NS.objects \(vs.count)")
            }
            for i in 0..<ks.count {
                try countValue()
                entries[try decodeBorrowing(String.self, UnarchivedValue(ref: ks[i]))] = vs[i]
            }
            return entries
        }
        for i in 0..<keys.count {
            try countValue()
            guard let k = try string(keys[i]), let name = ArchiveVocabulary.unescape(k) else { continue }
            entries[name] = values[i]
        }
        return entries
    }

    func isNull(_ ref: ObjectRef) throws -> Bool {
        if case .uid(0) = try object(ref) { return true }
        return false
    }
}

struct ArchiveKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ArchiveDecoderImpl
    let entries: [String: ObjectRef]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    func ref(_ key: Key) throws -> ObjectRef {
        guard let r = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for key \"\(key.stringValue)\""))
        }
        return r
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let r = try ref(key)
        return try decoder.unarchiver.wrapped(Never.self, codingPath + [key]) { try decoder.unarchiver.isNull(r) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let r = try ref(key)
        let u = decoder.unarchiver
        u.path.append(.key(key.stringValue))
        defer { u.path.removeLast() }
        return try u.decodeCodableValue(type, ref: r, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: try ref(key), codingPath: codingPath + [key])
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: try ref(key), codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = PlistCodingKey.superKey
        guard let r = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no super"))
        }
        return ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: r, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: try ref(key), codingPath: codingPath + [key])
    }
}

struct ArchiveUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: ArchiveDecoderImpl
    let list: ReferenceList
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(decoder: ArchiveDecoderImpl, list: ReferenceList, codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.list = list
        self.codingPath = codingPath
    }

    var count: Int? { list.count }
    var isAtEnd: Bool { currentIndex >= list.count }

    mutating func next(_ type: Any.Type) throws -> (ObjectRef, [any CodingKey]) {
        let path = codingPath + [PlistCodingKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "unkeyed container is at its end"))
        }
        defer { currentIndex += 1 }
        return (list[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        let r = list[currentIndex]
        let null = try decoder.unarchiver.wrapped(Never.self, codingPath) { try decoder.unarchiver.isNull(r) }
        if null { currentIndex += 1 }
        return null
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (r, path) = try next(type)
        let u = decoder.unarchiver
        u.path.append(.index(currentIndex - 1))
        defer { u.path.removeLast() }
        return try u.decodeCodableValue(type, ref: r, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (r, path) = try next(type)
        return try ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: r, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (r, path) = try next([Any].self)
        return try ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: r, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (r, path) = try next(Any.self)
        return ArchiveDecoderImpl(unarchiver: decoder.unarchiver, ref: r, codingPath: path)
    }
}

struct ArchiveSingleDecoding: SingleValueDecodingContainer {
    let decoder: ArchiveDecoderImpl
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { (try? decoder.unarchiver.isNull(decoder.ref)) ?? false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let u = decoder.unarchiver
        if NumberConversion.handles(T.self) || T.self is any KeyedArchiveValue.Type
            || T.self is any ArchiveDictionaryDecodable.Type
        {
            return try u.decodeCodableValue(type, ref: decoder.ref, codingPath: codingPath)
        }
        // A wrapper decoding another Codable type from the same value: avoid re-marking its UID.
        return try u.wrapped(T.self, codingPath) {
            try T(from: ArchiveDecoderImpl(unarchiver: u, ref: decoder.ref, codingPath: codingPath))
        }
    }
}

protocol ArchiveDictionaryDecodable {
    static func decodeArchiveDictionary(_ u: KeyedUnarchiver, value: UnarchivedValue, codingPath: [any CodingKey])
        throws -> Self
}

extension Dictionary: ArchiveDictionaryDecodable where Key: Decodable, Value: Decodable {
    static func decodeArchiveDictionary(_ u: KeyedUnarchiver, value: UnarchivedValue, codingPath: [any CodingKey])
        throws -> [Key: Value]
    {
        let f = try u.requireFoundationObject(value, classNames: FoundationClass.dictionary, expected: "a dictionary")
        return try u.nestedCollection(uid: f.uid) { () throws -> [Key: Value] in
            let keys = try u.elementList(f, key: "NS.keys")
            let values = try u.elementList(f, key: "NS.objects")
            guard keys.count == values.count else {
                throw u.error(
                    .corrupted, uid: f.uid, "NS.keys has \(keys.count) entries but NS.objects \(values.count)")
            }
            var result: [Key: Value] = [:]
            for i in 0..<keys.count {
                let path = codingPath + [PlistCodingKey(index: i)]
                let k = try u.decodeCodableValue(Key.self, ref: keys[i], codingPath: path)
                result[k] = try u.decodeCodableValue(Value.self, ref: values[i], codingPath: path)
            }
            return result
        }
    }
}
