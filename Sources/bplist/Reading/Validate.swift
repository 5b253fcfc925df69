// Sources/bplist/Reading/Validate.swift - `bplist validate FILE...`: check files, one line per bad file.

import ArgumentParser
import Foundation
import PropertyList

struct Validate: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check property lists of any form; exit 1 if any is invalid.",
        discussion: """
            Every form is checked: binary (plain, zlib or gzip), XML, OpenStep (.strings files and \
            Xcode projects too) and JSON, as 'plutil -lint' checks them. A binary file is checked \
            object by object: every object in the offset table is decoded (reachable or not), every \
            string is checked, and the tree is materialised (cycles, keys, limits); a text form is \
            read whole. For each bad file one line 'FILE: error: CODE at byte N: detail' is written \
            to standard error. With --allow-trailing, bytes after a binary property list are reported \
            as 'FILE: warning: ...' and accepted.

            --binary (or --form binary) requires the binary form, as this command did before it read \
            the others: a file in another form is 'FILE: error: notABinaryPlist at byte 0: …'. --form \
            xml|openstep|json requires that form ('FILE: error: wrongForm at byte 0: …'). --verbose \
            prints 'FILE: OK (FORM)' for each valid file, FORM as 'binary', 'binary (zlib)', 'XML', \
            'OpenStep text', 'a .strings file', 'an Xcode project' or 'JSON'.

            Examples:
              bplist validate Info.plist App.entitlements Localizable.strings
              bplist validate --binary cache.bplist
              bplist validate --verbose project.pbxproj     # project.pbxproj: OK (an Xcode project)

            Exit status: 0 when every file is valid (and in the form required); 1 otherwise; 64 for \
            usage errors.
            """
    )

    @Argument(help: "The property lists to check ('-' for standard input).")
    var files: [String]

    @Flag(help: "Require the binary form (bplist00, plain or compressed); the same as --form binary.")
    var binary = false

    @Option(help: "Require this form: binary, xml, openstep or json.")
    var form: PlistFormat?

    @Flag(name: .shortAndLong, help: "Print 'FILE: OK (FORM)' on standard output for each valid file.")
    var verbose = false

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
        if binary, let form, form != .binary {
            throw ValidationError("--binary and --form \(form.argumentName) disagree")
        }
    }

    /// The form every file must be in, if any.
    var required: PlistFormat? { binary ? .binary : form }

    func execute() throws {
        var failures = 0
        for file in files {
            let data: Data
            do {
                data = try IO.read(file)
            } catch {
                failures += 1
                IO.printError("\(file): error: \(error.code) at byte 0: \(ToolError.oneLine(error.description))")
                continue
            }
            let sniffed = PlistInput.sniff(data)
            if sniffed != .binary || (required != nil && required != .binary) {
                switch Validate.checkText(data, sniffed: sniffed, required: required, read: read) {
                case .success(let loaded):
                    if verbose { IO.printOut("\(file): OK (\(Validate.describe(loaded)))\n") }
                case .failure(let problem):
                    failures += 1
                    IO.printError("\(file): error: \(problem.code) at byte \(problem.offset): \(problem.detail)")
                }
                continue
            }
            switch Validate.check(data, options: read.documentOptions) {
            case .success(let document):
                if verbose {
                    let form = document.compression == .none ? "binary" : "binary (\(document.compression.rawValue))"
                    IO.printOut("\(file): OK (\(form))\n")
                }
                if document.trailingByteCount > 0 {
                    let end = document.data.count
                    IO.printError(
                        "\(file): warning: trailingData at byte \(end): \(document.trailingByteCount) bytes "
                            + "follow the property list (accepted with --allow-trailing)")
                }
            case .failure(let problem):
                failures += 1
                IO.printError("\(file): error: \(problem.code) at byte \(problem.offset): \(problem.detail)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// What is wrong with a file, always with a byte offset.
    struct Problem: Error {
        var code: String
        var offset: Int
        var detail: String
    }

    /// Reads a text form whole (or reports the form that is not the one required).
    static func checkText(_ data: Data, sniffed: PlistFormat, required: PlistFormat?, read: ReadOptions)
        -> Result<PlistValue.Decoded, Problem>
    {
        if let required, required != sniffed {
            if required == .binary {
                // The binary reader's own error, as when this command read only the binary form.
                if case .failure(let problem) = check(data, options: read.documentOptions) { return .failure(problem) }
            }
            let found = data.isEmpty ? "empty" : Validate.name(sniffed)
            return .failure(
                Problem(code: "wrongForm", offset: 0, detail: "the file is \(found), not \(Validate.name(required))"))
        }
        do {
            return .success(try PlistInput.load(data, read: read))
        } catch let error as PlistError {
            return .failure(
                Problem(
                    code: error.code.description, offset: error.offset ?? 0, detail: ToolError.oneLine(error.detail)))
        } catch {
            return .failure(Problem(code: "io", offset: 0, detail: ToolError.message(for: error)))
        }
    }

    /// A form in a message.
    static func name(_ form: PlistFormat) -> String {
        switch form {
        case .binary: "a binary property list"
        case .xml: "XML"
        case .openStep: "OpenStep text"
        case .json: "JSON"
        }
    }

    /// How a valid file's form is reported.
    static func describe(_ loaded: PlistValue.Decoded) -> String {
        if loaded.format == .openStep, case .xcodeProject = loaded.writeOptions.openStepLayout {
            return "an Xcode project"
        }
        return PlistInput.describe(loaded)
    }

    /// Fully checks one binary file.
    static func check(_ data: Data, options: PlistReadOptions) -> Result<BinaryPlistDocument, Problem> {
        var opened: BinaryPlistDocument? = nil
        do throws(PlistError) {
            let document = try BinaryPlistDocument(data, options: options)
            opened = document
            try fullyCheck(document)
            return .success(document)
        } catch {
            // Every format error is placed: its own offset, else the offset of the object it names.
            let offset = error.offset ?? error.object.flatMap { opened?.offsetOfObject($0) } ?? 0
            var detail = error.detail
            if let object = error.object { detail += " (object \(object))" }
            return .failure(Problem(code: error.code.description, offset: offset, detail: ToolError.oneLine(detail)))
        }
    }

    /// Decodes every object of the offset table and every string, then materialises the tree.
    static func fullyCheck(_ document: BinaryPlistDocument) throws(PlistError) {
        for index in 0..<document.objectCount {
            let ref = ObjectRef(index)
            switch try document.object(ref) {
            case .asciiString, .utf16String: _ = try document.string(ref)
            default: break
            }
        }
        _ = try document.value()
    }
}
