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
import KeyedArchive
import PropertyList

#if canImport(Glibc)
    import Glibc
#endif

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
        case .real(let bits):
            // Every NaN alike: NSNumber keeps no NaN payload.
            return Double(bitPattern: bits).isNaN ? "real(nan)" : "real(0x\(String(bits, radix: 16)))"
        case .date(let d): return "date(\(d))"
        case .data(let d): return "data(\(d.map { String($0, radix: 16) }.joined(separator: ".")))"
        // By Unicode scalars: `String ==` equates canonically equivalent text.
        case .string(let s):
            return "str(\(s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")))"
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

    /// The tree without the `.absent` members of its arrays and sets, and without dictionary entries
    /// whose key or value is `.absent`.
    var withoutNullMembers: Node {
        func absent(_ n: Node) -> Bool { if case .absent = n { true } else { false } }
        switch self {
        case .array(let a): return .array(a.filter { !absent($0) }.map(\.withoutNullMembers))
        case .set(let a): return .set(a.filter { !absent($0) }.map(\.withoutNullMembers))
        case .dictionary(let d):
            return .dictionary(
                d.filter { !absent($0.key) && !absent($0.value) }
                    .map { ($0.key.withoutNullMembers, $0.value.withoutNullMembers) })
        default: return self
        }
    }

    /// Whether a dictionary holds two keys `NSNumber` equates (`true` and `1`, `1` and `1.0`).
    var holdsNumericKeyCollision: Bool {
        switch self {
        case .array(let a), .set(let a): return a.contains { $0.holdsNumericKeyCollision }
        case .dictionary(let d):
            var seen: Set<Double> = []
            for (k, v) in d {
                if v.holdsNumericKeyCollision { return true }
                let number: Double?
                switch k {
                case .bool(let b): number = b ? 1 : 0
                case .integer(let i): number = Double(i.int128)
                case .real(let bits): number = Double(bitPattern: bits)
                default: number = nil
                }
                if let number, !seen.insert(number).inserted { return true }
            }
            return false
        default: return false
        }
    }

    /// The tree with every string `"$null"` read as `.absent`.
    var nullStringsAsAbsent: Node {
        switch self {
        case .string("$null"): return .absent
        case .array(let a): return .array(a.map(\.nullStringsAsAbsent))
        case .set(let a): return .set(a.map(\.nullStringsAsAbsent))
        case .dictionary(let d):
            return .dictionary(d.map { ($0.key.nullStringsAsAbsent, $0.value.nullStringsAsAbsent) })
        default: return self
        }
    }

    /// The tree with every `.absent` read as `NSNull`.
    var nullAsNSNull: Node {
        switch self {
        case .absent: return .nsNull
        case .array(let a): return .array(a.map(\.nullAsNSNull))
        case .set(let a): return .set(a.map(\.nullAsNSNull))
        case .dictionary(let d): return .dictionary(d.map { ($0.key.nullAsNSNull, $0.value.nullAsNSNull) })
        default: return self
        }
    }

    /// The tree with dictionaries keyed as `NSDictionary` keys them: `nil` keys dropped, booleans
    /// and integral reals as integers, the first (or last) of equal keys kept.
    func foundationKeyed(keepingLast: Bool) -> Node {
        func key(_ k: Node) -> Node? {
            switch k {
            case .absent: return nil
            case .bool(let b): return .integer(b ? 1 : 0)
            case .real(let bits):
                let d = Double(bitPattern: bits)
                if d == d.rounded(), abs(d) < 0x1p62 { return .integer(PlistInteger(Int64(d))) }
                return k
            default: return k
            }
        }
        switch self {
        case .array(let a): return .array(a.map { $0.foundationKeyed(keepingLast: keepingLast) })
        case .set(let a): return .set(a.map { $0.foundationKeyed(keepingLast: keepingLast) })
        case .dictionary(let d):
            var seen: Set<String> = []
            var out: [(key: Node, value: Node)] = []
            for (k, v) in keepingLast ? d.reversed() : d {
                guard let normal = key(k), seen.insert(normal.canonical).inserted else { continue }
                out.append((k.foundationKeyed(keepingLast: keepingLast), v.foundationKeyed(keepingLast: keepingLast)))
            }
            return .dictionary(out)
        default: return self
        }
    }

    /// The tree with generic instances of Foundation's collection classes read as empty collections.
    var instancesAsEmptyCollections: Node {
        switch self {
        case .outside(let name) where ["NSArray", "NSMutableArray"].contains(name): return .array([])
        case .outside(let name) where ["NSDictionary", "NSMutableDictionary"].contains(name): return .dictionary([])
        case .outside(let name) where ["NSSet", "NSMutableSet"].contains(name): return .set([])
        case .array(let a): return .array(a.map(\.instancesAsEmptyCollections))
        case .set(let a): return .set(a.map(\.instancesAsEmptyCollections))
        case .dictionary(let d):
            return .dictionary(d.map { ($0.key.instancesAsEmptyCollections, $0.value.instancesAsEmptyCollections) })
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
        for (k, e) in d {
            out.append((try node(foundation: k, budget: &budget), try node(foundation: e, budget: &budget)))
        }
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

/// Foundation's side runs in a worker process forked from this one (once, and again after it
/// dies), so that a trap of Foundation ends the worker, not the fuzzer: the prechecks
/// (`foundationHazard`, `rawFoundationTrap`) keep the known traps away, and any other is a
/// `Theirs.trapped` that the run counts and logs (FUZZ_DIFF_DISCOVER). Requests and answers go
/// through two pipes: a question is a kind byte (0 archive, 1 Codable, 2 Codable array, 3 whether
/// `PropertyListSerialization` reads the property list, 4 what it reads, 5 and 6 Codable without
/// the `Float` fields), a 4-byte
/// length and the payload; an answer a 4-byte length and its text (`V`, `R`, `O` or `T` first).
final class FoundationWorker {
    var pid: pid_t = -1
    var requests: Int32 = -1
    var answers: Int32 = -1
    var asked = 0

    /// Asks Foundation about `payload` (in this process when FUZZ_DIFF_NO_FORK=1).
    func ask(_ kind: UInt8, _ payload: Data) -> Theirs {
        guard isolates else { return FoundationWorker.answer(kind, payload) }
        if pid < 0 || asked >= 50_000 { restart() }
        guard pid > 0 else { return FoundationWorker.answer(kind, payload) }
        asked += 1
        var question: [UInt8] = [kind]
        question += withUnsafeBytes(of: UInt32(payload.count).bigEndian, Array.init)
        question += payload
        guard FoundationWorker.writeAll(requests, question) else { return died("the worker stopped reading") }
        guard let header = readAll(4) else { return died(nil) }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard let body = readAll(length), let first = body.first else { return died(nil) }
        let rest = String(decoding: body.dropFirst(), as: UTF8.self)
        switch first {
        case UInt8(ascii: "V"): return .value(rest)
        case UInt8(ascii: "R"): return .refused(rest)
        case UInt8(ascii: "O"): return .overBudget
        default: return .trapped(rest)
        }
    }

    /// Ends the worker after a trap or a timeout, and says how it ended.
    func died(_ why: String?) -> Theirs {
        var status: Int32 = 0
        if why == "ran past \(foundationSeconds) s" { kill(pid, SIGKILL) }
        close(requests)
        close(answers)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = -1
        return .trapped(why ?? "signal \(status & 0x7F), status \(status >> 8 & 0xFF)")
    }

    /// `count` bytes of an answer, waiting at most `foundationSeconds` for each read.
    func readAll(_ count: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: min(max(count, 1), 65536))
        while out.count < count {
            var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(foundationSeconds) * 1000)
            if ready == 0 {
                _ = died("ran past \(foundationSeconds) s")
                return nil
            }
            if ready < 0 && errno == EINTR { continue }
            let want = min(buffer.count, count - out.count)
            let n = buffer.withUnsafeMutableBytes { read(answers, $0.baseAddress, want) }
            if n <= 0 { return nil }
            out += buffer[0..<n]
        }
        return out
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { b -> Int in
                guard let base = b.baseAddress else { return 0 }
                return write(fd, base + done, b.count - done)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { b -> Int in
                guard let base = b.baseAddress else { return 0 }
                return read(fd, base + done, count - done)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            done += n
        }
        return out
    }

    func restart() {
        if pid > 0 {
            kill(pid, SIGKILL)
            _ = died("restart")
        }
        asked = 0
        var down: [Int32] = [0, 0]
        var up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else { return }
        let child = fork()
        if child == 0 {
            close(down[1])
            close(up[0])
            // The default actions, not libFuzzer's (or ASan's) handlers, which would report the
            // worker's trap as a finding of the fuzzer and write its input as an artifact.
            for sig in [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP, SIGALRM, SIGINT, SIGTERM, SIGPIPE] {
                signal(sig, SIG_DFL)
            }
            while let head = FoundationWorker.readExactly(down[0], 5) {
                let length = head[1...].reduce(0) { $0 << 8 | Int($1) }
                guard let payload = FoundationWorker.readExactly(down[0], length) else { break }
                let text: String
                switch FoundationWorker.answer(head[0], Data(payload)) {
                case .value(let v): text = "V" + v
                case .refused(let why): text = "R" + why
                case .overBudget: text = "O"
                case .trapped(let why): text = "T" + why
                }
                let body = Array(text.utf8)
                guard
                    FoundationWorker.writeAll(
                        up[1], withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + body)
                else { break }
            }
            _exit(0)
        }
        close(down[0])
        close(up[1])
        guard child > 0 else {
            close(down[1])
            close(up[0])
            return
        }
        pid = child
        requests = down[1]
        answers = up[0]
    }

    /// Foundation's answer, computed here.
    static func answer(_ kind: UInt8, _ payload: Data) -> Theirs {
        switch kind {
        case 0: return theirsArchive(payload)
        case 4:
            // The property list `PropertyListSerialization` reads, as canonical text.
            do {
                let any = try PropertyListSerialization.propertyList(from: payload, options: [], format: nil)
                var budget = nodeBudget
                return .value(try node(foundation: any, budget: &budget).canonical)
            } catch is OverBudget {
                return .overBudget
            } catch {
                return .refused("\(error)")
            }
        case 3:
            // Only whether `PropertyListSerialization` reads the property list.
            do {
                _ = try PropertyListSerialization.propertyList(from: payload, options: [], format: nil)
                return .value("read")
            } catch {
                return .refused("\(error)")
            }
        default:
            switch decodeCodable(payload, array: kind == 2 || kind == 6, ours: false, singles: kind < 5) {
            case .value(let v): return .value(v)
            case .refused(let why, _): return .refused(why)
            }
        }
    }
}

nonisolated(unsafe) let worker = FoundationWorker()

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

/// Where two canonical texts first differ: a window of each around it.
func window(_ a: String, _ b: String) -> String {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var i = 0
    while i < x.count, i < y.count, x[i] == y[i] { i += 1 }
    func cut(_ t: [UInt8]) -> String { String(decoding: t[max(0, i - 60)..<min(t.count, i + 100)], as: UTF8.self) }
    return "at \(i): ours …\(cut(x)) | Foundation …\(cut(y))"
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

/// Whether a binary dictionary (any object of the offset table) holds a key twice: the same key
/// object, or two string objects of the same text.
func rawHoldsRepeatedKey(_ payload: Data) -> Bool {
    guard let (p, offsets, refSize) = rawObjectTable(payload) else { return false }
    let be = bigEndian(p)
    /// A string key's text as UTF-8 (ASCII and UTF-16 objects of the same text alike).
    func keyBytes(_ r: Int) -> [UInt8]? {
        guard r < offsets.count, offsets[r] < p.count else { return nil }
        let o = offsets[r]
        let marker = p[o]
        guard marker >> 4 == 0x5 || marker >> 4 == 0x6, marker & 0x0F != 0x0F else { return nil }
        let wide = marker >> 4 == 0x6
        let length = Int(marker & 0x0F) * (wide ? 2 : 1)
        guard o + 1 + length <= p.count else { return nil }
        let bytes = p[(o + 1)..<(o + 1 + length)]
        guard wide else { return Array(bytes) }
        let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map {
            UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
    for o in offsets where o < p.count && p[o] >> 4 == 0xD {
        var count = Int(p[o] & 0x0F)
        var keys = o + 1
        if count == 0x0F {
            // An extended count: an integer marker and its bytes.
            guard keys < p.count, p[keys] >> 4 == 0x1, p[keys] & 0x0F < 4,
                let c = be(keys + 1, 1 << Int(p[keys] & 0x0F))
            else { continue }
            count = min(c, p.count)
            keys += 1 + (1 << Int(p[keys] & 0x0F))
        }
        var seen: Set<[UInt8]> = []
        for k in 0..<count {
            guard let r = be(keys + k * refSize, refSize) else { break }
            let key = keyBytes(r) ?? withUnsafeBytes(of: r, Array.init) + [0xFF]
            if !seen.insert(key).inserted { return true }
        }
    }
    return false
}

/// A canonical text with every URL's text left out (`url()`).
func withoutURLs(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let r = rest.range(of: "url(") {
        out += rest[..<r.upperBound]
        rest = rest[r.upperBound...].drop { $0 != ")" }
    }
    return out + rest
}

/// Whether an object dictionary (one with `$class`) has a key that is not a string.
func rawHoldsObjectWithNonStringKey(_ payload: Data) -> Bool {
    guard let objects = rawTop(payload)?.objects else { return false }
    return objects.contains { object in
        guard case .dictionary(let d) = object, d["$class"] != nil else { return false }
        return d.entries.contains { $0.key.stringValue == nil }
    }
}

/// Whether `$objects[0]` is the string `$null`, as every writer makes it.
func objectZeroIsNull(_ payload: Data) -> Bool {
    rawTop(payload)?.objects.first?.stringValue == "$null"
}

/// Whether an object's `NS.keys` or `NS.objects` holds a member that is not a UID.
func rawHoldsInlineMembers(_ payload: Data) -> Bool {
    guard let objects = rawTop(payload)?.objects else { return false }
    return objects.contains { object in
        guard case .dictionary(let d) = object else { return false }
        return ["NS.keys", "NS.objects"].contains { field in
            guard case .array(let members)? = d[field] else { return false }
            return members.contains { if case .uid = $0 { false } else { true } }
        }
    }
}

/// Whether a binary property list's offset table holds the null object (`0x00`).
func rawHoldsNullObject(_ payload: Data) -> Bool {
    guard let (p, offsets, _) = rawObjectTable(payload) else { return false }
    return offsets.contains { $0 < p.count && p[$0] == 0x00 }
}

/// A property-list value in `Node`'s terms (UIDs as Foundation's converter sees them: their class).
func node(plist v: PlistValue) -> Node {
    switch v {
    case .null: return .nsNull
    case .bool(let b): return .bool(b)
    case .integer(let i): return .integer(i)
    case .real(let d): return .real(d.bitPattern)
    case .date(let d): return .date(d.timeIntervalSinceReferenceDate)
    case .data(let d): return .data(d)
    case .string(let s): return .string(s.string)
    case .uid: return .unknown("_NSKeyedArchiverUID")
    case .array(let a): return .array(a.map { node(plist: $0) })
    case .set(let a): return .set(a.map { node(plist: $0) })
    case .dictionary(let d): return .dictionary(d.entries.map { (node(plist: $0.key), node(plist: $0.value)) })
    }
}

/// Whether the property list under an archive reads differently in ours and in
/// `PropertyListSerialization` (compared with UIDs as their class only): then FuzzDifferential's
/// classes name the difference.
func propertyListsDiffer(_ payload: Data) -> Bool {
    var limits = PlistLimits()
    limits.maxValues = nodeBudget
    let ours = try? PlistValue.decode(from: payload, limits: limits).value
    switch worker.ask(4, payload) {
    case .value(let theirs): return ours.map { node(plist: $0).canonical } != theirs
    case .refused: return ours != nil
    default: return false
    }
}

/// The codes of the property-list readers (not of the Codable layer).
let readerCodes: Set<PlistError.Code> = [
    .notAPropertyList, .notABinaryPlist, .truncated, .invalidTrailer, .offsetOutOfRange, .badReference,
    .unknownMarker, .truncatedObject, .corrupted, .invalidString, .invalidKey, .cycle, .trailingData, .syntax,
]

/// Whether a dictionary of `v` has a key that is not a string.
func holdsNonStringKey(_ v: PlistValue) -> Bool {
    switch v {
    case .array(let a), .set(let a): return a.contains(where: holdsNonStringKey)
    case .dictionary(let d):
        return d.entries.contains { $0.key.stringValue == nil || holdsNonStringKey($0.value) }
    default: return false
    }
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
    var shape: FuzzShape?
    var children: [DiffModel]?

    /// A canonical text (reals by bit pattern, any NaN alike; strings by scalars; dictionaries
    /// sorted), bounded.
    func canonical(depth: Int = 0, singles: Bool = true) -> String {
        func s(_ x: String?) -> String {
            x.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".") } ?? "-"
        }
        func o<T>(_ x: T?) -> String { x.map { "\($0)" } ?? "-" }
        // Reals by bit pattern, every NaN alike (Foundation keeps no NaN payload).
        func bits(_ d: Double?) -> String { d.map { $0.isNaN ? "nan" : "\($0.bitPattern)" } ?? "-" }
        func bits(_ f: Float?) -> String { f.map { $0.isNaN ? "nan" : "\($0.bitPattern)" } ?? "-" }
        var parts = [s(name), o(count), o(small), bits(ratio), singles ? bits(single) : "~", o(flag)]
        parts.append(o(when?.timeIntervalSinceReferenceDate.bitPattern))
        parts.append(o(blob.map { Array($0) }))
        parts.append(tags.map { $0.map(s).joined(separator: ",") } ?? "-")
        parts.append(o(numbers))
        parts.append(scores.map { $0.map { "\(s($0.key))=\($0.value)" }.sorted().joined(separator: ",") } ?? "-")
        parts.append(byNumber.map { $0.map { "\($0.key)=\(s($0.value))" }.sorted().joined(separator: ",") } ?? "-")
        parts.append(maybe.map { $0.map { s($0) }.joined(separator: ",") } ?? "-")
        parts.append(shape.map { shapeText($0) } ?? "-")
        if depth < 200 {
            parts.append(
                children.map {
                    "[" + $0.map { $0.canonical(depth: depth + 1, singles: singles) }.joined(separator: ";") + "]"
                } ?? "-")
        }
        return "(" + parts.joined(separator: "|") + ")"
    }
}

func shapeText(_ shape: FuzzShape) -> String {
    switch shape {
    case .point: return "point"
    case .circle(let r): return r.isNaN ? "circle(nan)" : "circle(\(String(r.bitPattern, radix: 16)))"
    case .labelled(let t, let p): return "labelled(\(t.unicodeScalars.map { $0.value }),\(p))"
    case .nested(let inner): return "nested(\(inner.map(shapeText) ?? "-"))"
    }
}

/// A decoded model (or root array of models), as canonical text, or why it was refused.
enum CodableOutcome {
    case value(String)
    case refused(String, Error)
}

/// `singles`: whether the `Float` fields are in the text (`floatRounded` compares without them).
func decodeCodable(_ payload: Data, array: Bool, ours: Bool, singles: Bool = true) -> CodableOutcome {
    // Ours with a value budget of 65,536: an input of at most 4,096 bytes has no more objects than
    // that, so only an expanding one (shared children decoded once per reference) reaches it, and is
    // classified `codableValueBudget` without asking Foundation. The default budget (2^20 values and
    // more) let one such input run for 29 s under the sanitizers on a slower machine, past
    // libFuzzer's 10 s limit.
    var decoder = PlistDecoder()
    decoder.limits.maxValues = min(decoder.limits.maxValues, 1 << 16)
    do {
        if array {
            let models =
                ours
                ? try decoder.decode([DiffModel].self, from: payload)
                : try PropertyListDecoder().decode([DiffModel].self, from: payload)
            return .value(models.map { $0.canonical(singles: singles) }.joined(separator: ";"))
        }
        let model =
            ours
            ? try decoder.decode(DiffModel.self, from: payload)
            : try PropertyListDecoder().decode(DiffModel.self, from: payload)
        return .value(model.canonical(singles: singles))
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
    /// Decision: a malformed object (a dictionary without a `$class` UID, with keys that are not
    /// strings; a class description without `$classname`, or with `$classes` that are not strings)
    /// is `corrupted` (or `badReference`), or read for the fields its class has; Foundation returns
    /// the raw dictionary, UIDs and all, or takes the class from what is left.
    case malformedObjectRefused
    /// Decision: an integer that does not fit `Int` (a 16-byte integer) where an archived value is
    /// read is `typeMismatch`; Foundation's `NSNumber` keeps some of its bits.
    case integerBeyondInt
    /// Decision: a UID where a value is read (a reference to a reference) is `typeMismatch`;
    /// Foundation returns the UID object itself.
    case uidAsValueRefused
    /// Decision: the binary null object (`0x00`, which Apple's writers never emit) reads as `nil`;
    /// Foundation returns `NSNull`.
    case plistNullIsNil
    /// Decision: an object of an allow-listed class whose fields are malformed (an `NSArray` without
    /// `NS.objects`, an `NSDate` without a real `NS.time`, …) is read as a generic instance that
    /// keeps its fields; Foundation reads an empty collection or a default value, or what it can.
    case malformedCollectionAsInstance
    /// Decision: a class this package has no type for is read as a generic instance
    /// (`ArchivedInstance`) with its fields; Foundation takes a known class from `$classes` or
    /// `$classhints` and reads that.
    case unknownClassAsInstance
    /// Decision: `NS.keys` entries are kept as read: `true` and `1`, `1` and `1.0` are distinct keys,
    /// and a `nil` (`$null`) key is kept; `NSDictionary` merges keys that `isEqual:` equates and
    /// drops `nil` ones.
    case dictionaryKeysKept
    /// Decision: UIDs inside an inline array (a plain property-list array where an object is
    /// read) are resolved, as an `NSArray`'s would be; Foundation returns the array with its UID
    /// objects.
    case inlineArrayReferencesResolved
    /// Decision: UID 0 is `$null` whatever `$objects[0]` holds (Apple's writers always put the
    /// string `$null` there); Foundation compares strings with `"$null"` instead.
    case uidZeroIsNull
    /// Decision: `PlistDecoder` decodes an array from a binary set object (which Apple's writers
    /// never emit); Foundation's decoder refuses ("found a set instead").
    case setAsArray
    /// Decision: `PlistDecoder` refuses an integer that does not fit the type asked for
    /// (`numberOutOfRange`: a 16-byte integer for `Int`); Foundation's decoder keeps some of its
    /// bits.
    case integerOutOfRangeRefused
    /// Decision: an `NSURL` whose `NS.relative` is no URL is `corrupted`; Foundation reads
    /// something (what `URL(string:)` on Linux makes of it).
    case malformedURLRefused
    /// Decision: a cycle through values that cannot hold one (`AnyArchived` is a value) is `cycle`;
    /// Foundation returns what it decoded so far. Two-phase `KeyedArchivable` classes read cycles.
    case cycleRefused
    /// Decision: `NS.keys`/`NS.objects` members stored inline (values, not references) are read as
    /// those values; Foundation stops at the first such member.
    case inlineMembersRead
    /// Decision: only the reference to `$objects[0]` is `$null` (`nil`); another string `"$null"`
    /// is that string. Foundation reads every `"$null"` string as `nil`.
    case nullStringIsAString
    /// Decision: a UID outside `$objects` is `badReference`; Foundation drops the member.
    case danglingReferenceRefused
    /// Decision: a field of a typed Foundation class of the wrong kind (`NS.time` a string, say) is
    /// `typeMismatch`; Foundation reads a default (`0`, an empty string).
    case typedFieldMismatchRefused
    /// Decision: an `NSURL` is read as `URL(string: NS.relative, relativeTo: NS.base)`, also when
    /// the relative part has no scheme and there is no base, as on Apple platforms; Foundation on
    /// Linux fails to decode such a URL, or resolves it differently.
    case relativeURLRead
    /// Decision: `PlistDecoder` reads, from a binary property list, only the objects the type asks
    /// for; a broken object elsewhere (under a key the type does not have, unreachable), or a key
    /// that is not a string, does not fail the decode. Foundation's decoder reads the whole property
    /// list first, and refuses a dictionary with a key that is not a string.
    case codableReadsOnlyWhatItDecodes
    /// Decision: a real that is not exactly a `Float` decodes into a `Float` rounded to the nearest
    /// one; Foundation throws `dataCorrupted` ("does not fit in Float"), or (for reals far outside
    /// `Float`'s precision) returns another `Float`.
    case floatRounded
    /// Decision (ambiguous in the format): a key repeated in a binary dictionary keeps its last
    /// value (FuzzDifferential's class of the same name); Foundation's decoder keeps the first.
    case repeatedKeyLastValue
    /// The property list under the archive is where the two differ (Foundation's reader refuses
    /// it, code 3840): FuzzDifferential names those classes (fuzz/README.md).
    case propertyListLayer
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
    let theirs = worker.ask(0, payload)
    if case .trapped(let how) = theirs { return .foundationTrapped(how) }
    switch (ours, theirs) {
    case (.refused, .refused): return .bothRefuse
    case (.value(let a), .value(let b)):
        if a.canonical == b { return .equal }
        if a.holds({ if case .outside("NSCountedSet") = $0 { true } else { false } }) {
            return .known(.countedSetAsInstance)
        }
        if a.withoutNullMembers.canonical == b { return .known(.nullMembersKept) }
        if a.nullAsNSNull.canonical == b, rawHoldsNullObject(payload) { return .known(.plistNullIsNil) }
        if a.instancesAsEmptyCollections.canonical == b
            || a.instancesAsEmptyCollections.withoutNullMembers.canonical == b
        {
            return .known(.malformedCollectionAsInstance)
        }
        if a.holds({ if case .outside(let name) = $0 { NSClassFromString(name) == nil } else { false } }) {
            return .known(.unknownClassAsInstance)
        }
        if a.holds({ if case .outside(let name) = $0 { allowListNames.contains(name) } else { false } }) {
            return .known(.malformedCollectionAsInstance)
        }
        if a.foundationKeyed(keepingLast: false).canonical == b
            || a.foundationKeyed(keepingLast: true).canonical == b
            || a.foundationKeyed(keepingLast: false).withoutNullMembers.canonical == b
        {
            return .known(.dictionaryKeysKept)
        }
        if b.contains("unknown(_NSKeyedArchiverUID)") { return .known(.inlineArrayReferencesResolved) }
        if a.holdsNumericKeyCollision { return .known(.dictionaryKeysKept) }
        if !objectZeroIsNull(payload) { return .known(.uidZeroIsNull) }
        if rawHoldsInlineMembers(payload) { return .known(.inlineMembersRead) }
        if withoutURLs(a.canonical) == withoutURLs(b) || withoutURLs(a.nullAsNSNull.canonical) == withoutURLs(b) {
            return .known(.relativeURLRead)
        }
        if rawHoldsObjectWithNonStringKey(payload) { return .known(.malformedObjectRefused) }
        if a.nullStringsAsAbsent.canonical == b { return .known(.nullStringIsAString) }
        if propertyListsDiffer(payload) { return .known(.propertyListLayer) }
        return .unknown("both read, differently: " + window(a.canonical, b))
    case (.value(let a), .refused(let why)):
        if a.holds({ if case .outside = $0 { return true } else { return false } }) { return .outsideAllowList }
        if why.contains("Code=3840") { return .known(.propertyListLayer) }
        if case .absent = a, why.contains("No value found for key"), !topHasRoot(payload) {
            return .known(.absentRootIsNil)
        }
        if why.contains("Data failed to decode"), holdsDataByReference(payload) { return .known(.dataByReference) }
        if why.contains("is not a reference") { return .known(.inlineValueAsObject) }
        if !objectZeroIsNull(payload) { return .known(.uidZeroIsNull) }
        if rawHoldsInlineMembers(payload) { return .known(.inlineMembersRead) }
        if why.contains("NSURL failed to decode"), a.holds({ if case .url = $0 { true } else { false } }) {
            return .known(.relativeURLRead)
        }
        return .unknown("ours read \(a.canonical.prefix(200)) | Foundation refused: \(why.prefix(200))")
    case (.refused(let why), .value(let b)):
        if error?.underlying != nil { return .known(.propertyListLayer) }
        if let code = error?.code, code == .corrupted || code == .badReference,
            ["$class", "is not a string"].contains(where: { why.contains($0) })
        {
            return .known(.malformedObjectRefused)
        }
        if error?.code == .typeMismatch, why.contains("does not fit Int") { return .known(.integerBeyondInt) }
        if error?.code == .badReference, why.contains("is outside $objects") {
            return .known(.danglingReferenceRefused)
        }
        if error?.code == .corrupted, why.contains("is not a URL") { return .known(.malformedURLRefused) }
        if propertyListsDiffer(payload) { return .known(.propertyListLayer) }
        if error?.code == .typeMismatch, why.contains("expected") { return .known(.typedFieldMismatchRefused) }
        if error?.code == .cycle { return .known(.cycleRefused) }
        if error?.code == .typeMismatch, why.contains("a UID where a value was expected") {
            return .known(.uidAsValueRefused)
        }
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
    let theirs = worker.ask(array ? 2 : 1, payload)
    switch (ours, theirs) {
    case (_, .trapped(let how)): return .foundationTrapped(how)
    case (_, .overBudget): return .skippedExpansion
    case (.refused, .refused): return .bothRefuse
    case (.value(let a), .value(let b)):
        if a == b { return .equal }
        if rawHoldsRepeatedKey(payload) { return .known(.repeatedKeyLastValue) }
        if propertyListsDiffer(payload) { return .known(.propertyListLayer) }
        if case .value(let x) = decodeCodable(payload, array: array, ours: true, singles: false),
            case .value(let y) = worker.ask(array ? 6 : 5, payload), x == y
        {
            // Only the `Float` fields differ: a real that is not exactly a `Float` (ours: the nearest).
            return .known(.floatRounded)
        }
        return .unknown("Codable, both decoded, differently: " + window(a, b))
    case (.value(let a), .refused(let why)):
        if why.contains("does not fit in Float") { return .known(.floatRounded) }
        if why.contains("found a set instead") { return .known(.setAsArray) }
        if rawHoldsRepeatedKey(payload) { return .known(.repeatedKeyLastValue) }
        guard let whole = try? PlistValue.decode(from: payload).value, !holdsNonStringKey(whole) else {
            return .known(.codableReadsOnlyWhatItDecodes)
        }
        if case .refused = worker.ask(3, payload) { return .known(.propertyListLayer) }
        return .unknown("Codable: ours decoded \(a.prefix(200)) | Foundation refused: \(why)")
    case (.refused(let why, let error), .value(let b)):
        if rawHoldsRepeatedKey(payload) { return .known(.repeatedKeyLastValue) }
        if let underlying = (error as? DecodingError).flatMap(underlyingError) as? PlistError,
            underlying.code == .numberOutOfRange
        {
            return .known(.integerOutOfRangeRefused)
        }
        if case .refused = worker.ask(3, payload) { return .known(.propertyListLayer) }
        if let underlying = (error as? DecodingError).flatMap(underlyingError) as? PlistError,
            readerCodes.contains(underlying.code)
        {
            return .known(.propertyListLayer)
        }
        return .unknown("Codable: ours refused: \(why) | Foundation decoded \(b.prefix(200))")
    }
}

// MARK: - Entry point

/// FUZZ_DIFF_NO_FORK=1: ask Foundation in this process (a trap then ends the run: to replay one).
let isolates = ProcessInfo.processInfo.environment["FUZZ_DIFF_NO_FORK"] != "1"
/// FUZZ_DIFF_ASK_ALL=1: ask Foundation even what traps it (to replay the defects' reproducers).
let asksAll = ProcessInfo.processInfo.environment["FUZZ_DIFF_ASK_ALL"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(start, size)
    let verdict = classify(input.payload, mode: input.config.choice)
    let key = (input.config.choice < 2 ? "archive " : "codable ") + verdict.description
    if DifferentialVerdicts.discovering, case .foundationTrapped(let how) = verdict {
        let hex = hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0)))
        FileHandle.standardError.write(Data("TRAP Foundation: \(how) | hex \(hex)\n".utf8))
    }
    var unnamed: String? = nil
    if case .unknown(let what) = verdict { unnamed = what }
    DifferentialVerdicts.record(
        target: "FuzzDifferentialArchive", key: key, unnamed: unnamed,
        inputHex: { hexString(UnsafeBufferPointer(start: size > 0 ? start : nil, count: max(size, 0))) })
    return 0
}
