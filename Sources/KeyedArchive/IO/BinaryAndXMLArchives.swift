// Sources/KeyedArchive/IO/BinaryAndXMLArchives.swift - Keyed archives in any property-list form.
//
// NSKeyedArchiver writes binary by default and XML on request (`outputFormat`); NSKeyedUnarchiver
// reads either. Our readers sniff the form: binary (plain, zlib or gzip) goes straight to the lazy
// document; a text form (XML, or typed JSON, which also holds UIDs) is parsed once and re-encoded as
// binary, so every later read takes the same lazy path.

public import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension BinaryPlistDocument {
    /// Opens a keyed archive given in any property-list form (sniffed by `PlistSniffer`).
    static func openArchive(_ data: Data, limits: PlistLimits, options: PlistReadOptions = .default)
        throws(PlistError) -> BinaryPlistDocument
    {
        if case .binary = try PlistSniffer.sniff(data) {
            return try BinaryPlistDocument(data, limits: limits, options: options)
        }
        let value = try PlistValue.decode(from: data, limits: limits, options: options).value
        return try BinaryPlistDocument(BinaryPlistWriter().write(value), limits: limits)
    }
}

extension KeyedArchiver {
    /// Converts a finished binary archive to the requested form.
    static func render(_ binary: Data, as format: PlistFormat) throws -> Data {
        guard format != .binary else { return binary }
        do {
            return try BinaryPlistDocument(binary).value().encoded(as: format)
        } catch {
            throw KeyedArchiveError(plist: error)
        }
    }

    /// Archives a value under the key `"root"` in the given property-list form.
    ///
    /// - Parameters:
    ///   - root: The object (or value) to archive.
    ///   - format: `.binary` (`bplist00`, the default elsewhere) or `.xml` (`<plist version="1.0">`,
    ///     with UIDs as `CF$UID` dictionaries, as `NSKeyedArchiver` writes with `outputFormat = .xml`),
    ///     or `.json` (typed JSON, UIDs as `{"$uid": n}`). `.openStep` cannot hold an archive's UIDs
    ///     and integers: it throws.
    public static func archivedData(withRootObject root: some KeyedArchiveValue, format: PlistFormat) throws -> Data {
        let archiver = KeyedArchiver()
        archiver.outputFormat = format
        try archiver.encodeRoot(root, forKey: ArchiveVocabulary.rootKey)
        return try archiver.finishEncoding()
    }
}
