// Sources/PropertyList/Codable/PlistDecoder.swift - Decodable values from property lists: the public API.
//
// Binary input is decoded straight from a `BinaryPlistDocument` (BinaryDecoding.swift): no tree.
// The text forms (XML, OpenStep, canonical JSON) and `PlistValue` trees are written as a binary
// property list in memory by `BinaryPlistWriter` first, and that is decoded: one decoder, one set of
// rules, for every form.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from property lists, in the layout Foundation's
/// `PropertyListEncoder` writes.
///
/// ```swift
/// let settings = try PlistDecoder().decode(Settings.self, from: data)   // binary, XML, OpenStep or JSON
///
/// let doc = try BinaryPlistDocument(contentsOf: url, access: .mappedIfLarge)
/// let all = try PlistDecoder().decode([Record].self, from: doc)                 // no tree built
/// let one = try PlistDecoder().decode(Record.self, from: doc, at: "items.123456")  // only that record read
/// ```
///
/// Binary input is decoded straight from the document: keys are matched as bytes, scalars are read
/// where they lie, and a string becomes a `String` only when the value keeps it. A
/// ``BinaryPlistDocument`` can be decoded whole, or at a key path, reading only that sub-tree.
///
/// Errors are `DecodingError`s with the full `codingPath`; their `underlyingError` is a
/// ``PlistError`` with the byte offset and object index of the value (codes
/// ``PlistError/Code/typeMismatch``, ``PlistError/Code/numberOutOfRange``,
/// ``PlistError/Code/keyNotFound``, ``PlistError/Code/valueNotFound``, or the format error of a
/// malformed object).
///
/// Hostile input is bounded: a shared sub-tree is decoded once per reference (Codable has no
/// identity), so every value counts against a budget (``valueBudget(forInputBytes:)``), nesting
/// against ``PlistLimits/maxDepth``, and an object that contains itself is a
/// ``PlistError/Code/cycle`` error.
///
/// The differences from Foundation's `PropertyListDecoder` are listed in the article
/// <doc:CodablePropertyLists>.
public struct PlistDecoder: Sendable {
    /// Contextual information for the values' `init(from:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Bounds for hostile input: the reader's limits, the nesting depth and (``PlistLimits/maxNodes``)
    /// the most values one decode may produce.
    public var limits: PlistLimits = .default
    /// How binary input is opened (trailing data, compressed envelopes, lenient strings).
    public var options = BinaryPlistDocument.Options()
    /// How many values a decode may produce per byte of input, beyond the first 2^20 (default 64).
    ///
    /// A shared sub-tree is decoded once per reference, so a file of a few hundred bytes can
    /// describe 2^40 values; this stops such a file after a few million instead of after
    /// ``PlistLimits/maxNodes``. Real files stay far below it (the peers' mixed workload decodes 1.4
    /// values per byte). See ``valueBudget(forInputBytes:)``.
    public var expansionLimit = 64

    /// A decoder with the default limits.
    public init() {}

    /// The most values a decode of `bytes` bytes of binary input may produce: 2^20 plus
    /// ``expansionLimit`` per byte, and never more than ``PlistLimits/maxNodes``.
    ///
    /// - Parameter bytes: The size of the (decompressed) binary property list.
    public func valueBudget(forInputBytes bytes: Int) -> Int {
        let perByte = max(0, expansionLimit).multipliedReportingOverflow(by: max(0, bytes))
        let total = perByte.partialValue.addingReportingOverflow(1 << 20)
        return perByte.overflow || total.overflow ? limits.maxNodes : min(limits.maxNodes, total.partialValue)
    }

    // MARK: Data in any form

    /// Decodes a value from a property list in any form: binary (plain, or in a zlib or gzip
    /// envelope), XML, OpenStep, or canonical JSON, told apart by their first bytes.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The property list.
    /// - Throws: `DecodingError` (see the type's documentation).
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeAnyForm(type, from: data, acceptsJSON: true).value
    }

    /// Decodes a value from a binary, XML or OpenStep property list and tells which form it was.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The property list.
    ///   - format: Set to the form that was read.
    /// - Throws: `DecodingError`; canonical JSON, which is not one of ``PlistFormat``'s forms, is
    ///   `dataCorrupted` here (``decode(_:from:)-(_,Data)`` reads it).
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PlistFormat) throws -> T {
        let (value, read) = try decodeAnyForm(type, from: data, acceptsJSON: false)
        if let read { format = read }
        return value
    }

    func decodeAnyForm<T: Decodable>(_ type: T.Type, from data: Data, acceptsJSON: Bool) throws -> (
        value: T, format: PlistFormat?
    ) {
        let tree: PlistValue
        let format: PlistFormat?
        do {
            switch try PlistSniffer.sniff(data) {
            case .binary:
                let document = try BinaryPlistDocument(data, limits: limits, options: options)
                return (try decode(type, from: document), .binary)
            case .xml:
                (tree, format) = (try XMLPlist.decode(data, limits: limits), .xml)
            case .openStep:
                (tree, format) = (try OpenStepPlist.decode(data, limits: limits), .openStep)
            case .json:
                guard acceptsJSON else {
                    throw PlistError(
                        .notABinaryPlist, offset: 0,
                        "canonical JSON is not one of PlistFormat's forms; decode it with decode(_:from:)")
                }
                (tree, format) = (try PlistValue(canonicalJSONBytes: data), nil)
            }
        } catch let error as PlistError {
            throw PlistDecoder.corrupted(error, codingPath: [])
        }
        return (try decode(type, from: tree), format)
    }

    // MARK: Documents

    /// Decodes a value from the root of a binary property list, straight from its bytes.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - document: An opened document (read or memory-mapped).
    /// - Throws: `DecodingError` (see the type's documentation).
    public func decode<T: Decodable>(_ type: T.Type, from document: BinaryPlistDocument) throws -> T {
        try decode(type, from: document, root: document.root.index, basePath: [], reportsLocations: true)
    }

    /// Decodes the value at a key path of a binary property list, reading only that sub-tree (and
    /// the containers on the way to it).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - document: An opened document.
    ///   - keyPath: Dictionary keys, or decimal positions in arrays; a string literal is read in
    ///     plutil's form (`"items.123456"`, `\\.` for a dot inside a key), see ``PlistKeyPath``.
    /// - Throws: `DecodingError`: `valueNotFound` naming the first component that is missing, or
    ///   what decoding the value throws, with the components as the start of its coding path.
    public func decode<T: Decodable>(
        _ type: T.Type, from document: BinaryPlistDocument, at keyPath: PlistKeyPath
    ) throws -> T {
        try decode(type, from: document, at: keyPath.components.map(\.key))
    }

    /// Decodes the value at a key path given as separate components (keys may contain dots).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - document: An opened document.
    ///   - components: Dictionary keys, or decimal positions in arrays.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,_,PlistKeyPath)``.
    public func decode<T: Decodable>(_ type: T.Type, from document: BinaryPlistDocument, at components: [String])
        throws -> T
    {
        let path: [any CodingKey] = components.map { c in
            if let i = Int(c), i >= 0 { PlistCodingKey(index: i) } else { PlistCodingKey(c) }
        }
        let found: ObjectRef?
        do {
            found = try document.ref(at: components)
        } catch {
            throw PlistDecoder.corrupted(error, codingPath: path)
        }
        guard let found else {
            // The first component that is missing: the longest prefix that still resolves.
            var missing = components.count - 1
            for n in 1..<max(components.count, 1) where (try? document.ref(at: Array(components.prefix(n)))) == nil {
                missing = n - 1
                break
            }
            let shown = components.prefix(missing + 1).joined(separator: ".")
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: Array(path.prefix(missing + 1)),
                    debugDescription: "no value at \"\(shown)\" (a key is missing, a position is out of range, "
                        + "or a component meets a value that is not a container)"))
        }
        return try decode(type, from: document, root: found.index, basePath: path, reportsLocations: true)
    }

    func decode<T: Decodable>(
        _ type: T.Type, from document: BinaryPlistDocument, root: Int, basePath: [any CodingKey], reportsLocations: Bool
    ) throws -> T {
        let impl = BinaryDecoderImpl(
            document: document, userInfo: userInfo.mapValues { $0 as Any }, basePath: basePath,
            reportsLocations: reportsLocations, root: root,
            valueBudget: valueBudget(forInputBytes: document.data.count))
        do {
            return try impl.withLentInput { () throws -> T in
                try impl.countValue(depth: 0)
                return try impl.decodeValue(type, root, depth: 0, prefix: nil, step: .none)
            }
        } catch let error as PlistError {
            // The mapped file shrank under a read (fileChanged), or a failure outside any container.
            throw PlistDecoder.corrupted(error, codingPath: basePath)
        }
    }

    // MARK: Trees

    /// Decodes a value from an in-memory property-list value (for example one made by
    /// ``PlistEncoder/encodeValue(_:)`` or read from a text form).
    ///
    /// The tree is written as a binary property list in memory and decoded from that, so the rules
    /// are those of binary input; errors have coding paths but no byte offsets.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The value.
    /// - Throws: `DecodingError` (see the type's documentation).
    public func decode<T: Decodable>(_ type: T.Type, from value: PlistValue) throws -> T {
        let document: BinaryPlistDocument
        do {
            let bytes = try BinaryPlistWriter().write(value)
            var treeLimits = limits
            treeLimits.maxObjects = max(limits.maxObjects, Int.max / 16)
            document = try BinaryPlistDocument(bytes, limits: treeLimits)
        } catch {
            throw PlistDecoder.corrupted(error, codingPath: [])
        }
        return try decode(type, from: document, root: document.root.index, basePath: [], reportsLocations: false)
    }

    static func corrupted(_ error: PlistError, codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}
