// Tests/PropertyListTests/HugePagesTests.swift - HugePages: the range advised, arrays made through it,
// large trees read back whole, and the writer's advised deduplication table.
//
// Whether the kernel backs the range with huge pages is its own affair (and measured by the cold
// decode rows of the peers' run, Benchmarks/README.md); these tests check what the code decides and
// that advised buffers hold exactly what was written.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct HugePagesTests {
    static let page = UInt(HugePages.pageSize)

    @Test func theRangeIsTheWholePagesInside() {
        let t = HugePages.threshold
        // Below the threshold: nothing, aligned or not.
        #expect(HugePages.adviceRange(start: 4 * Self.page, count: t - 1) == nil)
        #expect(HugePages.adviceRange(start: 0, count: 0) == nil)
        // Aligned at both ends: the buffer itself.
        #expect(HugePages.adviceRange(start: 4 * Self.page, count: t) == 4 * Self.page..<(4 * Self.page + UInt(t)))
        // Unaligned: the start rounded up, the end down.
        #expect(
            HugePages.adviceRange(start: 4 * Self.page + 16, count: t)
                == 5 * Self.page..<(4 * Self.page + UInt(t)))
        #expect(
            HugePages.adviceRange(start: 4 * Self.page + 16, count: t + 3 * Int(Self.page))
                == 5 * Self.page..<(9 * Self.page))
        // 4 MiB less one byte after a boundary's next byte: one whole page inside.
        #expect(HugePages.adviceRange(start: Self.page + 1, count: t) == 2 * Self.page..<(3 * Self.page))
        // No end past the address space.
        #expect(HugePages.adviceRange(start: UInt.max - UInt(t) + 2, count: t) == nil)
        #expect(HugePages.adviceRange(start: UInt.max - 5, count: t) == nil)
        // A buffer ending at the last address: rounding its start up does not overflow.
        #expect(
            HugePages.adviceRange(start: UInt.max - UInt(t), count: t)
                == (UInt.max - 2 * Self.page + 1)..<(UInt.max - Self.page + 1))
    }

    @Test("filled arrays hold count copies", arguments: [0, 1, 1000, HugePages.threshold / 8, 3 << 20])
    func filledArrays(count: Int) {
        let words = HugePages.filled(UInt64(0xA5A5), count: count)
        #expect(words.count == count)
        #expect(words.allSatisfy { $0 == 0xA5A5 })
        let pairs = HugePages.filled(Pair(a: 7, b: -1), count: count)
        #expect(pairs.count == count)
        #expect(pairs.allSatisfy { $0 == Pair(a: 7, b: -1) })
        #expect(HugePages.filled(UInt8(1), count: -3).isEmpty)
    }

    /// A reserved array is empty, has the room asked for, and keeps what is appended into it without
    /// moving (the advice changes how its pages are backed, not where or what they are).
    @Test("reserved arrays take their appends in place", arguments: [0, 1, 1000, HugePages.threshold / 8, 3 << 20])
    func reservedArrays(count: Int) {
        var words = HugePages.reserved(UInt64.self, capacity: count)
        #expect(words.isEmpty)
        #expect(words.capacity >= count)
        let capacity = words.capacity
        for i in 0..<count { words.append(UInt64(i) &* 0x9E37_79B9) }
        #expect(words.capacity == capacity)
        #expect(words.count == count)
        #expect((0..<count).allSatisfy { words[$0] == UInt64($0) &* 0x9E37_79B9 })
        #expect(HugePages.reserved(UInt8.self, capacity: -3).isEmpty)
    }

    /// Trees whose arrays are past the threshold, which the binary reader no longer advises
    /// (HugePages.swift says why): the tree read is the one written.
    @Test func largeTreesReadBackWhole() throws {
        // 600,000 values: 14 MB of them, and 8 bytes of bookkeeping for each of the 600,001 objects.
        let numbers = PlistValue.array((0..<600_000).map { $0 % 3 == 0 ? .real(Double($0) / 7) : .int($0) })
        let doc = try BinaryPlistDocument(BinaryPlistWriter().write(numbers))
        #expect(doc.objectCount * 8 >= HugePages.threshold)
        #expect(try doc.value() == numbers)

        // 100,000 entries: 4.8 MB of them.
        let pairs = (0..<100_000).map { i -> (PlistValue, PlistValue) in
            (.string("k\(i)"), .array([.int(i), .bool(i % 2 == 0)]))
        }
        let dictionary = PlistValue.dictionary(PlistDictionary(pairs))
        #expect(try BinaryPlistDocument(BinaryPlistWriter().write(dictionary)).value() == dictionary)
    }

    /// A root of over 4 million elements sizes the writer's dedup table at once past 8 million slots,
    /// the size from which it is advised: the repeats are still found (each value written once) and
    /// every element reads back.
    @Test func aWriterTableOnHugePagesDeduplicates() throws {
        let n = 4_200_000
        let numbers = PlistValue.array((0..<n).map { .int($0 % 1000) })
        let doc = try BinaryPlistDocument(BinaryPlistWriter().write(numbers))
        #expect(doc.objectCount == 1001)
        #expect(try doc.value() == numbers)
    }

    struct Pair: Equatable, BitwiseCopyable {
        var a: Int32
        var b: Int64
    }
}
