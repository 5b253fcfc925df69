// Sources/PropertyList/Value/NestedPlists.swift - Property lists stored as data inside property lists.
//
// Preferences files keep NSKeyedArchiver archives (colours, fonts, saved state) in `<data>` values:
// a binary property list inside a property list. Forensics tools and `bplist print` want them shown
// decoded, in place. The walk is memoised by shared storage (a sub-tree referenced twice is expanded
// once), bounded in depth (of containers and of nesting), and a nested plist that does not decode
// stays data, with the problem reported under the key path of the outer value.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `data` value that looks like a binary property list but does not decode, found by
/// ``PlistValue/expandingNestedPlists(maxNesting:limits:budget:)``; the value stays `data`.
public struct NestedPlistIssue: Sendable, Hashable, CustomStringConvertible {
    /// The key path of the data value in the outer value (dictionary keys and array indexes).
    public var keyPath: PlistKeyPath
    /// Why its bytes did not decode.
    public var error: PlistError

    /// An issue at `keyPath` (in the outer value) with `error`.
    public init(keyPath: PlistKeyPath, error: PlistError) {
        self.keyPath = keyPath
        self.error = error
    }

    public var description: String {
        "nested property list at \(keyPath.isEmpty ? "the root" : keyPath.description): \(error)"
    }
}

extension PlistValue {
    /// The key under which ``expandingNestedPlists(maxNesting:limits:budget:)`` puts a decoded nested plist:
    /// the data value becomes the one-entry dictionary `["$nested": decoded]`.
    public static let nestedPlistKey = "$nested"

    /// This value with every `data` value whose bytes are a binary property list (plain, or in a
    /// zlib or gzip envelope; a keyed archive is one) replaced by `["$nested": decoded]`, decoded
    /// recursively up to `maxNesting` levels of nesting.
    ///
    /// A data value that starts with `bplist` but does not decode stays data and is reported in
    /// `issues` with its key path; the outer value never fails. Data in a compressed envelope that
    /// does not hold a property list is left as it is, silently (it may be any compressed data).
    /// Shared sub-trees are expanded once (memoised by storage), so the cost is linear in the
    /// value's distinct nodes plus the nested plists' own sizes.
    ///
    /// - Parameters:
    ///   - maxNesting: How many levels of plists inside plists are decoded (default 8).
    ///   - limits: The limits each nested plist is decoded with.
    ///   - budget: What one nested plist may expand to when written out; one over it stays data and
    ///     is reported (`limitExceeded`), like a malformed one.
    public func expandingNestedPlists(
        maxNesting: Int = 8, limits: PlistLimits = .default, budget: OutputBudget = .default
    ) -> (value: PlistValue, issues: [NestedPlistIssue]) {
        var expander = NestedPlistExpander(limits: limits, budget: budget)
        let value = expander.expand(self, path: [], nesting: maxNesting, depth: 0)
        return (value, expander.issues)
    }
}

/// The walk of ``PlistValue/expandingNestedPlists(maxNesting:limits:budget:)``.
struct NestedPlistExpander {
    let limits: PlistLimits
    let budget: OutputBudget
    var issues: [NestedPlistIssue] = []
    /// Expanded containers by storage identity (and nesting left), so shared sub-trees cost once.
    var memo: [UInt64: PlistValue] = [:]
    /// The decoded nested plists, kept alive for the whole walk: a storage identity is an address,
    /// and a freed plist's address could be reused by the next one (a stale memo hit).
    var decodedPlists: [PlistValue] = []

    init(limits: PlistLimits, budget: OutputBudget) {
        self.limits = limits
        self.budget = budget
    }

    /// Containers deeper than this are returned as they are: the walk recurses, and decoded values
    /// are at most `limits.maxDepth` (512) deep, so only a hand-built value reaches it.
    static let maxContainerDepth = 1024

    mutating func expand(_ v: PlistValue, path: [String], nesting: Int, depth: Int) -> PlistValue {
        guard depth < Self.maxContainerDepth else { return v }
        switch v {
        case .data(let bytes):
            return nested(bytes, path: path, nesting: nesting, depth: depth) ?? v
        case .array(let xs), .set(let xs):
            guard !xs.isEmpty else { return v }
            let key = UInt64(StorageIdentity.of(xs)) &* 16 &+ UInt64(nesting & 15)
            if let known = memo[key] { return known }
            var out: [PlistValue] = []
            out.reserveCapacity(xs.count)
            for (i, x) in xs.enumerated() {
                out.append(expand(x, path: path + [String(i)], nesting: nesting, depth: depth + 1))
            }
            let result: PlistValue = if case .set = v { .set(out) } else { .array(out) }
            memo[key] = result
            return result
        case .dictionary(let d):
            guard !d.isEmpty else { return v }
            let key = UInt64(StorageIdentity.of(d.entries)) &* 16 &+ UInt64(nesting & 15)
            if let known = memo[key] { return known }
            var entries: [PlistDictionary.Element] = []
            entries.reserveCapacity(d.count)
            for (k, x) in d {
                let name = if case .string(let s) = k { s.string } else { "\(k)" }
                entries.append((k, expand(x, path: path + [name], nesting: nesting, depth: depth + 1)))
            }
            let result = PlistValue.dictionary(PlistDictionary(entries))
            memo[key] = result
            return result
        default:
            return v
        }
    }

    /// The decoded plist `bytes` hold, or nil when they do not look like one (or nesting is used up).
    mutating func nested(_ bytes: Data, path: [String], nesting: Int, depth: Int) -> PlistValue? {
        guard nesting > 0 else { return nil }
        let plain = bytes.starts(with: "bplist".utf8)
        guard plain || PlistCompression.detect(bytes) != nil else { return nil }
        let decoded: PlistValue
        do {
            decoded = try BinaryPlistDocument(bytes, limits: limits).value()
        } catch {
            // Compressed data that is not a plist is just data; a "bplist" that fails is a finding.
            if plain { issues.append(NestedPlistIssue(keyPath: PlistKeyPath(keys: path), error: error)) }
            return nil
        }
        do {
            // Small bytes can share sub-trees that expand without bound when shown: measured first.
            try decoded.checkExpansion(budget, as: "a nested property list")
        } catch {
            issues.append(NestedPlistIssue(keyPath: PlistKeyPath(keys: path), error: error))
            return nil
        }
        decodedPlists.append(decoded)
        let inner = expand(decoded, path: path + [PlistValue.nestedPlistKey], nesting: nesting - 1, depth: depth + 1)
        return .dictionary(PlistDictionary([(.string(PlistValue.nestedPlistKey), inner)]))
    }
}
