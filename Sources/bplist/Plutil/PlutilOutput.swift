// Sources/bplist/Plutil/PlutilOutput.swift - Where and how plutil's verbs write their result: the output
// path (-o, -e, .swift/.m), the forms (xml1, binary1, json, swift, objc, raw, type, openStep), and the
// checks plutil makes first.

import Foundation
import PropertyList

enum PlutilOutput {
    /// The property list written: a value, or (for the text forms) a binary document read in place.
    enum Source {
        case value(PlistValue)
        case document(DocumentTree, ObjectRef)
    }

    /// plutil's type name of a kind (`-type`, `-expect`): what Foundation reads has no set, UID or
    /// null, so those are `(any)`.
    static func typeName(_ kind: PlistKind) -> String {
        switch kind {
        case .set, .uid, .null: "(any)"
        default: PlutilText.typeName(kind)
        }
    }

    /// The name plutil's messages give a type (its enumeration's case names): `boolean` for `bool`,
    /// `any` for `(any)`.
    static func caseName(_ typeName: String) -> String {
        switch typeName {
        case "bool": "boolean"
        case "(any)": "any"
        default: typeName
        }
    }

    /// Writes `source` as `emission` for the input `inputPath`: to standard output for `-o -` (and for
    /// raw and type output without -o), else to the file plutil would write (atomically).
    static func write(
        _ source: Source, inputPath: String, emission: Plutil.Emission, common: Plutil.Common,
        keyPath: String? = nil, header: Bool = false
    ) throws {
        let toStandardOutput =
            common.output == "-"
            || (common.output == nil && (emission == .raw || emission == .type || inputPath == "-"))
        let destination = toStandardOutput ? "-" : outputPath(inputPath, emission: emission, common: common)
        // What only a one-line text needs: raw and type are small, written whole.
        switch emission {
        case .raw, .type:
            let value = try shallowValue(source)
            let text: String
            if emission == .type {
                text = typeName(value.kind)
            } else {
                guard let raw = PlutilText.raw(value), value.kind != .set else {
                    throw Plutil.Failure(
                        "Value at \(keyPath ?? "unknown key path") is a \(caseName(typeName(value.kind))) type and cannot be extracted in raw format"
                    )
                }
                text = raw
            }
            let newline = toStandardOutput && common.newline ? "\n" : ""
            try IO.write(Data((text + newline).utf8), to: destination)
            return
        case .binary:
            let value = try materialised(source)
            try checkKeys(value)
            try IO.write(try BinaryPlistWriter().write(value), to: destination)
            return
        case .swift, .objc:
            let value = try materialised(source)
            try checkKeys(value)
            let literals = PlutilLiterals(inputPath: inputPath, outputPath: destination)
            let text = emission == .swift ? try literals.swift(value) : try literals.objc(value)
            try IO.write(Data(text.utf8), to: destination)
            if emission == .objc && header && destination != "-" {
                try IO.write(Data(try literals.objcHeader(value).utf8), to: replacingExtension(destination, with: "h"))
            }
            return
        case .xml, .json, .openStep:
            break
        }
        // The text forms: checked whole first (budget, what the form cannot hold), then streamed.
        let budget = OutputBudget.scaled(.default, inputBytes: inputBytes(source))
        switch source {
        case .value(let value):
            try checkKeys(value)
            try IO.stream(to: destination) { out in
                switch emission {
                case .xml: try XMLPlist.write(value, rawCharacters: true, budget: budget, into: &out)
                case .openStep: try OpenStepPlist.write(value, budget: budget, into: &out)
                default:
                    try PlutilJSON.write(PlistValueTree(), value, readable: common.readable, budget: budget, into: &out)
                }
            }
        case .document(let tree, let ref):
            // Each writer checks the document first (one walk), non-string keys included.
            try IO.stream(to: destination) { out in
                switch emission {
                case .xml: try XMLPlist.write(tree, from: ref, rawCharacters: true, budget: budget, into: &out)
                case .openStep: try OpenStepPlist.write(tree, from: ref, budget: budget, into: &out)
                default: try PlutilJSON.write(tree, ref, readable: common.readable, budget: budget, into: &out)
                }
            }
            PlistInput.warnRepairs(tree)
        }
    }

    /// The size of the input `source` was read from (a value: none known, the defaults apply).
    static func inputBytes(_ source: Source) -> Int {
        if case .document(let tree, _) = source { return tree.document.data.count }
        return 0
    }

    /// The whole value of `source`.
    static func materialised(_ source: Source) throws -> PlistValue {
        switch source {
        case .value(let v): return v
        case .document(let tree, let ref): return try tree.document.value(of: ref)
        }
    }

    /// The value of `source` with containers holding only their keys (what raw and type need).
    static func shallowValue(_ source: Source) throws -> PlistValue {
        switch source {
        case .value(let v): return v
        case .document(let tree, let ref): return try Get.shallowValue(tree, ref)
        }
    }

    /// plutil's first check: every dictionary key is a string.
    static func checkKeys(_ value: PlistValue) throws {
        let bad = value.containsDistinctNode { node in
            guard case .dictionary(let d) = node else { return false }
            return d.keys.contains { $0.kind != .string }
        }
        if bad { throw Plutil.Failure("Dictionaries are required to have string keys in property lists") }
    }

    /// The file plutil writes for `inputPath`: -o, else the input with -e's extension, and .m or .swift
    /// for the literal forms.
    static func outputPath(_ inputPath: String, emission: Plutil.Emission, common: Plutil.Common) -> String {
        if let output = common.output { return output }
        var result = inputPath
        if let ext = common.fileExtension { result = replacingExtension(result, with: ext) }
        switch emission {
        case .objc: result = replacingExtension(result, with: "m")
        case .swift: result = replacingExtension(result, with: "swift")
        default: break
        }
        return result
    }

    /// `path` with the text after its last '.' replaced by `ext`; unchanged without a '.' (or when the
    /// only one starts the path), as plutil does.
    static func replacingExtension(_ path: String, with ext: String) -> String {
        guard path != ".", path != "..", let dot = path.lastIndex(of: "."), dot != path.startIndex else { return path }
        return String(path[...dot]) + ext
    }
}
