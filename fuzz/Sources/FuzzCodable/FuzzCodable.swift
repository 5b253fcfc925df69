// fuzz/Sources/FuzzCodable/FuzzCodable.swift - libFuzzer entry point: PlistDecoder and PlistEncoder.
//
// Decodes the payload (binary, XML, OpenStep or JSON, sniffed) into a fixed recursive model that
// holds every kind the coders handle, with the input's limits and options.
// Oracles:
// - errors are `DecodingError`s, and their underlying error (when there is one) a `PlistError`;
// - XML decoded straight from its bytes and through its `PlistValue` tree agree (both fail, or both
//   give the same model);
// - decoding a binary payload from `Data` and from the opened `BinaryPlistDocument` agree;
// - what decodes re-encodes (binary; XML when the choice bits say so), and decodes back equal
//   (reals compared by bit pattern; XML dates to whole seconds), and the tree from `encodeValue`
//   decodes equal too;
// - the model's first child decoded at the key path "children.0" equals `children[0]` (when the
//   root's keys are distinct and the key-path walk succeeds).

import Foundation
import FuzzCommon
import PropertyList

/// A recursive model with every kind the coders read and write; optional fields, so that arbitrary
/// input decodes often.
struct FuzzModel: Codable {
    var name: String
    var count: Int?
    var small: UInt8?
    var ratio: Double?
    var single: Float?
    var flag: Bool?
    var when: Date?
    var blob: Data?
    var uid: PlistUID?
    var big: Int128?
    var tags: [String]?
    var numbers: [Int]?
    var scores: [String: Int]?
    var byNumber: [Int: String]?
    var maybe: [String?]?
    var shape: FuzzShape?
    var children: [FuzzModel]?
}

/// Equality with reals compared by bit pattern (NaN equals the same NaN); for XML (`wholeSeconds`),
/// dates to whole seconds and any NaN equal to any NaN (XML writes every NaN as `nan`).
func same(_ a: FuzzModel, _ b: FuzzModel, wholeSeconds: Bool, depth: Int = 0) -> Bool {
    func date(_ d: Date?) -> Double? {
        guard let t = d?.timeIntervalSinceReferenceDate else { return nil }
        return wholeSeconds && t.isFinite ? t.rounded(.down) : t
    }
    func bits(_ d: Double?) -> UInt64? { wholeSeconds && d?.isNaN == true ? Double.nan.bitPattern : d?.bitPattern }
    func bits(_ f: Float?) -> UInt32? { wholeSeconds && f?.isNaN == true ? Float.nan.bitPattern : f?.bitPattern }
    guard depth < 600 else { return false }
    guard a.name == b.name, a.count == b.count, a.small == b.small, bits(a.ratio) == bits(b.ratio),
        bits(a.single) == bits(b.single), a.flag == b.flag,
        bits(date(a.when)) == bits(date(b.when)), a.blob == b.blob, a.uid == b.uid, a.big == b.big,
        a.tags == b.tags, a.numbers == b.numbers, a.scores == b.scores, a.byNumber == b.byNumber,
        a.maybe == b.maybe, sameShape(a.shape, b.shape, looseNaN: wholeSeconds)
    else { return false }
    switch (a.children, b.children) {
    case (nil, nil): return true
    case (let x?, let y?):
        return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, wholeSeconds: wholeSeconds, depth: depth + 1) }
    default: return false
    }
}

func sameShape(_ a: FuzzShape?, _ b: FuzzShape?, looseNaN: Bool) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (.circle(let x)?, .circle(let y)?): return x.bitPattern == y.bitPattern || (looseNaN && x.isNaN && y.isNaN)
    case (.nested(let x)?, .nested(let y)?): return sameShape(x, y, looseNaN: looseNaN)
    case (let x?, let y?): return x == y
    default: return false
    }
}

/// Runs a decode; errors must be DecodingErrors whose underlying error, if any, is a PlistError.
func decoded<T>(_ what: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let e as DecodingError {
        let context: DecodingError.Context
        switch e {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default: return nil
        }
        if let underlying = context.underlyingError {
            require(underlying is PlistError, "\(what): underlying error \(type(of: underlying)): \(underlying)")
        }
        return nil
    } catch {
        require(false, "\(what) threw a non-DecodingError: \(type(of: error)) \(error)")
        return nil
    }
}

/// Whether the root is a dictionary whose keys are all readable strings, none of them twice.
func rootKeysAreDistinct(_ document: BinaryPlistDocument) -> Bool {
    guard case .dictionary(let keys, _)? = try? document.object(document.root) else { return false }
    var seen = Set<String>()
    for k in keys {
        guard let text = (try? document.string(k)) ?? nil, seen.insert(text).inserted else { return false }
    }
    return true
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let payload = input.payload
    var decoder = PlistDecoder()
    decoder.limits = input.config.limits
    decoder.options = input.config.options
    // The value budget for a fuzz run: a few hundred thousand values at most.
    decoder.limits.maxValues = min(decoder.limits.maxValues, 1 << 18)

    var format = PlistFormat.binary
    let direct = decoded("decode") { try decoder.decode(FuzzModel.self, from: payload, format: &format) }

    // XML is decoded straight from its bytes (the reader's tape, no tree); read into a tree first, it
    // must decode to the same model, or fail too.
    if direct == nil || format == .xml,
        let read = try? PlistValue.decode(from: payload, limits: decoder.limits, options: decoder.options),
        read.format == .xml
    {
        let viaTree = decoded("decode(from: tree)") { try decoder.decode(FuzzModel.self, from: read.value) }
        switch (direct, viaTree) {
        case (nil, nil): break
        case (let a?, let b?):
            require(same(a, b, wholeSeconds: false), "XML decoded from its bytes and its tree differ")
        default:
            require(false, "XML decoded from its bytes and its tree: one failed (\(direct == nil ? "bytes" : "tree"))")
        }
    }
    guard let model = direct else { return 0 }

    // The same bytes through an opened document, when they are binary.
    if let document = try? BinaryPlistDocument(payload, limits: decoder.limits, options: decoder.options) {
        let again = decoded("decode(from: document)") { try decoder.decode(FuzzModel.self, from: document) }
        require(again.map { same($0, model, wholeSeconds: false) } == true, "document decode differs from data decode")
        // The key path walk reads every key of the root (and fails on a malformed one the decoder
        // never needed), and a key held twice may be read at another occurrence: compare only when
        // the walk succeeds and the root's keys are distinct.
        if let first = model.children?.first, rootKeysAreDistinct(document),
            let child = try? decoder.decode(FuzzModel.self, from: document, at: "children.0")
        {
            require(same(child, first, wholeSeconds: false), "decode(at:) differs from children[0]")
        }
    }

    // Re-encode and decode back equal: binary (sorted keys or not), and the tree.
    var encoder = PlistEncoder()
    encoder.sortsKeys = input.config.choice & 1 != 0
    let roundTrip = PlistDecoder()
    do {
        let bytes = try encoder.encode(model)
        let back = try roundTrip.decode(FuzzModel.self, from: bytes)
        require(same(back, model, wholeSeconds: false), "binary round trip changed the model")
        let fromTree = try roundTrip.decode(FuzzModel.self, from: encoder.encodeValue(model))
        require(same(fromTree, model, wholeSeconds: false), "tree round trip changed the model")
    } catch {
        require(false, "re-encoding a decoded model failed: \(error)")
    }
    if input.config.choice & 2 != 0 {
        // XML holds what binary holds except NaN dates and the characters XML cannot carry: an
        // EncodingError is allowed there, anything else must read back equal (dates to whole seconds).
        var xml = encoder
        xml.outputFormat = .xml
        if let text = try? xml.encode(model) {
            // Written as the values are encoded (or, when the stream gives up, through the object
            // table): the same bytes as the table's tree written by the XML writer.
            let viaTree = try? xml.encodeValue(model).encoded(as: .xml)
            require(viaTree == text, "PlistEncoder's XML differs from its tree written as XML")
            let back = decoded("XML round trip") { try roundTrip.decode(FuzzModel.self, from: text) }
            require(back.map { same($0, model, wholeSeconds: true) } == true, "XML round trip changed the model")
        }
    }
    return 0
}
