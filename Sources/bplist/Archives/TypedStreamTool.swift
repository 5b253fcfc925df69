// Sources/bplist/Archives/TypedStreamTool.swift - typedstream (NSArchiver) input for `unarchive`, `print` and
// `inspect`, and typedstreams held in data values of property lists.
//
// A typedstream is shown like a keyed archive (`ArchiveNode`, `ArchiveRenderer`, `ArchiveView.json`):
// Foundation and AppKit classes as their typed values (the one interpretation of the TypedStream
// library), every other object with its class and its values in order, labelled by position and
// type code; an object named from more than one place is printed in full once, marked `#N` (its
// number: objects count from 0 in stream order), then as `<ref #N Class>`.

import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList
import TypedStream

enum TypedStreamTool {
    /// Whether `data` is a typedstream (by its header).
    static func isTypedStream(_ data: Data) -> Bool { TypedStreamArchive.isTypedStream(data) }

    /// The archive of `data`, errors as one tool line: `CODE at byte N (object K): detail`.
    static func open(_ data: Data) throws(ToolError) -> TypedStreamArchive {
        do {
            return try TypedStreamArchive(data)
        } catch {
            throw ToolError(error.description, code: error.code.description)
        }
    }

    /// The nodes of the top level: the root when the stream holds one value, else one entry per
    /// group (`"group 0 (i)"`: its value, or an array of its values).
    static func top(
        _ archive: TypedStreamArchive, maxDepth: Int, expandNested: Bool, budget: OutputBudget, json: Bool,
        inputBytes: Int, typedBudget: ArchiveJSON.Budget? = nil
    ) throws(ToolError) -> (node: ArchiveNode, issues: [String]) {
        var view: TypedStreamView
        do {
            view = try TypedStreamView(archive: archive, maxDepth: maxDepth)
        } catch {
            throw ToolError(error.description, code: error.code.description)
        }
        view.expandNested = expandNested
        view.nestedBudget = budget
        view.structured = json
        view.typedBudget = typedBudget ?? ArchiveJSON.Budget(budget, inputBytes: inputBytes)
        let node: ArchiveNode
        if archive.groups.count == 1, archive.groups[0].values.count == 1 {
            node = view.build(archive.groups[0].values[0], depth: 0)
        } else {
            var entries: [(ArchiveNode, ArchiveNode)] = []
            for (i, group) in archive.groups.enumerated() {
                let values = group.values.map { view.build($0, depth: 1) }
                let key = ArchiveNode.value(.string("group \(i) (\(group.types))"))
                entries.append((key, values.count == 1 ? values[0] : .array(values, shared: nil)))
            }
            node = .dictionary(entries, shared: nil)
        }
        if let error = view.typedError { throw ToolError(error.description, code: error.code.description) }
        return (node, view.issues)
    }

    /// `unarchive` and `print` of a typedstream: the text form, or the `--json` form.
    static func show(
        _ input: Data, json: Bool, maxDepth: Int, expandNested: Bool, palette: Palette, budget: OutputBudget,
        progress: Progress
    ) throws {
        progress.phase("decoding")
        let archive = try open(input)
        progress.phase("resolving")
        let (node, issues) = try top(
            archive, maxDepth: maxDepth, expandNested: expandNested, budget: budget, json: json,
            inputBytes: input.count)
        for issue in issues { IO.printError("warning: \(issue)") }
        progress.phase("printing")
        if json {
            let object = ArchiveView.json(node)
            try object.checkExpansion(budget, as: "an unarchived typedstream")
            try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
                try object.writeCanonicalJSON(into: &out, budget: budget)
            }
            return
        }
        let renderer = ArchiveRenderer(palette: palette)
        try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
            renderer.render(node, label: nil, indent: 0, into: &out)
        }
    }

    /// The `--json` form of a typedstream held in a data value, or `nil` when it does not read (the
    /// reason in `issue`).
    static func resolved(_ data: Data, issue: inout String?, typedBudget: ArchiveJSON.Budget? = nil) -> PlistValue? {
        do {
            let archive = try TypedStreamArchive(data)
            let (node, issues) = try top(
                archive, maxDepth: 64, expandNested: true, budget: .default, json: true, inputBytes: data.count,
                typedBudget: typedBudget)
            issue = issues.first
            return ArchiveView.json(node)
        } catch {
            issue = "\(error)"
            return nil
        }
    }

    /// `value` with every data value that holds a typedstream replaced by `["$nested": its objects]`
    /// (as `bplist unarchive --json` shows them); one that does not read stays data and is reported
    /// in `issues` with its key path. The caller has checked `value`'s expansion against the output
    /// budget, which bounds this walk.
    static func expandingTypedStreams(_ value: PlistValue, path: [String] = [], depth: Int = 0, issues: inout [String])
        -> PlistValue
    {
        guard depth < 512 else { return value }
        switch value {
        case .data(let d) where isTypedStream(d):
            var issue: String?
            guard let resolved = resolved(d, issue: &issue) else {
                issues.append(
                    "typedstream at \(path.isEmpty ? "the root" : path.joined(separator: ".")): \(issue ?? "")")
                return value
            }
            return .dictionary(PlistDictionary([(.string(PlistValue.nestedPlistKey), resolved)]))
        case .array(let xs):
            return .array(
                xs.enumerated().map {
                    expandingTypedStreams($1, path: path + [String($0)], depth: depth + 1, issues: &issues)
                })
        case .set(let xs):
            return .set(
                xs.enumerated().map {
                    expandingTypedStreams($1, path: path + [String($0)], depth: depth + 1, issues: &issues)
                })
        case .dictionary(let d):
            return .dictionary(
                PlistDictionary(
                    d.map { entry in
                        let name = entry.key.stringValue ?? "\(entry.key)"
                        return (
                            entry.key,
                            expandingTypedStreams(entry.value, path: path + [name], depth: depth + 1, issues: &issues)
                        )
                    }))
        default:
            return value
        }
    }

    /// `print`'s pass: `value` with its typedstreams in data values decoded, each one that does not
    /// read reported as a warning line; the expansion is checked against `budget` again.
    static func expandingTypedStreams(_ value: PlistValue, budget: OutputBudget) throws -> PlistValue {
        guard holdsTypedStream(value) else { return value }
        var issues: [String] = []
        let expanded = expandingTypedStreams(value, issues: &issues)
        for issue in issues { IO.printError("warning: \(issue)") }
        try expanded.checkExpansion(budget, as: "an indented tree")
        return expanded
    }

    /// A typedstream in a data value of a keyed archive, as `unarchive` shows it.
    static func nestedNode(_ d: Data, depth: Int, issues: inout [NestedPlistIssue], typedBudget: ArchiveJSON.Budget)
        -> ArchiveNode
    {
        var issue: String?
        guard depth < 32, let resolved = TypedStreamTool.resolved(d, issue: &issue, typedBudget: typedBudget) else {
            issues.append(
                NestedPlistIssue(
                    keyPath: .root, error: PlistError(.corrupted, "a typedstream that does not read: \(issue ?? "")")))
            return .value(.data(d))
        }
        return ArchiveView.plain(
            .dictionary(PlistDictionary([(.string(PlistValue.nestedPlistKey), resolved)])), depth: depth)
    }

    /// Whether `value` holds a data value that is a typedstream (so that the walk above is needed).
    static func holdsTypedStream(_ value: PlistValue, depth: Int = 0) -> Bool {
        guard depth < 512 else { return false }
        switch value {
        case .data(let d): return isTypedStream(d)
        case .array(let xs), .set(let xs): return xs.contains { holdsTypedStream($0, depth: depth + 1) }
        case .dictionary(let d): return d.entries.contains { holdsTypedStream($0.value, depth: depth + 1) }
        default: return false
        }
    }
}

/// Walks a typedstream's values, expanding each object once.
struct TypedStreamView {
    let archive: TypedStreamArchive
    let maxDepth: Int
    /// Every object as its typed value, by number.
    let typed: [AnyArchived]
    /// How many values name each object.
    let inbound: [Int]
    private var expanded = Set<Int>()
    var expandNested = false
    var nestedBudget = OutputBudget.default
    var issues: [String] = []
    /// Whether typed values get their `--json` structure (`ArchiveView.structured`), what those may
    /// make in all, and the error that stopped one.
    var structured = false
    var typedBudget: ArchiveJSON.Budget = ArchiveJSON.Budget(maxNodes: OutputBudget.default.maxValues)
    var typedError: PlistError?
    /// The number of each object whose typed value is an instance, by the instance.
    let numberOfInstance: [ObjectIdentifier: Int]

    init(archive: TypedStreamArchive, maxDepth: Int) throws(TypedStreamError) {
        self.archive = archive
        self.maxDepth = maxDepth
        typed = try archive.decodeObjects()
        var numbers: [ObjectIdentifier: Int] = [:]
        for (n, value) in typed.enumerated() {
            if case .object(let instance) = value { numbers[ObjectIdentifier(instance)] = n }
        }
        numberOfInstance = numbers
        var inbound = [Int](repeating: 0, count: archive.objects.count)
        var stack = archive.groups.flatMap(\.values) + archive.objects.flatMap(\.values)
        while let v = stack.popLast() {
            switch v {
            case .object(let n?) where inbound.indices.contains(n): inbound[n] += 1
            case .array(let xs): stack += xs
            case .structure(_, let fields): stack += fields
            default: break
            }
        }
        self.inbound = inbound
    }

    mutating func build(_ value: TypedStreamValue, depth: Int) -> ArchiveNode {
        switch value {
        case .integer(let i): return .value(.int(Int(i)))
        case .unsignedInteger(let u):
            return .value(.integer(PlistInteger(u)))
        case .bool(let b): return .value(.bool(b))
        case .float(let f): return .value(.real(Double(f)))
        case .double(let d): return .value(.real(d))
        case .string(let d?):
            if let s = String(validating: d, as: UTF8.self) { return .value(.string(PlistString(s))) }
            return data(d, depth: depth)
        case .cString(let s?), .sharedString(let s?): return .value(.string(PlistString(s)))
        case .string(nil), .cString(nil), .sharedString(nil), .object(nil), .class(nil), .ignored: return .null
        case .class(let c?):
            return .className(archive.classes.indices.contains(c) ? archive.classes[c].name : "?")
        case .object(let n?): return object(n, depth: depth)
        case .array(let xs):
            guard depth < maxDepth else { return .truncated(uid: -1, className: "array") }
            return .array(xs.map { build($0, depth: depth + 1) }, shared: nil)
        case .bytes(let d), .union(let d): return data(d, depth: depth)
        case .structure(let name, let fields):
            if let g = value.geometry {
                let className = "struct \(name ?? "?")"
                let structure = PlistValue.dictionary(
                    PlistDictionary(
                        ([("$class", .string(PlistString(className)))] + ArchiveJSON.geometryFields(g)).map {
                            (PlistValue.string(PlistString($0.0)), $0.1)
                        }))
                return .typed(className: className, text: g.description, runs: [], structure: structure)
            }
            guard depth < maxDepth else { return .truncated(uid: -1, className: "structure") }
            var entries: [(String, ArchiveNode)] = []
            for (i, f) in fields.enumerated() { entries.append((String(i), build(f, depth: depth + 1))) }
            return .object(uid: -1, className: "struct " + (name ?? "?"), shared: false, fields: entries)
        }
    }

    /// A data value: shown decoded when it holds a property list or a typedstream (and expansion is on).
    private mutating func data(_ d: Data, depth: Int) -> ArchiveNode {
        guard expandNested else { return .value(.data(d)) }
        if TypedStreamTool.isTypedStream(d), depth < 32 {
            var issue: String?
            if let resolved = TypedStreamTool.resolved(d, issue: &issue, typedBudget: typedBudget) {
                return ArchiveView.plain(
                    .dictionary(PlistDictionary([(.string(PlistValue.nestedPlistKey), resolved)])), depth: depth)
            }
            issues.append("typedstream in a data value: \(issue ?? "")")
            return .value(.data(d))
        }
        let (expanded, found) = PlistValue.data(d).expandingNestedPlists(budget: nestedBudget)
        issues += found.map(\.description)
        guard expanded != .data(d) else { return .value(.data(d)) }
        return ArchiveView.plain(ArchiveView.unarchivingNested(expanded, sharedBudget: typedBudget), depth: depth)
    }

    /// The `--json` form of a typed value; an object of the stream inside it is shown as anywhere
    /// else (in full the first time, with its number, then as a reference), data as any data value.
    private mutating func structure(of value: AnyArchived, className: String, depth: Int) -> PlistValue {
        do {
            return try ArchiveJSON.render(
                value, className: className, depth: depth, maxDepth: maxDepth, budget: typedBudget
            ) { part, d in
                switch part {
                case .object(let instance):
                    guard let n = numberOfInstance[ObjectIdentifier(instance)] else { return nil }
                    return ArchiveView.json(object(n, depth: d))
                case .data(let bytes):
                    return ArchiveView.json(data(bytes, depth: d))
                }
            }
        } catch {
            if typedError == nil { typedError = error }
            return .null
        }
    }

    private mutating func object(_ n: Int, depth: Int) -> ArchiveNode {
        guard typed.indices.contains(n) else { return .null }
        let name = archive.className(of: n)
        switch typed[n] {
        case .string(let s): return .value(.string(PlistString(s)))
        case .data(let d): return data(d, depth: depth)
        case .date(let d): return .date(d)
        case .url(let u): return .url(u.absoluteString)
        case .nsNull: return .null
        case .integer(let i): return .value(.int(i))
        case .real(let x): return .value(.real(x))
        case .bool(let b): return .value(.bool(b))
        case .attributedString(let a):
            let runs = zip(a.runTexts, a.runs).map { text, run in
                let attributes = AnyArchived.dictionary(
                    Dictionary(uniqueKeysWithValues: run.attributes.map { (AnyArchived.string($0.key), $0.value) }))
                return (text, ArchiveView.short(attributes))
            }
            let structure = structured ? structure(of: typed[n], className: name, depth: depth) : nil
            return .typed(className: name, text: Render.quoted(a.string), runs: runs, structure: structure)
        default:
            break
        }
        if let typedText = typed[n].typedDescription {
            let structure = structured ? structure(of: typed[n], className: typedText.className, depth: depth) : nil
            return .typed(className: typedText.className, text: typedText.text, runs: [], structure: structure)
        }
        guard !expanded.contains(n) else { return .ref(uid: n, className: name) }
        guard depth < maxDepth else { return .truncated(uid: n, className: name) }
        expanded.insert(n)
        let shared = inbound[n] > 1
        let marker = shared ? (n, name) : nil
        let values = archive.objects[n].values
        switch typed[n] {
        case .array:
            return .array(values.dropFirst().map { build($0, depth: depth + 1) }, shared: marker)
        case .set:
            return .set(values.dropFirst().map { build($0, depth: depth + 1) }, shared: marker)
        case .dictionary:
            var entries: [(ArchiveNode, ArchiveNode)] = []
            var i = 1
            while i + 1 < values.count {
                entries.append((build(values[i], depth: depth + 1), build(values[i + 1], depth: depth + 1)))
                i += 2
            }
            return .dictionary(entries, shared: marker)
        default:
            var fields: [(String, ArchiveNode)] = []
            var index = 0
            for group in archive.objects[n].groups {
                for (type, value) in zip(group.typeEncodings, group.values) {
                    fields.append(("\(index) \(type)", build(value, depth: depth + 1)))
                    index += 1
                }
            }
            return .object(uid: n, className: name, shared: shared, fields: fields)
        }
    }
}

/// `bplist inspect` of a typedstream.
struct TypedStreamReport {
    let archive: TypedStreamArchive
    let inputSize: Int

    func render(file: String) -> String {
        var lines: [String] = []
        lines.append("file:        \(file)")
        lines.append(
            "format:      typedstream (NSArchiver), streamer version \(archive.streamerVersion), "
                + "\(archive.byteOrder.rawValue), system version \(archive.systemVersion)")
        lines.append("size:        \(inputSize) bytes")
        if let t = archive.trailingDataOffset {
            lines.append("trailing:    \(inputSize - t) bytes after the last group, from byte \(t)")
        }
        lines.append("groups:      \(archive.groups.count) at the top level")
        for (i, g) in archive.groups.prefix(8).enumerated() {
            lines.append("  \(i): \"\(g.types)\" at byte \(g.offset)")
        }
        if archive.groups.count > 8 { lines.append("  … \(archive.groups.count - 8) more") }
        var byClass: [String: Int] = [:]
        for n in archive.objects.indices { byClass[archive.className(of: n), default: 0] += 1 }
        lines.append("objects:     \(archive.objects.count)")
        for (name, count) in byClass.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(16) {
            lines.append("  " + name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(count))
        }
        if byClass.count > 16 { lines.append("  … \(byClass.count - 16) more classes") }
        lines.append("classes:     \(archive.classes.count)")
        for (i, c) in archive.classes.enumerated() {
            let chain = archive.classChain(ofClass: i).dropFirst().map(\.name)
            lines.append(
                "  \(c.name) v\(c.version)" + (chain.isEmpty ? "" : " : " + chain.joined(separator: " : ")))
        }
        if let root = archive.root {
            var view = try? TypedStreamView(archive: archive, maxDepth: 2)
            if let node = view?.build(root, depth: 0) {
                lines.append("root:        " + TypedStreamReport.short(node))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line for a node.
    static func short(_ node: ArchiveNode) -> String {
        switch node {
        case .null: return "nil"
        case .value(let v): return InspectReport.short(v)
        case .date(let d): return "date \(Render.date(d))"
        case .uuid(let u): return "UUID \(u.uuidString)"
        case .url(let s): return "URL \(s)"
        case .className(let s): return "class \(s)"
        case .array(let xs, _): return "array (\(xs.count) elements)"
        case .set(let xs, _): return "set (\(xs.count) elements)"
        case .orderedSet(let xs, _): return "ordered set (\(xs.count) elements)"
        case .dictionary(let xs, _): return "dictionary (\(xs.count) entries)"
        case .object(_, let name, _, let fields): return "\(name) (\(fields.count) values)"
        case .ref(let uid, let name), .truncated(let uid, let name): return "\(name) #\(uid)"
        case .typed(let name, let text, let runs, _):
            let t = text.count > 60 ? String(text.prefix(57)) + "…" : text
            return "\(name) \(t)" + (runs.isEmpty ? "" : " (\(runs.count) runs)")
        }
    }
}
