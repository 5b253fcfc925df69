// Sources/PropertyList/Editing/PlistEdit.swift - The one edit vocabulary: the same verbs, key paths
// and error codes for a property-list value (`PlistValue.apply`) and a keyed archive's object graph
// (`KeyedArchiveGraph.apply`).

/// One change to a property list or an archive, named by key path: what ``PlistValue/apply(_:)-([PlistEdit<PlistValue>])``
/// and `KeyedArchiveGraph.apply(_:)` apply in order.
///
/// `Value` is what the edit puts in place: a ``PlistValue`` for property lists, an `AnyArchived` (any
/// archivable value, objects included) for keyed archives. The verbs mean the same in both:
///
/// ```swift
/// try settings.apply([.set("dark", at: "appearance.theme"), .remove(at: "cache")])
/// try graph.apply([.set("dark", at: "root.appearance.theme"), .append("notes.txt", to: "root.recent")])
/// ```
///
/// Errors are the same codes everywhere: `keyNotFound` (a missing key on the way, or the key a
/// `replace` or `remove` names), `indexOutOfRange`, `notAContainer` (the path goes through a value
/// without members), `alreadyExists` (an `insert` under a key that is there).
public enum PlistEdit<Value> {
    /// Adds a value: under a key that must not exist yet, or at a position of an array (the
    /// elements from there on move up one; the position may equal the count). With
    /// `creatingParents`, missing dictionaries on the way are created.
    case insert(Value, at: PlistKeyPath, creatingParents: Bool = false)
    /// Replaces the value at a key path, which must exist.
    case replace(Value, at: PlistKeyPath)
    /// Replaces the value at a key path, or adds it when its last key is absent (a position must
    /// exist). With `creatingParents`, missing dictionaries on the way are created.
    case set(Value, at: PlistKeyPath, creatingParents: Bool = false)
    /// Removes the entry or element at a key path, which must exist.
    case remove(at: PlistKeyPath)
    /// Adds a value at the end of the array at a key path. With `creatingParents`, a missing array
    /// (and missing dictionaries on the way) are created.
    case append(Value, to: PlistKeyPath, creatingParents: Bool = false)

    /// The key path the edit names.
    public var keyPath: PlistKeyPath {
        switch self {
        case .insert(_, let path, _), .replace(_, let path), .set(_, let path, _), .remove(let path),
            .append(_, let path, _):
            path
        }
    }

    /// The value the edit puts in place (`nil` for a removal).
    public var value: Value? {
        switch self {
        case .insert(let value, _, _), .replace(let value, _), .set(let value, _, _), .append(let value, _, _): value
        case .remove: nil
        }
    }

    /// The same edit with its value changed by `transform` (a property-list edit made into an archive
    /// edit, for instance).
    public func map<Other, Failure: Error>(_ transform: (Value) throws(Failure) -> Other) throws(Failure)
        -> PlistEdit<Other>
    {
        switch self {
        case .insert(let value, let path, let parents):
            .insert(try transform(value), at: path, creatingParents: parents)
        case .replace(let value, let path): .replace(try transform(value), at: path)
        case .set(let value, let path, let parents): .set(try transform(value), at: path, creatingParents: parents)
        case .remove(let path): .remove(at: path)
        case .append(let value, let path, let parents):
            .append(try transform(value), to: path, creatingParents: parents)
        }
    }
}

extension PlistEdit: Equatable where Value: Equatable {}
extension PlistEdit: Hashable where Value: Hashable {}
extension PlistEdit: Sendable where Value: Sendable {}
