// Sources/PropertyList/Text/OutputBudget.swift - How much a writer of an expanded form may write.
//
// A property list is a DAG: a sub-tree referenced twice is stored once and decoded once (the
// materialiser memoises it, so a `PlistValue` shares its storage), but a text form has no sharing and
// writes it once per reference. 41 objects in 202 bytes, each an array holding the next one twice,
// expand to 2^41 nodes. So every writer of an expanded form (canonical JSON, XML, OpenStep, the
// tool's renderers) first measures the expansion, memoised by shared storage in time linear in the
// value's distinct nodes, and refuses before writing a byte when it is over the budget.
//
// The writers then write as they walk, through a `TextSink` (a fixed-size buffer handed on as it
// fills): the budget bounds what is written, never what is held. Since the check comes first, a
// value over the budget writes nothing, and one within it is written whole; nothing is cut off
// mid-stream. `XMLPlist.encode`, which writes into a buffer of its own and returns it whole, measures
// only a value whose text passes 64 MiB (under that size the text proves the budget kept: see
// `XMLPlistWriter.sizeProvingBudget`); an over-budget value still gives the caller nothing.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// How much a writer of an expanded form (canonical JSON, XML, OpenStep text, the `bplist` tool's
/// renderings) may write.
///
/// A value decoded from a hostile file can share sub-trees so that it is small in memory but
/// enormous written out: a 202-byte binary property list expands to 2^41 nodes. Every writer
/// measures the expansion first (in time linear in the value's distinct nodes, whatever the
/// expansion) and throws ``PlistError/Code/limitExceeded`` naming the budget before writing
/// anything when it is over.
///
/// ```swift
/// let json = try value.canonicalJSON()                                        // default budget
/// let big = try value.canonicalJSON(budget: OutputBudget(maxValues: 1 << 31, maxBytes: 1 << 40))
/// ```
public struct OutputBudget: Sendable, Hashable {
    /// The most nodes (scalars and containers, each dictionary entry's key and value counted) the
    /// writer may write. Default 50,000,000: several times the largest real files we know.
    public var maxValues: Int
    /// The most bytes the writer may write, estimated before writing from the payloads (strings at
    /// their worst-case escaped length, data in base64) plus a fixed cost per node; indentation is
    /// not counted. Default 2 GiB.
    public var maxBytes: Int

    /// A budget of `maxValues` nodes and `maxBytes` bytes.
    public init(maxValues: Int = 50_000_000, maxBytes: Int = 1 << 31) {
        self.maxValues = maxValues
        self.maxBytes = maxBytes
    }

    /// 50,000,000 nodes and 2 GiB: generous for real files, bounded for hostile ones.
    public static let `default` = OutputBudget()
}

extension PlistValue {
    /// The nodes and the estimated bytes of this value written out in full, every reference to a
    /// shared sub-tree expanded; each count stops growing once it passes the budget's limit.
    ///
    /// Shared sub-trees are recognised by their storage (a decoded `PlistValue` shares the storage
    /// of an object referenced twice), so the walk visits each distinct container once.
    package func expansion(within budget: OutputBudget) -> (nodes: Int, bytes: Int) {
        // Post-order walk with an explicit stack; sizes of finished containers memoised by storage.
        struct Open {
            var key: UInt64
            var children: [PlistValue]
            var next: Int
            var nodes: Int
            var bytes: Int
        }
        var memo: [UInt64: (nodes: Int, bytes: Int)] = [:]
        var stack: [Open] = []
        let nodeCap = budget.maxValues &+ 1
        let byteCap = budget.maxBytes &+ 1

        func add(_ a: Int, _ b: Int, cap: Int) -> Int { a >= cap || b >= cap ? cap : min(a &+ b, cap) }

        /// The size of a scalar, or nil for a container (then `open` describes it).
        func leaf(_ v: PlistValue) -> (nodes: Int, bytes: Int)? {
            switch v {
            case .null, .bool, .integer, .real, .date, .uid: return (1, 48)
            case .string(let s): return (1, 16 &+ 6 &* s.utf8Count)
            case .data(let d): return (1, 16 &+ 2 &* d.count)
            case .array, .set, .dictionary: return nil
            }
        }
        func open(_ v: PlistValue) -> Open {
            switch v {
            case .array(let xs):
                return Open(key: UInt64(StorageIdentity.of(xs)) << 2 | 1, children: xs, next: 0, nodes: 1, bytes: 16)
            case .set(let xs):
                return Open(key: UInt64(StorageIdentity.of(xs)) << 2 | 2, children: xs, next: 0, nodes: 1, bytes: 16)
            case .dictionary(let d):
                var children: [PlistValue] = []
                children.reserveCapacity(d.count &* 2)
                for (k, v) in d {
                    children.append(k)
                    children.append(v)
                }
                return Open(
                    key: UInt64(StorageIdentity.of(d.entries)) << 2 | 3, children: children, next: 0, nodes: 1,
                    bytes: 16)
            default:
                return Open(key: 0, children: [], next: 0, nodes: 1, bytes: 16)
            }
        }

        if let size = leaf(self) { return size }
        stack.append(open(self))
        while true {
            let top = stack.count &- 1
            if stack[top].next < stack[top].children.count,
                stack[top].nodes < nodeCap, stack[top].bytes < byteCap
            {
                let child = stack[top].children[stack[top].next]
                stack[top].next &+= 1
                var size = leaf(child)
                if size == nil {
                    let o = open(child)
                    // An empty container's storage is not unique (the empty singleton): never memoised.
                    if o.children.isEmpty {
                        size = (1, 16)
                    } else if let known = memo[o.key] {
                        size = known
                    } else {
                        stack.append(o)
                        continue
                    }
                }
                if let size {
                    stack[top].nodes = add(stack[top].nodes, size.nodes, cap: nodeCap)
                    stack[top].bytes = add(stack[top].bytes, size.bytes &+ 2, cap: byteCap)
                }
                continue
            }
            let done = stack.removeLast()
            let size = (nodes: done.nodes, bytes: done.bytes)
            if !done.children.isEmpty { memo[done.key] = size }
            guard let parent = stack.indices.last else { return size }
            stack[parent].nodes = add(stack[parent].nodes, size.nodes, cap: nodeCap)
            stack[parent].bytes = add(stack[parent].bytes, size.bytes &+ 2, cap: byteCap)
        }
    }

    /// Whether `predicate` holds for this value or any value inside it (dictionary keys included),
    /// each shared container visited once: the writers' check, before their first byte, for anything
    /// their form cannot hold.
    ///
    /// - Complexity: O(distinct nodes), whatever the expansion; no recursion.
    package func containsDistinctNode(where predicate: (PlistValue) -> Bool) -> Bool {
        var visited = Set<UInt64>()
        var work: [PlistValue] = [self]
        while let v = work.popLast() {
            // A container already seen was checked with everything in it: skipped before the
            // predicate, so each distinct container costs its size once. An empty one's storage is
            // not unique (the empty singleton), but it is cheap to check again.
            switch v {
            case .array(let xs), .set(let xs):
                // Tagged by kind: an array and a set may share storage, and a writer may refuse one only.
                let key = UInt64(StorageIdentity.of(xs)) << 2 | (v.kind == .set ? 2 : 1)
                guard xs.isEmpty || visited.insert(key).inserted else { continue }
                if predicate(v) { return true }
                work.append(contentsOf: xs)
            case .dictionary(let d):
                let key = UInt64(StorageIdentity.of(d.entries)) << 2 | 3
                guard d.isEmpty || visited.insert(key).inserted else { continue }
                if predicate(v) { return true }
                for (k, x) in d.entries {
                    work.append(k)
                    work.append(x)
                }
            case .null, .bool, .integer, .real, .date, .data, .string, .uid:
                if predicate(v) { return true }
            }
        }
        return false
    }

    /// Throws ``PlistError/Code/limitExceeded`` naming the budget when writing this value as
    /// `form` would pass `budget`; returns before anything is written.
    package func checkExpansion(_ budget: OutputBudget, as form: String) throws(PlistError) {
        let (nodes, bytes) = expansion(within: budget)
        if nodes > budget.maxValues {
            throw PlistError(
                .limitExceeded,
                "writing this value as \(form) would write more than \(budget.maxValues) nodes (output budget "
                    + "maxValues): it shares sub-trees that the text form repeats once per reference")
        }
        if bytes > budget.maxBytes {
            throw PlistError(
                .limitExceeded,
                "writing this value as \(form) would write more than \(budget.maxBytes) bytes (output budget maxBytes)")
        }
    }
}
