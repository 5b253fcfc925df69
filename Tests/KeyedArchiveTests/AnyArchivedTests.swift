// Tests/KeyedArchiveTests/AnyArchivedTests.swift - Any archive read as AnyArchived and written back.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// The keyed archives of the shared corpus, binary and XML.
enum KeyedCorpus {
    static var all: [(folder: String, name: String)] {
        let binary = Corpus.names("valid/keyed").map { ("valid/keyed", $0) }
        let dir = Corpus.root.appendingPathComponent("valid/keyed-xml")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let xml = names.filter { $0.hasSuffix(".plist") }.sorted().map { ("valid/keyed-xml", $0) }
        return binary + xml
    }

    static var names: [String] { all.map { "\($0.folder)/\($0.name)" } }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: Corpus.root.appendingPathComponent(path))
    }

    /// Decodes every `$top` key as `AnyArchived` and archives the values again: keyed ones under
    /// their keys, the values stored without a key (`$0`, `$1`, …) with the unkeyed calls.
    static func roundTrip(_ data: Data, keys: [String]) throws -> Data {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        let archiver = KeyedArchiver()
        var unkeyed = 0
        for key in keys {
            if key.hasPrefix("$"), !key.hasPrefix("$$") {
                if Int(key.dropFirst()) != nil { unkeyed += 1 }
                continue
            }
            let k = key.hasPrefix("$$") ? String(key.dropFirst()) : key
            try archiver.encode(try unarchiver.decode(AnyArchived.self, forKey: k), forKey: k)
        }
        for _ in 0..<unkeyed { try archiver.encode(try unarchiver.decodeObject() ?? .null) }
        return try archiver.finishEncoding()
    }

    /// The `$top` keys of an archive.
    static func topKeys(_ data: Data) throws -> [String] {
        let root: PlistValue =
            XMLPlist.looksLikeXML(data) ? try XMLPlist.decode(data) : try BinaryPlistDocument(data).value()
        guard case .dictionary(let d) = root, case .dictionary(let top)? = d["$top"] else { return [] }
        return top.compactMap { if let s = $0.key.stringValue { s } else { nil } }
    }
}

@Suite struct AnyArchivedTests {
    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"), arguments: KeyedCorpus.names)
    func corpusArchiveRoundTripsAsTheSameGraph(path: String) throws {
        let data = try KeyedCorpus.data(path)
        let keys = try KeyedCorpus.topKeys(data)
        #expect(!keys.isEmpty)
        let again = try KeyedCorpus.roundTrip(data, keys: keys)
        var check = try ArchiveGraphEquivalence(data, again)
        let same = check.sameGraph()
        #expect(same, "\(path): \(check.failure)")
        // And the archive we wrote reads back to the same graph too.
        var check2 = try ArchiveGraphEquivalence(data, try KeyedCorpus.roundTrip(again, keys: keys))
        let same2 = check2.sameGraph()
        #expect(same2, "\(path) (second pass): \(check2.failure)")
    }

    @Test(
        .enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"),
        arguments: Corpus.names("invalid-keyed"))
    func invalidArchiveIsATypedErrorAsAnyValue(name: String) throws {
        let data = try Corpus.data("invalid-keyed", name)
        #expect(throws: KeyedArchiveError.self) {
            let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
            _ = try unarchiver.decode(AnyArchived.self, forKey: "root")
        }
    }

    @Test func corpusIsCounted() {
        if !Corpus.isPresent {
            Issue.record("the shared corpus is not next to the package: AnyArchived corpus round trip skipped")
            return
        }
        #expect(KeyedCorpus.all.count > 100)
    }

    @Test func sharedInstancesAndCyclesStayAGraph() throws {
        let parent = ArchivedInstance(className: "XWZNode", classChain: ["XWZNode", "NSObject"])
        let child = ArchivedInstance(className: "XWZNode")
        parent["name"] = .string("parent")
        parent["children"] = .array([.object(child), .object(child)])
        child["parent"] = .object(parent)
        child["count"] = .integer(-3)
        child["ratio"] = .real(0.5)
        child["tags"] = .set([.string("a"), .integer(1)])
        child["map"] = .dictionary([.integer(1): .string("one"), .string("two"): .bool(true)])
        child["ordered"] = .orderedSet([.string("x"), .string("y")])
        child["$dollar"] = .null
        let archiver = KeyedArchiver()
        try archiver.encode(AnyArchived.object(parent), forKey: KeyedArchiver.rootObjectKey)
        let data = try archiver.finishEncoding()

        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        let root = try unarchiver.decode(AnyArchived.self, forKey: "root")
        guard case .object(let p) = root, case .array(let children)? = p["children"],
            case .object(let c1) = children[0], case .object(let c2) = children[1]
        else {
            Issue.record("unexpected shape \(root)")
            return
        }
        #expect(p.className == "XWZNode" && p.classChain == ["XWZNode", "NSObject"])
        #expect(c1 === c2, "the shared child is one instance")
        #expect(c1["parent"] == .object(p), "the cycle back to the parent is kept")
        #expect(c1["count"] == .integer(-3) && c1["ratio"] == .real(0.5))
        #expect(c1["tags"] == .set([.string("a"), .integer(1)]))
        #expect(c1["map"] == .dictionary([.integer(1): .string("one"), .string("two"): .bool(true)]))
        #expect(c1["ordered"] == .orderedSet([.string("x"), .string("y")]))
        #expect(c1.fields.keys.contains("$dollar"), "a key beginning with $ is escaped and unescaped")
        // The class description is written once for both objects.
        let text = try XMLPlist.encode(BinaryPlistDocument(data).value())
        #expect(String(decoding: text, as: UTF8.self).components(separatedBy: "<string>XWZNode</string>").count == 3)
    }

    @Test func archivedInstancesDecodeDirectly() throws {
        let dog = ArchivedInstance(className: "XWZDog", fields: ["name": .string("Rex"), "age": .integer(4)])
        let data = try KeyedArchiver.archivedData(withRootObject: [dog, dog])
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: [ArchivedInstance].self, from: data)
        #expect(back.count == 2 && back[0] === back[1])
        #expect(back[0].className == "XWZDog" && back[0]["name"] == .string("Rex"))
        // The typed class reads the same archive.
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [Dog].self, from: data).first?.name == "Rex")
        let text = try KeyedArchiver.archivedData(withRootObject: "text")
        let e = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedInstance.self, from: text)
        }
        #expect(e.code == .typeMismatch)
    }

    @Test func nscoderScalarSemantics() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(7, forKey: "count")
        try archiver.encode(true, forKey: "flag")
        try archiver.encode(0.25, forKey: "ratio")
        try archiver.encode("text", forKey: "name")
        try archiver.encode(Int?.none, forKey: "nothing")
        let un = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding())
        #expect(try un.decodeInteger(forKey: "count") == 7)
        #expect(try un.decodeBool(forKey: "flag"))
        #expect(try un.decodeDouble(forKey: "ratio") == 0.25)
        #expect(try un.decodeInteger(forKey: "absent") == 0)
        #expect(try un.decodeBool(forKey: "absent") == false)
        #expect(try un.decodeDouble(forKey: "absent") == 0)
        #expect(try un.decodeInteger(forKey: "nothing") == 0)
        #expect(try un.decodeObject(forKey: "absent") == nil)
        #expect(try un.decodeObject(forKey: "nothing") == nil)
        #expect(try un.decodeObject(forKey: "name") == .string("text"))
        #expect(try un.decodeObject(forKey: "count") == .integer(7))
        for call in [
            { _ = try un.decodeInteger(forKey: "name") }, { _ = try un.decodeBool(forKey: "name") },
            { _ = try un.decodeDouble(forKey: "name") },
        ] {
            let e = try #require(throws: KeyedArchiveError.self) { try call() }
            #expect(e.code == .typeMismatch)
        }
    }

    @Test func instanceDecodedAsATypedClassIsNotReadAgainAsAnyValue() throws {
        let dog = Dog(name: "Rex", age: 3)
        let archiver = KeyedArchiver()
        try archiver.encode(dog, forKey: "a")
        try archiver.encode(dog, forKey: "b")
        let un = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding())
        _ = try un.decode(Dog.self, forKey: "a")
        let e = try #require(throws: KeyedArchiveError.self) { try un.decode(AnyArchived.self, forKey: "b") }
        #expect(e.code == .classNotAllowed)
    }

    @Test func unknownClassesAreReadAsInstancesFromFoundation() throws {
        let root = NSMutableDictionary()
        root["n"] = NSNumber(value: 3)
        root["s"] = "text"
        root["list"] = NSArray(array: ["a", NSNumber(value: 2.5), NSDate(timeIntervalSinceReferenceDate: 10)])
        root["set"] = NSSet(array: ["x"])
        root["null"] = NSNull()
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let value = try KeyedUnarchiver(forReadingFrom: data).decode(AnyArchived.self, forKey: "root")
        guard case .dictionary(let d) = value else {
            Issue.record("expected a dictionary, got \(value)")
            return
        }
        #expect(d[.string("n")] == .integer(3))
        #expect(d[.string("s")] == .string("text"))
        #expect(
            d[.string("list")] == .array([.string("a"), .real(2.5), .date(Date(timeIntervalSinceReferenceDate: 10))]))
        #expect(d[.string("set")] == .set([.string("x")]))
        #expect(d[.string("null")] == .nsNull)
    }

    @Test func mixedCollectionsCrossToFoundation() throws {
        let list: [AnyArchived] = [
            .string("a"), .integer(1), .real(2.5), .bool(true), .data(Data([1, 2])),
            .date(Date(timeIntervalSinceReferenceDate: 5)), .array([.string("nested")]),
            .dictionary([.string("k"): .integer(9)]),
        ]
        let map: [String: AnyArchived] = ["s": .string("x"), "n": .integer(-4), "l": .array([.integer(1)])]
        let archiver = KeyedArchiver()
        try archiver.encode(list, forKey: "list")
        try archiver.encode(map, forKey: "map")
        let data = try archiver.finishEncoding()
        let un = try NSKeyedUnarchiver(forReadingFrom: data)
        un.requiresSecureCoding = false
        let fl = try #require(un.decodeObject(forKey: "list") as? NSArray)
        #expect(fl.count == 8)
        #expect(fl[0] as? String == "a")
        #expect((fl[1] as? NSNumber)?.intValue == 1)
        #expect((fl[2] as? NSNumber)?.doubleValue == 2.5)
        #expect((fl[3] as? NSNumber)?.boolValue == true)
        #expect(fl[4] as? Data == Data([1, 2]))
        #expect((fl[5] as? Date)?.timeIntervalSinceReferenceDate == 5)
        #expect((fl[6] as? NSArray)?.firstObject as? String == "nested")
        #expect(((fl[7] as? NSDictionary)?["k"] as? NSNumber)?.intValue == 9)
        let fm = try #require(un.decodeObject(forKey: "map") as? NSDictionary)
        #expect(fm["s"] as? String == "x")
        #expect((fm["n"] as? NSNumber)?.intValue == -4)
        #expect(((fm["l"] as? NSArray)?.firstObject as? NSNumber)?.intValue == 1)

        // And Foundation's mixed collections read back as AnyArchived.
        let out = NSKeyedArchiver(requiringSecureCoding: false)
        out.encode(NSArray(array: ["a", NSNumber(value: 1), NSArray(array: ["b"])]), forKey: "list")
        out.encode(NSDictionary(dictionary: ["s": "x", "n": NSNumber(value: -4)]), forKey: "map")
        out.finishEncoding()
        let ours = try KeyedUnarchiver(forReadingFrom: out.encodedData)
        #expect(
            try ours.decode([AnyArchived].self, forKey: "list") == [.string("a"), .integer(1), .array([.string("b")])])
        #expect(try ours.decode([String: AnyArchived].self, forKey: "map") == ["s": .string("x"), "n": .integer(-4)])
    }
}

@Suite struct ArchiveGraphEquivalenceTests {
    /// The checker tells sharing from copies, and notices a changed field or class.
    @Test func distinguishesSharingFieldsAndClasses() throws {
        func archive(shared: Bool, name: String = "a", className: String = "XWZLeaf") throws -> Data {
            let leaf = ArchivedInstance(className: className, fields: ["name": .string(name)])
            let other = shared ? leaf : ArchivedInstance(className: className, fields: ["name": .string(name)])
            let root = ArchivedInstance(className: "XWZRoot", fields: ["x": .object(leaf), "y": .object(other)])
            return try KeyedArchiver.archivedData(withRootObject: AnyArchived.object(root))
        }
        let base = try archive(shared: true)
        #expect(try ArchiveGraphEquivalence.same(base, try archive(shared: true)))
        #expect(try !ArchiveGraphEquivalence.same(base, try archive(shared: false)), "sharing lost")
        #expect(try !ArchiveGraphEquivalence.same(try archive(shared: false), base), "objects merged")
        #expect(try !ArchiveGraphEquivalence.same(base, try archive(shared: true, name: "b")))
        #expect(try !ArchiveGraphEquivalence.same(base, try archive(shared: true, className: "Z")))
    }
}

/// Found by FuzzDifferentialArchive (fuzz/regressions/crash-keyed-inline-root-empty-objects.bin): an
/// archive whose root is an inline array and whose `$objects` is empty trapped (an index past the
/// empty table of objects in progress); inline collections are now counted in depth only.
@Suite struct InlineCollectionTests {
    static func archive(root: PlistValue, objects: [PlistValue]) throws -> Data {
        let archive: PlistValue = .dictionary(
            PlistDictionary([
                (.string("$archiver"), .string("NSKeyedArchiver")), (.string("$version"), .int(100_000)),
                (.string("$top"), .dictionary(PlistDictionary([(.string("root"), root)]))),
                (.string("$objects"), .array(objects)),
            ]))
        return try archive.encoded(as: .binary)
    }

    @Test func inlineArrayRootWithNoObjectsReadsItsElements() throws {
        let data = try Self.archive(root: .array([.string("NSIndexPath"), .string("NSObject")]), objects: [])
        let root = try KeyedUnarchiver(forReadingFrom: data).decodeTopLevelObject()
        #expect(root == .array([.string("NSIndexPath"), .string("NSObject")]))
    }

    @Test func inlineArraysNestedPastTheDepthLimitAreRefused() throws {
        var root: PlistValue = .array([])
        for _ in 0..<40 { root = .array([root]) }
        let data = try Self.archive(root: root, objects: [.string("$null")])
        var limits = KeyedArchiveLimits()
        limits.maxDepth = 16
        #expect {
            _ = try KeyedUnarchiver(forReadingFrom: data, limits: limits).decodeTopLevelObject()
        } throws: { error in
            (error as? KeyedArchiveError)?.code == .limitExceeded
        }
    }
}
