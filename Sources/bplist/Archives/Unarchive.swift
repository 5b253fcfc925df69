// Sources/bplist/Archives/Unarchive.swift - `bplist unarchive FILE`: an NSKeyedArchiver archive as a
// readable object graph.

import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

struct Unarchive: BPlistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "unarchive",
        abstract: "Print an NSKeyedArchiver archive as a readable object graph.",
        discussion: """
            Every archived object is shown with its class name and its fields; no class needs to be \
            known. Foundation classes are interpreted: NSArray, NSSet, NSOrderedSet and NSDictionary \
            (and their mutable forms) as arrays, sets ('<set> [ … ]'), ordered sets \
            ('<ordered set> [ … ]') and dictionaries; NSString, NSData, \
            NSDate, NSUUID, NSURL and NSNull as plain values. An object or collection reached from \
            more than one place is printed in full once, marked '#UID' (its index in $objects), and \
            then as '<ref #UID ClassName>', so shared objects and cycles are safe. Nesting deeper than \
            --max-depth prints '<depth limit #UID ClassName>'. When $top holds only 'root' its object \
            is printed; otherwise a dictionary of the $top keys. Binary, XML and canonical JSON \
            archives are read. A typedstream (NSArchiver: Messages bodies, old preferences, nibs, \
            .clr colour lists) is shown the same way: objects numbered in stream order ('#N'), each \
            unknown object's values labelled by position and type code ('0 i'), several top-level \
            groups as "group N (types)".

            Text form:
              XWZPerson #3 {
                name: "Ada"
                pets: [
                  0 => XWZDog {
                    name: "Rex"
                    owner: <ref #3 XWZPerson>
                  }
                ]
              }

            Paths: every value shown is named by the labels that lead to it, joined by '.': the \
            $top key, then a field name, an index ('0 =>') or a dictionary key (without its quotes). \
            Above, root.pets.0.name is "Rex". Values an object encoded without a key are its fields \
            $0, $1, …. These are the paths the library's KeyedArchiveGraph edits by.

            --json form (canonical JSON, sorted keys): an object of the $top keys,
              {"root": VALUE, …}, where VALUE is
                an object            {"$class": "XWZDog", "$id": UID, "name": VALUE, …}
                                     (a field name starting with '$' gets one more '$')
                a later reference    {"$ref": UID, "$class": "XWZDog"}
                beyond --max-depth   {"$truncated": UID, "$class": "XWZDog"}
                a shared collection  {"$id": UID, "$class": "NSArray", "$value": […]}
                                     (the first time; later ones are "$ref")
                array, set           […], {"$set": […]}
                ordered set          {"$orderedSet": […]}
                dictionary           {"key": VALUE, …}, or {"$dict": [[KEY, VALUE], …]}
                                     when a key is not a string
                string, number, bool JSON values (reals {"$real": "0.5"}); nil is null
                date, data           {"$date": "ISO-8601"}, {"$data": "base64"}
                UUID, URL            {"$uuid": "…"}, {"$url": "…"}
                class description    {"$classname": "…"}
                typed value          {"$class": "NSColor", FIELD: VALUE, …}: the
                                     value's fields, each VALUE in this same form,
                                     nothing elided ([field]: only when archived)
                  NSColor, UIColor     colorSpace, components, [spaceComponents],
                                       [iccProfile], [colorSpaceID],
                                       [catalogName], [colorName]
                  NSFont, UIFont       name, size, [flags]
                  NSAttributedString   string, runs: [{"location": N, "length": N,
                                       "attributes": {NAME: VALUE, …}}, …]
                                       (locations and lengths in UTF-16 units)
                  NSParagraphStyle     alignment, lineBreakMode, lineSpacing, …
                                       (every setting), [tabStops], [textBlocks],
                                       [textLists], [otherFields]
                  NSFontDescriptor     attributes, [options]
                  NSValue              {"rect": {"x", "y", "width", "height"}};
                                       "point", "size", "range", "edgeInsets"
                  NSIndexSet           ranges: [{"location", "length"}, …]
                  NSIndexPath          indexes
                  NSLocale             identifier
                  NSTimeZone           name, [data]
                  NSError              domain, code, userInfo
                  NSDateComponents     the components set (year, month, …)
                  NSDecimalNumber      decimal (its exact text)
                  NSAffineTransform    m11, m12, m21, m22, tX, tY
                  NSRegularExpression  pattern, options
                  NSPersonNameComponents  the parts set (givenName, …)
                                     An object of the archive inside a typed
                                     value is shown as anywhere else ("$id",
                                     then "$ref"); one read from a nested
                                     archive in full ({"$cycle": "Class"} inside
                                     itself). Typed values are values: what they
                                     share is repeated, within the output budget.

            Examples:
              bplist unarchive person.archive
              bplist unarchive --json person.archive > person.json
              bplist unarchive --max-depth 4 big.archive

            Exit status: 0 on success; 1 on any error, with one line on standard error: \
            'error: CODE at byte N: detail' for an input that is not a property list, \
            'error: CODE at byte N (UID u): detail' for an archive that is malformed (N is where the \
            object of UID u starts; for XML or JSON input the offset is left out); 64 for usage errors.
            """
    )

    @Argument(help: "The archive to read ('-' for standard input).")
    var file: String

    @Flag(help: "Print the graph as canonical JSON (shape above).")
    var json = false

    @Flag(
        name: .customLong("expand-nested"), inversion: .prefixedNo,
        help: "Show data values that hold a binary property list (a keyed archive) decoded, under \"$nested\".")
    var expandNested = true

    @Option(help: "Levels of objects and collections to expand (1...2000).")
    var maxDepth = 512

    @OptionGroup var colors: ColorOptions

    @OptionGroup var outputBudget: OutputOptions

    func validate() throws {
        guard (1...2000).contains(maxDepth) else { throw ValidationError("--max-depth must be 1...2000") }
    }

    func execute() throws {
        let input = try IO.read(file)
        let progress = Progress("unarchive", inputBytes: input.count)
        defer { progress.finish() }
        if TypedStreamTool.isTypedStream(input) {
            try TypedStreamTool.show(
                input, json: json, maxDepth: maxDepth, expandNested: expandNested, palette: colors.palette,
                budget: outputBudget.budget, progress: progress)
            return
        }
        progress.phase("decoding")
        let binary: Data
        let isBinary = PlistInput.sniff(input) == .binary
        if isBinary {
            binary = input
        } else {
            binary = try BinaryPlistWriter().write(PlistInput.decode(input, read: .standard).0)
        }
        // Objects print once (a shared one as a reference), but plain containers the archive shares
        // would print once per reference: the whole plist's expansion bounds what is printed.
        try BinaryPlistDocument(binary).value().checkExpansion(outputBudget.budget, as: "an unarchived object graph")
        let graph: KeyedArchiveGraph
        do {
            graph = try KeyedArchiveGraph(binary, requiredTopKey: nil)
        } catch {
            throw Unarchive.toolError(error, binary: isBinary ? binary : nil)
        }
        progress.phase("resolving")
        var view = ArchiveView(graph: graph, maxDepth: maxDepth)
        view.decoder = try? KeyedUnarchiver(forReadingFrom: binary)
        view.expandNested = expandNested
        view.nestedBudget = outputBudget.budget
        view.structured = json
        view.typedBudget = ArchiveJSON.Budget(outputBudget.budget, inputBytes: input.count)
        let top = graph.top.map { (key: $0.key, node: view.build($0.value, depth: 0)) }
        if let error = view.typedError { throw error }
        for issue in view.nestedIssues { IO.printError("warning: \(issue) (a data value of the archive)") }
        progress.phase("printing")
        if json {
            let object = PlistValue.dictionary(
                PlistDictionary(top.map { (PlistValue.string($0.key), ArchiveView.json($0.node)) }))
            try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
                try object.writeCanonicalJSON(into: &out, budget: outputBudget.budget)
            }
            return
        }
        let renderer = ArchiveRenderer(palette: colors.palette)
        try IO.stream(to: "-", beforeOutput: progress.erasingBeforeTerminalOutput) { out in
            if top.count == 1, top[0].key == "root" {
                renderer.render(top[0].node, label: nil, indent: 0, into: &out)
            } else {
                let entries = top.map { (key: PlistValue.string($0.key), value: $0.node) }
                renderer.render(
                    .dictionary(entries.map { (.value($0.key), $0.value) }, shared: nil), label: nil, indent: 0,
                    into: &out)
            }
        }
    }

    /// One line for a graph error, with the byte offset of the object it names (binary input).
    static func toolError(_ error: KeyedArchiveError, binary: Data?) -> ToolError {
        if let underlying = error.underlying {
            return ToolError(underlying.description, code: underlying.code.description)
        }
        var text = error.code.description
        if let binary, let document = try? BinaryPlistDocument(binary) {
            var ref = document.root
            if let uid = error.object, let found = try? document.ref(at: ["$objects", .init(index: uid)]) {
                ref = found
            }
            if let offset = document.offsetOfObject(ref.index) { text += " at byte \(offset)" }
        }
        if !error.keyPath.isEmpty { text += " in " + error.keyPath.components.map(\.key).joined(separator: ".") }
        var extras: [String] = []
        if let uid = error.object { extras.append("UID \(uid)") }
        if let className = error.className { extras.append("class \(className)") }
        if !extras.isEmpty { text += " (" + extras.joined(separator: ", ") + ")" }
        return ToolError(text + ": " + error.detail, code: error.code.description)
    }
}

/// A resolved archive node: Foundation classes interpreted, sharing and cycles made explicit.
indirect enum ArchiveNode {
    case null
    /// A plain property-list scalar (string, number, boolean, data, date).
    case value(PlistValue)
    case date(Date)
    case uuid(UUID)
    case url(String)
    /// A reference to a class description rather than to an object.
    case className(String)
    /// `shared` is (UID, class) when the collection is an archived object reached more than once.
    case array([ArchiveNode], shared: (Int, String)?)
    case set([ArchiveNode], shared: (Int, String)?)
    /// An NSOrderedSet or NSMutableOrderedSet (`NS.objects`, or Apple's `NS.object.0`, `NS.object.1`, …).
    case orderedSet([ArchiveNode], shared: (Int, String)?)
    case dictionary([(ArchiveNode, ArchiveNode)], shared: (Int, String)?)
    case object(uid: Int, className: String, shared: Bool, fields: [(String, ArchiveNode)])
    /// An object already printed (or being printed: a cycle).
    case ref(uid: Int, className: String)
    /// An object below the depth limit.
    case truncated(uid: Int, className: String)
    /// A typed Foundation/AppKit value (NSColor, NSFont, NSIndexPath, NSValue, …): a short text and,
    /// for an attributed string, its runs (text, attributes) for the text form; `structure` is its
    /// `--json` form (`ArchiveJSON`), made when the view is `structured`.
    case typed(className: String, text: String, runs: [(String, String)], structure: PlistValue?)
}

/// Walks a ``KeyedArchiveGraph`` from `$top`, expanding each object once.
struct ArchiveView {
    let graph: KeyedArchiveGraph
    let maxDepth: Int
    /// References to each UID from the objects reachable from `$top` (and from `$top` itself).
    let inbound: [Int]
    private var expanded = Set<Int>()
    /// One unarchiver of the archive for its typed values (NSColor, NSFont, …).
    var decoder: KeyedUnarchiver?
    /// Whether a data value holding a binary property list (or a keyed archive) is shown decoded.
    var expandNested = false
    /// Nested property lists that did not decode, or would write more than the budget (they stay data).
    var nestedIssues: [NestedPlistIssue] = []
    /// What one nested property list may expand to when shown.
    var nestedBudget = OutputBudget.default
    /// Whether typed values get their `--json` structure (only then are objects inside them shown
    /// where they are met: the text form shows a typed value in one line).
    var structured = false
    /// What the typed values' structures may make in all, and the error that stopped one.
    var typedBudget: ArchiveJSON.Budget = ArchiveJSON.Budget(maxNodes: OutputBudget.default.maxValues)
    var typedError: PlistError?

    init(graph: KeyedArchiveGraph, maxDepth: Int) {
        self.graph = graph
        self.maxDepth = maxDepth
        var inbound = [Int](repeating: 0, count: graph.nodes.count)
        var seen = [Bool](repeating: false, count: graph.nodes.count)
        var queue: [Int] = []
        func visit(_ uids: [Int]) {
            for u in uids where u > 0 && u < inbound.count {
                inbound[u] += 1
                if !seen[u] {
                    seen[u] = true
                    queue.append(u)
                }
            }
        }
        for field in graph.top { visit(ArchiveView.uids(in: field.value)) }
        var next = 0
        while next < queue.count {
            if case .object(let o) = graph.nodes[queue[next]] { visit(o.references) }
            next += 1
        }
        self.inbound = inbound
    }

    /// The UIDs in a value, in order (iteratively).
    static func uids(in value: PlistValue) -> [Int] {
        var out: [Int] = []
        var stack = [value]
        while let v = stack.popLast() {
            switch v {
            case .uid(let u): out.append(Int(clamping: u))
            case .array(let a), .set(let a): stack.append(contentsOf: a.reversed())
            case .dictionary(let d):
                for entry in d.entries.reversed() { stack.append(contentsOf: [entry.value, entry.key]) }
            default: break
            }
        }
        return out
    }

    /// A plain value as nodes, UIDs shown as values (a nested plist's UIDs are not the outer graph's).
    static func plain(_ value: PlistValue, depth: Int) -> ArchiveNode {
        guard depth < 256 else { return .truncated(uid: -1, className: "nested value") }
        switch value {
        case .array(let a): return .array(a.map { plain($0, depth: depth + 1) }, shared: nil)
        case .set(let a): return .set(a.map { plain($0, depth: depth + 1) }, shared: nil)
        case .dictionary(let d):
            return .dictionary(
                d.entries.map { (plain($0.key, depth: depth + 1), plain($0.value, depth: depth + 1)) }, shared: nil)
        case .date(let d): return .date(d)
        default: return .value(value)
        }
    }

    /// A data value shown as the plist it holds, when it holds one (out of line: `build` recurses up to
    /// --max-depth levels, so its frame stays small).
    @inline(never)
    mutating func nestedData(_ value: PlistValue, depth: Int) -> ArchiveNode {
        if case .data(let d) = value, TypedStreamTool.isTypedStream(d) {
            return TypedStreamTool.nestedNode(d, depth: depth, issues: &nestedIssues, typedBudget: typedBudget)
        }
        let (expanded, issues) = value.expandingNestedPlists(budget: nestedBudget)
        nestedIssues += issues
        guard expanded != value else { return .value(value) }
        do {
            // A nested plist can share sub-trees as well as any other: measured before it is shown.
            try expanded.checkExpansion(nestedBudget, as: "a nested property list")
        } catch {
            nestedIssues.append(NestedPlistIssue(keyPath: .root, error: error))
            return .value(value)
        }
        return ArchiveView.plain(ArchiveView.unarchivingNested(expanded, sharedBudget: typedBudget), depth: depth)
    }

    mutating func build(_ value: PlistValue, depth: Int) -> ArchiveNode {
        switch value {
        case .uid(let u):
            let uid = Int(clamping: u)
            guard uid != 0, let node = graph.node(uid) else { return .null }
            switch node {
            case .null: return .null
            case .value(let v): return build(v, depth: depth)
            case .classDescription(let name, _): return .className(name)
            case .object(let o): return object(o, depth: depth)
            }
        case .array(let a):
            guard depth < maxDepth else { return .truncated(uid: -1, className: "array") }
            return .array(a.map { build($0, depth: depth + 1) }, shared: nil)
        case .set(let a):
            guard depth < maxDepth else { return .truncated(uid: -1, className: "set") }
            return .set(a.map { build($0, depth: depth + 1) }, shared: nil)
        case .dictionary(let d):
            guard depth < maxDepth else { return .truncated(uid: -1, className: "dictionary") }
            return .dictionary(
                d.entries.map { (build($0.key, depth: depth + 1), build($0.value, depth: depth + 1)) }, shared: nil)
        case .date(let d): return .date(d)
        case .data where expandNested: return nestedData(value, depth: depth)
        default: return .value(value)
        }
    }

    /// The plain value behind a field (following one UID to a value node).
    private func plain(_ v: PlistValue?) -> PlistValue? {
        guard let v else { return nil }
        if case .uid(let u) = v, case .value(let x)? = graph.node(Int(clamping: u)) { return x }
        return v
    }

    /// Foundation's plain value classes (NSDate, NSUUID, NSURL, NSString, NSData, NSNull), shown as
    /// values wherever they are referenced, read by the unarchiver's decoders through
    /// `KeyedArchiveGraph.foundationValue(at:using:)`: the one interpretation of these classes.
    private func foundationValue(_ o: KeyedArchiveGraph.Object) -> ArchiveNode? {
        switch graph.foundationValue(at: o.uid, using: decoder) {
        case .date(let d)?: return .date(d)
        case .uuid(let u)?: return .uuid(u)
        case .url(let u)?: return .url(u.absoluteString)
        case .string(let s)?: return .value(.string(s))
        case .data(let d)?: return .value(.data(d))
        case .nsNull?: return .null
        default: return nil
        }
    }

    /// This function recurses once per level (through `build`), so its frame must stay small: what
    /// comes before and after the members are built is out of line, and the members are built in
    /// plain loops (a closure and `map` would add two frames per level).
    private mutating func object(_ o: KeyedArchiveGraph.Object, depth: Int) -> ArchiveNode {
        if let shown = objectWithoutMembers(o, depth: depth) { return shown }
        let members = members(o)
        var keys: [ArchiveNode] = []
        var values: [ArchiveNode] = []
        values.reserveCapacity(members.values.count)
        if case .dictionary(let k, let v) = members {
            // Key, then value, entry by entry: the first place a shared object is met shows it.
            keys.reserveCapacity(k.count)
            for i in k.indices {
                keys.append(build(k[i], depth: depth + 1))
                values.append(build(v[i], depth: depth + 1))
            }
        } else {
            for value in members.values { values.append(build(value, depth: depth + 1)) }
        }
        return node(o, members, keys: keys, values: values)
    }

    /// An object shown without its members: a Foundation value, a typed value, a reference to an
    /// object shown already, or one below the depth limit; `nil` for an object to expand (marked
    /// expanded).
    @inline(never)
    private mutating func objectWithoutMembers(_ o: KeyedArchiveGraph.Object, depth: Int) -> ArchiveNode? {
        if let v = foundationValue(o) { return v }
        // The classes the unarchiver has typed decoders for are shown through them.
        if let typed = typedNode(o, depth: depth) { return typed }
        guard !expanded.contains(o.uid) else { return .ref(uid: o.uid, className: o.className) }
        guard depth < maxDepth else { return .truncated(uid: o.uid, className: o.className) }
        expanded.insert(o.uid)
        return nil
    }

    /// The node of an object expanded, from its members' nodes.
    @inline(never)
    private func node(_ o: KeyedArchiveGraph.Object, _ members: Members, keys: [ArchiveNode], values: [ArchiveNode])
        -> ArchiveNode
    {
        let shared = inbound.indices.contains(o.uid) && inbound[o.uid] > 1
        let marker = shared ? (o.uid, o.className) : nil
        switch members {
        case .dictionary: return .dictionary(Array(zip(keys, values)), shared: marker)
        case .orderedSet: return .orderedSet(values, shared: marker)
        case .array: return .array(values, shared: marker)
        case .set: return .set(values, shared: marker)
        case .fields(let names, _):
            return .object(uid: o.uid, className: o.className, shared: shared, fields: Array(zip(names, values)))
        }
    }

    /// What an object holds, as stored: a Foundation collection's members, or the fields of any other
    /// object (its values without a key last, as `$0`, `$1`, …).
    private enum Members {
        case dictionary(keys: [PlistValue], values: [PlistValue])
        case orderedSet([PlistValue])
        case array([PlistValue])
        case set([PlistValue])
        case fields(keys: [String], values: [PlistValue])

        /// The values (of a dictionary or fields), or members.
        var values: [PlistValue] {
            switch self {
            case .dictionary(_, let v), .fields(_, let v), .orderedSet(let v), .array(let v), .set(let v): v
            }
        }
    }

    @inline(never)
    private func members(_ o: KeyedArchiveGraph.Object) -> Members {
        let chain = Set(o.classChain + [o.className])
        func list(_ key: String) -> [PlistValue]? {
            if case .array(let a)? = plain(o[key]) { return a }
            return nil
        }
        if chain.contains("NSDictionary"), let keys = list("NS.keys"), let values = list("NS.objects"),
            keys.count == values.count
        {
            return .dictionary(keys: keys, values: values)
        }
        if chain.contains("NSOrderedSet"), let items = KeyedArchiveGraph.orderedSetMembers(o) {
            return .orderedSet(items)
        }
        if chain.contains("NSArray"), let items = list("NS.objects") { return .array(items) }
        if chain.contains("NSSet"), let items = list("NS.objects") { return .set(items) }
        var keys = o.fields.map(\.key)
        var values = o.fields.map(\.value)
        for (n, value) in o.unkeyed.enumerated() {
            keys.append("$\(n)")
            values.append(value)
        }
        return .fields(keys: keys, values: values)
    }

    /// A typed Foundation/AppKit value as a node, `nil` for other classes.
    @inline(never)
    private mutating func typedNode(_ o: KeyedArchiveGraph.Object, depth: Int) -> ArchiveNode? {
        guard let value = graph.typedValue(at: o.uid, using: decoder), let typed = value.typedDescription else {
            return nil
        }
        let structure = structured ? structure(of: value, className: typed.className, depth: depth) : nil
        guard case .attributedString(let a) = value else {
            return .typed(className: typed.className, text: typed.text, runs: [], structure: structure)
        }
        let runs = zip(a.runTexts, a.runs).map { text, run in
            let attributes = AnyArchived.dictionary(
                Dictionary(uniqueKeysWithValues: run.attributes.map { (AnyArchived.string($0.key), $0.value) }))
            return (text, ArchiveView.short(attributes))
        }
        return .typed(className: typed.className, text: Render.quoted(a.string), runs: runs, structure: structure)
    }

    /// The `--json` form of a typed value; an object of the archive inside it is shown as anywhere
    /// else (in full the first time, with its UID, then as a reference), data as any data value.
    private mutating func structure(of value: AnyArchived, className: String, depth: Int) -> PlistValue {
        do {
            return try ArchiveJSON.render(
                value, className: className, depth: depth, maxDepth: maxDepth, budget: typedBudget
            ) { part, d in
                switch part {
                case .object(let instance):
                    guard let uid = decoder?.uid(of: instance) else { return nil }
                    return ArchiveView.json(build(.uid(UInt64(uid)), depth: d))
                case .data(let data):
                    return expandNested ? ArchiveView.json(nestedData(.data(data), depth: d)) : nil
                }
            }
        } catch {
            if typedError == nil { typedError = error }
            return .null
        }
    }

    /// One line for an attribute dictionary.
    static func short(_ v: AnyArchived) -> String {
        guard case .dictionary(let d) = v else { return "" }
        let parts = d.compactMap { entry -> String? in
            guard case .string(let key) = entry.key else { return nil }
            let value: String
            if let typed = entry.value.typedDescription {
                value = typed.className + " " + typed.text
            } else {
                switch entry.value {
                case .string(let s): value = Render.quoted(s)
                case .integer(let i): value = String(i)
                case .real(let x): value = String(x)
                case .bool(let b): value = String(b)
                case .url(let u): value = u.absoluteString
                case .object(let o): value = "<\(o.className)>"
                default: value = "…"
                }
            }
            return key + ": " + value
        }
        return "{" + parts.sorted().joined(separator: ", ") + "}"
    }

    /// The `--json` form of a node (see the command's help).
    static func json(_ node: ArchiveNode) -> PlistValue {
        func tagged(_ pairs: [(String, PlistValue)]) -> PlistValue {
            .dictionary(PlistDictionary(pairs.map { (PlistValue.string($0.0), $0.1) }))
        }
        func wrap(_ value: PlistValue, _ shared: (Int, String)?) -> PlistValue {
            guard let (uid, name) = shared else { return value }
            return tagged([("$id", .int(uid)), ("$class", .string(name)), ("$value", value)])
        }
        switch node {
        case .null: return .null
        case .value(let v): return v
        case .date(let d): return .date(d)
        case .uuid(let u): return tagged([("$uuid", .string(u.uuidString))])
        case .url(let s): return tagged([("$url", .string(s))])
        case .className(let s): return tagged([("$classname", .string(s))])
        case .array(let items, let shared): return wrap(.array(items.map(json)), shared)
        case .set(let items, let shared): return wrap(.set(items.map(json)), shared)
        case .orderedSet(let items, let shared): return wrap(tagged([("$orderedSet", .array(items.map(json)))]), shared)
        case .dictionary(let entries, let shared):
            return wrap(.dictionary(PlistDictionary(entries.map { (json($0.0), json($0.1)) })), shared)
        case .object(let uid, let className, _, let fields):
            var pairs: [(String, PlistValue)] = [("$class", .string(className)), ("$id", .int(uid))]
            for (key, value) in fields { pairs.append((key.hasPrefix("$") ? "$" + key : key, json(value))) }
            return tagged(pairs)
        case .ref(let uid, let className):
            return tagged([("$ref", .int(uid)), ("$class", .string(className))])
        case .truncated(let uid, let className):
            return tagged([("$truncated", .int(uid)), ("$class", .string(className))])
        case .typed(_, _, _, let structure?):
            return structure
        case .typed(let className, _, _, nil):
            // Not met: every view that renders JSON is `structured`.
            return tagged([("$class", .string(className))])
        }
    }
}

/// The text form of an archive graph.
struct ArchiveRenderer {
    var palette: Palette

    func render(_ node: ArchiveNode, label: String?, indent: Int, into out: inout TextSink) {
        guard !out.isStopped else { return }
        let p = palette
        let pad = String(repeating: "  ", count: indent)
        let prefix = pad + (label ?? "")
        func id(_ shared: (Int, String)?) -> String {
            shared.map { p.paint("#\($0.0)", .marker) + " " } ?? ""
        }
        func block(_ head: String, _ open: String, _ close: String, _ children: [(String, ArchiveNode)]) {
            if children.isEmpty {
                out.line(prefix + head + p.paint(open + close, .punctuation))
                return
            }
            out.line(prefix + head + p.paint(open, .punctuation))
            for (childLabel, child) in children { render(child, label: childLabel, indent: indent + 1, into: &out) }
            out.line(pad + p.paint(close, .punctuation))
        }
        func indexed(_ items: [ArchiveNode]) -> [(String, ArchiveNode)] {
            items.enumerated().map {
                (p.paint(String($0.offset), .punctuation) + p.paint(" => ", .punctuation), $0.element)
            }
        }
        switch node {
        case .null: out.line(prefix + p.paint("nil", .literal))
        case .value(let v): out.line(prefix + (Render.scalar(v, p) ?? ""))
        case .date(let d): out.line(prefix + p.paint(Render.date(d), .date))
        case .uuid(let u): out.line(prefix + p.paint("UUID(\(u.uuidString))", .literal))
        case .url(let s): out.line(prefix + p.paint("URL(\(s))", .literal))
        case .className(let s): out.line(prefix + p.paint("<class \(s)>", .marker))
        case .ref(let uid, let className): out.line(prefix + p.paint("<ref #\(uid) \(className)>", .marker))
        case .truncated(let uid, let className):
            out.line(
                prefix + p.paint(uid < 0 ? "<depth limit \(className)>" : "<depth limit #\(uid) \(className)>", .marker)
            )
        case .array(let items, let shared): block(id(shared), "[", "]", indexed(items))
        case .set(let items, let shared), .orderedSet(let items, let shared):
            let tag = if case .set = node { "<set>" } else { "<ordered set>" }
            block(id(shared) + p.paint(tag, .marker) + " ", "[", "]", indexed(items))
        case .dictionary(let entries, let shared): block(id(shared), "{", "}", labelled(entries))
        case .object(let uid, let className, let shared, let fields):
            let head = p.paint(className, .className) + " " + (shared ? p.paint("#\(uid)", .marker) + " " : "")
            block(head, "{", "}", fields.map { (p.paint($0.0, .key) + p.paint(": ", .punctuation), $0.1) })
        case .typed(let className, let text, let runs, _):
            renderTyped(className, text, runs, prefix: prefix, pad: pad, into: &out)
        }
    }

    // Out of line: `render` recurses once per level, so its frame must stay small.

    /// A dictionary's entries as labelled children: `"key" => `.
    @inline(never)
    private func labelled(_ entries: [(ArchiveNode, ArchiveNode)]) -> [(String, ArchiveNode)] {
        let p = palette
        return entries.map { entry -> (String, ArchiveNode) in
            let key: String
            switch entry.0 {
            case .value(.string(let s)): key = p.paint(Render.quoted(s.string), .key)
            case .value(let v): key = Render.scalar(v, p) ?? "?"
            default:
                var keyOut = TextSink.collecting()
                render(entry.0, label: nil, indent: 0, into: &keyOut)
                key = String(decoding: keyOut.takeBytes(), as: UTF8.self).split(separator: "\n").joined(
                    separator: " ")
            }
            return (key + p.paint(" => ", .punctuation), entry.1)
        }
    }

    /// A typed value, with an attributed string's runs.
    @inline(never)
    private func renderTyped(
        _ className: String, _ text: String, _ runs: [(String, String)], prefix: String, pad: String,
        into out: inout TextSink
    ) {
        let p = palette
        let head = prefix + p.paint(className, .className) + " " + p.paint(text, .literal)
        guard !runs.isEmpty else {
            out.line(head)
            return
        }
        out.line(head + " " + p.paint("{", .punctuation))
        for (runText, attributes) in runs {
            out.line(pad + "  " + p.paint(Render.quoted(runText), .key) + p.paint(" => ", .punctuation) + attributes)
        }
        out.line(pad + p.paint("}", .punctuation))
    }
}
