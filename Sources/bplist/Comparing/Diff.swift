// Sources/bplist/Comparing/Diff.swift - `bplist diff A B`: a structural diff by key path between two property
// lists of any forms; also git's external diff driver (`bplist diff --git …`, seven arguments).

import ArgumentParser
import Foundation
import PropertyList

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two property lists of any forms by key path; exit 1 when they differ.",
        discussion: """
            Prints one line per difference: '+ KP: value' (only in B), '- KP: value' (only in A), \
            '~ KP: old -> new' (changed, including a change of type), and with --order \
            '= KP: keys reordered' (same entries, other order). Dictionaries compare by key, arrays by \
            aligning equal elements (an insertion is one '+' line; an added or removed element is \
            named by its position in the file it is in), sets as multisets. Binary, XML, OpenStep and \
            JSON inputs compare alike (an XML file and its binary conversion are equal).

            As git's diff driver (.gitattributes: '*.plist diff=plist'; git config: \
            'diff.plist.command "bplist diff --git"'), git passes seven arguments (path, old file, \
            old hash, old mode, new file, new hash, new mode): a 'diff --git a/PATH b/PATH' header is \
            printed before the differences and the exit status is 0, as git expects from a driver. \
            A missing side (/dev/null: an added or deleted file) is an empty file.

            Examples:
              bplist diff Info.plist build/Info.plist
              bplist diff a.bplist b.xml && echo same
              git diff                     # with the driver configured (see the README)

            Exit status: 0 when they are equal; 1 when they differ; 2 on any error (as diff(1)), with \
            one line 'error: …' on standard error; 64 for usage errors.
            """)

    @Flag(help: "Also report dictionaries whose keys are the same but in another order.")
    var order = false

    @Flag(help: "Run as git's external diff driver: the arguments are git's seven.")
    var git = false

    @Argument(help: "A and B (or git's seven arguments with --git).")
    var files: [String] = []

    @OptionGroup var read: ReadOptions

    func validate() throws {
        if git {
            guard files.count == 7 || files.count == 9 else {
                throw ValidationError(
                    "--git takes git's seven arguments: PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE")
            }
        } else {
            guard files.count == 2 else { throw ValidationError("give two files, A and B") }
        }
    }

    mutating func run() throws {
        do {
            let (a, b, header) =
                git ? (files[1], files[4], "diff --git a/\(files[0]) b/\(files[0])") : (files[0], files[1], nil)
            let differences = StructuralDiff.differences(try load(a), try load(b), order: order)
            try IO.stream(to: "-") { out in
                if let header, !differences.isEmpty {
                    out.line(header)
                    out.line("--- a/\(files[0])")
                    out.line("+++ b/\(files[0])")
                }
                for d in differences { out.line(Diff.line(d)) }
            }
            if !git && !differences.isEmpty { throw ExitCode(1) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            IO.printError("error: " + ToolError.message(for: error))
            throw ExitCode(2)
        }
    }

    /// The value of `path`; an empty file, or /dev/null (git's missing side), is no value at all.
    private func load(_ path: String) throws -> PlistValue? {
        if path == "/dev/null" { return nil }
        let data = try IO.read(path)
        if data.isEmpty { return nil }
        return try PlistInput.decode(data, read: read).0
    }

    /// One difference as a line.
    static func line(_ d: PlistDifference) -> String {
        let place = d.path.isEmpty ? "(root)" : d.path.description
        switch d.change {
        case .added(let v): return "+ \(place): \(StructuralDiff.oneLine(v))"
        case .removed(let v): return "- \(place): \(StructuralDiff.oneLine(v))"
        case .changed(let a, let b):
            let types = a.kind == b.kind ? "" : " (\(PlutilText.typeName(a.kind)) -> \(PlutilText.typeName(b.kind)))"
            return "~ \(place): \(StructuralDiff.oneLine(a)) -> \(StructuralDiff.oneLine(b))\(types)"
        case .reordered: return "= \(place): keys reordered"
        }
    }
}

extension StructuralDiff {
    /// The differences between two optional values (a missing side: everything added or removed).
    static func differences(_ a: PlistValue?, _ b: PlistValue?, order: Bool) -> [PlistDifference] {
        // A missing side is compared as an empty container of the other's kind (one line per entry).
        func empty(like v: PlistValue) -> PlistValue? {
            switch v {
            case .dictionary: .dictionary(PlistDictionary())
            case .array: .array([])
            case .set: .set([])
            default: nil
            }
        }
        switch (a, b) {
        case (nil, nil): return []
        case (nil, let b?):
            guard let a = empty(like: b) else { return [PlistDifference(path: .root, change: .added(b))] }
            return differences(a, b, order: order)
        case (let a?, nil):
            guard let b = empty(like: a) else { return [PlistDifference(path: .root, change: .removed(a))] }
            return differences(a, b, order: order)
        case (let a?, let b?): return differences(a, b, order: order)
        }
    }
}
