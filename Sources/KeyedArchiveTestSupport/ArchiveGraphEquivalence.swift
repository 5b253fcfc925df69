// Sources/KeyedArchiveTestSupport/ArchiveGraphEquivalence.swift - "Same object graph", decided on the
// raw property lists of two keyed archives.
//
// Two archives hold the same graph when, for every `$top` key of the first, the second has the key
// and the two values are equivalent:
// - UIDs are followed; an inline scalar and the same scalar stored in `$objects` are equivalent;
//   `$null` only matches `$null`;
// - scalars compare by value (4- and 8-byte reals as `Double`);
// - the Foundation value classes compare as values, mutable and immutable alike: NSString /
//   NSMutableString (`NS.string`) as the plain string, NSData as the plain data, NSArray and
//   NSOrderedSet as element lists, NSSet as a multiset, NSDictionary as a map (keys and values
//   equivalent, order ignored), NSDate by `NS.time`, NSUUID by its bytes, NSURL by `NS.base` and
//   `NS.relative`;
// - every other object has the same `$classname`, the same `$classes`, the same field keys (escaped
//   as stored, `$class` aside) with equivalent values, and identity is kept: the objects of the two
//   archives are paired one to one (an object reached twice in the first is the same object of the
//   second both times). Cycles are followed once (a pair met again is assumed equal).

public import Foundation
import PropertyList

public struct ArchiveGraphEquivalence {
    typealias Side = KeyedArchivePlist
    let a: Side
    let b: Side
    /// Object UID of `a` → object UID of `b`, and back.
    var forward: [Int: Int] = [:]
    var backward: [Int: Int] = [:]
    /// Why the last comparison failed.
    public private(set) var failure = ""

    public init(_ first: Data, _ second: Data) throws {
        a = try Side(first)
        b = try Side(second)
    }

    /// Whether `second` holds the same graph as `first`.
    public static func same(_ first: Data, _ second: Data) throws -> Bool {
        var check = try ArchiveGraphEquivalence(first, second)
        return check.sameGraph()
    }

    /// Whether every `$top` key of the first archive holds an equivalent value in the second.
    public mutating func sameGraph() -> Bool {
        for (k, v) in a.top {
            guard let key = k.stringValue, let w = b.top[key] else {
                failure = "top key \(k) is missing"
                return false
            }
            guard equivalent(v, w, path: key) else { return false }
        }
        return true
    }

    /// The Foundation value class a class name belongs to, if any.
    static func valueKind(_ name: String) -> String? {
        switch name {
        case "NSString", "NSMutableString": "string"
        case "NSData", "NSMutableData": "data"
        case "NSArray", "NSMutableArray": "array"
        case "NSOrderedSet", "NSMutableOrderedSet": "orderedSet"
        case "NSSet", "NSMutableSet": "set"
        case "NSDictionary", "NSMutableDictionary": "dictionary"
        case "NSDate": "date"
        case "NSUUID": "uuid"
        case "NSURL": "url"
        default: nil
        }
    }

    /// Classes read as typed values (`AnyArchived.color`, …): compared by class and fields like
    /// any object, but as values, without identity (equal ones may be written as one object, and
    /// a shared one as two).
    static let typedValueClasses: Set<String> = [
        "NSNull", "NSIndexPath", "NSIndexSet", "NSMutableIndexSet", "NSLocale", "NSTimeZone", "NSValue",
        "NSRegularExpression", "NSColor", "UIColor", "NSColorSpace", "NSFont", "UIFont", "NSAttributedString",
        "NSMutableAttributedString",
    ]

    /// Fields holding geometry as text (`"{{x, y}, {w, h}}"`): compared by the numbers they hold
    /// (Apple prints 17 significant digits, we print the shortest text that reads back the same).
    static let geometryTextKeys: Set<String> = ["NS.rectval", "NS.pointval", "NS.sizeval"]

    /// A value class object reduced to what it means: a plain scalar, or a tagged list.
    func unwrap(_ side: Side, _ v: PlistValue) -> PlistValue {
        guard case .dictionary(let d) = v, let cls = side.className(d), let kind = Self.valueKind(cls.name) else {
            return v
        }
        switch kind {
        case "string": return d["NS.string"].map { side.resolve($0).0 } ?? v
        case "data": return d["NS.data"].map { side.resolve($0).0 } ?? v
        case "date": return d["NS.time"].map { side.resolve($0).0 } ?? v
        default: return v
        }
    }

    mutating func equivalent(_ v: PlistValue, _ w: PlistValue, path: String) -> Bool {
        let (ov, uv) = a.resolve(v)
        let (ow, uw) = b.resolve(w)
        if uv == 0 || uw == 0 {
            if uv == uw { return true }
            failure = "\(path): $null against a value"
            return false
        }
        let x = unwrap(a, ov)
        let y = unwrap(b, ow)
        switch (x, y) {
        case (.dictionary(let dx), .dictionary(let dy)):
            return objects(dx, dy, uv, uw, path: path)
        case (.real(let p), .real(let q)):
            if p == q || (p.isNaN && q.isNaN) { return true }
        case (.array(let p), .array(let q)), (.set(let p), .set(let q)):
            return lists(p, q, ordered: true, path: path)
        default:
            if x == y { return true }
        }
        failure = "\(path): \(x) ≠ \(y)"
        return false
    }

    mutating func lists(_ p: [PlistValue], _ q: [PlistValue], ordered: Bool, path: String) -> Bool {
        guard p.count == q.count else {
            failure = "\(path): \(p.count) elements against \(q.count)"
            return false
        }
        if ordered {
            for i in p.indices where !equivalent(p[i], q[i], path: "\(path).\(i)") { return false }
            return true
        }
        // Unordered: pair each element with an equivalent unpaired one (a failed trial leaves the
        // identity pairing as it was).
        var used = Array(repeating: false, count: q.count)
        outer: for i in p.indices {
            for j in q.indices where !used[j] {
                let saved = (forward, backward)
                if equivalent(p[i], q[j], path: "\(path).\(i)") {
                    used[j] = true
                    continue outer
                }
                (forward, backward) = saved
            }
            failure = "\(path): element \(i) has no equivalent"
            return false
        }
        return true
    }

    /// An ordered set's elements: `NS.objects`, or Apple's `NS.object.0`, `NS.object.1`, ….
    mutating func elements(_ side: Side, _ d: PlistDictionary) -> [PlistValue] {
        if d["NS.objects"] != nil { return refs(side, d, "NS.objects") }
        var out: [PlistValue] = []
        while let v = d["NS.object.\(out.count)"] { out.append(v) }
        return out
    }

    func numbers(_ s: String) -> [Double] {
        s.split(whereSeparator: { !"0123456789.-+eE".contains($0) }).compactMap { Double(String($0)) }
    }

    mutating func refs(_ side: Side, _ d: PlistDictionary, _ key: String) -> [PlistValue] {
        guard let v = d[key], case .array(let list) = side.resolve(v).0 else { return [] }
        return list
    }

    mutating func objects(_ dx: PlistDictionary, _ dy: PlistDictionary, _ ux: Int?, _ uy: Int?, path: String) -> Bool {
        guard let cx = a.className(dx), let cy = b.className(dy) else {
            failure = "\(path): an object without $class"
            return false
        }
        let kx = Self.valueKind(cx.name)
        let ky = Self.valueKind(cy.name)
        guard kx == ky else {
            failure = "\(path): \(cx.name) against \(cy.name)"
            return false
        }
        switch kx {
        case "array":
            return lists(refs(a, dx, "NS.objects"), refs(b, dy, "NS.objects"), ordered: true, path: path)
        case "orderedSet":
            return lists(elements(a, dx), elements(b, dy), ordered: true, path: path)
        case "set":
            return lists(refs(a, dx, "NS.objects"), refs(b, dy, "NS.objects"), ordered: false, path: path)
        case "dictionary":
            let (ka, va) = (refs(a, dx, "NS.keys"), refs(a, dx, "NS.objects"))
            let (kb, vb) = (refs(b, dy, "NS.keys"), refs(b, dy, "NS.objects"))
            guard ka.count == kb.count, va.count == ka.count, vb.count == kb.count else {
                failure = "\(path): dictionaries of different sizes"
                return false
            }
            var used = Array(repeating: false, count: kb.count)
            outer: for i in ka.indices {
                for j in kb.indices where !used[j] {
                    let saved = (forward, backward)
                    if equivalent(ka[i], kb[j], path: "\(path).key\(i)") {
                        guard equivalent(va[i], vb[j], path: "\(path).value\(i)") else { return false }
                        used[j] = true
                        continue outer
                    }
                    (forward, backward) = saved
                }
                failure = "\(path): key \(i) has no equivalent"
                return false
            }
            return true
        case "uuid":
            return equivalent(dx["NS.uuidbytes"] ?? .null, dy["NS.uuidbytes"] ?? .null, path: path + ".uuid")
        case "url":
            // A URL decoded and written again may spell an empty base as $null: compare what the two
            // resolve to, by their fields.
            return equivalent(dx["NS.base"] ?? .uid(0), dy["NS.base"] ?? .uid(0), path: path + ".base")
                && equivalent(dx["NS.relative"] ?? .null, dy["NS.relative"] ?? .null, path: path + ".relative")
        default:
            break
        }
        guard cx.name == cy.name, cx.chain == cy.chain else {
            failure = "\(path): class \(cx.name) \(cx.chain) against \(cy.name) \(cy.chain)"
            return false
        }
        if let ux, let uy, !Self.typedValueClasses.contains(cx.name) {
            if let paired = forward[ux] {
                if paired == uy { return true }
                failure = "\(path): UID \(ux) was paired with \(paired), now with \(uy) (sharing lost)"
                return false
            }
            if let paired = backward[uy] {
                failure = "\(path): UID \(uy) stands for \(paired) and \(ux) (objects merged)"
                return false
            }
            forward[ux] = uy
            backward[uy] = ux
        }
        let fx = dx.filter { $0.key != .string("$class") }
        let fy = dy.filter { $0.key != .string("$class") }
        guard Set(fx.map(\.key)) == Set(fy.map(\.key)) else {
            failure = "\(path): \(cx.name) fields \(fx.map(\.key)) against \(fy.map(\.key))"
            return false
        }
        for (k, v) in fx {
            guard let w = dy[k] else { return false }
            if let key = k.stringValue, Self.geometryTextKeys.contains(key),
                let p = a.resolve(v).0.stringValue, let q = b.resolve(w).0.stringValue
            {
                guard numbers(p) == numbers(q) else {
                    failure = "\(path).\(key): \(p) ≠ \(q)"
                    return false
                }
                continue
            }
            guard equivalent(v, w, path: "\(path).\(k)") else { return false }
        }
        return true
    }
}
