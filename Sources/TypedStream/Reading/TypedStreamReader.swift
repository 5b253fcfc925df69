// Sources/TypedStream/Reading/TypedStreamReader.swift - The low-level API: a typedstream as events.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Reads a typedstream event by event: type encodings and values as they come, for tools that need
/// the raw stream (``TypedStreamArchive`` reads the whole stream into objects).
///
/// ```swift
/// var reader = try TypedStreamReader(data)
/// print(reader.streamerVersion, reader.byteOrder, reader.systemVersion)   // 4 little-endian 1000
/// while let event = try reader.next() {
///     if case .beginObject(let number, let cls) = event {
///         print("object \(number): \(reader.classInfo(cls).name)")
///     }
/// }
/// ```
///
/// Nothing is read ahead and nothing is allocated per byte: strings and byte arrays are reported
/// as ranges of the input. Every length is checked against the bytes that remain, every reference
/// against the entries read so far, and ``TypedStreamLimits`` bound depth, values and tables. Bad
/// input is a ``TypedStreamError`` with the byte offset; after an error the reader is left where the
/// error happened.
public struct TypedStreamReader: Sendable {
    /// The input.
    public let data: Data
    var scanner: StreamScanner

    /// A reader of `data`; reads and checks the header.
    ///
    /// - Throws: `notATypedStream` when `data` does not start with a typedstream header.
    public init(
        _ data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default
    ) throws(TypedStreamError) {
        self.data = data
        scanner = try StreamScanner(data.span, limits: limits, options: options)
    }

    /// Whether `data` starts with a typedstream header (streamer version 3 or 4, then the signature
    /// `streamtyped` or `typedstream`). Nothing else is read.
    public static func isTypedStream(_ data: Data) -> Bool {
        StreamScanner.isTypedStream(data.span)
    }

    /// The streamer version: 4 (every Mac OS X and macOS), or 3 (early NeXTSTEP).
    public var streamerVersion: Int { scanner.streamerVersion }
    /// The byte order of multi-byte integers and reals.
    public var byteOrder: TypedStreamByteOrder { scanner.byteOrder }
    /// The system version the writer recorded (1000 on Mac OS X and macOS; 82…930 on NeXTSTEP).
    public var systemVersion: Int { scanner.systemVersion }
    /// The byte offset where the last event's bytes start.
    public var offset: Int { scanner.eventOffset }
    /// The classes read so far, by class number.
    public var classes: [TypedStreamClass] { scanner.classes }
    /// Where bytes that do not begin a group start, when ``TypedStreamOptions/allowsTrailingData``
    /// accepted them (known once ``next()`` has returned `nil`).
    public var trailingDataOffset: Int? { scanner.trailingOffset }

    /// The next event, or `nil` at the end of the stream.
    ///
    /// - Throws: ``TypedStreamError`` for malformed input: truncation, an unexpected tag, a bad
    ///   reference or type encoding, a limit, bytes after the last group (`trailingData`).
    public mutating func next() throws(TypedStreamError) -> TypedStreamEvent? {
        let span = data.span
        return try scanner.next(span)
    }

    /// Class number `number`: its name, version and superclass.
    public func classInfo(_ number: Int) -> TypedStreamClass { scanner.classes[number] }

    /// A copy of the input bytes in `range` (a ``TypedStreamEvent/string(_:)``,
    /// ``TypedStreamEvent/bytes(_:)`` or ``TypedStreamEvent/union(_:)`` range).
    public func bytes(_ range: Range<Int>) -> Data {
        data.subdata(in: data.startIndex + range.lowerBound..<data.startIndex + range.upperBound)
    }
}
