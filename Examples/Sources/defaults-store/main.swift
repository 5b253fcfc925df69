// Examples/Sources/defaults-store/main.swift - (h) The tutorials' defaults pattern, on Linux: a logged-in
// user archived into `UserDefaults`, read back by a second process; and the same with a plain
// property-list file as the store, for code that must stay on FoundationEssentials.
//
//   swift run defaults-store            writes both stores, then runs itself again to read them
//
// The archived graph has a shared reference (the current session is also the first of the user's
// sessions), which must come back as one instance in the second process.

import Foundation
import KeyedArchive
import PropertyList

final class Session: KeyedArchivable {
    static let archiveClassName = "XWZSession"
    var token: String
    var started: Date
    init(token: String, started: Date) {
        self.token = token
        self.started = started
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(token, forKey: "token")
        try coder.encode(started, forKey: "started")
    }
    init(from coder: KeyedUnarchiver) throws {
        token = try coder.decode(String.self, forKey: "token")
        started = try coder.decode(Date.self, forKey: "started")
    }
}

final class User: KeyedArchivable {
    static let archiveClassName = "XWZUser"
    var name: String
    var email: String
    var current: Session?
    var sessions: [Session]
    init(name: String, email: String, current: Session?, sessions: [Session]) {
        self.name = name
        self.email = email
        self.current = current
        self.sessions = sessions
    }
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(email, forKey: "email")
        try coder.encode(current, forKey: "current")
        try coder.encode(sessions, forKey: "sessions")
    }
    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        email = try coder.decode(String.self, forKey: "email")
        current = try coder.decode(Session?.self, forKey: "current")
        sessions = try coder.decode([Session].self, forKey: "sessions")
    }
}

let suite = "org.example.keyedarchive.defaults-store"
let key = "loggedInUser"

func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("FAILED: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

/// Reads a user back from an archive and checks it is the graph written (sharing included).
func verify(_ archive: Data, from store: String) throws {
    let user = try KeyedUnarchiver.unarchivedObject(ofClass: User.self, from: archive)
    check(user.name == "Ada Lovelace" && user.email == "ada@example.com", "\(store): the user's fields")
    check(user.sessions.count == 2, "\(store): both sessions")
    check(user.current === user.sessions.first, "\(store): the current session is the first one, one instance")
}

let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "read" {
    // The second process: nothing is shared with the first but the two stores.
    print("== second process: reading")
    guard let defaults = UserDefaults(suiteName: suite), let archive = defaults.data(forKey: key) else {
        check(false, "UserDefaults holds the archive under \"\(key)\"")
        exit(1)
    }
    try verify(archive, from: "UserDefaults")
    defaults.removePersistentDomain(forName: suite)

    // The plain property-list store: a binary plist whose "loggedInUser" value is the archive.
    let document = try BinaryPlistDocument(Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    guard case .data(let stored)? = try document.lookup(PlistKeyPath(keys: [key])) else {
        check(false, "the plist store holds the archive under \"\(key)\"")
        exit(1)
    }
    try verify(stored, from: "plist file")
    exit(0)
}

print("== first process: writing")
let first = Session(token: "c2Vzc2lvbi0x", started: Date(timeIntervalSinceReferenceDate: 800_000_000))
let older = Session(token: "c2Vzc2lvbi0w", started: Date(timeIntervalSinceReferenceDate: 700_000_000))
let user = User(name: "Ada Lovelace", email: "ada@example.com", current: first, sessions: [first, older])
let archive = try KeyedArchiver.archivedData(withRootObject: user)
print("archived \(archive.count) bytes")

// 1. UserDefaults, as the tutorials do (setObject:forKey: of the archived NSData).
guard let defaults = UserDefaults(suiteName: suite) else {
    check(false, "UserDefaults(suiteName:)")
    exit(1)
}
defaults.set(archive, forKey: key)
check(defaults.synchronize(), "UserDefaults written to disk")

// 2. A plain property-list file (FoundationEssentials only): written atomically, so a crash
//    mid-write leaves the previous file whole.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-store-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let storeURL = directory.appendingPathComponent("store.plist")
let store: PlistValue = [key: .data(archive), "savedAt": .date(Date())]
try store.encoded().write(to: storeURL, options: .atomic)
print("plist store: \(try Data(contentsOf: storeURL).count) bytes")

// 3. A second process reads both back.
let me = Process()
me.executableURL = URL(fileURLWithPath: arguments[0]).standardizedFileURL
if !FileManager.default.isExecutableFile(atPath: me.executableURL?.path ?? ""),
    let found = Bundle.main.executableURL
{
    me.executableURL = found
}
me.arguments = ["read", storeURL.path]
fflush(nil)  // every C stream: our lines first, then the child's
try me.run()
me.waitUntilExit()
check(me.terminationStatus == 0, "the second process read both stores")
