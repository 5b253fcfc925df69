// fuzz/Sources/FuzzCommon/LazyWalk.swift - Visits every object of a document through the lazy API.
//
// The walk touches every object of the offset table (not only those reachable from the root), every
// reference of every container, every string and data payload, and compares each scalar with what
// the materialiser builds for the same object: the two readers must agree on value or error.

import Foundation
import PropertyList

/// Largest number of container references the lazy walk follows per input. Objects may share bytes
/// (the format has no overlap check), so `objects × references` can be quadratic in the input.
public let lazyReferenceBudget = 1 << 14

/// Most scalars per input compared with the materialiser (each comparison allocates per-document
/// memo tables, so comparing all of a large table would be quadratic). Larger tables are sampled.
public let scalarComparisonBudget = 64

/// Walks every object of `doc` lazily and checks lazy/materialised agreement for scalars.
public func walkLazily(_ doc: BinaryPlistDocument) {
    var budget = lazyReferenceBudget
    let n = doc.objectCount
    // Out-of-range references are a typed error, never a trap.
    for bad in [-1, n, Int.max] {
        expectCode(.badReference, "object(\(bad))") { () throws(PlistError) in
            _ = try doc.object(ObjectRef(bad))
        }
        expectCode(.badReference, "string(\(bad))") { () throws(PlistError) in
            _ = try doc.string(ObjectRef(bad))
        }
        expectCode(.badReference, "value(of: \(bad))") { () throws(PlistError) in
            _ = try doc.value(of: ObjectRef(bad))
        }
    }
    for i in 0..<n {
        let ref = ObjectRef(i)
        let object: PlistObject
        do {
            object = try doc.object(ref)
        } catch {
            checkError(error, inputCount: doc.data.count)
            guard n <= scalarComparisonBudget || i % (n / scalarComparisonBudget + 1) == 0 else { continue }
            // The materialiser reads the same marker: it must fail too.
            expectFailure("value(of: \(i)) after object() failed with \(error.code)") {
                () throws(PlistError) in _ = try doc.value(of: ref)
            }
            continue
        }
        switch object {
        case .array(let refs), .set(let refs):
            visit(refs, doc, &budget)
        case .dictionary(let keys, let values):
            require(keys.count == values.count, "dictionary with \(keys.count) keys and \(values.count) values")
            visit(keys, doc, &budget)
            visit(values, doc, &budget)
        default:
            if n <= scalarComparisonBudget || i % (n / scalarComparisonBudget + 1) == 0 {
                compareScalar(object, ref, doc)
            }
        }
    }
}

/// Follows each reference of a list: in range it names an object (which may fail to decode), out of
/// range it is `badReference`.
private func visit(_ refs: ReferenceList, _ doc: BinaryPlistDocument, _ budget: inout Int) {
    require(refs.count >= 0, "negative reference count")
    for position in refs.indices {
        guard budget > 0 else { return }
        budget -= 1
        let r = refs[position]
        do {
            _ = try doc.object(r)
            require(r.index >= 0 && r.index < doc.objectCount, "object(\(r)) succeeded out of range")
        } catch {
            if r.index < 0 || r.index >= doc.objectCount {
                require(error.code == .badReference, "out-of-range \(r) gave \(error)")
            }
        }
    }
}

/// The lazy accessors and the materialiser must agree on every scalar object.
private func compareScalar(_ object: PlistObject, _ ref: ObjectRef, _ doc: BinaryPlistDocument) {
    let materialised = Result { () throws(PlistError) in try doc.value(of: ref) }
    if case .failure(let e) = materialised { checkError(e, inputCount: doc.data.count) }
    func expect(_ v: PlistValue) {
        guard case .success(let m) = materialised else {
            require(false, "object \(ref) is \(object) lazily but value(of:) failed: \(materialised)")
            return
        }
        require(m == v, "object \(ref): lazy \(v) vs materialised \(m)")
    }
    switch object {
    case .null: expect(.null)
    case .fill:
        guard case .failure(let e) = materialised else {
            require(false, "fill byte \(ref) materialised as a value")
            return
        }
        require(e.code == .corrupted, "fill byte \(ref) gave \(e.code)")
    case .bool(let b): expect(.bool(b))
    case .integer(let i): expect(.integer(i))
    case .real(let d): expect(.real(d))
    case .date(let d): expect(.date(d))
    case .uid(let u):
        require(u <= doc.limits.maxUID, "UID \(u) over maxUID \(doc.limits.maxUID)")
        expect(.uid(u))
    case .data(let range):
        require(range.offset >= 8 && range.offset + range.count <= doc.trailer.offsetTableOffset, "data \(range)")
        let bytes = doc.bytes(range)
        require(bytes.count == range.count, "bytes(\(range)) gave \(bytes.count) bytes")
        let copy = Result { () throws(PlistError) in try doc.data(ref) }
        require((try? copy.get()) == bytes, "data(\(ref)) differs from bytes(range)")
        expect(.data(bytes))
    case .asciiString(let range), .utf16String(let range):
        require(range.offset >= 8 && range.offset + range.count <= doc.trailer.offsetTableOffset, "string \(range)")
        let s = Result { () throws(PlistError) in try doc.string(ref) }
        switch s {
        case .success(let text?):
            expect(.string(text))
            let same = Result { () throws(PlistError) in try doc.string(ref, equals: text) }
            require((try? same.get()) == true, "string(\(ref), equals: its own text) is \(same)")
            let other = Result { () throws(PlistError) in try doc.string(ref, equals: text + "\u{0}") }
            require((try? other.get()) == false, "string(\(ref), equals: text + NUL) is \(other)")
        case .success(nil):
            require(false, "string(\(ref)) is nil for a string object")
        case .failure(let e):
            require(e.code == .invalidString, "string(\(ref)) failed with \(e)")
            guard case .failure(let m) = materialised else {
                require(false, "string \(ref) fails lazily (\(e.code)) but materialises")
                return
            }
            require(m.code == e.code, "string \(ref): lazy \(e.code) vs materialised \(m.code)")
        }
    case .array, .set, .dictionary:
        break
    }
}

/// Runs `body`, which must throw `code`.
public func expectCode(
    _ code: PlistError.Code, _ what: @autoclosure () -> String, _ body: () throws(PlistError) -> Void
) {
    do {
        try body()
        require(false, "\(what()) succeeded; expected \(code)")
    } catch {
        require(error.code == code, "\(what()) threw \(error); expected \(code)")
    }
}

/// Runs `body`, which must throw.
public func expectFailure(_ what: @autoclosure () -> String, _ body: () throws(PlistError) -> Void) {
    do {
        try body()
        require(false, "\(what()) succeeded")
    } catch {}
}

/// Checks `ref(at:)` and `lookup` against the materialised tree `root` along a few paths.
///
/// `root` must be `doc.value()`.
public func checkKeyPaths(_ doc: BinaryPlistDocument, root: PlistValue, maxPaths: Int = 24) {
    var paths: [([String], PlistValue)] = [([], root)]
    var next = 0
    while next < paths.count, paths.count < maxPaths {
        let (path, value) = paths[next]
        next += 1
        guard path.count < 3 else { continue }
        switch value {
        case .array(let xs), .set(let xs):
            for (i, x) in xs.enumerated().prefix(4) { paths.append((path + [String(i)], x)) }
        case .dictionary(let d):
            for e in d.entries.prefix(6) {
                if case .string(let k) = e.key { paths.append((path + [k.string], e.value)) }
            }
        default: break
        }
    }
    for (path, expected) in paths.prefix(maxPaths) {
        let found = Result { () throws(PlistError) in try doc.ref(at: PlistKeyPath(keys: path)) }
        guard case .success(let r?) = found else {
            require(false, "ref(at: \(path)) is \(found) but the materialised tree has the path")
            return
        }
        let v = Result { () throws(PlistError) in try doc.value(of: r) }
        require((try? v.get()) == expected, "value at \(path) differs from the materialised tree")
        let joined = path.joined(separator: ".")
        // plutil's form escapes a dot with a backslash: only paths with neither are written plainly.
        if !path.contains(where: { $0.contains(".") || $0.contains("\\") }), !(joined.isEmpty && !path.isEmpty) {
            let viaString = Result { () throws(PlistError) in try doc.ref(at: PlistKeyPath(plutil: joined)) }
            require((try? viaString.get()) == r, "ref(at: \"\(joined)\") differs from ref(at: \(path))")
        }
    }
    // A key the root does not have finds nothing.
    let absent = "\u{1}absent\u{1}"
    if root[absent] == nil {
        let missing = Result { () throws(PlistError) in try doc.ref(at: PlistKeyPath(keys: [absent, "0"])) }
        require((try? missing.get()) == .some(nil), "ref(at: absent key) is \(missing)")
    }
}
