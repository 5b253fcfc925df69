// Sources/PropertyList/XML/XMLScan.swift - Byte classes of the XML reader: whitespace, name bytes,
// base64 digits, and UTF-8 validation.

enum XMLScan {
    @inline(__always) static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x3A || b >= 0x80
    }

    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
    }
}

extension XMLScan {
    /// The value of a base64 digit, or -1.
    @inline(__always) static func base64Value(_ b: UInt8) -> Int {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(b) - 65
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(b) - 97 + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b) - 48 + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: -1
        }
    }

    /// The index of the first byte that does not belong to a well-formed UTF-8 sequence.
    static func firstInvalidUTF8<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Int? where C.Index == Int {
        var k = bytes.startIndex
        let end = bytes.endIndex
        while k < end {
            let b = bytes[k]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return k
            }
            for j in 1..<length {
                guard k + j < end else { return k }
                let c = bytes[k + j]
                let (lo, hi) = j == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard c >= lo && c <= hi else { return k }
            }
            k += length
        }
        return nil
    }
}
