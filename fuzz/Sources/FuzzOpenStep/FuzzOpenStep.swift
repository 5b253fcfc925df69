// fuzz/Sources/FuzzOpenStep/FuzzOpenStep.swift - libFuzzer entry point: the OpenStep text reader
// and writer. Oracle: whatever reads (strings, data, arrays, dictionaries only) writes back, reads
// back equal, and writing it again gives the same bytes. Errors are `syntax`/`limitExceeded` with
// offsets inside the text.

import FuzzCommon
import PropertyList

let openStep = TextFormat(
    name: "OpenStep",
    read: { (d, l) throws(PlistError) in
        try PlistValue.decode(from: d, as: .openStep, limits: l, options: textOnly).value
    },
    write: { (v) throws(PlistError) in try v.encoded(as: .openStep) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    checkTextRoundTrip(openStep, input.payload, limits: input.config.limits)
    return 0
}
