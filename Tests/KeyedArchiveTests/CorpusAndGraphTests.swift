// Tests/KeyedArchiveTests/CorpusAndGraphTests.swift - The shared corpus through the generic graph API.
//
// The corpus is read at test time from `../shared/corpus` next to the package (`Corpus`); nothing is
// copied.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
struct CorpusAndGraphTests {
    @Test(arguments: Corpus.names("valid/keyed"))
    func validArchiveDecodesAsAGraph(name: String) throws {
        let data = try Corpus.data("valid/keyed", name)
        let graph = try KeyedArchiveGraph(data, requiredTopKey: nil)
        #expect(!graph.nodes.isEmpty)
        #expect(graph.nodes.first == .null)
        for node in graph.nodes {
            guard case .object(let o) = node else { continue }
            #expect(!o.className.isEmpty)
            #expect(o.classChain.first == o.className)
            #expect(o.references.allSatisfy { graph.node($0) != nil })
        }
        for field in graph.top {
            _ = graph.resolve(field.value)  // bounded, never loops on cycles
        }
    }

    @Test(arguments: Corpus.names("invalid-keyed"))
    func invalidArchiveGivesATypedError(name: String) throws {
        let data = try Corpus.data("invalid-keyed", name)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveGraph(data) }
    }

    @Test func invalidArchiveCodes() throws {
        let expected: [String: KeyedArchiveError.Code] = [
            "bpylist2-invalid_type_archive.bplist": .notAKeyedArchive,
            "bpylist2-invalid_uid_archive.bplist": .badReference,
            "bpylist2-invalid_version_archive.bplist": .notAKeyedArchive,
            "bpylist2-missing_uid_archive.bplist": .corrupted,
            "bpylist2-no_class_meta_archive.bplist": .corrupted,
            "bpylist2-no_class_name_archive.bplist": .corrupted,
            "bpylist2-no_objects_archive.bplist": .notAKeyedArchive,
            "bpylist2-no_root_archive.bplist": .keyNotFound,
            "bpylist2-no_top_archive.bplist": .notAKeyedArchive,
        ]
        for (name, code) in expected {
            let data = try Corpus.data("invalid-keyed", name)
            let e = try #require(throws: KeyedArchiveError.self, "\(name)") { try KeyedArchiveGraph(data) }
            #expect(e.code == code, "\(name)")
        }
    }

    @Test func typedDecodesOfAppleArchives() throws {
        let array = try Corpus.data("valid/keyed", "scf-NSKeyedUnarchiver-ArrayTest.fromxml.bplist")
        #expect(
            try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: array) == [
                "baa", "baa", "black", "sheep",
            ])
        let url = try Corpus.data("valid/keyed", "scf-NSKeyedUnarchiver-URLTest.fromxml.bplist")
        let u = try KeyedUnarchiver.unarchivedObject(ofClass: URL.self, from: url)
        #expect(u.absoluteString.hasPrefix("https://www.example.com"))
        let uuid = try Corpus.data("valid/keyed", "scf-NSKeyedUnarchiver-UUIDTest.fromxml.bplist")
        // NS.uuidbytes in the oracle: base64 CthjunWEQM+Ilr2HsygMNA==.
        #expect(
            try KeyedUnarchiver.unarchivedObject(ofClass: UUID.self, from: uuid)
                == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    }

    @Test func cyclicArchiveIsAGraphWithBackReferences() throws {
        let data = try Corpus.data("valid/keyed", "bpylist2-circular_archive.bplist")
        let graph = try KeyedArchiveGraph(data)
        let root = try #require(graph.root)
        guard case .object(let o) = graph.node(root) else {
            Issue.record("root is not an object")
            return
        }
        // The root's `recursive` field points at the root itself.
        #expect(o["recursive"] == .uid(UInt64(root)))
        guard case .object(_, let fields) = graph.resolvedRoot() else {
            Issue.record("the resolved root is not an object")
            return
        }
        #expect(fields.contains { $0.value == .backReference(root) })
    }
}

@Suite struct GraphTests {
    @Test func ourArchiveAsAGraph() throws {
        let rex = Dog(name: "Rex", age: 3)
        let p = makePerson("Ada", age: 36, dog: rex)
        p.friends = [makePerson("Bob", age: 7, dog: rex)]
        let graph = try KeyedArchiveGraph(try KeyedArchiver.archivedData(withRootObject: p))
        let root = try #require(graph.root)
        guard case .object(let person) = graph.node(root) else {
            Issue.record("root is not an object")
            return
        }
        #expect(person.className == "XWZPerson")
        #expect(person.classChain == ["XWZPerson", "NSObject"])
        #expect(Set(person.fields.map(\.key)) == ["name", "age", "dog", "friends", "tags", "born", "photo"])
        guard case .object(let className, let fields) = graph.resolvedRoot() else {
            Issue.record("not resolved as an object")
            return
        }
        #expect(className == "XWZPerson")
        let byKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) })
        #expect(byKey["name"] == .value("Ada"))
        #expect(byKey["age"] == .value(36))
        #expect(byKey["born"] == .date(p.born))
        if case .array(let friends) = byKey["friends"] {
            #expect(friends.count == 1)
        } else {
            Issue.record("friends not an array")
        }
        let e = try #require(throws: KeyedArchiveError.self) {
            try KeyedArchiveGraph(
                try KeyedArchiver.archivedData(withRootObject: p), allowedClasses: ["XWZPerson", "NSArray"])
        }
        #expect(e.code == .classNotAllowed)
    }

    @Test func cyclesResolveToBackReferences() throws {
        let a = GraphNode("a")
        a.next = a
        let graph = try KeyedArchiveGraph(try KeyedArchiver.archivedData(withRootObject: a))
        let root = try #require(graph.root)
        guard case .object(_, let fields) = graph.resolvedRoot() else {
            Issue.record("not an object")
            return
        }
        #expect(fields.first { $0.key == "next" }?.value == .backReference(root))
    }
}
