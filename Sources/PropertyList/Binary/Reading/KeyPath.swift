// Sources/PropertyList/Binary/Reading/KeyPath.swift - Lazy lookup of one value by key path.

extension BinaryPlistDocument {
    /// Finds the object at a key path without materialising anything on the way.
    ///
    /// A dictionary component is a string key (when a binary dictionary repeats a key, the last one
    /// wins, as in materialisation); an array or set component is a decimal position.
    ///
    /// ```swift
    /// let ref = try doc.ref(at: ["$objects", 3, "name"])                      // components
    /// let sandbox = try doc.lookup("com\\.apple\\.security\\.app-sandbox")   // plutil's `\.`
    /// let typed = try doc.lookup(PlistKeyPath(parsing: userInput))             // text read at run time
    /// ```
    ///
    /// - Returns: The object's reference, or `nil` when a key is missing, a position is out of range
    ///   or the path goes through a scalar (``resolve(_:)`` says which).
    /// - Throws: Only the format errors of the objects read on the way.
    /// - Complexity: O(length of the path × size of the containers it passes through); independent of
    ///   the file size.
    public func ref(at keyPath: PlistKeyPath) throws(PlistError) -> ObjectRef? {
        switch try walk(keyPath) {
        case .success(let ref): ref
        case .failure: nil
        }
    }

    /// Finds the object at a key path, or says why there is none.
    ///
    /// - Throws: ``PlistError`` with code `keyNotFound`, `indexOutOfRange` or `notAContainer` naming the
    ///   failing place in ``PlistError/keyPath`` (as ``PlistValue/value(at:)`` does), or the format
    ///   error of an object read on the way.
    public func resolve(_ keyPath: PlistKeyPath) throws(PlistError) -> ObjectRef {
        try walk(keyPath).get()
    }

    /// The value at a key path, materialised (see ``ref(at:)``), or `nil` when absent.
    public func lookup(_ keyPath: PlistKeyPath) throws(PlistError) -> PlistValue? {
        guard let r = try ref(at: keyPath) else { return nil }
        return try value(of: r)
    }

    /// The walk of ``ref(at:)``: the reference, or the error naming where the path
    /// ends; format errors are thrown.
    func walk(_ keyPath: PlistKeyPath) throws(PlistError) -> Result<ObjectRef, PlistError> {
        var current = root
        for (depth, component) in keyPath.components.enumerated() {
            let object = try object(current)
            switch object {
            case .array(let refs), .set(let refs):
                guard let i = component.index, i >= 0, i < refs.count else {
                    return .failure(EditFailure.badPosition(keyPath, depth, count: refs.count, kind: object.kind))
                }
                current = refs[i]
            case .dictionary(let keys, let values):
                var found: ObjectRef?
                // The last matching key wins, as in materialisation.
                for (i, k) in keys.enumerated() where try string(k, equals: component.key) {
                    found = values[i]
                }
                guard let found else { return .failure(EditFailure.keyNotFound(keyPath, depth)) }
                current = found
            default:
                return .failure(EditFailure.scalar(object.kind, keyPath, depth))
            }
        }
        return .success(current)
    }
}
