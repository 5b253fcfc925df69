// Sources/KeyedArchive/Codable/KeyedArchiveEncoder.swift - Codable values as NSKeyedArchiver objects.
//
// Mapping (so that Apple's unarchiver reads the result):
//   keyed container of a type T        object {$class: T's name, key: value, …}
//   nested keyed container             NSDictionary {NS.keys, NS.objects}
//   unkeyed container                  NSArray {NS.objects}
//   Dictionary / Set                   NSDictionary / NSSet
//   String, numbers, Bool, Data, Date, URL, UUID, KeyedArchivable classes: as KeyedArchiveValue.
// Scalars are inline in an object's dictionary and objects (NSNumber) inside collections.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Names the class a `Codable` type is archived as (default: the Swift type name).
public protocol KeyedArchiveClassNamed {
    static var archiveClassName: String { get }
}

/// Encodes `Encodable` values as keyed archives, no per-property boilerplate.
///
/// ```swift
/// struct Settings: Codable { var theme: String; var volume: Double; var recent: [URL]; var id: UUID }
/// let data = try KeyedArchiveEncoder().encode(settings)
/// ```
///
/// Errors are `EncodingError`s; an underlying ``KeyedArchiveError`` is kept as `underlyingError`.
public struct KeyedArchiveEncoder: Sendable {
    /// Contextual information for the values' `encode(to:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// Archives `value` under the key `"root"`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let archiver = KeyedArchiver()
        archiver.userInfo = userInfo
        do {
            let v = try archiver.encodeCodableValue(value, codingPath: [])
            archiver.appendField(ArchiveVocabulary.rootKey, archiver.objectReference(v))
            return try archiver.finishEncoding()
        } catch let e as EncodingError {
            throw e
        } catch {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }
}

extension KeyedArchiver {
    /// Encodes a `Codable` value under a key, with ``KeyedArchiveEncoder``'s mapping.
    public func encodeEncodable(_ value: some Encodable, forKey key: String) throws {
        try checkOpen()
        let v = try encodeCodableValue(value, codingPath: [])
        if state.appendField(key, v.ref) { try drain() }
    }

    /// The class name a Codable type's keyed container is archived as.
    static func codableClassName(_ type: Any.Type) -> String {
        if let named = type as? any KeyedArchiveClassNamed.Type { return named.archiveClassName }
        return String(describing: type)
    }

    func encodeCodableValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> ArchivedValue {
        if let v = value as? any KeyedArchiveValue { return try v.encodeArchiveValue(to: self) }
        if let d = value as? any ArchiveDictionaryEncodable {
            return try d.encodeArchiveDictionary(self, codingPath: codingPath)
        }
        if let s = value as? any ArchiveSetEncodable { return try s.encodeArchiveSet(self, codingPath: codingPath) }
        return try nested { () throws -> ArchivedValue in
            let encoder = ArchiveEncoderImpl(archiver: self, codingPath: codingPath)
            try value.encode(to: encoder)
            return try finalize(encoder.storage, className: KeyedArchiver.codableClassName(T.self))
        }
    }

    /// Turns what an encoder wrote into an archived value.
    func finalize(_ storage: ArchiveEncoderImpl.Storage?, className: String?) throws -> ArchivedValue {
        switch storage {
        case .none:
            return try finalize(.keyed(KeyedBox()), className: className)
        case .single(let v):
            return v
        case .keyed(let box):
            if let className {
                let cls = try classUID(named: className, chain: [className, "NSObject"])
                var keys = [classKey]
                var values = [uidRef(cls)]
                for (k, entry) in zip(box.keys, box.values) {
                    keys.append(builder.addString(ArchiveVocabulary.escape(k)))
                    values.append(try finalize(entry).ref)
                }
                let dict = try builder.addDictionary(keys: keys, values: values)
                return ArchivedValue(ref: uid(forPlainObject: dict), isReference: true)
            }
            var keys: [BuilderRef] = []
            var values: [BuilderRef] = []
            for (k, entry) in zip(box.keys, box.values) {
                keys.append(try elementReference(k))
                values.append(objectReference(try finalize(entry)))
            }
            let ref = try foundationObject(
                "NSDictionary", keys: ["NS.keys", "NS.objects"],
                values: [try builder.addArray(keys), try builder.addArray(values)])
            return ArchivedValue(ref: ref, isReference: true)
        case .unkeyed(let box):
            var refs: [BuilderRef] = []
            refs.reserveCapacity(box.values.count)
            for entry in box.values { refs.append(objectReference(try finalize(entry))) }
            let list = try builder.addArray(refs)
            let ref = try foundationObject(box.isSet ? "NSSet" : "NSArray", keys: ["NS.objects"], values: [list])
            return ArchivedValue(ref: ref, isReference: true)
        }
    }

    func finalize(_ entry: ArchiveEncoderImpl.Entry) throws -> ArchivedValue {
        switch entry {
        case .value(let v): return v
        case .keyed(let box): return try nested { try finalize(.keyed(box), className: nil) }
        case .unkeyed(let box): return try nested { try finalize(.unkeyed(box), className: nil) }
        case .encoder(let e): return try nested { try finalize(e.storage, className: nil) }
        }
    }
}

final class KeyedBox {
    var keys: [String] = []
    var values: [ArchiveEncoderImpl.Entry] = []
    func set(_ key: String, _ entry: ArchiveEncoderImpl.Entry) {
        if let i = keys.firstIndex(of: key) {
            values[i] = entry
        } else {
            keys.append(key)
            values.append(entry)
        }
    }
}

final class UnkeyedBox {
    var values: [ArchiveEncoderImpl.Entry] = []
    var isSet = false
}

final class ArchiveEncoderImpl: Encoder {
    enum Storage {
        case keyed(KeyedBox)
        case unkeyed(UnkeyedBox)
        case single(ArchivedValue)
    }
    enum Entry {
        case value(ArchivedValue)
        case keyed(KeyedBox)
        case unkeyed(UnkeyedBox)
        case encoder(ArchiveEncoderImpl)
    }

    let archiver: KeyedArchiver
    let codingPath: [any CodingKey]
    var storage: Storage?
    var userInfo: [CodingUserInfoKey: Any] { archiver.userInfo }

    init(archiver: KeyedArchiver, codingPath: [any CodingKey]) {
        self.archiver = archiver
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: KeyedBox
        if case .keyed(let existing) = storage {
            box = existing
        } else {
            box = KeyedBox()
            storage = .keyed(box)
        }
        return KeyedEncodingContainer(ArchiveKeyedEncoding<Key>(encoder: self, box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: UnkeyedBox
        if case .unkeyed(let existing) = storage {
            box = existing
        } else {
            box = UnkeyedBox()
            storage = .unkeyed(box)
        }
        return ArchiveUnkeyedEncoding(encoder: self, box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { ArchiveSingleEncoding(encoder: self) }

    func encodeValue<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> ArchivedValue {
        do {
            return try archiver.encodeCodableValue(value, codingPath: path)
        } catch let e as KeyedArchiveError {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: e.description, underlyingError: e))
        }
    }
}

struct ArchiveKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ArchiveEncoderImpl
    let box: KeyedBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        box.set(key.stringValue, .value(ArchivedValue(ref: encoder.archiver.nullUID, isReference: true)))
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, .value(try encoder.encodeValue(value, path: codingPath + [key])))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = KeyedBox()
        box.set(key.stringValue, .keyed(nested))
        return KeyedEncodingContainer(
            ArchiveKeyedEncoding<NestedKey>(encoder: encoder, box: nested, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = UnkeyedBox()
        box.set(key.stringValue, .unkeyed(nested))
        return ArchiveUnkeyedEncoding(encoder: encoder, box: nested, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { superEncoder(forKey: PlistCodingKey.superKey) }
    mutating func superEncoder(forKey key: some CodingKey) -> any Encoder {
        let e = ArchiveEncoderImpl(archiver: encoder.archiver, codingPath: codingPath + [key])
        box.set(key.stringValue, .encoder(e))
        return e
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(forKey: PlistCodingKey(key.stringValue))
    }
}

struct ArchiveUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: ArchiveEncoderImpl
    let box: UnkeyedBox
    let codingPath: [any CodingKey]
    var count: Int { box.values.count }

    mutating func encodeNil() throws {
        box.values.append(.value(ArchivedValue(ref: encoder.archiver.nullUID, isReference: true)))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [PlistCodingKey(index: count)]
        box.values.append(.value(try encoder.encodeValue(value, path: path)))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = KeyedBox()
        let path = codingPath + [PlistCodingKey(index: count)]
        box.values.append(.keyed(nested))
        return KeyedEncodingContainer(ArchiveKeyedEncoding<NestedKey>(encoder: encoder, box: nested, codingPath: path))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = UnkeyedBox()
        let path = codingPath + [PlistCodingKey(index: count)]
        box.values.append(.unkeyed(nested))
        return ArchiveUnkeyedEncoding(encoder: encoder, box: nested, codingPath: path)
    }
    mutating func superEncoder() -> any Encoder {
        let e = ArchiveEncoderImpl(
            archiver: encoder.archiver, codingPath: codingPath + [PlistCodingKey(index: count)])
        box.values.append(.encoder(e))
        return e
    }
}

struct ArchiveSingleEncoding: SingleValueEncodingContainer {
    let encoder: ArchiveEncoderImpl
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.storage = .single(ArchivedValue(ref: encoder.archiver.nullUID, isReference: true))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.storage = .single(try encoder.encodeValue(value, path: codingPath))
    }
}

// MARK: - Dictionaries and sets

protocol ArchiveDictionaryEncodable {
    func encodeArchiveDictionary(_ archiver: KeyedArchiver, codingPath: [any CodingKey]) throws -> ArchivedValue
}

extension Dictionary: ArchiveDictionaryEncodable where Key: Encodable, Value: Encodable {
    func encodeArchiveDictionary(_ archiver: KeyedArchiver, codingPath: [any CodingKey]) throws -> ArchivedValue {
        let (keys, values) = try archiver.nested { () throws -> ([BuilderRef], [BuilderRef]) in
            var keys: [BuilderRef] = []
            var values: [BuilderRef] = []
            for (k, v) in self {
                let path = codingPath + [PlistCodingKey("\(k)")]
                keys.append(archiver.objectReference(try archiver.encodeCodableValue(k, codingPath: path)))
                values.append(archiver.objectReference(try archiver.encodeCodableValue(v, codingPath: path)))
            }
            return (keys, values)
        }
        let ref = try archiver.foundationObject(
            "NSDictionary", keys: ["NS.keys", "NS.objects"],
            values: [try archiver.builder.addArray(keys), try archiver.builder.addArray(values)])
        return ArchivedValue(ref: ref, isReference: true)
    }
}

protocol ArchiveSetEncodable {
    func encodeArchiveSet(_ archiver: KeyedArchiver, codingPath: [any CodingKey]) throws -> ArchivedValue
}

extension Set: ArchiveSetEncodable where Element: Encodable {
    func encodeArchiveSet(_ archiver: KeyedArchiver, codingPath: [any CodingKey]) throws -> ArchivedValue {
        let refs = try archiver.nested { () throws -> [BuilderRef] in
            var refs: [BuilderRef] = []
            for (i, e) in enumerated() {
                let path = codingPath + [PlistCodingKey(index: i)]
                refs.append(archiver.objectReference(try archiver.encodeCodableValue(e, codingPath: path)))
            }
            return refs
        }
        let list = try archiver.builder.addArray(refs)
        return ArchivedValue(
            ref: try archiver.foundationObject("NSSet", keys: ["NS.objects"], values: [list]), isReference: true)
    }
}
