// Sources/TypedStream/Values/TypedValueDecoder.swift - The typed layer: a typedstream's objects as the
// Swift values this package uses for keyed archives (`AnyArchived`, `ArchivedInstance`, the
// `Archived…` value types).
//
// One interpretation per class: `NSString` is `.string`, `NSColor` is `.color(ArchivedColor)` here as
// in a keyed archive, only the layout they are read from differs (FoundationLayouts.swift,
// AppKitLayouts.swift). A class without an interpretation, or whose values are not the layout this
// package knows, is an `ArchivedInstance`: its class chain, the chain's versions, and its values in
// order (`unkeyed`). Never an error.
//
// Objects are converted in the order they end in the stream (`TypedStreamArchive.endOrder`), so
// every object a value names is converted before, unless it is an object still open around it: a
// cycle. A cycle through instances keeps the instance (it is created before its values are read); a
// value class that reaches itself (an array containing itself) is a `cycle` error. Nothing recurses
// with the input: the longest chain of conversions in progress is bounded by `maxDepth`.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a typedstream's objects become typed values.
public struct TypedStreamDecodingOptions: Sendable, Hashable {
    /// Decode an attributed string's data attribute that holds a keyed archive (`bplist00`, as
    /// Messages stores its data-detector results) in place: the data becomes the archive's root
    /// object (default `true`). Data that does not decode as a keyed archive stays data.
    public var decodeNestedKeyedArchives: Bool = true
    /// Deepest chain of objects converted at once (default 512). Reading a stream never needs more
    /// than one level; only objects that name objects not read before them do.
    public var maxDepth: Int = 512

    /// The defaults.
    public static let `default` = TypedStreamDecodingOptions()

    public init(decodeNestedKeyedArchives: Bool = true, maxDepth: Int = 512) {
        self.decodeNestedKeyedArchives = decodeNestedKeyedArchives
        self.maxDepth = maxDepth
    }
}

extension TypedStreamArchive {
    /// The root object (the first value of the first group) as a typed value.
    ///
    /// ```swift
    /// let archive = try TypedStreamArchive(attributedBody)
    /// if case .attributedString(let text) = try archive.decodeRoot() {
    ///     print(text.string, text.runs.count)
    /// }
    /// ```
    ///
    /// - Throws: ``TypedStreamError`` `typeMismatch` when the stream has no value, `cycle` when a
    ///   value class contains itself, `limitExceeded` past ``TypedStreamDecodingOptions/maxDepth``.
    public func decodeRoot(options: TypedStreamDecodingOptions = .default) throws(TypedStreamError) -> AnyArchived {
        guard let root else { throw TypedStreamError(.typeMismatch, "the stream has no value") }
        var decoder = TypedValueDecoder(archive: self, options: options)
        return try decoder.value(root) ?? .null
    }

    /// Every value of every top-level group, in order, as typed values (a `!` is left out).
    public func decodeValues(options: TypedStreamDecodingOptions = .default) throws(TypedStreamError) -> [AnyArchived] {
        var decoder = TypedValueDecoder(archive: self, options: options)
        var out: [AnyArchived] = []
        for group in groups {
            for v in group.values {
                if let typed = try decoder.value(v) { out.append(typed) }
            }
        }
        return out
    }

    /// Every object as a typed value, by number: each converted once, so an object named from several
    /// places is one value (one ``ArchivedInstance`` for an unknown class).
    ///
    /// - Throws: as ``decodeRoot(options:)``.
    public func decodeObjects(options: TypedStreamDecodingOptions = .default) throws(TypedStreamError) -> [AnyArchived]
    {
        var decoder = TypedValueDecoder(archive: self, options: options)
        var out: [AnyArchived] = []
        out.reserveCapacity(objects.count)
        for n in objects.indices { out.append(try decoder.object(n)) }
        return out
    }

    /// Object `number` as a typed value.
    ///
    /// - Throws: `badReference` when there is no such object; as ``decodeRoot(options:)``.
    public func decodeObject(_ number: Int, options: TypedStreamDecodingOptions = .default) throws(TypedStreamError)
        -> AnyArchived
    {
        guard objects.indices.contains(number) else {
            throw TypedStreamError(.badReference, "no object \(number) (\(objects.count) objects)")
        }
        var decoder = TypedValueDecoder(archive: self, options: options)
        return try decoder.object(number)
    }
}

/// The values of one object, indexed from 0 (a slice of a larger buffer, or a whole array).
struct Fields: RandomAccessCollection {
    let base: ArraySlice<TypedStreamValue>

    init(_ base: ArraySlice<TypedStreamValue>) { self.base = base }
    init(_ values: [TypedStreamValue]) { base = values[...] }

    var startIndex: Int { 0 }
    var endIndex: Int { base.count }
    subscript(i: Int) -> TypedStreamValue { base[base.startIndex + i] }
}

/// What the class layouts need of a decoder: the options, class names, and objects by number
/// (each converted once; one still open is a cycle, see the conformers).
protocol TypedObjectSource {
    var options: TypedStreamDecodingOptions { get }
    func className(ofClass number: Int) -> String?
    mutating func object(_ number: Int) throws(TypedStreamError) -> AnyArchived
}

extension TypedObjectSource {
    /// A value of a group: scalars as they are, objects converted, structures of known geometry as
    /// `.geometry`; `nil` for `!`.
    mutating func value(_ v: TypedStreamValue) throws(TypedStreamError) -> AnyArchived? {
        switch v {
        case .integer(let i): return Int(exactly: i).map(AnyArchived.integer) ?? .real(Double(i))
        case .unsignedInteger(let u): return Int(exactly: u).map(AnyArchived.integer) ?? .real(Double(u))
        case .bool(let b): return .bool(b)
        case .float(let f): return .real(Double(f))
        case .double(let d): return .real(d)
        case .string(let d?):
            if let s = String(validating: d, as: UTF8.self) { return .string(s) }
            return .data(d)
        case .string(nil), .cString(nil), .sharedString(nil), .object(nil), .class(nil): return .null
        case .cString(let s?), .sharedString(let s?): return .string(s)
        case .object(let n?): return try object(n)
        case .class(let c?): return className(ofClass: c).map(AnyArchived.string) ?? .null
        case .array(let items):
            var out: [AnyArchived] = []
            out.reserveCapacity(items.count)
            for item in items {
                if let typed = try value(item) { out.append(typed) }
            }
            return .array(out)
        case .bytes(let d), .union(let d): return .data(d)
        case .structure(let name, let fields):
            if let g = TypedLayouts.geometry(name: name, fields) { return .geometry(g) }
            var out: [AnyArchived] = []
            for field in fields {
                if let typed = try value(field) { out.append(typed) }
            }
            return .array(out)
        case .ignored: return nil
        }
    }

    /// An object of a class without an interpretation: `instance` gets its values in order.
    mutating func fill(_ instance: ArchivedInstance, _ values: Fields) throws(TypedStreamError) {
        var unkeyed: [AnyArchived] = []
        unkeyed.reserveCapacity(values.count)
        for v in values {
            if let typed = try value(v) { unkeyed.append(typed) }
        }
        instance.unkeyed = unkeyed
    }
}

/// Converts an archive's objects, each once, in the order they end.
struct TypedValueDecoder: TypedObjectSource {
    let archive: TypedStreamArchive
    let options: TypedStreamDecodingOptions
    private var results: [AnyArchived?]
    private var inProgress: [Bool]
    /// Instances created before their values were read (a cycle reached them).
    private var shells: [ArchivedInstance?]
    private var depth = 0
    private var converted = 0
    /// Each class's kind, by class number.
    private let kinds: [ClassKind]

    init(archive: TypedStreamArchive, options: TypedStreamDecodingOptions) {
        self.archive = archive
        self.options = options
        results = Array(repeating: nil, count: archive.objects.count)
        inProgress = Array(repeating: false, count: archive.objects.count)
        shells = Array(repeating: nil, count: archive.objects.count)
        kinds = archive.classes.map { ClassKind($0.name) }
    }

    func className(ofClass number: Int) -> String? {
        archive.classes.indices.contains(number) ? archive.classes[number].name : nil
    }

    /// Object `number`, converted once.
    mutating func object(_ number: Int) throws(TypedStreamError) -> AnyArchived {
        if let done = results[number] { return done }
        let name = archive.className(of: number)
        let cls = archive.objects[number].classNumber
        let kind = kinds.indices.contains(cls) ? kinds[cls] : .other
        if inProgress[number] {
            guard !kind.isValue else {
                throw TypedStreamError(
                    .cycle, offset: archive.objects[number].offset, object: number,
                    "object \(number) (\(name)) contains itself")
            }
            return .object(shell(number))
        }
        if converted == 0 {
            // First call: convert everything in the order the objects end, so that each conversion
            // finds the objects it names done.
            converted = 1
            for n in archive.endOrder where results[n] == nil && n != number {
                _ = try object(n)
            }
        }
        guard depth < options.maxDepth else {
            throw TypedStreamError(
                .limitExceeded, offset: archive.objects[number].offset, object: number,
                "objects nested deeper than maxDepth (\(options.maxDepth))")
        }
        depth += 1
        inProgress[number] = true
        defer {
            depth -= 1
            inProgress[number] = false
        }
        let values = Fields(archive.objects[number].values)
        let result: AnyArchived
        if shells[number] == nil, let typed = try typedValue(kind: kind, values) {
            result = typed
        } else {
            let instance = shell(number)
            try fill(instance, values)
            result = .object(instance)
        }
        results[number] = result
        return result
    }

    /// The instance of object `number`, created once.
    private mutating func shell(_ number: Int) -> ArchivedInstance {
        if let known = shells[number] { return known }
        let instance = TypedLayouts.instance(archive.classChain(of: number))
        shells[number] = instance
        return instance
    }
}

extension TypedLayouts {
    /// An instance of the class chain `chain` (the class first), its versions kept.
    static func instance(_ chain: [TypedStreamClass]) -> ArchivedInstance {
        let instance = ArchivedInstance(className: chain.first?.name ?? "", classChain: chain.map(\.name))
        instance.classVersions = chain.map(\.version)
        return instance
    }
}
