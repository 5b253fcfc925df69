// Tests/PropertyListTests/FuzzRegressionTests.swift - The fuzz harness's hostile shapes, inline.
//
// One test per input in fuzz/regressions/ (named after its symptom), plus the most hostile shapes
// the harness is seeded with (FORMAT.md sections 1.10 and 5: libplist, plistlib, CF and
// swift-foundation bug classes). Each asserts a typed error code or the value, so a shape that
// once trapped, hung or allocated without bound stays covered by `swift test` too.
// A fuzz input is `2 configuration bytes + payload` (fuzz/Sources/FuzzCommon/FuzzInput.swift);
// these tests hold the payload and spell the configuration out as limits and options.

import Foundation
import KeyedArchiveTestSupport
@_spi(Internals) import PropertyList
import Testing

@Suite struct FuzzRegressionTests {
    // MARK: Helpers (named apart from the shared fixtures so the two files evolve independently)

    /// A file from raw objects: header, objects, 1-byte (or `offsetSize`) offsets, trailer.
    static func file(_ objects: [[UInt8]], refSize: UInt8 = 1, offsetSize: Int? = nil) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out += o
        }
        let table = out.count
        let width = offsetSize ?? (table <= 0xFF ? 1 : 2)
        func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
        for off in offsets { out += be(UInt64(off), width) }
        out += [0, 0, 0, 0, 0, 0, UInt8(width), refSize] + be(UInt64(objects.count), 8) + be(0, 8)
        out += be(UInt64(table), 8)
        return Data(out)
    }

    /// Overwrites bytes of the trailer from `field` on (6 = offset size, 8 = count, 16 = top, 24 = table).
    static func patchTrailer(_ data: Data, _ field: Int, _ value: [UInt8]) -> Data {
        var out = data
        let start = data.count - 32 + field
        out.replaceSubrange(start..<start + value.count, with: value)
        return out
    }

    /// The error a throwing read gives, or nil when it succeeds. Any other error type is an issue.
    static func error<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> PlistError? {
        do {
            _ = try body()
            return nil
        } catch let e as PlistError {
            return e
        } catch {
            Issue.record("expected a PlistError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Opens and materialises.
    static func decode(_ data: Data, limits: PlistLimits = .default) throws(PlistError) -> PlistValue {
        try BinaryPlistDocument(data, limits: limits).value()
    }

    /// `[ "a" , 5 ]`, 50 bytes: the base most trailer tests corrupt.
    static let small = file([[0xA2, 1, 2], [0x51, 0x61], [0x10, 5]])

    // MARK: Header and trailer (libplist #87, #88; CVE-2017-5835 / -7982; CF's checks 1-7)

    @Test func inputShorterThanTheHeaderIsNotABinaryPlist() {
        #expect(Self.error { try Self.decode(Data("bplis".utf8)) }?.code == .notABinaryPlist)
        #expect(Self.error { try Self.decode(Data()) }?.code == .notABinaryPlist)
    }

    @Test func headerAloneIsTruncated() {
        #expect(Self.error { try Self.decode(Data("bplist00".utf8)) }?.code == .truncated)
    }

    @Test func hugeObjectCountInTheTrailerIsInvalidTrailer() {
        for count: [UInt8] in [[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x80, 0, 0, 0, 0, 0, 0, 0]] {
            #expect(Self.error { try Self.decode(Self.patchTrailer(Self.small, 8, count)) }?.code == .invalidTrailer)
        }
    }

    @Test func zeroObjectCountIsInvalidTrailer() {
        #expect(
            Self.error { try Self.decode(Self.patchTrailer(Self.small, 8, [0, 0, 0, 0, 0, 0, 0, 0])) }?.code
                == .invalidTrailer)
    }

    @Test func topObjectPastTheCountIsReferenceOutOfRange() {
        let top = Self.patchTrailer(Self.small, 16, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.error { try Self.decode(top) }?.code == .badReference)
    }

    @Test func offsetTableInTheHeaderOrPastTheEndIsInvalidTrailer() {
        for table: [UInt8] in [
            [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0x10, 0], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0],
        ] {
            #expect(Self.error { try Self.decode(Self.patchTrailer(Self.small, 24, table)) }?.code == .invalidTrailer)
        }
    }

    @Test func widthsOutsideOneToEightAreInvalidTrailer() {
        for (field, width) in [(6, 0), (6, 9), (7, 0), (7, 9)] {
            #expect(
                Self.error { try Self.decode(Self.patchTrailer(Self.small, field, [UInt8(width)])) }?.code
                    == .invalidTrailer)
        }
    }

    @Test func objectOffsetIntoTheHeaderIsOffsetOutOfRange() {
        var data = Self.small
        data[data.count - 32 - 2] = 2  // object 1 at byte 2 ("li" of "bplist")
        #expect(Self.error { try Self.decode(data) }?.code == .offsetOutOfRange)
    }

    @Test func referencesTooNarrowForTheObjectCountAreInvalidTrailer() {
        // 300 objects need 2-byte references (go-plist's "ref size too small for 257 objects").
        let data = Self.file(Array(repeating: [0x09], count: 300), refSize: 1)
        #expect(Self.error { try Self.decode(data) }?.code == .invalidTrailer)
    }

    @Test func offsetsTooNarrowToReachTheTableAreInvalidTrailer() {
        let data = Self.file([[0x4F, 0x11, 0x01, 0x00] + Array(repeating: 7, count: 256)], offsetSize: 1)
        #expect(Self.error { try Self.decode(data) }?.code == .invalidTrailer)
    }

    @Test func garbageBetweenTableAndTrailerIsInvalidTrailer() {
        var data = Self.small
        data.insert(0xEE, at: data.count - 32)
        #expect(Self.error { try Self.decode(data) }?.code == .invalidTrailer)
    }

    // MARK: Lengths and counts (libplist #89, #94, #98, #99; dd-plist #104; plistlib bpo-42103)

    @Test func utf16CountWithinTheFileButTwiceItPastTheEndIsTruncatedObject() {
        // FORMAT.md 1.10: the swift-foundation SIGILL (count checked, 2 × count sliced).
        let data = hex(
            "62706c6973743030 a101 6f1028" + String(repeating: "0041", count: 20)
                + "080a 0000000000000101 0000000000000002 0000000000000000 0000000000000035")
        #expect(Self.error { try Self.decode(data) }?.code == .truncatedObject)
        // Lazily too: the array opens, its element does not.
        #expect(Self.error { try BinaryPlistDocument(data).object(ObjectRef(1)) }?.code == .truncatedObject)
    }

    @Test func stringCountOfTwoGigabytesIsTruncatedObject() {
        let data = Self.file([[0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]])
        #expect(Self.error { try Self.decode(data) }?.code == .truncatedObject)
    }

    @Test func dataCountOfInt64MaxIsTruncatedObject() {
        let data = Self.file([[0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]])
        #expect(Self.error { try Self.decode(data) }?.code == .truncatedObject)
    }

    @Test func arrayCountPastTheEndIsTruncatedObject() {
        let data = Self.file([[0xAF, 0x12, 0x10, 0, 0, 0, 0]])
        #expect(Self.error { try Self.decode(data) }?.code == .truncatedObject)
    }

    @Test func dictionaryCountTimesRefWidthOverflowingIsTruncatedObject() {
        // 2^62 entries × 2 × 8-byte refs overflows Int.
        let data = Self.file([[0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0]], refSize: 8)
        #expect(Self.error { try Self.decode(data) }?.code == .truncatedObject)
    }

    @Test func negativeOrNonIntegerExtendedCountIsInvalidObject() {
        let negative = Self.file([[0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]])
        #expect(Self.error { try Self.decode(negative) }?.code == .corrupted)
        let notInt = Self.file([[0xAF, 0x51, 0x41]])
        #expect(Self.error { try Self.decode(notInt) }?.code == .corrupted)
    }

    @Test func referencePastTheObjectCountIsReferenceOutOfRange() {
        let data = Self.file([[0xA2, 1, 9], [0x10, 1]])
        #expect(Self.error { try Self.decode(data) }?.code == .badReference)
        #expect(Self.error { try BinaryPlistDocument(data).object(ObjectRef(9)) }?.code == .badReference)
        #expect(Self.error { try BinaryPlistDocument(data).object(ObjectRef(-1)) }?.code == .badReference)
    }

    // MARK: Markers and scalars

    @Test func undefinedAndBplist1xMarkersAreRejected() {
        let expected: [(UInt8, PlistError.Code)] = [
            (0x01, .unknownMarker), (0x0C, .unknownMarker), (0x0D, .unknownMarker), (0x0E, .unknownMarker),
            (0x15, .corrupted), (0x21, .corrupted), (0x24, .corrupted), (0x30, .corrupted),
            (0x34, .corrupted), (0x70, .unknownMarker), (0x90, .unknownMarker), (0xB0, .unknownMarker),
            (0xE0, .unknownMarker), (0xF0, .unknownMarker),
        ]
        for (marker, code) in expected {
            let data = Self.file([[0xA1, 1], [marker] + Array(repeating: 0, count: 10)])
            #expect(Self.error { try Self.decode(data) }?.code == code, "marker \(marker)")
        }
    }

    @Test func fillByteAsAValueIsInvalidObject() {
        #expect(Self.error { try Self.decode(Self.file([[0x0F]])) }?.code == .corrupted)
        #expect(Self.error { try Self.decode(Self.file([[0xA1, 1], [0x0F]])) }?.code == .corrupted)
    }

    @Test func uidAboveTheLimitIsLimitExceeded() throws {
        // A 5-byte UID is valid bplist00 (the default limit is the format's 8 bytes); CoreFoundation's
        // UInt32 limit, when asked for, rejects it.
        let fiveBytes = Self.file([[0x84, 1, 0, 0, 0, 0]])
        #expect(try Self.decode(fiveBytes) == .uid(1 << 32))
        let cf = PlistLimits(maxUID: UInt64(UInt32.max))
        #expect(Self.error { try Self.decode(fiveBytes, limits: cf) }?.code == .limitExceeded)
        let wide = Self.file([[0x8F, 1] + Array(repeating: 0, count: 15)])
        #expect(Self.error { try Self.decode(wide) }?.code == .limitExceeded)
        var limits = PlistLimits()
        limits.maxUID = 0
        #expect(Self.error { try Self.decode(Self.file([[0x80, 1]]), limits: limits) }?.code == .limitExceeded)
    }

    @Test func invalidStringBytesAreInvalidString() {
        #expect(Self.error { try Self.decode(Self.file([[0x61, 0xD8, 0x00]])) }?.code == .invalidString)
        #expect(Self.error { try Self.decode(Self.file([[0x53, 0xC3, 0xA9, 0x21]])) }?.code == .invalidString)
        let lenient = PlistReadOptions(allowsUTF8InASCIIStrings: true)
        let value = try? BinaryPlistDocument(Self.file([[0x53, 0xC3, 0xA9, 0x21]]), options: lenient).value()
        #expect(value == "\u{E9}!")
    }

    // MARK: Graph shapes (dd-plist #75, plistlib bpo-32072, CF rdar://61529878, gh-111803)

    @Test func selfAndMutualCyclesAreCycle() {
        for objects: [[UInt8]] in [
            [[0xA1, 0]], [[0xC1, 0]], [[0xD1, 1, 0], [0x51, 0x6B]], [[0xD1, 0, 1], [0x51, 0x76]],
            [[0xA1, 1], [0xA1, 0]],
        ] {
            #expect(Self.error { try Self.decode(Self.file(objects)) }?.code == .cycle, "\(objects)")
        }
    }

    @Test func containerOrBooleanDictionaryKeyIsInvalidKey() {
        #expect(Self.error { try Self.decode(Self.file([[0xD1, 1, 2], [0xA0], [0x10, 1]])) }?.code == .invalidKey)
        #expect(Self.error { try Self.decode(Self.file([[0xD1, 1, 1], [0x09]])) }?.code == .invalidKey)
    }

    @Test func hangWriterDagExpansionShapeMaterialisesInLinearWork() throws {
        // fuzz/regressions/hang-writer-dag-expansion.bin (config 00 00): 2^60 leaves if expanded.
        // Memoisation builds each level once; comparing, hashing and re-encoding the result stay
        // linear too (storage identity), so FuzzValue's round-trip oracle runs on it ungated.
        var objects: [[UInt8]] = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 42])
        var limits = PlistLimits()
        limits.maxValues = 1_000
        var node = try Self.decode(Self.file(objects), limits: limits)
        for _ in 0..<60 {
            guard case .array(let pair) = node, pair.count == 2 else {
                Issue.record("a level is not a pair")
                return
            }
            node = pair[0]
        }
        #expect(node == 42)
        let root = try Self.decode(Self.file(objects), limits: limits)
        let rewritten = try BinaryPlistWriter().write(root)
        #expect(try Self.decode(rewritten, limits: limits) == root)
    }

    @Test func nestingPastTheDepthLimitIsLimitExceeded() {
        // 600 nested arrays (CF limit 512; plistlib gh-111803, libplist #289).
        var objects: [[UInt8]] = (0..<600).map { i in [0xA1, UInt8((i + 1) >> 8), UInt8((i + 1) & 0xFF)] }
        objects.append([0x10, 1])
        let data = Self.file(objects, refSize: 2)
        #expect(Self.error { try Self.decode(data) }?.code == .limitExceeded)
        var shallow = PlistLimits()
        shallow.maxDepth = 1
        #expect(
            Self.error { try Self.decode(Self.file([[0xA1, 1], [0xA0]]), limits: shallow) }?.code == .limitExceeded)
    }

    // MARK: Appended data and envelopes

    @Test func appendedBytesAreTrailingDataAndRecoverable() throws {
        let plain = try BinaryPlistWriter().write(["a": 5])
        let appended = plain + Data("junk".utf8)
        let e = Self.error { try BinaryPlistDocument(appended) }
        #expect(e?.code == .trailingData)
        #expect(e?.offset == plain.count)
        let lenient = try BinaryPlistDocument(appended, options: .init(allowsTrailingData: true))
        #expect(lenient.trailingByteCount == 4)
        #expect(try lenient.value() == ["a": 5])
        let pieces = try BinaryPlistDocument.documents(in: plain + plain)
        #expect(pieces.map(\.range) == [0..<plain.count, plain.count..<2 * plain.count])
    }

    @Test func zlibBombStopsAtTheDecompressionCap() throws {
        let bomb = try Zlib.deflate(BinaryPlistWriter().write(.data(Data(count: 60_000))), level: 9)
        #expect(bomb.count < 200)
        #expect(Self.error { try Zlib.inflate(bomb, limit: 100) }?.code == .limitExceeded)
        var limits = PlistLimits()
        limits.maxDecompressedBytes = 100
        #expect(Self.error { try BinaryPlistDocument(bomb, limits: limits) }?.code == .limitExceeded)
    }

    @Test func corruptTruncatedOrExtendedZlibStreamsAreTyped() throws {
        let packed = try Zlib.deflate(BinaryPlistWriter().write(["a": 5]), level: 6)
        #expect(Self.error { try Zlib.inflate(packed + [0], limit: 1 << 20) }?.code == .trailingData)
        #expect(Self.error { try Zlib.inflate(packed.prefix(packed.count / 2), limit: 1 << 20) }?.code == .compression)
        var corrupt = packed
        corrupt[corrupt.startIndex + 2] ^= 0xFF
        corrupt[corrupt.startIndex + 3] ^= 0xFF
        #expect(Self.error { try Zlib.inflate(corrupt, limit: 1 << 20) } != nil)
        #expect(try Zlib.inflate(packed, limit: 1 << 20) == BinaryPlistWriter().write(["a": 5]))
    }
}
