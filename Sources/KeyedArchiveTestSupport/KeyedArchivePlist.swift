// Sources/KeyedArchiveTestSupport/KeyedArchivePlist.swift - A keyed archive's raw property list, as
// the two archive comparisons (ArchiveGraphEquivalence, StrictGraphComparison) read it.

public import Foundation
public import PropertyList

/// `$objects` and `$top` of a keyed archive (binary or XML), and the lookups the graph comparisons
/// make in them. It decodes nothing of the archive's own: that is what the comparisons check.
public struct KeyedArchivePlist {
    public let objects: [PlistValue]
    public let top: PlistDictionary

    public init(_ data: Data) throws {
        let root: PlistValue =
            XMLPlist.looksLikeXML(data) ? try XMLPlist.decode(data) : try BinaryPlistDocument(data).value()
        guard case .dictionary(let d) = root, case .array(let objects)? = d["$objects"],
            case .dictionary(let top)? = d["$top"]
        else { throw GraphMismatch("not a keyed archive") }
        self.objects = objects
        self.top = top
    }

    /// A value with its UID followed: the object and its UID (`nil` for an inline value).
    public func resolve(_ v: PlistValue) -> (PlistValue, Int?) {
        guard case .uid(let u) = v, u < UInt64(objects.count) else { return (v, nil) }
        return (objects[Int(u)], Int(u))
    }

    /// `$classname` and `$classes` of an object's class description.
    public func className(_ d: PlistDictionary) -> (name: String, chain: [String])? {
        guard case .uid(let u)? = d["$class"], u < UInt64(objects.count),
            case .dictionary(let c) = objects[Int(u)], let name = c["$classname"]?.stringValue
        else { return nil }
        var chain: [String] = []
        if case .array(let list)? = c["$classes"] {
            for case .string(let s) in list { chain.append(s.string) }
        }
        return (name, chain)
    }

    /// `$classname`, `$classes` and `$classhints` of an object's class description, as they are stored.
    public func classOf(_ d: PlistDictionary) -> PlistValue? {
        guard case .uid(let u)? = d["$class"], u < UInt64(objects.count),
            case .dictionary(let c) = objects[Int(u)]
        else { return nil }
        return .array([c["$classname"] ?? .null, c["$classes"] ?? .null, c["$classhints"] ?? .null])
    }
}

/// Why two graphs are not the same: the first difference found, with its path.
public struct GraphMismatch: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
