// Sources/TypedStream/Values/AppKitLayouts.swift - NSAttributedString, NSColor and NSFont as a
// typedstream lays them out, and .clr colour lists.
//
// Layouts (facts from python-typedstream's `types/appkit.py`, the Messages `attributedBody`
// write-ups and colour-list files, read, not copied):
//   NSAttributedString,         `@` the NSString (NSMutableString); then per run `iI`: the 1-based
//   NSMutableAttributedString   index of the run's attribute dictionary and the run's length in
//   (v0)                        UTF-16 units, followed by `@` that NSDictionary only when the index
//                               is new (one past the dictionaries seen); runs cover the string
//   NSColor (v0)                `c` kind: 1 calibrated RGB, 2 device RGB (`ffff` RGBA); 3
//                               calibrated white, 4 device white (`ff`); 5 device CMYK (`fffff`);
//                               6 named (`@@@`: catalog, name, the colour it stands for)
//   NSFont (v21, v30)           the name as a serialized property list (`i` length + `[Nc]`),
//                               `f` size, four `c` flag bytes
//   .clr colour list file       top-level groups: `i` (1), `@i` (the list's name, usually nil;
//                               the number of colours), then per colour `@@` (NSColor, NSString key)
// Reals archived as `f` are 32-bit: they are read as the shortest decimal that gives the same
// float (0.3, not 0.30000001192…), as a keyed archive stores them as text.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension TypedObjectSource {
    /// NSAttributedString: the string, then the runs.
    mutating func attributedString(_ values: Fields, mutable: Bool) throws(TypedStreamError)
        -> ArchivedAttributedString?
    {
        guard case .object(let s?)? = values.first, case .string(let text) = try object(s) else { return nil }
        let length = text.utf16.count
        var dictionaries: [[String: AnyArchived]] = []
        var runs: [ArchivedAttributedString.Run] = []
        var at = 0
        var i = 1
        while i < values.count {
            guard i + 1 < values.count, let index = values[i].intValue, let n = values[i + 1].intValue, n >= 0 else {
                return nil
            }
            i += 2
            if index == dictionaries.count + 1 {
                guard i < values.count, case .object(let d?) = values[i], let attributes = try attributes(d) else {
                    return nil
                }
                dictionaries.append(attributes)
                i += 1
            } else {
                guard index >= 1, index <= dictionaries.count else { return nil }
            }
            guard n <= length - at else { return nil }
            runs.append(ArchivedAttributedString.Run(range: at..<at + n, attributes: dictionaries[index - 1]))
            at += n
        }
        guard at == length || runs.isEmpty else { return nil }
        return ArchivedAttributedString(string: text, runs: runs, isMutable: mutable)
    }

    /// An attribute dictionary (string keys), with data values that hold a keyed archive decoded.
    private mutating func attributes(_ number: Int) throws(TypedStreamError) -> [String: AnyArchived]? {
        guard case .dictionary(let d) = try object(number) else { return nil }
        var out: [String: AnyArchived] = [:]
        out.reserveCapacity(d.count)
        for (k, v) in d {
            guard case .string(let key) = k else { return nil }
            out[key] = options.decodesNestedKeyedArchives ? TypedLayouts.nestedArchive(v) : v
        }
        return out
    }

    /// NSColor: the kind, then its components (or the named colour's catalog, name and colour).
    mutating func color(_ values: Fields) throws(TypedStreamError) -> ArchivedColor? {
        guard let kind = values.first?.intValue else { return nil }
        let reals = values.dropFirst().compactMap(TypedLayouts.real)
        let expected: Int
        switch kind {
        case 1, 2: expected = 4
        case 3, 4: expected = 2
        case 5: expected = 5
        case 6:
            guard values.count == 4, case .object(let c?) = values[1], case .string(let catalog) = try object(c),
                case .object(let n?) = values[2], case .string(let name) = try object(n)
            else { return nil }
            var color = ArchivedColor(colorSpace: 6, components: [], catalogName: catalog, colorName: name)
            if case .object(let f?) = values[3], case .color(let fallback) = try object(f) {
                color.components = fallback.components
            }
            return color
        default:
            return nil
        }
        guard values.count == expected + 1, reals.count == expected else { return nil }
        return ArchivedColor(colorSpace: kind, components: reals)
    }

    /// NSFont: the name (a serialized property list), the size, four flag bytes.
    func font(_ values: Fields) -> ArchivedFont? {
        guard values.count == 7, let length = values[0].intValue, case .bytes(let plist) = values[1],
            plist.count == length, case .string(let name)? = SerializedPropertyList.decode(plist),
            let size = TypedLayouts.real(values[2])
        else { return nil }
        var flags = 0
        for v in values[3...] {
            guard case .integer(let b) = v else { return nil }
            flags = flags << 8 | Int(UInt8(truncatingIfNeeded: b))
        }
        return ArchivedFont(name: name, size: size, flags: flags)
    }
}

extension TypedLayouts {
    /// `value` with a data value that holds a keyed archive replaced by the archive's root object.
    static func nestedArchive(_ value: AnyArchived) -> AnyArchived {
        guard case .data(let bytes) = value, bytes.starts(with: "bplist".utf8),
            let unarchiver = try? KeyedUnarchiver(forReadingFrom: bytes),
            let root = try? unarchiver.decodeObject(forKey: KeyedArchiver.rootObjectKey)
        else { return value }
        return root
    }

    /// A real as the writer meant it: a 32-bit float as its shortest decimal.
    static func real(_ v: TypedStreamValue) -> Double? {
        if case .float(let f) = v { return Double("\(f)") ?? Double(f) }
        return v.doubleValue
    }
}

/// A colour list (`NSColorList`, a `.clr` file): named colours in order.
public struct ArchivedColorList: Hashable, Sendable {
    /// One colour of the list and its key.
    public struct Entry: Hashable, Sendable {
        /// The colour's name in the list (`"LightGreen"`).
        public var key: String
        /// The colour.
        public var color: ArchivedColor

        public init(key: String, color: ArchivedColor) {
            self.key = key
            self.color = color
        }
    }

    /// The list's name when the file records one (files usually leave it nil: the list takes the
    /// file's name).
    public var name: String?
    /// The colours, in order.
    public var entries: [Entry]

    public init(name: String? = nil, entries: [Entry]) {
        self.name = name
        self.entries = entries
    }

    /// The first colour of the list named `key`.
    public subscript(key: String) -> ArchivedColor? {
        entries.first { $0.key == key }?.color
    }
}

extension TypedStreamArchive {
    /// The colour list of a `.clr` file.
    ///
    /// ```swift
    /// let list = try TypedStreamArchive(Data(contentsOf: url)).colorList()
    /// for entry in list.entries { print(entry.key, entry.color.hex ?? "") }
    /// ```
    ///
    /// - Throws: `typeMismatch` when the stream is not a colour list (its
    ///   top-level groups are not `i`, `@i`, then one `@@` per colour holding an NSColor and an
    ///   NSString); the reading errors of ``decodeObject(_:)``.
    public func colorList() throws(TypedStreamError) -> ArchivedColorList {
        let values = groups.flatMap(\.values)
        func mismatch(_ why: String) -> TypedStreamError {
            TypedStreamError(.typeMismatch, offset: groups.first?.offset, "not a colour list: \(why)")
        }
        guard values.count >= 3, values[0].intValue != nil, case .object(let nameObject) = values[1],
            let count = values[2].intValue, count >= 0
        else { throw mismatch("it does not start with a version, a name and a count") }
        guard values.count == 3 + 2 * count else {
            throw mismatch("\(count) colours announced, \((values.count - 3) / 2) archived")
        }
        var decoder = TypedValueDecoder(archive: self, options: options)
        // The list keeps colours and strings only: the other objects converted on the way (a graph
        // that contains itself would outlive the call) are let go.
        defer { decoder.breakReferenceCycles() }
        var list = ArchivedColorList(entries: [])
        if let n = nameObject, case .string(let name) = try decoder.object(n) { list.name = name }
        list.entries.reserveCapacity(count)
        var i = 3
        while i < values.count {
            guard case .object(let c?) = values[i], case .color(let color) = try decoder.object(c),
                case .object(let k?) = values[i + 1], case .string(let key) = try decoder.object(k)
            else { throw mismatch("entry \((i - 3) / 2) is not an NSColor and an NSString") }
            list.entries.append(ArchivedColorList.Entry(key: key, color: color))
            i += 2
        }
        return list
    }
}
