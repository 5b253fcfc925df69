// Sources/PropertyList/Value/PlistTree.swift - What the text writers walk: a PlistValue, or a binary
// document read in place.
//
// Canonical JSON, XML, OpenStep and the tool's renderings are written by walking a tree of nodes: an
// owned `PlistValue`, or the objects of a `BinaryPlistDocument` read one at a time (`DocumentTree`),
// so that a large binary file is converted without building its `PlistValue` first. A writer asks a
// node for its contents: a scalar (materialised: scalars are small), or a container and its children
// as a random-access collection of nodes (the elements of an array, the key and value references of
// a binary dictionary, read from the file as they are needed).
//
// `PlistTreeMeasure` walks a tree once before a writer writes anything: it measures what the text form
// would expand to (shared sub-trees are written once per reference) against the output budget, finds
// cycles and what the form cannot hold (naming its key path), and reads every distinct object once, so
// that a malformed object is reported before the first byte.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The contents of one node of a ``PlistTree``.
package enum PlistTreeContents<Children> {
    case scalar(PlistValue)
    /// An array; `id` identifies its storage (the same for every reference to a shared one).
    case array(Children, id: UInt64)
    case set(Children, id: UInt64)
    /// A dictionary: its keys and values in entry order.
    case dictionary(keys: Children, values: Children, id: UInt64)

    /// The kind of value the node holds.
    package var kind: PlistKind {
        switch self {
        case .scalar(let v): v.kind
        case .array: .array
        case .set: .set
        case .dictionary: .dictionary
        }
    }
}

/// A property-list tree as the text writers walk it.
package protocol PlistTree {
    associatedtype Node
    associatedtype Children: RandomAccessCollection where Children.Element == Node, Children.Index == Int

    /// What `node` is.
    ///
    /// - Throws: The format error of a node read from a file (never for an owned value).
    func contents(of node: Node) throws(PlistError) -> PlistTreeContents<Children>

    /// Deepest nesting of containers a walk accepts.
    var maxDepth: Int { get }

    /// An upper bound of the container ids, when they are small integers (a document's object
    /// indices): the walks then track them in a bitmap instead of a hash set.
    var denseIDBound: Int? { get }
}

// MARK: - An owned value as a tree

/// The children of a container of a ``PlistValue``: an array's elements, or one half of a
/// dictionary's entries.
package struct PlistValueChildren: RandomAccessCollection {
    enum Storage {
        case elements([PlistValue])
        case keys([PlistDictionary.Element])
        case values([PlistDictionary.Element])
    }

    let storage: Storage

    package var startIndex: Int { 0 }
    package var endIndex: Int {
        switch storage {
        case .elements(let a): a.count
        case .keys(let e), .values(let e): e.count
        }
    }

    package subscript(position: Int) -> PlistValue {
        switch storage {
        case .elements(let a): a[position]
        case .keys(let e): e[position].key
        case .values(let e): e[position].value
        }
    }
}

/// A ``PlistValue`` walked as a tree (its nodes are values).
package struct PlistValueTree: PlistTree {
    package init() {}

    package func contents(of node: PlistValue) -> PlistTreeContents<PlistValueChildren> {
        switch node {
        case .array(let a):
            .array(PlistValueChildren(storage: .elements(a)), id: UInt64(StorageIdentity.of(a)) << 2 | 1)
        case .set(let a): .set(PlistValueChildren(storage: .elements(a)), id: UInt64(StorageIdentity.of(a)) << 2 | 2)
        case .dictionary(let d):
            .dictionary(
                keys: PlistValueChildren(storage: .keys(d.entries)),
                values: PlistValueChildren(storage: .values(d.entries)),
                id: UInt64(StorageIdentity.of(d.entries)) << 2 | 3)
        default: .scalar(node)
        }
    }

    /// Owned values are as deep as they were built (decoded ones at most ``PlistLimits/maxDepth``);
    /// the walks are iterative, so any depth is safe.
    package var maxDepth: Int { .max }

    package var denseIDBound: Int? { nil }
}

// MARK: - Measuring before writing

/// What a writer's check is shown: each distinct scalar, each dictionary key, each container.
package enum PlistTreeVisit {
    case scalar(PlistValue)
    case key(PlistValue)
    case container(PlistKind)
}

/// The walk every writer makes before its first byte (see the file comment).
///
/// `check` is inlinable so that a caller in another module (the tool, walking its own trees) gets it
/// specialised for its tree type: unspecialised, the walk spends most of its time in generic metadata.
package struct PlistTreeMeasure<Tree: PlistTree> {
    /// Whether the form cannot hold a node; `nil`: it holds everything.
    package typealias Refusal = (PlistTreeVisit) -> Bool
    /// The error for a refused node at a key path (its components as text).
    package typealias Failure = (PlistTreeVisit, [String]) -> PlistError

    @usableFromInline let tree: Tree
    @usableFromInline let budget: OutputBudget

    package init(_ tree: Tree, budget: OutputBudget) {
        self.tree = tree
        self.budget = budget
    }

    @usableFromInline struct Frame {
        @usableFromInline var id: UInt64
        @usableFromInline var keys: Tree.Children?
        @usableFromInline var values: Tree.Children
        /// The next slot: for a dictionary, 2 × entry (+ 1 for the value).
        @usableFromInline var next = 0
        @usableFromInline var nodes = 1
        @usableFromInline var bytes = 16
        /// Whether this container is reached for the second time: its size is memoised when done.
        @usableFromInline var memoise: Bool
        /// The current entry's key as text (for key paths in errors).
        @usableFromInline var keyText = ""
        @usableFromInline var slots: Int { keys == nil ? values.count : values.count &* 2 }

        @usableFromInline init(id: UInt64, keys: Tree.Children?, values: Tree.Children, memoise: Bool) {
            self.id = id
            self.keys = keys
            self.values = values
            self.memoise = memoise
        }
    }

    /// Measures the expansion of the tree at `root` as `form`, and checks every distinct node.
    ///
    /// - Throws: `limitExceeded` naming the budget (or the depth limit), `cycle` for a container
    ///   that contains itself, the error `failure` makes for the first node `refuses`, or the format
    ///   error of a node that does not read.
    @inlinable
    package func check(
        _ root: Tree.Node, as form: String, refuses: Refusal? = nil, failure: Failure? = nil
    ) throws(PlistError) {
        let nodeCap = budget.maxValues &+ 1
        let byteCap = budget.maxBytes &+ 1
        func add(_ a: Int, _ b: Int, cap: Int) -> Int { a >= cap || b >= cap ? cap : min(a &+ b, cap) }
        var visited = IDSet(bound: tree.denseIDBound)
        var memo: [UInt64: (nodes: Int, bytes: Int)] = [:]
        var onPath = Set<UInt64>()
        var stack: [Frame] = []

        func path() -> [String] {
            stack.map { f in f.keys == nil ? String(f.next &- 1) : f.keyText }
        }
        func refuse(_ visit: PlistTreeVisit) throws(PlistError) {
            guard let refuses, refuses(visit) else { return }
            throw failure?(visit, path()) ?? PlistError(.unencodable, "\(form) cannot hold a \(visit)")
        }
        /// The size of `node` when known without opening a frame; otherwise pushes its frame.
        func enter(_ contents: PlistTreeContents<Tree.Children>) throws(PlistError) -> (nodes: Int, bytes: Int)? {
            let id: UInt64
            let keys: Tree.Children?
            let values: Tree.Children
            switch contents {
            case .scalar(let v):
                try refuse(.scalar(v))
                return PlistTreeMeasure.leafSize(v)
            case .array(let c, let i), .set(let c, let i):
                (id, keys, values) = (i, nil, c)
            case .dictionary(let k, let v, let i):
                (id, keys, values) = (i, k, v)
            }
            try refuse(.container(contents.kind))
            if values.isEmpty { return (1, 16) }
            if let known = memo[id] { return known }
            if onPath.contains(id) {
                throw PlistError(
                    .cycle, "the \(contents.kind) at \(PlistTreeMeasure.place(path())) contains itself")
            }
            if stack.count >= tree.maxDepth {
                throw PlistError(
                    .limitExceeded,
                    "nesting deeper than \(tree.maxDepth) containers at \(PlistTreeMeasure.place(path())) (limit maxDepth)"
                )
            }
            let second = !visited.insert(id)
            onPath.insert(id)
            stack.append(Frame(id: id, keys: keys, values: values, memoise: second))
            return nil
        }

        if let size = try enter(tree.contents(of: root)) {
            try PlistTreeMeasure.checkBudget(size, budget, form)
            return
        }
        while let top = stack.indices.last {
            if stack[top].next < stack[top].slots, stack[top].nodes < nodeCap, stack[top].bytes < byteCap {
                let slot = stack[top].next
                stack[top].next &+= 1
                let child: Tree.Node
                if let keys = stack[top].keys {
                    let entry = slot >> 1
                    if slot & 1 == 0 {
                        let contents = try tree.contents(of: keys[entry])
                        guard case .scalar(let key) = contents else {
                            throw PlistError(
                                .invalidKey,
                                "a dictionary at \(PlistTreeMeasure.place(path())) has a \(contents.kind) key")
                        }
                        stack[top].keyText = key.stringValue ?? "\(key)"
                        try refuse(.key(key))
                        let size = PlistTreeMeasure.leafSize(key)
                        stack[top].nodes = add(stack[top].nodes, size.nodes, cap: nodeCap)
                        stack[top].bytes = add(stack[top].bytes, size.bytes &+ 2, cap: byteCap)
                        continue
                    }
                    child = stack[top].values[entry]
                } else {
                    child = stack[top].values[slot]
                }
                if let size = try enter(tree.contents(of: child)) {
                    stack[top].nodes = add(stack[top].nodes, size.nodes, cap: nodeCap)
                    stack[top].bytes = add(stack[top].bytes, size.bytes &+ 2, cap: byteCap)
                }
                continue
            }
            let done = stack.removeLast()
            onPath.remove(done.id)
            let size = (nodes: done.nodes, bytes: done.bytes)
            if done.memoise { memo[done.id] = size }
            guard let parent = stack.indices.last else {
                try PlistTreeMeasure.checkBudget(size, budget, form)
                return
            }
            stack[parent].nodes = add(stack[parent].nodes, size.nodes, cap: nodeCap)
            stack[parent].bytes = add(stack[parent].bytes, size.bytes &+ 2, cap: byteCap)
        }
    }

    /// The size of a scalar written out (as ``PlistValue/expansion(within:)`` counts it).
    @usableFromInline static func leafSize(_ v: PlistValue) -> (nodes: Int, bytes: Int) {
        switch v {
        case .string(let s): (1, 16 &+ 6 &* s.utf8Count)
        case .data(let d): (1, 16 &+ 2 &* d.count)
        default: (1, 48)
        }
    }

    @usableFromInline static func checkBudget(_ size: (nodes: Int, bytes: Int), _ budget: OutputBudget, _ form: String)
        throws(PlistError)
    {
        if size.nodes > budget.maxValues {
            throw PlistError(
                .limitExceeded,
                "writing this value as \(form) would write more than \(budget.maxValues) nodes (output budget "
                    + "maxValues): it shares sub-trees that the text form repeats once per reference")
        }
        if size.bytes > budget.maxBytes {
            throw PlistError(
                .limitExceeded,
                "writing this value as \(form) would write more than \(budget.maxBytes) bytes (output budget maxBytes)")
        }
    }

    /// "the root" or `a.b.0` (a key with a dot written `\.`).
    @usableFromInline static func place(_ path: [String]) -> String {
        path.isEmpty ? "the root" : PlistKeyPath(keys: path).description
    }
}

/// Container ids seen by a walk: a bitmap when they are below a known bound, else a hash set.
@usableFromInline struct IDSet {
    @usableFromInline var bits: [UInt64]
    @usableFromInline var hashed: Set<UInt64>
    @usableFromInline let dense: Bool

    @usableFromInline init(bound: Int?) {
        if let bound, bound >= 0 {
            bits = Array(repeating: 0, count: (bound &+ 63) / 64)
            dense = true
        } else {
            bits = []
            dense = false
        }
        hashed = []
    }

    /// Adds `id`; `false` when it was there already.
    @usableFromInline mutating func insert(_ id: UInt64) -> Bool {
        if dense, let word = Int(exactly: id >> 6), word < bits.count {
            let mask: UInt64 = 1 << (id & 63)
            if bits[word] & mask != 0 { return false }
            bits[word] |= mask
            return true
        }
        return hashed.insert(id).inserted
    }
}
