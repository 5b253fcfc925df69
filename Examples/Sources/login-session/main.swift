// login-session - Keep a user logged in across restarts.
//
// An app signs the user in once, then persists *who* is signed in (the account) and the *session
// token* the server issued, so that the next launch can skip the login screen. The archive is
// written atomically (temporary file, fsync, rename): a crash mid-write leaves the previous session
// file intact, never half of one.
//
// SECURITY: passwords, refresh tokens, private keys and other long-lived secrets do NOT belong in
// an archive or any plain file. Keep them in the platform's keychain / secret store (Keychain
// Services on Apple platforms, the Secret Service / libsecret on Linux, the Credential Manager on
// Windows). A session token is a bearer credential too: give it an expiry, delete the file on
// logout, and keep the file in a directory only the user can read (done below with mode 0700).
// Where a keychain is available, store the token there as well and archive only the account.
//
// Run: swift run login-session

import Foundation
import KeyedArchive

/// The signed-in user: what the app shows and needs to talk to the server. No password.
final class Account: KeyedArchivable {
    let userID: Int
    let email: String
    let displayName: String

    init(userID: Int, email: String, displayName: String) {
        self.userID = userID
        self.email = email
        self.displayName = displayName
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(userID, forKey: "userID")
        try coder.encode(email, forKey: "email")
        try coder.encode(displayName, forKey: "displayName")
    }

    init(from coder: KeyedUnarchiver) throws {
        userID = try coder.decode(Int.self, forKey: "userID")
        email = try coder.decode(String.self, forKey: "email")
        displayName = try coder.decode(String.self, forKey: "displayName")
    }
}

/// A server session: the account plus the short-lived token that authenticates its requests.
final class Session: KeyedArchivable {
    let account: Account
    let token: String
    let expires: Date

    init(account: Account, token: String, expires: Date) {
        self.account = account
        self.token = token
        self.expires = expires
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(account, forKey: "account")
        try coder.encode(token, forKey: "token")
        try coder.encode(expires, forKey: "expires")
    }

    init(from coder: KeyedUnarchiver) throws {
        // Secure by construction: each decode names the class it expects, so a tampered file
        // holding another class is rejected before any of that object's fields is read.
        account = try coder.decode(Account.self, forKey: "account")
        token = try coder.decode(String.self, forKey: "token")
        expires = try coder.decode(Date.self, forKey: "expires")
    }
}

/// Where the app keeps its session between launches.
struct SessionStore {
    let file: URL

    /// The saved session, or `nil` when there is none, it expired, or the file is unreadable.
    func restore(now: Date) -> Session? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            let session = try KeyedUnarchiver.unarchivedObject(ofClass: Session.self, fromFile: file)
            return session.expires > now ? session : nil
        } catch let error as KeyedArchiveError {
            // A damaged or foreign file is "logged out", not a crash. `code` is stable to branch on.
            print("  (ignoring the session file: \(error.code))")
            return nil
        } catch {
            print("  (ignoring the session file: \(error))")
            return nil
        }
    }

    /// Replaces the saved session atomically.
    func save(_ session: Session) throws {
        try KeyedArchiver.archiveRootObject(session, toFile: file)
    }

    /// Logging out forgets the token.
    func clear() throws {
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }
}

/// Stand-in for the server: trades credentials for a session. (The password is used once, here,
/// and never stored; a real app would read it from the login form or the keychain.)
func signIn(email: String, password: String, now: Date) -> Session {
    let account = Account(userID: 42, email: email, displayName: "Ada Lovelace")
    let token = "st_" + UUID().uuidString.lowercased()
    return Session(account: account, token: token, expires: now.addingTimeInterval(30 * 24 * 3600))
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

// A private directory for the app's state (owner-only permissions).
let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("keyedarchive-login-\(UUID().uuidString)")
try FileManager.default.createDirectory(
    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: directory) }
let store = SessionStore(file: directory.appendingPathComponent("session.archive"))
let now = Date()

print("launch 1: nothing saved yet")
check(store.restore(now: now) == nil, "no session: show the login screen")
let first = signIn(email: "ada@example.com", password: "correct horse battery staple", now: now)
try store.save(first)
print("  signed in as \(first.account.email); session saved to \(store.file.lastPathComponent)")

// Everything in memory is gone after a restart; only the file survives.
print("launch 2: the app restarts")
guard let restored = store.restore(now: now) else {
    print("  FAILED: the saved session was not restored")
    exit(1)
}
print("  welcome back, \(restored.account.displayName)")
check(restored.account.userID == 42 && restored.account.email == "ada@example.com", "same account")
check(restored.token == first.token, "same session token")
check(restored.expires == first.expires, "same expiry")

print("launch 3: the server rotated the token; the file is replaced atomically")
let rotated = Session(account: restored.account, token: "st_rotated", expires: now.addingTimeInterval(3600))
try store.save(rotated)
check(store.restore(now: now)?.token == "st_rotated", "the new token replaced the old one")

print("launch 4: a month later the token has expired")
check(store.restore(now: now.addingTimeInterval(7200)) == nil, "expired session: log in again")

print("log out")
try store.clear()
check(store.restore(now: now) == nil, "no session after logout")
print("login-session: OK")
