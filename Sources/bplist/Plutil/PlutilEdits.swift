// Sources/bplist/Plutil/PlutilEdits.swift - plutil's rules for -insert, -replace and -remove, as edits.
//
// The path is checked against the value first, with plutil's rules and messages (so a failure reads as
// plutil's), then the edit is made by the library, which keeps dictionary order. Where plutil is
// wrong or crashes, the rule here is the one its help describes: -replace at an array position
// replaces, an append past the end is an error, and `-parents` creates missing dictionaries.

import PropertyList

enum PlutilEdits {
    /// plutil's components of a key path: `\.` is a dot in a key; the empty text is one empty key.
    static func components(_ text: String) -> [PlistKeyPath.Component] {
        text.isEmpty ? [""] : PlistKeyPath(plutil: text).components
    }

    /// The edit `-insert` (or `-replace`) makes, or plutil's error for it.
    static func insertion(
        _ value: PlistValue, at text: String, in root: PlistValue, replacing: Bool, appending: Bool,
        creatingParents: Bool
    ) throws -> PlistEdit<PlistValue> {
        let components = components(text)
        let path = PlistKeyPath(components)
        let shown = path.description
        var current: PlistValue? = root
        for (depth, component) in components.enumerated() {
            let last = depth == components.count - 1
            switch current {
            case .dictionary(let d)?:
                let existing = d.index(forKey: component.key).map { d[$0].value }
                guard last else {
                    if existing == nil && !creatingParents { throw Plutil.Failure("Key path not found \(shown)") }
                    current = existing
                    continue
                }
                if replacing { return .set(value, at: path, creatingParents: creatingParents) }
                guard let existing else { return .set(value, at: path, creatingParents: creatingParents) }
                guard appending else { throw Plutil.Failure("Value already exists at key path \(shown)") }
                guard existing.kind == .array || existing.kind == .set else {
                    throw Plutil.Failure("Appending to a non-array at key path \(shown)")
                }
                return .append(value, to: path)
            case .array(let a)?, .set(let a)?:
                guard let i = component.index else {
                    throw Plutil.Failure("Unable to index into array with key path \(shown)")
                }
                let outOfBounds = Plutil.Failure("Index \(i) out of bounds in array at key path \(shown)")
                guard last else {
                    guard a.indices.contains(i) else { throw outOfBounds }
                    current = a[i]
                    continue
                }
                if appending {
                    guard a.indices.contains(i) else { throw outOfBounds }
                    guard a[i].kind == .array || a[i].kind == .set else {
                        throw Plutil.Failure("Attempt to append value to non-array at key path \(shown)")
                    }
                    return .append(value, to: path)
                }
                guard (0...a.count).contains(i) else { throw outOfBounds }
                // -replace replaces (plutil on Linux inserts); the position just past the end appends.
                return replacing ? .set(value, at: path) : .insert(value, at: path)
            case nil:
                // A dictionary created on the way (-parents): everything below is new.
                return .set(value, at: path, creatingParents: true)
            default:
                throw Plutil.Failure("Unable to insert value at key path \(shown)")
            }
        }
        throw Plutil.Failure("Key path not found \(shown)")
    }

    /// The edit `-remove` makes, or plutil's error for it.
    static func removal(at text: String, in root: PlistValue) throws -> PlistEdit<PlistValue> {
        let components = components(text)
        let path = PlistKeyPath(components)
        let failure = Plutil.Failure("No value to remove at key path \(path.description)")
        guard !components.contains(where: \.key.isEmpty), root[keyPath: path] != nil else { throw failure }
        return .remove(at: path)
    }
}
