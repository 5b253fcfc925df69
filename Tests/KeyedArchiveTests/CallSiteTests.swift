// Tests/KeyedArchiveTests/CallSiteTests.swift - The call sites, verbatim, round-tripping.

import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite struct CallSiteTests {
    @Test func rootObjectRoundTrips() throws {
        let person = makePerson("Ada", age: 36, dog: Dog(name: "Rex", age: 3))
        let data = try KeyedArchiver.archivedData(withRootObject: person)  // Data, bplist00
        #expect(data.prefix(8) == Data("bplist00".utf8))
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: Person.self, from: data)
        #expect(back.name == "Ada")
        #expect(back.age == 36)
        #expect(back.dog?.name == "Rex")
        #expect(back.dog?.age == 3)
        #expect(back.tags == ["likes": 3, "négatif": -42])
        #expect(back.born == person.born)
        #expect(back.photo == person.photo)
        #expect(back.friends.isEmpty)
    }

    @Test func arrayRootAndSharedInstances() throws {
        let rex = Dog(name: "Rex", age: 3)
        let person = makePerson("Ada", age: 36, dog: rex)
        let other = makePerson("Bob", age: 40, dog: rex)
        other.friends = [person]
        let list = try KeyedArchiver.archivedData(withRootObject: [person, other])  // an array as the root
        let people = try KeyedUnarchiver(forReadingFrom: list).decode([Person].self, forKey: "root")
        #expect(people.map(\.name) == ["Ada", "Bob"])
        // Identity: one Dog instance, and Bob's friend is the same Ada instance.
        #expect(people[0].dog === people[1].dog)
        #expect(people[1].friends.first === people[0])
    }

    @Test func severalTopLevelKeys() throws {
        let dog = Dog(name: "Rex", age: 3)
        let person = makePerson("Ada", age: 36, dog: dog)
        let archiver = KeyedArchiver()  // several objects, own keys
        try archiver.encode(dog, forKey: "dog")
        try archiver.encode(person, forKey: "person")
        let both = try archiver.finishEncoding()
        let unarchiver = try KeyedUnarchiver(forReadingFrom: both)
        let d = try unarchiver.decode(Dog.self, forKey: "dog")
        let p = try unarchiver.decode(Person.self, forKey: "person")
        #expect(d.name == "Rex")
        #expect(p.dog === d)
        #expect(unarchiver.containsValue(forKey: "dog"))
        #expect(!unarchiver.containsValue(forKey: "cat"))
    }

    @Test func classNameMappingPerInstance() throws {
        let person = makePerson("Ada", age: 36)
        let archiver = KeyedArchiver()
        archiver.setClassName("hello", for: Person.self)  // per archiver; also a static, global form
        try archiver.encode(person, forKey: "root")
        let data = try archiver.finishEncoding()
        let doc = try BinaryPlistDocument(data)
        let objects = try #require(try doc.value()["$objects"]?.arrayValue)
        #expect(objects.contains { $0["$classname"] == "hello" })
        #expect(!objects.contains { $0["$classname"] == "XWZPerson" })

        // Without a mapping on the reading side, "hello" is not a Person.
        let plain = try KeyedUnarchiver(forReadingFrom: data)
        #expect(throws: KeyedArchiveError.self) { try plain.decode(Person.self, forKey: "root") }

        let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
        unarchiver.setClass(Person.self, forClassName: "hello")  // per unarchiver
        #expect(try unarchiver.decode(Person.self, forKey: "root").name == "Ada")
    }

    @Test func unarchiverMappingOverridesGlobal() throws {
        // Global form: a name only this test uses, so parallel tests are not affected.
        KeyedUnarchiver.setClass(Dog.self, forClassName: "GlobalDogName")
        defer { KeyedUnarchiver.setClass(nil, forClassName: "GlobalDogName") }
        let archiver = KeyedArchiver()
        archiver.setClassName("GlobalDogName", for: Dog.self)
        try archiver.encode(Dog(name: "Rex", age: 3), forKey: "root")
        let data = try archiver.finishEncoding()
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Dog.self, from: data).name == "Rex")
        // The instance mapping wins over the global one: here it maps the name to another type.
        let u = try KeyedUnarchiver(forReadingFrom: data)
        u.setClass(Plain.self, forClassName: "GlobalDogName")
        let e = try #require(throws: KeyedArchiveError.self) { try u.decode(Dog.self, forKey: "root") }
        #expect(e.code == .classNotAllowed)
        #expect(e.className == "GlobalDogName")
    }

    @Test func globalArchiverMapping() throws {
        KeyedArchiver.setClassName("GlobalPlain", for: Plain.self)
        defer { KeyedArchiver.setClassName(nil, for: Plain.self) }
        #expect(KeyedArchiver.className(for: Plain.self) == "GlobalPlain")
        let a = KeyedArchiver()
        #expect(a.className(for: Plain.self) == "GlobalPlain")
        a.setClassName("LocalPlain", for: Plain.self)
        #expect(a.className(for: Plain.self) == "LocalPlain")
    }

    @Test func defaultClassNameIsTheSwiftTypeName() throws {
        #expect(Plain.archiveClassName == "Plain")
        let data = try KeyedArchiver.archivedData(withRootObject: Plain(value: 7))
        let objects = try #require(try BinaryPlistDocument(data).value()["$objects"]?.arrayValue)
        #expect(objects.contains { $0["$classname"] == "Plain" })
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Plain.self, from: data).value == 7)
    }

    @Test func everyMappedTypeRoundTrips() throws {
        let all = AllTypes()
        let data = try KeyedArchiver.archivedData(withRootObject: all)
        let back = try KeyedUnarchiver.unarchivedObject(ofClass: AllTypes.self, from: data)
        #expect(back.b == all.b)
        #expect(back.i8 == all.i8 && back.i16 == all.i16 && back.i32 == all.i32 && back.i64 == all.i64)
        #expect(back.u8 == all.u8 && back.u16 == all.u16 && back.u32 == all.u32 && back.u64 == all.u64)
        #expect(back.f == all.f)
        #expect(back.d.bitPattern == all.d.bitPattern)
        #expect(back.s == all.s)
        #expect(back.data == all.data)
        #expect(back.date == all.date)
        #expect(back.url == all.url)
        #expect(back.relativeURL?.absoluteString == all.relativeURL?.absoluteString)
        #expect(back.uuid == all.uuid)
        #expect(back.set == all.set)
        #expect(back.nested == all.nested)
        #expect(back.optionalNil == nil)
        #expect(back.dollar == all.dollar)
    }

    @Test func dollarKeysAreEscaped() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: AllTypes())
        let objects = try #require(try BinaryPlistDocument(data).value()["$objects"]?.arrayValue)
        let obj = try #require(objects.first { $0["i8"] != nil })
        #expect(obj["$$class"] != nil)
        #expect(obj["$class"]?.uidValue != nil)
    }

    @Test func archiveLayoutIsApples() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Dog(name: "Rex", age: 3))
        let root = try BinaryPlistDocument(data).value()
        #expect(root["$archiver"] == "NSKeyedArchiver")
        #expect(root["$version"] == 100000)
        #expect(root["$top"]?["root"]?.uidValue == 1)
        let objects = try #require(root["$objects"]?.arrayValue)
        #expect(objects.first == "$null")
        let dog = objects[1]
        #expect(dog["name"]?.uidValue != nil)  // strings are objects
        #expect(dog["age"] == 3)  // integers inline
        let cls = try #require(dog["$class"]?.uidValue.map { objects[Int($0)] })
        #expect(cls["$classname"] == "XWZDog")
        #expect(cls["$classes"] == ["XWZDog", "NSObject"])
    }

    @Test func conditionalEncoding() throws {
        final class Holder: KeyedArchivable {
            var strong: Dog?
            var weak: Dog?
            init(strong: Dog?, weak: Dog?) {
                self.strong = strong
                self.weak = weak
            }
            func encode(with coder: KeyedArchiver) throws {
                try coder.encodeConditionalObject(weak, forKey: "weak")
                try coder.encode(strong, forKey: "strong")
            }
            init(from coder: KeyedUnarchiver) throws {
                weak = try coder.decodeIfPresent(Dog.self, forKey: "weak")
                strong = try coder.decodeIfPresent(Dog.self, forKey: "strong")
            }
        }
        let rex = Dog(name: "Rex", age: 3)
        // Referenced conditionally first, unconditionally later: kept, and shared.
        let a = try KeyedArchiver.archivedData(withRootObject: Holder(strong: rex, weak: rex))
        let backA = try KeyedUnarchiver.unarchivedObject(ofClass: Holder.self, from: a)
        #expect(backA.weak === backA.strong)
        #expect(backA.weak?.name == "Rex")
        // Only conditionally: written as $null.
        let b = try KeyedArchiver.archivedData(withRootObject: Holder(strong: nil, weak: rex))
        let backB = try KeyedUnarchiver.unarchivedObject(ofClass: Holder.self, from: b)
        #expect(backB.weak == nil)
        #expect(!(try BinaryPlistDocument(b).value()["$objects"]?.arrayValue ?? []).contains { $0["name"] != nil })
    }

    @Test func finishedArchiverRejectsMoreEncoding() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(1, forKey: "one")
        let data = try archiver.finishEncoding()
        #expect(try archiver.finishEncoding() == data)
        let e = try #require(throws: KeyedArchiveError.self) { try archiver.encode(2, forKey: "two") }
        #expect(e.code == .unencodable)
        let u = try KeyedUnarchiver(forReadingFrom: data)
        #expect(try u.decode(Int.self, forKey: "one") == 1)
    }
}
