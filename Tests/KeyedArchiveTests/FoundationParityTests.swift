// Tests/KeyedArchiveTests/FoundationParityTests.swift - The calls code ported from NSKeyedArchiver and
// NSKeyedUnarchiver expects, by their Foundation names; what `$null` does to a property with a
// default; graph edits with the value editing's vocabulary; readable descriptions; Sendable values.
//
// Every archive here is written by hand (handArchive) or by the archiver from values built here; every
// expected result is written out, never computed by the code under test.

import Foundation
import KeyedArchive
import PropertyList
import Testing

/// A class whose optional and defaulted fields show what `$null` does.
final class NullableProfile: KeyedArchivable {
    static let archiveClassName = "XWZProfile"
    var nickname = "none"
    var avatar: String? = "default.png"
    func encode(with coder: KeyedArchiver) throws {}
    init(from coder: KeyedUnarchiver) throws {
        try coder.decodeKeepingDefault(into: &nickname, forKey: "nickname")
        try coder.decodeNullable(into: &avatar, forKey: "avatar")
    }
}

@Suite struct FoundationParityTests {
    /// `$top.root` → a profile (UID 1, its class description UID 2) whose fields are `fields` (UIDs of
    /// `extra`, from 3 on).
    static func profile(_ fields: [(String, PlistValue)], extra: [PlistValue] = []) throws -> Data {
        var object = PlistDictionary([("$class", .uid(2))])
        for (k, v) in fields { object[k] = v }
        return try handArchive(
            [.dictionary(object), ["$classname": "XWZProfile", "$classes": ["XWZProfile", "NSObject"]]] + extra)
    }

    @Test("decodeKeepingDefault keeps the default for $null and absence; decodeNullable sets nil for $null")
    func nullAndDefaults() throws {
        let absent = try KeyedUnarchiver.unarchivedObject(ofClass: NullableProfile.self, from: Self.profile([]))
        #expect(absent.nickname == "none")
        #expect(absent.avatar == "default.png")
        let nulls = try KeyedUnarchiver.unarchivedObject(
            ofClass: NullableProfile.self, from: Self.profile([("nickname", .uid(0)), ("avatar", .uid(0))]))
        #expect(nulls.nickname == "none")
        #expect(nulls.avatar == nil)
        let set = try KeyedUnarchiver.unarchivedObject(
            ofClass: NullableProfile.self,
            from: Self.profile([("nickname", .uid(3)), ("avatar", .uid(4))], extra: ["Dee", "me.png"]))
        #expect(set.nickname == "Dee")
        #expect(set.avatar == "me.png")
    }

    @Test("unarchivedArrayOfObjects, unarchivedDictionary, unarchivedObject(ofClasses:)")
    func oneShotCalls() throws {
        let dogs = [Dog(name: "Rex", age: 3), Dog(name: "Fido", age: 5)]
        let data = try KeyedArchiver.archivedData(withRootObject: dogs, requiringSecureCoding: true)
        let back = try #require(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Dog.self, from: data))
        #expect(back.map(\.name) == ["Rex", "Fido"])
        #expect(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Person.self, from: data)
        }

        let scores = try KeyedArchiver.archivedData(withRootObject: ["a": 1, "b": 2])
        #expect(
            try KeyedUnarchiver.unarchivedDictionary(keysOfClass: String.self, objectsOfClass: Int.self, from: scores)
                == ["a": 1, "b": 2])

        let one = try KeyedArchiver.archivedData(withRootObject: Dog(name: "Rex", age: 3))
        let any = try KeyedUnarchiver.unarchivedObject(ofClasses: [Person.self, Dog.self], from: one)
        #expect((any as? Dog)?.name == "Rex")
        let refused = #expect(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClasses: [Person.self], from: one)
        }
        // The archive names a class this call has no type for.
        #expect(refused?.code == .unknownClass)
        // A $null root is nil, as Foundation's one-shot calls return nil.
        let nullRoot = try handArchive([], top: [("root", .uid(0))])
        #expect(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Dog.self, from: nullRoot) == nil)
    }

    @Test("decodeTopLevelObject and requiresSecureCoding")
    func topLevel() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["x", "y"])
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        #expect(unarchiver.requiresSecureCoding)
        #expect(try unarchiver.decodeTopLevelObject() == .array([.string("x"), .string("y")]))
        #expect(try unarchiver.decodeTopLevelObject(of: [String].self, forKey: "root") == ["x", "y"])
        #expect(try unarchiver.decodeTopLevelObject(forKey: "missing") == nil)
    }

    @Test("decodingFailurePolicy .setErrorAndReturn: optional decodes return nil and record the first error")
    func failurePolicy() throws {
        // root is an object whose $class is not a class description; "ok" is a fine string.
        let data = try handArchive(
            [["$class": .uid(3)], "fine", "not a class"], top: [("root", .uid(1)), ("ok", .uid(2))])
        let throwing = try KeyedUnarchiver(forReadingFrom: data)
        #expect(throwing.decodingFailurePolicy == .throwError)
        #expect(throws: KeyedArchiveError.self) { try throwing.decodeObject(forKey: "root") }
        #expect(throwing.error == nil)

        let recording = try KeyedUnarchiver(forReadingFrom: data)
        recording.decodingFailurePolicy = .setErrorAndReturn
        #expect(try recording.decodeObject(forKey: "root") == nil)
        let first = try #require(recording.error)
        #expect(first.code == .corrupted)
        // After a failure, optional decodes return nil without reading; the first error stays.
        #expect(try recording.decodeIfPresent(String.self, forKey: "ok") == nil)
        #expect(recording.error == first)
        // A call that must return a value still throws.
        #expect(throws: KeyedArchiveError.self) { try recording.decode(Dog.self, forKey: "root") }
    }

    @Test("graph edits speak PlistEdit: creatingParents, replace of nothing, the same codes as PlistValue")
    func graphEditVocabulary() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["theme": "light"] as [String: String])
        var graph = try KeyedArchiveGraph(data)
        try graph.apply([
            .set("dark", at: "root.theme"), .set(.integer(3), at: "root.window.size.width", creatingParents: true),
        ])
        #expect(try graph.value(at: "root.theme") == .string("dark"))
        #expect(try graph.value(at: "root.window.size.width") == .integer(3))
        try graph.append("a.txt", to: "root.recent", creatingParents: true)
        #expect(try graph.value(at: "root.recent") == .array([.string("a.txt")]))
        let missing = #expect(throws: KeyedArchiveError.self) { try graph.replace("x", at: "root.nothing") }
        #expect(missing?.code == .keyNotFound)
        #expect(missing?.keyPath == "root.nothing")
        // The same edit on the same structure as a property list fails with the same code.
        var plain: PlistValue = ["theme": "dark"]
        let plainMissing = #expect(throws: PlistError.self) { try plain.replace("x", at: "nothing") }
        #expect(plainMissing?.code == missing?.code)
        // Written back and read by the unarchiver, the edits are there.
        let back = try KeyedUnarchiver(forReadingFrom: graph.encoded()).decode(AnyArchived.self, forKey: "root")
        guard case .dictionary(let d) = back else {
            Issue.record("root is \(back)")
            return
        }
        #expect(d[.string("theme")] == .string("dark"))
    }

    @Test("an archived value prints as a tree with its classes")
    func anyArchivedDescription() {
        let dog = ArchivedInstance(className: "XWZDog", fields: ["name": "Rex"])
        let person = ArchivedInstance(
            className: "XWZPerson", fields: ["name": "Ada", "dog": .object(dog), "tags": ["admin"]])
        dog["owner"] = .object(person)
        #expect(
            AnyArchived.object(person).description == """
                <XWZPerson> {
                  "dog" => <XWZDog> {
                    "name" => "Rex"
                    "owner" => <XWZPerson> (cycle)
                  }
                  "name" => "Ada"
                  "tags" => [
                    0 => "admin"
                  ]
                }
                """)
        dog.fields = [:]  // the cycle, broken
    }

    @Test("decoded values, instances and the coders cross tasks (Sendable)")
    func sendable() async throws {
        let data = try KeyedArchiver.archivedData(
            withRootObject: AnyArchived.array([.object(ArchivedInstance(className: "X"))]))
        let decoder = KeyedArchiveDecoder()
        let encoder = KeyedArchiveEncoder()
        let value = try await Task.detached {
            _ = try encoder.encode(["a": 1])
            _ = try decoder.decode([Int].self, from: try encoder.encode([1]))
            return try KeyedUnarchiver(forReadingFrom: data).decode(AnyArchived.self, forKey: "root")
        }.value
        guard case .array(let items) = value, case .object(let instance) = items.first else {
            Issue.record("\(value)")
            return
        }
        #expect(instance.className == "X")
    }
}
