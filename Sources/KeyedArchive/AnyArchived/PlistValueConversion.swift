// Sources/KeyedArchive/AnyArchived/PlistValueConversion.swift - A property-list value as the archived
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
    /// - Throws: `typeMismatch` for a UID (a reference inside an archive,
    ///   with no value of its own) or an integer outside `Int`; `limitExceeded`
    ///   for nesting deeper than 512 levels.
    public init(plistValue: PlistValue) throws(KeyedArchiveError) {
        self = try KeyedArchiveError.catching { () throws in
            try AnyArchived.converting(plistValue, depth: 0) { u in
                throw KeyedArchiveError(.typeMismatch, "UID \(u) is a reference inside an archive, not a value")
            }
        }
    }

    /// `v` as an archived value, where `uid` says what a UID stands for: nothing outside an archive
    /// (an error, above), the object it names inside one (`KeyedArchiveGraph`'s stored values).
    static func converting(
        _ v: PlistValue, depth: Int, uid: (UInt64) throws -> AnyArchived
    ) throws -> AnyArchived {
        guard depth < 512 else { throw KeyedArchiveError(.limitExceeded, "values nested deeper than 512 levels") }
        func nested(_ x: PlistValue) throws -> AnyArchived { try converting(x, depth: depth + 1, uid: uid) }
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
        case .uid(let u): return try uid(u)
        case .array(let xs): return .array(try xs.map(nested))
        case .set(let xs): return .set(Set(try xs.map(nested)))
        case .dictionary(let d):
            var out: [AnyArchived: AnyArchived] = [:]
            for entry in d.entries {
                out[try nested(entry.key)] = try nested(entry.value)
            }
            return .dictionary(out)
        }
    }
}
