// Sources/bplist/Editing/FromJSON.swift - `bplist from-json FILE -o OUT`: canonical JSON to bplist00.

import ArgumentParser
import PropertyList

struct FromJSON: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "from-json",
        abstract: "Write canonical JSON as a binary property list (bplist00), optionally zlib-compressed."
    )

    /// The envelope of the output.
    @Argument(help: "The canonical JSON to read ('-' for standard input).")
    var file: String

    @Option(name: .shortAndLong, help: "Where to write the property list ('-' for standard output).")
    var output: String

    @Option(help: "Wrap the output in a compression envelope.")
    var compress: PlistCompression = .none

    @Option(help: "zlib compression level, 0 (store) to 9 (smallest); needs --compress zlib.")
    var level: Int?

    func validate() throws {
        if let level {
            guard (0...9).contains(level) else { throw ValidationError("--level must be 0...9, not \(level)") }
            guard compress != .none else { throw ValidationError("--level needs --compress zlib or gzip") }
        }
    }

    func execute() throws {
        let text = try IO.read(file)
        let value = try PlistValue(canonicalJSONBytes: text)
        let bytes = try value.encoded(compression: compress, options: PlistWriteOptions(compressionLevel: level ?? -1))
        try IO.write(bytes, to: output)
    }
}
