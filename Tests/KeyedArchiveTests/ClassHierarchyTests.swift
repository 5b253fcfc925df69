// Tests/KeyedArchiveTests/ClassHierarchyTests.swift - $classes written from the Swift class chain.

import Foundation
import KeyedArchive
import PropertyList
import Testing

class HierAnimal: KeyedArchivable {
    class var archiveClassName: String { "XWZAnimal" }
    var name: String
    init(name: String) { self.name = name }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(name, forKey: "name") }
    required init(from coder: KeyedUnarchiver) throws { name = try coder.decode(String.self, forKey: "name") }
}

final class HierCat: HierAnimal {
    override class var archiveClassName: String { "XWZCat" }
    var lives: Int
    init(name: String, lives: Int) {
        self.lives = lives
        super.init(name: name)
    }
    override func encode(with coder: KeyedArchiver) throws {
        try super.encode(with: coder)
        try coder.encode(lives, forKey: "lives")
    }
    required init(from coder: KeyedUnarchiver) throws {
        lives = try coder.decode(Int.self, forKey: "lives")
        try super.init(from: coder)
    }
}

/// A subclass that keeps its superclass's archive name.
final class HierQuietCat: HierAnimal {}

@Suite("Class hierarchies")
struct ClassHierarchyTests {
    /// The `$classes` arrays of every class dictionary in `$objects`, by `$classname`.
    func classChains(_ data: Data) throws -> [String: [String]] {
        let root = try BinaryPlistDocument(data).value()
        guard case .array(let objects)? = root["$objects"] else {
            Issue.record("no $objects")
            return [:]
        }
        var chains: [String: [String]] = [:]
        for object in objects {
            guard let name = object["$classname"]?.stringValue, case .array(let classes)? = object["$classes"]
            else { continue }
            chains[name] = classes.compactMap { if let s = $0.stringValue { s } else { nil } }
        }
        return chains
    }

    @Test("$classes follows the Swift superclasses: [XWZCat, XWZAnimal, NSObject]")
    func chainFromSwiftHierarchy() throws {
        #expect(HierCat.archiveSuperclassNames == ["XWZAnimal", "NSObject"])
        #expect(HierAnimal.archiveSuperclassNames == ["NSObject"])
        let data = try KeyedArchiver.archivedData(withRootObject: HierCat(name: "Tom", lives: 7))
        let chains = try classChains(data)
        #expect(chains["XWZCat"] == ["XWZCat", "XWZAnimal", "NSObject"])
    }

    @Test("a subclass without a name of its own does not repeat its superclass's")
    func inheritedNameOnce() {
        #expect(HierQuietCat.archiveClassName == "XWZAnimal")
        #expect(HierQuietCat.archiveSuperclassNames == ["NSObject"])
    }

    @Test("super.encode(with:) and super.init(from:) chain as in NSCoding")
    func superChaining() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: HierCat(name: "Tom", lives: 7))
        let un = try KeyedUnarchiver(forReadingFrom: data)
        let cat = try un.decode(HierCat.self, forKey: "root")
        #expect(cat.name == "Tom")
        #expect(cat.lives == 7)
    }
}
