// Sources/PropertyList/Editing/PlistValueEditing.swift - Reading and changing a PlistValue by key path.
//
// Every edit walks the path once, without recursion, taking each container on the way out of its
// parent (so the parent no longer holds it and the container is uniquely referenced: changed in
// place, not copied), changes the last one, and puts them back bottom-up. An edit that fails puts
// everything back as it was (a parent dictionary it created is removed again), so `self` is
// unchanged when an edit throws. Dictionary entries keep their order: a new key goes at the end, a
// replaced value keeps its key's place, a removal closes the gap.

extension PlistValue {
    /// The value at `keyPath`, or `nil` when there is none (see ``value(at:)`` for why).
    public subscript(keyPath keyPath: PlistKeyPath) -> PlistValue? {
        try? value(at: keyPath)
    }

    /// The value at `keyPath`.
    ///
    /// - Throws: ``PlistError`` with code `keyNotFound` (a missing key: ``PlistError/keyPath`` ends
    ///   with it), `indexOutOfRange` (a position past the end, or a component that is not a
    ///   position, in an array), or `notAContainer` (the path goes through a scalar, named by
    ///   ``PlistError/keyPath``).
    /// - Complexity: O(length of the path × size of the dictionaries it passes through).
    public func value(at keyPath: PlistKeyPath) throws(PlistError) -> PlistValue {
        var current = self
        for (depth, component) in keyPath.components.enumerated() {
            switch current {
            case .dictionary(let d):
                guard let i = d.index(forKey: component.key) else {
                    throw EditFailure.keyNotFound(keyPath, depth)
                }
                current = d[i].value
            case .array(let elements), .set(let elements):
                guard let i = component.index, elements.indices.contains(i) else {
                    throw EditFailure.badPosition(keyPath, depth, count: elements.count, kind: current.kind)
                }
                current = elements[i]
            default:
                throw EditFailure.scalar(current.kind, keyPath, depth)
            }
        }
        return current
    }

    /// Inserts `value` at `keyPath`: a new key of a dictionary (added after its other entries), or an
    /// element of an array at a position from 0 to its count (the elements from there on move up).
    ///
    /// - Parameters:
    ///   - value: The value to insert.
    ///   - keyPath: Where. Its parent must exist, unless `creatingParents`.
    ///   - creatingParents: Create each missing dictionary on the way (as an empty dictionary).
    /// - Throws: ``PlistError`` with code `alreadyExists` when the dictionary has the key (the root
    ///   always exists), `indexOutOfRange`, `keyNotFound` or `notAContainer` (see ``value(at:)``);
    ///   the value is unchanged.
    public mutating func insert(_ value: PlistValue, at keyPath: PlistKeyPath, creatingParents: Bool = false)
        throws(PlistError)
    {
        guard !keyPath.isEmpty else {
            throw PlistError(.alreadyExists, keyPath: keyPath, "the root always has a value; replace it instead")
        }
        try editParent(of: keyPath, creatingParents: creatingParents) { (parent, last) throws(PlistError) in
            switch parent {
            case .dictionary(var d):
                if d.index(forKey: last.key) != nil {
                    throw PlistError(
                        .alreadyExists, keyPath: keyPath,
                        "\(EditFailure.place(keyPath.parent)) already has the key \(last.key.debugDescription)")
                }
                parent = .null
                d.appendNew(key: .string(last.key), value: value)
                parent = .dictionary(d)
            case .array(var elements), .set(var elements):
                guard let i = last.index, (0...elements.count).contains(i) else {
                    throw EditFailure.badPosition(
                        keyPath, keyPath.count - 1, count: elements.count, kind: parent.kind, end: true)
                }
                let isSet = parent.kind == .set
                parent = .null
                elements.insert(value, at: i)
                parent = isSet ? .set(elements) : .array(elements)
            default:
                throw EditFailure.scalar(parent.kind, keyPath, keyPath.count - 1)
            }
        }
    }

    /// Replaces the value at `keyPath`; a dictionary entry keeps its place, an array element its
    /// position.
    ///
    /// - Returns: The value that was there.
    /// - Throws: ``PlistError`` with code `keyNotFound`, `indexOutOfRange` or `notAContainer` (see
    ///   ``value(at:)``); the value is unchanged.
    @discardableResult
    public mutating func replace(_ value: PlistValue, at keyPath: PlistKeyPath) throws(PlistError) -> PlistValue {
        guard !keyPath.isEmpty else {
            defer { self = value }
            return self
        }
        var old = PlistValue.null
        try editParent(of: keyPath, creatingParents: false) { (parent, last) throws(PlistError) in
            old = try PlistValue.replaceChild(of: &parent, last, with: value, keyPath: keyPath, appending: false)
        }
        return old
    }

    /// Sets the value at `keyPath`: replaces it when there is one, inserts it otherwise (a new
    /// dictionary key at the end; in an array, the position just past the end appends).
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - keyPath: Where.
    ///   - creatingParents: Create each missing dictionary on the way (as an empty dictionary).
    /// - Throws: ``PlistError`` with code `keyNotFound`, `indexOutOfRange` or `notAContainer` (see
    ///   ``value(at:)``); the value is unchanged.
    public mutating func set(_ value: PlistValue, at keyPath: PlistKeyPath, creatingParents: Bool = false)
        throws(PlistError)
    {
        guard !keyPath.isEmpty else {
            self = value
            return
        }
        try editParent(of: keyPath, creatingParents: creatingParents) { (parent, last) throws(PlistError) in
            if case .dictionary(var d) = parent, d.index(forKey: last.key) == nil {
                parent = .null
                d.appendNew(key: .string(last.key), value: value)
                parent = .dictionary(d)
                return
            }
            _ = try PlistValue.replaceChild(of: &parent, last, with: value, keyPath: keyPath, appending: true)
        }
    }

    /// Removes the value at `keyPath`: a dictionary entry (the others keep their order) or an array
    /// element (those after it move down).
    ///
    /// - Returns: The value removed.
    /// - Throws: ``PlistError`` with code `keyNotFound` (also for the root: a property list always has
    ///   one), `indexOutOfRange` or `notAContainer` (see ``value(at:)``); the value is unchanged.
    @discardableResult
    public mutating func remove(at keyPath: PlistKeyPath) throws(PlistError) -> PlistValue {
        guard !keyPath.isEmpty else {
            throw PlistError(
                .keyNotFound, keyPath: keyPath, "the root cannot be removed: a property list has one value")
        }
        var removed = PlistValue.null
        try editParent(of: keyPath, creatingParents: false) { (parent, last) throws(PlistError) in
            switch parent {
            case .dictionary(var d):
                guard let i = d.index(forKey: last.key) else {
                    throw EditFailure.keyNotFound(keyPath, keyPath.count - 1)
                }
                parent = .null
                removed = d.remove(at: i).value
                parent = .dictionary(d)
            case .array(var elements), .set(var elements):
                guard let i = last.index, elements.indices.contains(i) else {
                    throw EditFailure.badPosition(keyPath, keyPath.count - 1, count: elements.count, kind: parent.kind)
                }
                let isSet = parent.kind == .set
                parent = .null
                removed = elements.remove(at: i)
                parent = isSet ? .set(elements) : .array(elements)
            default:
                throw EditFailure.scalar(parent.kind, keyPath, keyPath.count - 1)
            }
        }
        return removed
    }

    /// Appends `value` to the array (or set) at `keyPath`.
    ///
    /// - Parameters:
    ///   - value: The new last element.
    ///   - keyPath: The array.
    ///   - creatingParents: When nothing is at `keyPath`, create the array (holding `value`) and each
    ///     missing dictionary on the way.
    /// - Throws: ``PlistError`` with code `notAContainer` when the value at `keyPath` is not an array
    ///   or a set, `keyNotFound`, `indexOutOfRange` (see ``value(at:)``); the value is unchanged.
    public mutating func append(_ value: PlistValue, to keyPath: PlistKeyPath, creatingParents: Bool = false)
        throws(PlistError)
    {
        guard let last = keyPath.last else {
            try PlistValue.appendElement(value, to: &self, keyPath: keyPath)
            return
        }
        try editParent(of: keyPath, creatingParents: creatingParents) { (parent, _) throws(PlistError) in
            if creatingParents, case .dictionary(var d) = parent, d.index(forKey: last.key) == nil {
                parent = .null
                d.appendNew(key: .string(last.key), value: .array([value]))
                parent = .dictionary(d)
                return
            }
            try PlistValue.withChild(of: &parent, last, keyPath: keyPath) { (target) throws(PlistError) in
                try PlistValue.appendElement(value, to: &target, keyPath: keyPath)
            }
        }
    }

    /// Applies `edits` in order, all or nothing: when one fails, the value is left as it was before
    /// the first and the error of the failing edit is thrown.
    ///
    /// - Throws: The first failing edit's ``PlistError``.
    public mutating func apply(_ edits: [PlistEdit<PlistValue>]) throws(PlistError) {
        var edited = self
        for edit in edits { try edited.apply(edit) }
        self = edited
    }

    /// Applies one edit (see ``PlistEdit``).
    public mutating func apply(_ edit: PlistEdit<PlistValue>) throws(PlistError) {
        switch edit {
        case .insert(let value, let path, let parents): try insert(value, at: path, creatingParents: parents)
        case .replace(let value, let path): try replace(value, at: path)
        case .set(let value, let path, let parents): try set(value, at: path, creatingParents: parents)
        case .remove(let path): try remove(at: path)
        case .append(let value, let path, let parents): try append(value, to: path, creatingParents: parents)
        }
    }
}

// MARK: - The walk

extension PlistValue {
    /// A container taken out of its parent on the way down, and where its child on the path was.
    private enum Step {
        /// A dictionary and the entry leading on; `created`: the entry was added by this edit.
        case dictionary(PlistDictionary, entry: Int, created: Bool)
        case array([PlistValue], position: Int, isSet: Bool)
    }

    /// Walks to the parent of `keyPath`'s last component, runs `body` on it (with that component),
    /// and puts the containers back. When anything throws, `self` is restored.
    private mutating func editParent(
        of keyPath: PlistKeyPath, creatingParents: Bool,
        _ body: (inout PlistValue, PlistKeyPath.Component) throws(PlistError) -> Void
    ) throws(PlistError) {
        guard let last = keyPath.last else { return }
        var steps: [Step] = []
        var current = self
        self = .null
        var failure: PlistError?
        for (depth, component) in keyPath.components.dropLast().enumerated() {
            switch current {
            case .dictionary(var d):
                current = .null
                if let i = d.index(forKey: component.key) {
                    current = d.takeValue(at: i)
                    steps.append(.dictionary(d, entry: i, created: false))
                } else if creatingParents {
                    d.appendNew(key: .string(component.key), value: .null)
                    current = .dictionary(PlistDictionary())
                    steps.append(.dictionary(d, entry: d.count - 1, created: true))
                } else {
                    current = .dictionary(d)
                    failure = EditFailure.keyNotFound(keyPath, depth)
                }
            case .array(var elements), .set(var elements):
                let isSet = current.kind == .set
                if let i = component.index, elements.indices.contains(i) {
                    current = .null
                    let child = elements[i]
                    elements[i] = .null
                    current = child
                    steps.append(.array(elements, position: i, isSet: isSet))
                } else {
                    failure = EditFailure.badPosition(keyPath, depth, count: elements.count, kind: current.kind)
                }
            default:
                failure = EditFailure.scalar(current.kind, keyPath, depth)
            }
            if failure != nil { break }
        }
        if failure == nil {
            do {
                try body(&current, last)
            } catch {
                failure = error
            }
        }
        // Put the containers back, bottom-up; on failure, drop the entries this edit created.
        while let step = steps.popLast() {
            switch step {
            case .dictionary(var d, let entry, let created):
                if failure != nil && created {
                    d.remove(at: entry)
                } else {
                    d.setValue(current, at: entry)
                }
                current = .null
                current = .dictionary(d)
            case .array(var elements, let position, let isSet):
                elements[position] = current
                current = .null
                current = isSet ? .set(elements) : .array(elements)
            }
        }
        self = current
        if let failure { throw failure }
    }

    /// Replaces the child `component` of `container` (a dictionary key that exists, an array
    /// position in range; with `appending`, the position just past the end of an array appends).
    private static func replaceChild(
        of container: inout PlistValue, _ component: PlistKeyPath.Component, with value: PlistValue,
        keyPath: PlistKeyPath, appending: Bool
    ) throws(PlistError) -> PlistValue {
        if appending, case .array(var elements) = container, component.index == elements.count {
            container = .null
            elements.append(value)
            container = .array(elements)
            return .null
        }
        var old = PlistValue.null
        try withChild(of: &container, component, keyPath: keyPath) { (child) throws(PlistError) in
            old = child
            child = value
        }
        return old
    }

    /// Runs `body` on the child `component` of `container` in place (the container uniquely held).
    private static func withChild(
        of container: inout PlistValue, _ component: PlistKeyPath.Component, keyPath: PlistKeyPath,
        _ body: (inout PlistValue) throws(PlistError) -> Void
    ) throws(PlistError) {
        let depth = keyPath.count - 1
        switch container {
        case .dictionary(var d):
            guard let i = d.index(forKey: component.key) else { throw EditFailure.keyNotFound(keyPath, depth) }
            container = .null
            var child = d.takeValue(at: i)
            defer {
                d.setValue(child, at: i)
                container = .dictionary(d)
            }
            try body(&child)
        case .array(var elements), .set(var elements):
            guard let i = component.index, elements.indices.contains(i) else {
                throw EditFailure.badPosition(keyPath, depth, count: elements.count, kind: container.kind)
            }
            let isSet = container.kind == .set
            container = .null
            var child = elements[i]
            elements[i] = .null
            defer {
                elements[i] = child
                container = isSet ? .set(elements) : .array(elements)
            }
            try body(&child)
        default:
            throw EditFailure.scalar(container.kind, keyPath, depth)
        }
    }

    /// Appends `value` to `target`, an array or a set (`keyPath` names it in the error otherwise).
    private static func appendElement(_ value: PlistValue, to target: inout PlistValue, keyPath: PlistKeyPath)
        throws(PlistError)
    {
        switch target {
        case .array(var elements), .set(var elements):
            let isSet = target.kind == .set
            target = .null
            elements.append(value)
            target = isSet ? .set(elements) : .array(elements)
        default:
            throw PlistError(
                .notAContainer, keyPath: keyPath,
                "\(EditFailure.place(keyPath)) is \(EditFailure.article(target.kind)), not an array: nothing to append to"
            )
        }
    }
}

/// The errors of a walk along a key path, worded in one place.
enum EditFailure {
    /// `keyNotFound`: the dictionary reached by `keyPath`'s first `depth` components lacks component `depth`.
    static func keyNotFound(_ keyPath: PlistKeyPath, _ depth: Int) -> PlistError {
        let key = keyPath.components[depth].key
        return PlistError(
            .keyNotFound, keyPath: keyPath.prefix(depth + 1),
            "\(place(keyPath.prefix(depth))) has no key \(key.debugDescription)"
                + (depth + 1 < keyPath.count ? " (looking for \(keyPath))" : ""))
    }

    /// `indexOutOfRange`: component `depth` is not a position of the array (or set) reached before it
    /// (`end`: the position just past the end is allowed too, as for an insertion).
    static func badPosition(_ keyPath: PlistKeyPath, _ depth: Int, count: Int, kind: PlistKind, end: Bool = false)
        -> PlistError
    {
        let component = keyPath.components[depth].key
        let allowed = end ? "0…\(count)" : count == 0 ? "none: it is empty" : "0…\(count - 1)"
        let what =
            Int(component) == nil
            ? "\(component.debugDescription) is not a position" : "position \(component) is out of range"
        return PlistError(
            .indexOutOfRange, keyPath: keyPath.prefix(depth + 1),
            "\(what) in the \(kind) of \(count) at \(place(keyPath.prefix(depth))) (positions: \(allowed))")
    }

    /// `notAContainer`: the value reached by the first `depth` components is a scalar, so component
    /// `depth` cannot be looked up in it.
    static func scalar(_ kind: PlistKind, _ keyPath: PlistKeyPath, _ depth: Int) -> PlistError {
        PlistError(
            .notAContainer, keyPath: keyPath.prefix(depth),
            "\(place(keyPath.prefix(depth))) is \(article(kind)), which has no "
                + "\(keyPath.components[depth].key.debugDescription) inside (looking for \(keyPath))")
    }

    /// "the root" or "a.b.c".
    static func place(_ keyPath: PlistKeyPath) -> String {
        keyPath.isEmpty ? "the root" : keyPath.description
    }

    /// "a string", "an integer", …
    static func article(_ kind: PlistKind) -> String {
        switch kind {
        case .integer, .array: "an \(kind)"
        case .uid: "a UID"
        default: "a \(kind)"
        }
    }
}
