// fuzz/Sources/FuzzDifferentialArchive/FuzzDifferentialArchive.swift - libFuzzer entry point: our
// keyed unarchiver and Codable decoder against Foundation's, in process, on the same bytes.
//
// Choice bits (byte 1, bits 6-7, see FuzzCommon/FuzzInput.swift):
//   0, 1  keyed archive: `KeyedUnarchiver(forReadingFrom:).decodeTopLevelObject()` (any class, read as
//         `AnyArchived`) against `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` with an
//         allow-list of Foundation's value classes (`allowList`)
//   2     Codable: `PlistDecoder().decode(DiffModel.self, from:)` against `PropertyListDecoder`
//   3     Codable, a root array: `[DiffModel]`
// The configuration's limits and options are not used: both readers get the defaults, except that
// ours reads archives with a node budget (`nodeBudget`) so that an expanding graph is not asked of
// Foundation (below).
//
// Oracle: `classify` sorts every input into a `Verdict`: both read equal values, both refuse, or a
// disagreement of a named class (a decision of ours, a known Foundation defect); an unnamed
// disagreement stops the process with its hex, and libFuzzer keeps the input. See fuzz/README.md
// ("FuzzDifferentialArchive") for the classes and why each is tolerated.
//
// Environment: FUZZ_DIFF_DISCOVER=1 prints unnamed disagreements instead of stopping;
// FUZZ_DIFF_STATS=1 prints the count of every verdict at exit.

import Foundation
import FuzzCommon
#if canImport(Glibc)
    import Glibc
#endif
import KeyedArchive
import PropertyList

// MARK: - One tree for both sides

/// A decoded archive value, from either side, in the terms both share.
indirect enum Node {
    /// `$null`, or an absent root.
    case absent
    case nsNull
    case bool(Bool)
    case integer(PlistInteger)
    case real(UInt64)
    case date(Double)
    case data(Data)
    case string(String)
    case url(String)
    case uuid(UUID)
    case array([Node])
    case set([Node])
    case dictionary([(key: Node, value: Node)])
    /// A value of a class outside the allow-list (ours reads any class): its name.
    case outside(String)
    /// A type the converter does not know: its name.
    case unknown(String)

    /// A canonical text: equal trees give equal texts (sets and dictionaries sorted).
    var canonical: String {
        switch self {
        case .absent: return "nil"
        case .nsNull: return "NSNull"
        case .bool(let b): return "bool(\(b))"
        case .integer(let i): return "int(\(i))"
        case .real(let bits): return "real(0x\(String(bits, radix: 16)))"
        case .date(let d): return "date(\(d))"
        case .data(let d): return "data(\(d.map { String($0, radix: 16) }.joined(separator: ".")))"
        // By Unicode scalars: `String ==` equates canonically equivalent text.
        case .string(let s): return "str(\(s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")))"
        case .url(let u): return "url(\(u.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")))"
        case .uuid(let u): return "uuid(\(u.uuidString))"
        case .array(let a): return "[" + a.map(\.canonical).joined(separator: ",") + "]"
        case .set(let a): return "set[" + a.map(\.canonical).sorted().joined(separator: ",") + "]"
        case .dictionary(let d):
            return "{" + d.map { "\($0.key.canonical):\($0.value.canonical)" }.sorted().joined(separator: ",") + "}"
        case .outside(let name): return "outside(\(name))"
        case .unknown(let name): return "unknown(\(name))"
        }
    }

    /// The tree without the `.absent` members of its arrays.
    var withoutNullMembers: Node {
        switch self {
        case .array(let a):
            return .array(a.compactMap { if case .absent = $0 { nil } else { $0.withoutNullMembers } })
        case .set(let a): return .set(a.map(\.withoutNullMembers))
        case .dictionary(let d): return .dictionary(d.map { ($0.key.withoutNullMembers, $0.value.withoutNullMembers) })
        default: return self
        }
    }

    /// Whether any node satisfies `test`.
    func holds(_ test: (Node) -> Bool) -> Bool {
        if test(self) { return true }
        switch self {
        case .array(let a), .set(let a): return a.contains { $0.holds(test) }
        case .dictionary(let d): return d.contains { $0.key.holds(test) || $0.value.holds(test) }
        default: return false
        }
    }
}

/// The node budget of a conversion: shared sub-graphs expand, so a small archive can describe a huge
/// tree. Past it the tree is not compared.
let nodeBudget = 20_000

struct OverBudget: Error {}

/// Converts our value, spending `budget`.
func node(_ v: AnyArchived, budget: inout Int) throws(OverBudget) -> Node {
    budget -= 1
    guard budget > 0 else { throw OverBudget() }
    switch v {
    case .null: return .absent
    case .nsNull: return .nsNull
    case .bool(let b): return .bool(b)
    case .integer(let i): return .integer(PlistInteger(i))
    case .real(let d): return .real(d.bitPattern)
    case .date(let d): return .date(d.timeIntervalSinceReferenceDate)
    case .data(let d): return .data(d)
    case .string(let s): return .string(s)
    case .url(let u): return .url(u.absoluteString)
    case .uuid(let u): return .uuid(u)
    case .array(let a):
        var out: [Node] = []
        for e in a { out.append(try node(e, budget: &budget)) }
        return .array(out)
    case .set(let s):
        var out: [Node] = []
        for e in s { out.append(try node(e, budget: &budget)) }
        return .set(out)
    case .dictionary(let d):
        var out: [(key: Node, value: Node)] = []
        for (k, e) in d { out.append((try node(k, budget: &budget), try node(e, budget: &budget))) }
        return .dictionary(out)
    case .object(let instance): return .outside(instance.className)
    default:
        // A typed Apple class outside the allow-list (attributed string, colour, geometry, …).
        let name = "\(v)".prefix(40)
        return .outside(String(name))
    }
}

/// Converts Foundation's result, spending `budget`.
func node(foundation any: Any, budget: inout Int) throws(OverBudget) -> Node {
    budget -= 1
    guard budget > 0 else { throw OverBudget() }
    switch any {
    case is NSNull: return .nsNull
    case let u as UUID: return .uuid(u)
    case let u as NSUUID: return .uuid(u as UUID)
    case let u as URL: return .url(u.absoluteString)
    case let u as NSURL: return .url((u as URL).absoluteString)
    case let s as String: return .string(s)
    case let d as Data: return .data(d)
    case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
    case let n as NSNumber: return number(n)
    case let a as [Any]:
        var out: [Node] = []
        for e in a { out.append(try node(foundation: e, budget: &budget)) }
        return .array(out)
    case let s as NSSet:
        var out: [Node] = []
        for e in s.allObjects { out.append(try node(foundation: e, budget: &budget)) }
        return .set(out)
    case let d as NSDictionary:
        var out: [(key: Node, value: Node)] = []
        for (k, e) in d { out.append((try node(foundation: k, budget: &budget), try node(foundation: e, budget: &budget))) }
        return .dictionary(out)
    default:
        let mirror = Mirror(reflecting: any)
        if mirror.displayStyle == .optional {
            guard let inner = mirror.children.first?.value else { return .absent }
            return try node(foundation: inner, budget: &budget)
        }
        return .unknown(String(describing: type(of: any)))
    }
}

/// A Foundation number: CoreFoundation's booleans are `__NSCFBoolean` (`c`), reals `d`/`f`.
func number(_ n: NSNumber) -> Node {
    let typeName = String(describing: type(of: n))
    let code = String(cString: n.objCType)
    if typeName.contains("Boolean") || typeName.contains("Bool") || code == "B" || code == "c" {
        return .bool(n.boolValue)
    }
    switch code {
    case "d", "f": return .real(n.doubleValue.bitPattern)
    case "Q", "L", "I", "S", "C": return .integer(PlistInteger(n.uint64Value))
    default: return .integer(PlistInteger(n.int64Value))
    }
}

// MARK: - Keyed archives

/// The classes Foundation is allowed to decode: its property-list value classes, `NSNull`, `NSURL`
/// and `NSUUID` — what a secure reader of plain archived values allows.
let allowList: [AnyClass] = [
    NSArray.self, NSMutableArray.self, NSDictionary.self, NSMutableDictionary.self, NSSet.self,
    NSMutableSet.self, NSString.self, NSMutableString.self, NSNumber.self, NSData.self, NSMutableData.self,
    NSDate.self, NSNull.self, NSURL.self, NSUUID.self,
]

/// What each side made of an input.
enum Outcome {
    case value(Node)
    case refused(String)
    case overBudget
}

func oursArchive(_ payload: Data) -> (Outcome, KeyedArchiveError?) {
    var limits = KeyedArchiveLimits()
    limits.maxValues = nodeBudget
    do {
        let root = try KeyedUnarchiver(forReadingFrom: payload, limits: limits).decodeTopLevelObject()
        var budget = nodeBudget
        guard let root else { return (.value(.absent), nil) }
        return (.value(try node(root, budget: &budget)), nil)
    } catch let error as KeyedArchiveError {
        if error.code == .limitExceeded { return (.overBudget, error) }
        return (.refused("\(error)"), error)
    } catch is OverBudget {
        return (.overBudget, nil)
    } catch {
        return (.refused("untyped error: \(error)"), nil)
    }
}

/// What Foundation made of an input, as text (its tree's canonical text, or why it refused).
enum Theirs {
    case value(String)
    case refused(String)
    case overBudget
    /// Foundation's process died (a trap or a signal) or ran past `foundationSeconds`.
    case trapped(String)
}

/// How long Foundation may take on one input.
let foundationSeconds: UInt32 = 5

/// Runs `body` (Foundation's side) in a child process, so that a trap of Foundation ends the child,
/// not the fuzzer: the prechecks (`foundationHazard`, `rawFoundationTrap`) keep the known traps
/// away, and any other is a `Theirs.trapped` that the run counts and logs (FUZZ_DIFF_DISCOVER).
func inChild(_ body: () -> Theirs) -> Theirs {
    guard isolates else { return body() }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return body() }
    let pid = fork()
    if pid == 0 {
        close(fds[0])
        // The default actions, not libFuzzer's (or ASan's) handlers, which would report the child's
        // trap as a finding of the fuzzer and write its input as an artifact.
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP, SIGALRM, SIGINT, SIGTERM] {
            signal(sig, SIG_DFL)
        }
        alarm(foundationSeconds)
        let text: String
        switch body() {
        case .value(let v): text = "V" + v
        case .refused(let why): text = "R" + why
        case .overBudget: text = "O"
        case .trapped(let why): text = "T" + why
        }
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fds[1], $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { break }
            done += n
        }
        _exit(0)
    }
    close(fds[1])
    guard pid > 0 else {
        close(fds[0])
        return body()
    }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    close(fds[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7F
    guard signal == 0, (status >> 8) & 0xFF == 0, let first = out.first else {
        return .trapped(signal == SIGALRM ? "ran past \(foundationSeconds) s" : "signal \(signal), status \(status >> 8 & 0xFF)")
    }
    let rest = String(decoding: out.dropFirst(), as: UTF8.self)
    switch first {
    case UInt8(ascii: "V"): return .value(rest)
    case UInt8(ascii: "R"): return .refused(rest)
    case UInt8(ascii: "O"): return .overBudget
    default: return .trapped(rest)
    }
}

func theirsArchive(_ payload: Data) -> Theirs {
    do {
        // What `unarchivedObject(ofClasses:from:)` does, with the unarchiver's error at hand (the
        // policy `.raiseException` would make every decoding error a `fatalError` on Linux).
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: payload)
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.requiresSecureCoding = true
        let root = unarchiver.decodeObject(of: allowList, forKey: NSKeyedArchiveRootObjectKey)
        if let error = unarchiver.error { return .refused("\(error)") }
        var budget = nodeBudget
        guard let root else { return .value(Node.absent.canonical) }
        return .value(try node(foundation: root, budget: &budget).canonical)
    } catch is OverBudget {
        return .overBudget
    } catch {
        return .refused("\(error)")
    }
}

/// The names of the allow-list's classes, as archives spell them.
let allowListNames: Set<String> = Set(allowList.map { NSStringFromClass($0) })

/// Whether `cls` is `allowed` or a subclass of it (as Foundation's `_classIsKindOfClass`).
func isKind(_ cls: AnyClass, of allowed: AnyClass) -> Bool {
    var current: AnyClass? = cls
    while let c = current {
        if c == allowed { return true }
        current = _getSuperclass(c)
    }
    return false
}

/// What would trap Foundation in this archive, so that it is not asked (see fuzz/README.md):
/// a class dictionary naming a class Foundation does not have, or a `$class` reference to
/// anything but a class dictionary (it unwraps the missing class in both cases), or
/// one it has that the allow-list does not cover (its secure decoding calls `fatalError`, "Value
/// was of unexpected class", instead of failing), or a
/// reference cycle reachable from the root (it decodes an object's contents before it caches the
/// object, so a cycle recurses until the stack overflows). Read raw, without our checks.
func foundationHazard(_ payload: Data) -> Known? {
    guard case .dictionary(let top)? = try? PlistValue.decode(from: payload).value,
        case .array(let objects)? = top["$objects"]
    else { return nil }
    for object in objects {
        guard case .dictionary(let d) = object else { continue }
        if case .uid(let u)? = d["$class"] {
            guard u < UInt64(objects.count), case .dictionary = objects[Int(u)] else {
                return .foundationTrapsOnMissingClass
            }
        }
        if case .array(let keys)? = d["NS.keys"], case .array(let values)? = d["NS.objects"] {
            func isNull(_ v: PlistValue) -> Bool {
                guard case .uid(let u) = v, u < UInt64(objects.count) else { return false }
                return objects[Int(u)].stringValue == "$null"
            }
            if keys.count != values.count || keys.contains(where: isNull) || values.contains(where: isNull) {
                return .foundationBrokenDictionary
            }
        }
        var names: [String] = []
        if let name = d["$classname"]?.stringValue { names.append(name) }
        if case .array(let hints)? = d["$classhints"] { names += hints.compactMap(\.stringValue) }
        for name in names where !allowListNames.contains(name) {
            guard let cls = NSClassFromString(name) else { return .foundationTrapsOnMissingClass }
            if !allowList.contains(where: { isKind(cls, of: $0) }) { return .foundationTrapsOnDisallowedClass }
        }
    }
    // Cycles: a depth-first walk over the UIDs each object holds (at any depth of its value).
    guard case .dictionary(let topKeys)? = top["$top"], case .uid(let root)? = topKeys["root"] else { return nil }
    var state = [UInt8](repeating: 0, count: objects.count)  // 0 new, 1 on the path, 2 done
    func uids(_ v: PlistValue, into out: inout [Int]) {
        switch v {
        case .uid(let u): if u < UInt64(objects.count) { out.append(Int(u)) }
        case .array(let a), .set(let a): for e in a { uids(e, into: &out) }
        case .dictionary(let d): for (k, e) in d.entries where k.stringValue != "$class" { uids(e, into: &out) }
        default: break
        }
    }
    guard root < UInt64(objects.count) else { return nil }
    var stack: [(node: Int, children: [Int], next: Int)] = []
    func push(_ n: Int) {
        var children: [Int] = []
        uids(objects[n], into: &children)
        state[n] = 1
        stack.append((n, children, 0))
    }
    push(Int(root))
    while let last = stack.last {
        if last.next == last.children.count {
            state[last.node] = 2
            stack.removeLast()
            continue
        }
        let child = last.children[last.next]
        stack[stack.count - 1].next += 1
        switch state[child] {
        case 1: return .foundationRecursesOnCycle
        case 0: push(child)
        default: break
        }
    }
    return nil
}

/// The archive's `$top` dictionary, read raw.
func rawTop(_ payload: Data) -> (top: PlistDictionary, objects: [PlistValue])? {
    guard case .dictionary(let archive)? = try? PlistValue.decode(from: payload).value,
        case .dictionary(let top)? = archive["$top"]
    else { return nil }
    if case .array(let objects)? = archive["$objects"] { return (top, objects) }
    return (top, [])
}

func topHasRoot(_ payload: Data) -> Bool { rawTop(payload)?.top["root"] != nil }

/// Whether an object's `NS.data` is a UID (a reference to the bytes, not the bytes).
func holdsDataByReference(_ payload: Data) -> Bool {
    guard let objects = rawTop(payload)?.objects else { return false }
    return objects.contains { if case .dictionary(let d) = $0, case .uid? = d["NS.data"] { true } else { false } }
}

/// The underlying error of a `DecodingError`, if any.
func underlyingError(_ error: DecodingError) -> Error? {
    switch error {
    case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
        return c.underlyingError
    @unknown default:
        return nil
    }
}

// MARK: - Codable

indirect enum DiffShape: Codable, Equatable {
    case point
    case circle(radius: Double)
    case labelled(String, points: [Int])
    case nested(DiffShape?)
}

/// A recursive model of the kinds both coders read (FuzzCodable's model without `PlistUID` and
/// `Int128`, which are ours only); every field optional but the name, so that input decodes often.
struct DiffModel: Codable {
    var name: String
    var count: Int?
    var small: UInt8?
    var ratio: Double?
    var single: Float?
    var flag: Bool?
    var when: Date?
    var blob: Data?
    var tags: [String]?
    var numbers: [Int]?
    var scores: [String: Int]?
    var byNumber: [Int: String]?
    var maybe: [String?]?
    var shape: DiffShape?
    var children: [DiffModel]?

    /// A canonical text (reals by bit pattern, strings by scalars, dictionaries sorted), bounded.
    func canonical(depth: Int = 0) -> String {
        func s(_ x: String?) -> String { x.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".") } ?? "-" }
        func o<T>(_ x: T?) -> String { x.map { "\($0)" } ?? "-" }
        var parts = [s(name), o(count), o(small), o(ratio?.bitPattern), o(single?.bitPattern), o(flag)]
        parts.append(o(when?.timeIntervalSinceReferenceDate.bitPattern))
        parts.append(o(blob.map { Array($0) }))
        parts.append(tags.map { $0.map(s).joined(separator: ",") } ?? "-")
        parts.append(o(numbers))
        parts.append(scores.map { $0.map { "\(s($0.key))=\($0.value)" }.sorted().joined(separator: ",") } ?? "-")
        parts.append(byNumber.map { $0.map { "\($0.key)=\(s($0.value))" }.sorted().joined(separator: ",") } ?? "-")
        parts.append(maybe.map { $0.map { s($0) }.joined(separator: ",") } ?? "-")
        parts.append(shape.map { shapeText($0) } ?? "-")
        if depth < 200 {
            parts.append(children.map { "[" + $0.map { $0.canonical(depth: depth + 1) }.joined(separator: ";") + "]" } ?? "-")
        }
        return "(" + parts.joined(separator: "|") + ")"
    }
}

func shapeText(_ shape: DiffShape) -> String {
    switch shape {
    case .point: return "point"
    case .circle(let r): return "circle(\(String(r.bitPattern, radix: 16)))"
    case .labelled(let t, let p): return "labelled(\(t.unicodeScalars.map { $0.value }),\(p))"
    case .nested(let inner): return "nested(\(inner.map(shapeText) ?? "-"))"
    }
}

/// A decoded model (or root array of models), as canonical text, or why it was refused.
enum CodableOutcome {
    case value(String)
    case refused(String, Error)
}

func decodeCodable(_ payload: Data, array: Bool, ours: Bool) -> CodableOutcome {
    do {
        if array {
            let models =
                ours
                ? try PlistDecoder().decode([DiffModel].self, from: payload)
                : try PropertyListDecoder().decode([DiffModel].self, from: payload)
            return .value(models.map { $0.canonical() }.joined(separator: ";"))
        }
        let model =
            ours
            ? try PlistDecoder().decode(DiffModel.self, from: payload)
            : try PropertyListDecoder().decode(DiffModel.self, from: payload)
        return .value(model.canonical())
    } catch {
        return .refused("\(error)".prefix(300).description, error)
    }
}

// MARK: - Classification

enum Verdict: Hashable, CustomStringConvertible {
    case equal
    case bothRefuse
    /// Ours refused over the node budget (an expanding graph): Foundation not asked.
    case skippedExpansion
    /// Ours read a class outside the allow-list; Foundation's secure decoding refused it.
    case outsideAllowList
    case known(Known)
    /// Foundation's child process died or hung (a Foundation defect the prechecks do not name).
    case foundationTrapped(String)
    case unknown(String)

    var description: String {
        switch self {
        case .foundationTrapped: "foundationTrapped"
        case .equal: "equal"
        case .bothRefuse: "bothRefuse"
        case .skippedExpansion: "skippedExpansion"
        case .outsideAllowList: "outsideAllowList"
        case .known(let k): k.rawValue
        case .unknown: "unknown"
        }
    }
}

/// Named disagreements (fuzz/README.md, "FuzzDifferentialArchive").
enum Known: String, CaseIterable {
    /// Foundation defect (not asked): the property list under the archive holds a non-empty set or
    /// a dictionary with a UID key, which trap Foundation's reader (FuzzDifferential's
    /// `foundationCrashesOnSet`, `foundationCrashesOnUIDKey`).
    case foundationCrashesOnPropertyList
    /// Foundation defect (not asked): secure decoding traps on a class outside the allow-list.
    case foundationTrapsOnDisallowedClass
    /// Foundation defect (not asked): a class it cannot resolve (an unknown name, or a `$class`
    /// reference to something other than a class dictionary) traps it (a force unwrap).
    case foundationTrapsOnMissingClass
    /// Foundation defect (not asked): a reference cycle recurses until the stack overflows.
    case foundationRecursesOnCycle
    /// Foundation defect (not asked): `NS.keys` and `NS.objects` of different lengths (or holding
    /// `$null`, which it skips) make an `NSDictionary` that traps when it is iterated.
    case foundationBrokenDictionary
    /// Decision: a field holding a value inline where an object reference is expected is read as
    /// that value (as Apple's `decodeObject(forKey:)` returns an inline number); Foundation on Linux
    /// refuses ("is not a reference").
    case inlineValueAsObject
    /// Decision: `$null` members of an array are kept as `.null` (positions intact); Foundation's
    /// `NSArray` drops them.
    case nullMembersKept
    /// Decision: an archive without the top-level key `root` unarchives as `nil`, as
    /// `decodeTopLevelObject(forKey:)` does on Apple platforms for an absent key; Foundation on
    /// Linux fails ("No value found for key root").
    case absentRootIsNil
    /// Decision: `NS.data` (the bytes of `NSData`/`NSMutableData`) behind a UID reference is read
    /// through it, as every other field; Foundation on Linux reads inline bytes only.
    case dataByReference
    /// Decision: `NSCountedSet` is read as a generic instance (its members and their counts);
    /// Foundation's allow-list admits it as a subclass of `NSSet` and reads a set.
    case countedSetAsInstance
    /// Decision (not asked): `PlistDecoder` counts every value it decodes against
    /// `PlistLimits.maxValues`, so shared sub-trees that expand past it are `limitExceeded`;
    /// Foundation decodes them all, in time exponential in the input's size.
    case codableValueBudget
}

func classify(_ payload: Data, mode: Int) -> Verdict {
    switch mode {
    case 0, 1: return classifyArchive(payload)
    default: return classifyCodable(payload, array: mode == 3)
    }
}

func classifyArchive(_ payload: Data) -> Verdict {
    let (ours, error) = oursArchive(payload)
    if case .overBudget = ours { return .skippedExpansion }
    // Foundation reads the whole property list and bridges it to Swift first, expanding shared
    // sub-trees (a 32-level DAG of 200 bytes never ends): not asked.
    if binaryExpansion(payload, cap: nodeBudget) >= nodeBudget { return .skippedExpansion }
    if !asksAll, rawFoundationTrap(payload) != nil { return .known(.foundationCrashesOnPropertyList) }
    if !asksAll, let hazard = foundationHazard(payload) { return .known(hazard) }
    let theirs = inChild { theirsArchive(payload) }
    if case .trapped(let how) = theirs { return .foundationTrapped(how) }
    switch (ours, theirs) {
    case (.refused, .refused): return .bothRefuse
    case (.value(let a), .value(let b)):
        if a.canonical == b { return .equal }
        if a.holds({ if case .outside("NSCountedSet") = $0 { true } else { false } }) {
            return .known(.countedSetAsInstance)
        }
        if a.withoutNullMembers.canonical == b { return .known(.nullMembersKept) }
        return .unknown("both read, differently: ours \(a.canonical.prefix(200)) | Foundation \(b.prefix(200))")
    case (.value(let a), .refused(let why)):
        if a.holds({ if case .outside = $0 { return true } else { return false } }) { return .outsideAllowList }
        if case .absent = a, why.contains("No value found for key"), !topHasRoot(payload) {
            return .known(.absentRootIsNil)
        }
        if why.contains("Data failed to decode"), holdsDataByReference(payload) { return .known(.dataByReference) }
        if why.contains("is not a reference") { return .known(.inlineValueAsObject) }
        return .unknown("ours read \(a.canonical.prefix(200)) | Foundation refused: \(why.prefix(200))")
    case (.refused(let why), .value(let b)):
        _ = error
        return .unknown("ours refused: \(why.prefix(200)) | Foundation read \(b.prefix(200))")
    case (_, .overBudget):
        return .skippedExpansion
    default:
        return .unknown("unexpected pair")
    }
}

func classifyCodable(_ payload: Data, array: Bool) -> Verdict {
    let ours = decodeCodable(payload, array: array, ours: true)
    if case .refused(_, let error) = ours,
        let underlying = (error as? DecodingError).flatMap(underlyingError) as? PlistError,
        underlying.code == .limitExceeded
    {
        // Not asked: Foundation would decode every expanded value (2^20 models from 271 bytes take
        // it seconds).
        return .known(.codableValueBudget)
    }
    if binaryExpansion(payload, cap: nodeBudget * 50) >= nodeBudget * 50 { return .skippedExpansion }
    if !asksAll, rawFoundationTrap(payload) != nil { return .known(.foundationCrashesOnPropertyList) }
    let theirs = inChild { () -> Theirs in
        switch decodeCodable(payload, array: array, ours: false) {
        case .value(let v): .value(v)
        case .refused(let why, _): .refused(why)
        }
    }
    switch (ours, theirs) {
    case (_, .trapped(let how)): return .foundationTrapped(how)
    case (_, .overBudget): return .skippedExpansion
    case (.refused, .refused): return .bothRefuse
    case (.value(let a), .value(let b)):
        if a == b { return .equal }
        return .unknown("Codable, both decoded, differently: ours \(a.prefix(200)) | Foundation \(b.prefix(200))")
    case (.value(let a), .refused(let why)):
        return .unknown("Codable: ours decoded \(a.prefix(200)) | Foundation refused: \(why)")
    case (.refused(let why, _), .value(let b)):
        return .unknown("Codable: ours refused: \(why) | Foundation decoded \(b.prefix(200))")
    }
}

// MARK: - Entry point

nonisolated(unsafe) var tally: [String: Int] = [:]
nonisolated(unsafe) var statsRegistered = false
let discovering = ProcessInfo.processInfo.environment["FUZZ_DIFF_DISCOVER"] == "1"
let printsStats = ProcessInfo.processInfo.environment["FUZZ_DIFF_STATS"] == "1"
/// FUZZ_DIFF_NO_FORK=1: ask Foundation in this process (a trap then ends the run: to replay one).
let isolates = ProcessInfo.processInfo.environment["FUZZ_DIFF_NO_FORK"] != "1"
/// FUZZ_DIFF_ASK_ALL=1: ask Foundation even what traps it (to replay the defects' reproducers).
let asksAll = ProcessInfo.processInfo.environment["FUZZ_DIFF_ASK_ALL"] == "1"

func printTally() {
    var lines = ["FuzzDifferentialArchive verdicts:"]
    for (k, n) in tally.sorted(by: { $0.value > $1.value }) { lines.append("  \(n)\t\(k)") }
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let verdict = classify(input.payload, mode: input.config.choice)
    if printsStats, !statsRegistered {
        statsRegistered = true
        atexit { printTally() }
    }
    let key = (input.config.choice < 2 ? "archive " : "codable ") + verdict.description
    if discovering, case .foundationTrapped(let how) = verdict {
        let hex = hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0)))
        FileHandle.standardError.write(Data("TRAP Foundation: \(how) | hex \(hex)\n".utf8))
    }
    if case .unknown(let what) = verdict {
        let hex = hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0)))
        if discovering {
            FileHandle.standardError.write(Data("DIFF \(what.prefix(400)) | hex \(hex)\n".utf8))
            tally[key, default: 0] += 1
            return 0
        }
        fatalError("fuzz oracle failed: unclassified disagreement with Foundation: \(what)\ninput hex: \(hex)")
    }
    if printsStats { tally[key, default: 0] += 1 }
    return 0
}
