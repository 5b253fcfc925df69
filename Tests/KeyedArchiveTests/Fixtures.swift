// Tests/KeyedArchiveTests/Fixtures.swift - The example classes and a few more.

import Foundation
import KeyedArchive

final class Dog: KeyedArchivable {
    static let archiveClassName = "XWZDog"  // optional; default: the Swift type name
    var name: String
    var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
    }
}

final class Person: KeyedArchivable {
    static let archiveClassName = "XWZPerson"
    var name = ""
    var age = 0
    var dog: Dog?
    var friends: [Person] = []
    var tags: [String: Int] = [:]
    var born = Date(timeIntervalSinceReferenceDate: 0)
    var photo = Data()
    init() {}
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
        try coder.encode(dog, forKey: "dog")
        try coder.encode(friends, forKey: "friends")
        try coder.encode(tags, forKey: "tags")
        try coder.encode(born, forKey: "born")
        try coder.encode(photo, forKey: "photo")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        dog = try coder.decodeIfPresent(Dog.self, forKey: "dog")
        friends = try coder.decode([Person].self, forKey: "friends")
        tags = try coder.decode([String: Int].self, forKey: "tags")
        born = try coder.decode(Date.self, forKey: "born")
        photo = try coder.decode(Data.self, forKey: "photo")
    }
}

/// A class with the default archive class name (its Swift type name).
final class Plain: KeyedArchivable {
    var value: Int
    init(value: Int) { self.value = value }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(value, forKey: "value") }
    init(from coder: KeyedUnarchiver) throws { value = try coder.decode(Int.self, forKey: "value") }
}

/// A node of a cyclic graph: opts into two-phase decoding.
final class GraphNode: TwoPhaseKeyedArchivable {
    var label = ""
    var next: GraphNode?
    var children: [GraphNode] = []
    init() {}
    init(_ label: String) { self.label = label }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(label, forKey: "label")
        try coder.encode(next, forKey: "next")
        try coder.encode(children, forKey: "children")
    }
    func decodeFields(from coder: KeyedUnarchiver) throws {
        label = try coder.decode(String.self, forKey: "label")
        next = try coder.decodeIfPresent(GraphNode.self, forKey: "next")
        children = try coder.decode([GraphNode].self, forKey: "children")
    }
}

/// A node that does NOT opt into two-phase decoding.
final class TreeNode: KeyedArchivable {
    var next: TreeNode?
    init(next: TreeNode? = nil) { self.next = next }
    func encode(with coder: KeyedArchiver) throws { try coder.encode(next, forKey: "next") }
    init(from coder: KeyedUnarchiver) throws { next = try coder.decodeIfPresent(TreeNode.self, forKey: "next") }
}

/// Every scalar and Foundation type the archiver maps.
final class AllTypes: KeyedArchivable {
    var b = true
    var i8: Int8 = -8
    var i16: Int16 = -1600
    var i32: Int32 = -320_000
    var i64: Int64 = .min
    var u8: UInt8 = 200
    var u16: UInt16 = 65_000
    var u32: UInt32 = 4_000_000_000
    var u64: UInt64 = .max
    var f: Float = 1.5
    var d: Double = -0.0
    var s = "héllo wörld ✓ 🐶"
    var data = Data([0, 1, 2, 255])
    var date = Date(timeIntervalSinceReferenceDate: 123_456.75)
    var url = URL(string: "https://example.com/a/b?q=1")
    var relativeURL = URL(string: "c/d.txt", relativeTo: URL(string: "https://example.com/base/"))
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    var set: Set<String> = ["a", "b", "c"]
    var nested: [[String: [Int]]] = [["x": [1, 2, 3]], [:]]
    var optionalNil: String? = nil
    var dollar = "dollar key value"
    init() {}
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(b, forKey: "b")
        try coder.encode(i8, forKey: "i8")
        try coder.encode(i16, forKey: "i16")
        try coder.encode(i32, forKey: "i32")
        try coder.encode(i64, forKey: "i64")
        try coder.encode(u8, forKey: "u8")
        try coder.encode(u16, forKey: "u16")
        try coder.encode(u32, forKey: "u32")
        try coder.encode(u64, forKey: "u64")
        try coder.encode(f, forKey: "f")
        try coder.encode(d, forKey: "d")
        try coder.encode(s, forKey: "s")
        try coder.encode(data, forKey: "data")
        try coder.encode(date, forKey: "date")
        try coder.encode(url, forKey: "url")
        try coder.encode(relativeURL, forKey: "relativeURL")
        try coder.encode(uuid, forKey: "uuid")
        try coder.encode(set, forKey: "set")
        try coder.encode(nested, forKey: "nested")
        try coder.encode(optionalNil, forKey: "optionalNil")
        try coder.encode(dollar, forKey: "$class")
    }
    init(from coder: KeyedUnarchiver) throws {
        b = try coder.decode(Bool.self, forKey: "b")
        i8 = try coder.decode(Int8.self, forKey: "i8")
        i16 = try coder.decode(Int16.self, forKey: "i16")
        i32 = try coder.decode(Int32.self, forKey: "i32")
        i64 = try coder.decode(Int64.self, forKey: "i64")
        u8 = try coder.decode(UInt8.self, forKey: "u8")
        u16 = try coder.decode(UInt16.self, forKey: "u16")
        u32 = try coder.decode(UInt32.self, forKey: "u32")
        u64 = try coder.decode(UInt64.self, forKey: "u64")
        f = try coder.decode(Float.self, forKey: "f")
        d = try coder.decode(Double.self, forKey: "d")
        s = try coder.decode(String.self, forKey: "s")
        data = try coder.decode(Data.self, forKey: "data")
        date = try coder.decode(Date.self, forKey: "date")
        url = try coder.decode(URL?.self, forKey: "url")
        relativeURL = try coder.decode(URL?.self, forKey: "relativeURL")
        uuid = try coder.decode(UUID?.self, forKey: "uuid")
        set = try coder.decode(Set<String>.self, forKey: "set")
        nested = try coder.decode([[String: [Int]]].self, forKey: "nested")
        optionalNil = try coder.decode(String?.self, forKey: "optionalNil")
        dollar = try coder.decode(String.self, forKey: "$class")
    }
}

func makePerson(_ name: String, age: Int, dog: Dog? = nil) -> Person {
    let p = Person()
    p.name = name
    p.age = age
    p.dog = dog
    p.tags = ["likes": 3, "négatif": -42]
    p.born = Date(timeIntervalSinceReferenceDate: Double(age) * 1000.5)
    p.photo = Data((0..<UInt8(age % 200)).map { $0 })
    return p
}
