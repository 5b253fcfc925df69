// Tests/PropertyListTests/ASCIIStringTests.swift - ASCII string objects of every length up to 80, with
// a byte above 0x7F at every position: the reader's ASCII test reads a string's bytes in windows
// chosen by its length (ByteReader.isASCII), so each length and position is a different case.

import Foundation
import PropertyList
import Testing

@Suite struct ASCIIStringTests {
    /// A binary property list, built byte by byte: an array (the root) of ASCII string objects
    /// (marker 0x5_, the count extended past 14), 1-byte references, 2-byte offsets.
    static func plist(_ strings: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = [bytes.count]
        // The root array: 0xAF and an extended count when it has 15 elements or more.
        if strings.count < 15 {
            bytes.append(0xA0 | UInt8(strings.count))
        } else {
            bytes += [0xAF, 0x10, UInt8(strings.count)]
        }
        bytes += (1...strings.count).map { UInt8($0) }
        for s in strings {
            offsets.append(bytes.count)
            if s.count < 15 {
                bytes.append(0x50 | UInt8(s.count))
            } else {
                bytes += [0x5F, 0x10, UInt8(s.count)]
            }
            bytes += s
        }
        let table = bytes.count
        for o in offsets { bytes += [UInt8(o >> 8), UInt8(o & 0xFF)] }
        // Trailer: 6 unused bytes, offset width 2, reference width 1, object count, root 0, table offset.
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        for v in [offsets.count, 0, table] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) }
        }
        return Data(bytes)
    }

    /// `n` printable ASCII bytes that differ from string to string.
    static func ascii(_ n: Int, seed: Int) -> [UInt8] {
        (0..<n).map { UInt8(0x21 + ($0 * 7 + seed * 13) % 94) }
    }

    @Test("ASCII strings of 0 to 80 bytes read back, untyped and through Codable")
    func everyLengthReadsBack() throws {
        let strings = (0...80).map { Self.ascii($0, seed: $0) }
        // 81 strings: the root array's extended count fits its one byte.
        let data = Self.plist(strings)
        let expected = strings.map { String(decoding: $0, as: UTF8.self) }
        #expect(try PlistDecoder().decode([String].self, from: data) == expected)
        #expect(try BinaryPlistDocument(data).value() == .array(expected.map { .string($0) }))
    }

    @Test("a byte above 0x7F at any position of an ASCII string of 1 to 80 bytes is an error")
    func everyPositionOfEveryLengthIsChecked() throws {
        for length in 1...80 {
            for position in 0..<length {
                var s = Self.ascii(length, seed: position)
                s[position] = 0x80 | UInt8(truncatingIfNeeded: position)
                // The bad string between two good ones, so that neither neighbour's bytes hide it.
                let data = Self.plist([Self.ascii(20, seed: 1), s, Self.ascii(40, seed: 2)])
                let decoded = #expect(throws: DecodingError.self) {
                    try PlistDecoder().decode([String].self, from: data)
                }
                if case .dataCorrupted(let context) = decoded {
                    #expect(context.codingPath.map(\.intValue) == [1], "length \(length), position \(position)")
                } else {
                    Issue.record("length \(length), position \(position): \(String(describing: decoded))")
                }
                let untyped = #expect(throws: PlistError.self) { try BinaryPlistDocument(data).value() }
                #expect(untyped?.code == .invalidString, "length \(length), position \(position)")
            }
        }
    }
}
