// Tests/KeyedArchiveTests/KeyLookupTests.swift - The per-class key memo against archives whose
// objects share no key strings, store keys in varying orders, or lack keys.

import Foundation
import KeyedArchive
import PropertyList
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
        #expect(error.code == .missingKey)
        #expect(error.keyPath.last == "age")
    }
}
