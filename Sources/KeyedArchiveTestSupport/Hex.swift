// Sources/KeyedArchiveTestSupport/Hex.swift - Bytes written by hand: the one parser of the tests' hex
// fixtures, so each fixture reads as its own annotation.

public import Foundation

/// The bytes of `text`: hex digits in pairs (`84`, or runs such as `62706c697374`), quoted ASCII
/// (`"NSString"`, spaces allowed inside), `//` comments and `|` annotations to the end of the line.
/// Whitespace separates tokens. Anything else, or a run with an odd number of digits, stops the test
/// run naming the line: a fixture that does not say what it means is a bug in the test.
public func hexBytes(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let s = Array(line.utf8)
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: "|") || (c == UInt8(ascii: "/") && i + 1 < s.count && s[i + 1] == UInt8(ascii: "/")) {
                break  // an annotation or a comment (outside quotes) runs to the end of the line
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                i += 1
            } else if c == UInt8(ascii: "\"") {
                var j = i + 1
                while j < s.count, s[j] != UInt8(ascii: "\"") { j += 1 }
                out += s[(i + 1)..<j]
                i = min(j + 1, s.count)
            } else {
                guard i + 1 < s.count, let high = hexDigit(c), let low = hexDigit(s[i + 1]) else {
                    preconditionFailure("not a hex byte at column \(i + 1) of the fixture line: \(line)")
                }
                out.append(high << 4 | low)
                i += 2
            }
        }
    }
    return out
}

/// The same as `Data`.
public func hex(_ text: String) -> Data { Data(hexBytes(text)) }

private func hexDigit(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
}
