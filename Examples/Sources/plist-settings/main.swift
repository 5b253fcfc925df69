// plist-settings - Moving a settings store from Foundation's PropertyListEncoder to PlistEncoder.
//
// Many apps keep their settings as a Codable struct in a property-list file, written with
// Foundation's `PropertyListEncoder` and read with `PropertyListDecoder`. This program plays both
// versions of such an app:
//
//   1. version 1 writes the file with Foundation's coders (XML, as many apps do);
//   2. version 2 switches to `PlistEncoder`/`PlistDecoder` from PropertyList: it reads version 1's
//      file as it is, writes back in the form it found, and version 1 can still read what it
//      wrote (a downgrade keeps working);
//   3. what version 2 gains: errors that say where, a large store read one entry at a time
//      without decoding the rest, and the settings as an in-memory plist value.
//
// Run: swift run plist-settings

import Foundation
import PropertyList

/// The app's settings model: unchanged between the two versions.
struct Settings: Codable, Equatable {
    enum Theme: String, Codable { case light, dark, system }

    var theme: Theme = .system
    var fontSize: Double = 13
    var notifications = true
    var recentFiles: [URL] = []
    var deviceID = UUID()
    var lastSync: Date? = nil
    var shortcuts: [String: String] = [:]
    var window = Window()

    struct Window: Codable, Equatable {
        var width = 1024
        var height = 768
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plist-settings-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let url = directory.appendingPathComponent("Settings.plist")

var settings = Settings()
settings.theme = .dark
settings.fontSize = 15.5
settings.recentFiles = [URL(fileURLWithPath: "/home/ada/notes.md")]
settings.lastSync = Date(timeIntervalSinceReferenceDate: 760_000_000)
settings.shortcuts = ["save": "ctrl+s", "find": "ctrl+f"]

// MARK: Version 1: Foundation's coders

/// The store as version 1 of the app wrote it.
enum FoundationStore {
    static func save(_ settings: Settings, to url: URL) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        try encoder.encode(settings).write(to: url, options: .atomic)
    }

    static func load(from url: URL) throws -> Settings {
        try PropertyListDecoder().decode(Settings.self, from: Data(contentsOf: url))
    }
}

print("version 1 (Foundation's PropertyListEncoder) saves the settings:")
try FoundationStore.save(settings, to: url)
check(try FoundationStore.load(from: url) == settings, "version 1 reads its own file")

// MARK: Version 2: PlistEncoder / PlistDecoder

/// The same store with PropertyList's coders: two lines differ (the coders), and it now keeps the
/// form the file was in, sorts keys so the file diffs well, and writes atomically as before.
struct SettingsStore {
    let url: URL
    /// The form the file was read in (new files are binary).
    var format = PlistFormat.binary

    mutating func load() throws -> Settings {
        try PlistDecoder().decode(Settings.self, from: Data(contentsOf: url), format: &format)
    }

    func save(_ settings: Settings) throws {
        var encoder = PlistEncoder()
        encoder.outputFormat = format
        encoder.sortsKeys = true
        try encoder.encode(settings).write(to: url, options: .atomic)
    }
}

print("version 2 (PlistEncoder/PlistDecoder) opens version 1's file:")
var store = SettingsStore(url: url)
var loaded = try store.load()
check(loaded == settings, "version 1's XML file reads unchanged")
check(store.format == .xml, "the store knows the file is XML")
loaded.fontSize = 17
try store.save(loaded)
check(String(decoding: try Data(contentsOf: url).prefix(5), as: UTF8.self) == "<?xml", "written back as XML")
check(try FoundationStore.load(from: url) == loaded, "version 1 still reads it (a downgrade keeps working)")

// A binary file from Foundation reads the same way, and binary stays binary.
let binaryURL = directory.appendingPathComponent("Binary.plist")
let foundationBinary = PropertyListEncoder()
foundationBinary.outputFormat = .binary
try foundationBinary.encode(settings).write(to: binaryURL)
var binaryStore = SettingsStore(url: binaryURL)
check(try binaryStore.load() == settings && binaryStore.format == .binary, "Foundation's binary file reads as binary")
try binaryStore.save(settings)
check(
    try PropertyListDecoder().decode(Settings.self, from: Data(contentsOf: binaryURL)) == settings,
    "our binary file reads in Foundation")

// MARK: What version 2 gains

print("errors say where:")
// A hand-edited file with a typo: the font size is text.
let broken = try String(decoding: Data(contentsOf: url), as: UTF8.self)
    .replacingOccurrences(of: "<real>17</real>", with: "<string>17pt</string>")
do {
    _ = try PlistDecoder().decode(Settings.self, from: Data(broken.utf8))
    check(false, "a string where a number belongs is an error")
} catch DecodingError.typeMismatch(_, let context) {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    print("    typeMismatch at \(path): \(context.debugDescription)")
    check(path == "fontSize", "the error names the key")
}
// In a binary file, the underlying error names the byte offset and object too.
var binary = try PlistEncoder().encodeValue(settings)
if case .dictionary(var d) = binary {
    d["window"] = ["width": "wide", "height": .int(768)]
    binary = .dictionary(d)
}
do {
    _ = try PlistDecoder().decode(Settings.self, from: binary.encoded())
    check(false, "a string where a width belongs is an error")
} catch DecodingError.typeMismatch(_, let context) {
    let underlying = context.underlyingError as? PlistError
    print("    \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(underlying.map { "\($0)" } ?? "-")")
    check(underlying?.offset != nil && underlying?.object != nil, "the byte offset and object of the bad value")
}

print("a large store, one entry at a time:")
// Per-user settings for 20,000 users in one binary file; read one user's without the others.
var users: [String: Settings] = [:]
for i in 0..<20_000 {
    var s = Settings()
    s.fontSize = Double(10 + i % 8)
    s.deviceID = UUID(uuid: (UInt8(i & 0xFF), UInt8(i >> 8), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    users["user\(i)"] = s
}
let usersURL = directory.appendingPathComponent("Users.plist")
try PlistEncoder().encode(users).write(to: usersURL)
let document = try BinaryPlistDocument(contentsOf: usersURL, access: .mappedIfLarge)
let one = try PlistDecoder().decode(Settings.self, from: document, at: "user12345")
check(one == users["user12345"], "decode(_:from:at:) reads one user's settings")
check(try PlistDecoder().decode(Double.self, from: document, at: "user7.fontSize") == 17, "or one value")

print("the settings as an in-memory plist value:")
let tree = try PlistEncoder().encodeValue(settings)
check(tree["theme"] == "dark" && tree["window"]?["width"] == .int(1024), "encodeValue gives a PlistValue")
check(try PlistDecoder().decode(Settings.self, from: tree) == settings, "and decodes back")
print("plist-settings: all checks passed")
