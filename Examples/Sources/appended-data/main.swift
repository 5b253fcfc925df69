// appended-data - What happens when bytes are appended to an archive, and how to recover it.
//
// A binary property list ends with a 32-byte trailer that must be the file's last bytes. Every
// Apple reader rejects anything after it, and so do we by default: the error names the offset
// where the archive really ends. The archive itself is intact, so it can be recovered:
// - `PlistReadOptions(allowsTrailingData: true)` opens the property list and tells how
//   many bytes follow it;
// - `BinaryPlistDocument.documents(in:)` splits archives that were written back to back (e.g. a
//   log that appended a new archive instead of replacing the file).
//
// Run: swift run appended-data

import Foundation
import KeyedArchive
import PropertyList

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

let archive = try KeyedArchiver.archivedData(withRootObject: ["milk", "eggs", "bread"])
let damaged = archive + Data("\n-- appended by a sync tool --\n".utf8)
print("archive: \(archive.count) bytes; with \(damaged.count - archive.count) bytes appended: \(damaged.count)")

// 1. Strict reading (the default) refuses the file and says where the archive ends.
do {
    _ = try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: damaged)
    check(false, "appended bytes must be an error")
} catch let error as KeyedArchiveError {
    print("  strict: \(error)")
    check(error.code == .trailingData, "code trailingData, the same code the property-list layer gives ...")
    check(error.offset == archive.count, "... at byte \(archive.count), where the archive ends")
    check(error.underlying?.code == .trailingData, "... with the property-list layer's whole error underneath")
}

// The format layer says the same directly.
do {
    _ = try BinaryPlistDocument(damaged)
    check(false, "appended bytes must be an error")
} catch {
    check(error.code == .trailingData && error.offset == archive.count, "BinaryPlistDocument: trailingData too")
}

// 2. Recovery: allow trailing data, then unarchive the property list the document covers.
let lenient = try BinaryPlistDocument(damaged, options: .init(allowsTrailingData: true))
print("  recovered \(lenient.data.count) bytes; \(lenient.trailingByteCount) bytes follow")
check(lenient.trailingByteCount == damaged.count - archive.count, "trailing byte count")
let items = try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: lenient.data)
check(items == ["milk", "eggs", "bread"], "the archive reads back intact")
let extra = damaged.suffix(lenient.trailingByteCount)
print("  the appended bytes were: \(String(decoding: extra, as: UTF8.self).debugDescription)")

// 3. Archives written back to back: split them.
let second = try KeyedArchiver.archivedData(withRootObject: ["apples"])
let log = archive + second
let pieces = try BinaryPlistDocument.documents(in: log)
check(pieces.count == 2, "two archives found")
for (n, piece) in pieces.enumerated() {
    let list = try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: piece.document.data)
    print("  archive \(n + 1) at bytes \(piece.range): \(list)")
}
check(pieces[1].range.lowerBound == archive.count, "the second starts where the first ends")

// documents(in:) insists that every piece is a property list: junk at the end is an error that
// says at which byte the junk starts.
do {
    _ = try BinaryPlistDocument.documents(in: damaged)
    check(false, "junk is not a property list")
} catch {
    print("  splitting archive + junk: \(error)")
    check(error.offset.map { $0 >= archive.count } ?? false, "the error points past the archive")
}
print("appended-data: OK")
