// Tests/PropertyListTests/Support/Fixtures.swift - Hand-built bplist bytes for format tests.

import Foundation
import PropertyList
import Testing

/// Assembles a bplist00 file from raw object encodings: header, objects, offset table, trailer.
///
/// Tests corrupt the result (or pass odd widths) to hit one rule at a time.
func assemble(
    _ objects: [[UInt8]], refSize: UInt8 = 1, offsetSize: UInt8? = nil, top: UInt64 = 0,
    version: String = "00", objectCountOverride: UInt64? = nil, tableOffsetOverride: UInt64? = nil
) -> Data {
    var bytes = Array("bplist".utf8) + Array(version.utf8)
    var offsets: [Int] = []
    for o in objects {
        offsets.append(bytes.count)
        bytes += o
    }
    let table = bytes.count
    let width = Int(offsetSize ?? (table <= 0xFF ? 1 : table <= 0xFFFF ? 2 : 4))
    for off in offsets { bytes += be(UInt64(off), width) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(width), refSize]
    bytes += be(objectCountOverride ?? UInt64(objects.count), 8)
    bytes += be(top, 8)
    bytes += be(tableOffsetOverride ?? UInt64(table), 8)
    return Data(bytes)
}

/// `v` as `width` big-endian bytes.
func be(_ v: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - $0))) }
}

/// The ASCII string object for `s` (short form, < 15 bytes).
func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }

/// Runs `body` and returns the `PlistError` it throws, recording an issue when it does not throw.
@discardableResult
func expectFailure<T>(
    _ code: PlistError.Code, offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) -> PlistError? {
    do {
        let v = try body()
        Issue.record("expected \(code), got a value: \(v)", sourceLocation: sourceLocation)
        return nil
    } catch let error as PlistError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected a PlistError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Opens and fully materialises `data`.
func decode(_ data: Data, limits: PlistLimits = .default, options: PlistReadOptions = .init())
    throws(PlistError) -> PlistValue
{
    try BinaryPlistDocument(data, limits: limits, options: options).value()
}

extension PlistValue.Decoded {
    /// The value and the form, for comparing with a tuple.
    var pair: (PlistValue, PlistFormat) { (value, format) }
}
