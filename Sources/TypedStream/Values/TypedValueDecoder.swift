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
// every object a value names is converted before, unless it is an object still open around it. A
// cycle through instances keeps the instance (it is created before its values are read, and an
// instance naming an open object of a value class gets that object's value once it is known); a
// value class that reaches itself through values (an array containing itself) is a `cycle` error.
// Nothing recurses with the input: the objects are converted in one loop.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

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
    ///   value class contains itself.
    public func decodeRoot() throws(TypedStreamError) -> AnyArchived {
        guard let root else { throw TypedStreamError(.typeMismatch, "the stream has no value") }
        var decoder = TypedValueDecoder(archive: self, options: options)
        do {
            let value = try decoder.value(root) ?? .null
            decoder.emptyShells(unreachableFrom: root)
            return value
        } catch {
            decoder.breakReferenceCycles()
            throw error
        }
    }

    /// Every value of every top-level group, in order, as typed values (a `!` is left out).
    public func decodeValues() throws(TypedStreamError) -> [AnyArchived] {
        var decoder = TypedValueDecoder(archive: self, options: options)
        var out: [AnyArchived] = []
        do {
            for group in groups {
                for v in group.values {
                    if let typed = try decoder.value(v) { out.append(typed) }
                }
            }
        } catch {
            decoder.breakReferenceCycles()
            throw error
        }
        return out
    }

    /// Every object as a typed value, by number: each converted once, so an object named from several
    /// places is one value (one `ArchivedInstance` for an unknown class).
    ///
    /// - Throws: as ``decodeRoot()``.
    public func decodeObjects() throws(TypedStreamError) -> [AnyArchived] {
        var decoder = TypedValueDecoder(archive: self, options: options)
        var out: [AnyArchived] = []
        out.reserveCapacity(objects.count)
        do {
            for n in objects.indices { out.append(try decoder.object(n)) }
        } catch {
            decoder.breakReferenceCycles()
            throw error
        }
        return out
    }

    /// Object `number` as a typed value.
    ///
    /// - Throws: `badReference` when there is no such object; as ``decodeRoot()``.
    public func decodeObject(_ number: Int) throws(TypedStreamError) -> AnyArchived {
        guard objects.indices.contains(number) else {
            throw TypedStreamError(.badReference, "no object \(number) (\(objects.count) objects)")
        }
        var decoder = TypedValueDecoder(archive: self, options: options)
        do {
            let value = try decoder.object(number)
            decoder.emptyShells(unreachableFrom: .object(number))
            return value
        } catch {
            decoder.breakReferenceCycles()
            throw error
        }
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
    var options: TypedStreamOptions { get }
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

/// Converts an archive's objects, each once, in the order they end: the one-pass decoder's steps
/// (StreamingDecoder.swift) replayed over the object layer, so both give the same values and the
/// same errors. When object `n` is converted, every object that ended before it is converted; the
/// others are open around it in the stream: an instance (of a class without an interpretation) is
/// the instance, filled in its turn; an object of a value class is a placeholder while an instance
/// is filled (replaced by its value once every object is converted), else a `cycle`.
struct TypedValueDecoder: TypedObjectSource {
    let archive: TypedStreamArchive
    let options: TypedStreamOptions
    private var results: [AnyArchived?]
    /// The instance of each object of a class without an interpretation, or of a value class whose
    /// values fit no layout (created when first named, or when converted).
    private var shells: [ArchivedInstance?]
    private var converted = false
    /// The placeholders of open value-class objects that instances named.
    private var placeholders = Placeholders()
    /// Each class's kind, by class number.
    private let kinds: [ClassKind]

    init(archive: TypedStreamArchive, options: TypedStreamOptions) {
        self.archive = archive
        self.options = options
        results = Array(repeating: nil, count: archive.objects.count)
        shells = Array(repeating: nil, count: archive.objects.count)
        kinds = archive.classes.map { ClassKind($0.name) }
    }

    func className(ofClass number: Int) -> String? {
        archive.classes.indices.contains(number) ? archive.classes[number].name : nil
    }

    private func kind(_ number: Int) -> ClassKind {
        let cls = archive.objects[number].classNumber
        return kinds.indices.contains(cls) ? kinds[cls] : .other
    }

    /// Object `number`: converted (every object is, on the first call); during the conversion, see
    /// the type's description.
    mutating func object(_ number: Int) throws(TypedStreamError) -> AnyArchived {
        if let done = results[number] { return done }
        if !converted {
            try convertAll()
            if let done = results[number] { return done }
        }
        if let instance = shells[number] { return .object(instance) }
        if !kind(number).isValue { return .object(shell(number)) }
        if placeholders.filling { return .object(placeholders.use(number)) }
        throw TypedStreamError(
            .cycle, offset: archive.objects[number].offset, object: number,
            "object \(number) (\(archive.className(of: number))) contains itself")
    }

    /// Converts every object, in the order they end.
    private mutating func convertAll() throws(TypedStreamError) {
        converted = true
        for n in archive.endOrder where results[n] == nil {
            let values = Fields(archive.objects[n].values)
            let kind = kind(n)
            if !kind.isValue {
                let instance = shell(n)
                try fillInstance(instance, values)
                results[n] = .object(instance)
            } else if let typed = try typedValue(kind: kind, values) {
                results[n] = typed
            } else {
                let instance = shell(n)
                try fillInstance(instance, values)
                results[n] = .object(instance)
            }
        }
        placeholders.replace { results[$0] }
    }

    /// Fills `instance`; an open value-class object among its values is a placeholder.
    private mutating func fillInstance(_ instance: ArchivedInstance, _ values: Fields) throws(TypedStreamError) {
        let before = placeholders.beginFilling()
        defer { placeholders.endFilling(instance, since: before) }
        try fill(instance, values)
    }

    /// Empties every instance made (for a caller that keeps none of them; every cycle goes through
    /// one, see `AnyArchived.breakReferenceCycles()`).
    func breakReferenceCycles() {
        for case let instance? in shells {
            instance.fields = [:]
            instance.unkeyed = []
        }
    }

    /// Empties the instances of the objects `value` does not reach (every object is converted;
    /// those the caller does not get would keep a cycle alive).
    func emptyShells(unreachableFrom value: TypedStreamValue) {
        guard shells.contains(where: { $0 != nil }) else { return }
        let reached = archive.reachableObjects(from: value)
        for (n, shell) in shells.enumerated() where !reached[n] {
            shell?.fields = [:]
            shell?.unkeyed = []
        }
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
