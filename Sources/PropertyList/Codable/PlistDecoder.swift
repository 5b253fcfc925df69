// Sources/PropertyList/Codable/PlistDecoder.swift - Decodable values from property lists: the public API.
//
// Binary input is decoded straight from a `BinaryPlistDocument` (BinaryDecoding.swift): no tree.
// XML is read into a tape as it is parsed (XMLTapeSink.swift) and decoded from that (TapeDecoding.swift):
// no tree either. OpenStep and JSON are read into a `PlistValue`, and a `PlistValue` is decoded in
// place (TreeDecoding.swift). Every path has the binary decoder's rules; no binary copy is made.

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
    /// Bounds for hostile input: the reader's limits, the nesting depth and (``PlistLimits/maxValues``)
    /// the most values one decode may produce.
    public var limits: PlistLimits = .default
    /// What is read beyond the format (trailing data, compressed envelopes, lenient strings and dates).
    public var options = PlistReadOptions()
    /// How many values a decode may produce per byte of input, beyond the first 2^20 (default 64).
    ///
    /// A shared sub-tree is decoded once per reference, so a file of a few hundred bytes can
    /// describe 2^40 values; this stops such a file after a few million instead of after
    /// ``PlistLimits/maxValues``. Real files stay far below it (the peers' mixed workload decodes 1.4
    /// values per byte). See ``valueBudget(forInputBytes:)``.
    public var expansionLimit = 64

    /// A decoder with the default limits.
    public init() {}

    /// The most values a decode of `bytes` bytes of binary input may produce: 2^20 plus
    /// ``expansionLimit`` per byte, and never more than ``PlistLimits/maxValues``.
    ///
    /// - Parameter bytes: The size of the (decompressed) binary property list.
    public func valueBudget(forInputBytes bytes: Int) -> Int {
        let perByte = max(0, expansionLimit).multipliedReportingOverflow(by: max(0, bytes))
        let total = perByte.partialValue.addingReportingOverflow(1 << 20)
        return perByte.overflow || total.overflow ? limits.maxValues : min(limits.maxValues, total.partialValue)
    }

    // MARK: Data in any form

    /// Decodes a value from a property list in any form: binary, XML, OpenStep or JSON, told apart
    /// by their first bytes, in a zlib or gzip envelope or not.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The property list.
    /// - Throws: `DecodingError` (see the type's documentation); input that is no property list is
    ///   `dataCorrupted` with a ``PlistError`` of code `notAPropertyList` underneath.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeAnyForm(type, from: data).value
    }

    /// Decodes a value from a property list in any form and tells which form it was, as Foundation's
    /// `PropertyListDecoder.decode(_:from:format:)` does.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The property list.
    ///   - format: Set to the form that was read.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PlistFormat) throws -> T {
        let (value, read) = try decodeAnyForm(type, from: data)
        format = read
        return value
    }

    func decodeAnyForm<T: Decodable>(_ type: T.Type, from data: Data) throws -> (value: T, format: PlistFormat) {
        let tree: PlistValue
        let format: PlistFormat
        let inputBytes: Int
        do {
            let (input, _) = try PlistCompression.unwrap(data, limits: limits, options: options)
            var plain = options
            plain.allowsCompression = false
            format = try PlistSniffer.sniff(input, envelopes: !options.allowsCompression).format
            if format == .binary {
                let document = try BinaryPlistDocument(input, limits: limits, options: plain)
                return (try decode(type, from: document), .binary)
            }
            if format == .xml {
                // Straight into a tape: no tree (XMLTapeSink.swift).
                let tape = try XMLPlist.tape(input, limits: limits, options: plain)
                return (try decode(type, fromTape: tape, valueBudget: valueBudget(forInputBytes: input.count)), .xml)
            }
            tree = try PlistValue.decode(from: input, as: format, limits: limits, options: plain).value
            inputBytes = input.count
        } catch let error as PlistError {
            throw PlistDecoder.corrupted(error, codingPath: [])
        }
        // A text form cannot share a sub-tree: the budget of its bytes bounds the decode as the
        // binary one's does.
        return (try decode(type, fromTree: tree, valueBudget: valueBudget(forInputBytes: inputBytes)), format)
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
        let path: [any CodingKey] = keyPath.components.map { c in
            if let i = c.index, i >= 0 { PlistCodingKey(index: i) } else { PlistCodingKey(c.key) }
        }
        let found: Result<ObjectRef, PlistError>
        do {
            found = try document.walk(keyPath)
        } catch {
            throw PlistDecoder.corrupted(error, codingPath: path)
        }
        switch found {
        case .success(let ref):
            return try decode(type, from: document, root: ref.index, basePath: path, reportsLocations: true)
        case .failure(let error):
            // The error's key path ends with the first component that names nothing.
            let missing = error.keyPath ?? keyPath
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: Array(path.prefix(max(missing.count, 1))),
                    debugDescription: "no value at \"\(missing)\": " + error.detail, underlyingError: error))
        }
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
    /// The tree is decoded in place, by the rules of binary input; errors have coding paths but no
    /// byte offsets. Sub-trees a value shares (one array stored under many keys) are decoded once per
    /// place, so the value budget is that of input of as many bytes as the tree has distinct values
    /// (``valueBudget(forInputBytes:)``).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The value.
    /// - Throws: `DecodingError` (see the type's documentation).
    public func decode<T: Decodable>(_ type: T.Type, from value: PlistValue) throws -> T {
        let distinct = PlistDecoder.distinctValues(value, upTo: limits.maxValues)
        return try decode(type, fromTree: value, valueBudget: valueBudget(forInputBytes: distinct))
    }

    /// Decodes `tree` in place (TreeDecoding.swift).
    func decode<T: Decodable>(_ type: T.Type, fromTree tree: PlistValue, valueBudget: Int) throws -> T {
        let impl = TreeDecoderImpl(
            root: tree, userInfo: userInfo.mapValues { $0 as Any }, maxDepth: limits.maxDepth, budget: valueBudget)
        try impl.countValue(depth: 0)
        return try impl.decodeValue(type, tree, depth: 0, prefix: nil, step: .none)
    }

    /// Decodes the root of `tape` (TapeDecoding.swift).
    func decode<T: Decodable>(_ type: T.Type, fromTape tape: PlistTape, valueBudget: Int) throws -> T {
        let impl = TapeDecoderImpl(
            tape: tape, userInfo: userInfo.mapValues { $0 as Any }, maxDepth: limits.maxDepth, budget: valueBudget)
        return try impl.withLentInput { () throws -> T in
            try impl.countValue(depth: 0)
            return try impl.decodeValue(type, tape.root, depth: 0, prefix: nil, step: .none)
        }
    }

    /// How many distinct values `root` holds (a container's storage counted once however often it is
    /// shared), counting stopped past `limit`.
    static func distinctValues(_ root: PlistValue, upTo limit: Int) -> Int {
        var count = 0
        var seen = Set<UInt>()
        var work: [PlistValue] = [root]
        while let v = work.popLast(), count <= limit {
            count &+= 1
            switch v {
            case .array(let a), .set(let a):
                if seen.insert(StorageIdentity.of(a)).inserted { work.append(contentsOf: a) }
            case .dictionary(let d):
                if seen.insert(StorageIdentity.of(d.entries)).inserted {
                    for e in d.entries {
                        work.append(e.key)
                        work.append(e.value)
                    }
                }
            default: break
            }
        }
        return count
    }

    static func corrupted(_ error: PlistError, codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}
