// Sources/TypedStream/Values/StreamingDecoder.swift - Typed values straight from the bytes, in one
// pass over the events: no object layer is built.
//
// The values of each open object (and array, structure) are kept on one stack; when an object ends,
// its class's layout reads them (the same layouts as `TypedValueDecoder`, through
// `TypedObjectSource`) and they are popped. Every object a value names has ended before (its typed
// value is known) or is still open around it: a cycle, kept through the `ArchivedInstance` an
// object of a class that is not a value class gets when it begins. An instance (of such a class, or
// of a value class whose values fit no layout) that names a value-class object still open gets a
// placeholder, replaced by that object's value once the stream has been read: the object layer's
// decoder, which converts recursively, gives the instance the finished value. A value-class object
// that reaches itself through values only is a cycle, as there. So the result is the one
// `TypedStreamArchive(data).decodeValues()` gives, without the per-group and per-object arrays of the
// object layer.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TypedStreamArchive {
    /// The typed values of every top-level group of `data`, read straight from the bytes (no object
    /// layer is built): the values ``decodeValues()`` gives for the archive of `data`, in
    /// about half the time.
    ///
    /// - Throws: ``TypedStreamError``: the reading errors of ``init(_:limits:options:)``, and those
    ///   of ``decodeValues()`` (`cycle`, `limitExceeded`).
    public static func decodeValues(
        from data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default
    ) throws(TypedStreamError) -> [AnyArchived] {
        try StreamingDecoder.decode(data, limits: limits, options: options, keep: .all).values
    }

    /// The root object of `data` (the first value of its first group) as a typed value, read straight
    /// from the bytes: the value ``decodeRoot()`` gives for the archive of `data`.
    ///
    /// - Throws: as ``decodeValues(from:limits:options:)``; `typeMismatch` when the stream
    ///   has no value.
    public static func decodeRoot(
        from data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default
    ) throws(TypedStreamError) -> AnyArchived {
        let decoded = try StreamingDecoder.decode(data, limits: limits, options: options, keep: .first)
        guard let root = decoded.values.first else {
            throw TypedStreamError(.typeMismatch, "the stream has no value")
        }
        return root
    }
}

/// The one-pass typed decoder.
struct StreamingDecoder: TypedObjectSource {
    /// The values a caller keeps: every top-level value, or the first only (the instances of the
    /// objects after it are emptied, so that the ones that contain themselves are freed).
    enum Keep { case all, first }

    /// What a decode gives: the typed values, and what names the root (for messages).
    struct Result {
        var values: [AnyArchived]
        /// The class name and offset of the root object, when the root is an object.
        var root: (className: String, offset: Int)?
    }

    private enum Open {
        case object(number: Int, start: Int)
        case array(start: Int)
        case structure(name: String?, start: Int)
    }

    let options: TypedStreamOptions
    private var classes: [TypedStreamClass] = []
    /// Each class's kind, by class number.
    private var kinds: [ClassKind] = []
    /// Each object, by object number.
    private var objects: [Slot] = []
    private var stack: [TypedStreamValue] = []
    private var open: [Open] = []
    /// The placeholders of open value-class objects that instances named.
    private var placeholders = Placeholders()

    /// What is known of an object.
    private struct Slot {
        /// Its typed value, once it has ended.
        var result: AnyArchived?
        /// Its instance, for a class that is not a value class (created when it begins).
        var instance: ArchivedInstance?
        var cls: Int
        var offset: Int
    }

    init(options: TypedStreamOptions, expectedObjects: Int) {
        self.options = options
        classes.reserveCapacity(min(expectedObjects, 16))
        kinds.reserveCapacity(min(expectedObjects, 16))
        objects.reserveCapacity(expectedObjects)
        stack.reserveCapacity(64)
        open.reserveCapacity(16)
    }

    /// Decodes `data`. When it throws, or for the objects the caller does not keep, the instances
    /// made are emptied: a graph that contains itself is not left behind.
    static func decode(
        _ data: Data, limits: TypedStreamLimits, options: TypedStreamOptions,
        keep: Keep
    ) throws(TypedStreamError) -> Result {
        let span = data.span
        var scanner = try StreamScanner(span, limits: limits, options: options)
        // An object takes 3 bytes at least (class reference, end of object, a value or none);
        // typical message bodies hold one in 20-40 bytes.
        var decoder = StreamingDecoder(options: options, expectedObjects: min(data.count / 16 + 4, 1024))
        // The objects of the first top-level value: those begun before it is complete.
        var firstValueObjects: Int?
        var values: [AnyArchived] = []
        do {
            while let event = try scanner.next(span) {
                // New classes are copied before the event that names them (a chain is complete when
                // its event is reported, so the classes already copied never change).
                if scanner.classes.count != decoder.classes.count { decoder.syncClasses(scanner.classes) }
                try decoder.add(event, data: data, offset: scanner.eventOffset)
                if firstValueObjects == nil, decoder.open.isEmpty, !decoder.stack.isEmpty {
                    firstValueObjects = decoder.objects.count
                }
            }
            decoder.replacePlaceholders()
            values.reserveCapacity(decoder.stack.count)
            for v in decoder.stack {
                if let typed = try decoder.value(v) { values.append(typed) }
            }
        } catch {
            decoder.emptyInstances(from: 0)
            throw error
        }
        if keep == .first { decoder.emptyInstances(from: firstValueObjects ?? 0) }
        var root: (String, Int)?
        if case .object(let n?)? = decoder.stack.first {
            root = (decoder.className(ofClass: decoder.objects[n].cls) ?? "", decoder.objects[n].offset)
        }
        return Result(values: values, root: root)
    }

    func className(ofClass number: Int) -> String? {
        classes.indices.contains(number) ? classes[number].name : nil
    }

    /// Object `number`: its typed value once it has ended; while it is open, its instance, or for
    /// a value class a placeholder (while an instance is filled) or a cycle.
    mutating func object(_ number: Int) throws(TypedStreamError) -> AnyArchived {
        let slot = objects[number]
        if let done = slot.result { return done }
        guard let instance = slot.instance else {
            if placeholders.filling { return .object(placeholders.use(number)) }
            throw TypedStreamError(
                .cycle, offset: slot.offset, object: number,
                "object \(number) (\(className(ofClass: slot.cls) ?? "")) contains itself")
        }
        return .object(instance)
    }

    private mutating func add(_ event: TypedStreamEvent, data: Data, offset: Int) throws(TypedStreamError) {
        switch event {
        case .beginGroup, .endGroup:
            break
        case .beginObject(let number, let cls):
            stack.append(.object(number))
            objects.append(
                Slot(
                    result: nil, instance: kinds[cls].isValue ? nil : TypedLayouts.instance(chain(cls)), cls: cls,
                    offset: offset))
            open.append(.object(number: number, start: stack.count))
        case .endObject(let number):
            guard case .object(_, let start)? = open.popLast() else { return }
            // The slice of the stack is released before the stack shrinks: while it lives, the
            // buffer is shared and `removeSubrange` would copy all of it (every value of the objects
            // still open), once per object.
            do {
                let values = Fields(stack[start...])
                if let instance = objects[number].instance {
                    try fillInstance(instance, values)
                    objects[number].result = .object(instance)
                } else if let typed = try typedValue(kind: kinds[objects[number].cls], values) {
                    objects[number].result = typed
                } else {
                    let instance = TypedLayouts.instance(chain(objects[number].cls))
                    objects[number].instance = instance
                    try fillInstance(instance, values)
                    objects[number].result = .object(instance)
                }
            }
            stack.removeLast(stack.count - start)
        case .beginArray:
            open.append(.array(start: stack.count))
        case .endArray:
            guard case .array(let start)? = open.popLast() else { return }
            let items = Array(stack[start...])
            stack.removeLast(stack.count - start)
            stack.append(.array(items))
        case .beginStructure(let name):
            open.append(.structure(name: name, start: stack.count))
        case .endStructure:
            guard case .structure(let name, let start)? = open.popLast() else { return }
            let fields = Array(stack[start...])
            stack.removeLast(stack.count - start)
            stack.append(.structure(name: name, fields: fields))
        case .integer(let v, _): stack.append(.integer(v))
        case .unsignedInteger(let v, _): stack.append(.unsignedInteger(v))
        case .bool(let b): stack.append(.bool(b))
        case .float(let f): stack.append(.float(f))
        case .double(let d): stack.append(.double(d))
        case .string(let r): stack.append(.string(r.map { slice(data, $0) }))
        case .cString(let s): stack.append(.cString(s))
        case .sharedString(let s, _): stack.append(.sharedString(s))
        case .nilObject: stack.append(.object(nil))
        case .objectReference(let n): stack.append(.object(n))
        case .classValue(let c): stack.append(.class(c))
        case .bytes(let r): stack.append(.bytes(slice(data, r)))
        case .union(let r): stack.append(.union(slice(data, r)))
        case .ignored: stack.append(.ignored)
        }
    }

    /// Empties the instances of objects `first...` (see `AnyArchived.breakReferenceCycles()`: every
    /// cycle goes through an instance this decoder made).
    private func emptyInstances(from first: Int) {
        for slot in objects[min(first, objects.count)...] {
            guard let instance = slot.instance else { continue }
            instance.fields = [:]
            instance.unkeyed = []
        }
    }

    /// Fills `instance`; an open value-class object among its values is a placeholder.
    private mutating func fillInstance(_ instance: ArchivedInstance, _ values: Fields) throws(TypedStreamError) {
        let before = placeholders.beginFilling()
        defer { placeholders.endFilling(instance, since: before) }
        try fill(instance, values)
    }

    /// Replaces every placeholder by its object's value (every object has ended).
    private func replacePlaceholders() {
        placeholders.replace { objects[$0].result }
    }

    /// Appends the classes of `all` (the scanner's) read since the last call.
    private mutating func syncClasses(_ all: [TypedStreamClass]) {
        guard all.count > classes.count else { return }
        for c in all[classes.count...] {
            kinds.append(ClassKind(c.name))
            classes.append(c)
        }
    }

    private func slice(_ data: Data, _ r: Range<Int>) -> Data {
        data.subdata(in: data.startIndex + r.lowerBound..<data.startIndex + r.upperBound)
    }

    /// Class `number` and its superclasses (bounded by the classes read).
    private func chain(_ number: Int) -> [TypedStreamClass] {
        var out: [TypedStreamClass] = []
        var next: Int? = number
        while let n = next, classes.indices.contains(n), out.count < classes.count {
            out.append(classes[n])
            next = classes[n].superclass
        }
        return out
    }
}
