// class-mapping - Archive a class under one name; read that name back as another class.
//
// The class name in an archive (`$classname`) is a contract with whoever reads it. Map it:
// - on write, `KeyedArchiver.setClassName(_:for:)` writes a type under another name (here the
//   module-qualified name an iOS app "MyApp" writes for its Swift class `Note`);
// - on read, `KeyedUnarchiver.setClass(_:forClassName:)` decodes that name as a type of your
//   choice (here a newer `NoteV2`), like `NSKeyedUnarchiver.setClass(_:forClassName:)`.
// Both exist per archiver/unarchiver and globally (the static methods); the per-instance mapping
// wins. Without a mapping (for the class or one of its superclasses in `$classes`), an unexpected
// class is rejected with `unknownClass`; one mapped to a type not asked for with `classNotAllowed`.
//
// Run: swift run class-mapping

import Foundation
import KeyedArchive

/// The type the old app version archived.
final class Note: KeyedArchivable {
    let title: String
    let body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(title, forKey: "title")
        try coder.encode(body, forKey: "body")
    }

    init(from coder: KeyedUnarchiver) throws {
        title = try coder.decode(String.self, forKey: "title")
        body = try coder.decode(String.self, forKey: "body")
    }
}

/// The type the new version reads old notes into: one more field, with a default.
final class NoteV2: KeyedArchivable {
    let title: String
    let body: String
    let pinned: Bool

    init(title: String, body: String, pinned: Bool) {
        self.title = title
        self.body = body
        self.pinned = pinned
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(title, forKey: "title")
        try coder.encode(body, forKey: "body")
        try coder.encode(pinned, forKey: "pinned")
    }

    init(from coder: KeyedUnarchiver) throws {
        title = try coder.decode(String.self, forKey: "title")
        body = try coder.decode(String.self, forKey: "body")
        pinned = try coder.decodeIfPresent(Bool.self, forKey: "pinned") ?? false
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

// Write: by default a class is archived under its Swift type name ("Note"); map it.
let archiver = KeyedArchiver()
archiver.setClassName("MyApp.Note", for: Note.self)
try archiver.encode(
    [Note(title: "Groceries", body: "milk, eggs"), Note(title: "Idea", body: "a bplist tool")], forKey: "root")
let data = try archiver.finishEncoding()
let graph = try KeyedArchiveGraph(data)
let names = Set(
    graph.nodes.compactMap { node -> String? in
        if case .object(let object) = node { return object.className }
        return nil
    })
print("written class names: \(names.sorted().joined(separator: ", "))")
check(names.contains("MyApp.Note") && !names.contains("Note"), "notes archived as MyApp.Note")

// Read without a mapping: nothing maps "MyApp.Note", and nothing of the object is read.
do {
    _ = try KeyedUnarchiver.unarchivedObject(ofClass: [NoteV2].self, from: data)
    check(false, "an unmapped class must be rejected")
} catch let error as KeyedArchiveError {
    print("  without a mapping: \(error)")
    check(error.code == .unknownClass && error.className == "MyApp.Note", "unknownClass, naming the class")
}

// Read with a mapping: "MyApp.Note" decodes as NoteV2.
let unarchiver = try KeyedUnarchiver(forReadingFrom: data)
unarchiver.setClass(NoteV2.self, forClassName: "MyApp.Note")
let notes = try unarchiver.decode([NoteV2].self, forKey: "root")
check(notes.map(\.title) == ["Groceries", "Idea"], "both notes read as NoteV2")
check(notes.allSatisfy { !$0.pinned }, "the new field takes its default")

// The global mappings do the same for every archiver and unarchiver of the process.
KeyedArchiver.setClassName("MyApp.Note", for: NoteV2.self)
KeyedUnarchiver.setClass(NoteV2.self, forClassName: "MyApp.Note")
defer {
    KeyedArchiver.setClassName(nil, for: NoteV2.self)
    KeyedUnarchiver.setClass(nil, forClassName: "MyApp.Note")
}
let again = try KeyedArchiver.archivedData(withRootObject: NoteV2(title: "Pinned", body: "!", pinned: true))
let pinned = try KeyedUnarchiver.unarchivedObject(ofClass: NoteV2.self, from: again)
check(KeyedArchiver.className(for: NoteV2.self) == "MyApp.Note", "global name for NoteV2")
check(pinned.pinned && pinned.title == "Pinned", "round trip through the global mapping")
print("class-mapping: OK")
