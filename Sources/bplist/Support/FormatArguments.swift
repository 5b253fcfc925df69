// Sources/bplist/Support/FormatArguments.swift - The library's form and compression enums as command-line
// values: `--format`/`--to binary|xml|json|openstep`, `--compress none|zlib|gzip`.

public import ArgumentParser
public import PropertyList

extension PlistFormat: ExpressibleByArgument {
    /// The names the tool has always taken: `openstep` in lower case (`openStep` is read too).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "binary": self = .binary
        case "xml": self = .xml
        case "json": self = .json
        case "openstep": self = .openStep
        default: return nil
        }
    }

    /// The name on the command line.
    var argumentName: String { self == .openStep ? "openstep" : rawValue }

    public static var allValueStrings: [String] { allCases.map(\.argumentName) }

    public var defaultValueDescription: String { argumentName }
}

extension PlistCompression: ExpressibleByArgument {}
