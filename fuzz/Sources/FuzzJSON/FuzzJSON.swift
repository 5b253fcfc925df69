// fuzz/Sources/FuzzJSON/FuzzJSON.swift - libFuzzer entry point: the canonical JSON reader and writer.
// Oracle: whatever reads writes back, reads back equal, and writing it again gives the same text.
// Errors are `syntax`/`limitExceeded` with offsets inside the text.

import Foundation
import FuzzCommon
import PropertyList

let json = TextFormat(
    name: "canonical JSON",
    read: { (d, l) throws(PlistError) in try PlistValue.decode(from: d, as: .json, limits: l, options: textOnly).value
    },
    write: { (v) throws(PlistError) in try v.encoded(as: .json, options: PlistWriteOptions(sortsKeys: true)) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    checkTextRoundTrip(json, input.payload, limits: input.config.limits)
    return 0
}
