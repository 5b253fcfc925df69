// Tests/TypedStreamTests/Support/HandBytes.swift - Streams written byte by byte: hex pairs and quoted
// ASCII, with comments, so each fixture reads as its own annotation.

import Foundation
@_spi(Internals) import TypedStream

/// The bytes of `text`: hex pairs (`84`), quoted ASCII (`"NSString"`, spaces allowed inside), and
/// `//` comments to the end of the line. Whitespace separates tokens.
func bytes(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
        let s = Substring(line)
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "/", s[i...].hasPrefix("//") {
                break  // a comment (outside quotes) runs to the end of the line
            } else if c == " " || c == "\t" {
                i = s.index(after: i)
            } else if c == "\"" {
                var j = s.index(after: i)
                while j < s.endIndex, s[j] != "\"" {
                    out += Array(String(s[j]).utf8)
                    j = s.index(after: j)
                }
                i = j < s.endIndex ? s.index(after: j) : j
            } else {
                let j = s.index(i, offsetBy: 2)
                guard let b = UInt8(s[i..<j], radix: 16) else {
                    fatalError("not a hex byte: \(s[i..<j]) in \(line)")
                }
                out.append(b)
                i = j
            }
        }
    }
    return out
}

/// The same as `Data`.
func data(_ text: String) -> Data { Data(bytes(text)) }

/// The little-endian header of streamer version 4, system version 1000: `04 0b streamtyped 81 e8 03`.
let header = "04 0b \"streamtyped\" 81 e8 03"

/// The big-endian header: `04 0b typedstream 81 03 e8`.
let headerBE = "04 0b \"typedstream\" 81 03 e8"

/// Every event of `data`, in order.
func events(_ data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default)
    throws(TypedStreamError) -> [TypedStreamEvent]
{
    var reader = try TypedStreamReader(data, limits: limits, options: options)
    var out: [TypedStreamEvent] = []
    while let e = try reader.next() { out.append(e) }
    return out
}

/// The error reading all of `data` throws (through the archive), or nil.
func readError(_ data: Data, limits: TypedStreamLimits = .default, options: TypedStreamOptions = .default)
    -> TypedStreamError?
{
    do {
        _ = try TypedStreamArchive(data, limits: limits, options: options)
        return nil
    } catch {
        return error
    }
}
