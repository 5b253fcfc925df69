// Examples/Sources/messages-bodies/main.swift - Scenario (j): read message bodies out of a database
// shaped like Messages' chat.db.
//
// Since macOS 13 Messages leaves `message.text` empty and keeps each message's text in
// `message.attributedBody`: an NSAttributedString archived with NSArchiver (a typedstream). Its runs
// carry the message's parts (texts, attachments), mentions, links and styles. This program:
//   1. creates a small database with the tables and columns of chat.db that matter here (message,
//      handle, attachment, message_attachment_join), with the system SQLite library, and fills it
//      with message bodies (the test blobs of this repository, as bytes);
//   2. reads every message back: the text column when it is set (older messages), else the
//      attributedBody through `MessageBody`, into parts, attachments (joined by their GUID),
//      mentions and links;
//   3. checks what it read, and exits non-zero when a check fails.
// `messages-bodies PATH` reads the database at PATH instead (a copy of ~/Library/Messages/chat.db:
// opened read-only, steps 1 and 3 skipped).

import CSQLite
import Foundation
import KeyedArchive
import TypedStream

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print((condition ? "  ok    " : "  FAIL  ") + what)
    if !condition { failures += 1 }
}

/// Bytes from hexadecimal text (the blobs below are written as hex).
func blob(_ hex: String) -> Data {
    var out = Data()
    var i = hex.startIndex
    while i < hex.endIndex {
        let j = hex.index(i, offsetBy: 2)
        out.append(UInt8(hex[i..<j], radix: 16) ?? 0)
        i = j
    }
    return out
}

/// `attributedBody` blobs: the byte-by-byte test fixtures of Tests/TypedStreamTests (a one-part
/// text; an attachment, a mention and a bold link) and bodies of `bplist generate messages`.
enum Blobs {
    static let hi = blob(
        "040b73747265616d747970656481e803840140848484124e5341747472696275746564537472696e67008484084e534f626a"
            + "656374008592848484084e53537472696e67019484012b02686986840269490102928484840c4e5344696374696f6e617279"
            + "009484016901928496961d5f5f6b494d4d657373616765506172744174747269627574654e616d658692848484084e534e75"
            + "6d626572008484074e5356616c7565009484012a84999900868686")

    static let threeParts = blob(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e670084"
            + "84124e5341747472696275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c655374"
            + "72696e67018484084e53537472696e67019584012b20efbfbc68692053616d2c207365652068747470733a2f2f65782e7465"
            + "73742f7886840269490101928484840c4e5344696374696f6e61727900958401690292849898225f5f6b494d46696c655472"
            + "616e73666572475549444174747269627574654e616d6586928498980941545f305f4755494486928498981d5f5f6b494d4d"
            + "657373616765506172744174747269627574654e616d658692848484084e534e756d626572008484074e5356616c75650095"
            + "84012a849b9b00868699020392849a9b01928498981d5f5f6b494d4d657373616765506172744174747269627574654e616d"
            + "658692849f9ea19b01868699030392849a9b0292a392a4928498981c5f5f6b494d4d656e74696f6e436f6e6669726d65644d"
            + "656e74696f6e8692849898092b3135353530313030868699020699041192849a9b0392a392a492849898165f5f6b494d4c69"
            + "6e6b4174747269627574654e616d658692848484054e5355524c009584016300928498981168747470733a2f2f65782e7465"
            + "73742f788686928498981a5f5f6b494d54657874426f6c644174747269627574654e616d658692a48686")

    static let mentionAndLink = blob(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e670084"
            + "84124e5341747472696275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c655374"
            + "72696e67018484084e53537472696e67019584012b216d65207768656e2053616d2068747470733a2f2f6578616d706c652e"
            + "636f6d2f3086840269490108928484840c4e5344696374696f6e617279009584016901928498981d5f5f6b494d4d65737361"
            + "6765506172744174747269627574654e616d658692848484084e534e756d626572008484074e5356616c7565009584012a84"
            + "9b9b00868699020392849a9b02928498981d5f5f6b494d4d657373616765506172744174747269627574654e616d65869284"
            + "9d9e9f9b0086928498981c5f5f6b494d4d656e74696f6e436f6e6669726d65644d656e74696f6e8692849898092b31353535"
            + "30313030868699010199031592849a9b02928498981d5f5f6b494d4d657373616765506172744174747269627574654e616d"
            + "658692849d9e9f9b008692849898165f5f6b494d4c696e6b4174747269627574654e616d658692848484054e5355524c0095"
            + "84016300928498981568747470733a2f2f6578616d706c652e636f6d2f3086868686")

    static let longStyled = blob(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e670084"
            + "84124e5341747472696275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c655374"
            + "72696e67018484084e53537472696e67019584012b81c9016d656574696e672063616c6c20676f6f64207765206d65657469"
            + "6e6720746865207768657265206c617465722063616c6c20636166c3a92077652064696e6e657220746f6e69676874207365"
            + "652073746174696f6e206f6b20636166c3a920617420746f6d6f72726f7720676f6f64206c617465722074686520736f756e"
            + "6473206c6174657220676f6f6420796f752064696e6e6572206672656520676f6f64206172652061726520f09f9982206672"
            + "65652073656520746f6d6f72726f772077686572652064696e6e6572207768656e207768656e2061742064696e6e65722073"
            + "6f756e647320746f6d6f72726f7720736f756e64732074686520666f7220617420746f6e6967687420736f756e6473206f6b"
            + "20736565206c61746520746f6e69676874207365652064696e6e6572206d6520617265206c61746520667265652066726565"
            + "207468616e6b7320617265207768656e20617265206c6174657220776865726520736f756e64732073746174696f6e20676f"
            + "6f6420746f6d6f72726f77206c6174657220f09f9982206d6520676f6f642064696e6e6572206c61746520736f756e647320"
            + "736f756e6473206c61746572207765206d656574696e672061742074686520868402694901819f00928484840c4e53446963"
            + "74696f6e617279009584016902928498981d5f5f6b494d4d657373616765506172744174747269627574654e616d65869284"
            + "8484084e534e756d626572008484074e5356616c7565009584012a849b9b0086928498981a5f5f6b494d54657874426f6c64"
            + "4174747269627574654e616d658692849d9e9f9b01868699027692849a9b01928498981d5f5f6b494d4d6573736167655061"
            + "72744174747269627574654e616d658692849d9e9f9b00868699023599013f99033a92849a9b02928498981d5f5f6b494d4d"
            + "657373616765506172744174747269627574654e616d658692849d9e9f9b0086928498981c5f5f6b494d5465787445666665"
            + "63744174747269627574654e616d658692849d9e9f9b05868686")

    static let attachment = blob(
        "040b73747265616d747970656481e803840140848484194e534d757461626c6541747472696275746564537472696e670084"
            + "84124e5341747472696275746564537472696e67008484084e534f626a6563740085928484840f4e534d757461626c655374"
            + "72696e67018484084e53537472696e67019584012b24efbfbc736f756e647320746f6e69676874206172652072756e6e696e"
            + "672064696e6e657286840269490101928484840c4e5344696374696f6e61727900958401690392849898225f5f6b494d4669"
            + "6c655472616e73666572475549444174747269627574654e616d6586928498980b41545f305f372d47554944869284989826"
            + "5f5f6b494d4261736557726974696e67446972656374696f6e4174747269627574654e616d658692848484084e534e756d62"
            + "6572008484074e5356616c7565009584012a848401719fff86928498981d5f5f6b494d4d6573736167655061727441747472"
            + "69627574654e616d658692849f9e849b9b00868699022192849a9b01928498981d5f5f6b494d4d6573736167655061727441"
            + "74747269627574654e616d658692849f9ea49b01868686")
}

// MARK: - A small SQLite wrapper (no pointers handled here: blobs go in as X'…' literals and come
// out through SQL's hex()).

struct SQLiteError: Error, CustomStringConvertible {
    var description: String
}

final class Database {
    private var db: OpaquePointer?

    init(path: String, readOnly: Bool = false) throws {
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else {
            throw SQLiteError(description: "cannot open \(path): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    deinit { sqlite3_close(db) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteError(description: "\(String(cString: sqlite3_errmsg(db))) in: \(sql.prefix(80))")
        }
    }

    /// The rows of `sql`, each column as text (NULL as nil).
    func rows(_ sql: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLiteError(description: "\(String(cString: sqlite3_errmsg(db))) in: \(sql.prefix(80))")
        }
        defer { sqlite3_finalize(statement) }
        var out: [[String?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw SQLiteError(description: String(cString: sqlite3_errmsg(db))) }
            out.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
        return out
    }
}

func hexLiteral(_ d: Data) -> String { "X'" + d.map { String(format: "%02x", $0) }.joined() + "'" }

// MARK: - 1. A database shaped like chat.db

/// Creates the database at `path`: the tables and columns of chat.db read below, and six messages.
func createChatDB(at path: String) throws {
    let db = try Database(path: path)
    try db.execute(
        """
        CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, service TEXT);
        CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT,
            handle_id INTEGER DEFAULT 0, date INTEGER, is_from_me INTEGER DEFAULT 0, attributedBody BLOB);
        CREATE TABLE attachment (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL,
            filename TEXT, mime_type TEXT, transfer_name TEXT);
        CREATE TABLE message_attachment_join (message_id INTEGER, attachment_id INTEGER);
        INSERT INTO handle (id, service) VALUES ('+15550100', 'iMessage'), ('ada@example.com', 'iMessage');
        INSERT INTO attachment (guid, filename, mime_type, transfer_name) VALUES
            ('AT_0_GUID', '~/Library/Messages/Attachments/00/00/AT_0_GUID/IMG_0001.HEIC', 'image/heic', 'IMG_0001.HEIC'),
            ('AT_0_7-GUID', '~/Library/Messages/Attachments/07/07/AT_0_7-GUID/IMG_0002.HEIC', 'image/heic', 'IMG_0002.HEIC');
        """)
    // date: nanoseconds since 2001-01-01, as Messages stores it.
    let messages: [(guid: String, text: String?, handle: Int, fromMe: Bool, body: Data?)] = [
        ("M-1", "an old message: its text is in the text column", 1, false, nil),
        ("M-2", nil, 1, false, Blobs.hi),
        ("M-3", nil, 2, true, Blobs.threeParts),
        ("M-4", nil, 1, false, Blobs.mentionAndLink),
        ("M-5", nil, 2, false, Blobs.longStyled),
        ("M-6", nil, 1, true, Blobs.attachment),
    ]
    for (i, m) in messages.enumerated() {
        try db.execute(
            """
            INSERT INTO message (guid, text, handle_id, date, is_from_me, attributedBody) VALUES
            ('\(m.guid)', \(m.text.map { "'\($0)'" } ?? "NULL"), \(m.handle), \(700_000_000_000_000_000 + i * 60_000_000_000),
             \(m.fromMe ? 1 : 0), \(m.body.map(hexLiteral) ?? "NULL"));
            """)
    }
    try db.execute("INSERT INTO message_attachment_join VALUES (3, 1), (6, 2);")
}

let given = CommandLine.arguments.dropFirst().first
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("messages-bodies-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let chatDB: String
if let given {
    chatDB = given
} else {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    chatDB = directory.appendingPathComponent("chat.db").path
    print("== creating chat.db with the system SQLite \(String(cString: sqlite3_libversion()))")
    try createChatDB(at: chatDB)
}

// MARK: - 2. Reading the bodies back

print("== reading every message of \(given ?? "chat.db")")
/// The attachments (GUID to file name) and the messages (GUID, text, attributedBody as hex, from
/// me, handle) of the database at `path`.
func load(_ path: String) throws -> (attachments: [String: String], rows: [[String?]]) {
    let db = try Database(path: path, readOnly: true)
    var attachments: [String: String] = [:]
    for row in try db.rows("SELECT guid, transfer_name FROM attachment") {
        if let guid = row[0] { attachments[guid] = row[1] ?? guid }
    }
    let rows = try db.rows(
        """
        SELECT m.guid, m.text, hex(m.attributedBody), m.is_from_me, h.id
        FROM message m LEFT JOIN handle h ON h.ROWID = m.handle_id ORDER BY m.date
        """)
    return (attachments, rows)
}

let attachments: [String: String]
let rows: [[String?]]
do {
    (attachments, rows) = try load(chatDB)
} catch {
    print("messages-bodies: \(error)")
    exit(1)
}
var read: [String: (text: String, parts: [MessageBody.Part])] = [:]
for row in rows {
    let guid = row[0] ?? "?"
    let sender = row[3] == "1" ? "me" : (row[4] ?? "?")
    if let text = row[1], !text.isEmpty {
        print("\(guid) \(sender): \(text)")
        read[guid] = (text, [])
        continue
    }
    guard let hex = row[2], !hex.isEmpty else { continue }
    do {
        let body = try MessageBody(attributedBody: blob(hex))
        read[guid] = (body.text, body.parts)
        print("\(guid) \(sender):")
        for part in body.parts {
            if let attachment = part.attachmentGUID {
                print("  part \(part.index ?? -1): attachment \(attachments[attachment] ?? attachment)")
                continue
            }
            print("  part \(part.index ?? -1): \(part.text)")
            for mention in part.mentions { print("    mentions \(mention.handle) as \"\(mention.text)\"") }
            for link in part.links { print("    links to \(link.absoluteString)") }
            for run in part.runs where run.isBold || run.textEffect != nil {
                let style = [run.isBold ? "bold" : nil, run.textEffect.map { "effect \($0)" }].compactMap { $0 }
                print(
                    "    \(style.joined(separator: ", ")): \"\(run.text.prefix(24))\(run.text.count > 24 ? "…" : "")\"")
            }
        }
    } catch {
        // Bad bytes are an error that says what and where, never a crash.
        print("\(guid) \(sender): unreadable body: \(error)")
    }
}

// MARK: - 3. Checks

if given != nil { exit(0) }
print("== checks")
check(read["M-1"]?.text == "an old message: its text is in the text column", "the text column is used when set")
check(read["M-2"]?.text == "hi", "a one-part body: \"hi\"")
check(read["M-3"]?.parts.count == 2, "the attachment and the text are two parts")
check(read["M-3"]?.parts.first?.attachmentGUID == "AT_0_GUID", "the attachment's GUID joins the attachment table")
check(read["M-3"]?.parts.last?.mentions.first?.handle == "+15550100", "the mention names its handle")
check(read["M-3"]?.parts.last?.links.map(\.absoluteString) == ["https://ex.test/x"], "the link is an NSURL")
check(read["M-3"]?.parts.last?.runs.last?.isBold == true, "the link is bold")
check(read["M-4"]?.text == "me when Sam https://example.com/0", "mention and link: the text")
check((read["M-5"]?.text.utf8.count ?? 0) > 200, "a body longer than 200 bytes")
check(read["M-5"]?.parts.first?.runs.contains { $0.textEffect == .big } == true, "a run with the Big effect")
check(read["M-6"]?.parts.first?.attachmentGUID == "AT_0_7-GUID", "a photo with a caption: the photo")
check(read["M-6"]?.parts.last?.text == "sounds tonight are running dinner", "a photo with a caption: the caption")
var corrupt = Blobs.hi
corrupt.removeLast(8)
do {
    _ = try MessageBody(attributedBody: corrupt)
    check(false, "a truncated body is an error")
} catch {
    check(error.code == .truncated, "a truncated body is a typed error: \(error)")
}
if failures > 0 {
    print("messages-bodies: \(failures) check(s) failed")
    exit(1)
}
print("messages-bodies: all checks passed")
