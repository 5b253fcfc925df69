// Sources/KeyedArchive/KeyedArchiveLimits.swift - Bounds that keep hostile keyed archives cheap.

public import PropertyList

/// Limits applied while unarchiving. The defaults are safe for untrusted archives; raise them for
/// trusted, unusually large ones. (`PlistLimits` and `TypedStreamLimits` are the same for the
/// other layers, with the same names for the same bounds.)
public struct KeyedArchiveLimits: Sendable, Hashable {
    /// Deepest nesting of objects and collections decoded recursively (default 512, as
    /// CoreFoundation). Two-phase objects are decoded from a queue and do not count.
    public var maxDepth: Int = 512
    /// Most values one unarchiver decodes (default 1 << 24): stops shared sub-trees from being
    /// expanded out of proportion.
    public var maxValues: Int = 1 << 24
    /// Limits of the property-list layer the archive is read through.
    public var plist: PlistLimits = .default

    /// The defaults.
    public static let `default` = KeyedArchiveLimits()

    public init(maxDepth: Int = 512, maxValues: Int = 1 << 24, plist: PlistLimits = .default) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
        self.plist = plist
    }
}
