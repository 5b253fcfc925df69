// Tests/bplistToolTests/ArchiveEditCommandTests.swift - The editing verbs on NSKeyedArchiver archives:
// a path as `bplist unarchive` prints it edits the object graph and changes only what it names.
//
// The archives are made by Foundation's NSKeyedArchiver; the expected result is the archive's own
// property list with the one stored value changed (read with the plain property-list reader), and
// Foundation reads the edited archive back.

import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite("bplist editing keyed archives", .timeLimit(.minutes(10)))
struct ArchiveEditCommandTests {
    /// Settings as an app archives them: a mutable dictionary at the root, one mutable array
    /// referenced from two keys.
    static func archive() throws -> Data {
        let shared = NSMutableArray(array: ["a.txt", "b.txt"])
        let root = NSMutableDictionary(dictionary: ["theme": "light", "volume": 7, "recent": shared, "pinned": shared])
        return try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    }

    static func plist(_ data: Data) throws -> PlistValue { try BinaryPlistDocument(data).value() }

    /// The index in `$objects` of the one string object equal to `text`.
    static func uid(of text: String, in plist: PlistValue) throws -> Int {
        guard case .array(let objects)? = plist.dictionaryValue?["$objects"] else {
            throw ToolError("no $objects")
        }
        let found = objects.indices.filter { objects[$0] == .string(text) }
        guard found.count == 1, let index = found.first else { throw ToolError("\(found.count) objects '\(text)'") }
        return index
    }

    struct ToolError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func setChangesOnlyTheNamedValue() throws {
        let dir = try TempDir()
        let original = try Self.archive()
        let path = try dir.write(original, "settings.archive")
        let r = try Tool.run(["set", path, "root.theme", "--string", "dark"])
        #expect(r.status == 0, "\(r.stderr)")

        // The stored property list is the original with the one string object replaced in place.
        let before = try Self.plist(original)
        let after = try Self.plist(try Data(contentsOf: URL(fileURLWithPath: path)))
        let index = try Self.uid(of: "light", in: before)
        guard case .dictionary(var expected) = before, case .array(var objects)? = expected["$objects"] else {
            Issue.record("not an archive")
            return
        }
        objects[index] = "dark"
        expected["$objects"] = .array(objects)
        #expect(after == .dictionary(expected))

        // Foundation reads it: the value changed, the dictionary still mutable. (Foundation on Linux
        // hands collection members back as Swift values, so the shared array's identity is checked
        // above, by its UID, not here.)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: URL(fileURLWithPath: path)))
        unarchiver.requiresSecureCoding = false
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSMutableDictionary
        #expect(root?.object(forKey: "theme") as? String == "dark")
        #expect(root?.object(forKey: "volume") as? Int == 7)
        root?.setObject("works", forKey: "added" as NSString)  // an NSMutableDictionary still
        #expect(root?.count == 5)
    }

    @Test func removeAndAppendGoThroughTheGraph() throws {
        let dir = try TempDir()
        let path = try dir.write(try Self.archive(), "settings.archive")
        #expect(try Tool.run(["remove", path, "root.volume"]).status == 0)
        let appended = try Tool.run(["append", path, "root.recent", "--string", "c.txt"])
        #expect(appended.status == 0, "\(appended.stderr)")
        let graph = try KeyedArchiveGraph(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: KeyedArchiveError.self) { try graph.value(at: ["root", "volume"]) }
        // The array is shared: appending through one key shows through the other.
        #expect(
            try graph.value(at: ["root", "pinned"]) == .array([.string("a.txt"), .string("b.txt"), .string("c.txt")]))
    }

    @Test func replaceOfAMissingValueFailsAndWritesNothing() throws {
        let dir = try TempDir()
        let original = try Self.archive()
        let path = try dir.write(original, "settings.archive")
        let r = try Tool.run(["replace", path, "root.font", "--string", "Menlo"])
        #expect(r.status == 1)
        #expect(r.stderrLines.last?.hasPrefix("error:") == true, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test func pathsIntoTheStoredPropertyListEditItAsAPropertyList() throws {
        let dir = try TempDir()
        let original = try Self.archive()
        let path = try dir.write(original, "settings.archive")
        let index = try Self.uid(of: "light", in: try Self.plist(original))
        let r = try Tool.run(["set", path, "$objects.\(index)", "--string", "dusk"])
        #expect(r.status == 0, "\(r.stderr)")
        let graph = try KeyedArchiveGraph(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try graph.value(at: ["root", "theme"]) == .string("dusk"))
    }

    @Test func oneRunCannotMixGraphAndStoragePaths() throws {
        let dir = try TempDir()
        let original = try Self.archive()
        let path = try dir.write(original, "settings.archive")
        let r = try Tool.run(["edit", path, "--set", "root.theme=dark", "--set", "$version:=1"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("either through its object graph"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }
}
