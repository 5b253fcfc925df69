// Sources/PropertyList/Codable/PlistEncoder.swift - Encodable values as property lists: the public API.
//
// The binary form is built in the object-table builder (BinaryEncoding.swift). XML is written as the
// values are encoded (XMLEncoding.swift), with no table and no tree; a value the stream cannot write
// in order is encoded again through the table. OpenStep, JSON, sorted XML and `encodeValue` take the
// table as the `PlistValue` a reader of the binary output would make (ObjectTableTree.swift: no
// binary copy is written and read back) and write it in their form, so every form holds exactly what
// the binary one does.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as property lists, in the layout Foundation's `PropertyListEncoder`
/// writes.
///
/// ```swift
/// let bytes = try PlistEncoder().encode(settings)            // bplist00
/// var encoder = PlistEncoder()
/// encoder.outputFormat = .xml
/// encoder.sortsKeys = true
/// let xml = try encoder.encode(settings)
/// let tree: PlistValue = try PlistEncoder().encodeValue(settings)
/// ```
///
/// The binary form is built straight in the object-table builder, without a tree: equal strings,
/// numbers, dates and data are written once, and so are equal arrays and dictionaries. XML is written
/// as the values are encoded, without a table or a tree (a value that writes into a container after
/// a later sibling, or encodes a key twice, is encoded a second time through the table, which places
/// every value whatever the order). The other forms and ``encodeValue(_:)`` take the table as a tree
/// directly (no binary copy is written and read back). Every form holds exactly what the binary form
/// holds. Keys keep the order they were
/// encoded in unless ``sortsKeys`` is set. `Float` is written as a 4-byte real, `Date` and `Data`
/// as the format's dates and data, `nil` as the string `"$null"`, a ``PlistUID`` as a UID; every
/// other type through its own `Encodable` conformance, as Foundation's encoder does
/// (a `URL` as `{relative, base}`, a `UUID` as its string, a `Decimal` as its fields, an
/// `[Int: V]` as a dictionary whose keys are the numbers' text).
///
/// Errors are `EncodingError`s with the coding path of the value, also for values nested deep
/// inside (Foundation's encoder loses it). The differences from Foundation's `PropertyListEncoder`
/// are listed in the article <doc:CodablePropertyLists>.
public struct PlistEncoder: Sendable {
    /// The form to write: ``PlistFormat/binary`` (the default), ``PlistFormat/xml``,
    /// ``PlistFormat/openStep`` (which holds only strings, data, arrays and dictionaries: any other
    /// value makes `encode` throw) or ``PlistFormat/json`` (typed JSON, <doc:TypedJSON>).
    public var outputFormat: PlistFormat = .binary
    /// Write every dictionary's keys in order of their UTF-8 bytes (default `false`: the order the
    /// keys were encoded in). The same setting as ``PlistWriteOptions/sortsKeys``.
    public var sortsKeys = false
    /// Contextual information for the values' `encode(to:)`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// A compression envelope around the output (default none).
    public var compression: PlistCompression = .none
    /// The zlib level of a compression envelope (default -1, zlib's own); see
    /// ``PlistWriteOptions/compressionLevel``.
    public var compressionLevel = -1
    /// Reference and offset widths of binary output (default ``BinaryPlistWidths/powersOfTwo``).
    public var widths: BinaryPlistWidths = .powersOfTwo
    /// The deepest nesting of values (default ``PlistLimits/maxDepth``'s 512): deeper, `encode`
    /// throws instead of recursing further (a cycle of references between class instances would
    /// otherwise never end).
    public var maxDepth = PlistLimits.default.maxDepth

    /// An encoder that writes binary property lists.
    public init() {}

    /// Encodes a value as a property list in ``outputFormat``.
    ///
    /// Unlike Foundation's encoder, a top-level scalar (a string, a number, a date) is accepted: the
    /// property list's root is that value.
    ///
    /// - Parameter value: The value.
    /// - Returns: The property list's bytes.
    /// - Throws: `EncodingError.invalidValue` with the coding path of the value that could not be
    ///   encoded (its `underlyingError` a ``PlistError`` where one applies).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        switch outputFormat {
        case .binary:
            return try wrapped(encodeBinary(value), value)
        case .xml:
            return try wrapped(encodeXML(value), value)
        case .openStep, .json:
            // Keys are in their final order already (sorted while encoding when asked). The builder is
            // gone once the tree is made: only the tree is held while the text is written.
            let tree = try encodeTree(value)
            do {
                return try tree.encoded(
                    as: outputFormat, compression: compression,
                    options: PlistWriteOptions(compressionLevel: compressionLevel))
            } catch {
                throw outputError(value, error)
            }
        }
    }

    /// `bytes` in the envelope ``compression`` asks for.
    private func wrapped<T>(_ bytes: Data, _ value: T) throws -> Data {
        do {
            return try compression.wrap(bytes, level: compressionLevel)
        } catch {
            throw outputError(value, error)
        }
    }

    /// The error of a failed output step (the envelope, a form that cannot hold a value).
    private func outputError(_ value: Any, _ error: PlistError) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [], debugDescription: "\(outputFormat) output: \(error)", underlyingError: error))
    }

    /// Encodes a value as an in-memory property-list value.
    ///
    /// - Parameter value: The value.
    /// - Returns: What ``encode(_:)`` would write, as a tree (keys in the same order).
    /// - Throws: `EncodingError.invalidValue` with the coding path of the value that could not be encoded.
    public func encodeValue<T: Encodable>(_ value: T) throws -> PlistValue {
        try encodeTree(value)
    }

    /// Encodes `value` into a new object-table builder; returns the builder (its dedup table freed:
    /// nothing is looked up any more) and the root.
    private func encodeTable<T: Encodable>(_ value: T) throws -> (ObjectTableBuilder, BuilderRef) {
        let impl = BinaryEncoderImpl(
            userInfo: userInfo.mapValues { $0 as Any }, sortsKeys: sortsKeys, maxDepth: max(1, maxDepth))
        // (A random-access collection's count is O(1): not a `String`'s.)
        impl.state.rootCount = (value as? any RandomAccessCollection)?.count ?? 0
        let root = try impl.encodeValue(value, parent: -1, step: .none)
        if let failure = impl.state.failure { throw failure }
        var builder = impl.state.builder
        impl.state.builder = ObjectTableBuilder()
        // The deferred numbers looked up, and the root the object it stands for.
        let settled = builder.settle(BuilderRef(id: root))
        // Encoding looks nothing up any more: free the dedup table before the output is written.
        builder.table = DedupTable()
        return (builder, settled)
    }

    /// The binary property list of `value`, built in the object-table builder.
    func encodeBinary<T: Encodable>(_ value: T) throws -> Data {
        let (builder, root) = try encodeTable(value)
        do {
            return try builder.finish(root: root, widths: widths)
        } catch {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// The XML property list of `value`, written as it is encoded (XMLEncoding.swift); through the
    /// object table and its tree when the stream is abandoned (a value that writes out of order, or
    /// anything the stream leaves to the table's route to write or report).
    func encodeXML<T: Encodable>(_ value: T) throws -> Data {
        if let xml = try streamedXML(value) { return xml }
        let tree = try encodeTree(value)
        do {
            return try tree.encoded(as: .xml, options: PlistWriteOptions(compressionLevel: compressionLevel))
        } catch {
            throw outputError(value, error)
        }
    }

    /// The XML property list of `value` written as it is encoded; `nil` when the stream was abandoned
    /// (then ``encode(_:)`` writes it through the object table; the tests tell the routes apart here).
    package func streamedXML<T: Encodable>(_ value: T) throws -> Data? {
        let impl = XMLEncoderImpl(
            userInfo: userInfo.mapValues { $0 as Any }, sortsKeys: sortsKeys, maxDepth: max(1, maxDepth))
        do {
            let xml = try impl.encodeRoot(value)
            return impl.state.abandoned || impl.state.interrupted ? nil : xml
        } catch {
            // The value's own error ends the encode, as on every route.
            guard impl.state.abandoned else { throw error }
            return nil
        }
    }

    /// The tree of `value`: what reading ``encode(_:)``'s binary output would give, made from the
    /// object table directly (the builder is released when this returns).
    func encodeTree<T: Encodable>(_ value: T) throws -> PlistValue {
        let (builder, root) = try encodeTable(value)
        do {
            return try builder.value(root: root)
        } catch {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }
}
