// Tests/KeyedArchiveTests/GraphRoundTripTests.swift - Every keyed archive of the shared corpus read
// as a KeyedArchiveGraph and written back: the same property list, the same object graph node by
// node, in the same form.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

/// Every keyed archive in the shared corpus: each file of its readable folders whose property list
/// has `$archiver` "NSKeyedArchiver" (found by reading the files, not from a list).
enum ArchiveCorpus {
    static let folders = [
        "valid/keyed", "valid/keyed-xml", "valid/bplist", "ambiguous", "valid-unreadable-by-plistlib",
    ]

    static let all: [String] = {
        var out: [String] = []
        for folder in folders {
            let dir = Corpus.root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in names.sorted() where !name.hasSuffix(".json") && !name.hasSuffix(".md") {
                guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)),
                    let root = try? plist(data), case .string("NSKeyedArchiver")? = root["$archiver"]
                else { continue }
                out.append("\(folder)/\(name)")
            }
        }
        return out
    }()

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: Corpus.root.appendingPathComponent(path))
    }

    /// The property list of an archive, read by the property-list layer alone.
    static func plist(_ data: Data) throws -> PlistValue {
        XMLPlist.looksLikeXML(data) ? try XMLPlist.decode(data) : try BinaryPlistDocument(data).value()
    }
}

@Suite struct GraphRoundTripTests {
    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"), arguments: ArchiveCorpus.all)
    func corpusArchiveWritesBackTheSameGraph(path: String) throws {
        let data = try ArchiveCorpus.data(path)
        let graph = try KeyedArchiveGraph(data, requiredTopKey: nil)
        let out = try graph.encoded()
        let isXML = XMLPlist.looksLikeXML(data)
        #expect(graph.format == (isXML ? .xml : .binary), "\(path)")
        #expect(graph.compression == .none, "\(path)")
        #expect(XMLPlist.looksLikeXML(out) == isXML, "\(path): written in another form")
        // The same property list: every $objects entry at its UID, every key in its order.
        let before = try ArchiveCorpus.plist(data)
        #expect(try ArchiveCorpus.plist(out).sameInOrder(before), "\(path): the property list changed")
        // The same graph, node by node: classes, identity, order.
        do {
            let paired = try StrictGraphComparison.compare(data, out)
            #expect(paired > 0, "\(path)")
        } catch {
            Issue.record("\(path): \(error)")
        }
        // Read again, the same nodes; and the other form holds the same property list.
        let again = try KeyedArchiveGraph(out, requiredTopKey: nil)
        #expect(again.nodes == graph.nodes, "\(path)")
        #expect(again.top == graph.top, "\(path)")
        let other = try graph.encoded(as: isXML ? .binary : .xml)
        #expect(try ArchiveCorpus.plist(other).sameInOrder(before), "\(path): the other form differs")
    }

    @Test func corpusIsFound() {
        if !Corpus.isPresent {
            Issue.record("the shared corpus is not next to the package: the archive round trip was skipped")
            return
        }
        // 105 binary and 14 XML archives in valid/keyed and valid/keyed-xml when this was written.
        #expect(ArchiveCorpus.all.count >= 119)
        #expect(ArchiveCorpus.all.contains { $0.hasSuffix(".plist") })
    }

    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
    func distinctEqualObjectsStayDistinctInTheBytes() throws {
        // Two empty NSMutableSets: equal dictionaries in $objects, two objects of the file.
        let data = try ArchiveCorpus.data("valid/keyed/scf-macos1014-NSMutableSet-Empty.bplist")
        let graph = try KeyedArchiveGraph(data, requiredTopKey: nil)
        let out = try graph.encoded()
        let document = try BinaryPlistDocument(out)
        let objectsRef = try #require(try document.ref(at: "$objects"))
        guard case .array(let refs) = try document.object(objectsRef) else {
            Issue.record("no $objects")
            return
        }
        let dictionaries = try refs.filter { if case .dictionary = try document.object($0) { true } else { false } }
        #expect(Set(dictionaries.map(\.index)).count == dictionaries.count, "two $objects entries share one object")
    }

    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
    func orphansStayAndEditsDropOnlyWhatTheyLeaveUnreachable() throws {
        // 19 entries of this archive are reached from nowhere: not part of the graph, kept as they were.
        let data = try ArchiveCorpus.data("valid/keyed/libnskeyedarchiver-nsdictionary_setconfig.bplist")
        var graph = try KeyedArchiveGraph(data, requiredTopKey: nil)
        let before = try ArchiveCorpus.plist(data)
        guard case .array(let objects)? = before["$objects"] else {
            Issue.record("no $objects")
            return
        }
        try graph.apply([.insert(.string("x"), at: ["extra"]), .remove(at: ["extra"])])
        let out = try graph.encoded()
        // The inserted string is unreachable again and dropped; nothing else moved.
        #expect(try ArchiveCorpus.plist(out).sameInOrder(before))
        #expect(objects.count > 19)
    }

    @Test func envelopesAreKept() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: AnyArchived.array([.string("a"), .integer(2)]))
        let graph = try KeyedArchiveGraph(data)
        let zlib = try graph.encoded(as: .binary, compression: .zlib)
        let gzip = try graph.encoded(as: .binary, compression: .gzip)
        #expect(zlib.prefix(1) == Data([0x78]))
        #expect(gzip.prefix(2) == Data([0x1F, 0x8B]))
        for packed in [zlib, gzip] {
            let read = try KeyedArchiveGraph(packed)
            #expect(read.format == .binary)
            #expect(read.compression == (packed == zlib ? .zlib : .gzip))
            #expect(read.nodes == graph.nodes)
            let again = try read.encoded()
            #expect(again.prefix(2) == packed.prefix(2))
        }
        // gzip(1) is the oracle for the gzip member.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("graph-gzip-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.gz")
        try gzip.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let inflated = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(inflated == (try graph.encoded(as: .binary)))
    }

    @Test func selfContainingCollectionsAndCyclesWriteBack() throws {
        // NSMutableArray #1 holds itself and a dictionary that holds the array: what AnyArchived
        // cannot represent, written by hand.
        let archive = ArchiveFixture.archive([
            "$null",
            ["$class": .uid(2), "NS.objects": [.uid(1), .uid(3), .uid(1)]],
            ArchiveFixture.classDescription("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
            ["NS.keys": [.uid(4)], "NS.objects": [.uid(1)], "$class": .uid(5)],
            "back",
            ArchiveFixture.classDescription(
                "NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
        ])
        let data = try BinaryPlistWriter().write(archive)
        #expect(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: AnyArchived.self, from: data)
        }
        var graph = try KeyedArchiveGraph(data)
        let out = try graph.encoded()
        #expect(try ArchiveCorpus.plist(out).sameInOrder(archive))
        #expect(try StrictGraphComparison.compare(data, out) == 3)  // the array, the dictionary, "back"
        // An edit through the cycle: root.0.0.1.back is the array again.
        try graph.append(.string("end"), to: "root.0.0.1.back")
        let edited = try ArchiveCorpus.plist(try graph.encoded())
        guard case .array(let objects)? = edited["$objects"], case .dictionary(let array) = objects[1] else {
            Issue.record("no array")
            return
        }
        #expect(array["NS.objects"] == [.uid(1), .uid(3), .uid(1), .uid(6)])
        #expect(objects[6] == "end")
    }
}

/// Archives written by hand, as property lists.
enum ArchiveFixture {
    static func archive(_ objects: [PlistValue], top: PlistDictionary = PlistDictionary([("root", .uid(1))]))
        -> PlistValue
    {
        .dictionary(
            PlistDictionary([
                ("$version", .int(100000)), ("$archiver", "NSKeyedArchiver"), ("$top", .dictionary(top)),
                ("$objects", .array(objects)),
            ]))
    }

    static func classDescription(_ name: String, _ chain: [String]) -> PlistValue {
        .dictionary(
            PlistDictionary([
                ("$classname", .string(PlistString(name))),
                ("$classes", .array(chain.map { .string(PlistString($0)) })),
            ]))
    }
}
