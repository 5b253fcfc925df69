// fuzz/Sources/FuzzZlib/FuzzZlib.swift - libFuzzer entry point: the compressed-envelope path.
//
// 1. The payload as a (possibly) compressed input: inflation stays under the configuration's small
//    maxDecompressedBytes, and opening the envelope agrees with opening its inflated bytes plainly.
// 2. The payload deflated by us: inflating gives it back exactly, one byte under the cap is
//    `limitExceeded`, and the compressed and plain paths agree.

import Foundation
import FuzzCommon
@_spi(Internals) import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let payload = input.payload
    var limits = input.config.limits
    var options = input.config.options
    options.allowsCompression = true

    // 1. Untrusted compressed input.
    let cap = limits.maxDecompressedBytes
    let inflated = Result { () throws(PlistError) in try Zlib.inflate(payload, limit: cap) }
    switch inflated {
    case .success(let plain):
        require(plain.count <= cap, "inflate produced \(plain.count) bytes over the cap \(cap)")
    case .failure(let e):
        require([.compression, .limitExceeded, .trailingData].contains(e.code), "inflate threw \(e)")
        checkError(e, inputCount: payload.count)
    }
    if PlistCompression.detect(payload) != nil {
        let viaEnvelope = OpenOutcome(open(payload, limits: limits, options: options))
        let expected: OpenOutcome
        switch inflated {
        case .success(let plain):
            var plainOptions = options
            plainOptions.allowsCompression = false
            expected = OpenOutcome(open(plain, limits: limits, options: plainOptions))
        case .failure(let e):
            expected = .failed(e.code, offset: e.offset)
        }
        require(viaEnvelope == expected, "envelope path \(viaEnvelope) vs inflated path \(expected)")
    }

    // 2. Our own envelope around the payload.
    let level = [1, 9, 0, -1][input.config.choice]
    let packed: Data
    do {
        packed = try Zlib.deflate(payload, level: level)
    } catch {
        fatalError("fuzz oracle failed: deflate(level \(level)) threw \(error)")
    }
    require(PlistCompression.detect(packed) == .zlib, "deflate output is not detected as zlib")
    let back = Result { () throws(PlistError) in try Zlib.inflate(packed, limit: payload.count) }
    require((try? back.get()) == payload, "inflate(deflate(x), limit: x.count) is not x: \(back)")
    if !payload.isEmpty {
        expectCode(.limitExceeded, "inflate under the exact size") { () throws(PlistError) in
            _ = try Zlib.inflate(packed, limit: payload.count - 1)
        }
    }
    // Bytes after the stream are named, not ignored.
    expectCode(.trailingData, "inflate with a byte after the stream") { () throws(PlistError) in
        _ = try Zlib.inflate(packed + [0], limit: payload.count)
    }
    limits.maxDecompressedBytes = payload.count
    var plainOptions = options
    plainOptions.allowsCompression = false
    let compressed = OpenOutcome(open(packed, limits: limits, options: options))
    let plain = OpenOutcome(open(payload, limits: limits, options: plainOptions))
    require(compressed == plain, "compressed path \(compressed) vs plain path \(plain)")
    return 0
}
