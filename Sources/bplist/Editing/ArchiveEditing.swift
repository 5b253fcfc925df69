// Sources/bplist/Editing/ArchiveEditing.swift - The editing verbs on NSKeyedArchiver archives: their object
// graph edited by the paths `bplist unarchive` prints, written back faithfully.
//
// `EditBackends.open` picks this backend for a keyed archive. A path that starts with one of the
// archive's own keys (`$top`, `$objects`, `$archiver`, `$version`) edits the property list as it is
// stored, as for any other file; any other path (`root.settings.theme`) goes through
// `KeyedArchiveGraph`, which keeps every class chain, identity and order it does not touch. One run
// edits one way or the other, never both.

import Foundation
import KeyedArchive
import PropertyList

/// A keyed archive, edited as an object graph (or, for paths into its own structure, as a property list).
struct KeyedArchiveBackend: EditBackend {
    /// The archive's own keys: a path starting with one of them edits the stored property list.
    static let storageKeys: Set<String> = ["$archiver", "$version", "$top", "$objects"]

    let input: Data
    var plain: PlistValueBackend
    var graph: KeyedArchiveGraph
    /// How this run edited the file (so `encoded()` writes that side).
    private var editedGraph = false

    init(input: Data, plain: PlistValueBackend) throws {
        self.input = input
        self.plain = plain
        do {
            graph = try KeyedArchiveGraph(input, requiredTopKey: nil)
        } catch {
            throw Unarchive.toolError(error, binary: nil)
        }
    }

    var formDescription: String { "keyed archive (\(plain.formDescription))" }

    mutating func apply(_ edits: [PlistEdit<PlistValue>]) throws {
        let intoStorage = edits.map { Self.storageKeys.contains($0.keyPath.components.first?.key ?? "$top") }
        if intoStorage.allSatisfy({ $0 }) {
            try plain.apply(edits)
            return
        }
        guard !intoStorage.contains(true) else {
            throw ToolError(
                "one run edits a keyed archive either through its object graph (paths as 'bplist unarchive' prints "
                    + "them) or through its stored property list (paths from $top or $objects), not both",
                code: "usage")
        }
        do {
            let converted = try edits.map { edit throws(KeyedArchiveError) in
                try edit.map { value throws(KeyedArchiveError) in try AnyArchived(plistValue: value) }
            }
            try graph.apply(converted)
        } catch {
            throw Unarchive.toolError(error, binary: nil)
        }
        editedGraph = true
    }

    func encoded() throws -> Data {
        guard editedGraph else { return try plain.encoded() }
        do {
            return try graph.encoded()
        } catch {
            throw Unarchive.toolError(error, binary: nil)
        }
    }
}
