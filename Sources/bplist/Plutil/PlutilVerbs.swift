// Sources/bplist/Plutil/PlutilVerbs.swift - plutil's verbs: -lint, -p, -convert, -insert/-replace,
// -remove, -extract/-type, -create (Plutil.swift reads the arguments; PlutilOutput.swift writes).

import Foundation
import PropertyList

extension Plutil {
    /// The bytes of `path` (standard input for '-'), with Foundation's error when unreadable, as
    /// plutil reports it.
    static func readPath(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard !path.isEmpty else { throw Failure("Empty path specified") }
        return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
    }

    /// What a file holds: decoded, or (binary) a document to read in place.
    struct Input {
        var loaded: PlistInput.Loaded?
        var tree: DocumentTree?
        var form: PlistInput.Form

        /// The whole value (a binary document is decoded now).
        func value() throws -> PlistValue {
            if let loaded { return loaded.value }
            guard let tree else { return .null }
            return try PlistInput.load(tree.document.data, read: .standard).value
        }
    }

    /// Reads a property list (binary, XML, OpenStep) or JSON; a binary one stays a document when
    /// `inPlace`. A file that is none of them fails with both readers' errors, as plutil says it.
    static func read(_ data: Data, inPlace: Bool = false) throws -> Input {
        let form = PlistInput.sniff(data)
        do {
            if inPlace && form == .binary {
                let tree = PlistInput.tree(try PlistInput.openBinary(data, read: .standard), read: .standard)
                return Input(loaded: nil, tree: tree, form: .binary)
            }
            return Input(loaded: try PlistInput.load(data, read: .standard), tree: nil, form: form)
        } catch let error as PlistError {
            let json: String
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                json = "<unknown error>"
            } catch {
                json =
                    ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
            }
            throw Failure("Property List error: \(ToolError.oneLine(error.description)) / JSON error: \(json)")
        }
    }

    /// `-lint`: each file must be a property list (JSON is not one).
    struct Lint {
        let common: Common

        init(arguments: [String]) throws {
            common = try Common(arguments)
            if common.output != nil { throw Failure("-o is not used with -lint.") }
            if common.fileExtension != nil { throw Failure("-e is not used with -lint.") }
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let data = try readPath(path)
                switch PlistInput.sniff(data) {
                case .binary:
                    // Every object is read (and every string decoded) once, without building the value.
                    let tree = PlistInput.tree(try PlistInput.openBinary(data, read: .standard), read: .standard)
                    try PlistTreeMeasure(tree, budget: OutputBudget(maxValues: .max - 1, maxBytes: .max - 1))
                        .check(tree.root, as: "a property list")
                    PlistInput.warnRepairs(tree)
                case .json:
                    throw Failure("(JSON is not a property list: -lint reads binary, XML and OpenStep files)")
                case .xml, .openStep:
                    _ = try PlistInput.load(data, read: .standard)
                }
                if !common.silent { IO.printOut("\(path == "-" ? "<stdin>" : path): OK\n") }
            }
        }
    }

    /// `-p`: each file in plutil's human-readable form.
    struct PrettyPrint {
        let common: Common

        init(arguments: [String]) throws {
            common = try Common(arguments)
            if common.output != nil { throw Failure("-o is not used with -p.") }
            if common.fileExtension != nil { throw Failure("-e is not used with -p.") }
            if common.silent { IO.printError("-s doesn't make a lot of sense with -p.") }
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let data = try readPath(path)
                let input = try read(data, inPlace: true)
                if let tree = input.tree {
                    try PlutilPrinter.print(tree, tree.root, inputBytes: data.count)
                    PlistInput.warnRepairs(tree)
                } else {
                    try PlutilPrinter.print(PlistValueTree(), try input.value(), inputBytes: data.count)
                }
            }
        }
    }

    /// `-convert FMT`: each file rewritten in FMT (in place, or to -o / -e).
    struct Convert {
        let emission: Emission?
        let header: Bool
        let common: Common

        init(emission: Emission?, header: Bool, arguments: [String]) throws {
            self.emission = emission
            self.header = header
            common = try Common(arguments)
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let data = try readPath(path)
                let target = emission ?? Emission(PlistInput.sniff(data))
                // The text forms of a binary file are written as it is read.
                let inPlace = [.xml, .json, .openStep].contains(target)
                let input = try read(data, inPlace: inPlace)
                let source: PlutilOutput.Source =
                    if let tree = input.tree { .document(tree, tree.root) } else { .value(try input.value()) }
                try PlutilOutput.write(source, inputPath: path, emission: target, common: common, header: header)
            }
        }
    }

    /// `-insert KP -TYPE VALUE [-append]` and `-replace KP -TYPE VALUE`.
    struct InsertOrReplace {
        let replacing: Bool
        let keyPath: String
        let value: PlistValue
        let appending: Bool
        let common: Common

        init(replacing: Bool, arguments: [String]) throws {
            self.replacing = replacing
            var args = arguments
            let missing = "'Insert' and 'Replace' require a key path, a type, and a value."
            guard let keyPath = args.popFirst(), let type = args.popFirst() else { throw Failure(missing) }
            self.keyPath = keyPath
            func operand() throws -> String {
                // plutil's own wording, "value2" included.
                guard let next = args.popFirst() else {
                    throw Failure("'Insert' and 'Replace' require a key path, a type, and a value2.")
                }
                return next
            }
            switch type {
            case "-bool":
                let text = try operand().lowercased()
                value = .bool(text == "true" || text == "yes")
            case "-integer":
                value = .int((try operand() as NSString).integerValue)
            case "-float":
                value = .real((try operand() as NSString).doubleValue)
            case "-string":
                value = .string(PlistString(try operand()))
            case "-date":
                let text = try operand()
                let xml = "<plist version=\"1.0\"><date>\(text)</date></plist>"
                guard let date = try? XMLPlist.decode(Data(xml.utf8), options: .init(normalizesDates: true)) else {
                    throw Failure("Invalid date in argument: \(text) (YYYY-MM-DDTHH:MM:SSZ)")
                }
                value = date
            case "-data":
                guard let data = Data(base64Encoded: try operand(), options: .ignoreUnknownCharacters) else {
                    throw Failure("Invalid base64 data in argument")
                }
                value = .data(data)
            case "-xml":
                let text = try operand()
                do {
                    value = try TypedValue.xml(text)
                } catch {
                    throw Failure("Unable to parse xml property list: \(ToolError.message(for: error))")
                }
            case "-json":
                let text = try operand()
                do {
                    value = try PlistValue(canonicalJSON: text)
                } catch {
                    throw Failure("Unable to parse JSON: \(error)")
                }
            case "-dictionary": value = .dictionary(PlistDictionary())
            case "-array": value = .array([])
            default: throw Failure("Unknown insert or replace type \(type)")
            }
            var append = false
            if args.first == "-append" {
                args.removeFirst()
                append = !replacing
            }
            appending = append
            common = try Common(args, allowParents: true)
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let input = try read(try readPath(path))
                var plist = try input.value()
                let edit = try PlutilEdits.insertion(
                    value, at: keyPath, in: plist, replacing: replacing, appending: appending,
                    creatingParents: common.createParents)
                try plist.apply(edit)
                try PlutilOutput.write(
                    .value(plist), inputPath: path, emission: Emission(input.form), common: common,
                    keyPath: keyPath)
            }
        }
    }

    /// `-remove KP`.
    struct RemoveValue {
        let keyPath: String
        let common: Common

        init(keyPath: String, arguments: [String]) throws {
            self.keyPath = keyPath
            common = try Common(arguments)
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let input = try read(try readPath(path))
                var plist = try input.value()
                try plist.apply(try PlutilEdits.removal(at: keyPath, in: plist))
                try PlutilOutput.write(
                    .value(plist), inputPath: path, emission: Emission(input.form), common: common,
                    keyPath: keyPath)
            }
        }
    }

    /// `-extract KP FMT [-expect T]` and `-type KP [-expect T]`.
    struct Extract {
        let keyPath: String
        let emission: Emission?
        let expect: String?
        let common: Common

        init(keyPath: String, emission: Emission?, expect: String?, arguments: [String]) throws {
            self.keyPath = keyPath
            self.emission = emission
            self.expect = expect
            common = try Common(arguments)
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let input = try read(try readPath(path), inPlace: true)
                let target = emission ?? Emission(input.form)
                let notFound = Failure(
                    "Could not extract value, error: No value at that key path or invalid key path: \(keyPath)")
                let components = PlutilEdits.components(keyPath)
                // plutil never finds an empty key.
                if components.contains(where: \.key.isEmpty) { throw notFound }
                let source: PlutilOutput.Source
                let kind: PlistKind
                if let tree = input.tree {
                    guard case .success(let ref) = try tree.document.walkingLazily(PlistKeyPath(components)) else {
                        throw notFound
                    }
                    kind = try tree.contents(of: ref).kind
                    source =
                        [.xml, .json, .openStep].contains(target)
                        ? .document(tree, ref) : .value(try tree.document.value(of: ref))
                } else {
                    guard let found = try input.value()[keyPath: PlistKeyPath(components)] else { throw notFound }
                    kind = found.kind
                    source = .value(found)
                }
                if let expect, PlutilOutput.typeName(kind) != expect {
                    // plutil names the types here by its enumeration's case names: boolean, any.
                    throw Failure(
                        "Value at [\(keyPath)] expected to be \(PlutilOutput.caseName(expect)) but is "
                            + PlutilOutput.caseName(PlutilOutput.typeName(kind)))
                }
                try PlutilOutput.write(source, inputPath: path, emission: target, common: common, keyPath: keyPath)
            }
        }
    }

    /// `-create FMT`: an empty dictionary in each file.
    struct CreateFile {
        let emission: Emission
        let common: Common

        init(emission: Emission, arguments: [String]) throws {
            self.emission = emission
            common = try Common(arguments)
        }

        func run() throws -> Bool {
            eachFile(common.paths) { path in
                let text: String
                switch emission {
                case .swift: text = "/// Generated from -\nlet - = [\n    ]"
                case .objc:
                    text =
                        "/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};"
                case .raw: text = "\n"
                case .type: text = "dictionary"
                case .json: text = common.readable ? "{\n\n}" : "{}"
                case .openStep: text = "{\n}\n"
                case .xml, .binary:
                    let bytes = try PlistInput.encode(
                        .dictionary(PlistDictionary()), as: emission == .xml ? PlistFormat.xml : .binary)
                    try IO.write(bytes, to: path)
                    return
                }
                if path == "-" {
                    IO.printOut(text + (common.newline && (emission == .raw || emission == .type) ? "\n" : ""))
                } else {
                    try IO.write(Data(text.utf8), to: path)
                }
            }
        }
    }
}
