// Tests/KeyedArchiveTests/KeyLookupTests.swift - The per-class key memo against archives whose
// objects share no key strings, store keys in varying orders, or lack keys.

import Foundation
import KeyedArchive
@_spi(Internals) import PropertyList
import Testing

@Suite struct KeyLookupTests {
    /// An array of `XWZDog` objects, each dictionary with its own key order; `$objects` written with
    /// or without deduplication (swift-corelibs-foundation's archiver does not share key strings).
    func dogs(_ orders: [[String]], deduplicate: Bool) throws -> Data {
        var objects: [PlistValue] = []
        // UID 1: the NSArray, UID 2: its class, UID 3: the dog class, then one dog + its name per entry.
        let first = 4
        objects.append(
            [
                "$class": .uid(2),
                "NS.objects": .array((0..<orders.count).map { .uid(UInt64(first + 2 * $0)) }),
            ])
        objects.append(classDescription("NSArray"))
        objects.append(classDescription("XWZDog"))
        for (i, order) in orders.enumerated() {
            let fields: [String: PlistValue] = [
                "$class": .uid(3), "name": .uid(UInt64(first + 2 * i + 1)), "age": .int(i),
            ]
            objects.append(.dictionary(PlistDictionary(order.map { (PlistValue.string($0), fields[$0] ?? .null) })))
            objects.append(.string("dog \(i)"))
        }
        var root = PlistDictionary()
        root["$archiver"] = "NSKeyedArchiver"
        root["$version"] = 100000
        root["$top"] = .dict(["root": .uid(1)])
        root["$objects"] = .array(["$null"] + objects)
        return try BinaryPlistWriter(deduplicate: deduplicate).write(.dictionary(root))
    }

    @Test(arguments: [true, false])
    func keysInVaryingOrders(deduplicate: Bool) throws {
        let orders = [
            ["$class", "name", "age"], ["$class", "name", "age"], ["age", "name", "$class"],
            ["name", "$class", "age"], ["name", "age", "$class"], ["$class", "name", "age"],
        ]
        let data = try dogs(orders, deduplicate: deduplicate)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [Dog].self, from: data)
        #expect(decoded.map(\.name) == (0..<orders.count).map { "dog \($0)" })
        #expect(decoded.map(\.age) == Array(0..<orders.count))
    }

    @Test(arguments: [true, false])
    func aMissingKeyAfterTheMemoIsAnErrorNotAnotherFieldsValue(deduplicate: Bool) throws {
        // The third dog has no "age": its lookup must not take the value at the memoised position.
        let data = try dogs(
            [["$class", "name", "age"], ["$class", "name", "age"], ["$class", "name"]], deduplicate: deduplicate)
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: [Dog].self, from: data)
        }
        #expect(error.code == .keyNotFound)
        #expect(error.keyPath.last == "age")
    }
}

/// A dog with a field older archives lack (read through `decodeKeepingDefault(into:)`), for the key
/// layouts of one class whose objects have different key sets.
final class NicknamedDog: KeyedArchivable {
    static let archiveClassName = "XWZDog"
    var name: String
    var age: Int
    var nickname = "none"
    func encode(with coder: KeyedArchiver) throws {}
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        try coder.decodeKeepingDefault(into: &nickname, forKey: "nickname")
    }
}

/// Looks `name` up twice (around `age`): the second lookup of a key must find what the first found.
final class TwiceNamedDog: KeyedArchivable {
    static let archiveClassName = "XWZDog"
    var first = "none"
    var age = -1
    var second = "none"
    func encode(with coder: KeyedArchiver) throws {}
    init(from coder: KeyedUnarchiver) throws {
        try coder.decodeKeepingDefault(into: &first, forKey: "name")
        try coder.decodeKeepingDefault(into: &age, forKey: "age")
        try coder.decodeKeepingDefault(into: &second, forKey: "name")
    }
}

/// A two-phase dog (its fields are read from the unarchiver's queue).
final class QueuedDog: TwoPhaseKeyedArchivable {
    static let archiveClassName = "XWZDog"
    var name = ""
    var age = 0
    init() {}
    func encode(with coder: KeyedArchiver) throws {}
    func decodeFields(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
    }
}

@Suite struct KeyLayoutTests {
    /// An array of `XWZDog` objects, each with the given keys in the given order: `name` → "dog i",
    /// `age` → i, `nickname` → "nick i", any other key → its own name as a string.
    func dogs(_ orders: [[String]], deduplicate: Bool) throws -> Data {
        var objects: [PlistValue] = []
        let first = 4
        objects.append(
            [
                "$class": .uid(2),
                "NS.objects": .array((0..<orders.count).map { .uid(UInt64(first + 3 * $0)) }),
            ])
        objects.append(classDescription("NSArray"))
        objects.append(classDescription("XWZDog"))
        for (i, order) in orders.enumerated() {
            let uid = UInt64(first + 3 * i)
            let fields: [String: PlistValue] = [
                "$class": .uid(3), "name": .uid(uid + 1), "age": .int(i), "nickname": .uid(uid + 2),
            ]
            objects.append(
                .dictionary(PlistDictionary(order.map { (PlistValue.string($0), fields[$0] ?? .string($0)) })))
            objects.append(.string("dog \(i)"))
            objects.append(.string("nick \(i)"))
        }
        var root = PlistDictionary()
        root["$archiver"] = "NSKeyedArchiver"
        root["$version"] = 100000
        root["$top"] = .dict(["root": .uid(1)])
        root["$objects"] = .array(["$null"] + objects)
        return try BinaryPlistWriter(deduplicate: deduplicate).write(.dictionary(root))
    }

    @Test(arguments: [true, false])
    func anOptionalFieldPresentInSomeObjectsInAnyOrder(deduplicate: Bool) throws {
        // Two key sets (with and without "nickname"), each in several orders, interleaved: what a
        // writer ordering keys by a hash table produces for a class with an optional field.
        let orders = [
            ["$class", "name", "age"], ["nickname", "$class", "name", "age"], ["age", "$class", "name"],
            ["$class", "name", "age"], ["age", "name", "nickname", "$class"], ["$class", "name", "age"],
            ["name", "age", "$class", "nickname"], ["name", "age", "$class"], ["nickname", "$class", "name", "age"],
            ["$class", "name", "age", "nickname"], ["$class", "age", "name"], ["$class", "name", "age"],
        ]
        let data = try dogs(orders, deduplicate: deduplicate)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [NicknamedDog].self, from: data)
        #expect(decoded.map(\.name) == (0..<orders.count).map { "dog \($0)" })
        #expect(decoded.map(\.age) == Array(0..<orders.count))
        #expect(
            decoded.map(\.nickname) == orders.indices.map { orders[$0].contains("nickname") ? "nick \($0)" : "none" })
    }

    @Test(arguments: [true, false])
    func anotherKeyOfTheSameCountIsNotTakenForAnAbsentOne(deduplicate: Bool) throws {
        // Same key count, other key: "nickname" stands where "age" stood; "age" is then absent.
        let orders = [
            ["$class", "name", "age"], ["$class", "name", "nickname"], ["$class", "name", "age"],
            ["$class", "name", "nickname"], ["name", "nickname", "$class"], ["$class", "name", "age"],
        ]
        let data = try dogs(orders, deduplicate: deduplicate)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [TwiceNamedDog].self, from: data)
        #expect(decoded.map(\.age) == orders.indices.map { orders[$0].contains("age") ? $0 : -1 })
        #expect(decoded.map(\.first) == (0..<orders.count).map { "dog \($0)" })
    }

    @Test(arguments: [true, false])
    func aKeyLookedUpTwiceIsFoundBothTimes(deduplicate: Bool) throws {
        // Objects without "name" (but as many keys) teach the class that its third lookup ("name"
        // again) finds nothing; in objects with "name" every key is matched before that lookup, and
        // it must still find it.
        let orders = [
            ["$class", "age", "color"], ["$class", "name", "age"], ["age", "color", "$class"],
            ["age", "name", "$class"], ["$class", "age", "color"], ["$class", "name", "age"],
        ]
        let data = try dogs(orders, deduplicate: deduplicate)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [TwiceNamedDog].self, from: data)
        let names = orders.indices.map { orders[$0].contains("name") ? "dog \($0)" : "none" }
        #expect(decoded.map(\.first) == names)
        #expect(decoded.map(\.second) == names)
        #expect(decoded.map(\.age) == Array(0..<orders.count))
    }

    @Test func duplicateKeysAreNeverTakenForAllKeysMatched() throws {
        // {$class, name, name, age}: four keys, three distinct. A missing "nickname" is searched for
        // (not proven absent), and the duplicate does not hide a key.
        var b = ObjectTableBuilder()
        func s(_ text: String) -> BuilderRef { b.addString(text) }
        func uid(_ n: UInt64) -> BuilderRef { b.addUID(n) }
        func dictionary(_ keys: [BuilderRef], _ values: [BuilderRef]) throws -> BuilderRef {
            try b.addDictionary(keys: keys, values: values)
        }
        func array(_ elements: [BuilderRef]) throws -> BuilderRef { try b.addArray(elements) }
        // $objects: "$null", the NSArray (filled in last), its class, the dog class, then a name and a
        // dog per dog.
        let arrayClass = try dictionary(
            [s("$classname"), s("$classes")], [s("NSArray"), try array([s("NSArray"), s("NSObject")])])
        let dogClass = try dictionary(
            [s("$classname"), s("$classes")], [s("XWZDog"), try array([s("XWZDog"), s("NSObject")])])
        var objects: [BuilderRef] = [s("$null"), s("placeholder"), arrayClass, dogClass]
        var dogUIDs: [BuilderRef] = []
        for i in 0..<3 {
            objects.append(s("dog \(i)"))
            let nameUID = uid(UInt64(objects.count - 1))
            let keys = [s("$class"), s("name"), s("name"), s("age")]
            let values = [uid(3), nameUID, nameUID, b.addInt(i)]
            objects.append(try dictionary(keys, values))
            dogUIDs.append(uid(UInt64(objects.count - 1)))
        }
        objects[1] = try dictionary([s("$class"), s("NS.objects")], [uid(2), try array(dogUIDs)])
        let top = try dictionary([s("root")], [uid(1)])
        let rootKeys = [s("$archiver"), s("$version"), s("$top"), s("$objects")]
        let rootValues = [s("NSKeyedArchiver"), b.addInt(100000), top, try array(objects)]
        let root = try dictionary(rootKeys, rootValues)
        let data = try b.finish(root: root)
        let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [NicknamedDog].self, from: data)
        #expect(decoded.map(\.name) == ["dog 0", "dog 1", "dog 2"])
        #expect(decoded.map(\.age) == [0, 1, 2])
        #expect(decoded.map(\.nickname) == ["none", "none", "none"])
    }

    @Test func aTwoPhaseObjectsErrorNamesTheKeysThatLedToIt() throws {
        // Shallow two-phase objects decode their fields at once: the error's key path runs from the root.
        let data = try dogs([["$class", "name", "age"], ["$class", "name"]], deduplicate: true)
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: [QueuedDog].self, from: data)
        }
        #expect(error.code == .keyNotFound)
        #expect(error.keyPath == ["root", "1", "age"])
        let fine = try dogs([["$class", "name", "age"], ["age", "name", "$class"]], deduplicate: false)
        let dogs = try KeyedUnarchiver.unarchivedObject(ofClass: [QueuedDog].self, from: fine)
        #expect(dogs.map(\.name) == ["dog 0", "dog 1"])
        #expect(dogs.map(\.age) == [0, 1])
    }

    @Test func aDeepChainOfTwoPhaseObjectsIsQueuedAndItsErrorNamesTheQueuedObject() throws {
        // 60 nodes, each pointing at the next: deeper ones go to the queue (no depth limit), and an
        // error in a node decoded from the queue names that node's UID first. The last node lacks "value".
        let count = 60
        var objects: [PlistValue] = []
        for i in 1...count {
            objects.append(
                i < count
                    ? .dict(["$class": .uid(UInt64(count + 1)), "value": .int(i), "next": .uid(UInt64(i + 1))])
                    : .dict(["$class": .uid(UInt64(count + 1))]))
        }
        objects.append(classDescription("XWZNode"))
        let data = try handArchive(objects)
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver.unarchivedObject(ofClass: ChainNode.self, from: data, limits: .init(maxDepth: 20))
        }
        #expect(error.code == .keyNotFound)
        #expect(error.keyPath.components.first?.key.hasPrefix("<UID ") == true, "\(error.keyPath)")
        #expect(error.keyPath.last == "value")
        #expect(error.object == count)

        // Without the faulty node, the whole chain decodes under the same depth limit.
        objects[count - 1] = .dict(["$class": .uid(UInt64(count + 1)), "value": .int(count)])
        let head = try KeyedUnarchiver.unarchivedObject(
            ofClass: ChainNode.self, from: try handArchive(objects), limits: .init(maxDepth: 20))
        var values: [Int] = []
        var node: ChainNode? = head
        while let n = node {
            values.append(n.value)
            node = n.next
        }
        #expect(values == Array(1...count))
    }
}

/// A node of a linked list, decoded in two phases.
final class ChainNode: TwoPhaseKeyedArchivable {
    static let archiveClassName = "XWZNode"
    var value = 0
    var next: ChainNode?
    init() {}
    func encode(with coder: KeyedArchiver) throws {}
    func decodeFields(from coder: KeyedUnarchiver) throws {
        value = try coder.decode(Int.self, forKey: "value")
        next = try coder.decodeIfPresent(ChainNode.self, forKey: "next")
    }
}
