// Sources/bplist/Git/Merge.swift - `bplist merge BASE OURS THEIRS`: a structural three-way merge of
// property lists of every form, in git's merge-driver convention (`%O %A %B`, the result written over
// OURS, exit 0 when merged, 1 with conflicts).
//
// The merge itself is the library's (`PlistMerge`); this file reads the three files, writes the result
// in OURS' form, envelope and layout (an Xcode project stays in Xcode's layout), and reports conflicts:
// one line per conflict on standard error, and in a text form the conflict markers around each entry in
// conflict (ConflictMarkers.swift). Keyed archives merge through their object graphs (ArchiveMerge.swift).

import ArgumentParser
import Foundation
import KeyedArchive
import PropertyList

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge two property lists changed from a common base, by key path (git's merge driver).",
        discussion: """
            A three-way merge of BASE, OURS and THEIRS in any form (binary, also zlib- or gzip-compressed; \
            XML; OpenStep, .strings files and Xcode projects; JSON), by key path: changes on one side \
            apply; keys added, removed or changed on both sides apply when they are different keys; \
            arrays are aligned by their elements (dictionaries with an identity field such as \
            CFBundleURLName, and Xcode project objects, by that field or their id); the same place \
            changed differently on both sides is a conflict. Keyed archives (NSKeyedArchiver) merge \
            through their object graphs, by the paths 'bplist unarchive' prints.

            The result keeps OURS' form, compression, key order and layout (a key only THEIRS added \
            goes where THEIRS put it) and is written over OURS (or to -o OUT), atomically. Each \
            conflict is one line 'conflict: KEYPATH: ours changed, theirs removed' on standard error. \
            A text form (XML, OpenStep, JSON) carries git's conflict markers around the smallest entry \
            in conflict, so it can be resolved in an editor and read again; a binary or compressed \
            file, or an archive, keeps OURS' value at each conflict. An empty BASE (git's add/add) is \
            an empty container.

            As git's merge driver (.gitattributes: '*.plist merge=plist'; git config: \
            'merge.plist.driver "bplist merge --marker-size %L %O %A %B"'), git passes the base, our \
            and their versions (%O %A %B) and takes the result from OURS.

            Examples:
              bplist merge base.plist Info.plist theirs.plist
              bplist merge -o merged.pbxproj base.pbxproj ours.pbxproj theirs.pbxproj

            Exit status: 0 when merged without conflicts; 1 with conflicts (the result is written) or \
            on any error (nothing is written; one line 'error: …'); 64 for usage errors.
            """)

    @Argument(help: "The common ancestor (git's %O); an empty file when there is none.")
    var base: String

    @Argument(help: "Our version (git's %A): the result is written over it.")
    var ours: String

    @Argument(help: "Their version (git's %B).")
    var theirs: String

    @Option(name: .shortAndLong, help: "Write the result here instead of over OURS ('-' for standard output).")
    var output: String?

    @Option(help: "The length of conflict markers (git's %L).")
    var markerSize = 7

    @Option(help: "The label after '<<<<<<<'.")
    var oursLabel = "ours"

    @Option(help: "The label after '>>>>>>>'.")
    var theirsLabel = "theirs"

    @OptionGroup var read: ReadOptions

    func validate() throws {
        guard (1...1000).contains(markerSize) else { throw ValidationError("--marker-size is 1 to 1000") }
    }

    mutating func run() throws {
        do {
            let result = try Merge.merge(
                base: try IO.read(base), ours: try IO.read(ours), theirs: try IO.read(theirs), read: read,
                style: ConflictMarkers.Style(size: markerSize, ours: oursLabel, theirs: theirsLabel))
            try IO.write(result.bytes, to: output ?? ours)
            for conflict in result.conflicts { IO.printError("conflict: \(conflict)") }
            if !result.conflicts.isEmpty {
                IO.printError(
                    "\(result.conflicts.count) conflict\(result.conflicts.count == 1 ? "" : "s")"
                        + (result.markers ? " marked in the file" : "; our side kept where they conflict"))
                throw ExitCode(1)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            IO.printError("error: " + ToolError.message(for: error))
            throw ExitCode(1)
        }
    }

    /// A merge's bytes and what conflicted.
    struct Result {
        var bytes: Data
        var conflicts: [PlistMerge.Conflict]
        /// Whether the bytes carry conflict markers.
        var markers: Bool
    }

    /// Merges three files' bytes; the result is in OURS' form.
    static func merge(base: Data, ours: Data, theirs: Data, read: ReadOptions, style: ConflictMarkers.Style)
        throws -> Result
    {
        if KeyedArchiveGraph.isKeyedArchive(ours) {
            return try ArchiveMerge.merge(base: base, ours: ours, theirs: theirs)
        }
        let mine = try PlistInput.load(ours, read: read)
        let other = theirs.isEmpty ? nil : try PlistInput.load(theirs, read: read)
        let ancestor = base.isEmpty ? nil : try PlistInput.load(base, read: read)
        let empty = Merge.empty(like: mine.value)
        let merge = PlistMerge(
            base: ancestor?.value ?? empty, ours: mine.value, theirs: other?.value ?? empty)
        let taken = try mine.encoded(merge.value)
        guard merge.hasConflicts, mine.format != .binary, mine.compression == .none else {
            return Result(bytes: taken, conflicts: merge.conflicts, markers: false)
        }
        let theirsSide = try mine.encoded(merge.value(taking: .theirs))
        let omitted = try merge.valueOmittingConflicts().map { try mine.encoded($0) }
        let text = ConflictMarkers.combine(
            ours: [UInt8](taken), theirs: [UInt8](theirsSide), omitted: omitted.map { [UInt8]($0) }, style: style)
        return Result(bytes: Data(text), conflicts: merge.conflicts, markers: true)
    }

    /// An empty container of `value`'s kind (what a missing base or side is).
    static func empty(like value: PlistValue) -> PlistValue {
        switch value {
        case .array: .array([])
        case .set: .set([])
        default: .dictionary(PlistDictionary())
        }
    }
}
