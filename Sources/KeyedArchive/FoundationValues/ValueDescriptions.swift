// Sources/KeyedArchive/FoundationValues/ValueDescriptions.swift - How the typed values read as
// text: what `bplist unarchive` and `KeyedArchiveGraph.resolve` show instead of the archive's
// internal fields (`NSRGB`, `NSIndexPathData`, `NS.rectval`, `NSAttributeInfo`, …).

extension ArchivedIndexSet: CustomStringConvertible {
    /// `"[0...49, 100...149]"`.
    public var description: String {
        "["
            + ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound - 1)" }
            .joined(separator: ", ") + "]"
    }
}

extension ArchivedLocale: CustomStringConvertible {
    /// `"fr_FR"` (quoted).
    public var description: String { "\"\(identifier)\"" }
}

extension ArchivedTimeZone: CustomStringConvertible {
    /// `"Europe/Paris" (rules: 1,234 bytes)`.
    public var description: String { "\"\(name)\"" + (data.map { " (rules: \($0.count) bytes)" } ?? "") }
}

extension ArchivedGeometry: CustomStringConvertible {
    /// `"rect {{x, y}, {w, h}}"`, `"range {location, length}"`, ….
    public var description: String {
        let f = NumberText.format
        switch self {
        case .point(let x, let y): return "point {\(f(x)), \(f(y))}"
        case .size(let w, let h): return "size {\(f(w)), \(f(h))}"
        case .rect(let x, let y, let w, let h): return "rect {{\(f(x)), \(f(y))}, {\(f(w)), \(f(h))}}"
        case .range(let l, let n): return "range {\(l), \(n)}"
        case .edgeInsets(let t, let l, let b, let r):
            return "edge insets {top \(f(t)), left \(f(l)), bottom \(f(b)), right \(f(r))}"
        }
    }
}

extension ArchivedRegularExpression: CustomStringConvertible {
    /// `"/a+b/"`, with `" options 1"` when there are options.
    public var description: String { "/\(pattern)/" + (options == 0 ? "" : " options \(options)") }
}

extension ArchivedColor: CustomStringConvertible {
    /// `"device RGB 0.0078 0.1686 0.2118 (#022B36)"`, `"named System/controlColor"`, ….
    public var description: String {
        let spaces = [
            1: "calibrated RGB", 2: "device RGB", 3: "calibrated white", 4: "device white", 5: "device CMYK",
            6: "named", 10: "component",
        ]
        var s = spaces[colorSpace] ?? "colour space \(colorSpace)"
        if colorSpace == 6 {
            s += " " + [catalogName, colorName].compactMap { $0 }.joined(separator: "/")
        }
        let shown = spaceComponents ?? components
        if !shown.isEmpty { s += " " + shown.map(NumberText.format).joined(separator: " ") }
        if let hex { s += " (\(hex))" }
        if iccProfile != nil { s += " [ICC profile]" }
        return s
    }
}

extension ArchivedFont: CustomStringConvertible {
    /// `"Monaco 11pt"`.
    public var description: String { "\(name) \(NumberText.format(size))pt" }
}

extension AnyArchived {
    /// The archived class a typed value is written as, and its text (`nil` for other cases).
    public var typedDescription: (className: String, text: String)? {
        switch self {
        case .nsNull: return ("NSNull", "null")
        case .indexPath(let p): return ("NSIndexPath", "\(Array(p))")
        case .indexSet(let s): return (s.isMutable ? "NSMutableIndexSet" : "NSIndexSet", s.description)
        case .locale(let l): return ("NSLocale", l.description)
        case .timeZone(let z): return ("NSTimeZone", z.description)
        case .geometry(let g): return ("NSValue", g.description)
        case .regularExpression(let e): return ("NSRegularExpression", e.description)
        case .color(let c): return (c.isUIColor ? "UIColor" : "NSColor", c.description)
        case .font(let f): return (f.isUIFont ? "UIFont" : "NSFont", f.description)
        case .dateComponents(let c): return ("NSDateComponents", "{" + c.archiveDescription + "}")
        case .attributedString(let a):
            let runs = zip(a.runTexts, a.runs).map { text, run in
                "\"\(text)\" {"
                    + run.attributes.keys.sorted().map { key in
                        "\(key): " + (run.attributes[key].map(AnyArchived.shortText) ?? "")
                    }.joined(separator: ", ") + "}"
            }
            return (
                a.isMutable ? "NSMutableAttributedString" : "NSAttributedString",
                "\"\(a.string)\"" + (runs.isEmpty ? "" : " runs: " + runs.joined(separator: ", "))
            )
        default: return nil
        }
    }

    /// A one-line text of a value (nested objects by class name only).
    static func shortText(_ v: AnyArchived) -> String {
        if let typed = v.typedDescription { return typed.className + " " + typed.text }
        switch v {
        case .null: return "nil"
        case .bool(let b): return String(b)
        case .integer(let i): return String(i)
        case .real(let d): return NumberText.format(d)
        case .string(let s): return "\"\(s)\""
        case .data(let d): return "<\(d.count) bytes>"
        case .date(let d): return "\(d)"
        case .uuid(let u): return u.uuidString
        case .url(let u): return u.absoluteString
        case .array(let a), .orderedSet(let a): return "[" + a.map(shortText).joined(separator: ", ") + "]"
        case .set(let s): return "{" + s.map(shortText).sorted().joined(separator: ", ") + "}"
        case .dictionary(let d):
            return "{" + d.map { shortText($0.key) + ": " + shortText($0.value) }.sorted().joined(separator: ", ") + "}"
        case .object(let o): return "<\(o.className)>"
        default: return ""
        }
    }
}
