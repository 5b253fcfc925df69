// fuzz/Sources/FuzzCommon/Oracle.swift - Invariants every target asserts, and cheap shape measures.
//
// A broken invariant is a finding: `require` stops the process with a message, libFuzzer sees the
// trap as a deadly signal and writes the input as a reproducer.

import Foundation
@_spi(Internals) import PropertyList

/// Stops the fuzz process when an invariant does not hold.
@inline(__always)
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz oracle failed: \(message())", file: file, line: line)
    }
}

/// What opening an input gave: enough to compare two paths that must agree.
public enum OpenOutcome: Equatable, CustomStringConvertible {
    case opened(objectCount: Int, length: Int, trailing: Int)
    case failed(PlistError.Code, offset: Int?)

    public init(_ result: Result<BinaryPlistDocument, PlistError>) {
        switch result {
        case .success(let d):
            self = .opened(objectCount: d.objectCount, length: d.data.count, trailing: d.trailingByteCount)
        case .failure(let e):
            self = .failed(e.code, offset: e.offset)
        }
    }

    public var description: String {
        switch self {
        case .opened(let n, let length, let trailing): "opened(\(n) objects, \(length) bytes, \(trailing) trailing)"
        case .failed(let code, let offset): "failed(\(code) at \(offset.map(String.init) ?? "nil"))"
        }
    }
}

/// Opens `data`, checking the error contract on failure and the trailer equations on success.
public func open(
    _ data: Data, limits: PlistLimits, options: PlistReadOptions
) -> Result<BinaryPlistDocument, PlistError> {
    let result = Result { () throws(PlistError) in
        try BinaryPlistDocument(data, limits: limits, options: options)
    }
    switch result {
    case .success(let doc):
        checkInvariants(doc, inputCount: data.count)
    case .failure(let e):
        // An inflated input may be larger than the input; offsets then refer to the inflated bytes.
        checkError(e, inputCount: max(data.count, limits.maxDecompressedBytes))
    }
    return result
}

/// A document's own numbers must be consistent with each other and with the input.
public func checkInvariants(_ doc: BinaryPlistDocument, inputCount: Int) {
    let t = doc.trailer
    require(doc.objectCount == t.objectCount && doc.objectCount >= 1, "object count \(doc.objectCount) vs trailer")
    require(doc.objectCount <= doc.limits.maxObjects, "object count \(doc.objectCount) over maxObjects")
    require(t.topObject >= 0 && t.topObject < t.objectCount, "top object \(t.topObject) of \(t.objectCount)")
    require((1...8).contains(t.offsetIntSize) && (1...8).contains(t.objectRefSize), "widths out of 1...8")
    require(
        t.offsetTableOffset + t.objectCount * t.offsetIntSize + BinaryPlistTrailer.size == doc.data.count,
        "size equation: table \(t.offsetTableOffset) + \(t.objectCount)×\(t.offsetIntSize) + 32 != \(doc.data.count)")
    if doc.compression == .none {
        require(
            doc.data.count + doc.trailingByteCount == inputCount,
            "\(doc.data.count) + \(doc.trailingByteCount) trailing != input \(inputCount)")
    }
    require(doc.options.allowsTrailingData || doc.trailingByteCount == 0, "trailing bytes in strict mode")
    require(doc.data.starts(with: Array("bplist0".utf8)), "document does not start with bplist0")
}

/// Errors must point inside the input they describe.
public func checkError(_ e: PlistError, inputCount: Int) {
    if let offset = e.offset {
        require(offset >= 0 && offset <= inputCount, "error offset \(offset) outside 0...\(inputCount): \(e)")
    }
    require(!e.detail.isEmpty, "error without detail: \(e.code)")
}

/// Lowercase hex of some bytes, for messages.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in bytes {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
}
