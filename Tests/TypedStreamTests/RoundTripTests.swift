// Tests/TypedStreamTests/RoundTripTests.swift - Random streams through the small writer, read back:
// reader(writer(x)) == x, for groups of every type code, nested arrays and structures, unions, new
// objects, references (to earlier objects and to objects still open), class chains sharing
// superclasses, C strings, both byte orders and both streamer versions.

import Foundation
import KeyedArchiveTestSupport
import Testing
import TypedStream

/// A type of the model, with its encoding.
indirect enum ModelType {
    case scalar(Character)
    case bytes(Int)
    case array(Int, ModelType)
    case structure(String?, [ModelType])
    /// A union and its byte count on a 64-bit writer.
    case union(String, Int)

    var encoding: String {
        switch self {
        case .scalar(let c): String(c)
        case .bytes(let n): "[\(n)c]"
        case .array(let n, let t): "[\(n)\(t.encoding)]"
        case .structure(let name, let fields):
            "{" + (name.map { $0 + "=" } ?? "") + fields.map(\.encoding).joined() + "}"
        case .union(let name, let size):
            switch size {
            case 2: "(\(name)=sc)"
            case 4: "(\(name)=ic)"
            default: "(\(name)=cd)"
            }
        }
    }
}

/// Writes random values with the writer and records what reading them must give.
struct RandomStream {
    var rng: SplitMix64
    var w: TypedStreamWriter
    var objects: [TypedStreamObject?] = []
    var open: Set<Int> = []
    var classes: [TypedStreamClass] = []
    /// The writer's class numbers → the reader's.
    var classMap: [Int: Int] = [:]
    var depth = 0

    /// Class chains of the pool: (writer number, name, version), the class first.
    static let chains: [[(number: Int, name: String, version: Int)]] = [
        [(0, "NSObject", 0)],
        [(1, "Foo", 1), (0, "NSObject", 0)],
        [(2, "Bar", 2), (1, "Foo", 1), (0, "NSObject", 0)],
        [(3, "Baz", 7)],
        [(4, "Qux", -3), (3, "Baz", 7)],
        [(5, "Ünïcødé", 300), (2, "Bar", 2), (1, "Foo", 1), (0, "NSObject", 0)],
    ]

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        let order: TypedStreamByteOrder = Bool.random(using: &rng) ? .littleEndian : .bigEndian
        w = TypedStreamWriter(
            byteOrder: order, streamerVersion: Int.random(in: 0..<5, using: &rng) == 0 ? 3 : 4,
            systemVersion: [1000, 930, 82, 70000].randomElement(using: &rng) ?? 1000)
    }

    /// The reader's number of a chain's first class, registering the classes the writer writes anew.
    mutating func classNumber(_ chain: [(number: Int, name: String, version: Int)]) -> Int {
        var firstNew: [Int] = []
        var stop: Int?
        for c in chain {
            if let known = classMap[c.number] {
                stop = known
                break
            }
            classMap[c.number] = classes.count
            firstNew.append(classes.count)
            classes.append(TypedStreamClass(name: c.name, version: c.version, superclass: nil))
        }
        for (i, n) in firstNew.enumerated() {
            classes[n].superclass = i + 1 < firstNew.count ? firstNew[i + 1] : stop
        }
        return classMap[chain[0].number] ?? -1
    }

    mutating func randomType(_ level: Int) -> ModelType {
        let scalars: [Character] = [
            "c", "C", "s", "S", "i", "I", "l", "L", "q", "Q", "f", "d", "B", "*", "%", ":", "+", "#", "@", "!",
        ]
        switch Int.random(in: 0..<(level > 2 ? 10 : 14), using: &rng) {
        case 0..<9: return .scalar(scalars.randomElement(using: &rng) ?? "i")
        case 9: return .scalar("@")
        case 10: return .bytes(Int.random(in: 0...5, using: &rng))
        case 11: return .array(Int.random(in: 0...3, using: &rng), randomType(level + 1))
        case 12:
            let name = ["CGPoint", "_NSRange", "?", nil].randomElement(using: &rng) ?? nil
            return .structure(name, (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomType(level + 1) })
        default:
            return .union(
                ["U", "V", "W"].randomElement(using: &rng) ?? "U", [2, 4, 8].randomElement(using: &rng) ?? 4)
        }
    }

    mutating func randomText() -> String {
        ["", "a", "NSString", "ñandú", "日本", "with space", "x\u{1}y"].randomElement(using: &rng) ?? ""
    }

    /// Writes one value of `type`; returns what the reader must report.
    mutating func value(_ type: ModelType) -> TypedStreamValue {
        switch type {
        case .bytes(let n):
            let b = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            w.raw(b)
            return .bytes(Data(b))
        case .union(_, let n):
            let b = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            w.raw(b)
            return .union(Data(b))
        case .array(let n, .scalar(let c)) where c == "c" || c == "C":
            // `[Nc]`: raw bytes, one value.
            let b = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            w.raw(b)
            return .bytes(Data(b))
        case .array(let n, let t):
            return .array((0..<n).map { _ in value(t) })
        case .structure(let name, let fields):
            return .structure(name: name, fields: fields.map { value($0) })
        case .scalar(let c):
            return scalar(c)
        }
    }

    mutating func integer(_ range: ClosedRange<Int64>) -> Int64 {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case 2: return Int64.random(in: max(range.lowerBound, -200)...min(range.upperBound, 200), using: &rng)
        default: return Int64.random(in: range, using: &rng)
        }
    }

    mutating func scalar(_ c: Character) -> TypedStreamValue {
        switch c {
        case "c":
            let v = Int8.random(in: .min ... .max, using: &rng)
            w.byte(UInt8(bitPattern: v))
            return .integer(Int64(v))
        case "C":
            let v = UInt8.random(in: 0...255, using: &rng)
            w.byte(v)
            return .unsignedInteger(UInt64(v))
        case "B":
            let b = Bool.random(using: &rng)
            w.byte(b ? 1 : 0)
            return .bool(b)
        case "s", "i", "l", "q":
            let range: ClosedRange<Int64> =
                c == "s"
                ? Int64(Int16.min)...Int64(Int16.max)
                : c == "q" ? Int64.min...Int64.max : Int64(Int32.min)...Int64(Int32.max)
            let v = integer(range)
            w.integer(v)
            return .integer(v)
        case "S", "I", "L", "Q":
            let bits = c == "S" ? 16 : c == "Q" ? 64 : 32
            let max = bits == 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
            let u = [0, 1, max, max / 2 + 1, UInt64.random(in: 0...max, using: &rng)].randomElement(using: &rng) ?? 0
            w.unsignedInteger(u, bits: bits)
            return .unsignedInteger(u)
        case "f":
            let f: Float =
                [0, -0.0, 1.5, -3, 1e30, Float.infinity, Float(Int32.random(in: -99999...99999, using: &rng)) / 7]
                .randomElement(using: &rng) ?? 0
            w.float(f)
            return .float(f)
        case "d":
            let d: Double =
                [0, -0.0, 2.5, 1e300, -Double.infinity, 3e9, Double(Int64.random(in: -99999...99999, using: &rng)) / 3]
                .randomElement(using: &rng) ?? 0
            w.double(d)
            return .double(d)
        case "+":
            if Int.random(in: 0..<6, using: &rng) == 0 {
                w.unsharedString(nil)
                return .string(nil)
            }
            let b =
                Int.random(in: 0..<3, using: &rng) == 0
                ? (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                : Array(randomText().utf8)
            w.unsharedString(b)
            return .string(Data(b))
        case "*":
            let s: String? = Int.random(in: 0..<5, using: &rng) == 0 ? nil : randomText()
            w.cString(s)
            return .cString(s)
        case "%", ":":
            let s: String? = Int.random(in: 0..<5, using: &rng) == 0 ? nil : randomText()
            w.sharedString(s.map { Array($0.utf8) })
            return .sharedString(s)
        case "#":
            if Int.random(in: 0..<4, using: &rng) == 0 {
                w.nilValue()
                return .class(nil)
            }
            let chain = RandomStream.chains.randomElement(using: &rng) ?? RandomStream.chains[0]
            let n = classNumber(chain)
            w.classChain(chain)
            return .class(n)
        case "@":
            return object()
        default:  // "!"
            return .ignored
        }
    }

    mutating func object() -> TypedStreamValue {
        let roll = Int.random(in: 0..<6, using: &rng)
        if roll == 0 {
            w.nilValue()
            return .object(nil)
        }
        if roll <= 2, !objects.isEmpty {
            // A reference: to any object begun before, open ones included (a cycle).
            let n = Int.random(in: 0..<objects.count, using: &rng)
            w.objectReference(n)
            return .object(n)
        }
        let chain = RandomStream.chains.randomElement(using: &rng) ?? RandomStream.chains[0]
        let cls = classNumber(chain)
        let number = w.beginObject(chain)
        #expect(number == objects.count)
        objects.append(nil)
        open.insert(number)
        depth += 1
        var groups: [TypedStreamGroup] = []
        for _ in 0..<(depth > 3 ? 0 : Int.random(in: 0...3, using: &rng)) { groups.append(group()) }
        depth -= 1
        w.endObject()
        open.remove(number)
        objects[number] = TypedStreamObject(classNumber: cls, groups: groups)
        return .object(number)
    }

    mutating func group() -> TypedStreamGroup {
        let types = (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomType(depth) }
        let encoding = types.map(\.encoding).joined()
        w.beginGroup(encoding)
        return TypedStreamGroup(types: encoding, values: types.map { value($0) })
    }
}

@Suite struct RoundTripTests {
    /// Groups, objects and classes without offsets (what the writer did not choose).
    static func shape(_ groups: [TypedStreamGroup]) -> [[String: [TypedStreamValue]]] {
        groups.map { [$0.types: $0.values] }
    }

    @Test func readerOfWriterIsIdentity() throws {
        let base = propertySeed()
        for i in 0..<400 {
            var s = RandomStream(seed: base &+ UInt64(i))
            var groups: [TypedStreamGroup] = []
            for _ in 0..<Int.random(in: 1...4, using: &s.rng) { groups.append(s.group()) }
            let bytes = s.w.data
            let archive: TypedStreamArchive
            do {
                archive = try TypedStreamArchive(bytes)
            } catch {
                Issue.record("seed \(base &+ UInt64(i)): \(error)")
                continue
            }
            #expect(archive.streamerVersion == s.w.streamerVersion)
            #expect(archive.byteOrder == s.w.byteOrder)
            #expect(RoundTripTests.shape(archive.groups) == RoundTripTests.shape(groups), "seed \(base &+ UInt64(i))")
            #expect(archive.classes == s.classes, "seed \(base &+ UInt64(i))")
            #expect(archive.objects.count == s.objects.count)
            for (n, o) in archive.objects.enumerated() where n < s.objects.count {
                #expect(o.classNumber == s.objects[n]?.classNumber)
                #expect(RoundTripTests.shape(o.groups) == RoundTripTests.shape(s.objects[n]?.groups ?? []))
            }
            // The archive written again reads equal, and writing is a fixed point.
            let again = try TypedStreamArchive(try TypedStreamWriter.write(archive))
            #expect(again == archive || RoundTripTests.shape(again.groups) == RoundTripTests.shape(archive.groups))
            #expect(try TypedStreamWriter.write(again) == TypedStreamWriter.write(archive))
            // Every event stream of the same bytes ends where the archive does.
            #expect(try events(bytes).count >= archive.groups.count * 2)
            // The typed layer reads any of them (or reports a cycle of value classes), and reading the
            // bytes straight into typed values gives the same graphs.
            let typed = Result { () throws(TypedStreamError) in try archive.decodeValues() }
            let streamed = Result { () throws(TypedStreamError) in try TypedStreamArchive.decodeValues(from: bytes) }
            switch (typed, streamed) {
            case (.success(let a), .success(let b)):
                #expect(sameGraphs(a, b), "seed \(base &+ UInt64(i))")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == .cycle && b.code == .cycle, "seed \(base &+ UInt64(i)): \(a) / \(b)")
            default:
                Issue.record("seed \(base &+ UInt64(i)): \(typed) / \(streamed)")
            }
        }
    }
}
