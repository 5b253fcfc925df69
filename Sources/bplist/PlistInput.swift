// Sources/bplist/PlistInput.swift - Loading a property list in any form the tool reads, leniently (as
// Apple's tools read) unless --strict, and writing an edited one back in the form it was read.

import Foundation
@_spi(Internals) import PropertyList

/// A property list read from any of the forms the tool accepts.
enum PlistInput {
    /// The encodings told apart by sniffing the first bytes (``PlistSniffer``, as the library does).
    enum Form: String {
        case binary, xml, openStep, json
    }

    /// Everything needed to write a value back the way its file was written.
    struct FileForm: Equatable {
        var form: Form
        /// A binary file's compression envelope.
        var envelope: CompressionEnvelope = .none
        /// A binary file written with the fewest bytes per reference and offset (3, 5, 6 or 7 bytes
        /// seen), as swift-foundation and libplist write; otherwise powers of two, as CoreFoundation.
        var compactWidths = false
        /// An OpenStep file that was a `.strings` file (entries without braces).
        var stringsFile = false

        /// How `bplist` names the form in messages.
        var description: String {
            switch form {
            case .binary: envelope == .none ? "binary" : "binary (\(envelope.rawValue))"
            case .xml: "XML"
            case .openStep: stringsFile ? "a .strings file" : "OpenStep text"
            case .json: "JSON"
            }
        }
    }

    /// A value and the form it was read in.
    struct Loaded {
        var value: PlistValue
        var fileForm: FileForm
    }

    /// Which form `data` is in; an input that is none of them is `.binary`, whose reader reports it.
    static func sniff(_ data: Data) -> Form {
        switch try? PlistSniffer.sniff(data) {
        case .xml: .xml
        case .openStep: .openStep
        case .json: .json
        case .binary, nil: .binary
        }
    }

    /// Decodes the whole value of `data` in whichever form it is.
    ///
    /// - Throws: `notABinaryPlist` naming the first bytes when the input is none of the forms.
    static func decode(_ data: Data, read: ReadOptions) throws -> (PlistValue, Form) {
        let loaded = try load(data, read: read)
        return (loaded.value, loaded.fileForm.form)
    }

    /// Decodes the whole value of `data` and remembers its form. Unless `read.strict`, a binary
    /// string with a lone UTF-16 surrogate reads with U+FFFD, and a warning names each one's key path.
    static func load(_ data: Data, read: ReadOptions) throws -> Loaded {
        switch try PlistSniffer.sniff(data) {
        case .xml:
            return Loaded(value: try XMLPlist.decode(data, options: read.xmlOptions), fileForm: FileForm(form: .xml))
        case .openStep:
            let (value, strings) = try OpenStepPlist.decodeTellingForm(data)
            return Loaded(value: value, fileForm: FileForm(form: .openStep, stringsFile: strings))
        case .json:
            return Loaded(value: try PlistValue(canonicalJSONBytes: data), fileForm: FileForm(form: .json))
        case .binary:
            let document = try openBinary(data, read: read)
            let widths = [document.trailer.offsetIntSize, document.trailer.objectRefSize]
            let form = FileForm(
                form: .binary, envelope: document.envelope,
                compactWidths: widths.contains { ![1, 2, 4, 8].contains($0) })
            do {
                return Loaded(value: try document.value(), fileForm: form)
            } catch {
                guard error.code == .invalidString, !read.strict else { throw error }
                let tree = DocumentTree(document, replacingLoneSurrogates: true)
                try PlistTreeMeasure(tree, budget: OutputBudget(maxNodes: .max - 1, maxBytes: .max - 1)).check(
                    tree.root, as: "a value")
                warnRepairs(tree)
                var options = document.options
                options.replacesLoneSurrogates = true
                return Loaded(value: try document.with(options: options).value(), fileForm: form)
            }
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

    /// `value` written in `form` (see ``FileForm``): binary with the same envelope and widths rule,
    /// XML in CoreFoundation's layout (UTF-8), OpenStep text (a `.strings` file stays one), canonical JSON.
    static func encode(_ value: PlistValue, as form: FileForm) throws -> Data {
        switch form.form {
        case .binary:
            let compression: BinaryPlistWriter.Compression =
                switch form.envelope {
                case .none: .none
                case .zlib: .zlib(level: -1)
                case .gzip: .gzip(level: -1)
                }
            return try BinaryPlistWriter(compression: compression, widths: form.compactWidths ? .compact : .powersOfTwo)
                .write(value)
        case .xml:
            return try XMLPlist.encode(value)
        case .openStep:
            var out = TextSink.collecting()
            try OpenStepPlist.write(value, stringsFile: form.stringsFile, into: &out)
            return Data(out.takeBytes())
        case .json:
            return Data(try value.canonicalJSON().utf8)
        }
    }
}
