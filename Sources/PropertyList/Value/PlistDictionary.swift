// Sources/PropertyList/Value/PlistDictionary.swift - An ordered property-list dictionary with any scalar key.

/// A property-list dictionary: ordered entries with unique keys.
///
/// Keys are usually strings, but the format allows any scalar (the corpus has integer and data keys),
/// so a key is a ``PlistValue``. File order is kept, which makes output deterministic; equality and
/// hashing ignore it.
///
/// **Duplicate keys.** A binary dictionary may list the same key twice. Readers disagree
/// (CoreFoundation keeps the first value, plistlib, swift-foundation and go-plist the last). We keep
/// the **last** value, at the position of the first occurrence, exactly as Python's plistlib does, so
/// our output matches the corpus oracles. ``BinaryPlistDocument`` still exposes every raw entry.
public struct PlistDictionary: Sendable, Hashable, RandomAccessCollection {
    public typealias Element = (key: PlistValue, value: PlistValue)

    /// The entries in order. Keys are unique.
    public private(set) var entries: [Element]

    /// An empty dictionary.
    public init() { entries = [] }

    /// A dictionary from pairs; a repeated key keeps its first position and its last value.
    ///
    /// - Complexity: O(n) expected (keys are hashed).
    public init(_ pairs: some Sequence<(PlistValue, PlistValue)>) {
        entries = []
        var position: [PlistValue: Int] = [:]
        for (k, v) in pairs {
            if let i = position[k] {
                entries[i].value = v
            } else {
                position[k] = entries.count
                entries.append((k, v))
            }
        }
    }

    /// Entries already known to have unique keys (the reader checks this itself).
    init(uniqueEntries: [Element]) { entries = uniqueEntries }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Element { entries[position] }

    /// The keys in order.
    public var keys: [PlistValue] { entries.map(\.key) }
    /// The values in order.
    public var values: [PlistValue] { entries.map(\.value) }

    /// The value for a key, or `nil`. Setting `nil` removes the entry.
    ///
    /// - Complexity: O(n); dictionaries in property lists are small. Build a Swift `Dictionary` from
    ///   ``entries`` for repeated lookups in a large one.
    public subscript(key: PlistValue) -> PlistValue? {
        get { entries.first(where: { $0.key == key })?.value }
        set {
            if let i = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// The value for a string key, or `nil`. Setting `nil` removes the entry.
    public subscript(key: String) -> PlistValue? {
        get {
            for e in entries {
                if case .string(let s) = e.key, s == key { return e.value }
            }
            return nil
        }
        set { self[PlistValue.string(key)] = newValue }
    }

    /// The position of the entry whose key is the string `key`, or `nil`.
    ///
    /// - Complexity: O(n).
    public func index(forKey key: String) -> Int? {
        entries.firstIndex { entry in
            if case .string(let s) = entry.key { s == key } else { false }
        }
    }

    // MARK: Editing in place (key order kept)

    /// Replaces the value of the entry at `position`, keeping its key and its place.
    mutating func setValue(_ value: PlistValue, at position: Int) {
        entries[position].value = value
    }

    /// The value of the entry at `position`, left as `.null` in the entry: the caller edits it while
    /// it is uniquely referenced, then puts it back with ``setValue(_:at:)``.
    mutating func takeValue(at position: Int) -> PlistValue {
        let value = entries[position].value
        entries[position].value = .null
        return value
    }

    /// Adds an entry at the end; `key` must not be in the dictionary already.
    mutating func appendNew(key: PlistValue, value: PlistValue) {
        entries.append((key, value))
    }

    /// Removes the entry at `position`; the others keep their order.
    @discardableResult
    mutating func remove(at position: Int) -> Element {
        entries.remove(at: position)
    }

    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        PlistValue.dictionary(lhs) == PlistValue.dictionary(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(PlistValue.structuralHash(.dictionary(self)))
    }
}
