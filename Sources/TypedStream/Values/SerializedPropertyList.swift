// Sources/TypedStream/Values/SerializedPropertyList.swift - The NeXT serialized property list
// (`NSSerializer`, `-[NSArchiver encodePropertyList:]`), which `NSFont` archives its name in.
//
// Layout (facts from python-typedstream's `old_binary_plist.py`, read, not copied): each value is a
// 4-byte type number, then
//   2 array, 7 dictionary   4-byte count; for a dictionary the keys (strings) first; then one 4-byte
//                           length per value, then the values (each exactly that long)
//   4 data, 5 string in the NeXTSTEP encoding, 6 string in UTF-16 with a byte-order mark
//                           4-byte length, the bytes, zero padding to a multiple of 4
//   8 nil
// The numbers are little-endian in the files seen; a big-endian one (a PowerPC writer) is told apart
// by its type number. NeXTSTEP-encoded strings are read as ASCII (other bytes become U+FFFD): macOS
// writes UTF-16. Bounded: every length is checked against the bytes, nesting is limited.

public import KeyedArchive

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

@_spi(Internals)
public enum SerializedPropertyList {
    /// The value `data` holds (strings, data, arrays, dictionaries, nil), or `nil` when it is not a
    /// serialized property list.
    public static func decode(_ data: Data) -> AnyArchived? {
        let bytes = [UInt8](data)
        guard bytes.count >= 4 else { return nil }
        let le = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        let littleEndian = (2...8).contains(le)
        var reader = Reader(bytes: bytes, littleEndian: littleEndian)
        guard let value = reader.value(depth: 0), reader.pos == bytes.count else { return nil }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool
        var pos = 0

        mutating func uint32() -> Int? {
            guard bytes.count - pos >= 4 else { return nil }
            let b = bytes[pos..<pos + 4].map(UInt32.init)
            pos += 4
            return Int(
                littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24)
        }

        mutating func value(depth: Int) -> AnyArchived? {
            guard depth < 64, let type = uint32() else { return nil }
            switch type {
            case 4, 5, 6:
                guard let n = uint32(), n <= bytes.count - pos else { return nil }
                let payload = Array(bytes[pos..<pos + n])
                pos += n
                let padding = (4 - n % 4) % 4
                guard padding <= bytes.count - pos, bytes[pos..<pos + padding].allSatisfy({ $0 == 0 }) else {
                    return nil
                }
                pos += padding
                switch type {
                case 4: return .data(Data(payload))
                case 5:
                    var text = ""
                    for b in payload { text.unicodeScalars.append(b < 0x80 ? Unicode.Scalar(b) : "\u{FFFD}") }
                    return .string(text)
                default: return SerializedPropertyList.utf16(payload).map(AnyArchived.string)
                }
            case 2, 7:
                guard let count = uint32(), count <= (bytes.count - pos) / 4 else { return nil }
                var keys: [String] = []
                if type == 7 {
                    for _ in 0..<count {
                        guard case .string(let k)? = value(depth: depth + 1) else { return nil }
                        keys.append(k)
                    }
                }
                var lengths: [Int] = []
                for _ in 0..<count {
                    guard let n = uint32() else { return nil }
                    lengths.append(n)
                }
                var items: [AnyArchived] = []
                for n in lengths {
                    let start = pos
                    guard let v = value(depth: depth + 1), pos - start == n else { return nil }
                    items.append(v)
                }
                if type == 2 { return .array(items) }
                var d: [AnyArchived: AnyArchived] = [:]
                for (k, v) in zip(keys, items) { d[.string(k)] = v }
                return .dictionary(d)
            case 8:
                return .null
            default:
                return nil
            }
        }
    }

    /// UTF-16 with a byte-order mark (big-endian without one).
    static func utf16(_ b: [UInt8]) -> String? {
        guard b.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(b.count / 2)
        var little = false
        var start = 0
        if b.count >= 2 {
            if b[0] == 0xFF, b[1] == 0xFE {
                little = true
                start = 2
            } else if b[0] == 0xFE, b[1] == 0xFF {
                start = 2
            }
        }
        var i = start
        while i < b.count {
            units.append(little ? UInt16(b[i]) | UInt16(b[i + 1]) << 8 : UInt16(b[i]) << 8 | UInt16(b[i + 1]))
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
