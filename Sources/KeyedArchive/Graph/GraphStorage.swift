// Sources/KeyedArchive/Graph/GraphStorage.swift - What a graph keeps of its archive: the property
// list as read (the root dictionary, `$objects` and `$top`, in file order), the form it came in, and
// the document the typed decoders read.
//
// The stored property list is the truth: the nodes are a view of it, edits change it in place (an
// object keeps its UID, its key order, its unkeyed values and its class description), and writing
// it back writes it as it is. Nothing is rebuilt from an interpretation, so whatever this package
// does not understand (classes it has no type for, layouts it does not know, `$classhints`, keys of
// any kind) goes back unchanged.

@_spi(Internals) import PropertyList
import Synchronization

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension KeyedArchiveGraph {
    /// The form and envelope of `data`, from its first bytes (an envelope is inflated to tell the
    /// form inside it).
    static func sniff(_ data: Data, limits: PlistLimits) throws(PlistError) -> (PlistFormat, PlistCompression) {
        guard let compression = PlistCompression.envelope(of: data) else {
            return (try PlistSniffer.sniff(data).format, .none)
        }
        let inner = try Zlib.inflate(data, limit: limits.maxDecompressedBytes)
        return (try PlistSniffer.sniff(inner).format, compression)
    }

    /// The archive the typed decoders read: the document as opened, or, after an edit, one written
    /// from the edited property list the first time it is needed.
    final class Source: Sendable {
        let limits: KeyedArchiveLimits
        /// The edited archive to open on first use (`nil`: the document was given).
        private let edited: PlistValue?
        private let document: Mutex<BinaryPlistDocument?>

        init(_ document: BinaryPlistDocument, _ limits: KeyedArchiveLimits) {
            self.limits = limits
            self.edited = nil
            self.document = Mutex(document)
        }

        init(edited archive: PlistValue, _ limits: KeyedArchiveLimits) {
            self.limits = limits
            self.edited = archive
            self.document = Mutex(nil)
        }

        /// The document (opened once), or `nil` when the edited archive cannot be written.
        func openDocument() -> BinaryPlistDocument? {
            document.withLock { cached in
                if let cached { return cached }
                guard let edited, let bytes = try? BinaryPlistWriter().write(edited),
                    let opened = try? BinaryPlistDocument(bytes, limits: limits.plist)
                else { return nil }
                cached = opened
                return opened
            }
        }

        /// A new unarchiver of the archive, or `nil` when it cannot be opened.
        func unarchiver() -> KeyedUnarchiver? {
            guard let document = openDocument() else { return nil }
            return try? KeyedUnarchiver(document: document, limits: limits)
        }
    }
}

/// The archive's property list, as stored and edited.
struct GraphStorage: Sendable {
    /// The root dictionary as read (its `$objects` and `$top` are the originals: what was reachable
    /// before any edit is computed from them).
    let archive: PlistDictionary
    /// `$objects`, by UID.
    var objects: [PlistValue]
    /// `$top`, in file order.
    var top: PlistDictionary
    /// Whether an edit changed anything.
    var edited = false
    /// References to each UID from `$top` and every stored object, counted on the first edit that
    /// needs them and kept up to date by each change (a count may stay high for an object an edit
    /// made unreachable, never low).
    var inbound: [Int]?
    /// Class descriptions by name and chain, found on the first edit that adds an object.
    var classDescriptions: [ClassKey: Int]?
    /// `$objects` entries changed or added since the nodes were last brought up to date.
    var touched: Set<Int> = []

    /// A class description's identity: its name, its chain and its hints.
    struct ClassKey: Hashable {
        var name: String
        var chain: [String]
        var hints: [String]
    }

    init(archive: PlistDictionary, objects: [PlistValue], top: PlistDictionary) {
        self.archive = archive
        self.objects = objects
        self.top = top
    }

    /// The whole archive as it stands (UIDs as stored: nothing renumbered).
    var archiveValue: PlistValue {
        var root = archive
        root[ArchiveVocabulary.objectsKey] = .array(objects)
        root[ArchiveVocabulary.topKey] = .dictionary(top)
        return .dictionary(root)
    }

    // MARK: - Reference counts

    /// The UIDs a value holds (UID 0, `$null`, included), in order.
    static func uids(in value: PlistValue) -> [Int] {
        var out: [Int] = []
        var stack = [value]
        while let v = stack.popLast() {
            switch v {
            case .uid(let u): out.append(Int(clamping: u))
            case .array(let a), .set(let a): stack.append(contentsOf: a)
            case .dictionary(let d):
                for entry in d.entries {
                    stack.append(entry.key)
                    stack.append(entry.value)
                }
            default: break
            }
        }
        return out
    }

    /// The reference counts, computed on first use.
    mutating func referenceCounts() -> [Int] {
        if let inbound { return inbound }
        var counts = [Int](repeating: 0, count: objects.count)
        func add(_ v: PlistValue) {
            for u in GraphStorage.uids(in: v) where u < counts.count { counts[u] &+= 1 }
        }
        add(.dictionary(top))
        for object in objects { add(object) }
        inbound = counts
        return counts
    }

    /// Counts the references of `new` in place of those of `old`.
    mutating func recount(removing old: PlistValue?, adding new: PlistValue?) {
        guard inbound != nil else { return }
        if let old {
            for u in GraphStorage.uids(in: old) where u < (inbound?.count ?? 0) { inbound?[u] &-= 1 }
        }
        if let new {
            for u in GraphStorage.uids(in: new) where u < (inbound?.count ?? 0) { inbound?[u] &+= 1 }
        }
    }

    // MARK: - Class descriptions

    /// The key of a class description entry, `nil` for any other entry.
    static func classKey(_ value: PlistValue) -> ClassKey? {
        guard case .dictionary(let d) = value, d[ArchiveVocabulary.classKey] == nil,
            let name = d[ArchiveVocabulary.classNameKey]?.stringValue
        else { return nil }
        return ClassKey(
            name: name, chain: KeyedArchiveGraph.strings(d[ArchiveVocabulary.classesKey]),
            hints: KeyedArchiveGraph.strings(d["$classhints"]))
    }

    /// The UID of a class description with this name, chain and hints, if the archive holds one.
    mutating func classDescription(_ key: ClassKey) -> Int? {
        if classDescriptions == nil {
            var index: [ClassKey: Int] = [:]
            for (uid, object) in objects.enumerated() where uid > 0 {
                if let k = GraphStorage.classKey(object), index[k] == nil { index[k] = uid }
            }
            classDescriptions = index
        }
        return classDescriptions?[key]
    }

    /// Appends an entry to `$objects` (counting its references); returns its UID.
    mutating func append(_ value: PlistValue) -> Int {
        let uid = objects.count
        objects.append(value)
        inbound?.append(0)
        recount(removing: nil, adding: value)
        if classDescriptions != nil, let key = GraphStorage.classKey(value), classDescriptions?[key] == nil {
            classDescriptions?[key] = uid
        }
        edited = true
        touched.insert(uid)
        return uid
    }

    /// Replaces the entry at `uid` (counting references).
    mutating func replace(_ uid: Int, with value: PlistValue) {
        recount(removing: objects[uid], adding: value)
        objects[uid] = value
        edited = true
        touched.insert(uid)
    }
}
