// Sources/PropertyList/Reading/KeyPath.swift - Lazy lookup of one value by key path.

extension BinaryPlistDocument {
    /// Finds the object at a key path without materialising anything on the way.
    ///
    /// Components are separated by `.`: a dictionary component is a string key, an array component a
    /// decimal index (`"$objects.3.name"`, `"people.0"`). Keys containing a dot can be reached with
    /// ``ref(at:)-([String])``.
    ///
    /// - Returns: The object's reference, or `nil` when a key is missing, an index is out of range or a
    ///   component meets a scalar.
    /// - Complexity: O(length of the path × size of the containers it passes through); independent of
    ///   the file size.
    public func ref(at keyPath: String) throws(PlistError) -> ObjectRef? {
        try ref(
            at: keyPath.isEmpty ? [] : keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// Finds the object at a path given as separate components.
    public func ref(at components: [String]) throws(PlistError) -> ObjectRef? {
        var current = root
        for component in components {
            switch try object(current) {
            case .array(let refs), .set(let refs):
                guard let i = Int(component), i >= 0, i < refs.count else { return nil }
                current = refs[i]
            case .dictionary(let keys, let values):
                var found: ObjectRef?
                // The last matching key wins, as in materialisation.
                for (i, k) in keys.enumerated() where try string(k, equals: component) {
                    found = values[i]
                }
                guard let found else { return nil }
                current = found
            default:
                return nil
            }
        }
        return current
    }

    /// The value at a key path, materialised (see ``ref(at:)-(String)``), or `nil` when absent.
    public func lookup(_ keyPath: String) throws(PlistError) -> PlistValue? {
        guard let r = try ref(at: keyPath) else { return nil }
        return try value(of: r)
    }
}
