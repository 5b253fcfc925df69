// Tests/KeyedArchiveTests/FoundationInteropTests.swift - Foundation's NSKeyedArchiver as the oracle, both ways.
//
// Linux Foundation writes module-qualified class names (`KeyedArchiveTests.FPerson`) and ignores
// `NSKeyedArchiver.setClassName`; we map those names with `setClass(_:forClassName:)`. On its
// side, `NSKeyedUnarchiver.setClass(_:forClassName:)` maps our names. Secure coding is turned off
// on Foundation's unarchiver because its violations are a fatalError on Linux.

import Foundation
import KeyedArchive
import KeyedArchiveTestSupport
import Testing

final class FDog: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var name: String
    var age: Int
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        age = coder.decodeInteger(forKey: "age")
    }
}

final class FPerson: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var name = ""
    var age = 0
    var dog: FDog?
    var friends: [FPerson] = []
    var tags: [String: Int] = [:]
    var born = Date(timeIntervalSinceReferenceDate: 0)
    var photo = Data()
    override init() {}
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(dog, forKey: "dog")
        coder.encode(friends, forKey: "friends")
        coder.encode(tags, forKey: "tags")
        coder.encode(born, forKey: "born")
        coder.encode(photo, forKey: "photo")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        age = coder.decodeInteger(forKey: "age")
        dog = coder.decodeObject(forKey: "dog") as? FDog
        friends = coder.decodeObject(forKey: "friends") as? [FPerson] ?? []
        tags = coder.decodeObject(forKey: "tags") as? [String: Int] ?? [:]
        born = coder.decodeObject(forKey: "born") as? Date ?? Date(timeIntervalSinceReferenceDate: -1)
        photo = coder.decodeObject(forKey: "photo") as? Data ?? Data([0xEE])
    }
}

/// Nested collections, URLs, UUIDs, sets and extreme numbers.
final class FBag: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var matrix: [[Double]] = []
    var table: [String: [Int]] = [:]
    var flags: Set<String> = []
    var big = 0
    var flag = false
    var url = URL(string: "https://example.org")
    var uuid = UUID()
    override init() {}
    func encode(with coder: NSCoder) {
        coder.encode(matrix, forKey: "matrix")
        coder.encode(table, forKey: "table")
        coder.encode(flags, forKey: "flags")
        coder.encode(big, forKey: "big")
        coder.encode(flag, forKey: "flag")
        coder.encode(url, forKey: "url")
        coder.encode(uuid, forKey: "uuid")
    }
    init?(coder: NSCoder) {
        matrix = coder.decodeObject(forKey: "matrix") as? [[Double]] ?? [[-1]]
        table = coder.decodeObject(forKey: "table") as? [String: [Int]] ?? ["?": []]
        flags = coder.decodeObject(forKey: "flags") as? Set<String> ?? ["?"]
        big = coder.decodeInteger(forKey: "big")
        flag = coder.decodeBool(forKey: "flag")
        url = coder.decodeObject(forKey: "url") as? URL
        uuid = coder.decodeObject(forKey: "uuid") as? UUID ?? UUID()
    }
}

final class Bag: KeyedArchivable {
    static let archiveClassName = "XWZBag"
    var matrix: [[Double]] = []
    var table: [String: [Int]] = [:]
    var flags: Set<String> = []
    var big = 0
    var flag = false
    var url: URL?
    var uuid = UUID()
    init() {}
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(matrix, forKey: "matrix")
        try coder.encode(table, forKey: "table")
        try coder.encode(flags, forKey: "flags")
        try coder.encode(big, forKey: "big")
        try coder.encode(flag, forKey: "flag")
        try coder.encode(url, forKey: "url")
        try coder.encode(uuid, forKey: "uuid")
    }
    init(from coder: KeyedUnarchiver) throws {
        matrix = try coder.decode([[Double]].self, forKey: "matrix")
        table = try coder.decode([String: [Int]].self, forKey: "table")
        flags = try coder.decode(Set<String>.self, forKey: "flags")
        big = try coder.decode(Int.self, forKey: "big")
        flag = try coder.decode(Bool.self, forKey: "flag")
        url = try coder.decodeIfPresent(URL.self, forKey: "url")
        uuid = try coder.decode(UUID.self, forKey: "uuid")
    }
}

/// A comparable snapshot of a person graph (identity as indexes).
struct Snapshot: Equatable {
    struct P: Equatable {
        var name: String
        var age: Int
        var dog: Int?
        var friends: [Int]
        var tags: [String: Int]
        var born: Double
        var photo: Data
    }
    var people: [P]
    var dogs: [String]
}

/// A generated graph in a neutral form; built as our classes or Foundation's.
struct GeneratedGraph {
    var people: [Snapshot.P]
    var dogs: [String]

    init(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("aZé漢字🐶ß \u{0301}$.-_0")
        func text() -> String {
            String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
        }
        func int() -> Int {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: Int.random(in: -100...100, using: &rng)
            case 1: Int.random(in: Int.min...Int.max, using: &rng)
            case 2: [Int.min, Int.max, 0, -1, 255, 256, 65_536, Int(Int32.max) + 1].randomElement(using: &rng) ?? 0
            default: Int.random(in: 0...1_000_000, using: &rng)
            }
        }
        dogs = (0..<Int.random(in: 0...3, using: &rng)).map { _ in text() }
        var people: [Snapshot.P] = []
        for i in 0..<Int.random(in: 1...8, using: &rng) {
            var tags: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) { tags[text()] = int() }
            let friends =
                i == 0 ? [] : (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0..<i, using: &rng) }
            people.append(
                Snapshot.P(
                    name: text(), age: int(), dog: dogs.isEmpty ? nil : Int.random(in: 0..<dogs.count, using: &rng),
                    friends: friends, tags: tags, born: Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 8,
                    photo: Data(
                        (0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })))
        }
        self.people = people
    }

    var snapshot: Snapshot { Snapshot(people: people, dogs: dogs) }

    func ours() -> [Person] {
        let dogObjects = dogs.enumerated().map { Dog(name: $0.element, age: $0.offset) }
        var built: [Person] = []
        for p in people {
            let o = Person()
            o.name = p.name
            o.age = p.age
            o.dog = p.dog.map { dogObjects[$0] }
            o.friends = p.friends.map { built[$0] }
            o.tags = p.tags
            o.born = Date(timeIntervalSinceReferenceDate: p.born)
            o.photo = p.photo
            built.append(o)
        }
        return built
    }

    func foundations() -> [FPerson] {
        let dogObjects = dogs.enumerated().map { FDog(name: $0.element, age: $0.offset) }
        var built: [FPerson] = []
        for p in people {
            let o = FPerson()
            o.name = p.name
            o.age = p.age
            o.dog = p.dog.map { dogObjects[$0] }
            o.friends = p.friends.map { built[$0] }
            o.tags = p.tags
            o.born = Date(timeIntervalSinceReferenceDate: p.born)
            o.photo = p.photo
            built.append(o)
        }
        return built
    }
}

/// Snapshot of decoded objects; identities become indexes (shared objects must be the same instance).
func snapshot(_ people: [Person]) -> Snapshot {
    var dogs: [Dog] = []
    func dogIndex(_ d: Dog?) -> Int? {
        guard let d else { return nil }
        if let i = dogs.firstIndex(where: { $0 === d }) { return i }
        dogs.append(d)
        return dogs.count - 1
    }
    let ps = people.map { p in
        Snapshot.P(
            name: p.name, age: p.age, dog: dogIndex(p.dog),
            friends: p.friends.map { f in people.firstIndex { $0 === f } ?? -1 }, tags: p.tags,
            born: p.born.timeIntervalSinceReferenceDate, photo: p.photo)
    }
    return Snapshot(people: ps, dogs: dogs.map(\.name))
}

func snapshot(_ people: [FPerson]) -> Snapshot {
    var dogs: [FDog] = []
    func dogIndex(_ d: FDog?) -> Int? {
        guard let d else { return nil }
        if let i = dogs.firstIndex(where: { $0 === d }) { return i }
        dogs.append(d)
        return dogs.count - 1
    }
    let ps = people.map { p in
        Snapshot.P(
            name: p.name, age: p.age, dog: dogIndex(p.dog),
            friends: p.friends.map { f in people.firstIndex { $0 === f } ?? -1 }, tags: p.tags,
            born: p.born.timeIntervalSinceReferenceDate, photo: p.photo)
    }
    return Snapshot(people: ps, dogs: dogs.map(\.name))
}

/// The generated dogs in first-use order, as `snapshot` numbers them.
func normalised(_ s: Snapshot) -> Snapshot {
    var order: [Int] = []
    for p in s.people { if let d = p.dog, !order.contains(d) { order.append(d) } }
    var out = s
    out.dogs = order.map { s.dogs[$0] }
    for i in out.people.indices { out.people[i].dog = s.people[i].dog.flatMap { order.firstIndex(of: $0) } }
    return out
}

func foundationUnarchiver(_ data: Data) throws -> NSKeyedUnarchiver {
    let u = try NSKeyedUnarchiver(forReadingFrom: data)
    u.requiresSecureCoding = false
    u.decodingFailurePolicy = .setErrorAndReturn
    u.setClass(FPerson.self, forClassName: "XWZPerson")
    u.setClass(FDog.self, forClassName: "XWZDog")
    u.setClass(FBag.self, forClassName: "XWZBag")
    return u
}

func mappedUnarchiver(_ data: Data) throws -> KeyedUnarchiver {
    let u = try KeyedUnarchiver(forReadingFrom: data)
    u.setClass(Person.self, forClassName: NSStringFromClass(FPerson.self))
    u.setClass(Dog.self, forClassName: NSStringFromClass(FDog.self))
    u.setClass(Bag.self, forClassName: NSStringFromClass(FBag.self))
    return u
}

@Suite struct FoundationInteropTests {
    static let seeds: [UInt64] = Array(1...40)

    @Test(arguments: seeds) func foundationArchivesDecodeEqualThroughUs(seed: UInt64) throws {
        let graph = GeneratedGraph(seed: seed)
        let data = try NSKeyedArchiver.archivedData(withRootObject: graph.foundations(), requiringSecureCoding: false)
        let people = try mappedUnarchiver(data).decode([Person].self, forKey: "root")
        #expect(snapshot(people) == normalised(graph.snapshot), "seed \(seed)")
    }

    @Test(arguments: seeds) func ourArchivesDecodeEqualThroughFoundation(seed: UInt64) throws {
        let graph = GeneratedGraph(seed: seed)
        let data = try KeyedArchiver.archivedData(withRootObject: graph.ours())
        let u = try foundationUnarchiver(data)
        let decoded = u.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        #expect(u.error == nil)
        let people = try #require(decoded as? [FPerson], "seed \(seed)")
        #expect(snapshot(people) == normalised(graph.snapshot), "seed \(seed)")
    }

    @Test func collectionsUrlsUuidsBothWays() throws {
        let ours = Bag()
        ours.matrix = [[1.5, -0.25], [], [Double.greatestFiniteMagnitude]]
        ours.table = ["é": [Int.min, Int.max], "": []]
        ours.flags = ["x", "ÿ", "🐶"]
        ours.big = Int.min
        ours.flag = true
        ours.url = URL(string: "https://example.com/päth?q=1")
        let data = try KeyedArchiver.archivedData(withRootObject: ours)
        let u = try foundationUnarchiver(data)
        let theirs = try #require(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FBag)
        #expect(theirs.matrix == ours.matrix)
        #expect(theirs.table == ours.table)
        #expect(theirs.flags == ours.flags)
        #expect(theirs.big == ours.big)
        #expect(theirs.flag == ours.flag)
        #expect(theirs.url == ours.url)
        #expect(theirs.uuid == ours.uuid)

        let back = try NSKeyedArchiver.archivedData(withRootObject: theirs, requiringSecureCoding: false)
        let again = try mappedUnarchiver(back).decode(Bag.self, forKey: "root")
        #expect(again.matrix == ours.matrix)
        #expect(again.table == ours.table)
        #expect(again.flags == ours.flags)
        #expect(again.big == ours.big)
        #expect(again.flag == ours.flag)
        #expect(again.url == ours.url)
        #expect(again.uuid == ours.uuid)
    }

    @Test func foundationRootValuesDecodeThroughUs() throws {
        let strings = try NSKeyedArchiver.archivedData(withRootObject: ["a", "ü", "a"], requiringSecureCoding: false)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: strings) == ["a", "ü", "a"])
        let dict = try NSKeyedArchiver.archivedData(
            withRootObject: ["k": [1, 2], "$weird": [3]] as [String: [Int]], requiringSecureCoding: false)
        #expect(
            try KeyedUnarchiver.unarchivedObject(ofClass: [String: [Int]].self, from: dict) == [
                "k": [1, 2], "$weird": [3],
            ])
        let date = Date(timeIntervalSinceReferenceDate: 98_765.5)
        let d = try NSKeyedArchiver.archivedData(withRootObject: date, requiringSecureCoding: false)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Date.self, from: d) == date)
        let uuid = UUID()
        let uu = try NSKeyedArchiver.archivedData(withRootObject: uuid, requiringSecureCoding: false)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: UUID.self, from: uu) == uuid)
        let n = try NSKeyedArchiver.archivedData(withRootObject: 42, requiringSecureCoding: false)
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Int.self, from: n) == 42)
    }

    @Test func ourRootValuesDecodeThroughFoundation() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["k": [1, 2]] as [String: [Int]])
        let u = try foundationUnarchiver(data)
        #expect(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [String: [Int]] == ["k": [1, 2]])
        let n = try KeyedArchiver.archivedData(withRootObject: 42)
        #expect(try foundationUnarchiver(n).decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? Int == 42)
    }
}
