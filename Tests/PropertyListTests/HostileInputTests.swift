// Tests/PropertyListTests/HostileInputTests.swift - Cycles, amplification, depth, counts past the end.

import Foundation
import KeyedArchiveTestSupport
import PropertyList
import Testing

@Suite struct HostileInputTests {
    @Test func arraySelfCycle() {
        // FORMAT.md 1.10 vector: an array whose only element is itself.
        let data = hex("62706c6973743030a10008000000000000010100000000000000010000000000000000000000000000000a")
        let e = expectFailure(.cycle, offset: 8) { try decode(data) }
        #expect(e?.object == 0)
    }

    @Test func dictionaryValueCycle() {
        let data = hex("62706c6973743030d10100516b080b000000000000010100000000000000020000000000000000000000000000000d")
        expectFailure(.cycle) { try decode(data) }
    }

    @Test func cycleThroughASecondLevel() {
        // [ [ <0> ] ]: object 1 refers back to object 0.
        expectFailure(.cycle, offset: 8) { try decode(assemble([[0xA1, 1], [0xA1, 0]])) }
    }

    @Test func aSharedSubtreeIsNotACycle() throws {
        // [x, x] with x = ["a"]: a DAG, legal.
        let v = try decode(assemble([[0xA2, 1, 1], [0xA1, 2], ascii("a")]))
        #expect(v == [["a"], ["a"]])
    }

    /// `levels` nested arrays, each `[next, next]`, ending in an int: 2^levels leaves if expanded.
    func doublingDAG(levels: Int) -> Data {
        var objects: [[UInt8]] = (0..<levels).map { [0xA2] + be(UInt64($0 + 1), 2) + be(UInt64($0 + 1), 2) }
        objects.append([0x10, 42])
        return assemble(objects, refSize: 2)
    }

    @Test func sharedReferenceAmplificationCostsTheFileSizeOnly() throws {
        // 22 levels: 131 bytes in Foundation's case, 4 Mi leaves expanded. 60 levels: 2^60 leaves.
        for levels in [22, 60] {
            let data = doublingDAG(levels: levels)
            let v = try decode(data)
            // Walk one branch down: every level is a two-element array of the same value.
            var node = v
            for _ in 0..<levels {
                guard case .array(let pair) = node, pair.count == 2, pair[0] == pair[1] || levels > 22 else {
                    Issue.record("level is not [x, x]")
                    return
                }
                node = pair[0]
            }
            #expect(node == 42)
        }
    }

    @Test func sharedSubtreesStayLinearWhenComparedHashedAndReWritten() throws {
        // 60 levels of [x, x]: 2^60 leaves if anything walked the expansion.
        let data = doublingDAG(levels: 60)
        let a = try decode(data)
        let b = try decode(data)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        // Re-encoding adds each shared level once: the output has the input's 61 objects.
        let written = try BinaryPlistWriter().write(a)
        #expect(try BinaryPlistDocument(written).objectCount == 61)
        #expect(try decode(written) == a)
        // A structurally different DAG is unequal.
        let other = try decode(patched(data, data.count - 32 - 61 * 2 - 1, 43))
        #expect(other != a)
    }

    @Test func nodeBudgetStopsGrowthOutOfProportion() {
        var limits = PlistLimits()
        limits.maxValues = 50
        // 60 levels need ~3 values per level even when shared: over a budget of 50.
        expectFailure(.limitExceeded) { try decode(doublingDAG(levels: 60), limits: limits) }
    }

    /// `depth` nested one-element arrays around an int, with 4-byte references.
    func nested(depth: Int) -> Data {
        var objects: [[UInt8]] = (0..<depth).map { [0xA1] + be(UInt64($0 + 1), 4) }
        objects.append([0x10, 1])
        return assemble(objects, refSize: 4)
    }

    @Test func depthIsLimitedWithoutUsingTheCallStack() throws {
        #expect(throws: Never.self) { try decode(nested(depth: 100)) }
        expectFailure(.limitExceeded) { try decode(nested(depth: 600)) }
        // Far deeper than any call stack would survive: still a clean error.
        expectFailure(.limitExceeded) { try decode(nested(depth: 200_000)) }
        // And allowed when the caller raises the limit. (The owned tree is kept shallow here: Swift frees
        // nested enums recursively, which is why the default limit stays at CoreFoundation's 512.)
        var limits = PlistLimits()
        limits.maxDepth = 2_000
        #expect(throws: Never.self) { try decode(nested(depth: 1_500), limits: limits) }
    }

    @Test func deepUserTreesEncodeWithoutRecursion() throws {
        var v: PlistValue = 1
        for _ in 0..<1_500 { v = [v] }
        let data = try BinaryPlistWriter().write(v)
        var limits = PlistLimits()
        limits.maxDepth = 2_000
        #expect(try decode(data, limits: limits) == v)
    }

    @Test func countsPastTheEndAreRejectedBeforeAllocating() {
        // Array declaring 2^62 references of 8 bytes: count × width overflows.
        let overflow: [UInt8] = [0xAF, 0x13] + be(1 << 62, 8)
        expectFailure(.truncatedObject, offset: 8) { try decode(assemble([overflow], refSize: 8)) }
        // Array declaring 2^31 one-byte references in a tiny file.
        expectFailure(.truncatedObject, offset: 8) { try decode(single([0xAF, 0x12, 0x80, 0, 0, 0])) }
        // Dictionary of 2^40 entries.
        expectFailure(.truncatedObject, offset: 8) { try decode(single([0xDF, 0x13] + be(1 << 40, 8))) }
        // String of 2^60 bytes.
        expectFailure(.truncatedObject, offset: 8) { try decode(single([0x5F, 0x13] + be(1 << 60, 8))) }
    }

    @Test func utf16CountThatFitsButWhoseBytesDoNot() {
        // 40 code units declared, only 20 present before the offset table (FORMAT.md 1.10 shape).
        let units = (0..<20).flatMap { _ in [0x00, 0x41] as [UInt8] }
        expectFailure(.truncatedObject) { try decode(assemble([[0xA1, 1], [0x6F, 0x10, 0x28] + units])) }
        // 2 × count overflows Int.
        expectFailure(.truncatedObject) { try decode(single([0x6F, 0x13] + be(UInt64(Int.max / 2 + 1), 8))) }
    }

    @Test func referencesOutsideTheObjectTable() {
        let e = expectFailure(.badReference, offset: 10) { try decode(assemble([[0xA2, 1, 9], [0x10, 1]])) }
        #expect(e?.object == 0)
        let doc = try? BinaryPlistDocument(assemble([[0xA2, 1, 9], [0x10, 1]]))
        expectFailure(.badReference) { try doc?.object(ObjectRef(9)) }
    }

    @Test func payloadsMayNotRunIntoTheOffsetTable() {
        // "abc" declared with 5 bytes: the last two would be offset-table bytes.
        expectFailure(.truncatedObject, offset: 8) { try decode(single([0x55, 0x61, 0x62, 0x63])) }
    }

    @Test func dictionaryKeysMustBeScalars() {
        // {true: 1}, {[]: 1}, {UID: 1}
        expectFailure(.invalidKey) { try decode(assemble([[0xD1, 1, 2], [0x09], [0x10, 1]])) }
        expectFailure(.invalidKey) { try decode(assemble([[0xD1, 1, 2], [0xA0], [0x10, 1]])) }
        expectFailure(.invalidKey) { try decode(assemble([[0xD1, 1, 2], [0x80, 1], [0x10, 1]])) }
        // A key that is the dictionary itself: reported as the cycle it also is.
        expectFailure(.cycle) { try decode(assemble([[0xD1, 0, 1], [0x10, 1]])) }
    }

    @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
        let v = try decode(
            assemble([[0xD3, 1, 2, 1, 3, 4, 5], ascii("k"), ascii("j"), [0x10, 1], [0x10, 2], [0x10, 3]]))
        guard case .dictionary(let d) = v else {
            Issue.record("not a dictionary")
            return
        }
        #expect(d.keys == ["k", "j"])
        #expect(d["k"] == 3)
        #expect(d["j"] == 2)
    }

    @Test func objectCountLimit() {
        var limits = PlistLimits()
        limits.maxObjects = 2
        expectFailure(.limitExceeded) { try BinaryPlistDocument(smallDictionary, limits: limits) }
    }

    @Test func everyTruncationOfAValidFileFailsCleanly() throws {
        let value: PlistValue = [
            "name": "Ada", "list": [1, -2, 3.5, true, .data(Data([1, 2])), "ü"], "n": .int(UInt64.max),
        ]
        let data = try BinaryPlistWriter().write(value)
        for n in 0..<data.count {
            #expect(throws: PlistError.self) { try decode(data.prefix(n)) }
        }
        #expect(try decode(data) == value)
    }

    @Test func everySingleByteMutationGivesAValueOrATypedError() throws {
        let value: PlistValue = [
            "a": [1, 2, ["b": "c"]], "d": .date(Date(timeIntervalSinceReferenceDate: 1)), "e": "ß",
        ]
        let data = try BinaryPlistWriter().write(value)
        var decoded = 0
        var rejected = 0
        for i in 0..<data.count {
            for b: UInt8 in [0x00, 0x01, 0x0F, 0x7F, 0x80, 0xAF, 0xD1, 0xFF, data[i] ^ 0x01] {
                var m = data
                m[i] = b
                do throws(PlistError) {
                    // A value that decodes must survive the writer and come back equal.
                    let v = try decode(m)
                    #expect(try decode(BinaryPlistWriter().write(v)) == v, "mutation \(b) at byte \(i)")
                    decoded += 1
                } catch {
                    // Typed (the do block throws only PlistError), and located inside the input.
                    if let offset = error.offset {
                        #expect(offset >= 0 && offset <= m.count, "\(error) for mutation \(b) at byte \(i)")
                    }
                    rejected += 1
                }
            }
        }
        // Both outcomes occur: mutating a payload byte gives another value, a marker or trailer byte an error.
        #expect(rejected > 0 && decoded > 0)
    }
}
