// fuzz/Sources/FuzzJSON/FuzzJSON.swift - libFuzzer entry point: the canonical JSON reader and writer.
// Oracle: whatever reads writes back, reads back equal, and writing it again gives the same text.
// Errors are `syntax`/`limitExceeded` with offsets inside the text.

import Foundation
import FuzzCommon
import PropertyList

let json = TextFormat(
    name: "canonical JSON",
    read: { (d, _) throws(PlistError) in try PlistValue(canonicalJSONBytes: d) },
    write: { (v) throws(PlistError) in Data(try v.canonicalJSON().utf8) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    checkTextRoundTrip(json, input.payload, limits: input.config.limits)
    return 0
}
