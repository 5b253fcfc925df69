// Sources/bplist/Plutil/PlutilLiterals.swift - `-convert swift` and `-convert objc [-header]`: a
// property list as a Swift or Objective-C literal, laid out as plutil lays it out.

import Foundation
import PropertyList

struct PlutilLiterals {
    /// The file converted (its name is in the comment and, as an identifier, names the variable).
    let inputPath: String
    /// Where the literal goes ('-' for standard output), for the Objective-C `#import`.
    let outputPath: String

    /// The variable's name: the input's name without extension, '-' and ' ' as '_', symbols and
    /// control characters removed.
    var variableName: String {
        let name = URL(fileURLWithPath: inputPath).lastPathComponent
        var stem = name
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { stem = String(name[..<dot]) }
        stem = stem.replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        let dropped = CharacterSet.symbols.union(.controlCharacters)
        return String(String.UnicodeScalarView(stem.unicodeScalars.filter { !dropped.contains($0) }))
    }

    /// The comment naming the input.
    var generatedFrom: String { "/// Generated from \(URL(fileURLWithPath: inputPath).lastPathComponent)\n" }

    /// `let name[: [String : Any] | : [Any]] = …` and a newline.
    func swift(_ value: PlistValue) throws -> String {
        guard !value.containsDistinctNode(where: { $0.kind == .uid || $0.kind == .null }) else {
            throw Plutil.Failure("Input contains an object that cannot be represented in Swift literal syntax")
        }
        var text = generatedFrom + "let \(variableName)"
        // A container of values of more than one type needs its type written out.
        let children: [PlistValue]? =
            switch value {
            case .dictionary(let d): d.values
            case .array(let a), .set(let a): a
            default: nil
            }
        if let children, Swift.Set(children.map { PlutilOutput.typeName($0.kind) }).count > 1 {
            text += value.kind == .dictionary ? " : [String : Any]" : " : [Any]"
        }
        return text + " = " + literal(value, swift: true) + "\n"
    }

    /// `[#import "name.h"] … NSType * const name = …;` and a newline.
    func objc(_ value: PlistValue) throws -> String {
        try objcCheck(value)
        var text = ""
        if outputPath != "-" {
            let stem = URL(fileURLWithPath: outputPath).deletingPathExtension().lastPathComponent
            text += "#import \"\(stem).h\"\n\n"
        }
        return text + objcDeclaration(value, header: false) + " = " + literal(value, swift: false) + ";\n"
    }

    /// The header of ``objc(_:)``: `extern NSType * const name;`.
    func objcHeader(_ value: PlistValue) throws -> String {
        try objcCheck(value)
        return "#import <Foundation/Foundation.h>\n\n" + objcDeclaration(value, header: true) + ";\n"
    }

    /// Objective-C literals hold strings, numbers, arrays and dictionaries only.
    private func objcCheck(_ value: PlistValue) throws {
        let allowed: Swift.Set<PlistKind> = [.string, .integer, .real, .bool, .array, .set, .dictionary]
        guard !value.containsDistinctNode(where: { !allowed.contains($0.kind) }) else {
            throw Plutil.Failure("Input contains an object that cannot be represented in Obj-C literal syntax")
        }
    }

    private func objcDeclaration(_ value: PlistValue, header: Bool) -> String {
        let type: String =
            switch value.kind {
            case .string: "NSString"
            case .array, .set: "NSArray"
            case .dictionary: "NSDictionary"
            default: "NSNumber"
            }
        return generatedFrom + "__attribute__((visibility(\"hidden\")))\n" + (header ? "extern " : "")
            + "\(type) * const \(variableName)"
    }

    /// The literal of `value`, four spaces per level, without recursion.
    private func literal(_ root: PlistValue, swift: Bool) -> String {
        enum Step {
            case value(PlistValue, depth: Int, indent: Bool)
            case text(String)
        }
        func pad(_ depth: Int) -> String { String(repeating: "    ", count: depth) }
        var out = ""
        var work: [Step] = [.value(root, depth: 0, indent: false)]
        while let step = work.popLast() {
            guard case .value(let v, let depth, let indent) = step else {
                if case .text(let s) = step { out += s }
                continue
            }
            if indent { out += pad(depth) }
            switch v {
            case .array(let xs), .set(let xs):
                out += swift ? "[\n" : "@[\n"
                work.append(.text(pad(depth) + "]"))
                for x in xs.reversed() {
                    work.append(.text(",\n"))
                    work.append(.value(x, depth: depth + 1, indent: true))
                }
            case .dictionary(let d):
                out += swift ? "[\n" : "@{\n"
                work.append(.text(pad(depth) + (swift ? "]" : "}")))
                let sorted = d.entries.sorted {
                    PlutilText.keyPrecedes($0.key.stringValue ?? "", $1.key.stringValue ?? "")
                }
                for entry in sorted.reversed() {
                    work.append(.text(",\n"))
                    work.append(.value(entry.value, depth: depth + 1, indent: false))
                    let key = entry.key.stringValue ?? ""
                    work.append(.text(pad(depth + 1) + (swift ? "\"\(key)\" : " : "@\"\(key)\" : ")))
                }
            case .string(let s):
                let escaped = Self.escaped(s.string)
                out += swift ? "\"" + escaped.replacingOccurrences(of: "\n", with: "\\n") + "\"" : "@\"\(escaped)\""
            case .bool(let b): out += swift ? (b ? "true" : "false") : (b ? "@YES" : "@NO")
            case .integer(let i): out += (swift ? "" : "@") + String(i)
            case .real(let d): out += (swift ? "" : "@") + String(format: "%f", d)
            case .data(let d):
                out += "Data(bytes: [" + d.map { String(format: "0x%02X,", $0) }.joined() + "])"
            case .date(let d): out += "Date(timeIntervalSinceReferenceDate: \(d.timeIntervalSinceReferenceDate))"
            case .uid, .null: break
            }
        }
        return out
    }

    /// plutil's escaping of string literals: a backslash is added before `"` and before these
    /// backslash sequences: `\b \s \w \. \| \* \) \(` (other text is as it is).
    static func escaped(_ s: String) -> String {
        var result = s
        for sequence in ["\\b", "\\s", "\"", "\\w", "\\.", "\\|", "\\*", "\\)", "\\("] {
            result = result.replacingOccurrences(of: sequence, with: "\\" + sequence)
        }
        return result
    }
}
