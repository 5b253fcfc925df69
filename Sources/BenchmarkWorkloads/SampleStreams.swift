// Sources/BenchmarkWorkloads/SampleStreams.swift - Streams of known shapes through the small writer:
// Messages bodies of any runs and attributes, and the benchmark workloads (many message bodies; one
// large object graph full of references), for tests, fuzz seeds, benchmarks and `bplist generate`.

public import TypedStream

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Streams of known shapes.
public enum TypedStreamSamples {
    /// An attribute value as Messages archives it.
    public enum BodyValue: Hashable, Sendable {
        /// NSNumber of type `i`.
        case int(Int64)
        /// NSNumber of type `q`.
        case longLong(Int64)
        /// NSNumber of type `c` (a BOOL).
        case flag(Bool)
        /// NSString.
        case string(String)
        /// NSURL (not relative).
        case url(String)
        /// NSData.
        case data([UInt8])
    }

    private typealias Chain = [(number: Int, name: String, version: Int)]
    private static let object = (number: 0, name: "NSObject", version: 0)
    private static let string: Chain = [(1, "NSString", 1), object]

    /// The bytes of an `attributedBody` in Messages' layout: an NSAttributedString (or
    /// NSMutableAttributedString) of `text` and `runs` (UTF-16 length, attributes in order); each
    /// distinct dictionary is archived the first time a run uses it.
    public static func attributedBody(
        _ text: String, runs: [(Int, [(String, BodyValue)])], mutable: Bool = false,
        byteOrder: TypedStreamByteOrder = .littleEndian
    ) -> Data {
        var w = TypedStreamWriter(byteOrder: byteOrder)
        attributedBody(&w, text, runs: runs, mutable: mutable)
        return w.data
    }

    private static func stringObject(_ w: inout TypedStreamWriter, _ s: String, chain: Chain = string) {
        w.beginObject(chain)
        w.beginGroup("+")
        w.unsharedString(Array(s.utf8))
        w.endObject()
    }

    private static func value(_ w: inout TypedStreamWriter, _ v: BodyValue) {
        w.beginGroup("@")
        switch v {
        case .int(let i), .longLong(let i):
            w.beginObject([(5, "NSNumber", 0), (6, "NSValue", 0), object])
            let type: String
            if case .int = v { type = "i" } else { type = "q" }
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
            stringObject(&w, s)
        case .url(let s):
            w.beginObject([(7, "NSURL", 0), object])
            w.beginGroup("c")
            w.byte(0)
            w.beginGroup("@")
            stringObject(&w, s)
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

    private static func attributedBody(
        _ w: inout TypedStreamWriter, _ text: String, runs: [(Int, [(String, BodyValue)])], mutable: Bool
    ) {
        let root: Chain =
            mutable
            ? [(2, "NSMutableAttributedString", 0), (3, "NSAttributedString", 0), object]
            : [(3, "NSAttributedString", 0), object]
        let textChain: Chain = mutable ? [(4, "NSMutableString", 1)] + string : string
        w.beginGroup("@")
        w.beginObject(root)
        w.beginGroup("@")
        stringObject(&w, text, chain: textChain)
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
                stringObject(&w, k)
                value(&w, v)
            }
            w.endObject()
        }
        w.endObject()
    }

    private static let words = [
        "see", "you", "at", "the", "station", "tonight", "thanks", "for", "dinner", "ok", "sounds", "good", "café",
        "later", "running", "late", "🙂", "where", "are", "we", "meeting", "tomorrow", "call", "me", "when", "free",
    ]

    /// `count` message bodies of the shapes Messages writes, from `seed`: one-part texts (60 %), texts
    /// with a link and a mention (20 %), an attachment and a caption (15 %), long texts of 200 to 2,000
    /// bytes with bold and effects (5 %).
    public static func messageBodies(count: Int, seed: UInt64 = 20_240_601) -> [Data] {
        var rng = SplitMix64(seed: seed)
        var out: [Data] = []
        out.reserveCapacity(count)
        let part = "__kIMMessagePartAttributeName"
        func sentence(_ n: Int) -> String {
            (0..<n).map { _ in words[rng.int(below: words.count)] }.joined(separator: " ")
        }
        for i in 0..<count {
            let kind = rng.int(below: 20)
            let mutable = rng.int(below: 3) == 0
            if kind < 12 {
                let text = sentence(2 + rng.int(below: 12))
                out.append(attributedBody(text, runs: [(text.utf16.count, [(part, .int(0))])], mutable: mutable))
            } else if kind < 16 {
                let head = sentence(1 + rng.int(below: 5)) + " "
                let name = ["Sam", "Ada", "Lin"][rng.int(below: 3)]
                let link = "https://example.com/\(i)"
                let text = head + name + " " + link
                out.append(
                    attributedBody(
                        text,
                        runs: [
                            (head.utf16.count, [(part, .int(0))]),
                            (
                                name.utf16.count,
                                [(part, .int(0)), ("__kIMMentionConfirmedMention", .string("+1555010\(i % 10)"))]
                            ),
                            (1, [(part, .int(0))]),
                            (link.utf16.count, [(part, .int(0)), ("__kIMLinkAttributeName", .url(link))]),
                        ], mutable: mutable))
            } else if kind < 19 {
                let caption = sentence(1 + rng.int(below: 6))
                let text = "\u{FFFC}" + caption
                out.append(
                    attributedBody(
                        text,
                        runs: [
                            (
                                1,
                                [
                                    ("__kIMFileTransferGUIDAttributeName", .string("AT_0_\(i)-GUID")),
                                    ("__kIMBaseWritingDirectionAttributeName", .longLong(-1)), (part, .int(0)),
                                ]
                            ),
                            (caption.utf16.count, [(part, .int(1))]),
                        ], mutable: true))
            } else {
                var runs: [(Int, [(String, BodyValue)])] = []
                var text = ""
                for r in 0..<(4 + rng.int(below: 12)) {
                    let piece = sentence(5 + rng.int(below: 25)) + " "
                    text += piece
                    let style = r % 3 == 0 ? [("__kIMTextBoldAttributeName", BodyValue.int(1))] : []
                    let effect = r % 5 == 4 ? [("__kIMTextEffectAttributeName", BodyValue.int(5))] : []
                    runs.append((piece.utf16.count, [(part, .int(0))] + style + effect))
                }
                out.append(attributedBody(text, runs: runs, mutable: mutable))
            }
        }
        return out
    }

    /// One large stream full of references: an NSArray of `count` NSDictionary objects whose keys are
    /// shared NSStrings (one object each, referenced after the first use), and whose values are a
    /// number, a name from a small shared set, a date, 16 bytes, and every tenth an owner object (an
    /// unknown class, shared by the ten records that follow).
    public static func objectGraph(count: Int, seed: UInt64 = 20_240_601) -> Data {
        var rng = SplitMix64(seed: seed)
        var w = TypedStreamWriter()
        let array: Chain = [(10, "NSMutableArray", 0), (11, "NSArray", 0), object]
        let dictionary: Chain = [(12, "NSMutableDictionary", 0), (9, "NSDictionary", 0), object]
        let number: Chain = [(5, "NSNumber", 0), (6, "NSValue", 0), object]
        let owner: Chain = [(13, "XWZOwner", 2), object]
        var keyObjects: [String: Int] = [:]
        var nameObjects: [Int: Int] = [:]
        var ownerObject = -1
        w.beginGroup("@")
        w.beginObject(array)
        w.beginGroup("i")
        w.integer(Int64(count))
        for i in 0..<count {
            w.beginGroup("@")
            w.beginObject(dictionary)
            w.beginGroup("i")
            w.integer(5)
            func key(_ k: String) {
                w.beginGroup("@")
                if let n = keyObjects[k] {
                    w.objectReference(n)
                } else {
                    keyObjects[k] = w.nextObjectNumber
                    stringObject(&w, k)
                }
            }
            key("id")
            w.beginGroup("@")
            w.beginObject(number)
            w.beginGroup("*")
            w.cString("q")
            w.beginGroup("q")
            w.integer(Int64(i) * 7919)
            w.endObject()
            key("name")
            let name = rng.int(below: 400)
            w.beginGroup("@")
            if let n = nameObjects[name] {
                w.objectReference(n)
            } else {
                nameObjects[name] = w.nextObjectNumber
                stringObject(&w, "name \(name) ñ")
            }
            key("created")
            w.beginGroup("@")
            w.beginObject([(14, "NSDate", 0), object])
            w.beginGroup("d")
            w.double(Double(rng.int(below: 700_000_000)) + 0.5)
            w.endObject()
            key("blob")
            w.beginGroup("@")
            w.beginObject([(8, "NSData", 0), object])
            w.beginGroup("i")
            w.integer(16)
            w.beginGroup("[16c]")
            w.raw((0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            w.endObject()
            key("owner")
            w.beginGroup("@")
            if i % 10 == 0 || ownerObject < 0 {
                ownerObject = w.nextObjectNumber
                w.beginObject(owner)
                w.beginGroup("i@")
                w.integer(Int64(i / 10))
                stringObject(&w, "owner \(i / 10)")
                w.endObject()
            } else {
                w.objectReference(ownerObject)
            }
            w.endObject()
        }
        w.endObject()
        return w.data
    }
}
