// Sources/PropertyList/PlistLimits.swift - Bounds that keep hostile input cheap.

/// Limits applied while reading. The defaults are safe for untrusted input of any size;
/// raise them for trusted, unusually large files.
///
/// What is *not* a limit because it is proven instead: every length, count × width and offset is
/// checked against the actual bytes with overflow-checked arithmetic before it is used, so no
/// allocation is ever larger than the input justifies.
public struct PlistLimits: Sendable, Hashable {
    /// Deepest nesting of containers while materialising or walking (default 512, CoreFoundation's
    /// limit on macOS and Linux). Traversal uses an explicit stack, never the call stack.
    public var maxDepth: Int = 512
    /// Largest object count a trailer may declare (default 1 << 27). The offset table must also
    /// fit in the file, which bounds the count far more tightly for any real input.
    public var maxObjects: Int = 1 << 27
    /// Most values a single materialisation may produce, counting every distinct object once and
    /// every element, key and value slot (default 1 << 28). Shared sub-trees are memoised, so a DAG
    /// costs its size once; this budget stops anything that would still grow out of proportion.
    public var maxValues: Int = 1 << 28
    /// Largest output of inflating a zlib/gzip envelope (default 256 MiB): a zip bomb stops here.
    public var maxDecompressedBytes: Int = 256 << 20
    /// Largest UID accepted (default `UInt64.max`: the format allows 8-byte UIDs and other writers
    /// emit them). CoreFoundation rejects UIDs above `UInt32.max`; set this to match it. The keyed
    /// layer checks every UID against the archive's object count anyway.
    public var maxUID: UInt64 = .max

    /// The defaults.
    public static let `default` = PlistLimits()

    public init() {}

    public init(
        maxDepth: Int = 512, maxObjects: Int = 1 << 27, maxValues: Int = 1 << 28,
        maxDecompressedBytes: Int = 256 << 20, maxUID: UInt64 = .max
    ) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxValues = maxValues
        self.maxDecompressedBytes = maxDecompressedBytes
        self.maxUID = maxUID
    }
}
