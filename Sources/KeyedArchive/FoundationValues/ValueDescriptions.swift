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

extension ArchivedError: CustomStringConvertible {
    /// `NSCocoaErrorDomain 260 {NSFilePath: "/tmp/x"}` (the user info when not empty).
    public var description: String {
        "\(domain) \(code)"
            + (userInfo.isEmpty
                ? ""
                : " {"
                    + userInfo.keys.sorted().map { "\($0): " + (userInfo[$0].map(AnyArchived.shortText) ?? "") }
                    .joined(separator: ", ") + "}")
    }
}

extension ArchivedAffineTransform: CustomStringConvertible {
    /// `"[m11 m12 m21 m22 tX tY]"`, e.g. `"[2 0 0 2 10 -5]"`.
    public var description: String { "[" + coefficients.map(NumberText.format).joined(separator: " ") + "]" }
}

extension ArchivedPersonNameComponents: CustomStringConvertible {
    /// `"Dr. Jane Q. Public Jr. (nickname \"JQ\")"`: the parts in name order (`"{}"` when none).
    public var description: String {
        let name = [namePrefix, givenName, middleName, familyName, nameSuffix].compactMap { $0 }.joined(separator: " ")
        let nick = nickname.map { "(nickname \"\($0)\")" }
        let text = [name.isEmpty ? nil : name, nick].compactMap { $0 }.joined(separator: " ")
        return text.isEmpty ? "{}" : text
    }
}

extension ArchivedParagraphStyle: CustomStringConvertible {
    /// `"{alignment center, line spacing 2, tab stops [28, 56]}"`: the settings that are not the
    /// default (`"{default}"` when none).
    public var description: String {
        let alignments = ["left", "right", "center", "justified", "natural"]
        let modes = [
            "word wrapping", "char wrapping", "clipping", "truncating head", "truncating tail", "truncating middle",
        ]
        var parts: [String] = []
        if alignment != 0 {
            parts.append(
                "alignment " + (alignments.indices.contains(alignment) ? alignments[alignment] : "\(alignment)"))
        }
        if lineBreakMode != 0 {
            parts.append(
                "line break " + (modes.indices.contains(lineBreakMode) ? modes[lineBreakMode] : "\(lineBreakMode)"))
        }
        let names = [
            "line spacing", "paragraph spacing", "head indent", "first line head indent", "tail indent",
            "minimum line height", "maximum line height", "line height multiple", "paragraph spacing before",
            "default tab interval", "hyphenation factor",
        ]
        for ((_, path), name) in zip(Self.reals, names) where self[keyPath: path] != 0 {
            parts.append("\(name) \(NumberText.format(self[keyPath: path]))")
        }
        if let t = tighteningFactorForTruncation { parts.append("tightening factor \(NumberText.format(t))") }
        if headerLevel != 0 { parts.append("header level \(headerLevel)") }
        if let tabStops {
            parts.append("tab stops [" + tabStops.map { NumberText.format($0.location) }.joined(separator: ", ") + "]")
        }
        if baseWritingDirection == 0 { parts.append("left to right") }
        if baseWritingDirection == 1 { parts.append("right to left") }
        if allowsDefaultTighteningForTruncation { parts.append("allows tightening") }
        if let textLists, !textLists.isEmpty { parts.append("\(textLists.count) text lists") }
        if let textBlocks, !textBlocks.isEmpty { parts.append("\(textBlocks.count) text blocks") }
        if !otherFields.isEmpty { parts.append("\(otherFields.count) more settings") }
        return "{" + (parts.isEmpty ? "default" : parts.joined(separator: ", ")) + "}"
    }
}

extension ArchivedFontDescriptor: CustomStringConvertible {
    /// `"Helvetica 12pt"` when the attributes name a font and size, else the attributes
    /// (`{NSFontFamilyAttribute: "Menlo"}`).
    public var description: String {
        var head: [String] = []
        if let fontName { head.append(fontName) }
        if let pointSize { head.append("\(NumberText.format(pointSize))pt") }
        let rest = attributes.keys.filter { $0 != "NSFontNameAttribute" && $0 != "NSFontSizeAttribute" }.sorted()
        let shown = rest.map { "\($0): " + (attributes[$0].map(AnyArchived.shortText) ?? "") }
        return (head + (shown.isEmpty ? [] : ["{" + shown.joined(separator: ", ") + "}"])).joined(separator: " ")
    }
}

extension AnyArchived {
    /// The archived class a typed value is written as (`nil` for the plain values, collections and
    /// objects).
    package var typedClassName: String? {
        switch self {
        case .nsNull: "NSNull"
        case .indexPath: "NSIndexPath"
        case .indexSet(let s): s.isMutable ? "NSMutableIndexSet" : "NSIndexSet"
        case .locale: "NSLocale"
        case .timeZone: "NSTimeZone"
        case .geometry: "NSValue"
        case .regularExpression: "NSRegularExpression"
        case .color(let c): c.isUIColor ? "UIColor" : "NSColor"
        case .font(let f): f.isUIFont ? "UIFont" : "NSFont"
        case .dateComponents: "NSDateComponents"
        case .decimal: "NSDecimalNumber"
        case .error: "NSError"
        case .affineTransform: "NSAffineTransform"
        case .personNameComponents: "NSPersonNameComponents"
        case .paragraphStyle(let p): p.isMutable ? "NSMutableParagraphStyle" : "NSParagraphStyle"
        case .fontDescriptor(let d): d.isUIFontDescriptor ? "UIFontDescriptor" : "NSFontDescriptor"
        case .attributedString(let a): a.isMutable ? "NSMutableAttributedString" : "NSAttributedString"
        default: nil
        }
    }

    /// The archived class a typed value is written as, and a short text of it for people (nested
    /// values abridged: ``KeyedArchiveGraph/Resolved/typed(className:value:)`` and `bplist unarchive
    /// --json` carry the value itself); `nil` for other cases.
    public var typedDescription: (className: String, text: String)? {
        guard let className = typedClassName else { return nil }
        switch self {
        case .nsNull: return (className, "null")
        case .indexPath(let p): return (className, "\(Array(p))")
        case .indexSet(let s): return (className, s.description)
        case .locale(let l): return (className, l.description)
        case .timeZone(let z): return (className, z.description)
        case .geometry(let g): return (className, g.description)
        case .regularExpression(let e): return (className, e.description)
        case .color(let c): return (className, c.description)
        case .font(let f): return (className, f.description)
        case .dateComponents(let c): return (className, "{" + c.archiveDescription + "}")
        case .decimal(let d): return (className, d.description)
        case .error(let e): return (className, e.description)
        case .affineTransform(let t): return (className, t.description)
        case .personNameComponents(let p): return (className, p.description)
        case .paragraphStyle(let p): return (className, p.description)
        case .fontDescriptor(let d): return (className, d.description)
        case .attributedString(let a):
            let runs = zip(a.runTexts, a.runs).map { text, run in
                "\"\(text)\" {"
                    + run.attributes.keys.sorted().map { key in
                        "\(key): " + (run.attributes[key].map(AnyArchived.shortText) ?? "")
                    }.joined(separator: ", ") + "}"
            }
            return (className, "\"\(a.string)\"" + (runs.isEmpty ? "" : " runs: " + runs.joined(separator: ", ")))
        default: return nil
        }
    }

    /// A one-line text of a value (nested objects by class name only; past 256 values, `…`: a value
    /// decoded from a hostile file can share its parts so that writing them all out never ends).
    static func shortText(_ v: AnyArchived) -> String {
        var budget = 256
        return shortText(v, budget: &budget)
    }

    private static func shortText(_ v: AnyArchived, budget: inout Int) -> String {
        budget -= 1
        guard budget >= 0 else { return "…" }
        func shortText(_ v: AnyArchived) -> String { AnyArchived.shortText(v, budget: &budget) }
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
