// fuzz/Sources/FuzzValue/FuzzValue.swift - libFuzzer entry point: materialise the whole tree.
// Oracle: if it decodes, re-encoding with BinaryPlistWriter succeeds, is deterministic, and decodes
// to an equal value. The target's choice bits pick the writer mode (deduplicating or not).

import FuzzCommon
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    guard case .success(let doc) = open(input.payload, limits: input.config.limits, options: input.config.options)
    else { return 0 }
    let value: PlistValue
    do {
        value = try doc.value()
    } catch {
        checkError(error, inputCount: doc.data.count)
        return 0
    }
    // Materialising is deterministic and memo-independent: a second run gives an equal tree.
    require((try? doc.value(of: doc.root)) == value, "value() and value(of: root) differ")
    checkRoundTrip(value, original: doc, deduplicate: input.config.choice != 1)
    return 0
}
