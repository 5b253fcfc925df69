// Tests/TypedStreamTests/Support/HandBytes.swift - Streams written byte by byte: hex pairs and quoted
// ASCII, with comments, so each fixture reads as its own annotation; reading every event, or the error.

import Foundation
import KeyedArchiveTestSupport
import TypedStream

/// The bytes of `text`: hex pairs (`84`), quoted ASCII (`"NSString"`, spaces allowed inside), and
/// `//` comments to the end of the line (the shared fixture parser, `hexBytes`).
func bytes(_ text: String) -> [UInt8] { hexBytes(text) }

/// The same as `Data`.
func data(_ text: String) -> Data { hex(text) }

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
