// apple-archive - Read an archive written by NSKeyedArchiver on an Apple platform.
//
// An iOS/macOS app archived its bookmarks with
//
//     // Swift, in an app target named "MyApp"
//     class Bookmark: NSObject, NSCoding {                  // archived as "MyApp.Bookmark"
//         func encode(with coder: NSCoder) {
//             coder.encode(title, forKey: "title")          // NSString
//             coder.encode(url, forKey: "url")              // NSURL
//             coder.encode(visits, forKey: "visits")        // encodeInteger: inline
//             coder.encode(added, forKey: "added")          // NSDate
//             coder.encode(tags, forKey: "tags")            // NSArray of NSString
//             coder.encode(counters, forKey: "counters")    // NSMutableDictionary of NSNumber
//         }
//     }
//     let data = try NSKeyedArchiver.archivedData(withRootObject: NSMutableArray(array: bookmarks),
//                                                 requiringSecureCoding: false)
//
// This program builds those bytes in-process, in the layout Apple's archiver uses ($objects[0] is
// "$null"; each object gets its UID when first met, its children follow it, its class description
// comes after its fields; Foundation classes under their module-free names - NSMutableArray, NSURL,
// NSDate - and the app's class under its module-qualified Swift name). Then it reads them twice:
// generically with `KeyedArchiveGraph` (no Swift types needed), and into Swift objects with
// `KeyedUnarchiver` and a class-name mapping.
//
// Run: swift run apple-archive               (the built-in archive)
//      swift run apple-archive FILE          (also print the object graph of a real archive)

import Foundation
import KeyedArchive
import PropertyList

// MARK: - The Apple-side bytes

/// `$objects` under construction, numbered as NSKeyedArchiver numbers them.
struct ObjectsTable {
    var objects: [PlistValue] = ["$null"]
    var classUIDs: [String: PlistValue] = [:]

    /// Reserves the next UID for an object whose fields are encoded next.
    mutating func reserve() -> Int {
        objects.append(.null)
        return objects.count - 1
    }

    /// Adds a plain value (NSString, NSNumber and NSData are stored as themselves).
    mutating func add(_ value: PlistValue) -> PlistValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// Completes a reserved object: its fields plus `$class`, whose description is added on first use.
    mutating func finish(_ uid: Int, _ fields: [(String, PlistValue)], classes: [String]) -> PlistValue {
        let classRef: PlistValue
        if let known = classUIDs[classes[0]] {
            classRef = known
        } else {
            classRef = add(
                .dict(["$classes": .array(classes.map(PlistValue.string)), "$classname": .string(classes[0])]))
            classUIDs[classes[0]] = classRef
        }
        objects[uid] = .dictionary(PlistDictionary((fields + [("$class", classRef)]).map { (.string($0.0), $0.1) }))
        return .uid(UInt64(uid))
    }

    mutating func url(_ string: String) -> PlistValue {
        let uid = reserve()
        let relative = add(.string(string))
        return finish(uid, [("NS.base", .uid(0)), ("NS.relative", relative)], classes: ["NSURL", "NSObject"])
    }

    mutating func date(_ secondsSince2001: Double) -> PlistValue {
        let uid = reserve()
        return finish(uid, [("NS.time", .real(secondsSince2001))], classes: ["NSDate", "NSObject"])
    }

    mutating func array(_ elements: (inout ObjectsTable) -> [PlistValue], classes: [String]) -> PlistValue {
        let uid = reserve()
        let refs = elements(&self)
        return finish(uid, [("NS.objects", .array(refs))], classes: classes)
    }

    mutating func dictionary(_ pairs: [(String, PlistValue)]) -> PlistValue {
        let uid = reserve()
        let keys = pairs.map { add(.string($0.0)) }
        let values = pairs.map { add($0.1) }
        return finish(
            uid, [("NS.keys", .array(keys)), ("NS.objects", .array(values))],
            classes: ["NSMutableDictionary", "NSDictionary", "NSObject"])
    }

    mutating func bookmark(
        title: String, url: String, visits: Int, added: Double, tags: [String], counters: [(String, Int)]
    ) -> PlistValue {
        let uid = reserve()
        var fields: [(String, PlistValue)] = []
        fields.append(("title", add(.string(title))))
        fields.append(("url", self.url(url)))
        fields.append(("visits", .int(visits)))  // encodeInteger:forKey: stores the number inline
        fields.append(("added", date(added)))
        fields.append(("tags", array({ t in tags.map { t.add(.string($0)) } }, classes: ["NSArray", "NSObject"])))
        fields.append(("counters", dictionary(counters.map { ($0.0, .int($0.1)) })))
        return finish(uid, fields, classes: ["MyApp.Bookmark", "NSObject"])
    }
}

func appleArchive() throws -> Data {
    var table = ObjectsTable()
    let root = table.array(
        { t in
            [
                t.bookmark(
                    title: "Swift.org", url: "https://swift.org", visits: 12, added: 700_000_000,
                    tags: ["swift", "docs"], counters: [("opened", 12), ("shared", 1)]),
                t.bookmark(
                    title: "Property lists",
                    url: "https://developer.apple.com/documentation/foundation/propertylistserialization",
                    visits: 3, added: 710_000_000.5, tags: ["plist"], counters: []),
            ]
        }, classes: ["NSMutableArray", "NSArray", "NSObject"])
    // The top-level dictionary, keys in the order Apple writes them.
    let top: PlistValue = .dict([
        "$version": 100_000,
        "$archiver": "NSKeyedArchiver",
        "$top": .dict(["root": root]),
        "$objects": .array(table.objects),
    ])
    // The binary writer lays out bplist00 as CoreFoundation does (root object 0, smallest widths).
    return try top.encoded()
}

// MARK: - The Swift side

/// The app's class, re-declared in Swift on this side.
final class Bookmark: KeyedArchivable {
    let title: String
    let url: URL
    let visits: Int
    let added: Date
    let tags: [String]
    let counters: [String: Int]

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(title, forKey: "title")
        try coder.encode(url, forKey: "url")
        try coder.encode(visits, forKey: "visits")
        try coder.encode(added, forKey: "added")
        try coder.encode(tags, forKey: "tags")
        try coder.encode(counters, forKey: "counters")
    }

    init(from coder: KeyedUnarchiver) throws {
        title = try coder.decode(String.self, forKey: "title")
        url = try coder.decode(URL.self, forKey: "url")
        visits = try coder.decode(Int.self, forKey: "visits")
        added = try coder.decode(Date.self, forKey: "added")
        tags = try coder.decode([String].self, forKey: "tags")
        counters = try coder.decode([String: Int].self, forKey: "counters")
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

/// A scalar as one short string, or `nil` for collections and objects.
func scalar(_ value: KeyedArchiveGraph.Resolved) -> String? {
    switch value {
    case .null: "nil"
    case .value(let v): v.description
    case .date(let d): "date \(d)"
    case .uuid(let u): "uuid \(u)"
    case .url(let s): "url \(s)"
    case .backReference(let uid): "(back to UID \(uid))"
    case .truncated(let uid): "(… UID \(uid))"
    case .typed(let className, let text): "\(className) \(text)"
    case .array, .set, .orderedSet, .dictionary, .object: nil
    }
}

/// Prints a resolved graph compactly: `label: scalar` on one line, collections and objects indented.
func show(_ value: KeyedArchiveGraph.Resolved, label: String = "", indent: String = "  ") {
    if let text = scalar(value) {
        print("\(indent)\(label)\(text)")
        return
    }
    switch value {
    case .array(let elements), .set(let elements), .orderedSet(let elements):
        print("\(indent)\(label)[")
        for e in elements { show(e, indent: indent + "  ") }
        print("\(indent)]")
    case .dictionary(let entries):
        print("\(indent)\(label){")
        for e in entries { show(e.value, label: (scalar(e.key) ?? "?") + ": ", indent: indent + "  ") }
        print("\(indent)}")
    case .object(let className, let fields):
        print("\(indent)\(label)\(className) {")
        for f in fields { show(f.value, label: f.key + ": ", indent: indent + "  ") }
        print("\(indent)}")
    default:
        break
    }
}

let data = try appleArchive()
print("an NSKeyedArchiver archive of 2 bookmarks: \(data.count) bytes")

// 1. Generic reading: every class, every field, no Swift types needed.
let graph = try KeyedArchiveGraph(data)
if case .object(let root) = graph.node(graph.root ?? 0) {
    check(root.className == "NSMutableArray", "root is an NSMutableArray")
    check(root.classChain == ["NSMutableArray", "NSArray", "NSObject"], "with its class chain")
}
show(graph.resolvedRoot())

// 2. Typed reading. Apple wrote the Swift class under its module-qualified name; map it.
let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
unarchiver.setClass(Bookmark.self, forClassName: "MyApp.Bookmark")
let bookmarks = try unarchiver.decode([Bookmark].self, forKey: "root")
check(bookmarks.map(\.title) == ["Swift.org", "Property lists"], "titles")
check(bookmarks[0].url == URL(string: "https://swift.org"), "NSURL -> URL")
check(bookmarks[0].visits == 12, "inline integer")
check(bookmarks[0].added == Date(timeIntervalSinceReferenceDate: 700_000_000), "NSDate -> Date")
check(bookmarks[0].tags == ["swift", "docs"], "NSArray -> [String]")
check(bookmarks[0].counters == ["opened": 12, "shared": 1], "NSMutableDictionary of NSNumber -> [String: Int]")
check(bookmarks[1].counters.isEmpty, "an empty dictionary")

// 3. Optionally, a real archive from disk (e.g. copied from a Mac): print its object graph.
if CommandLine.arguments.count > 1 {
    let path = CommandLine.arguments[1]
    let file = try Data(contentsOf: URL(fileURLWithPath: path))
    let real = try KeyedArchiveGraph(file, requiredTopKey: nil)
    print("\(path): \(real.nodes.count) objects, $top keys: \(real.top.map(\.key))")
    for field in real.top { show(real.resolve(field.value), label: field.key + ": ") }
}
print("apple-archive: OK")
