// fuzz/Sources/FuzzDifferential/FuzzDifferential.swift - libFuzzer entry point: our readers against
// Foundation's, in process, on the same bytes.
//
// Choice bits (byte 1, bits 6-7, see FuzzCommon/FuzzInput.swift):
//   0, 2  sniffed: `PlistValue.decode(from:)` against `PropertyListSerialization.propertyList(from:)`
//         (binary, XML, OpenStep); when ours sniffs JSON, against `JSONSerialization` instead
//   1     JSON: `PlistValue.decode(from:as: .json)` against `JSONSerialization.jsonObject(with:)`
//   3     forced form: the form Foundation reports (or binary) is handed to ours with `as:`
// The limits and options of the configuration bytes are not used: both readers get the defaults
// (ours without zlib/gzip envelopes, which Foundation does not read), so a limit never passes for
// a disagreement.
//
// Oracle: `classify` sorts every input into a `Verdict`: both read equal values, both refuse, or a
// disagreement of a named class (a decision of ours, a known Foundation defect); an unnamed
// disagreement stops the process with its hex, and libFuzzer keeps the input. Equality: integers
// exactly, reals by bit pattern (NaN equals NaN, 4-byte reals widened), dates to a microsecond,
// strings by Unicode scalars, data by bytes, sets as sets, dictionaries as maps. See fuzz/README.md
// ("FuzzDifferential") for the classes and why each is tolerated.
//
// Environment: FUZZ_DIFF_DISCOVER=1 prints unnamed disagreements instead of stopping;
// FUZZ_DIFF_STATS=1 prints the count of every verdict at exit.

import Foundation
import FoundationXML
import FuzzCommon
import PropertyList

// MARK: - Foundation's tree, as plain values

/// What Foundation returned, converted once into a plain tree that says which type each node had.
indirect enum FValue: CustomStringConvertible {
    case null
    /// A `nil` inside the tree: CoreFoundation's bridge turns the string "$null" into `nil`.
    case missing
    case bool(Bool)
    case integer(PlistInteger)
    case real(Double)
    case date(Double)
    case data(Data)
    case string(String)
    case uid(UInt64)
    case array([FValue])
    case set([FValue])
    case dictionary([(key: FValue, value: FValue)])
    /// A type the converter does not know: its name.
    case unknown(String)

    /// The whole tree, shortened: for messages.
    var deep: String {
        let text: String
        switch self {
        case .array(let a): text = "[" + a.map(\.deep).joined(separator: ", ") + "]"
        case .set(let a): text = "set[" + a.map(\.deep).joined(separator: ", ") + "]"
        case .dictionary(let d): text = "{" + d.map { "\($0.key.deep): \($0.value.deep)" }.joined(separator: ", ") + "}"
        default: text = description
        }
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    var description: String {
        switch self {
        case .null: "null"
        case .missing: "nil"
        case .bool(let b): "bool(\(b))"
        case .integer(let i): "integer(\(i))"
        case .real(let d): "real(\(d), 0x\(String(d.bitPattern, radix: 16)))"
        case .date(let d): "date(\(d))"
        case .data(let d): "data(\(d.count) bytes)"
        case .string(let s): "string(\(s.debugDescription))"
        case .uid(let u): "uid(\(u))"
        case .array(let a): "array(\(a.count))"
        case .set(let a): "set(\(a.count))"
        case .dictionary(let d): "dictionary(\(d.count))"
        case .unknown(let t): "unknown(\(t))"
        }
    }
}

/// The kind of a Foundation number, from its Objective-C type encoding: CoreFoundation's booleans
/// are `c` (`__NSCFBoolean`), integers `q`/`Q` (and narrower), reals `d`/`f`.
func convertNumber(_ n: NSNumber) -> FValue {
    let typeName = String(describing: type(of: n))
    let code = String(cString: n.objCType)
    if typeName.contains("Boolean") || typeName.contains("Bool") || code == "B" {
        return .bool(n.boolValue)
    }
    switch code {
    case "d", "f": return .real(n.doubleValue)
    case "Q", "L", "I", "S", "C": return .integer(PlistInteger(n.uint64Value))
    case "c":
        // JSONSerialization's booleans are NSNumber(value: Bool), encoded `c` on Linux.
        return .bool(n.boolValue)
    default: return .integer(PlistInteger(n.int64Value))
    }
}

/// Converts Foundation's `Any` tree (bridged Swift values or NS objects) into an `FValue`.
func convert(_ any: Any, depth: Int = 0) -> FValue {
    guard depth < 10_000 else { return .unknown("too deep") }
    switch any {
    case is NSNull: return .null
    case let s as String: return .string(s)
    case let d as Data: return .data(d)
    case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let i as Int where type(of: any) == Int.self: return .integer(PlistInteger(i))
    case let u as UInt64 where type(of: any) == UInt64.self: return .integer(PlistInteger(u))
    case let d as Double where type(of: any) == Double.self: return .real(d)
    case let n as NSNumber: return convertNumber(n)
    case let a as [Any]: return .array(a.map { convert($0, depth: depth + 1) })
    case let s as NSSet: return .set(s.allObjects.map { convert($0, depth: depth + 1) })
    case let d as NSDictionary:
        var entries: [(key: FValue, value: FValue)] = []
        for (k, v) in d { entries.append((convert(k, depth: depth + 1), convert(v, depth: depth + 1))) }
        return .dictionary(entries)
    default:
        // A `nil` (an `Optional` in the `Any`), or what it wraps.
        let mirror = Mirror(reflecting: any)
        if mirror.displayStyle == .optional {
            guard let inner = mirror.children.first?.value else { return .missing }
            return convert(inner, depth: depth + 1)
        }
        // Foundation's `_NSKeyedArchiverUID` (internal): its stored `value`, through reflection.
        let typeName = String(describing: type(of: any))
        if typeName.contains("KeyedArchiverUID") {
            for child in Mirror(reflecting: any).children where child.label == "value" {
                if let u = child.value as? UInt32 { return .uid(UInt64(u)) }
                if let u = child.value as? UInt64 { return .uid(u) }
                if let u = child.value as? Int { return .uid(UInt64(truncatingIfNeeded: u)) }
            }
        }
        return .unknown("\(typeName): \(String(describing: any).prefix(80))")
    }
}

// MARK: - Comparison

/// One way the two trees differ, at a path: a named class, or `nil` when no class explains it.
struct Difference: CustomStringConvertible {
    var known: Known?
    var path: String
    var detail: String
    var description: String {
        "\(known?.rawValue ?? "unexplained") at \(path.isEmpty ? "root" : path): \(detail)"
    }
}

let typedJSONTags: Set<String> = ["$real", "$date", "$data", "$uid", "$set", "$dict"]

/// Compares ours with Foundation's tree; appends at most a few differences.
func compare(_ ours: PlistValue, _ theirs: FValue, path: String, json: Bool, into out: inout [Difference]) {
    guard out.count < 8 else { return }
    func differ(_ known: Known? = nil) {
        out.append(Difference(known: known, path: path, detail: "ours \(describe(ours)), Foundation \(theirs)"))
    }
    if json, case .dictionary(let entries) = theirs, entries.count == 1,
        case .string(let key) = entries[0].key, typedJSONTags.contains(key)
    {
        if case .dictionary(let d) = ours, d.count == 1, d.entries[0].key == .string(PlistString(key)) {
            compare(d.entries[0].value, entries[0].value, path: path + "." + key, json: json, into: &out)
        } else {
            differ(.typedJSONTag)
        }
        return
    }
    switch (ours, theirs) {
    case (.null, .null): return
    case (.string(let s), .missing) where s.string == "$null": differ(.foundationNullString)
    case (.bool(let a), .bool(let b)) where a == b: return
    case (.integer(let a), .integer(let b)) where a == b: return
    case (.integer(let a), .integer(let b)) where !json && a.high != 0 && a.low == b.uint64:
        // A 16-byte integer: CoreFoundation keeps its low 64 bits, unsigned.
        differ(.int128Read)
    case (.integer(let a), .real(let b)) where json && abs(Double(a.int128) - b) <= abs(b) * 0x1p-50:
        differ(.jsonIntegerAsReal)
    case (.real(let a), .real(let b)) where a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN): return
    case (.real(let a), .real(let b)) where json && a.sign == b.sign && a.isFinite && abs(a - b) <= 16 * a.ulp:
        // A few units in the last place: JSONSerialization's decimal conversion is not correctly rounded.
        differ(.foundationJSONRealRounding)
    case (.date(let a), .date(let b)):
        let x = a.timeIntervalSinceReferenceDate
        if x.bitPattern == b.bitPattern || (x.isNaN && b.isNaN) || abs(x - b) <= 1e-6 { return }
        differ()
    case (.data(let a), .data(let b)) where a == b: return
    case (.string(let a), .string(let b)) where a.string.unicodeScalars.elementsEqual(b.unicodeScalars): return
    case (.string(let a), .string(let b))
    where json
        && a.string.unicodeScalars.filter({ $0 != "\u{FEFF}" })
            .elementsEqual(b.unicodeScalars.filter({ $0 != "\u{FEFF}" })):
        // JSONSerialization drops U+FEFF inside a string (some of them); it is a character there
        // (RFC 8259).
        differ(.foundationJSONDropsByteOrderMark)
    case (.uid(let a), .uid(let b)) where a == b: return
    case (.array(let a), .array(let b)):
        guard a.count == b.count else { return differ() }
        for (i, (x, y)) in zip(a, b).enumerated() {
            compare(x, y, path: path + ".\(i)", json: json, into: &out)
        }
    case (.set(let a), .set(let b)):
        // Every member of each side matches a member of the other.
        for (i, x) in a.enumerated() where !b.contains(where: { same(x, $0, json) }) {
            out.append(
                Difference(known: nil, path: path + ".\(i)", detail: "set member \(describe(x)) not in Foundation's"))
            return
        }
        for y in b where !a.contains(where: { same($0, y, json) }) {
            out.append(Difference(known: nil, path: path, detail: "Foundation's set member \(y) not in ours"))
            return
        }
        if a.count > b.count { differ(.setMembersKept) } else if a.count < b.count { differ() }
    case (.dictionary(let a), .dictionary(let b)):
        // Ours keeps every entry in order; Foundation keeps one per key (the first in a binary
        // property list, the last in XML and JSON): its value must be one of ours for that key.
        // JSON keys are matched without U+FEFF, which JSONSerialization drops from strings
        // (`foundationJSONDropsByteOrderMark`).
        func print(_ k: PlistValue) -> String {
            json ? fingerprint(k).replacingOccurrences(of: "\u{FEFF}", with: "") : fingerprint(k)
        }
        func print(_ k: FValue) -> String {
            json ? fingerprint(k).replacingOccurrences(of: "\u{FEFF}", with: "") : fingerprint(k)
        }
        var index: [String: [Int]] = [:]
        for (i, e) in a.entries.enumerated() { index[print(e.key), default: []].append(i) }
        var unmatched = 0
        for entry in b {
            guard let candidates = index[print(entry.key)], let last = candidates.last else {
                unmatched += 1
                continue
            }
            if json, fingerprint(a.entries[last].key) != fingerprint(entry.key) {
                out.append(Difference(known: .foundationJSONDropsByteOrderMark, path: path, detail: "U+FEFF in a key"))
            }
            if case .missing = entry.key {
                out.append(Difference(known: .foundationNullString, path: path, detail: "key \"$null\" is nil"))
            }
            if case .integer(let i) = a.entries[last].key, i.high != 0 {
                out.append(Difference(known: .int128Read, path: path, detail: "16-byte integer key \(i)"))
            }
            var i = last
            if candidates.count > 1 { i = candidates.first { same(a.entries[$0].value, entry.value, json) } ?? last }
            let keyPath = path + "." + keyText(a.entries[i].key)
            if repeatedKeyPrints.contains(fingerprint(entry.key)) {
                var inner: [Difference] = []
                compare(a.entries[i].value, entry.value, path: keyPath, json: json, into: &inner)
                if !inner.isEmpty {
                    out.append(
                        Difference(known: .repeatedKeyLastValue, path: keyPath, detail: "key repeated in the input"))
                }
            } else {
                compare(a.entries[i].value, entry.value, path: keyPath, json: json, into: &out)
            }
        }
        if unmatched > 0 {
            out.append(Difference(known: nil, path: path, detail: "\(unmatched) of Foundation's keys not in ours"))
        } else if a.count > b.count {
            var distinct = 0
            for (i, e) in a.entries.enumerated() where !a.entries[..<i].contains(where: { $0.key == e.key }) {
                distinct += 1
            }
            if distinct == b.count {
                differ(.duplicateKeysKept)
            } else if numericKeysCollide(a) {
                differ(.numericKeysKept)
            } else {
                out.append(Difference(known: nil, path: path, detail: "ours \(a.count) entries, Foundation \(b.count)"))
            }
        } else if a.count < b.count {
            differ()
        }
    default:
        differ()
    }
}

/// Equal under `compare`'s rules.
func same(_ ours: PlistValue, _ theirs: FValue, _ json: Bool) -> Bool {
    var diffs: [Difference] = []
    compare(ours, theirs, path: "", json: json, into: &diffs)
    return diffs.isEmpty
}

/// The fingerprints of the keys that some binary dictionary of the current input repeats.
nonisolated(unsafe) var repeatedKeyPrints: Set<String> = []

/// The fingerprints of the keys repeated within one dictionary of a binary property list.
func repeatedKeys(_ payload: Data) -> Set<String> {
    guard payload.starts(with: Array("bplist".utf8)) else { return [] }
    guard let doc = try? BinaryPlistDocument(payload, options: ourOptions) else { return [] }
    var repeated: Set<String> = []
    for i in 0..<doc.objectCount {
        guard case .dictionary(let keys, _)? = try? doc.object(ObjectRef(i)) else { continue }
        var seen: Set<String> = []
        for position in keys.indices {
            guard let key = try? doc.value(of: keys[position]) else { continue }
            let print = fingerprint(key)
            if !seen.insert(print).inserted { repeated.insert(print) }
        }
    }
    return repeated
}

/// A key's identity for matching ours with Foundation's (Foundation's `nil` key is "$null"; an
/// integer by its low 64 bits, as CoreFoundation keeps a 16-byte integer: `int128Read`).
func fingerprint(_ k: PlistValue) -> String {
    switch k {
    case .string(let s): "s:" + s.string
    case .integer(let i): "i:\(i.low)"
    // Any NaN: NSNumber keeps no NaN payload.
    case .real(let d): d.isNaN ? "r:nan" : "r:\(d.bitPattern)"
    case .date(let d): "d:\(d.timeIntervalSinceReferenceDate)"
    case .data(let d): "x:" + hexString(d)
    default: "o:" + describe(k)
    }
}

func fingerprint(_ k: FValue) -> String {
    switch k {
    case .string(let s): "s:" + s
    case .missing: "s:$null"
    case .integer(let i): "i:\(i.low)"
    case .real(let d): d.isNaN ? "r:nan" : "r:\(d.bitPattern)"
    case .date(let d): "d:\(d)"
    case .data(let d): "x:" + hexString(d)
    default: "o:\(k)"
    }
}

func keyText(_ key: PlistValue) -> String {
    if case .string(let s) = key { return s.string.count <= 40 ? s.string : String(s.string.prefix(40)) + "…" }
    return describe(key)
}

func describe(_ v: PlistValue) -> String {
    switch v {
    case .null: "null"
    case .bool(let b): "bool(\(b))"
    case .integer(let i): "integer(\(i))"
    case .real(let d): "real(\(d), 0x\(String(d.bitPattern, radix: 16)))"
    case .date(let d): "date(\(d.timeIntervalSinceReferenceDate))"
    case .data(let d): "data(\(d.count) bytes)"
    case .string(let s): "string(\(s.string.debugDescription))"
    case .uid(let u): "uid(\(u))"
    case .array(let a): "array(\(a.count))"
    case .set(let a): "set(\(a.count))"
    case .dictionary(let d): "dictionary(\(d.count))"
    }
}

/// Most nodes (shared sub-trees counted each time) a binary property list may expand to for
/// Foundation to be asked: it expands them, and the comparison walks them.
let expansionCap = 20_000

/// Number of nodes of `v` with shared sub-trees counted each time they are reached, up to `cap`.
func expandedCount(_ v: PlistValue, cap: Int) -> Int {
    var count = 0
    var stack = [v]
    while let x = stack.popLast() {
        count += 1
        if count >= cap { return count }
        switch x {
        case .array(let a), .set(let a): stack.append(contentsOf: a)
        case .dictionary(let d):
            for e in d.entries {
                stack.append(e.key)
                stack.append(e.value)
            }
        default: break
        }
    }
    return count
}

// MARK: - Classification

/// What one input did to the two readers. Every case but `unknown` is tolerated.
enum Verdict: Hashable, CustomStringConvertible {
    /// Both read the input, to equal values (and the same form).
    case equal
    /// Both refuse it.
    case bothRefuse
    /// Ours read a binary property list that expands past what Foundation can walk in time
    /// (shared sub-trees are expanded by Foundation, 2^depth work): Foundation is not asked.
    case skippedExpansion
    /// Classes of disagreement, each with a reason in fuzz/README.md.
    case known(Known)
    /// A disagreement no class explains: a finding.
    case unknown(String)

    var description: String {
        switch self {
        case .equal: "equal"
        case .bothRefuse: "bothRefuse"
        case .skippedExpansion: "skippedExpansion"
        case .known(let k): k.rawValue
        case .unknown(let s): "UNKNOWN: \(s)"
        }
    }
}

/// The named disagreement classes.
enum Known: String, CaseIterable {
    /// Foundation defect: CoreFoundation's Swift bridge reads the string "$null" as `nil`.
    case foundationNullString
    /// Foundation defect: its XML reader refuses `<string>$null…</string>`.
    case foundationXMLRejectsNullString
    /// Decision: an unpaired UTF-16 surrogate is `invalidString` unless `replacesLoneSurrogates`.
    case loneSurrogateRefused
    /// Decision: an XML date with fields past their range is `syntax` unless `normalizesDates`.
    case dateNotNormalized
    /// Decision: typed JSON reads a one-key object whose key is a tag as the tagged value.
    case typedJSONTag
    /// Decision: a set keeps every member as read; NSSet merges equal ones.
    case setMembersKept
    /// Decision: a dictionary keeps every entry as read; NSDictionary keeps one per key.
    case duplicateKeysKept
    /// Decision (ambiguous in the format): a key repeated in a binary dictionary keeps its last
    /// value, as plistlib and go-plist; CoreFoundation keeps the first.
    case repeatedKeyLastValue
    /// Decision: a 16-byte integer is signed 128-bit; CoreFoundation keeps its low 64 bits, unsigned.
    case int128Read
    /// Foundation defect: CoreFoundation's OpenStep reader skips a quote that opens no terminated
    /// string where a key is expected (`{a = {b = c;'}; d = e;}` reads as `{a = {b = c}; d = e}`).
    case foundationSkipsUnterminatedQuote
    /// Decision: OpenStep text the reader does not accept (DocC TextForms) is `syntax`, with
    /// its line and column; CoreFoundation recovers: it reads `key;` inside braces as `key = key`,
    /// skips stray bytes and quotes, and returns what it read before an error. The more specific
    /// classes (`foundationStringsPrefix`, `foundationSkipsUnterminatedQuote`, …) are tried first.
    case openStepStrictSyntax
    /// Foundation defect: for some malformed XML (an unknown element such as `<dicd>`, text inside
    /// `<dict>`, a misspelt `<key>`) `PropertyListSerialization` returns the boolean `false`, or a
    /// scalar from inside the document, as the whole property list instead of failing.
    case foundationXMLReadsFalse
    /// Foundation defect: JSONSerialization drops U+FEFF (ZERO WIDTH NO-BREAK SPACE) inside a string.
    case foundationJSONDropsByteOrderMark
    /// Decision: bytes after a complete binary property list (its trailer) are `trailingData`
    /// unless `allowsTrailingData`; CoreFoundation reads the input's last 32 bytes as the trailer.
    case appendedToBinary
    /// Decision: an XML `<integer>` outside the 64-bit range (below `Int64.min` or above
    /// `UInt64.max`) but inside the signed 128-bit range is read exactly; CoreFoundation refuses it.
    case xmlIntegerBeyond64Bits
    /// Decision (ours exact) or Foundation defect (`Int64.min`): JSONSerialization reads an integer
    /// outside its 64-bit range, and `-9223372036854775808`, as a `Double`.
    case jsonIntegerAsReal
    /// Decision: a binary dictionary key must be a string, number, date or data (`invalidKey`);
    /// CoreFoundation takes any object as a key.
    case dictionaryKeyKindRefused
    /// Decision: input starting `bplist` is the binary form, or an error; CoreFoundation falls back
    /// to the OpenStep parser and reads the text as an unquoted string.
    case binaryMagicIsBinary
    /// Decision: XML `<date>` with fractional seconds reads (ISO 8601); CoreFoundation refuses it.
    case xmlFractionalSeconds
    /// Decision: text (XML, OpenStep) with a NUL in its first two bytes is UTF-16 or UTF-32, detected
    /// from the zero bytes without a byte-order mark (XML 1.0 appendix F); CoreFoundation reads such
    /// bytes as UTF-8 (refusing them, or reading past the NULs).
    case textWithoutByteOrderMark
    /// Decision: UIDs up to 2^64 - 1 read (`PlistLimits.maxUID`); CoreFoundation refuses UIDs above
    /// `UInt32.max`.
    case wideUID
    /// Foundation defect: a binary dictionary with a UID key traps Foundation on Linux when the
    /// `NSDictionary` it returns is iterated (`NSDictionary.Iterator.next`): Foundation is not asked.
    case foundationCrashesOnUIDKey
    /// Foundation defect: CoreFoundation refuses an empty UTF-16 string (`0x60`), which plistlib and
    /// ours read as "".
    case foundationRejectsEmptyUTF16String
    /// Foundation defect: JSONSerialization's decimal-to-double conversion is not correctly rounded
    /// (one unit in the last place off for long mantissas, `92.3372036854775808`).
    case foundationJSONRealRounding
    /// Decision: a JSON integer outside the signed 128-bit range is a `syntax` error; JSONSerialization
    /// reads it as a `Double`.
    case jsonIntegerOutOfRange
    /// Decision: JSON is UTF-8 (RFC 8259); JSONSerialization also detects UTF-16 and UTF-32 from NULs.
    case jsonNotUTF8
    /// Decision: JSON text that starts with a UTF-8 byte-order mark is a `syntax` error (RFC 8259,
    /// section 8.1: writers must not add one, readers may ignore it); JSONSerialization skips it.
    case jsonByteOrderMark
    /// Decision: an OpenStep octal escape of a NeXTSTEP character (`\200` … `\377`) is a `syntax`
    /// error; CoreFoundation maps it through the NeXTSTEP table.
    case nextstepOctalEscape
    /// Decision: UTF-16 text (with a byte-order mark) with an odd number of bytes is a `syntax` error;
    /// CoreFoundation drops the last byte.
    case oddUTF16Length
    /// Foundation defect: CoreFoundation does not see the quotes of a `<!DOCTYPE …>`: it ends it at
    /// the first `>` (or opens an internal subset at a `[`) inside a quoted literal, and reads what
    /// follows as the document; ours skips quoted literals whole.
    case foundationDoctypeEndsEarly
    /// Decision: the sniffer looks at the first 256 characters (a whole text that is one unquoted
    /// OpenStep string is recognised when shorter); read with the form named (`as:`), ours reads it
    /// as Foundation does.
    case sniffedNotAPropertyList
    /// Decision: XML holding a C0 control character (other than tab, LF, CR), which XML 1.0 forbids, is
    /// a `syntax` error; CoreFoundation skips it between elements.
    case xmlControlCharacter
    /// Decision (lenient, could be tightened): the `<!DOCTYPE …>` declaration is skipped to its end
    /// without checking its characters, so a control character inside it goes unseen;
    /// CoreFoundation refuses it.
    case xmlDoctypeSkipped
    /// Decision: text without a byte-order mark and no NUL in its first two bytes is UTF-8 (invalid
    /// UTF-8 in a string is a `syntax` error); CoreFoundation reads such text in another encoding.
    case textEncodingGuess
    /// Decision: the XML reader reads control characters in text as they are, since CoreFoundation
    /// writes them raw (`XMLPlistWriter.rawCharacters`); CoreFoundation's own reader refuses some (NUL).
    case xmlRawControlCharacters
    /// Decision: a JSON number past `Double`'s range reads as ±infinity, as a real or a typed-JSON
    /// date (RFC 8259 leaves the range to the reader); JSONSerialization refuses it.
    case jsonOverflowToInfinity
    /// Decision (lenient, could be tightened): the XML reader decodes text, not the markup it skips
    /// (the DOCTYPE, the `<plist>` tag's attributes), so invalid UTF-8 there goes unseen; CoreFoundation
    /// decodes the whole text first and refuses it.
    case xmlBytesOutsideText
    /// Decision: dictionary keys of different kinds stay apart (`1`, `1.0`); NSDictionary takes
    /// numbers of equal value for one key and keeps one entry.
    case numericKeysKept
    /// Decision: an extended count (after a count nibble of F) is an integer object of 1, 2, 4 or 8
    /// bytes (`corrupted` otherwise); CoreFoundation also takes wider integer markers.
    case extendedCountWidth
    /// Decision: the trailer's object reference size must be 1…8 (`invalidTrailer`); CoreFoundation
    /// accepts any size when no container reads a reference.
    case referenceSizeChecked
    /// Foundation defect: in UTF-16 OpenStep text, CoreFoundation's `<data>` reader takes a character's
    /// low byte (U+2331 reads as the digit 1).
    case foundationUTF16DataLowByte
    /// Decision: nothing but whitespace, comments and processing instructions may follow `</plist>`
    /// (`syntax`); CoreFoundation ignores what follows.
    case xmlTextAfterEnd
    /// Foundation defect: JSONSerialization accepts a trailing comma (`[1,]`, `{"a": 1,}`), which
    /// RFC 8259 does not allow.
    case foundationJSONTrailingComma
    /// Decision: XML `<data>` holds base64 (alphabet, whitespace, `=` padding at the end) only, else
    /// `syntax`; CoreFoundation skips other characters and misplaced padding.
    case xmlBase64Strict
    /// Decision: an XML declaration naming an encoding other than UTF-8/16/32 (or ASCII) is a `syntax`
    /// error; CoreFoundation ignores the name.
    case xmlUnsupportedEncoding
    /// Decision: XML `<string>`, `<key>` and the other scalars hold text only; CoreFoundation reads
    /// markup inside them.
    case xmlMarkupInScalar
    /// Decision: OpenStep text is decoded in its strings, keys and data; bytes in comments are skipped
    /// undecoded. CoreFoundation decodes the whole text first and refuses invalid UTF-8 anywhere.
    case openStepBytesOutsideStrings
    /// Foundation defect: JSONSerialization stops at a NUL byte and ignores what follows.
    case foundationJSONStopsAtNUL
    /// Decision: an object offset must lie in the object region (8 ..< offset table); CoreFoundation
    /// reads objects inside the `bplist00` header.
    case objectOffsetInHeader
    /// Decision: XML must be well-formed (libxml2, through `XMLParser`, agrees that it is not);
    /// CoreFoundation's XML scanner reads many malformed texts.
    case xmlNotWellFormed
    /// Decision: an XML property list's root element is `<plist>` (and text that does not start like
    /// one is not sniffed as XML); CoreFoundation reads a bare value (`<array/>`).
    case xmlRootNotPlist
    /// Foundation defect: CoreFoundation's OpenStep reader, falling back to the `.strings` form,
    /// returns the entries read before a syntax error (or `{}` for text with none) instead of failing.
    case foundationStringsPrefix
    /// Decision: a `0x5n` (ASCII) string holding bytes above 0x7F is `invalidString` unless
    /// `allowsUTF8InASCIIStrings` (as plistlib and swift-foundation); CoreFoundation reads the bytes
    /// as Latin-1/MacRoman.
    case highBytesInASCIIString
    /// Foundation defect: a binary property list holding a non-empty set crashes Foundation on Linux
    /// (SEGV bridging `NSSet` to `Set<AnyHashable>`): Foundation is not asked.
    case foundationCrashesOnSet
}

/// Reads with our decoder, catching the typed error.
func readOurs(_ data: Data, as form: PlistFormat?, options: PlistReadOptions = ourOptions) -> Result<
    PlistValue.Decoded, PlistError
> {
    Result { () throws(PlistError) in try PlistValue.decode(from: data, as: form, options: options) }
}

/// Our defaults, without the zlib/gzip envelope (Foundation reads none).
let ourOptions = PlistReadOptions(allowsCompression: false)

/// Foundation's reading of a property list: the tree and the form it reports.
struct Theirs {
    var value: FValue
    var format: PlistFormat?
}

func readFoundationPlist(_ data: Data) -> Result<Theirs, NSError> {
    var format = PropertyListSerialization.PropertyListFormat.binary
    do {
        let any = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        let form: PlistFormat =
            switch format {
            case .binary: .binary
            case .xml: .xml
            case .openStep: .openStep
            @unknown default: .binary
            }
        return .success(Theirs(value: convert(any), format: form))
    } catch {
        return .failure(error as NSError)
    }
}

func readFoundationJSON(_ data: Data) -> Result<Theirs, NSError> {
    do {
        let any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return .success(Theirs(value: convert(any), format: .json))
    } catch {
        return .failure(error as NSError)
    }
}

/// Sorts one input into a verdict. `mode` is the configuration's choice (see the file header).
func classify(_ payload: Data, mode: Int) -> Verdict {
    let json = mode == 1
    var ours: Result<PlistValue.Decoded, PlistError>
    if json {
        ours = readOurs(payload, as: .json)
    } else {
        ours = readOurs(payload, as: nil)
    }
    // A binary DAG expands exponentially in Foundation's reader: do not ask it.
    if case .success(let d) = ours, d.format == .binary, expandedCount(d.value, cap: expansionCap) >= expansionCap {
        return .skippedExpansion
    }
    if case .failure(let e) = ours, e.code == .limitExceeded || e.code == .cycle,
        payload.starts(with: Array("bplist".utf8))
    {
        // Past our limits (or a cycle, which Foundation may walk long before refusing): not asked.
        return .skippedExpansion
    }
    if !json, let trap = foundationTrap(payload) { return .known(trap) }
    // Foundation bridges every nested array and dictionary to Swift, expanding shared sub-trees:
    // binary input whose objects expand past the cap is not asked, whatever ours made of it.
    if !json, binaryExpansion(payload, cap: expansionCap) >= expansionCap { return .skippedExpansion }
    repeatedKeyPrints = repeatedKeys(payload)
    let sniffedJSON = !json && (try? ours.get())?.format == .json
    let theirs = json || sniffedJSON ? readFoundationJSON(payload) : readFoundationPlist(payload)
    if mode == 3, case .success(let t) = theirs, let form = t.format {
        ours = readOurs(payload, as: form)
    }
    return judge(payload, ours: ours, theirs: theirs, json: json || sniffedJSON)
}

/// The verdict for two outcomes.
func judge(
    _ payload: Data, ours: Result<PlistValue.Decoded, PlistError>, theirs: Result<Theirs, NSError>, json: Bool
) -> Verdict {
    switch (ours, theirs) {
    case (.failure, .failure):
        return .bothRefuse
    case (.success(let o), .success(let t)):
        if let form = t.format, form != o.format {
            return .unknown("forms differ: ours \(o.format), Foundation \(form)")
        }
        var diffs: [Difference] = []
        compare(o.value, t.value, path: "", json: json, into: &diffs)
        guard !diffs.isEmpty else { return .equal }
        if let first = diffs.first?.known, diffs.allSatisfy({ $0.known != nil }) { return .known(first) }
        // The two readers read different texts: ours UTF-16 without a byte-order mark, or past a
        // DOCTYPE that CoreFoundation ends early.
        if o.format == .xml || o.format == .openStep, textWithoutByteOrderMark(payload) {
            return .known(.textWithoutByteOrderMark)
        }
        if o.format == .xml, doctypeLiteralHoldsMarkup(payload) { return .known(.foundationDoctypeEndsEarly) }
        if o.format == .xml, isScalar(t.value), o.value.kind == .dictionary || o.value.kind == .array {
            // Malformed XML (here text ours reads past) that Foundation reads as one scalar from inside.
            return .known(.foundationXMLReadsFalse)
        }
        return .unknown("values differ (\(o.format)): " + diffs.map(\.description).joined(separator: "; "))
    case (.failure(let e), .success(let t)):
        // Ours refuses what Foundation reads.
        if t.format == .xml, case .bool(false) = t.value, !payloadHoldsRootFalse(payload) {
            return .known(.foundationXMLReadsFalse)
        }
        if t.format == .xml, e.code == .syntax || e.code == .notAPropertyList, isScalar(t.value),
            payloadRootIsContainer(payload) || payloadText(payload).contains("<dict>")
                || {
                    if case .string(let text) = t.value { payloadText(payload).contains(">\(text)</") } else { false }
                }()
        {
            // A misspelt element inside a <dict>: Foundation returns a value from inside it.
            return .known(.foundationXMLReadsFalse)
        }
        if t.format == .xml, e.code == .syntax, e.detail.contains("after an attribute name") {
            // `<plist versi<on="1.0">`: not well-formed (a `<` inside a tag); XMLParser recovers.
            return .known(.xmlNotWellFormed)
        }
        if e.code == .invalidString, e.detail.contains("unpaired surrogate") { return .known(.loneSurrogateRefused) }
        // Retry with the options that read as CoreFoundation does.
        if e.code == .invalidString {
            var lenient = ourOptions
            lenient.replacesLoneSurrogates = true
            let retry = readOurs(payload, as: t.format, options: lenient)
            if case .success = retry {
                switch judge(payload, ours: retry, theirs: theirs, json: json) {
                case .equal, .known: return .known(.loneSurrogateRefused)
                default: break
                }
            }
        }
        if e.code == .invalidString, t.format == .binary {
            // The first string ours refuses is one of high bytes when the option that reads them
            // moves the failure on (or removes it).
            var lenient = ourOptions
            lenient.allowsUTF8InASCIIStrings = true
            if holdsLatin1(t.value) || asciiStringHoldsHighByte(payload) { return .known(.highBytesInASCIIString) }
            switch readOurs(payload, as: .binary, options: lenient) {
            case .success: return .known(.highBytesInASCIIString)
            case .failure(let later) where later.offset != e.offset || later.code != e.code:
                return .known(.highBytesInASCIIString)
            default: break
            }
        }
        if e.code == .syntax, t.format == .openStep {
            var lenient = ourOptions
            lenient.replacesLoneSurrogates = true
            if case .success(let o) = readOurs(payload, as: .openStep, options: lenient), same(o.value, t.value, json) {
                return .known(.loneSurrogateRefused)
            }
            if holdsSurrogateEscape(payload) { return .known(.loneSurrogateRefused) }
        }
        if json, holdsKey(t.value, where: { if case .string(let k) = $0 { typedJSONTags.contains(k) } else { false } })
        {
            return .known(.typedJSONTag)
        }
        if json, let nul = payload.firstIndex(of: 0),
            case .success(let o) = readOurs(payload[..<nul], as: .json), same(o.value, t.value, json)
        {
            return .known(.foundationJSONStopsAtNUL)
        }
        if json, payload.starts(with: [0xEF, 0xBB, 0xBF]),
            case .success(let o) = readOurs(payload.dropFirst(3), as: .json), same(o.value, t.value, json)
        {
            return .known(.jsonByteOrderMark)
        }
        if e.code == .syntax, t.format == .openStep, e.detail.contains("unterminated string"), let at = e.offset,
            at >= 0, at < payload.count
        {
            // CoreFoundation, meeting a quote that opens no terminated string where a dictionary key
            // is expected, ends the dictionary there and goes on past the quote.
            var without = payload
            without.remove(at: without.startIndex + at)
            if case .success(let o) = readOurs(without, as: .openStep), same(o.value, t.value, json) {
                return .known(.foundationSkipsUnterminatedQuote)
            }
        }
        if e.code == .trailingData, t.format == .binary {
            return .known(.appendedToBinary)
        }
        if e.code == .syntax, t.format == .xml, e.detail.contains("expected <plist>") {
            return .known(.xmlRootNotPlist)
        }
        if e.code == .offsetOutOfRange, t.format == .binary, offsetTableNamesHeader(payload) {
            return .known(.objectOffsetInHeader)
        }
        if t.format == .xml || t.format == .openStep, textWithoutByteOrderMark(payload) {
            return .known(.textWithoutByteOrderMark)
        }
        if t.format == .xml, let shape = xmlShape(payload) {
            if !shape.wellFormed { return .known(.xmlNotWellFormed) }
            if shape.root != "plist" { return .known(.xmlRootNotPlist) }
            if shape.elementInScalar { return .known(.xmlMarkupInScalar) }
        }
        if t.format == .openStep, stringsPrefixReads(payload, error: e, as: t.value) {
            return .known(.foundationStringsPrefix)
        }
        // UTF-16 text: our error offsets count the UTF-8 it was transcoded to.
        if t.format == .openStep, payload.starts(with: [0xFF, 0xFE]) || payload.starts(with: [0xFE, 0xFF]),
            let text = String(data: payload, encoding: .utf16),
            stringsPrefixReads(Data(text.utf8), error: e, as: t.value)
        {
            return .known(.foundationStringsPrefix)
        }
        if t.format == .xml, let name = declaredEncoding(payload), !knownEncodings.contains(name.lowercased()) {
            return .known(.xmlUnsupportedEncoding)
        }
        if e.code == .syntax, t.format == .xml {
            var lenient = ourOptions
            lenient.normalizesDates = true
            if case .success(let o) = readOurs(payload, as: .xml, options: lenient), same(o.value, t.value, json) {
                return .known(.dateNotNormalized)
            }
        }
        if e.code == .invalidKey, t.format == .binary {
            return .known(.dictionaryKeyKindRefused)
        }
        if payload.starts(with: Array("bplist".utf8)), t.format == .openStep {
            return .known(.binaryMagicIsBinary)
        }
        if json, e.code == .syntax, holdsReal(t.value, where: { abs($0) >= 0x1p127 }) {
            return .known(.jsonIntegerOutOfRange)
        }
        if json, payload.prefix(4).contains(0) {
            return .known(.jsonNotUTF8)
        }
        if t.format == .openStep, e.code == .syntax, holdsNeXTSTEPOctalEscape(payload) {
            return .known(.nextstepOctalEscape)
        }
        if e.code == .notAPropertyList, let form = t.format {
            switch readOurs(payload, as: form) {
            case .success(let o) where same(o.value, t.value, json): return .known(.sniffedNotAPropertyList)
            case .failure(let forced)
            where form == .openStep && stringsPrefixReads(payload, error: forced, as: t.value):
                return .known(.foundationStringsPrefix)
            case .failure(let forced) where form == .openStep && forced.code == .syntax:
                // Read as OpenStep, ours refuses the text too: CoreFoundation's recovery.
                return .known(.openStepStrictSyntax)
            default: break
            }
        }
        if t.format == .xml, doctypeLiteralHoldsMarkup(payload) {
            return .known(.foundationDoctypeEndsEarly)
        }
        if t.format == .xml, !sniffsAsXML(payload) { return .known(.xmlRootNotPlist) }
        if t.format == .xml, e.code == .syntax, textAfterPlistEnd(payload) {
            return .known(.xmlTextAfterEnd)
        }
        if json, e.code == .syntax, holdsTrailingComma(payload) {
            return .known(.foundationJSONTrailingComma)
        }
        if t.format == .xml, e.code == .syntax, dataElementHoldsNonBase64(payload) {
            return .known(.xmlBase64Strict)
        }
        if t.format == .xml, e.code == .syntax, holdsControlCharacter(payload) {
            return .known(.xmlControlCharacter)
        }
        let wide = payload.starts(with: [0xFF, 0xFE]) || payload.starts(with: [0xFE, 0xFF])
        if t.format == .openStep, !wide, e.code == .syntax,
            payload.dropFirst(2).contains(0) || String(validating: payload, as: UTF8.self) == nil
        {
            return .known(.textEncodingGuess)
        }
        if t.format == .openStep || t.format == .xml, wide, e.code == .syntax {
            // Ours transcodes the whole text first: an odd byte count or an unpaired surrogate fails there.
            if payload.count % 2 == 1 { return .known(.oddUTF16Length) }
            if holdsUnpairedSurrogate(payload) { return .known(.loneSurrogateRefused) }
            if t.format == .openStep, let text = String(data: payload, encoding: .utf16), dataLiteralHoldsNonASCII(text)
            {
                return .known(.foundationUTF16DataLowByte)
            }
        }
        if e.code == .corrupted, t.format == .binary, holdsWideExtendedCount(payload) {
            return .known(.extendedCountWidth)
        }
        if e.code == .invalidTrailer, t.format == .binary, payload.count >= 40,
            !(1...8).contains(payload[payload.endIndex - 25])
        {
            return .known(.referenceSizeChecked)
        }
        if e.code == .syntax, t.format == .xml, e.detail.contains("base64") || e.detail.contains("in <data>") {
            return .known(.xmlBase64Strict)
        }
        if json, e.code == .syntax, e.detail.contains("outside the signed 128-bit range") {
            return .known(.jsonIntegerOutOfRange)
        }
        if e.code == .syntax, t.format == .openStep { return .known(.openStepStrictSyntax) }
        let shape = t.format == .xml ? " (libxml2: \(xmlShape(payload).map { "\($0)" } ?? "not asked"))" : ""
        return .unknown(
            "ours refuses (\(e))\(shape), Foundation reads \(t.format.map { "\($0)" } ?? "?"): \(t.value.deep)")
    case (.success(let o), .failure(let e)):
        if o.format == .xml, containsNullString(o.value) {
            return .known(.foundationXMLRejectsNullString)
        }
        if o.format == .xml, holdsDate(o.value, where: { $0.rounded(.down) != $0 }) {
            return .known(.xmlFractionalSeconds)
        }
        if o.format == .xml || o.format == .openStep, textWithoutByteOrderMark(payload) {
            return .known(.textWithoutByteOrderMark)
        }
        if o.format == .binary, holdsUID(o.value, where: { $0 > UInt32.max }) || rawHoldsWideUID(payload) {
            return .known(.wideUID)
        }
        if o.format == .openStep, !textWithoutByteOrderMark(payload), !payload.starts(with: [0xFF, 0xFE]),
            !payload.starts(with: [0xFE, 0xFF]), String(validating: payload, as: UTF8.self) == nil
        {
            return .known(.openStepBytesOutsideStrings)
        }
        if o.format == .xml, doctypeLiteralHoldsMarkup(payload) {
            return .known(.foundationDoctypeEndsEarly)
        }
        if o.format == .xml, !textWithoutByteOrderMark(payload), !payload.starts(with: [0xFF, 0xFE]),
            !payload.starts(with: [0xFE, 0xFF]), String(validating: payload, as: UTF8.self) == nil
        {
            return .known(.xmlBytesOutsideText)
        }
        if o.format == .xml, !textWithoutByteOrderMark(payload), holdsControlCharacter(payload) {
            return .known(.xmlRawControlCharacters)
        }
        if json, holdsInfinity(o.value) {
            return .known(.jsonOverflowToInfinity)
        }
        if o.format == .xml, doctypeHoldsControlCharacter(payload) {
            return .known(.xmlDoctypeSkipped)
        }
        if o.format == .binary, holdsEmptyUTF16String(payload) {
            return .known(.foundationRejectsEmptyUTF16String)
        }
        if o.format == .xml, holdsWideInteger(o.value) {
            return .known(.xmlIntegerBeyond64Bits)
        }
        return .unknown("ours reads \(o.format) \(describe(o.value)), Foundation refuses: \(e.localizedDescription)")
    }
}

/// What would trap Foundation in a binary property list (found by scanning every object of its
/// offset table, reachable or not): a non-empty set (0xC1…0xCF), or a dictionary with a UID key.
func foundationTrap(_ payload: Data) -> Known? {
    switch rawFoundationTrap(payload) {
    case .set?: .foundationCrashesOnSet
    case .uidKey?: .foundationCrashesOnUIDKey
    case nil: nil
    }
}

/// Whether Foundation's tree holds a string with a character from U+0080 to U+00FF.
func holdsLatin1(_ v: FValue) -> Bool {
    switch v {
    case .string(let s): s.unicodeScalars.contains { (0x80...0xFF).contains($0.value) }
    case .array(let a), .set(let a): a.contains(where: holdsLatin1)
    case .dictionary(let d): d.contains { holdsLatin1($0.key) || holdsLatin1($0.value) }
    default: false
    }
}

/// Whether `v` holds a dictionary with a key that passes `test`.
func holdsKey(_ v: FValue, where test: (FValue) -> Bool) -> Bool {
    switch v {
    case .array(let a), .set(let a): a.contains { holdsKey($0, where: test) }
    case .dictionary(let d):
        d.contains { test($0.key) || holdsKey($0.key, where: test) || holdsKey($0.value, where: test) }
    default: false
    }
}

/// The key kinds our binary reader accepts: strings, numbers, dates and data.
func isScalarKey(_ k: FValue) -> Bool {
    switch k {
    case .string, .integer, .real, .date, .data: true
    default: false
    }
}

/// Whether `v` holds a date (seconds since 2001) that passes `test`.
func holdsDate(_ v: PlistValue, where test: (Double) -> Bool) -> Bool {
    switch v {
    case .date(let d): test(d.timeIntervalSinceReferenceDate)
    case .array(let a), .set(let a): a.contains { holdsDate($0, where: test) }
    case .dictionary(let d): d.entries.contains { holdsDate($0.key, where: test) || holdsDate($0.value, where: test) }
    default: false
    }
}

/// Whether `v` holds a UID that passes `test`.
func holdsUID(_ v: PlistValue, where test: (UInt64) -> Bool) -> Bool {
    switch v {
    case .uid(let u): test(u)
    case .array(let a), .set(let a): a.contains { holdsUID($0, where: test) }
    case .dictionary(let d): d.entries.contains { holdsUID($0.key, where: test) || holdsUID($0.value, where: test) }
    default: false
    }
}

/// Text in UTF-16 or UTF-32 without a byte-order mark (a NUL in its first two bytes), which ours
/// detects from the zero bytes (XML 1.0 appendix F; the same for OpenStep) and CoreFoundation reads
/// as UTF-8 and refuses.
func textWithoutByteOrderMark(_ payload: Data) -> Bool {
    let head = Array(payload.prefix(2))
    return head.count == 2 && (head[0] == 0 || head[1] == 0)
}

/// Whether an OpenStep text holds a `\U` escape of a UTF-16 surrogate (`\UD800`…`\UDFFF`).
func holdsSurrogateEscape(_ payload: Data) -> Bool {
    let b = Array(payload.filter { $0 != 0 })  // UTF-16 and UTF-32 text, crudely
    guard b.count >= 4 else { return false }
    for i in 0..<(b.count - 3) where b[i] == UInt8(ascii: "\\") && (b[i + 1] | 0x20) == UInt8(ascii: "u") {
        if (b[i + 2] | 0x20) == UInt8(ascii: "d"), [UInt8]("89abcdefABCDEF".utf8).contains(b[i + 3]) { return true }
    }
    return false
}

/// Whether a binary property list holds an empty UTF-16 string (`0x60`).
func holdsEmptyUTF16String(_ payload: Data) -> Bool {
    guard let doc = try? BinaryPlistDocument(payload, options: ourOptions) else { return false }
    for i in 0..<doc.objectCount {
        if case .utf16String(let range)? = try? doc.object(ObjectRef(i)), range.count == 0 { return true }
    }
    return false
}

/// Whether a binary property list's offset table (read from its trailer, without our checks) has
/// an entry below 8, inside the `bplist00` header.
func offsetTableNamesHeader(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    guard bytes.count >= 40 else { return false }
    let trailer = bytes[(bytes.count - 32)...]
    let width = Int(trailer[trailer.startIndex + 6])
    func word(_ at: Int) -> UInt64 {
        trailer[(trailer.startIndex + at)...].prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
    let count = word(8)
    let table = word(24)
    guard (1...8).contains(width), count < 1 << 20, table < UInt64(bytes.count) else { return false }
    for i in 0..<Int(count) {
        let start = Int(table) + i * width
        guard start + width <= bytes.count - 32 else { return false }
        let offset = bytes[start..<(start + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if offset < 8 { return true }
    }
    return false
}

/// What libxml2 (Foundation's `XMLParser`) says of an XML text: well-formed or not, and the name of
/// its root element. `nil` when it cannot be asked (a text of over 4 KiB).
func xmlShape(_ input: Data) -> (wellFormed: Bool, root: String?, elementInScalar: Bool)? {
    guard input.count <= 4096 else { return nil }
    var payload = input
    // UTF-16 with a byte-order mark: handed to libxml2 as UTF-8, its encoding declaration removed.
    if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF]) {
        guard let text = String(data: input, encoding: .utf16) else { return (false, nil, false) }
        let plain = text.replacingOccurrences(
            of: #"encoding\s*=\s*["'][^"']*["']"#, with: "", options: .regularExpression)
        payload = Data(plain.utf8)
    }
    // FoundationXML traps on a processing instruction whose target is not UTF-8 (a Foundation
    // defect of its own, see fuzz/README.md): a UTF-8 text that does not decode is not
    // well-formed anyway, unless it names another encoding or starts with a byte-order mark or NUL.
    // FoundationXML traps on a processing instruction without data (`<?x?>`: strlen of a null
    // pointer in `_NSXMLParserProcessingInstruction`): such text is not handed to it.
    if String(decoding: payload, as: UTF8.self).range(of: #"<\?[^\s?]*\?>"#, options: .regularExpression) != nil {
        return nil
    }
    // Not UTF-8 (and no byte-order mark): not well-formed as the UTF-8 text both readers take it for.
    if String(validating: payload, as: UTF8.self) == nil { return (false, nil, false) }
    final class Root: NSObject, XMLParserDelegate {
        static let scalars: Set<String> = ["string", "key", "integer", "real", "date", "data", "true", "false"]
        var name: String?
        var open: [String] = []
        var elementInScalar = false
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            if name == nil { name = elementName }
            if let last = open.last, Root.scalars.contains(last) { elementInScalar = true }
            open.append(elementName)
        }
        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            _ = open.popLast()
        }
    }
    let parser = XMLParser(data: payload)
    let root = Root()
    parser.delegate = root
    parser.shouldResolveExternalEntities = false
    let ok = parser.parse()
    return (ok, root.name, root.elementInScalar)
}

/// Whether ours reads a prefix of an OpenStep text, cut after one of its last `;` before the error
/// (or at the start), to Foundation's dictionary: CoreFoundation's `.strings` fallback keeps the
/// entries it read before a syntax error and drops the rest.
func stringsPrefixReads(_ payload: Data, error: PlistError, as theirs: FValue) -> Bool {
    let start = payload.startIndex
    let end = start + min(error.offset ?? payload.count, payload.count)
    let wide = payload.starts(with: [0xFF, 0xFE]) || payload.starts(with: [0xFE, 0xFF])
    var cuts = [start]
    for i in payload.indices where i < end && payload[i] == UInt8(ascii: ";") {
        // In UTF-16 the cut falls after the whole code unit.
        cuts.append(wide && (i + 1 - start) % 2 == 1 ? i + 2 : i + 1)
    }
    if !wide { cuts.append(end) }
    for cut in cuts.suffix(9).reversed() where cut <= payload.endIndex {
        if case .dictionary(let d) = theirs, d.isEmpty, cut == start { return true }
        // The prefix alone, or closed as CoreFoundation closes it (an entry without `;`, a `{` left open).
        for tail in closingTails {
            let prefix = Data(payload[..<cut]) + Data(tail.utf8)
            if case .success(let o) = readOurs(prefix, as: .openStep), same(o.value, theirs, false) { return true }
        }
    }
    return false
}

/// How CoreFoundation closes what it read before an error: nothing, the entry's `;`, and up to
/// four open dictionaries (`}`, then `;}` for each enclosing one).
let closingTails: [String] = ["", ";"].flatMap { pre in
    (0...4).map { k in pre + (k == 0 ? "" : "}" + String(repeating: ";}", count: k - 1)) }
}

/// The encodings an XML declaration may name for ours (the text is then read as that Unicode form).
let knownEncodings: Set<String> = [
    "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "utf-32", "utf-32le", "utf-32be", "us-ascii", "ascii",
]

/// The encoding an XML declaration names (`<?xml … encoding="X"?>`), if any.
func declaredEncoding(_ payload: Data) -> String? {
    let head = String(decoding: payload.prefix(200).filter { $0 != 0 }, as: UTF8.self)
    guard head.hasPrefix("<?xml") || head.dropFirst().hasPrefix("<?xml"), let end = head.range(of: "?>"),
        let key = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
    else { return nil }
    let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    return String(rest.dropFirst().prefix { $0 != quote })
}

/// Whether UTF-16 text (after its byte-order mark) holds a surrogate without its pair.
func holdsUnpairedSurrogate(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    let little = bytes.starts(with: [0xFF, 0xFE])
    var units: [UInt16] = []
    var k = 2
    while k + 1 < bytes.count {
        units.append(
            little ? UInt16(bytes[k + 1]) << 8 | UInt16(bytes[k]) : UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]))
        k += 2
    }
    var i = 0
    while i < units.count {
        if (0xD800...0xDBFF).contains(units[i]) {
            guard i + 1 < units.count, (0xDC00...0xDFFF).contains(units[i + 1]) else { return true }
            i += 2
        } else if (0xDC00...0xDFFF).contains(units[i]) {
            return true
        } else {
            i += 1
        }
    }
    return false
}

/// Whether a `<…>` data literal of OpenStep text holds a character outside ASCII.
func dataLiteralHoldsNonASCII(_ text: String) -> Bool {
    // Every `<…>` span made of hex digits, whitespace and non-ASCII characters (quotes are not
    // tracked: a false match only names a class for text ours refuses anyway).
    var span: [Unicode.Scalar]? = nil
    for c in text.unicodeScalars {
        if c == "<" {
            span = []
        } else if c == ">" {
            if let body = span, body.contains(where: { !$0.isASCII }) { return true }
            span = nil
        } else if span != nil {
            if c.isASCII && !c.properties.isASCIIHexDigit && c != " " && c != "\t" && c != "\n" && c != "\r" {
                span = nil
            } else {
                span?.append(c)
            }
        }
    }
    return false
}

/// Whether XML text (UTF-8) holds a C0 control character other than tab, line feed and carriage return,
/// which XML 1.0 allows nowhere.
func holdsControlCharacter(_ payload: Data) -> Bool {
    payload.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
}

/// Whether the `<!DOCTYPE …>` of an XML text (up to `<plist`) holds such a control character.
func doctypeHoldsControlCharacter(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    guard let start = bytes.firstRange(of: Array("<!DOCTYPE".utf8))?.lowerBound else { return false }
    let end = bytes[start...].firstRange(of: Array("<plist".utf8))?.lowerBound ?? bytes.endIndex
    return holdsControlCharacter(Data(bytes[start..<end]))
}

/// Whether a quoted literal of the `<!DOCTYPE …>` of an XML text holds `<`, `>` or `[`.
func doctypeLiteralHoldsMarkup(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    guard let start = bytes.firstRange(of: Array("<!DOCTYPE".utf8))?.upperBound else { return false }
    var quote: UInt8? = nil
    for b in bytes[start...] {
        if let q = quote {
            if b == q {
                quote = nil
            } else if b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "[") {
                return true
            }
        } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            quote = b
        } else if b == UInt8(ascii: ">") || b == UInt8(ascii: "[") {
            return false
        }
    }
    return false
}

/// Whether text starts as our sniffer's XML does (after whitespace): `<?xml`, `<!DOCTYPE`, `<!--`
/// or `<plist`. CoreFoundation takes any text starting with `<` (a bare `<array/>`) for XML.
func sniffsAsXML(_ payload: Data) -> Bool {
    let text = String(decoding: payload.prefix(64).filter { $0 != 0 }, as: UTF8.self)
        .drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    return ["<?xml", "<!DOCTYPE", "<!--", "<plist"].contains { text.hasPrefix($0) }
}

/// Whether XML text holds something other than whitespace after its first `</plist>`.
func textAfterPlistEnd(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    guard let end = bytes.firstRange(of: Array("</plist>".utf8))?.upperBound else { return false }
    return bytes[end...].contains { !PlistTextSpace.contains($0) }
}

let PlistTextSpace: Set<UInt8> = [0x09, 0x0A, 0x0D, 0x20]

/// Whether JSON text holds a `,` followed (after whitespace) by `]` or `}`.
func holdsTrailingComma(_ payload: Data) -> Bool {
    let bytes = Array(payload)
    for (i, b) in bytes.enumerated() where b == UInt8(ascii: ",") {
        if let next = bytes[(i + 1)...].first(where: { !PlistTextSpace.contains($0) }),
            next == UInt8(ascii: "]") || next == UInt8(ascii: "}")
        {
            return true
        }
    }
    return false
}

/// Whether an XML `<data>` element holds a character outside base64's alphabet, `=` and whitespace.
func dataElementHoldsNonBase64(_ payload: Data) -> Bool {
    let text = String(decoding: payload, as: UTF8.self)
    var rest = text[...]
    while let open = rest.range(of: "<data>") {
        guard let close = rest[open.upperBound...].range(of: "</data>") else { return false }
        let body = rest[open.upperBound..<close.lowerBound]
        // `=` only at the end, as padding to a multiple of four.
        let digits = body.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) }
        if let pad = digits.firstIndex(of: "="), digits[pad...].contains(where: { $0 != "=" }) || digits.count % 4 != 0
        {
            return true
        }
        if body.unicodeScalars.contains(where: {
            !($0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || "+/= \t\r\n".unicodeScalars.contains($0))
        }) {
            return true
        }
        rest = rest[close.upperBound...]
    }
    return false
}

/// Whether a binary property list holds an extended count (a marker of data, a string, an array,
/// a set or a dictionary with count nibble F) whose integer is 16 bytes or wider (`0x14`…`0x1F`).
func holdsWideExtendedCount(_ payload: Data) -> Bool {
    let b = Array(payload)
    guard b.count > 9 else { return false }
    for i in 8..<(b.count - 1) where b[i] & 0x0F == 0x0F && [0x4, 0x5, 0x6, 0xA, 0xC, 0xD].contains(b[i] >> 4) {
        if (0x14...0x1F).contains(b[i + 1]) { return true }
    }
    return false
}

/// Whether some ASCII string (`0x5n`) of a binary property list holds a byte above 0x7F (it may be
/// one Foundation never reads, as the value of a repeated key).
func asciiStringHoldsHighByte(_ payload: Data) -> Bool {
    guard let doc = try? BinaryPlistDocument(payload, options: ourOptions) else { return false }
    for i in 0..<doc.objectCount {
        if case .asciiString(let range)? = try? doc.object(ObjectRef(i)),
            doc.bytes(range).contains(where: { $0 > 0x7F })
        {
            return true
        }
    }
    return false
}

/// Whether two keys of a dictionary are numbers (or booleans) of equal value but different kinds
/// (`1`, `1.0`, `true`), which NSDictionary takes for one key.
func numericKeysCollide(_ d: PlistDictionary) -> Bool {
    var seen: Set<Double> = []
    for e in d.entries {
        let x: Double? =
            switch e.key {
            case .integer(let i): Double(i.int128)
            case .real(let r): r
            case .bool(let b): b ? 1 : 0
            default: nil
            }
        if let x, !seen.insert(x).inserted { return true }
    }
    return false
}

/// Whether `v` holds an infinite real.
func holdsInfinity(_ v: PlistValue) -> Bool {
    switch v {
    case .real(let d): d.isInfinite
    case .date(let d): d.timeIntervalSinceReferenceDate.isInfinite
    case .array(let a), .set(let a): a.contains(where: holdsInfinity)
    case .dictionary(let d): d.entries.contains { holdsInfinity($0.key) || holdsInfinity($0.value) }
    default: false
    }
}

/// The payload as text: UTF-16 after its byte-order mark, else UTF-8 (invalid bytes replaced).
func payloadText(_ payload: Data) -> String {
    if payload.starts(with: [0xFF, 0xFE]) || payload.starts(with: [0xFE, 0xFF]),
        let text = String(data: payload, encoding: .utf16)
    {
        return text
    }
    return String(decoding: payload, as: UTF8.self)
}

/// Whether `v` is neither an array, a set nor a dictionary.
func isScalar(_ v: FValue) -> Bool {
    switch v {
    case .array, .set, .dictionary: false
    default: true
    }
}

/// Whether the XML's root value is a `<dict>` or an `<array>`.
func payloadRootIsContainer(_ payload: Data) -> Bool {
    let text = payloadText(payload)
    guard let open = text.range(of: "<plist") else { return false }
    let body = text[open.upperBound...].drop { $0 != ">" }.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
    return body.hasPrefix("<dict") || body.hasPrefix("<array")
}

/// Whether the XML's root value is `<false/>` (the only text that should read as `false`).
func payloadHoldsRootFalse(_ payload: Data) -> Bool {
    let text = payloadText(payload)
    guard let open = text.range(of: "<plist") else { return false }
    let body = text[open.upperBound...].drop { $0 != ">" }.dropFirst()
    return body.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<false/>")
}

/// Whether `v` holds an integer outside both `Int64` and `UInt64`.
func holdsWideInteger(_ v: PlistValue) -> Bool {
    switch v {
    case .integer(let i): !i.fitsInt64 && i.uint64 == nil
    case .array(let a), .set(let a): a.contains(where: holdsWideInteger)
    case .dictionary(let d): d.entries.contains { holdsWideInteger($0.key) || holdsWideInteger($0.value) }
    default: false
    }
}

/// Whether `v` holds a real that passes `test`.
func holdsReal(_ v: FValue, where test: (Double) -> Bool) -> Bool {
    switch v {
    case .real(let d): test(d)
    case .array(let a), .set(let a): a.contains { holdsReal($0, where: test) }
    case .dictionary(let d): d.contains { holdsReal($0.key, where: test) || holdsReal($0.value, where: test) }
    default: false
    }
}

/// Whether an OpenStep text holds an octal escape of a NeXTSTEP character (`\200` … `\377`).
func holdsNeXTSTEPOctalEscape(_ payload: Data) -> Bool {
    let b = Array(payload.filter { $0 != 0 })
    guard b.count >= 4 else { return false }
    let octal = UInt8(ascii: "0")...UInt8(ascii: "7")
    for i in 0..<(b.count - 3)
    where b[i] == UInt8(ascii: "\\") && (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(b[i + 1]) {
        if octal.contains(b[i + 2]) && octal.contains(b[i + 3]) { return true }
    }
    return false
}

func containsNullString(_ v: PlistValue) -> Bool {
    switch v {
    case .string(let s): s.string.hasPrefix("$null")
    case .array(let a), .set(let a): a.contains(where: containsNullString)
    case .dictionary(let d): d.entries.contains { containsNullString($0.key) || containsNullString($0.value) }
    default: false
    }
}

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let verdict = classify(input.payload, mode: input.config.choice)
    var unnamed: String? = nil
    if case .unknown(let what) = verdict { unnamed = what }
    DifferentialVerdicts.record(
        target: "FuzzDifferential", key: unnamed == nil ? verdict.description : "unknown", unnamed: unnamed,
        logLimit: 300,
        inputHex: { hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0))) })
    return 0
}
