// Tests/PropertyListTests/PlistIntegerTests.swift - PlistInteger: layout, conversions at the edges,
// ordering and hashing against Int128, and PlistValue's integer semantics.

import Foundation
import KeyedArchiveTestSupport
@_spi(Internals) import PropertyList
import Testing

@Suite struct PlistIntegerTests {
    /// The point of PlistInteger: no 16-byte alignment, so `[PlistValue]` buffers are plain allocations
    /// (glibc's `posix_memalign` path is taken for over-aligned Swift objects) and elements are 24 bytes.
    @Test func layout() {
        #expect(MemoryLayout<PlistInteger>.size == 16)
        #expect(MemoryLayout<PlistInteger>.alignment == 8)
        #expect(MemoryLayout<PlistValue>.size == 17)
        #expect(MemoryLayout<PlistValue>.stride == 24)
        #expect(MemoryLayout<PlistValue>.alignment == 8)
    }

    static let edges: [Int128] = [
        .min, .min + 1, Int128(Int64.min) - 1, Int128(Int64.min), -1, 0, 1, 255, 256,
        Int128(UInt32.max), Int128(UInt32.max) + 1, Int128(Int64.max), Int128(Int64.max) + 1,
        Int128(UInt64.max), Int128(UInt64.max) + 1, .max - 1, .max,
    ]

    @Test("round trips through Int128, words and text", arguments: edges)
    func roundTrips(_ v: Int128) {
        let p = PlistInteger(v)
        #expect(p.int128 == v)
        #expect(Int128(p) == v)
        #expect(PlistInteger(high: p.high, low: p.low) == p)
        #expect(p.low == UInt64(truncatingIfNeeded: v))
        #expect(p.high == Int64(truncatingIfNeeded: v >> 64))
        #expect(PlistInteger(exactly: v) == p)
        #expect(p.description == String(v))
        #expect(PlistInteger(p.description) == p)
        #expect(p.int64 == Int64(exactly: v))
        #expect(p.uint64 == UInt64(exactly: v))
        #expect(p.fitsInt64 == (Int64(exactly: v) != nil))
        #expect(Int(exactly: p) == Int(exactly: v))
        #expect(Int32(exactly: p) == Int32(exactly: v))
        #expect(UInt8(exactly: p) == UInt8(exactly: v))
        #expect(Int128(exactly: p) == v)
        #expect(UInt128(exactly: p) == UInt128(exactly: v))
        #expect(PlistValue.integer(p).intValue == Int(exactly: v))
    }

    @Test func sixtyFourBitEdges() {
        #expect(PlistInteger(Int64.min) == PlistInteger(high: -1, low: 1 << 63))
        #expect(PlistInteger(Int64.max) == PlistInteger(high: 0, low: UInt64(Int64.max)))
        #expect(PlistInteger(UInt64.max) == PlistInteger(high: 0, low: .max))
        #expect(PlistInteger(-1 as Int) == PlistInteger(high: -1, low: .max))
        #expect(PlistInteger(UInt64.max).int64 == nil)
        #expect(PlistInteger(UInt64.max).uint64 == .max)
        #expect(PlistInteger(Int64.min).int64 == .min)
        #expect(PlistInteger(Int64.min).uint64 == nil)
        #expect(PlistInteger(-1 as Int8).uint64 == nil)
        #expect(PlistInteger.min == PlistInteger(Int128.min))
        #expect(PlistInteger.max == PlistInteger(Int128.max))
        // Literals cover the whole 128-bit range.
        let big: PlistInteger = 0x7FFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF
        #expect(big == .max)
        let small: PlistInteger = -0x8000_0000_0000_0000_0000_0000_0000_0000
        #expect(small == .min)
    }

    @Test func exactlyFailsOutsideTheRange() {
        #expect(PlistInteger(exactly: UInt128.max) == nil)
        #expect(PlistInteger(exactly: UInt128(Int128.max) + 1) == nil)
        #expect(PlistInteger(exactly: UInt128(Int128.max)) == .max)
        #expect(PlistInteger(exactly: UInt64.max) == PlistInteger(UInt64.max))
        #expect(Int64(exactly: PlistInteger(Int128(Int64.max) + 1)) == nil)
        #expect(Int64(exactly: PlistInteger(Int128(Int64.min) - 1)) == nil)
        #expect(Int(exactly: PlistInteger.max) == nil)
        #expect(UInt64(exactly: PlistInteger(-1 as Int)) == nil)
        #expect(UInt64(exactly: PlistInteger(Int128(UInt64.max) + 1)) == nil)
        #expect(UInt8(exactly: PlistInteger(256 as Int)) == nil)
        #expect(UInt128(exactly: PlistInteger.min) == nil)
        #expect(PlistInteger("170141183460469231731687303715884105728") == nil)  // 2^127
        #expect(PlistInteger("-170141183460469231731687303715884105729") == nil)
        #expect(PlistInteger("12a") == nil)
        #expect(PlistInteger("") == nil)
    }

    @Test func orderEqualityAndHashFollowInt128() {
        var rng = SplitMix64(seed: propertySeed())
        let seed = rng.state
        func sample() -> Int128 {
            switch rng.next() % 4 {
            case 0: Int128(Int64(bitPattern: rng.next()))
            case 1: Int128(Int64(bitPattern: rng.next()) >> 40)
            case 2: Self.edges[Int(rng.next() % UInt64(Self.edges.count))]
            default: Int128(bitPattern: UInt128(rng.next()) << 64 | UInt128(rng.next()))
            }
        }
        for _ in 0..<2_000 {
            let a = sample()
            let b = sample()
            let (pa, pb) = (PlistInteger(a), PlistInteger(b))
            #expect(
                (pa < pb) == (a < b) && (pa == pb) == (a == b) && (pa > pb) == (a > b), "\(a) vs \(b), seed \(seed)")
            if pa == pb { #expect(pa.hashValue == pb.hashValue) }
        }
        let ordered = Self.edges.map { PlistInteger($0) }
        #expect(ordered == ordered.sorted())
        // One value built in every way hashes alike (inside PlistValue too).
        let ways: [PlistInteger] = [
            PlistInteger(Int64(-5)), PlistInteger(Int128(-5)), PlistInteger(-5 as Int8), -5,
            PlistInteger(high: -1, low: UInt64(bitPattern: -5)), PlistInteger(exactly: -5 as Int) ?? 0,
        ]
        #expect(Set(ways).count == 1)
        #expect(Set(ways.map(PlistValue.integer)).count == 1)
        #expect(Set([PlistValue.integer(-5), .int(-5 as Int16), .int(Int128(-5))]).count == 1)
    }

    @Test func integersNeverEqualRealsOrBooleans() {
        #expect(PlistValue.integer(1) != .real(1))
        #expect(PlistValue.integer(1) != .bool(true))
        #expect(PlistValue.integer(0) != .bool(false))
        #expect(PlistValue.integer(0) != .real(0))
        #expect(Set<PlistValue>([.integer(1), .real(1), .bool(true), 1]).count == 3)
        // Exact at the top of the range, where a Double cannot tell the two apart.
        #expect(PlistValue.int(Int128.max) != .int(Int128.max - 1))
    }

    /// Writer widths at every boundary, and the value read back (16-byte integers round-trip).
    @Test("binary round trip and width", arguments: edges)
    func binaryRoundTrip(_ v: Int128) throws {
        let data = try BinaryPlistWriter().write(.int(v))
        let width: Int =
            switch v {
            case 0...0xFF: 1
            case 0x100...0xFFFF: 2
            case 0x1_0000...0xFFFF_FFFF: 4
            case Int128(Int64.min)...Int128(Int64.max): 8
            default: 16
            }
        #expect(data[8] == 0x10 | UInt8(width.trailingZeroBitCount))
        let back = try BinaryPlistDocument(data).value()
        #expect(back == .integer(PlistInteger(v)))
        #expect(try BinaryPlistDocument(data).object(ObjectRef(0)) == .integer(PlistInteger(v)))
        var builder = ObjectTableBuilder()
        let root = builder.addInteger(v)
        #expect(try builder.finish(root: root) == data)
    }
}
