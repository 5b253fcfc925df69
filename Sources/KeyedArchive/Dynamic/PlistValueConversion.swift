// Sources/KeyedArchive/Dynamic/PlistValueConversion.swift - A property-list value as the archived
// value it stands for: how a tool that reads a value as a property list (`--xml '<dict>…'`, a JSON
// fragment, `--integer 3`) puts it into an archive.

public import PropertyList

extension AnyArchived {
    /// The archived value a property-list value stands for: strings, numbers, booleans, dates and
    /// data as themselves, arrays as arrays (`NSArray`), sets as sets (`NSSet`), dictionaries as
    /// dictionaries (`NSDictionary`, keys of any kind), the null object as `$null`.
    ///
    /// ```swift
    /// let value = try AnyArchived(plistValue: ["theme": "dark", "size": 12])
    /// try graph.set(value, at: "root.settings")
    /// ```
    ///
    /// - Throws: ``KeyedArchiveError/Code/typeMismatch`` for a UID (a reference inside an archive,
    ///   with no value of its own), an integer outside `Int`, or nesting deeper than 512 levels.
    public init(plistValue: PlistValue) throws {
        self = try AnyArchived.converting(plistValue, depth: 0)
    }

    private static func converting(_ v: PlistValue, depth: Int) throws -> AnyArchived {
        guard depth < 512 else { throw KeyedArchiveError(.typeMismatch, "values nested deeper than 512 levels") }
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i):
            guard let n = Int(exactly: i) else {
                throw KeyedArchiveError(.typeMismatch, "integer \(i) does not fit Int")
            }
            return .integer(n)
        case .real(let d): return .real(d)
        case .date(let d): return .date(d)
        case .data(let d): return .data(d)
        case .string(let s): return .string(s.string)
        case .uid(let u):
            throw KeyedArchiveError(.typeMismatch, "UID \(u) is a reference inside an archive, not a value")
        case .array(let xs): return .array(try xs.map { try converting($0, depth: depth + 1) })
        case .set(let xs): return .set(Set(try xs.map { try converting($0, depth: depth + 1) }))
        case .dictionary(let d):
            var out: [AnyArchived: AnyArchived] = [:]
            for entry in d.entries {
                out[try converting(entry.key, depth: depth + 1)] = try converting(entry.value, depth: depth + 1)
            }
            return .dictionary(out)
        }
    }
}
