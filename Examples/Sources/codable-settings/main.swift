// codable-settings - A Codable settings model archived with zero boilerplate.
//
// Anything `Codable` goes through `KeyedArchiveEncoder`/`KeyedArchiveDecoder`: no `encode(with:)`,
// no `init(from coder:)`, no per-property keys. The result is an ordinary keyed archive: the
// struct becomes an object of class "Settings" whose fields are its properties; arrays, sets and
// dictionaries become NSArray, NSSet and NSDictionary; URL, UUID and Date become NSURL, NSUUID and
// NSDate - the shapes Apple's NSKeyedUnarchiver expects.
//
// Run: swift run codable-settings

import Foundation
import KeyedArchive

struct Settings: Codable, Equatable {
    enum Theme: String, Codable { case light, dark, system }

    var theme: Theme = .system
    var fontSize: Double = 13
    var notifications = true
    var recentFiles: [URL] = []
    var deviceID = UUID()
    var lastSync: Date? = nil
    var shortcuts: [String: String] = [:]
    var favouriteTags: Set<String> = []
    var window = Window()

    struct Window: Codable, Equatable {
        var width = 1024
        var height = 768
        var fullScreen = false
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

var settings = Settings()
settings.theme = .dark
settings.fontSize = 15.5
settings.recentFiles = [URL(fileURLWithPath: "/home/ada/notes.md"), URL(fileURLWithPath: "/tmp/todo.txt")]
settings.lastSync = Date(timeIntervalSinceReferenceDate: 760_000_000)
settings.shortcuts = ["save": "ctrl+s", "find": "ctrl+f"]
settings.favouriteTags = ["swift", "plist"]
settings.window.fullScreen = true

// Encode and decode: one line each.
let data = try KeyedArchiveEncoder().encode(settings)
print("archived the settings: \(data.count) bytes")
let restored = try KeyedArchiveDecoder().decode(Settings.self, from: data)
check(restored == settings, "every property round-trips")

// A missing optional stays nil; defaults are ordinary Swift.
let fresh = try KeyedArchiveDecoder().decode(Settings.self, from: try KeyedArchiveEncoder().encode(Settings()))
check(fresh.lastSync == nil && fresh.theme == .system, "nil and defaults")

// Codable values can share an archive with other keys, via the archiver/unarchiver methods.
let archiver = KeyedArchiver()
try archiver.encodeEncodable(settings, forKey: "settings")
try archiver.encode(3, forKey: "schemaVersion")
let mixed = try archiver.finishEncoding()
let unarchiver = try KeyedUnarchiver(forReadingFrom: mixed)
check(try unarchiver.decode(Int.self, forKey: "schemaVersion") == 3, "a plain key next to the settings")
check(try unarchiver.decodeDecodable(Settings.self, forKey: "settings") == settings, "the settings under their key")

// The class name is checked on the Codable path too: the archive's "Settings" object does not
// decode as another type. Errors are DecodingErrors wrapping the KeyedArchiveError.
struct Other: Codable { var theme: String }
do {
    _ = try KeyedArchiveDecoder().decode(Other.self, from: data)
    check(false, "Settings must not decode as Other")
} catch let error as DecodingError {
    let underlying: (any Error)? =
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.underlyingError
        @unknown default: nil
        }
    print("  decoding as Other: \(underlying ?? error)")
    check((underlying as? KeyedArchiveError)?.code == .classNotAllowed, "classNotAllowed")
}

// What was written: a "Settings" object, fields by property name.
let graph = try KeyedArchiveGraph(data)
if case .object(let root) = graph.node(graph.root ?? 0) {
    print("  root class \(root.className), fields: \(root.fields.map(\.key).joined(separator: ", "))")
    check(root.className == "Settings", "archived as class Settings")
}
print("codable-settings: OK")
