// Sources/PropertyList/Value/PlistString.swift - The text of a string value, owned or read in place.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text of a ``PlistValue/string(_:)-enum.case``: a Swift `String`, or bytes of the input a tree was
/// decoded from, made into a `String` only when asked.
///
/// Decoding a tree makes no allocation per string. An ASCII string of up to 15 bytes is a Swift
/// small string (held inline); a longer one is a slice of the decode's one buffer, the input itself
/// (a read-only `Data`, shared, not copied). Like a `Data` slice, a string read from a large input
/// keeps that input alive; take ``string`` to keep only the text. A document over a memory-mapped
/// file gives owned strings instead, so that a tree never reads the file again after its decode.
///
/// Equality and hashing are by exact text (the UTF-8 bytes, hence the Unicode scalars), not by
/// Swift's canonical equivalence: `"é"` and `"e\u{301}"` are different property-list strings. A
/// `PlistString` equals a `String` with the same scalars (``==(_:_:)-(PlistString,String)``).
public struct PlistString: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringInterpolation, TextOutputStreamable
{
    enum Storage: Sendable {
        /// Owned text.
        case native(String)
        /// `count` bytes of valid UTF-8 at `offset` in `source`: `offset << 24 | count`.
        case slice(StringSource, UInt64)
    }

    let storage: Storage

    /// The longest slice (2^24 - 1 bytes) and the largest offset (2^40 - 1) a slice can hold;
    /// longer strings, or strings further into an input, are read as owned `String`s.
    static let maxSliceCount = (1 << 24) - 1
    static let maxSliceOffset = (1 << 40) - 1

    /// A string holding `text`.
    public init(_ text: String) { storage = .native(text) }

    public init(stringLiteral value: String) { storage = .native(value) }

    /// A slice of `source`; the bytes must be valid UTF-8 (the reader proves ASCII), and `offset`
    /// and `count` within the limits above (checked: otherwise the text is copied).
    @inline(__always)
    init(_ source: StringSource, offset: Int, count: Int) {
        // Unsigned comparisons: a negative offset or count is a huge UInt and fails them.
        if UInt(bitPattern: offset) <= UInt(PlistString.maxSliceOffset),
            UInt(bitPattern: count) <= UInt(PlistString.maxSliceCount), offset &+ count <= source.count
        {
            storage = .slice(source, UInt64(offset) << 24 | UInt64(count))
        } else {
            storage = .native(source.text(offset: offset, count: max(count, 0)))
        }
    }

    /// The text as a Swift `String` (made from the input's bytes when this is a slice).
    public var string: String {
        switch storage {
        case .native(let s): return s
        case .slice(let source, let packed):
            let range = PlistString.range(packed)
            return source.text(offset: range.lowerBound, count: range.count)
        }
    }

    /// The number of UTF-8 bytes.
    public var utf8Count: Int {
        switch storage {
        case .native(let s): s.utf8.count
        case .slice(_, let packed): PlistString.range(packed).count
        }
    }

    /// Whether the text is empty.
    public var isEmpty: Bool { utf8Count == 0 }

    public var description: String { string }
    public var debugDescription: String { string.debugDescription }

    /// Runs `body` over the UTF-8 bytes, read in place.
    func withUTF8Span<R>(_ body: (Span<UInt8>) -> R) -> R {
        switch storage {
        case .native(let s): return body(s.utf8.span)
        case .slice(let source, let packed):
            // The initialiser checked offset + count <= data.count.
            return body(source.data.span.extracting(PlistString.range(packed)))
        }
    }

    /// The bytes of `source` a slice's `offset << 24 | count` names.
    @inline(__always)
    static func range(_ packed: UInt64) -> Range<Int> {
        let offset = Int(packed >> 24)
        return offset..<offset &+ Int(packed & 0xFF_FFFF)
    }

    public func write<Target: TextOutputStream>(to target: inout Target) { target.write(string) }

    /// Exact text equality (UTF-8 bytes), without making a `String` of a slice.
    public static func == (a: PlistString, b: PlistString) -> Bool { ByteHash.same(a, b) }

    /// Exact text equality with a Swift string.
    public static func == (a: PlistString, b: String) -> Bool { ByteHash.same(a, b) }

    /// Exact text equality with a Swift string.
    public static func == (a: String, b: PlistString) -> Bool { b == a }

    public func hash(into hasher: inout Hasher) { hasher.combine(ByteHash.hash(self)) }
}

/// The one buffer the strings of a decoded tree are sliced from.
final class StringSource: Sendable {
    /// The bytes (for a memory-mapped document, a private copy of them).
    let data: Data
    /// `data.count`, kept: `Data.count` switches over its representations on each call.
    let count: Int

    init(_ data: Data) {
        self.data = data
        count = data.count
    }

    /// `count` bytes at `offset` as a `String` (replacement characters for invalid UTF-8).
    ///
    /// Through a span of the bytes, validated as UTF-8 in bulk and copied once: `String(decoding:)` of a
    /// `Data` slice takes the generic path, byte by byte with repair (about 870 instructions for a
    /// 40-byte ASCII string, against about 150).
    func text(offset: Int, count: Int) -> String {
        guard offset >= 0, count >= 0, offset + count <= self.count else { return "" }
        let bytes = data.span.extracting(offset..<offset + count)
        if let utf8 = try? UTF8Span(validating: bytes) { return String(copying: utf8) }
        let start = data.startIndex + offset
        return String(decoding: data[start..<start + count], as: UTF8.self)
    }
}

extension PlistValue {
    /// A string value holding `text` (the same as `.string(PlistString(text))`).
    public static func string(_ text: String) -> PlistValue { .string(PlistString(text)) }
}
