// fuzz/Sources/FuzzDocument/FuzzDocument.swift - libFuzzer entry point: open a document and walk
// every object lazily (markers, references, strings, data, key paths) under limits taken from the
// input's first two bytes (see FuzzInput.swift).

import FuzzCommon
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    guard case .success(let doc) = open(input.payload, limits: input.config.limits, options: input.config.options)
    else { return 0 }
    walkLazily(doc)
    // Key paths are checked against the materialised tree.
    if let root = try? doc.value() {
        checkKeyPaths(doc, root: root)
    }
    return 0
}
