// Sources/bplist/Reading/InspectText.swift - `bplist inspect` of the text forms (XML, OpenStep, JSON): the form,
// values by kind, depth and the top of the tree (the binary form's report is InspectReport).

import Foundation
import PropertyList

struct TextInspectReport {
    let loaded: PlistValue.Decoded
    let inputSize: Int

    func render(file: String, treeDepth: Int, treeWidth: Int) -> String {
        var kinds: [String: Int] = [:]
        var depth = 0
        var values = 0
        // Every value as written (a shared sub-tree counts once per place, as the text holds it).
        var work: [(PlistValue, Int)] = [(loaded.value, 0)]
        while let (value, level) = work.popLast() {
            values += 1
            kinds[value.kind.rawValue, default: 0] += 1
            switch value {
            case .array(let xs), .set(let xs):
                if !xs.isEmpty { depth = max(depth, level + 1) }
                for x in xs { work.append((x, level + 1)) }
            case .dictionary(let d):
                if !d.isEmpty { depth = max(depth, level + 1) }
                for e in d.entries { work.append((e.value, level + 1)) }
            default: break
            }
        }
        var lines: [String] = []
        lines.append("file:        \(file)")
        lines.append("form:        \(Validate.describe(loaded))")
        if case .xcodeProject(let name) = loaded.writeOptions.openStepLayout {
            lines.append("project:     \(name) (objectVersion \(loaded.value["objectVersion"]?.stringValue ?? "?"))")
        }
        switch loaded.compression {
        case .none: lines.append("size:        \(inputSize) bytes")
        default: lines.append("envelope:    \(loaded.compression.rawValue), \(inputSize) bytes")
        }
        lines.append("values:      \(values)")
        for (name, count) in kinds.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  " + name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(count))
        }
        lines.append("depth:       \(depth)")
        lines.append("tree:")
        InspectReport.tree(loaded.value, label: nil, level: 1, maxLevel: treeDepth, width: treeWidth, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }
}
