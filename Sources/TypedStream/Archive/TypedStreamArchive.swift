// Sources/TypedStream/Archive/TypedStreamArchive.swift - The object layer: a whole typedstream read
// into its top-level groups, its objects and its classes, by number.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A whole typedstream: its header, its top-level groups, and every object and class it holds.
///
/// ```swift
/// let archive = try TypedStreamArchive(data)
/// for group in archive.groups { print(group.types, group.values) }
/// if case .object(let n?) = archive.root {
///     print(archive.classChain(of: n).map(\.name))     // ["NSMutableAttributedString", "NSAttributedString", "NSObject"]
/// }
/// let value = try archive.decodeRoot()                  // typed: AnyArchived.attributedString(…)
/// ```
///
/// Objects are numbered from 0 in the order they begin in the stream, so a value naming object 3
/// twice is one object referenced twice (and an object may name an object that contains it: a
/// cycle). Nothing is interpreted here: the typed layer (``decodeRoot()``,
/// ``decodeValues()``) maps the classes Foundation and AppKit archive to the Swift values
/// this package uses for keyed archives.
public struct TypedStreamArchive: Hashable, Sendable {
    /// The streamer version: 4 (every Mac OS X and macOS), or 3 (early NeXTSTEP).
    public var streamerVersion: Int
    /// The byte order of the stream's multi-byte numbers.
    public var byteOrder: TypedStreamByteOrder
    /// The system version the writer recorded (1000 on Mac OS X and macOS).
    public var systemVersion: Int
    /// The top-level groups, in order (an `NSArchiver` root object is one group `"@"`).
    public var groups: [TypedStreamGroup]
    /// Every object, by number.
    public var objects: [TypedStreamObject]
    /// Every class, by number.
    public var classes: [TypedStreamClass]
    /// How the stream was read, and how ``decodeRoot()`` and the other typed reads interpret it.
    public var options: TypedStreamOptions
    /// Where bytes that do not begin a group start, when ``TypedStreamOptions/allowsTrailingData``
    /// accepted them; `nil` when the stream ends with its last group.
    public var trailingDataOffset: Int?
    /// Object numbers in the order the objects end: an object's own objects end before it, so every
    /// object a value of it names is earlier in this order, unless it names an object still open
    /// around it (a cycle).
    var endOrder: [Int]

    /// Reads all of `data`.
    ///
    /// - Throws: ``TypedStreamError``: `notATypedStream`, `truncated`, `unexpectedTag`,
    ///   `invalidType`, `invalidLength`, `badReference`, `numberOutOfRange`, `corrupted`,
    ///   `limitExceeded`, `trailingData`, each with the byte offset (and the object being read).
    public init(
        _ data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default
    ) throws(TypedStreamError) {
        let span = data.span
        var scanner = try StreamScanner(span, limits: limits, options: options)
        var builder = ArchiveBuilder(data: data)
        while let event = try scanner.next(span) {
            try builder.add(event, offset: scanner.eventOffset)
        }
        streamerVersion = scanner.streamerVersion
        byteOrder = scanner.byteOrder
        systemVersion = scanner.systemVersion
        groups = builder.groups
        objects = builder.objects
        classes = scanner.classes
        trailingDataOffset = scanner.trailingOffset
        endOrder = builder.endOrder
        self.options = options
    }

    /// Whether `data` starts with a typedstream header.
    public static func isTypedStream(_ data: Data) -> Bool { TypedStreamReader.isTypedStream(data) }

    /// The first value of the first group: the root object of an `NSArchiver` archive.
    public var root: TypedStreamValue? { groups.first?.values.first }

    /// Class `number` and its superclasses, the class first (bounded: a chain cannot be longer than
    /// the classes read).
    public func classChain(ofClass number: Int) -> [TypedStreamClass] {
        var chain: [TypedStreamClass] = []
        var next: Int? = number
        while let n = next, classes.indices.contains(n), chain.count < classes.count {
            chain.append(classes[n])
            next = classes[n].superclass
        }
        return chain
    }

    /// The class chain of object `number`, its class first.
    public func classChain(of object: Int) -> [TypedStreamClass] {
        guard objects.indices.contains(object) else { return [] }
        return classChain(ofClass: objects[object].classNumber)
    }

    /// The class name of object `number` (`""` when there is no such object).
    public func className(of object: Int) -> String {
        guard objects.indices.contains(object), classes.indices.contains(objects[object].classNumber) else {
            return ""
        }
        return classes[objects[object].classNumber].name
    }
}

extension TypedStreamArchive {
    /// The objects `value` names, directly or through the objects it names (by object number).
    func reachableObjects(from value: TypedStreamValue) -> [Bool] {
        var reached = Array(repeating: false, count: objects.count)
        var work: [TypedStreamValue] = [value]
        while let v = work.popLast() {
            switch v {
            case .object(let n?):
                guard objects.indices.contains(n), !reached[n] else { continue }
                reached[n] = true
                for group in objects[n].groups { work.append(contentsOf: group.values) }
            case .array(let items), .structure(_, let items):
                work.append(contentsOf: items)
            default:
                continue
            }
        }
        return reached
    }
}

/// Builds the object layer from events.
struct ArchiveBuilder {
    private struct Open {
        enum Kind { case group, object, array, structure }
        var kind: Kind
        var values: [TypedStreamValue] = []
        var groups: [TypedStreamGroup] = []
        var types = ""
        var name: String?
        var number = 0
        var offset = 0
    }

    let data: Data
    var groups: [TypedStreamGroup] = []
    var objects: [TypedStreamObject] = []
    var endOrder: [Int] = []
    private var open: [Open] = []

    init(data: Data) {
        self.data = data
        open.reserveCapacity(16)
        objects.reserveCapacity(min(data.count / 24, 1 << 16))
        endOrder.reserveCapacity(min(data.count / 24, 1 << 16))
    }

    private func slice(_ r: Range<Int>) -> Data {
        data.subdata(in: data.startIndex + r.lowerBound..<data.startIndex + r.upperBound)
    }

    private mutating func append(_ value: TypedStreamValue) {
        open[open.count - 1].values.append(value)
    }

    mutating func add(_ event: TypedStreamEvent, offset: Int) throws(TypedStreamError) {
        switch event {
        case .beginGroup(let types):
            var g = Open(kind: .group, types: types, offset: offset)
            // At most one value per byte of the encoding.
            g.values.reserveCapacity(types.utf8.count)
            open.append(g)
        case .endGroup:
            guard let g = open.popLast() else { return }
            let group = TypedStreamGroup(types: g.types, values: g.values, offset: g.offset)
            if open.isEmpty {
                groups.append(group)
            } else {
                open[open.count - 1].groups.append(group)
            }
        case .beginObject(let number, let cls):
            append(.object(number))
            objects.append(TypedStreamObject(classNumber: cls, groups: [], offset: offset))
            open.append(Open(kind: .object, number: number, offset: offset))
        case .endObject(let number):
            guard let o = open.popLast() else { return }
            objects[number].groups = o.groups
            endOrder.append(number)
        case .beginArray(let count):
            var a = Open(kind: .array)
            // At most one slot per byte that remains (each element takes at least one, except
            // elements that take none, whose number the reader bounds by the input's length).
            a.values.reserveCapacity(min(count, data.count))
            open.append(a)
        case .endArray:
            guard let a = open.popLast() else { return }
            append(.array(a.values))
        case .beginStructure(let name):
            open.append(Open(kind: .structure, name: name))
        case .endStructure:
            guard let s = open.popLast() else { return }
            append(.structure(name: s.name, fields: s.values))
        case .integer(let v, _): append(.integer(v))
        case .unsignedInteger(let v, _): append(.unsignedInteger(v))
        case .bool(let b): append(.bool(b))
        case .float(let f): append(.float(f))
        case .double(let d): append(.double(d))
        case .string(let r): append(.string(r.map(slice)))
        case .cString(let s): append(.cString(s))
        case .sharedString(let s, _): append(.sharedString(s))
        case .nilObject: append(.object(nil))
        case .objectReference(let n): append(.object(n))
        case .classValue(let c): append(.class(c))
        case .bytes(let r): append(.bytes(slice(r)))
        case .union(let r): append(.union(slice(r)))
        case .ignored: append(.ignored)
        }
    }
}
