// Tests/KeyedArchiveTests/GraphEditingTests.swift - Edits by path change only what they name.
//
// The fixture is an archive written by hand; each expected result is the fixture's property list
// changed by hand (the stored value the path names, and the entries a new value adds), so the
// expectation never comes from the code under test.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// `XWZSettings` with a string, an inline real, an NSMutableArray, an NSMutableString, one
/// NSMutableDictionary referenced twice, an NSMutableOrderedSet in Apple's layout, values without a
/// key and two equal empty NSMutableSets.
enum SettingsFixture {
    static let objects: [PlistValue] = [
        "$null",
        [
            "$class": .uid(2), "theme": .uid(3), "volume": 0.5, "items": .uid(4), "title": .uid(7), "prefs": .uid(9),
            "prefs2": .uid(9), "recents": .uid(12), "$0": .uid(14), "$1": 42, "empty1": .uid(15), "empty2": .uid(16),
        ],
        ArchiveFixture.classDescription("XWZSettings", ["XWZSettings", "NSObject"]),
        "light",
        ["NS.objects": [.uid(5), .uid(6)], "$class": .uid(8)],
        "a",
        "b",
        ["$class": .uid(10), "NS.string": "Title"],
        ArchiveFixture.classDescription("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
        ["$class": .uid(11), "NS.keys": [.uid(17)], "NS.objects": [.uid(18)]],
        ArchiveFixture.classDescription("NSMutableString", ["NSMutableString", "NSString", "NSObject"]),
        ArchiveFixture.classDescription("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
        ["NS.object.0": .uid(5), "NS.object.1": .uid(13), "$class": .uid(19)],
        "c",
        "unkeyed zero",
        ["$class": .uid(20), "NS.objects": []],
        ["$class": .uid(20), "NS.objects": []],
        "font",
        "Menlo",
        ArchiveFixture.classDescription("NSMutableOrderedSet", ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]),
        ArchiveFixture.classDescription("NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"]),
    ]

    static var archive: PlistValue { ArchiveFixture.archive(objects) }

    static func data(xml: Bool = false) throws -> Data {
        xml ? try XMLPlist.encode(archive) : try BinaryPlistWriter().write(archive)
    }

    /// The fixture with some entries changed (and new ones appended), as an archive.
    static func changed(_ change: (inout [PlistValue]) -> Void, top: PlistDictionary? = nil) -> PlistValue {
        var o = objects
        change(&o)
        return ArchiveFixture.archive(o, top: top ?? PlistDictionary([("root", .uid(1))]))
    }
}

extension PlistValue {
    /// This dictionary with one key set (in place, or appended) or removed.
    func with(_ key: String, _ value: PlistValue?) -> PlistValue {
        guard case .dictionary(var d) = self else { return self }
        d[key] = value
        return .dictionary(d)
    }
}

@Suite struct GraphEditingTests {
    /// Applies edits to the fixture and returns the written archive's property list.
    func edited(_ edits: [PlistEdit<AnyArchived>], xml: Bool = false) throws -> (PlistValue, Data) {
        var graph = try KeyedArchiveGraph(try SettingsFixture.data(xml: xml))
        try graph.apply(edits)
        let out = try graph.encoded()
        return (try ArchiveCorpus.plist(out), out)
    }

    @Test func settingAStringChangesOnlyThatString() throws {
        for xml in [false, true] {
            let (out, data) = try edited([.set(.string("dark"), at: ["root", "theme"])], xml: xml)
            // "light" was referenced once: "dark" takes its UID, and nothing else changes.
            let expected = SettingsFixture.changed { $0[3] = "dark" }
            #expect(out.sameInOrder(expected), "xml: \(xml)")
            #expect(XMLPlist.looksLikeXML(data) == xml)
        }
    }

    @Test func inlineValuesStayInline() throws {
        let (out, _) = try edited([.set(.real(0.75), at: ["root", "volume"]), .set(.integer(7), at: ["root", "$1"])])
        #expect(out.sameInOrder(SettingsFixture.changed { $0[1] = $0[1].with("volume", 0.75).with("$1", 7) }))
    }

    @Test func collectionMembersAreReplacedInsertedAppendedAndRemoved() throws {
        var (out, _) = try edited([.set(.string("B"), at: ["root", "items", "1"])])
        #expect(out.sameInOrder(SettingsFixture.changed { $0[6] = "B" }))
        // "a" is shared with the ordered set: the array gets a new string, the set keeps "a".
        (out, _) = try edited([.set(.string("A"), at: ["root", "items", "0"])])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed {
                    $0[4] = $0[4].with("NS.objects", [.uid(21), .uid(6)])
                    $0.append("A")
                }))
        (out, _) = try edited([
            .insert(.string("z"), at: ["root", "items", "0"]), .append(.integer(3), to: ["root", "items"]),
        ])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed {
                    $0[4] = $0[4].with("NS.objects", [.uid(21), .uid(5), .uid(6), .uid(22)])
                    $0.append("z")
                    $0.append(3)  // a collection member is an object: a number in $objects
                }))
    }

    @Test func removingDropsWhatBecameUnreachable() throws {
        let (out, data) = try edited([.remove(at: ["root", "items", "1"])])
        // "b" (UID 6) is gone from the file; the entries after it move down one.
        let expected = SettingsFixture.changed { $0[4] = $0[4].with("NS.objects", [.uid(5)]) }
        #expect(try StrictGraphComparison.compare(try BinaryPlistWriter().write(expected), data) > 0)
        guard case .array(let objects)? = out["$objects"] else {
            Issue.record("no $objects")
            return
        }
        #expect(objects.count == SettingsFixture.objects.count - 1)
        #expect(!objects.contains("b"))
    }

    @Test func replacedCollectionsAndStringsKeepTheirMutableClass() throws {
        let (out, data) = try edited([
            .set(.array([.string("x")]), at: ["root", "items"]), .set(.string("New"), at: ["root", "title"]),
        ])
        // The NSMutableArray object keeps its UID and class; its new member is a new string.
        let expected = SettingsFixture.changed {
            $0[4] = ["$class": .uid(8), "NS.objects": [.uid(21)]]
            $0[7] = $0[7].with("NS.string", "New")
            $0.append("x")
        }
        #expect(try StrictGraphComparison.compare(try BinaryPlistWriter().write(expected), data) > 0)
        // "b" is gone, so the string object is one entry down: found through the root's field.
        guard case .array(let objects)? = out["$objects"], case .uid(let t)? = objects[1]["title"],
            case .uid(let c)? = objects[Int(t)]["$class"]
        else {
            Issue.record("no title")
            return
        }
        #expect(objects[Int(t)].sameInOrder(["$class": .uid(c), "NS.string": "New"]))
        #expect(objects[Int(c)]["$classname"] == "NSMutableString")
        // And the unarchiver reads them as the values they are.
        let root = try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: data)
        guard case .object(let settings) = root else {
            Issue.record("root is not an object")
            return
        }
        #expect(settings["items"] == .array([.string("x")]))
        #expect(settings["title"] == .string("New"))
    }

    @Test func dictionaryEntriesThroughASharedDictionary() throws {
        // prefs and prefs2 are one NSMutableDictionary: the edit changes it once, both see it.
        var (out, _) = try edited([.set(.string("Monaco"), at: ["root", "prefs", "font"])])
        #expect(out.sameInOrder(SettingsFixture.changed { $0[18] = "Monaco" }))
        (out, _) = try edited([.insert(.integer(12), at: ["root", "prefs2", "size"])])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed {
                    $0[9] = $0[9].with("NS.keys", [.uid(17), .uid(21)]).with("NS.objects", [.uid(18), .uid(22)])
                    $0.append("size")
                    $0.append(12)
                }))
        var graph = try KeyedArchiveGraph(try SettingsFixture.data())
        let e = try #require(throws: KeyedArchiveError.self) {
            try graph.set(.string("Monaco"), at: "root.prefs.font", sharedObjects: .reject)
        }
        #expect(e.code == .sharedObject)
        #expect(e.keyPath == ["root", "prefs"])
        #expect(e.object == 9)
        // Not shared: allowed under .reject too.
        try graph.set(.string("dark"), at: "root.theme", sharedObjects: .reject)
    }

    @Test func orderedSetsInAppleLayoutAreRenumbered() throws {
        var (out, _) = try edited([.insert(.string("d"), at: ["root", "recents", "1"])])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed {
                    $0[12] = [
                        "NS.object.0": .uid(5), "NS.object.1": .uid(21), "NS.object.2": .uid(13), "$class": .uid(19),
                    ]
                    $0.append("d")
                }))
        (out, _) = try edited([.remove(at: ["root", "recents", "0"])])
        #expect(out.sameInOrder(SettingsFixture.changed { $0[12] = ["NS.object.0": .uid(13), "$class": .uid(19)] }))
    }

    @Test func valuesWithoutAKeyAreNumberedMembers() throws {
        var (out, _) = try edited([.set(.string("u"), at: ["root", "$0"])])
        #expect(out.sameInOrder(SettingsFixture.changed { $0[14] = "u" }))
        (out, _) = try edited([.insert(.bool(true), at: ["root", "$1"])])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed {
                    $0[1] = [
                        "$class": .uid(2), "theme": .uid(3), "volume": 0.5, "items": .uid(4), "title": .uid(7),
                        "prefs": .uid(9), "prefs2": .uid(9), "recents": .uid(12), "$0": .uid(14), "$1": true, "$2": 42,
                        "empty1": .uid(15), "empty2": .uid(16),
                    ]
                }))
        let (removed, data) = try edited([.remove(at: ["root", "$0"])])
        guard case .array(let objects)? = removed["$objects"] else {
            Issue.record("no $objects")
            return
        }
        #expect(objects[1]["$0"] == 42)
        #expect(objects[1]["$1"] == nil)
        #expect(!objects.contains("unkeyed zero"))
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        guard case .object(let settings) = try unarchiver.decode(AnyArchived.self, forKey: "root") else {
            Issue.record("root is not an object")
            return
        }
        #expect(settings.unkeyed == [.integer(42)])
    }

    @Test func topKeysAndClassesAndNewObjects() throws {
        var (out, data) = try edited([.insert(.integer(7), at: ["extra"])])
        #expect(
            out.sameInOrder(
                SettingsFixture.changed({ _ in }, top: PlistDictionary([("root", .uid(1)), ("extra", 7)]))))
        (out, data) = try edited([.insert(.integer(7), at: ["extra"]), .remove(at: ["extra"])])
        #expect(out.sameInOrder(SettingsFixture.archive))

        // A new object with its own class chain, in a new field.
        let child = ArchivedInstance(
            className: "XWZChild", classChain: ["XWZChild", "XWZBase", "NSObject"], fields: ["n": .integer(1)])
        var withChild = try KeyedArchiveGraph(try SettingsFixture.data())
        try withChild.set(.object(child), at: ["root", "child"])
        try withChild.setClass(["NSArray", "NSObject"], at: ["root", "items"])
        data = try withChild.encoded()
        out = try ArchiveCorpus.plist(data)
        let graph = try KeyedArchiveGraph(data)
        guard case .object(let settings)? = graph.node(1), case .uid(let c)? = settings["child"],
            case .object(let made)? = graph.node(Int(c)), case .uid(let i)? = settings["items"],
            case .object(let items)? = graph.node(Int(i))
        else {
            Issue.record("the new object is not where it was put")
            return
        }
        #expect(made.className == "XWZChild")
        #expect(made.classChain == ["XWZChild", "XWZBase", "NSObject"])
        #expect(made["n"] == 1)
        #expect(items.classChain == ["NSArray", "NSObject"])
        #expect(settings.fields.last?.key == "child")
        // The NSMutableArray class description is referenced by nothing now: gone.
        #expect(
            !graph.nodes.contains(
                .classDescription(name: "NSMutableArray", chain: ["NSMutableArray", "NSArray", "NSObject"])))
    }

    @Test func oneInstanceInSeveralEditsIsOneObject() throws {
        let shared = ArchivedInstance(className: "XWZShared", fields: ["v": .string("s")])
        let (_, data) = try edited([
            .set(.object(shared), at: ["root", "a"]), .set(.object(shared), at: ["root", "b"]),
        ])
        let graph = try KeyedArchiveGraph(data)
        guard case .object(let settings)? = graph.node(1) else {
            Issue.record("no root")
            return
        }
        #expect(settings["a"] != nil)
        #expect(settings["a"] == settings["b"])
    }

    @Test func distinctEqualSetsStayDistinctAfterEdits() throws {
        let (_, data) = try edited([.set(.string("dark"), at: ["root", "theme"])])
        let graph = try KeyedArchiveGraph(data)
        guard case .object(let settings)? = graph.node(1) else {
            Issue.record("no root")
            return
        }
        #expect(settings["empty1"] != settings["empty2"])
        // And new values never share an object with each other either.
        var g = try KeyedArchiveGraph(try SettingsFixture.data())
        try g.set(.array([.set([]), .set([])]), at: "root.pair")
        guard case .array(let pair) = try g.value(at: "root.pair") else {
            Issue.record("no pair")
            return
        }
        #expect(pair == [.set([]), .set([])])
        let members = try ArchiveCorpus.plist(try g.encoded())
        guard case .array(let objects)? = members["$objects"] else { return }
        let sets = objects.filter { $0["NS.objects"] == [] && $0["NS.keys"] == nil }
        #expect(sets.count == 4, "the two new empty sets are two objects (besides empty1 and empty2)")
    }

    @Test func readingValuesByPath() throws {
        let graph = try KeyedArchiveGraph(try SettingsFixture.data())
        #expect(try graph.value(at: "root.theme") == .string("light"))
        #expect(try graph.value(at: "root.volume") == .real(0.5))
        #expect(try graph.value(at: "root.items") == .array([.string("a"), .string("b")]))
        #expect(try graph.value(at: "root.items.1") == .string("b"))
        #expect(try graph.value(at: "root.prefs.font") == .string("Menlo"))
        #expect(try graph.value(at: "root.recents") == .orderedSet([.string("a"), .string("c")]))
        #expect(try graph.value(at: "root.recents.1") == .string("c"))
        #expect(try graph.value(at: "root.$0") == .string("unkeyed zero"))
        #expect(try graph.value(at: ["root", "title"]) == .string("Title"))
        // After an edit, reads see it.
        var edited = graph
        try edited.set(.string("dark"), at: "root.theme")
        #expect(try edited.value(at: "root.theme") == .string("dark"))
        #expect(try graph.value(at: "root.theme") == .string("light"))
    }

    @Test func badPathsAreTypedErrorsAndLeaveTheGraphUnchanged() throws {
        var graph = try KeyedArchiveGraph(try SettingsFixture.data())
        let original = graph
        // The codes are PlistValue editing's: keyNotFound, indexOutOfRange, notAContainer, alreadyExists.
        let cases: [(PlistEdit<AnyArchived>, KeyedArchiveError.Code, PlistKeyPath)] = [
            (.set(.integer(1), at: ["root", "nope", "x"]), .keyNotFound, ["root", "nope"]),
            (.set(.integer(1), at: ["root", "items", "5"]), .indexOutOfRange, ["root", "items", "5"]),
            (.set(.integer(1), at: ["root", "items", "x"]), .indexOutOfRange, ["root", "items", "x"]),
            (.set(.integer(1), at: ["root", "theme", "x"]), .notAContainer, ["root", "theme"]),
            (.set(.integer(1), at: ["root", "volume", "x"]), .notAContainer, ["root", "volume"]),
            (.insert(.integer(1), at: ["root", "theme"]), .alreadyExists, ["root", "theme"]),
            (.insert(.integer(1), at: ["root", "prefs", "font"]), .alreadyExists, ["root", "prefs", "font"]),
            (.insert(.integer(1), at: ["root", "items", "3"]), .indexOutOfRange, ["root", "items", "3"]),
            (.remove(at: ["root", "nothing"]), .keyNotFound, ["root", "nothing"]),
            (.replace(.integer(1), at: ["root", "nothing"]), .keyNotFound, ["root", "nothing"]),
            (.append(.integer(1), to: ["root", "prefs"]), .notAContainer, ["root", "prefs"]),
            (.set(.integer(1), at: []), .keyNotFound, []),
            (.remove(at: ["nope"]), .keyNotFound, ["nope"]),
        ]
        for (edit, code, keyPath) in cases {
            let e = try #require(throws: KeyedArchiveError.self, "\(edit)") {
                try graph.apply([.set(.string("first"), at: ["root", "theme"]), edit])
            }
            #expect(e.code == code, "\(edit): \(e)")
            if !keyPath.isEmpty { #expect(e.keyPath == keyPath, "\(edit): \(e)") }
            // All or nothing: the first edit of the call did not happen either.
            #expect(try graph.encoded() == (try original.encoded()))
        }
        // `$null` has no members.
        try graph.set(.null, at: "root.theme")
        let e = try #require(throws: KeyedArchiveError.self) { try graph.set(.integer(1), at: "root.theme.x") }
        #expect(e.code == .notAContainer)
    }

    @Test func foundationReadsTheEditedArchiveWithItsClasses() throws {
        // The edited fixture through NSKeyedUnarchiver: mutable stays mutable, shared stays shared.
        let (_, data) = try edited([
            .set(.array([.string("x")]), at: ["root", "items"]), .append(.string("e"), to: ["root", "recents"]),
            .set(.string("dark"), at: ["root", "theme"]),
        ])
        let settings = try FoundationHolder.decode(data, className: "XWZSettings")
        let items = try #require(settings.fields["items"] as? NSMutableArray)
        items.add("y")
        #expect(items.count == 2)
        let recents = try #require(settings.fields["recents"] as? NSMutableOrderedSet)
        #expect(recents.count == 3)
        recents.add("f")
        let prefs = try #require(settings.fields["prefs"] as? NSMutableDictionary)
        #expect(settings.fields["prefs2"] === prefs)
        #expect(settings.fields["empty1"] is NSMutableSet)
        #expect(settings.fields["empty1"] !== settings.fields["empty2"])
        let title = try #require(settings.fields["title"] as? NSMutableString)
        title.append("!")
        #expect(title as String == "Title!")
    }

    @Test func oneCallForToolsKeepsTheForm() throws {
        for xml in [false, true] {
            let data = try SettingsFixture.data(xml: xml)
            #expect(KeyedArchiveGraph.isKeyedArchive(data))
            let value = try AnyArchived(plistValue: ["font": "Monaco", "size": 12])
            let out = try KeyedArchiveGraph.applying(
                [.set(.string("dark"), at: "root.theme"), .set(value, at: ["root", "prefs3"])],
                to: data)
            #expect(XMLPlist.looksLikeXML(out) == xml)
            let graph = try KeyedArchiveGraph(out)
            #expect(try graph.value(at: "root.theme") == .string("dark"))
            #expect(try graph.value(at: "root.prefs3.size") == .integer(12))
            #expect(
                try graph.value(at: "root.prefs3")
                    == .dictionary([.string("font"): .string("Monaco"), .string("size"): .integer(12)]))
        }
        #expect(!KeyedArchiveGraph.isKeyedArchive(try BinaryPlistWriter().write(["a": 1])))
        #expect(!KeyedArchiveGraph.isKeyedArchive(Data("not a plist".utf8)))
        #expect(throws: KeyedArchiveError.self) { try AnyArchived(plistValue: .uid(3)) }
    }

    @Test func filesAreWrittenAtomicallyInTheirForm() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("graph-file-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("settings.archive")
        try SettingsFixture.data(xml: true).write(to: url)
        var graph = try KeyedArchiveGraph(contentsOf: url)
        try graph.set(.string("dark"), at: "root.theme")
        try graph.write(to: url)
        let written = try Data(contentsOf: url)
        #expect(XMLPlist.looksLikeXML(written))
        #expect(try ArchiveCorpus.plist(written).sameInOrder(SettingsFixture.changed { $0[3] = "dark" }))
        let missing = try #require(throws: KeyedArchiveError.self) {
            try KeyedArchiveGraph(contentsOf: dir.appendingPathComponent("none"))
        }
        #expect(missing.code == .io)
    }

    @Test func valuesWithoutAKeyNumberedWithAGapAreNotRenumbered() throws {
        let archive = ArchiveFixture.archive([
            "$null", ["$class": .uid(2), "$0": 1, "$2": 3, "name": "n"],
            ArchiveFixture.classDescription("XWZGap", ["XWZGap", "NSObject"]),
        ])
        var graph = try KeyedArchiveGraph(try BinaryPlistWriter().write(archive))
        let e = try #require(throws: KeyedArchiveError.self) { try graph.insert(.integer(2), at: "root.$1") }
        #expect(e.code == .corrupted)
        try graph.remove(at: "root.$2")
        try graph.set(.integer(9), at: "root.$0")
        let out = try ArchiveCorpus.plist(try graph.encoded())
        guard case .array(let objects)? = out["$objects"] else {
            Issue.record("no $objects")
            return
        }
        #expect(objects[1].sameInOrder(["$class": .uid(2), "$0": 9, "name": "n"]))
    }

    @Test func linkingSharesOneObject() throws {
        var graph = try KeyedArchiveGraph(try SettingsFixture.data())
        try graph.link(["root", "alsoItems"], to: ["root", "items"])
        try graph.link(["root", "empty2"], to: ["root", "empty1"])
        try graph.link(["root", "volume2"], to: ["root", "volume"])
        let data = try graph.encoded()
        let out = try ArchiveCorpus.plist(data)
        guard case .array(let objects)? = out["$objects"] else {
            Issue.record("no $objects")
            return
        }
        // The second empty set is unreachable now: gone, and the UIDs after it move down one.
        #expect(objects[1]["alsoItems"] == .uid(4))
        #expect(objects[1]["empty2"] == objects[1]["empty1"])
        #expect(objects[1]["volume2"] == 0.5)
        #expect(objects.count == SettingsFixture.objects.count - 1)
        let settings = try FoundationHolder.decode(data, className: "XWZSettings")
        #expect(settings.fields["empty1"] === settings.fields["empty2"])
        let e = try #require(throws: KeyedArchiveError.self) {
            try graph.link(["root", "x"], to: ["root", "nothing"])
        }
        #expect(e.code == .keyNotFound)
    }
}
