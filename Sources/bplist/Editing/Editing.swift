// Sources/bplist/Editing/Editing.swift - What the editing verbs share: typed values from the command line, the
// backend that changes a file's content, and the run that reads, edits and writes back atomically.
//
// The verbs (insert, replace, set, remove, append, edit) turn their arguments into `PlistEdit`s and hand
// them to `EditRunner.run`, which opens the file through `EditBackends.open`: the one place that decides
// how a file's content is edited. A property list is edited as a `PlistValue` (`PlistValueBackend`); an
// NSKeyedArchiver archive through its object graph (`KeyedArchiveBackend`, ArchiveEditing.swift).

import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

/// The content of an edited file, as one kind of file is edited.
protocol EditBackend {
    /// What the file is, for messages ("binary", "XML", …).
    var formDescription: String { get }

    /// Applies `edits` in order, all or nothing: when one fails, nothing has changed and its error
    /// is thrown (a ``PlistError`` naming the key path).
    mutating func apply(_ edits: [PlistEdit<PlistValue>]) throws

    /// The file's new bytes, in the form it was read in.
    func encoded() throws -> Data
}

/// Picks the backend that edits a file.
enum EditBackends {
    /// The backend for the file whose bytes are `data`.
    ///
    /// A keyed archive (`$archiver` = `NSKeyedArchiver` at the root) gets ``KeyedArchiveBackend``, so
    /// that `bplist set ARCHIVE root.settings.theme --string dark` edits its object graph; anything
    /// else is edited as a property list. Every verb reaches the file through this function and the
    /// ``EditBackend`` protocol only.
    static func open(_ data: Data, read: ReadOptions) throws -> any EditBackend {
        let plain = PlistValueBackend(loaded: try PlistInput.load(data, read: read))
        guard KeyedArchiveGraph.isKeyedArchive(data) else { return plain }
        return try KeyedArchiveBackend(input: data, plain: plain)
    }
}

/// A property list edited as a ``PlistValue`` (any form; written back in the same form).
struct PlistValueBackend: EditBackend {
    var loaded: PlistInput.Loaded

    var formDescription: String { PlistInput.describe(loaded) }

    mutating func apply(_ edits: [PlistEdit<PlistValue>]) throws { try loaded.value.apply(edits) }

    func encoded() throws -> Data { try PlistInput.encode(loaded.value, as: loaded) }
}

/// Reads a file, edits it and writes it back.
enum EditRunner {
    /// Applies `edits` to `file` (all or nothing) and writes the result to `output` (the file itself
    /// by default; `-` is standard output), atomically: an error writes nothing.
    static func run(file: String, edits: [PlistEdit<PlistValue>], output: String?, read: ReadOptions) throws {
        let destination = output ?? file
        let input = try IO.read(file)
        var backend = try EditBackends.open(input, read: read)
        try backend.apply(edits)
        let bytes = try backend.encoded()
        if destination == "-" && PlistInput.sniff(bytes) == .binary && Terminal.stdoutIsTerminal {
            throw ToolError(
                "refusing to write a binary property list to a terminal; give -o OUT or redirect standard output",
                code: "usage")
        }
        try IO.write(bytes, to: destination)
    }
}

/// Where an edit verb writes, and whether it creates missing parents.
struct EditOutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: "Write the result here instead of over FILE ('-' for standard output; FILE '-' writes there too).")
    var output: String?

    @Flag(
        name: [.customShort("p"), .long],
        help: "Create missing dictionaries on the way to the key path (like mkdir -p).")
    var createParents = false
}

/// One typed value from the command line: exactly one of the options.
struct ValueOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "A string (as it is).")
    var string: String?

    @Option(parsing: .unconditional, help: "An integer, decimal or 0x hexadecimal, to 128 bits.")
    var integer: String?

    @Option(parsing: .unconditional, help: "A real: decimal text, or nan, inf, -inf.")
    var real: String?

    @Option(parsing: .unconditional, help: "A boolean: true, false, yes, no, 1 or 0.")
    var bool: String?

    @Option(parsing: .unconditional, help: "A date, YYYY-MM-DDTHH:MM:SS[.f]Z (UTC).")
    var date: String?

    @Option(parsing: .unconditional, help: "Data, in base64 (AP8Q is the bytes 00 ff 10; --hex for hexadecimal).")
    var data: String?

    @Option(parsing: .unconditional, help: "Data, in hexadecimal (00ff10; spaces, ':' and a leading 0x allowed).")
    var hex: String?

    @Option(
        parsing: .unconditional,
        help: "Any value as JSON: plain JSON, or canonical JSON with {\"$date\": …}, {\"$data\": …} tags.")
    var json: String?

    @Option(parsing: .unconditional, help: "Any value as an XML property list (<plist> around it optional).")
    var xml: String?

    @Flag(help: "An empty array.")
    var array = false

    @Flag(help: "An empty dictionary.")
    var dictionary = false

    /// How many values were given.
    var count: Int {
        [string, integer, real, bool, date, data, hex, json, xml].compactMap { $0 }.count + (array ? 1 : 0)
            + (dictionary ? 1 : 0)
    }

    func validate() throws {
        guard count == 1 else {
            throw ValidationError(
                "give exactly one value: --string, --integer, --real, --bool, --date, --data, --hex, --json, --xml, "
                    + "--array or --dictionary")
        }
    }

    /// The value given.
    func value() throws -> PlistValue {
        if let string { return .string(PlistString(string)) }
        if let integer { return .integer(try TypedValue.integer(integer)) }
        if let real { return .real(try TypedValue.real(real)) }
        if let bool { return .bool(try TypedValue.bool(bool)) }
        if let date { return .date(try TypedValue.date(date)) }
        if let data { return .data(try TypedValue.data(data)) }
        if let hex { return .data(try TypedValue.hex(hex)) }
        if let json { return try TypedValue.json(json) }
        if let xml { return try TypedValue.xml(xml) }
        if array { return .array([]) }
        return .dictionary(PlistDictionary())
    }
}

/// Reading typed values from text, strictly (a value that does not read is a usage error).
enum TypedValue {
    static func integer(_ text: String) throws -> PlistInteger {
        let t = text.trimmingCharacters(in: .whitespaces)
        let negative = t.hasPrefix("-")
        let body = negative || t.hasPrefix("+") ? String(t.dropFirst()) : t
        let magnitude: UInt128?
        if body.lowercased().hasPrefix("0x") {
            magnitude = UInt128(body.dropFirst(2), radix: 16)
        } else {
            magnitude = body.allSatisfy(\.isASCII) ? UInt128(body, radix: 10) : nil
        }
        let value: Int128?
        if let magnitude, negative {
            value = magnitude == UInt128(1) << 127 ? .min : Int128(exactly: magnitude).map { -$0 }
        } else {
            value = magnitude.flatMap { Int128(exactly: $0) }
        }
        guard let value else { throw ToolError("not an integer (up to 128 bits): '\(text)'", code: "usage") }
        return PlistInteger(value)
    }

    static func real(_ text: String) throws -> Double {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch t {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard let d = Double(t), d.isFinite else { throw ToolError("not a real number: '\(text)'", code: "usage") }
            return d
        }
    }

    static func bool(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw ToolError("not a boolean (true, false, yes, no, 1 or 0): '\(text)'", code: "usage")
        }
    }

    static func date(_ text: String) throws -> Date {
        guard let seconds = PlistValue.secondsSinceReferenceDate(iso8601: text) else {
            throw ToolError("not a date (YYYY-MM-DDTHH:MM:SS[.f]Z, UTC): '\(text)'", code: "usage")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    static func data(_ text: String) throws -> Data {
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw ToolError("not base64: '\(text)' (--data takes base64; --hex takes hexadecimal)", code: "usage")
        }
        return data
    }

    /// Hexadecimal digits in pairs; spaces, tabs, ':' and a leading `0x` are ignored.
    static func hex(_ text: String) throws -> Data {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        var bytes: [UInt8] = []
        var high: UInt8? = nil
        for c in digits.unicodeScalars {
            if c == " " || c == "\t" || c == ":" { continue }
            guard c.isASCII, let v = UInt8(String(c), radix: 16) else {
                throw ToolError("not hexadecimal: '\(text)'", code: "usage")
            }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        guard high == nil else { throw ToolError("an odd number of hex digits: '\(text)'", code: "usage") }
        return Data(bytes)
    }

    static func json(_ text: String) throws -> PlistValue {
        do {
            return try PlistValue(canonicalJSON: text)
        } catch {
            throw ToolError("not JSON: \(error)", code: "usage")
        }
    }

    /// An XML property list; a bare value (`<string>x</string>`) is read as if inside `<plist>`, as
    /// CoreFoundation reads it. Binary or OpenStep text in the argument are read too.
    static func xml(_ text: String) throws -> PlistValue {
        let data = Data(text.utf8)
        if let value = try? PlistValue.decode(from: data).value { return value }
        let wrapped = Data(("<plist version=\"1.0\">" + text + "</plist>").utf8)
        do {
            return try XMLPlist.decode(wrapped)
        } catch {
            throw ToolError("not an XML property list: \(error)", code: "usage")
        }
    }
}
