// Sources/KeyedArchive/AnyArchived/AnyArchivedDescription.swift - A value read from an archive, printed as
// a person reads it: the indented tree of `plutil -p`, objects with their class.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension AnyArchived: CustomStringConvertible {
    /// The value as `plutil -p` shows a property list, with archived objects and Foundation values
    /// named by class:
    ///
    /// ```
    /// <XWZPerson> {
    ///   "dog" => <XWZDog> {
    ///     "name" => "Rex"
    ///   }
    ///   "name" => "Ada"
    ///   "tags" => [
    ///     0 => "admin"
    ///   ]
    /// }
    /// ```
    ///
    /// An object met again on the same branch (a cycle) is shown as `<XWZPerson> (cycle)`; nesting
    /// past 256 levels as `…`. Dictionary entries and fields are in key order.
    public var description: String {
        var lines: [String] = []
        var open: Set<ObjectIdentifier> = []
        AnyArchived.describe(self, prefix: "", indent: 0, into: &lines, open: &open)
        return lines.joined(separator: "\n")
    }

    /// Appends the lines of `value` (the first starting with `prefix`).
    private static func describe(
        _ value: AnyArchived, prefix: String, indent: Int, into lines: inout [String], open: inout Set<ObjectIdentifier>
    ) {
        let pad = String(repeating: "  ", count: indent)
        guard indent < 256 else {
            lines.append(prefix + "…")
            return
        }
        func children(_ head: String, _ items: [(String, AnyArchived)], close: String) {
            guard !items.isEmpty else {
                lines.append(prefix + head + (close == "}" ? "{}" : "[]"))
                return
            }
            lines.append(prefix + head + (close == "}" ? "{" : "["))
            for (label, child) in items {
                describe(child, prefix: pad + "  " + label + " => ", indent: indent + 1, into: &lines, open: &open)
            }
            lines.append(pad + close)
        }
        switch value {
        case .array(let elements):
            children("", elements.enumerated().map { (String($0.offset), $0.element) }, close: "]")
        case .orderedSet(let elements):
            children("<ordered set> ", elements.enumerated().map { (String($0.offset), $0.element) }, close: "]")
        case .set(let members):
            let sorted = members.sorted { shortText($0) < shortText($1) }
            children("<set> ", sorted.enumerated().map { (String($0.offset), $0.element) }, close: "]")
        case .dictionary(let entries):
            let sorted = entries.map { (shortText($0.key), $0.value) }.sorted { $0.0 < $1.0 }
            children("", sorted, close: "}")
        case .object(let instance):
            let id = ObjectIdentifier(instance)
            let (className, fields, unkeyed) = instance.update { ($0.className, $0.fields, $0.unkeyed) }
            guard !open.contains(id) else {
                lines.append(prefix + "<\(className)> (cycle)")
                return
            }
            open.insert(id)
            defer { open.remove(id) }
            let items =
                fields.keys.sorted().map { (quoted($0), fields[$0] ?? .null) }
                + unkeyed.enumerated().map { ("$\($0.offset)", $0.element) }
            children("<\(className)> ", items, close: "}")
        case .string(let s):
            lines.append(prefix + quoted(s))
        default:
            lines.append(prefix + shortText(value))
        }
    }

    /// `"text"` with quotes and control characters escaped.
    private static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
