// Sources/PropertyList/Format/PlistFormat.swift - The forms of a property list, and reading any of
// them by sniffing (PlistSniffer) which it is.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The encodings of a property list this package reads and writes.
public enum PlistFormat: String, Sendable, Hashable, CaseIterable {
    /// `bplist00`, possibly inside a zlib or gzip envelope.
    case binary
    /// The XML form: `<?xml …?><!DOCTYPE plist …><plist version="1.0">…</plist>`.
    case xml
    /// The old-style OpenStep (NeXTSTEP) text form: `{ key = value; list = (a, b); data = <0fa1>; }`,
    /// and `.strings` files (see ``OpenStepPlist``).
    case openStep
}

extension PlistValue {
    /// Reads a property list in any form this package reads, telling which it was.
    ///
    /// The form is sniffed from the first bytes: binary (`bplist0`, or a zlib or gzip envelope, read
    /// through ``BinaryPlistDocument``), XML (``XMLPlist``) or OpenStep text (``OpenStepPlist``), the
    /// text forms in UTF-8, UTF-16 or UTF-32. Canonical JSON is not a property list: read it with
    /// ``PlistValue/init(canonicalJSONBytes:)``.
    ///
    /// - Parameters:
    ///   - data: The input.
    ///   - limits: Bounds for hostile input, applied to any reader.
    /// - Returns: The root value and the format it was read from.
    /// - Throws: ``PlistError``: `notABinaryPlist` with a detail that starts `not a property
    ///   list: starts with …` (the first bytes in hex and as text) when the input is none of the forms,
    ///   else the error of the reader of its form.
    public static func decode(from data: Data, limits: PlistLimits = .default) throws(PlistError)
        -> (PlistValue, PlistFormat)
    {
        switch try PlistSniffer.sniff(data) {
        case .xml: return (try XMLPlist.decode(data, limits: limits), .xml)
        case .openStep: return (try OpenStepPlist.decode(data, limits: limits), .openStep)
        case .binary: return (try BinaryPlistDocument(data, limits: limits).value(), .binary)
        case .json:
            throw PlistError(
                .notABinaryPlist, offset: 0,
                "not a property list: canonical JSON (" + PlistSniffer.describeStart(data)
                    + "); read it with PlistValue(canonicalJSONBytes:)")
        }
    }
}
