// Tests/TypedStreamTests/Support/BodyWriter.swift - Messages bodies of any shape, through the small
// writer: an NSAttributedString in Messages' layout (the string, then per run `iI` and the
// dictionary the first time it is used).

import Foundation
@_spi(Internals) import TypedStream

/// An attribute value as Messages archives it.
enum BodyValue: Hashable {
    case int(Int64)  // NSNumber "i"
    case longLong(Int64)  // NSNumber "q"
    case flag(Bool)  // NSNumber "c"
    case string(String)  // NSString
    case url(String)  // NSURL, not relative
    case data([UInt8])  // NSData
}

/// The bytes of an `attributedBody`: `text`, `runs` of (UTF-16 length, attributes in order).
func attributedBody(
    _ text: String, runs: [(Int, [(String, BodyValue)])], mutable: Bool = false,
    byteOrder: TypedStreamByteOrder = .littleEndian
) -> Data {
    // Class numbers of the writer (its own): each chain is written once, then referenced.
    let object = (number: 0, name: "NSObject", version: 0)
    let string = [(number: 1, name: "NSString", version: 1), object]
    let root =
        mutable
        ? [(number: 2, name: "NSMutableAttributedString", version: 0), (3, "NSAttributedString", 0), object]
        : [(number: 3, name: "NSAttributedString", version: 0), object]
    let textChain = mutable ? [(number: 4, name: "NSMutableString", version: 1)] + string : string
    var w = TypedStreamWriter(byteOrder: byteOrder)
    func stringObject(_ s: String, chain: [(number: Int, name: String, version: Int)] = string) {
        w.beginObject(chain)
        w.beginGroup("+")
        w.unsharedString(Array(s.utf8))
        w.endObject()
    }
    func value(_ v: BodyValue) {
        w.beginGroup("@")
        switch v {
        case .int(let i), .longLong(let i):
            w.beginObject([(5, "NSNumber", 0), (6, "NSValue", 0), object])
            let type = { if case .int = v { return "i" } else { return "q" } }()
            w.beginGroup("*")
            w.cString(type)
            w.beginGroup(type)
            w.integer(i)
            w.endObject()
        case .flag(let b):
            w.beginObject([(5, "NSNumber", 0), (6, "NSValue", 0), object])
            w.beginGroup("*")
            w.cString("c")
            w.beginGroup("c")
            w.byte(b ? 1 : 0)
            w.endObject()
        case .string(let s):
            stringObject(s)
        case .url(let s):
            w.beginObject([(7, "NSURL", 0), object])
            w.beginGroup("c")
            w.byte(0)
            w.beginGroup("@")
            stringObject(s)
            w.endObject()
        case .data(let d):
            w.beginObject([(8, "NSData", 0), object])
            w.beginGroup("i")
            w.integer(Int64(d.count))
            w.beginGroup("[\(d.count)c]")
            w.raw(d)
            w.endObject()
        }
    }
    w.beginGroup("@")
    w.beginObject(root)
    w.beginGroup("@")
    stringObject(text, chain: textChain)
    var dictionaries: [[String]] = []
    for (length, attributes) in runs {
        let key = attributes.map { "\($0.0)=\($0.1)" }
        let existing = dictionaries.firstIndex(of: key)
        w.beginGroup("iI")
        w.integer(Int64((existing ?? dictionaries.count) + 1))
        w.integer(Int64(length))
        guard existing == nil else { continue }
        dictionaries.append(key)
        w.beginGroup("@")
        w.beginObject([(9, "NSDictionary", 0), object])
        w.beginGroup("i")
        w.integer(Int64(attributes.count))
        for (k, v) in attributes {
            w.beginGroup("@")
            stringObject(k)
            value(v)
        }
        w.endObject()
    }
    w.endObject()
    return w.data
}
