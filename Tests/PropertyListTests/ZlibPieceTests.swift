// Tests/PropertyListTests/ZlibPieceTests.swift - zlib streams larger than one call can take.
//
// zlib counts input and output in 32-bit `uInt`s, so inputs and outputs over 4 GiB are lent to it in
// pieces. Allocating 4 GiB per test is out of the question; the same code runs here with pieces of
// a few bytes, so every piece boundary (input exhausted mid-stream, output full mid-block, both at
// once) is crossed many times in a few kilobytes.

import Foundation
@_spi(Internals) import PropertyList
import Testing

@Suite struct ZlibPieceTests {
    /// Deterministic bytes that compress a little (runs and noise), so that output pieces fill too.
    static func sample(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let run = Int(state >> 60)  // 0...15
            let byte = UInt8(truncatingIfNeeded: state >> 33)
            bytes.append(contentsOf: repeatElement(byte, count: min(run + 1, count - bytes.count)))
        }
        return Data(bytes)
    }

    @Test(arguments: [1, 2, 7, 64, 4096])
    func deflateInPiecesIsTheSameStream(piece: Int) throws {
        let input = Self.sample(20_000, seed: UInt64(piece))
        let whole = try Zlib.deflate(input, level: 6)
        let pieces = try Zlib.deflate(input, level: 6, piece: piece)
        // zlib's output does not depend on how its input and output are cut.
        #expect(pieces == whole)
        #expect(try Zlib.inflate(pieces, limit: input.count) == input)
        // plistlib's reader (any zlib) reads it too: the stream is the standard one.
        #expect(PlistCompression.detect(pieces) == .zlib)
    }

    @Test(arguments: [1, 3, 64, 4096])
    func inflateInPiecesGivesTheInput(piece: Int) throws {
        let input = Self.sample(30_000, seed: 99)
        let packed = try Zlib.deflate(input, level: 1)
        #expect(try Zlib.inflate(packed, limit: input.count, piece: piece) == input)
        // The cap and the trailing-data check hold across piece boundaries.
        let capped = Result { () throws(PlistError) in
            try Zlib.inflate(packed, limit: input.count - 1, piece: piece)
        }
        #expect(capped.errorCode == .limitExceeded)
        let extended = Result { () throws(PlistError) in
            try Zlib.inflate(packed + [1, 2], limit: input.count, piece: piece)
        }
        #expect(extended.errorCode == .trailingData)
        let cut = Result { () throws(PlistError) in
            try Zlib.inflate(packed.dropLast(9), limit: input.count, piece: piece)
        }
        #expect(cut.errorCode == .compression)
    }

    @Test func emptyAndTinyInputsRoundTrip() throws {
        for input in [Data(), Data([0]), Data("bplist00".utf8)] {
            for piece in [1, 5, Int(UInt32.max)] {
                let packed = try Zlib.deflate(input, level: 9, piece: piece)
                #expect(try Zlib.inflate(packed, limit: 100, piece: piece) == input)
            }
        }
    }

    @Test func aDocumentOpensFromAStreamDeflatedInPieces() throws {
        let tree: PlistValue = .array((0..<500).map { .dict(["n": .int($0), "s": .string("value \($0 % 7)")]) })
        let plain = try BinaryPlistWriter(deduplicate: false).write(tree)
        let packed = try Zlib.deflate(plain, level: 1, piece: 13)
        #expect(try BinaryPlistDocument(packed).value() == tree)
    }
}

extension Result where Failure == PlistError {
    fileprivate var errorCode: PlistError.Code? {
        if case .failure(let e) = self { e.code } else { nil }
    }
}

/// The real thing: a stream of more than 4 GiB, in and out. It needs ~9 GB of memory and ~20 s, so it
/// runs only when asked (`KEYEDARCHIVE_HUGE_TESTS=1 scripts/test ZlibOver4GiB`); otherwise Swift Testing
/// lists it as skipped, with this reason.
@Suite struct ZlibOver4GiBTests {
    static let enabled = ProcessInfo.processInfo.environment["KEYEDARCHIVE_HUGE_TESTS"] == "1"

    @Test(.enabled(if: enabled, "needs ~9 GB of memory; set KEYEDARCHIVE_HUGE_TESTS=1 to run"))
    func aStreamOver4GiBRoundTrips() throws {
        let size = (1 << 32) + 12_345  // past UInt32.max: the sizes zlib's 32-bit counters cannot hold
        var input = Data(count: size)  // zero pages, mapped lazily
        input[input.startIndex + size - 1] = 0x5A  // a last byte that is not a zero, to be found again
        let packed = try Zlib.deflate(input, level: 1)
        #expect(packed.count < size / 100)  // zeros: level 1 gives about 1:230
        let back = try Zlib.inflate(packed, limit: size)
        #expect(back.count == size)
        #expect(back.last == 0x5A)
        #expect(back.prefix(1 << 20).allSatisfy { $0 == 0 })
        #expect(
            Result { () throws(PlistError) in try Zlib.inflate(packed, limit: size - 1) }.errorCode
                == .limitExceeded)
    }
}
