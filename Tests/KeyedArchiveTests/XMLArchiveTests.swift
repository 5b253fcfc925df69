// Tests/KeyedArchiveTests/XMLArchiveTests.swift - Keyed archives in XML form, written and read both ways.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct XMLArchiveTests {
    func person() -> Person {
        let rex = Dog(name: "Rex", age: 3)
        let ada = Person()
        ada.name = "Ada — ñ"
        ada.age = -36
        ada.dog = rex
        ada.tags = ["a": 1]
        ada.photo = Data([0, 1, 254])
        let bob = Person()
        bob.name = "Bob"
        bob.dog = rex
        ada.friends = [bob]
        return ada
    }

    @Test func writesXMLWhenAskedAndReadsItBack() throws {
        let archiver = KeyedArchiver()
        archiver.outputFormat = .xml
        try archiver.encode(person(), forKey: "root")
        let xml = try archiver.finishEncoding()
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(text.contains("<key>CF$UID</key>"))
        #expect(text.contains("<string>NSKeyedArchiver</string>"))
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: xml)
        #expect(back.name == "Ada — ñ" && back.age == -36 && back.photo == Data([0, 1, 254]))
        #expect(back.dog === back.friends.first?.dog, "the shared dog stays one instance")
        // The same archive in both forms holds the same property list.
        let binary = try KeyedArchiver.archivedData(withRootObject: person())
        #expect(try XMLPlist.decode(xml) == BinaryPlistDocument(binary).value())
        #expect(try KeyedArchiver.archivedData(withRootObject: person(), format: .xml) == xml)
    }

    @Test func foundationReadsOurXMLArchives() throws {
        let xml = try KeyedArchiver.archivedData(withRootObject: person(), format: .xml)
        let u = try foundationUnarchiver(xml)
        let p = u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FPerson
        #expect(u.error == nil)
        #expect(p?.name == "Ada — ñ")
        #expect(p?.age == -36)
        #expect(p?.friends.first?.dog === p?.dog)
    }

    @Test func weReadFoundationsXMLArchives() throws {
        let f = FPerson()
        f.name = "Grace"
        f.age = 85
        f.dog = FDog(name: "Byte", age: 2)
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(f, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        let xml = archiver.encodedData
        #expect(String(decoding: xml.prefix(5), as: UTF8.self) == "<?xml")
        let p = try mappedUnarchiver(xml).decode(Person.self, forKey: "root")
        #expect(p.name == "Grace" && p.age == 85 && p.dog?.name == "Byte")
        let graph = try KeyedArchiveGraph(xml)
        #expect(graph.root.flatMap { graph.node($0) } != nil)
    }

    @Test(.enabled(if: Corpus.isPresent, "the shared corpus is not next to the package"))
    func everyXMLCorpusArchiveReadsLikeItsBinaryTwin() throws {
        let dir = Corpus.root.appendingPathComponent("valid/keyed-xml")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".plist") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let xml = try Data(contentsOf: dir.appendingPathComponent(name))
            let graph = try KeyedArchiveGraph(xml, requiredTopKey: nil)
            let twin = String(name.dropLast(".plist".count)) + ".fromxml.bplist"
            if let binary = try? Corpus.data("valid/keyed", twin) {
                #expect(try KeyedArchiveGraph(binary, requiredTopKey: nil).nodes == graph.nodes, "\(name)")
            }
        }
    }
}
