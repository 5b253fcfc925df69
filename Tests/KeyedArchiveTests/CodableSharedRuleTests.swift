// Tests/KeyedArchiveTests/CodableSharedRuleTests.swift - KeyedArchiveDecoder and PlistDecoder convert
// numbers by one rule and name positions with one coding key.

import Foundation
import KeyedArchive
import PropertyList
import Testing

@Suite struct CodableSharedRuleTests {
    struct Small: Codable { var value: UInt8 }
    struct Whole: Codable { var value: Int }
    struct Flag: Codable { var value: Bool }
    struct Real: Codable { var value: Double }
    struct Narrow: Codable { var value: Float }

    /// Archives `{value: <number>}` with KeyedArchiveEncoder, under the class name "Box".
    func archive<V: Encodable>(_ value: V) throws -> Data {
        try KeyedArchiveEncoder().encode(SharedRuleBox(value: value))
    }

    /// The outcome of one decode, comparable across the two decoders.
    enum Outcome: Equatable {
        case value(String)
        case typeMismatch, dataCorrupted, other
    }

    func outcome<T: Decodable>(_ body: () throws -> T) -> Outcome {
        do {
            return .value("\(try body())")
        } catch DecodingError.typeMismatch {
            return .typeMismatch
        } catch DecodingError.dataCorrupted {
            return .dataCorrupted
        } catch {
            return .other
        }
    }

    @Test func oneRuleForNumbers() throws {
        let numbers: [(any Encodable & Sendable, PlistValue)] = [
            (300, .int(300)), (-1, .int(-1)), (255, .int(255)), (2.0, .real(2)), (1.5, .real(1.5)), (true, .bool(true)),
            (1, .int(1)), (2, .int(2)), (1e300, .real(1e300)),
        ]
        for (number, plist) in numbers {
            let archived = try archive(number)
            var archive = KeyedArchiveDecoder()
            for type in [Small.self, Whole.self, Flag.self, Real.self, Narrow.self] as [any Decodable.Type] {
                archive.setClassName("Box", for: type)
            }
            let tree = PlistValue.dict(["value": plist])
            let pairs: [(Outcome, Outcome)] = [
                (
                    outcome { try archive.decode(Small.self, from: archived).value },
                    outcome { try PlistDecoder().decode(Small.self, from: tree).value }
                ),
                (
                    outcome { try archive.decode(Whole.self, from: archived).value },
                    outcome { try PlistDecoder().decode(Whole.self, from: tree).value }
                ),
                (
                    outcome { try archive.decode(Flag.self, from: archived).value },
                    outcome { try PlistDecoder().decode(Flag.self, from: tree).value }
                ),
                (
                    outcome { try archive.decode(Real.self, from: archived).value },
                    outcome { try PlistDecoder().decode(Real.self, from: tree).value }
                ),
                (
                    outcome { try archive.decode(Narrow.self, from: archived).value },
                    outcome { try PlistDecoder().decode(Narrow.self, from: tree).value }
                ),
            ]
            for (a, p) in pairs { #expect(a == p, "\(number): archive \(a), plist \(p)") }
        }
        // The rule itself, through both: 300 does not fit UInt8, 1.5 is not an Int, 2.0 is, and a
        // boolean is 0 or 1.
        let d = PlistDecoder()
        #expect(outcome { try d.decode(Small.self, from: .dict(["value": .int(300)])).value } == .dataCorrupted)
        #expect(outcome { try d.decode(Whole.self, from: .dict(["value": .real(1.5)])).value } == .dataCorrupted)
        #expect(outcome { try d.decode(Whole.self, from: .dict(["value": .real(2)])).value } == .value("2"))
        #expect(outcome { try d.decode(Whole.self, from: .dict(["value": .bool(true)])).value } == .value("1"))
        #expect(outcome { try d.decode(Flag.self, from: .dict(["value": .int(2)])).value } == .typeMismatch)
        #expect(outcome { try d.decode(Narrow.self, from: .dict(["value": .real(1e300)])).value } == .dataCorrupted)
    }

    /// Positions are named "Index n" with the integer n, in both coders' coding paths.
    @Test func oneCodingKeyForPositions() throws {
        struct Item: Codable { var n: Int }
        struct List: Codable, KeyedArchiveClassNamed {
            static var archiveClassName: String { "List" }
            var items: [Item]
        }
        struct Wrong: Codable { var n: String }
        struct WrongList: Codable { var items: [Wrong] }
        var archive = KeyedArchiveDecoder()
        archive.setClassName("List", for: WrongList.self)
        archive.setClassName("Item", for: Wrong.self)
        let archived = try KeyedArchiveEncoder().encode(List(items: [Item(n: 1), Item(n: 2)]))
        let plist = try PlistEncoder().encode(List(items: [Item(n: 1), Item(n: 2)]))
        var paths: [[String]] = []
        for decode in [
            { _ = try archive.decode(WrongList.self, from: archived) },
            { _ = try PlistDecoder().decode(WrongList.self, from: plist) },
        ] {
            do {
                try decode()
                Issue.record("decoded")
            } catch DecodingError.typeMismatch(_, let context) {
                paths.append(
                    context.codingPath.filter { $0.stringValue != "root" }.map {
                        "\($0.stringValue)/\($0.intValue.map(String.init) ?? "-")"
                    })
            }
        }
        #expect(paths.count == 2)
        #expect(paths.first == paths.last)
        #expect(paths.first == ["items/-", "Index 0/0", "n/-"])
    }
}

struct SharedRuleBox<V: Encodable>: Encodable, KeyedArchiveClassNamed {
    static var archiveClassName: String { "Box" }
    var value: V
}
