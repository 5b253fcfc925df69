// fuzz/Sources/FuzzSplit/FuzzSplit.swift - libFuzzer entry point: appended data and back-to-back
// property lists (`allowsTrailingData`, `BinaryPlistDocument.documents(in:)`).

import Foundation
import FuzzCommon
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let payload = input.payload
    let limits = input.config.limits
    let strictOptions = PlistReadOptions(
        allowsUTF8InASCIIStrings: input.config.options.allowsUTF8InASCIIStrings, allowsCompression: false)
    var lenientOptions = strictOptions
    lenientOptions.allowsTrailingData = true

    let strict = open(payload, limits: limits, options: strictOptions)
    let lenient = open(payload, limits: limits, options: lenientOptions)
    checkStrictAgainstLenient(strict, lenient, payload.count)

    // Split into pieces: contiguous, covering the input, each a strict document on its own.
    switch Result(catching: { () throws(PlistError) in
        try BinaryPlistDocument.documents(in: payload, limits: limits)
    }) {
    case .success(let pieces):
        var position = 0
        for (n, piece) in pieces.enumerated() {
            require(piece.range.lowerBound == position, "piece \(n) starts at \(piece.range), expected \(position)")
            require(!piece.range.isEmpty, "piece \(n) is empty")
            require(piece.document.data.count == piece.range.count, "piece \(n) length vs range \(piece.range)")
            position = piece.range.upperBound
            let alone = payload.subdata(in: piece.range)
            let reopened = open(alone, limits: limits, options: strictOptions)
            guard case .success(let doc) = reopened else {
                require(false, "piece \(n) \(piece.range) does not open alone: \(reopened)")
                return 0
            }
            require(doc.trailer == piece.document.trailer, "piece \(n) trailer differs when opened alone")
            if n == 0 {
                require(
                    OpenOutcome(lenient) == OpenOutcome(.success(piece.document)),
                    "first piece \(OpenOutcome(.success(piece.document))) vs lenient open \(OpenOutcome(lenient))")
            }
        }
        require(position == payload.count, "pieces cover \(position) of \(payload.count) bytes")
    case .failure(let e):
        checkError(e, inputCount: payload.count)
    }

    // Appending bytes to a valid property list never loses it: lenient reading recovers it (or a
    // shorter genuine property list inside it), and strict reading names the trailing data.
    if case .success(let doc) = strict, doc.trailingByteCount == 0 {
        let junkLength = input.config.choice * 7 + 1
        var appended = payload
        appended.append(contentsOf: payload.prefix(junkLength))
        let recovered = open(appended, limits: limits, options: lenientOptions)
        let again = open(appended, limits: limits, options: strictOptions)
        checkStrictAgainstLenient(again, recovered, appended.count)
        guard case .success(let r) = recovered else {
            require(false, "appending \(junkLength) bytes to a valid property list lost it: \(recovered)")
            return 0
        }
        require(
            r.data.count <= payload.count || r.data.count == appended.count,
            "recovered \(r.data.count) bytes from a \(payload.count)-byte property list + \(junkLength)")
    }
    return 0
}

/// Strict and lenient opening of the same bytes must tell the same story.
func checkStrictAgainstLenient(
    _ strict: Result<BinaryPlistDocument, PlistError>,
    _ lenient: Result<BinaryPlistDocument, PlistError>, _ count: Int
) {
    switch (strict, lenient) {
    case (.success(let s), .success(let l)):
        require(s.data.count == count && l.data.count == count && l.trailingByteCount == 0, "strict and lenient")
    case (.failure(let e), .success(let l)):
        require(e.code == .trailingData, "lenient opened but strict threw \(e)")
        require(l.trailingByteCount > 0, "strict threw trailingData but lenient found no trailing bytes")
        require(e.offset == l.data.count, "trailingData at \(e.offset ?? -1), lenient length \(l.data.count)")
    case (.success, .failure(let e)):
        require(false, "strict opened but lenient threw \(e)")
    case (.failure(let s), .failure(let l)):
        require(s.code != .trailingData, "strict threw trailingData but lenient failed: \(l)")
    }
}
