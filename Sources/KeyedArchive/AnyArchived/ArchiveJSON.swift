// Sources/KeyedArchive/AnyArchived/ArchiveJSON.swift - Any archived value as structure, in the JSON of
// `bplist unarchive --json` (a `PlistValue` the typed JSON writer writes): every typed Foundation and
// AppKit value an object of its class and its fields, every nested value rendered the same way,
// nothing elided and no description standing for a value. Keyed archives and typedstreams are
// rendered by this one function.
//
//   typed value          {"$class": "NSColor", "colorSpace": 2, "components": [...], ...}
//   object               {"$class": "XWZDog", "name": ..., "$$0": ...} (or what the caller's hook
//                        makes of it: the tool shows an archive's own objects with their UID)
//   array, set           [...], {"$set": [...]}     ordered set {"$orderedSet": [...]}
//   dictionary           {"key": ...}, or {"$dict": [[key, value], ...]} when a key is not a string
//   UUID, URL            {"$uuid": "..."}, {"$url": "..."}
//   scalars              as the canonical JSON writes a PlistValue (reals {"$real"}, data {"$data"},
//                        dates {"$date"}); nil and NSNull are null
//
// The fields of each typed value are the properties of its Swift type (`ArchivedColor.colorSpace`,
// `ArchivedAttributedString.runs`, …), so their documentation is the one of those types.

package import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Renders ``AnyArchived`` values as `PlistValue`s in the shape of `bplist unarchive --json`.
package enum ArchiveJSON {
    /// What a caller may render its own way: an object, or data (which may hold a nested archive).
    package enum Part {
        case object(ArchivedInstance)
        case data(Data)
    }

    /// What the renderings for one output may produce in all, shared by every value rendered for it
    /// (nested archives included): nodes, each counted as it is made, so that a value whose parts are
    /// shared many times cannot build more than the budget.
    package final class Budget {
        /// The most nodes rendered in all.
        package let maxNodes: Int
        /// Nodes rendered so far.
        package private(set) var nodes = 0
        /// Objects being rendered inline (cycles among them are shown as `{"$cycle": class}`).
        var open = Set<ObjectIdentifier>()

        package init(maxNodes: Int) {
            self.maxNodes = maxNodes
        }

        /// The budget for the typed values of an input of `inputBytes` bytes: `budget.maxValues`
        /// nodes, and at most 256 per input byte (at least 1 << 20). A typed value is a value: the
        /// parts it shares are rendered once per reference, and are built before the output budget
        /// can be checked, so a few hundred hostile bytes must not get to build 50 million nodes.
        package convenience init(_ budget: OutputBudget, inputBytes: Int) {
            let perInputByte = inputBytes > Int.max / 256 ? Int.max : inputBytes * 256
            self.init(maxNodes: min(budget.maxValues, max(1 << 20, perInputByte)))
        }

        /// Counts `n` nodes; throws `limitExceeded` once past the budget.
        func count(_ n: Int = 1) throws(PlistError) {
            nodes = nodes &+ n
            guard nodes <= maxNodes else {
                throw PlistError(
                    .limitExceeded,
                    "the typed values would write more than \(maxNodes) nodes (the output budget's maxValues, "
                        + "and at most 256 per input byte): they share values that the JSON repeats once per reference")
            }
        }
    }

    /// `value` in the shape of `bplist unarchive --json`.
    ///
    /// - Parameters:
    ///   - className: The class to name a typed value by (the archive's own class name), instead of
    ///     the one its case implies (`NSColor` for a colour).
    ///   - depth: The nesting of `value` in the output (the caller's levels count).
    ///   - maxDepth: Nesting at which a value is shown as `{"$truncated": -1, "$class": kind}`.
    ///   - part: Renders an ``ArchivedInstance`` or data met inside the value, at a depth; `nil`
    ///     renders it here: data as `{"$data": …}`, an object inline (its class, its fields, its
    ///     values without a key as `$$0`, `$$1`, …).
    /// - Throws: `limitExceeded` when the budget's nodes run out.
    package static func render(
        _ value: AnyArchived, className: String? = nil, depth: Int, maxDepth: Int, budget: Budget,
        part: (Part, Int) -> PlistValue?
    ) throws(PlistError) -> PlistValue {
        try budget.count()
        guard depth < maxDepth else {
            return tagged([("$truncated", .int(-1)), ("$class", string(className ?? value.kindName))])
        }
        func r(_ v: AnyArchived) throws(PlistError) -> PlistValue {
            try render(v, depth: depth + 1, maxDepth: maxDepth, budget: budget, part: part)
        }
        switch value {
        case .null, .nsNull: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .int(i)
        case .real(let d): return .real(d)
        case .string(let s): return string(s)
        case .data(let d): return part(.data(d), depth) ?? .data(d)
        case .date(let d): return .date(d)
        case .uuid(let u): return tagged([("$uuid", string(u.uuidString))])
        case .url(let u): return tagged([("$url", string(u.absoluteString))])
        case .array(let xs): return .array(try list(xs, r))
        case .orderedSet(let xs): return tagged([("$orderedSet", .array(try list(xs, r)))])
        case .set(let members): return .set(try sorted(list(Array(members), r)))
        case .dictionary(let d): return try dictionary(d, budget, r)
        case .object(let instance):
            if let shown = part(.object(instance), depth) { return shown }
            return try inline(instance, depth: depth, maxDepth: maxDepth, budget: budget, part: part)
        default:
            let name = className ?? value.typedClassName ?? value.kindName
            return tagged([("$class", string(name))] + (try fields(of: value, budget, r)))
        }
    }

    /// The fields of a typed value (every case but the plain values and collections above).
    private static func fields(
        of value: AnyArchived, _ b: Budget, _ r: (AnyArchived) throws(PlistError) -> PlistValue
    ) throws(PlistError) -> [(String, PlistValue)] {
        switch value {
        case .indexPath(let p):
            try b.count(p.count)
            return [("indexes", .array(p.map { .int($0) }))]
        case .indexSet(let s):
            try b.count(s.ranges.count &* 3)
            return [("ranges", .array(s.ranges.map(range)))]
        case .locale(let l): return [("identifier", string(l.identifier))]
        case .timeZone(let z): return [("name", string(z.name))] + optional("data", z.data.map(PlistValue.data))
        case .geometry(let g): return geometry(g)
        case .regularExpression(let e): return [("pattern", string(e.pattern)), ("options", .int(e.options))]
        case .color(let c):
            try b.count(c.components.count &+ (c.spaceComponents?.count ?? 0))
            return color(c)
        case .font(let f):
            return [("name", string(f.name)), ("size", .real(f.size))] + optional("flags", f.flags.map(PlistValue.int))
        case .attributedString(let a): return try attributedString(a, b, r)
        case .dateComponents(let c): return dateComponents(c)
        case .decimal(let d): return [("decimal", string(d.description))]
        case .error(let e):
            return [
                ("domain", string(e.domain)), ("code", .int(e.code)), ("userInfo", try stringKeyed(e.userInfo, b, r)),
            ]
        case .affineTransform(let t):
            return [("m11", t.m11), ("m12", t.m12), ("m21", t.m21), ("m22", t.m22), ("tX", t.tX), ("tY", t.tY)].map {
                ($0.0, PlistValue.real($0.1))
            }
        case .personNameComponents(let p):
            let parts: [(String, String?)] = [
                ("namePrefix", p.namePrefix), ("givenName", p.givenName), ("middleName", p.middleName),
                ("familyName", p.familyName), ("nameSuffix", p.nameSuffix), ("nickname", p.nickname),
            ]
            return parts.compactMap { name, part in part.map { (name, string($0)) } }
        case .paragraphStyle(let p): return try paragraphStyle(p, b, r)
        case .fontDescriptor(let d):
            return [("attributes", try stringKeyed(d.attributes, b, r))]
                + optional("options", d.options.map(PlistValue.int))
        default: return []
        }
    }

    // Out of line, one per kind of value: `render` recurses once per level, so its frame stays small.

    @inline(never)
    private static func color(_ c: ArchivedColor) -> [(String, PlistValue)] {
        var out: [(String, PlistValue)] = [
            ("colorSpace", .int(c.colorSpace)), ("components", .array(c.components.map(PlistValue.real))),
        ]
        out += optional("spaceComponents", c.spaceComponents.map { .array($0.map(PlistValue.real)) })
        out += optional("iccProfile", c.iccProfile.map(PlistValue.data))
        out += optional("colorSpaceID", c.colorSpaceID.map(PlistValue.int))
        out += optional("catalogName", c.catalogName.map(string))
        out += optional("colorName", c.colorName.map(string))
        return out
    }

    @inline(never)
    private static func attributedString(
        _ a: ArchivedAttributedString, _ b: Budget, _ r: (AnyArchived) throws(PlistError) -> PlistValue
    ) throws(PlistError) -> [(String, PlistValue)] {
        var runs: [PlistValue] = []
        runs.reserveCapacity(a.runs.count)
        for run in a.runs {
            try b.count()
            runs.append(
                tagged([
                    ("location", .int(run.range.lowerBound)), ("length", .int(run.range.count)),
                    ("attributes", try stringKeyed(run.attributes, b, r)),
                ]))
        }
        return [("string", string(a.string)), ("runs", .array(runs))]
    }

    @inline(never)
    private static func paragraphStyle(
        _ p: ArchivedParagraphStyle, _ b: Budget, _ r: (AnyArchived) throws(PlistError) -> PlistValue
    ) throws(PlistError) -> [(String, PlistValue)] {
        var out: [(String, PlistValue)] = [
            ("alignment", .int(p.alignment)), ("lineBreakMode", .int(p.lineBreakMode)),
            ("lineSpacing", .real(p.lineSpacing)), ("paragraphSpacing", .real(p.paragraphSpacing)),
            ("headIndent", .real(p.headIndent)), ("firstLineHeadIndent", .real(p.firstLineHeadIndent)),
            ("tailIndent", .real(p.tailIndent)), ("minimumLineHeight", .real(p.minimumLineHeight)),
            ("maximumLineHeight", .real(p.maximumLineHeight)), ("lineHeightMultiple", .real(p.lineHeightMultiple)),
            ("paragraphSpacingBefore", .real(p.paragraphSpacingBefore)),
            ("defaultTabInterval", .real(p.defaultTabInterval)), ("hyphenationFactor", .real(p.hyphenationFactor)),
            ("headerLevel", .int(p.headerLevel)), ("baseWritingDirection", .int(p.baseWritingDirection)),
            ("allowsDefaultTighteningForTruncation", .bool(p.allowsDefaultTighteningForTruncation)),
        ]
        out += optional("tighteningFactorForTruncation", p.tighteningFactorForTruncation.map(PlistValue.real))
        if let tabs = p.tabStops {
            var stops: [PlistValue] = []
            for tab in tabs {
                try b.count()
                var fields: [(String, PlistValue)] = [("location", .real(tab.location))]
                fields += optional("alignment", tab.alignment.map(PlistValue.int))
                if !tab.otherFields.isEmpty { fields.append(("otherFields", try stringKeyed(tab.otherFields, b, r))) }
                stops.append(tagged(fields))
            }
            out.append(("tabStops", .array(stops)))
        }
        if let blocks = p.textBlocks { out.append(("textBlocks", .array(try list(blocks, r)))) }
        if let lists = p.textLists { out.append(("textLists", .array(try list(lists, r)))) }
        if !p.otherFields.isEmpty { out.append(("otherFields", try stringKeyed(p.otherFields, b, r))) }
        return out
    }

    private static func geometry(_ g: ArchivedGeometry) -> [(String, PlistValue)] {
        func reals(_ pairs: [(String, Double)]) -> PlistValue { tagged(pairs.map { ($0.0, PlistValue.real($0.1)) }) }
        switch g {
        case .point(let x, let y): return [("point", reals([("x", x), ("y", y)]))]
        case .size(let w, let h): return [("size", reals([("width", w), ("height", h)]))]
        case .rect(let x, let y, let w, let h):
            return [("rect", reals([("x", x), ("y", y), ("width", w), ("height", h)]))]
        case .range(let l, let n): return [("range", tagged([("location", .int(l)), ("length", .int(n))]))]
        case .edgeInsets(let t, let l, let b, let rt):
            return [("edgeInsets", reals([("top", t), ("left", l), ("bottom", b), ("right", rt)]))]
        }
    }

    /// The geometry of an `NSValue` (or of a typedstream structure read as one), as its fields.
    package static func geometryFields(_ g: ArchivedGeometry) -> [(String, PlistValue)] { geometry(g) }

    private static func dateComponents(_ c: DateComponents) -> [(String, PlistValue)] {
        var out: [(String, PlistValue)] = []
        for (key, path) in DateComponents.integerFields {
            guard let v = c[keyPath: path] else { continue }
            let name = String(key.dropFirst(3))
            out.append((name == "nanosec" ? "nanosecond" : name == "yearForWOY" ? "yearForWeekOfYear" : name, .int(v)))
        }
        if let leap = c.isLeapMonth { out.append(("isLeapMonth", .bool(leap))) }
        return out
    }

    /// An object rendered inline: class, fields in key order (a key starting with `$` gets one more
    /// `$`), then the values without a key as `$$0`, `$$1`, ….
    private static func inline(
        _ instance: ArchivedInstance, depth: Int, maxDepth: Int, budget: Budget, part: (Part, Int) -> PlistValue?
    ) throws(PlistError) -> PlistValue {
        let (className, fields, unkeyed) = instance.update { ($0.className, $0.fields, $0.unkeyed) }
        let id = ObjectIdentifier(instance)
        guard budget.open.insert(id).inserted else { return tagged([("$cycle", string(className))]) }
        defer { budget.open.remove(id) }
        var out: [(String, PlistValue)] = [("$class", string(className))]
        for key in fields.keys.sorted() {
            guard let v = fields[key] else { continue }
            try budget.count()
            out.append(
                (
                    key.hasPrefix("$") ? "$" + key : key,
                    try render(v, depth: depth + 1, maxDepth: maxDepth, budget: budget, part: part)
                ))
        }
        for (n, v) in unkeyed.enumerated() {
            try budget.count()
            out.append(("$$\(n)", try render(v, depth: depth + 1, maxDepth: maxDepth, budget: budget, part: part)))
        }
        return tagged(out)
    }

    // MARK: - Helpers

    private static func list(_ xs: [AnyArchived], _ r: (AnyArchived) throws(PlistError) -> PlistValue)
        throws(PlistError) -> [PlistValue]
    {
        var out: [PlistValue] = []
        out.reserveCapacity(xs.count)
        for x in xs { out.append(try r(x)) }
        return out
    }

    /// A dictionary: string keys as a JSON object, any other key in the `$dict` form, its entries in
    /// the order of their keys' JSON text (a Swift dictionary has no order of its own).
    private static func dictionary(
        _ d: [AnyArchived: AnyArchived], _ b: Budget, _ r: (AnyArchived) throws(PlistError) -> PlistValue
    ) throws(PlistError) -> PlistValue {
        var entries: [(PlistValue, PlistValue)] = []
        entries.reserveCapacity(d.count)
        for (k, v) in d {
            try b.count()
            entries.append((try r(k), try r(v)))
        }
        if !entries.allSatisfy({ $0.0.stringValue != nil }) {
            let keyed = try entries.map { (entry) throws(PlistError) in (try sortKey(entry.0), entry) }
            entries = keyed.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return .dictionary(PlistDictionary(entries))
    }

    /// A dictionary with string keys (attributes, user info).
    private static func stringKeyed(
        _ d: [String: AnyArchived], _ b: Budget, _ r: (AnyArchived) throws(PlistError) -> PlistValue
    ) throws(PlistError) -> PlistValue {
        var entries: [(PlistValue, PlistValue)] = []
        entries.reserveCapacity(d.count)
        for key in d.keys.sorted() {
            guard let v = d[key] else { continue }
            try b.count()
            entries.append((string(key), try r(v)))
        }
        return .dictionary(PlistDictionary(entries))
    }

    /// A set's members in the order of their JSON text (a Swift set has no order of its own).
    private static func sorted(_ members: [PlistValue]) throws(PlistError) -> [PlistValue] {
        let keyed = try members.map { (m) throws(PlistError) in (try sortKey(m), m) }
        return keyed.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func sortKey(_ v: PlistValue) throws(PlistError) -> String { try v.canonicalJSON() }

    private static func range(_ r: Range<Int>) -> PlistValue {
        tagged([("location", .int(r.lowerBound)), ("length", .int(r.count))])
    }

    private static func optional(_ key: String, _ value: PlistValue?) -> [(String, PlistValue)] {
        value.map { [(key, $0)] } ?? []
    }

    private static func string(_ s: String) -> PlistValue { .string(PlistString(s)) }

    private static func tagged(_ pairs: [(String, PlistValue)]) -> PlistValue {
        .dictionary(PlistDictionary(pairs.map { (PlistValue.string(PlistString($0.0)), $0.1) }))
    }
}
