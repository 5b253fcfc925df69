// Sources/bplist/Support/PlistInput.swift - Loading a property list in any form the tool reads, leniently (as
// Apple's tools read) unless --strict, and writing an edited one back in the form it was read.

import Foundation
@_spi(Internals) import PropertyList

/// A property list read from any of the forms the tool accepts.
enum PlistInput {
    /// The forms, as the library names them.
    typealias Form = PlistFormat

    /// A value and how its file was written: the form, the compression envelope and the layout (the
    /// binary form's widths, a `.strings` file), so that an edit is written back the same way.
    typealias Loaded = PlistValue.Decoded

    /// How `bplist` names a form in messages.
    static func describe(_ loaded: Loaded) -> String {
        switch loaded.format {
        case .binary: loaded.compression == .none ? "binary" : "binary (\(loaded.compression.rawValue))"
        case .xml: "XML"
        case .openStep: loaded.writeOptions.stringsFile ? "a .strings file" : "OpenStep text"
        case .json: "JSON"
        }
    }

    /// Which form `data` is in; an input that is none of them is `.binary`, whose reader reports it.
    static func sniff(_ data: Data) -> Form {
        (try? PlistSniffer.sniff(data).format) ?? .binary
    }

    /// Decodes the whole value of `data` in whichever form it is.
    ///
    /// - Throws: `notAPropertyList` naming the first bytes when the input is none of the forms.
    static func decode(_ data: Data, read: ReadOptions) throws -> (PlistValue, Form) {
        let loaded = try load(data, read: read)
        return (loaded.value, loaded.format)
    }

    /// Decodes the whole value of `data` and remembers its form. Unless `read.strict`, a binary
    /// string with a lone UTF-16 surrogate reads with U+FFFD, and a warning names each one's key path.
    static func load(_ data: Data, read: ReadOptions) throws -> Loaded {
        let form = try PlistSniffer.sniff(data).format
        guard form == .binary else {
            var loaded = try PlistValue.decode(from: data, as: form, options: read.documentOptions)
            // JSON is written back as canonical JSON (keys sorted), as the tool always wrote it.
            if form == .json { loaded.writeOptions.sortsKeys = true }
            return loaded
        }
        let document = try openBinary(data, read: read)
        let widths = [document.trailer.offsetIntSize, document.trailer.objectRefSize]
        var loaded = Loaded(value: .null, format: .binary, compression: document.compression)
        if widths.contains(where: { ![1, 2, 4, 8].contains($0) }) { loaded.writeOptions.widths = .compact }
        do {
            loaded.value = try document.value()
            return loaded
        } catch {
            guard error.code == .invalidString, !read.strict else { throw error }
            let tree = DocumentTree(document, replacingLoneSurrogates: true)
            try PlistTreeMeasure(tree, budget: OutputBudget(maxValues: .max - 1, maxBytes: .max - 1)).check(
                tree.root, as: "a value")
            warnRepairs(tree)
            var options = document.options
            options.replacesLoneSurrogates = true
            loaded.value = try document.with(options: options).value()
            return loaded
        }
    }

    /// Opens a binary property list, reading lone surrogates strictly (``load(_:read:)`` and the
    /// streamed writers read them leniently through a ``DocumentTree``, which records where).
    static func openBinary(_ data: Data, read: ReadOptions) throws(PlistError) -> BinaryPlistDocument {
        // Input that is no property list at all gets the sniffer's error (it names the first bytes).
        _ = try PlistSniffer.sniff(data)
        var options = read.documentOptions
        options.replacesLoneSurrogates = false
        return try BinaryPlistDocument(data, options: options)
    }

    /// A tree walking `document` in place, lenient as `read` says.
    static func tree(_ document: BinaryPlistDocument, read: ReadOptions) -> DocumentTree {
        DocumentTree(document, replacingLoneSurrogates: !read.strict)
    }

    /// One warning line per string `tree` read with U+FFFD, naming its key path.
    static func warnRepairs(_ tree: DocumentTree) {
        guard !tree.repairs.refs.isEmpty else { return }
        let paths = (try? tree.document.keyPaths(to: tree.repairs.refs)) ?? [:]
        for ref in tree.repairs.refs {
            let place = paths[ref].map { $0.isEmpty ? "the root" : $0.description } ?? "object \(ref.index)"
            IO.printError(
                "warning: \(place): a lone UTF-16 surrogate in a string, read as U+FFFD (as Apple's tools read it; "
                    + "--strict refuses it)")
        }
    }

    /// `value` written as `loaded` was read: binary with the same envelope and widths rule, XML in
    /// CoreFoundation's layout (UTF-8), OpenStep text (a `.strings` file stays one), canonical JSON.
    static func encode(_ value: PlistValue, as loaded: Loaded) throws -> Data {
        try loaded.encoded(value)
    }

    /// `value` written in `form`, in its default layout (JSON: canonical, keys sorted).
    static func encode(_ value: PlistValue, as form: Form) throws -> Data {
        try value.encoded(as: form, options: PlistWriteOptions(sortsKeys: form == .json))
    }
}
