// Sources/TypedStream/TypedStreamLimits.swift - Bounds that keep hostile typedstreams cheap, and the
// reading options.

/// Limits applied while reading a typedstream. The defaults are safe for untrusted input; raise them
/// for trusted, unusually large streams.
///
/// What is *not* a limit because it is checked instead: every length and count is compared with the
/// bytes that remain before anything is allocated or iterated (a `[N…]` array needs at least N times
/// the smallest size of its element), and every reference must name an entry already read.
public struct TypedStreamLimits: Sendable, Hashable {
    /// Deepest nesting of groups, objects, arrays and structures (default 512). The reader keeps an
    /// explicit stack; the typed layer converts objects in the order they end, so neither recurses
    /// with the input.
    public var maxDepth: Int = 512
    /// Most values one stream may hold, counting every scalar, string, object, array element and
    /// structure field (default 1 << 24). Every value takes at least one byte of the input, except
    /// `!` and empty structures and arrays, whose number is bounded by the input's length (at least
    /// 65,536): what is read is proportional to the input.
    public var maxValues: Int = 1 << 24
    /// Most entries of the object table: objects, classes and C strings (default 1 << 22).
    public var maxTableEntries: Int = 1 << 22
    /// Most entries of the shared-string table: type encodings, class names, C-string texts
    /// (default 1 << 22).
    public var maxSharedStrings: Int = 1 << 22
    /// Longest type encoding accepted, in bytes (default 4096).
    public var maxTypeEncodingLength: Int = 4096

    /// The defaults.
    public static let `default` = TypedStreamLimits()

    public init() {}

    public init(
        maxDepth: Int = 512, maxValues: Int = 1 << 24, maxTableEntries: Int = 1 << 22,
        maxSharedStrings: Int = 1 << 22, maxTypeEncodingLength: Int = 4096
    ) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
        self.maxTableEntries = maxTableEntries
        self.maxSharedStrings = maxSharedStrings
        self.maxTypeEncodingLength = maxTypeEncodingLength
    }
}

/// How a typedstream is read, and how its objects become typed values.
public struct TypedStreamOptions: Sendable, Hashable {
    /// Accept bytes after the last group that do not begin another group (default `false`: they are
    /// a `trailingData` error naming where they start). When accepted, the
    /// archive records where they start (``TypedStreamArchive/trailingDataOffset``).
    public var allowsTrailingData: Bool = false
    /// The size of a pointer (`@`, `#`, `*`, `%`, `:`) in a union's layout (default 8). A union
    /// (`(…)`) is written as the raw bytes of its C layout, so its byte count depends on the
    /// platform that wrote it: 4 for NeXTSTEP and 32-bit Mac OS X, 8 for 64-bit macOS.
    public var unionPointerSize: Int = 8
    /// Decode an attributed string's data attribute that holds a keyed archive (`bplist00`, as
    /// Messages stores its data-detector results) in place: the data becomes the archive's root
    /// object (default `true`). Data that does not decode as a keyed archive stays data.
    public var decodesNestedKeyedArchives: Bool = true

    /// The defaults (strict).
    public static let `default` = TypedStreamOptions()

    public init(allowsTrailingData: Bool = false, unionPointerSize: Int = 8, decodesNestedKeyedArchives: Bool = true) {
        self.allowsTrailingData = allowsTrailingData
        self.unionPointerSize = unionPointerSize
        self.decodesNestedKeyedArchives = decodesNestedKeyedArchives
    }
}
