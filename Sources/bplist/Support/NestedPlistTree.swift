// Sources/bplist/Support/NestedPlistTree.swift - A tree whose data values that hold a binary property list
// or a typedstream show it decoded, as `{ "$nested" => … }` (a keyed archive as its object graph, a
// typedstream as its typed values): what `print` walks.
//
// The expansion happens as the tree is read, so the output budget's check (PlistTreeMeasure) counts
// what the nested plists add, however often the data is referenced; expansions are cached by content,
// so a data object referenced many times is decoded once.

import Foundation
@_spi(Internals) import PropertyList

/// `Base` with each data value that holds a binary property list replaced by its decoded form
/// (``PlistValue/expandingNestedPlists(maxNesting:limits:budget:)`` then
/// ``ArchiveView/unarchivingNested(_:depth:)``).
struct NestedPlistTree<Base: PlistTree>: PlistTree {
    enum Node {
        case base(Base.Node)
        case value(PlistValue)
    }

    struct Children: RandomAccessCollection {
        enum Storage {
            case base(Base.Children)
            case value(PlistValueChildren)
        }

        let storage: Storage

        var startIndex: Int { 0 }
        var endIndex: Int {
            switch storage {
            case .base(let c): c.count
            case .value(let c): c.count
            }
        }

        subscript(position: Int) -> Node {
            switch storage {
            case .base(let c): .base(c[c.startIndex + position])
            case .value(let c): .value(c[position])
            }
        }
    }

    /// Expansions by data content (nil: the data stays data), shared by copies of the tree.
    final class Cache {
        var expanded: [Data: PlistValue?] = [:]
    }

    let base: Base
    /// What one nested plist may expand to (one over it stays data).
    let budget: OutputBudget
    let cache = Cache()

    func contents(of node: Node) throws(PlistError) -> PlistTreeContents<Children> {
        switch node {
        case .value(let v):
            return Self.wrap(PlistValueTree().contents(of: v))
        case .base(let n):
            let contents = try base.contents(of: n)
            if case .scalar(.data(let bytes)) = contents, let expanded = expand(bytes) {
                return Self.wrap(PlistValueTree().contents(of: expanded))
            }
            switch contents {
            case .scalar(let v): return .scalar(v)
            case .array(let c, let id): return .array(Children(storage: .base(c)), id: id)
            case .set(let c, let id): return .set(Children(storage: .base(c)), id: id)
            case .dictionary(let k, let v, let id):
                return .dictionary(keys: Children(storage: .base(k)), values: Children(storage: .base(v)), id: id)
            }
        }
    }

    var maxDepth: Int { base.maxDepth }

    var denseIDBound: Int? { base.denseIDBound }

    /// The contents of a decoded value, its ids tagged so that they never meet the base tree's.
    private static func wrap(_ contents: PlistTreeContents<PlistValueChildren>) -> PlistTreeContents<Children> {
        let tag: UInt64 = 1 << 63
        switch contents {
        case .scalar(let v): return .scalar(v)
        case .array(let c, let id): return .array(Children(storage: .value(c)), id: id | tag)
        case .set(let c, let id): return .set(Children(storage: .value(c)), id: id | tag)
        case .dictionary(let k, let v, let id):
            return .dictionary(keys: Children(storage: .value(k)), values: Children(storage: .value(v)), id: id | tag)
        }
    }

    /// The decoded form of `bytes`, or nil when they are neither a property list nor a typedstream
    /// (or one over the budget).
    private func expand(_ bytes: Data) -> PlistValue? {
        // Most data is neither: told at once from its first bytes.
        let typedStream = TypedStreamTool.isTypedStream(bytes)
        guard typedStream || bytes.starts(with: "bplist".utf8) || PlistCompression.detect(bytes) != nil else {
            return nil
        }
        if let known = cache.expanded[bytes] { return known }
        let data = PlistValue.data(bytes)
        var result: PlistValue? = nil
        var expanded = data
        if typedStream {
            var ignored: [String] = []  // reported by issues(of:) when the data stays data
            expanded = TypedStreamTool.expandingTypedStreams(data, issues: &ignored)
        } else {
            expanded = data.expandingNestedPlists(budget: budget).value
        }
        if expanded != data, (try? expanded.checkExpansion(budget, as: "a nested property list")) != nil {
            result = typedStream ? expanded : ArchiveView.unarchivingNested(expanded)
        }
        if cache.expanded.count < 4096 { cache.expanded[bytes] = result }
        return result
    }

    /// The issues of a data value the tree left as data (for a warning naming its key path); a
    /// typedstream's are `print`'s to report.
    static func issues(of data: PlistValue, budget: OutputBudget) -> [NestedPlistIssue] {
        let (expanded, issues) = data.expandingNestedPlists(budget: budget)
        if issues.isEmpty, expanded != data {
            do {
                try expanded.checkExpansion(budget, as: "a nested property list")
            } catch {
                return [NestedPlistIssue(keyPath: .root, error: error)]
            }
        }
        return issues
    }
}
