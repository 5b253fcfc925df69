// Sources/BenchmarkWorkloads/PeerModels.swift - The models of ../shared/peers/swift-peer, as `bplist
// bench` and the benchmark suite use them: the Codable models of the plist workloads (`decode-codable`,
// `encode-codable`; the suite's `PlistDecoder`/`PlistEncoder` rows and Foundation's beside them) and the
// classes of the keyed workload (`unarchive`, `archive`; `-macro` through `@KeyedArchivable`, trait
// MacroBench). Each is written as the peer writes it, so that the two sides do the same work.

public import Foundation
public import KeyedArchive

#if MacroBench
    import KeyedArchiveMacros
#endif

// MARK: - The Codable models of ../shared/peers/swift-peer

/// `Record` of the peers' Codable workload (mixed).
public struct BenchRecord: Codable, Equatable, Sendable {
    public var name: String
    public var title: String
    public var email: String
    public var id: Int
    public var delta: Int
    public var score: Double
    public var active: Bool
    public var created: Date
    public var blob: Data
    public var tags: [String]

    public init(
        name: String, title: String, email: String, id: Int, delta: Int, score: Double, active: Bool, created: Date,
        blob: Data, tags: [String]
    ) {
        (self.name, self.title, self.email, self.id, self.delta) = (name, title, email, id, delta)
        (self.score, self.active, self.created, self.blob, self.tags) = (score, active, created, blob, tags)
    }
}

/// `Numbers` of the peers' Codable workload: one array alternating `Int` and `Double`.
public struct BenchNumbers: Codable, Sendable {
    public var ints: [Int] = []
    public var doubles: [Double] = []

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        if let n = c.count {
            ints.reserveCapacity(n / 2)
            doubles.reserveCapacity(n / 2)
        }
        while !c.isAtEnd {
            ints.append(try c.decode(Int.self))
            doubles.append(try c.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for i in ints.indices {
            try c.encode(ints[i])
            try c.encode(doubles[i])
        }
    }
}

// MARK: - The keyed workload's classes

/// `swift_peer.Dog` of the peers' keyed workload.
public final class BenchDog: KeyedArchivable {
    public static var archiveClassName: String { "swift_peer.Dog" }
    public let name: String
    public let breed: String

    public init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        breed = try coder.decode(String.self, forKey: "breed")
    }

    public func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(breed, forKey: "breed")
    }
}

/// `swift_peer.Person` of the peers' keyed workload.
public final class BenchPerson: KeyedArchivable {
    public static var archiveClassName: String { "swift_peer.Person" }
    public let name: String
    public let age: Int
    public let email: String
    public let dog: BenchDog?

    public init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        age = try coder.decode(Int.self, forKey: "age")
        email = try coder.decode(String.self, forKey: "email")
        dog = try coder.decodeIfPresent(BenchDog.self, forKey: "dog")
    }

    public func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(age, forKey: "age")
        try coder.encode(email, forKey: "email")
        try coder.encode(dog, forKey: "dog")
    }
}

#if MacroBench
    /// `BenchDog` with the conformance `@KeyedArchivable` generates.
    @KeyedArchivable("swift_peer.Dog")
    public final class MacroBenchDog {
        public let name: String
        public let breed: String
    }

    /// `BenchPerson` with the conformance `@KeyedArchivable` generates.
    @KeyedArchivable("swift_peer.Person")
    public final class MacroBenchPerson {
        public let name: String
        public let age: Int
        public let email: String
        public let dog: MacroBenchDog?
    }
#endif
