// Sources/KeyedArchive/Classes/ClassFallback.swift - The class of an archived object whose own
// name maps to nothing: its superclasses, its class hints, then the caller's hook.
//
// Apple's NSKeyedUnarchiver instantiates the first class of `$classes` that exists in the process
// (then `$classhints`). Here "exists" means mapped (per unarchiver or globally) or named by a type
// the call site offers; and a class found this way must still be one the call site accepts, so a
// fallback never widens what a secure decode allows.

import PropertyList

extension KeyedUnarchiver {
    /// The Swift type an archived class name stands for: instance map, global map, then the
    /// candidates' own names.
    func resolveType(_ name: String, candidates: [any KeyedArchivable.Type]) -> (any KeyedArchivable.Type)? {
        if let t = classMap[name] { return t }
        if let t = ClassRegistry.shared.type(forClassName: name) { return t }
        for c in candidates where c.archiveClassName == name { return c }
        return nil
    }

    /// The type to decode an object of class slot `slot` as, when its own name maps to no type:
    /// the first superclass (then class hint) that maps to a type `accept` admits, else what
    /// ``unknownClassHandler`` returns.
    ///
    /// - Throws: `classNotAllowed` when the hook's type (or, with no
    ///   hook, a type found along the chain) is not acceptable;
    ///   `unknownClass` when nothing maps the class at all.
    func fallbackType(
        slot: Int, uid: Int, candidates: [any KeyedArchivable.Type], expected: String,
        accept: (any KeyedArchivable.Type) -> Bool
    ) throws(KeyedArchiveError) -> any KeyedArchivable.Type {
        let info = state.classSlots[slot].info
        let hints = try classHints(slot: slot)
        var rejected: String?
        for name in info.chain.dropFirst() + hints {
            let found = resolveType(name, candidates: candidates)
            guard let found else { continue }
            if accept(found) { return found }
            if rejected == nil { rejected = name }
        }
        let described =
            "\(info.name) (classes \(info.chain.joined(separator: ", "))"
            + (hints.isEmpty ? ")" : "; hints \(hints.joined(separator: ", ")))")
        if let handler = unknownClassHandler, let chosen = handler(info.name, info.chain) {
            guard accept(chosen) else {
                throw error(
                    .classNotAllowed, uid: uid, className: info.name,
                    "unknownClassHandler chose \(chosen.archiveClassName) for \(described), which is not \(expected)")
            }
            return chosen
        }
        if let rejected {
            throw error(
                .classNotAllowed, uid: uid, className: info.name,
                "archived class \(described) is not \(expected): its superclass \(rejected) is known but not allowed here"
            )
        }
        throw error(
            .unknownClass, uid: uid, className: info.name,
            "no type for archived class \(described) where \(expected) is expected "
                + "(map it with setClass(_:forClassName:) or set unknownClassHandler)")
    }

    /// ``fallbackType(slot:uid:candidates:expected:accept:)`` for a decode of `T` (kept out of the
    /// generic decode path: it is only reached for a class name that maps to nothing).
    @inline(never)
    func fallbackType<T: KeyedArchivable>(_ type: T.Type, slot: Int, uid: Int) throws(KeyedArchiveError)
        -> any KeyedArchivable.Type
    {
        try fallbackType(slot: slot, uid: uid, candidates: [T.self], expected: T.archiveClassName) { $0 is T.Type }
    }

    /// `$classhints` of the class description of class slot `slot` (read again: only the fallback
    /// needs it).
    func classHints(slot: Int) throws(KeyedArchiveError) -> [String] {
        guard let classUID = state.classSlotByUID.firstIndex(of: Int32(truncatingIfNeeded: slot &+ 1)) else {
            return []
        }
        return try reading { r throws(KeyedArchiveError) -> [String] in
            guard case .dictionary(let ck, let cv) = try object(r, r.reference(at: classUID, in: objects)) else {
                return []
            }
            return try classNameList(r, "$classhints", keys: ck, values: cv, classUID: classUID)
        }
    }

    /// A list of class names in a class description (`$classes`, `$classhints`): empty when
    /// absent; anything but an array of strings is `corrupted`.
    func classNameList(
        _ r: borrowing PlistReader, _ key: String, keys: ReferenceList, values: ReferenceList, classUID: Int
    ) throws(KeyedArchiveError) -> [String] {
        guard let ref = try field(r, key, keys: keys, values: values) else { return [] }
        guard case .array(let list) = try object(r, ref) else {
            throw error(.corrupted, uid: classUID, "\(key) of the class description at UID \(classUID) is not an array")
        }
        var names: [String] = []
        names.reserveCapacity(min(list.count, 64))
        for i in 0..<list.count {
            guard let s = try string(r, r.reference(at: i, in: list)) else {
                throw error(
                    .corrupted, uid: classUID,
                    "\(key) of the class description at UID \(classUID) holds a non-string at index \(i)")
            }
            names.append(s)
        }
        return names
    }
}
