// fuzz/Sources/FuzzCommon/RoundTrip.swift - "If it decodes, it re-encodes and decodes equal."

import Foundation
import PropertyList

/// Re-encodes a decoded value and checks the result decodes to an equal value.
///
/// - Parameters:
///   - value: What `original` materialised to.
///   - original: The document it came from (its limits are reused: re-encoding never needs more
///     objects, nodes or depth than the original, because equal values are written once).
///   - deduplicate: The writer mode.
///   - compressionLevel: When set, the output is a zlib envelope at that level.
/// - Returns: The re-encoded bytes.
@discardableResult
public func checkRoundTrip(
    _ value: PlistValue, original: BinaryPlistDocument, deduplicate: Bool = true, compressionLevel: Int? = nil
) -> Data? {
    // No size gate: `==`, hashing and the writer are linear in shared sub-trees (storage identity),
    // so even a 2^60-leaf DAG from a 300-byte input compares and re-encodes in its file size.
    let writeOptions = PlistWriteOptions(deduplicates: deduplicate, compressionLevel: compressionLevel ?? -1)
    let compression: PlistCompression = compressionLevel == nil ? .none : .zlib
    let encoded: Data
    do {
        encoded = try value.encoded(compression: compression, options: writeOptions)
    } catch {
        fatalError("fuzz oracle failed: a decoded value does not re-encode: \(error)")
    }
    // Deterministic: the same value gives the same bytes.
    require(
        (try? value.encoded(compression: compression, options: writeOptions)) == encoded,
        "writing the same value twice gave different bytes")

    var limits = original.limits
    var options = PlistReadOptions()
    if compressionLevel != nil {
        // The inflated size is the plain size, which may be above the fuzz configuration's small cap.
        limits.maxDecompressedBytes = max(limits.maxDecompressedBytes, 1 << 24)
    } else {
        options.allowsCompression = false
    }
    if !deduplicate {
        // Without deduplication the tree is written as a tree: it may need more objects and nodes.
        limits.maxObjects = PlistLimits().maxObjects
        limits.maxValues = PlistLimits().maxValues
    }
    let reopened: BinaryPlistDocument
    do {
        reopened = try BinaryPlistDocument(encoded, limits: limits, options: options)
    } catch {
        fatalError("fuzz oracle failed: re-encoded output does not open: \(error); bytes \(hexString(encoded))")
    }
    if deduplicate {
        require(
            reopened.objectCount <= original.objectCount,
            "re-encoding grew \(original.objectCount) objects to \(reopened.objectCount)")
    }
    let again: PlistValue
    do {
        again = try reopened.value()
    } catch {
        fatalError("fuzz oracle failed: re-encoded output does not decode: \(error); bytes \(hexString(encoded))")
    }
    require(again == value, "round trip changed the value; re-encoded bytes \(hexString(encoded))")
    // Writing what was read back gives the same bytes again (a fixed point after one round).
    if compressionLevel == nil {
        require((try? again.encoded(options: writeOptions)) == encoded, "second round trip gave different bytes")
    }
    return encoded
}
