// Sources/bplist/Git/ArchiveMerge.swift - Three-way merge of NSKeyedArchiver archives through their
// object graphs, by the paths `bplist unarchive` prints.
//
// Each archive is read as a `KeyedArchiveGraph` and seen as a tree of plain values by path (an object
// is a dictionary of its fields and its class under `$class`; an NSArray an array, an NSDictionary a
// dictionary; a reference back to an object on the way is the UID). The three trees merge with
// `PlistMerge`; what the merged tree changes from ours becomes graph edits on OURS' graph, whose new
// values come from THEIRS' graph where THEIRS holds them (objects, classes and all), so the archive
// written back keeps every UID, class chain and member order it does not touch. At a conflict OURS'
// value stays (archives carry no conflict markers).

import Foundation
import KeyedArchive
import PropertyList

enum ArchiveMerge {
    /// How deep the trees are followed (deeper objects are compared by UID).
    static let maxDepth = 256

    static func merge(base: Data, ours: Data, theirs: Data) throws -> Merge.Result {
        do {
            var mine = try KeyedArchiveGraph(ours, requiredTopKey: nil)
            let other = try KeyedArchiveGraph(theirs, requiredTopKey: nil)
            let ancestor = base.isEmpty ? nil : try KeyedArchiveGraph(base, requiredTopKey: nil)
            let oursView = view(mine)
            let theirsView = view(other)
            let merge = PlistMerge(
                base: ancestor.map(view) ?? .dictionary(PlistDictionary()), ours: oursView, theirs: theirsView)
            guard merge.value != oursView else {
                return Merge.Result(bytes: ours, conflicts: merge.conflicts, markers: false)
            }
            var planner = EditPlanner(ours: mine, theirs: other, oursView: oursView, theirsView: theirsView)
            let edits = try planner.edits(from: oursView, to: merge.value, at: .root)
            try mine.apply(edits)
            return Merge.Result(bytes: try mine.encoded(), conflicts: merge.conflicts, markers: false)
        } catch let error as KeyedArchiveError {
            throw Unarchive.toolError(error, binary: nil)
        }
    }

    /// The archive as a tree of plain values by path.
    static func view(_ graph: KeyedArchiveGraph) -> PlistValue {
        var top: [(PlistValue, PlistValue)] = []
        for field in graph.top {
            top.append((.string(PlistString(field.key)), plain(graph.resolve(field.value, maxDepth: maxDepth))))
        }
        return .dictionary(PlistDictionary(top))
    }

    /// A resolved value as a plain one; values with no plain form (URLs, UUIDs, typed values) as a
    /// tagged string, compared as a whole.
    static func plain(_ resolved: KeyedArchiveGraph.Resolved) -> PlistValue {
        switch resolved {
        case .value(let v): return v
        case .null: return .null
        case .date(let d): return .date(d)
        case .url(let s): return .string(PlistString("<NSURL> " + s))
        case .uuid(let u): return .string(PlistString("<NSUUID> " + u.uuidString))
        case .typed(let name, let value):
            return .string(PlistString("<\(name)> " + (value.typedDescription?.text ?? "\(value)")))
        case .backReference(let uid), .truncated(let uid): return .uid(UInt64(max(0, uid)))
        case .array(let xs), .orderedSet(let xs), .set(let xs): return .array(xs.map(plain))
        case .dictionary(let entries):
            return .dictionary(
                PlistDictionary(
                    entries.map { entry in
                        let key = plain(entry.key)
                        return (PlistValue.string(PlistString(key.stringValue ?? "\(key)")), plain(entry.value))
                    }))
        case .object(let className, let fields):
            var pairs: [(PlistValue, PlistValue)] = [(.string(PlistString("$class")), .string(PlistString(className)))]
            for field in fields { pairs.append((.string(PlistString(field.key)), plain(field.value))) }
            return .dictionary(PlistDictionary(pairs))
        }
    }
}

/// The graph edits that turn OURS' tree into the merged one.
struct EditPlanner {
    let ours: KeyedArchiveGraph
    let theirs: KeyedArchiveGraph
    let oursView: PlistValue
    let theirsView: PlistValue

    mutating func edits(from o: PlistValue, to m: PlistValue, at path: PlistKeyPath) throws -> [PlistEdit<AnyArchived>]
    {
        if o == m { return [] }
        switch (o, m) {
        case (.dictionary(let od), .dictionary(let md)) where od["$class"] == md["$class"]:
            var out: [PlistEdit<AnyArchived>] = []
            for entry in od.entries {
                guard let key = entry.key.stringValue, key != "$class" else { continue }
                if let mv = md[key] {
                    out += try edits(from: entry.value, to: mv, at: path.appending(.init(key)))
                } else {
                    out.append(.remove(at: path.appending(.init(key))))
                }
            }
            for entry in md.entries {
                guard let key = entry.key.stringValue, od[key] == nil else { continue }
                let place = path.appending(.init(key))
                out.append(.insert(try archived(entry.value, at: place), at: place))
            }
            return out
        case (.array(let oa), .array(let ma)) where oa.count == ma.count:
            var out: [PlistEdit<AnyArchived>] = []
            for i in oa.indices where oa[i] != ma[i] {
                out += try edits(from: oa[i], to: ma[i], at: path.appending(.init(index: i)))
            }
            return out
        case (.array(let oa), .array(let ma)):
            // Elements ours keeps stay (with their UIDs); the others are removed (last first), then
            // the merged array's new elements inserted in order.
            var interned: [PlistValue: Int] = [:]
            func tokens(_ xs: [PlistValue]) -> [Int] {
                xs.map { x in
                    if let t = interned[x] { return t }
                    interned[x] = interned.count
                    return interned.count - 1
                }
            }
            let matches = SequenceAlignment.matches(tokens(oa), tokens(ma))
            var keptO = Set<Int>()
            var keptM = Set<Int>()
            for (i, j) in matches {
                keptO.insert(i)
                keptM.insert(j)
            }
            var out: [PlistEdit<AnyArchived>] = []
            for i in oa.indices.reversed() where !keptO.contains(i) {
                out.append(.remove(at: path.appending(.init(index: i))))
            }
            for j in ma.indices where !keptM.contains(j) {
                let place = path.appending(.init(index: j))
                out.append(.insert(try archived(ma[j], at: place), at: place))
            }
            return out
        default:
            return [.set(try archived(m, at: path), at: path)]
        }
    }

    /// The archived value for the merged tree's `value` at `path`: THEIRS' (or OURS') value there when
    /// its tree holds the same, else built from the plain value.
    func archived(_ value: PlistValue, at path: PlistKeyPath) throws -> AnyArchived {
        if (try? theirsView.value(at: path)) == value, let found = try? theirs.value(at: path) { return found }
        if (try? oursView.value(at: path)) == value, let found = try? ours.value(at: path) { return found }
        switch value {
        case .array(let xs):
            return .array(try xs.indices.map { try archived(xs[$0], at: path.appending(.init(index: $0))) })
        case .dictionary(let d):
            var out: [AnyArchived: AnyArchived] = [:]
            for entry in d.entries {
                guard let key = entry.key.stringValue, key != "$class" else { continue }
                out[.string(key)] = try archived(entry.value, at: path.appending(.init(key)))
            }
            return .dictionary(out)
        default:
            return try AnyArchived(plistValue: value)
        }
    }
}
