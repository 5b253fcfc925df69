// Sources/bplist/Editing/ArchivePaths.swift - `get` and `type` on a keyed archive by the paths `bplist
// unarchive` prints (`root.settings.theme`), as the editing verbs take them; a path that starts with
// one of the archive's own keys (`$top`, `$objects`, …) still reads the stored property list.

import Foundation
import KeyedArchive
import PropertyList

enum ArchivePaths {
    /// Whether `path` names a value of the object graph of `data`: a keyed archive, and a path that does
    /// not start with one of the archive's own keys.
    static func isGraphPath(_ path: PlistKeyPath, in data: Data) -> Bool {
        guard let first = path.components.first?.key, !KeyedArchiveBackend.storageKeys.contains(first) else {
            return false
        }
        return KeyedArchiveGraph.isKeyedArchive(data)
    }

    /// The value at `path` of the archive's object graph; a missing member is `noValue`.
    static func value(_ data: Data, at path: PlistKeyPath, text: String) throws -> AnyArchived {
        do {
            let graph = try KeyedArchiveGraph(data, requiredTopKey: nil)
            return try graph.value(at: path)
        } catch {
            if [.keyNotFound, .indexOutOfRange, .notAContainer].contains(error.code) {
                throw ToolError("no value at \(text): \(error.detail)", code: "noValue")
            }
            throw Unarchive.toolError(error, binary: nil)
        }
    }

    /// The value as a property-list value, when it is one (strings, numbers, booleans, dates, data and
    /// collections of them); `nil` for objects and Foundation values without a property-list form.
    static func plistValue(_ value: AnyArchived) -> PlistValue? {
        switch value {
        case .null, .nsNull: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(PlistInteger(i))
        case .real(let d): return .real(d)
        case .string(let s): return .string(PlistString(s))
        case .data(let d): return .data(d)
        case .date(let d): return .date(d)
        case .array(let xs), .orderedSet(let xs):
            var out: [PlistValue] = []
            for x in xs {
                guard let v = plistValue(x) else { return nil }
                out.append(v)
            }
            return .array(out)
        case .set(let xs):
            var out: [PlistValue] = []
            for x in xs {
                guard let v = plistValue(x) else { return nil }
                out.append(v)
            }
            return .set(out)
        case .dictionary(let d):
            var pairs: [(PlistValue, PlistValue)] = []
            for (k, v) in d {
                guard let key = plistValue(k), let value = plistValue(v) else { return nil }
                pairs.append((key, value))
            }
            pairs.sort { "\($0.0)" < "\($1.0)" }
            return .dictionary(PlistDictionary(pairs))
        default: return nil
        }
    }

    /// plutil's type name of an archived value; `object` for an object or a Foundation value that is
    /// no property-list value (a colour, a URL, …).
    static func typeName(_ value: AnyArchived) -> String {
        switch value {
        case .array, .orderedSet: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        default: plistValue(value).map { PlutilText.typeName($0.kind) } ?? "object"
        }
    }

    /// A type name with its article ("an integer", "a string").
    static func article(_ name: String) -> String {
        (["integer", "array", "object"].contains(name) ? "an " : "a ") + name
    }
}
