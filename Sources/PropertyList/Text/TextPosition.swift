// Sources/PropertyList/Text/TextPosition.swift - Where a byte offset lies in UTF-8 text, and how a
// byte is named, for the errors of the text readers (XML and OpenStep).

enum TextPosition {
    /// `line L, column C` of a byte offset (lines end at LF, CR or CRLF; columns count scalars from 1).
    static func lineColumn<C: RandomAccessCollection<UInt8>>(_ bytes: C, _ offset: Int) -> String
    where C.Index == Int {
        var line = 1
        var column = 1
        var k = bytes.startIndex
        let end = min(max(offset, bytes.startIndex), bytes.endIndex)
        while k < end {
            let b = bytes[k]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b == 0x0D {
                if k + 1 < end && bytes[k + 1] == 0x0A { k += 1 }
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return "line \(line), column \(column)"
    }

    /// `'x'` for a printable ASCII byte, else `byte 0x0a`; `end of input` past the end.
    static func describe<C: RandomAccessCollection<UInt8>>(_ bytes: C, _ k: Int) -> String where C.Index == Int {
        guard k >= bytes.startIndex && k < bytes.endIndex else { return "end of input" }
        return describe(bytes[k])
    }

    /// `'x'` for a printable ASCII byte, else `byte 0x0a`.
    static func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + (b < 16 ? "0" : "") + String(b, radix: 16)
    }
}
