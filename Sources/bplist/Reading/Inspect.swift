// Sources/bplist/Reading/Inspect.swift - `bplist inspect FILE`: a readable summary of a property list's layout.

import ArgumentParser
import Foundation
@_spi(Internals) import PropertyList

struct Inspect: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract:
            "Summarise a property list: its form, values by kind, depth and tree (binary: header, trailer, widths, duplicates).",
        discussion: """
            A binary property list (plain, zlib or gzip) is summarised object by object: header, \
            trailer, widths, objects by kind, duplicates, unreachable objects, depth, the top of the \
            tree. XML, OpenStep (.strings files, Xcode projects) and JSON are summarised by value: the \
            form, the size, values by kind, depth, the top of the tree. --binary requires the binary \
            form (another form is an error, as this command read only that one before).

            A typedstream (NSArchiver) is summarised instead: streamer version, byte order, system \
            version, top-level groups, objects by class, classes with their versions and superclasses, \
            and the root.
            """
    )

    @Flag(help: "Require the binary form: a file in another form is an error.")
    var binary = false

    @Argument(help: "The property list to read ('-' for standard input; plain, zlib or gzip).")
    var file: String

    @Option(help: "Levels of the tree to show.")
    var treeDepth = 2

    @Option(help: "Entries shown per container in the tree.")
    var treeWidth = 8

    @OptionGroup var read: ReadOptions

    func execute() throws {
        let input = try IO.read(file)
        if TypedStreamTool.isTypedStream(input) {
            IO.printOut(
                TypedStreamReport(archive: try TypedStreamTool.open(input), inputSize: input.count).render(file: file))
            return
        }
        if !binary, PlistInput.sniff(input) != .binary {
            let loaded = try PlistInput.load(input, read: read)
            IO.printOut(
                TextInspectReport(loaded: loaded, inputSize: input.count).render(
                    file: file, treeDepth: treeDepth, treeWidth: treeWidth))
            return
        }
        let document = try BinaryPlistDocument(input, options: read.documentOptions)
        try Validate.fullyCheck(document)
        let report = try InspectReport(document: document, inputSize: input.count)
        IO.printOut(report.render(file: file, treeDepth: treeDepth, treeWidth: treeWidth))
    }
}

/// The facts `inspect` prints, gathered from one validated document.
struct InspectReport {
    let document: BinaryPlistDocument
    let inputSize: Int
    /// Objects by marker kind (strings split by encoding, fill bytes counted apart).
    var kinds: [String: Int] = [:]
    /// Equal scalars stored more than once: the value and how many objects hold it.
    var duplicates: [(value: PlistValue, count: Int)] = []
    /// Objects whose offset-table entry points at another object's bytes (a streaming writer's
    /// repeated scalars): not stored again, so not duplicates.
    var shared = 0
    /// Objects not reachable from the top object.
    var unreachable = 0
    /// Container nesting of the deepest path (a scalar root is 0).
    var depth = 0
    let root: PlistValue

    init(document: BinaryPlistDocument, inputSize: Int) throws(PlistError) {
        self.document = document
        self.inputSize = inputSize
        root = try document.value()
        var seen: [PlistValue: (first: Int, count: Int)] = [:]
        var children: [[Int]] = Array(repeating: [], count: document.objectCount)
        var offsets = Set<Int>()
        for index in 0..<document.objectCount {
            let ref = ObjectRef(index)
            let object = try document.object(ref)
            let name: String
            switch object {
            case .null: name = "null"
            case .fill: name = "fill"
            case .bool: name = "bool"
            case .integer: name = "integer"
            case .real: name = "real"
            case .date: name = "date"
            case .uid: name = "uid"
            case .data: name = "data"
            case .asciiString: name = "string (ASCII)"
            case .utf16String: name = "string (UTF-16)"
            case .array(let refs):
                name = "array"
                children[index] = refs.map(\.index)
            case .set(let refs):
                name = "set"
                children[index] = refs.map(\.index)
            case .dictionary(let keys, let values):
                name = "dictionary"
                children[index] = keys.map(\.index) + values.map(\.index)
            }
            kinds[name, default: 0] += 1
            switch object {
            case .array, .set, .dictionary, .fill: break
            default:
                if let offset = document.offsetOfObject(index), !offsets.insert(offset).inserted {
                    shared += 1
                    continue
                }
                let value = try document.value(of: ref)
                seen[value, default: (index, 0)].count += 1
            }
        }
        duplicates = seen.filter { $0.value.count > 1 }
            .sorted { ($0.value.count, -$0.value.first) > ($1.value.count, -$1.value.first) }
            .map { ($0.key, $0.value.count) }
        (depth, unreachable) = InspectReport.walk(children, from: document.root.index)
    }

    /// Depth (with a memo, without recursion) and the number of objects not reached from `top`.
    static func walk(_ children: [[Int]], from top: Int) -> (depth: Int, unreachable: Int) {
        var depth = [Int](repeating: -1, count: children.count)
        var stack: [(index: Int, next: Int)] = [(top, 0)]
        var visiting = [Bool](repeating: false, count: children.count)
        visiting[top] = true
        while let last = stack.last {
            let kids = children[last.index]
            if last.next < kids.count {
                stack[stack.count - 1].next += 1
                let child = kids[last.next]
                // The document was validated: references are in range and there is no cycle.
                if child < children.count, depth[child] < 0, !visiting[child] {
                    visiting[child] = true
                    stack.append((child, 0))
                }
            } else {
                stack.removeLast()
                var d = 0
                for k in kids where k < children.count && depth[k] >= 0 { d = max(d, depth[k] + 1) }
                if !kids.isEmpty { d = max(d, 1) }
                depth[last.index] = d
            }
        }
        return (max(depth[top], 0), depth.filter { $0 < 0 }.count)
    }

    func render(file: String, treeDepth: Int, treeWidth: Int) -> String {
        let t = document.trailer
        var lines: [String] = []
        lines.append("file:        \(file)")
        lines.append("form:        binary")
        switch document.compression {
        case .none: lines.append("envelope:    none (\(inputSize) bytes)")
        default:
            lines.append(
                "envelope:    \(document.compression.rawValue), \(inputSize) bytes inflated to "
                    + "\(document.data.count + document.trailingByteCount)")
        }
        lines.append("header:      bplist\(document.version) (version \"\(document.version)\")")
        lines.append("size:        \(document.data.count) bytes of property list")
        if document.trailingByteCount > 0 {
            lines.append("trailing:    \(document.trailingByteCount) bytes after the property list")
        }
        lines.append(
            "trailer:     objects \(t.objectCount), top object \(t.topObject), offset table at "
                + "\(t.offsetTableOffset), offset size \(t.offsetIntSize), reference size \(t.objectRefSize), "
                + "sort version \(t.sortVersion)")
        let minimumRef = InspectReport.minimumWidth(UInt64(max(t.objectCount - 1, 0)))
        let minimumOffset = InspectReport.minimumWidth(UInt64(t.offsetTableOffset))
        lines.append(
            "widths:      offsets \(t.offsetIntSize) bytes (smallest possible \(minimumOffset)), "
                + "references \(t.objectRefSize) bytes (smallest possible \(minimumRef))")
        lines.append("objects:     \(t.objectCount)")
        for (name, count) in kinds.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            lines.append("  " + name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(count))
        }
        lines.append("unreachable: \(unreachable) objects")
        let extra = duplicates.reduce(0) { $0 + $1.count - 1 }
        lines.append("duplicates:  \(duplicates.count) values stored more than once (\(extra) redundant objects)")
        for d in duplicates.prefix(treeWidth) {
            lines.append("  \(d.count)× \(InspectReport.short(d.value))")
        }
        if duplicates.count > treeWidth { lines.append("  … \(duplicates.count - treeWidth) more") }
        if shared > 0 {
            lines.append("shared:      \(shared) objects point at another object's bytes (repeats written once)")
        }
        lines.append("depth:       \(depth)")
        lines.append("tree:")
        InspectReport.tree(root, label: nil, level: 1, maxLevel: treeDepth, width: treeWidth, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The smallest number of bytes (1...8) that holds `v`.
    static func minimumWidth(_ v: UInt64) -> Int { max(1, (64 - v.leadingZeroBitCount + 7) / 8) }

    /// The top of the tree, `maxLevel` levels deep, `width` entries per container.
    static func tree(
        _ root: PlistValue, label: String?, level: Int, maxLevel: Int, width: Int, into lines: inout [String]
    ) {
        var work: [(value: PlistValue, label: String?, level: Int)] = [(root, label, level)]
        while let (value, label, level) = work.popLast() {
            let pad = String(repeating: "  ", count: level)
            let prefix = pad + (label.map { $0 + ": " } ?? "")
            var items: [(PlistValue, String?)] = []
            switch value {
            case .array(let a), .set(let a):
                lines.append(prefix + "\(value.kind.rawValue) (\(a.count) elements)")
                items = a.enumerated().map { ($0.element, "[\($0.offset)]") }
            case .dictionary(let d):
                lines.append(prefix + "dictionary (\(d.count) entries)")
                items = d.entries.map { ($0.value, short($0.key)) }
            default:
                lines.append(prefix + short(value))
            }
            guard !items.isEmpty else { continue }
            guard level < maxLevel else {
                lines[lines.count - 1] += " …"
                continue
            }
            var pending: [(PlistValue, String?, Int)] = items.prefix(width).map { ($0.0, $0.1, level + 1) }
            if items.count > width {
                pending.append((.string("… \(items.count - width) more"), nil, level + 1))
            }
            work.append(contentsOf: pending.reversed())
        }
    }

    /// A one-line description of a value, at most about 60 characters.
    static func short(_ v: PlistValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .integer(let i): return String(i)
        case .real(let d): return PlistValue.pythonRepr(d)
        case .date(let d):
            let x = d.timeIntervalSinceReferenceDate
            return "date " + (PlistValue.iso8601(secondsSinceReferenceDate: x) ?? PlistValue.pythonRepr(x))
        case .data(let d): return "data (\(d.count) bytes)"
        case .uid(let u): return "UID(\(u))"
        case .string(let text):
            let s = text.string
            if s.hasPrefix("… ") { return s }
            let quoted = String((try? PlistValue.string(s).canonicalJSON())?.dropLast() ?? "")
            return quoted.count > 62 ? String(quoted.prefix(58)) + "…\"" : quoted
        case .array(let a): return "array (\(a.count) elements)"
        case .set(let a): return "set (\(a.count) elements)"
        case .dictionary(let d): return "dictionary (\(d.count) entries)"
        }
    }
}
