// fuzz/Sources/FuzzXML/FuzzXML.swift - libFuzzer entry point: the XML reader and writer.
// Oracle: whatever reads writes back (or is `unencodable`), reads back equal (dates to whole
// seconds), and writing it again gives the same bytes. Errors are `syntax`/`limitExceeded` with
// offsets inside the text.

import FuzzCommon
import PropertyList

let xml = TextFormat(
    name: "XML",
    read: { (d, l) throws(PlistError) in try PlistValue.decode(from: d, as: .xml, limits: l, options: textOnly).value
    },
    write: { (v) throws(PlistError) in try v.encoded(as: .xml) }, normalize: wholeSecondDates)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    checkTextRoundTrip(xml, input.payload, limits: input.config.limits)
    return 0
}
