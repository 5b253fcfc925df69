// Sources/PropertyList/Files/PlistFiles.swift - Property lists written to files, atomically and
// durably, through the package's one file write (`AtomicFile`).

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension PlistValue {
    /// Writes this value to a file in a form, atomically and durably: after the call, and after a
    /// crash or a power loss at any moment of it, the file holds its previous contents or the
    /// complete new ones, never a part.
    ///
    /// ```swift
    /// let settings: PlistValue = ["theme": "dark", "volume": 0.75]
    /// try settings.write(to: url, as: .xml)
    /// ```
    ///
    /// The bytes are those of ``encoded(as:compression:options:)``, written to a temporary file
    /// beside the file (beside the file a symbolic link names, so the link survives), flushed to
    /// disk, renamed over it, and the directory flushed. The file keeps its mode (and its owner,
    /// where the process may change it). <doc:WritingFilesSafely> gives the whole guarantee.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - format: The form (default binary).
    ///   - compression: An envelope around the output (default none).
    ///   - options: As for ``encoded(as:compression:options:)``.
    /// - Throws: What ``encoded(as:compression:options:)`` throws (the file is untouched), or
    ///   ``PlistError/Code/io`` naming the file and the cause (the file is untouched).
    public func write(
        to url: URL, as format: PlistFormat = .binary, compression: PlistCompression = .none,
        options: PlistWriteOptions = .default
    ) throws(PlistError) {
        let data = try encoded(as: format, compression: compression, options: options)
        try AtomicFile.write(data, to: url)
    }
}

extension PlistValue.Decoded {
    /// Writes `value` to a file in this property list's form, envelope and layout, atomically and
    /// durably (as ``PlistValue/write(to:as:compression:options:)``): what an edit of a file writes
    /// back.
    ///
    /// ```swift
    /// let plist = try PlistValue.decode(from: Data(contentsOf: url))
    /// var settings = plist.value
    /// try settings.set("dark", at: "appearance.theme")
    /// try plist.write(settings, to: url)                 // the old file or the new one, never a part
    /// ```
    ///
    /// - Throws: What ``encoded(_:)`` throws (the file is untouched), or ``PlistError/Code/io``
    ///   naming the file and the cause (the file is untouched).
    public func write(_ value: PlistValue, to url: URL) throws(PlistError) {
        try AtomicFile.write(try encoded(value), to: url)
    }
}
