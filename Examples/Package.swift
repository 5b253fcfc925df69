// swift-tools-version:6.2
// Examples/Package.swift - Runnable, documented scenarios for PropertyList and KeyedArchive.
//
// A nested package, so the root package's `swift build`/`swift test` never compile these. One
// executable per scenario: each Sources/<scenario>/main.swift is a complete program you can read
// (and copy) top to bottom, run on its own, and that exits non-zero when a check fails.
//
//   cd Examples && swift run person-and-dog      # one scenario
//   scripts/examples                             # all of them (from the repository root; CI runs this)
import Foundation
import PackageDescription

let scenarios = [
    "login-session",  // (a) keep a user logged in across restarts (atomic file)
    "person-and-dog",  // (b) a Person with a Dog; several objects under their own keys
    "object-array",  // (c) an array of custom objects
    "class-mapping",  // (d) one class name on write, another class on read
    "codable-settings",  // (e) a Codable settings model, zero boilerplate
    "apple-archive",  // (f) reading an archive written by NSKeyedArchiver on an Apple platform
    "appended-data",  // (g) bytes appended to an archive: the error, and recovery
    "defaults-store",  // (h) an archived user in UserDefaults and in a plist file, read by a second process
    "macro-archivable",  // (i) the scenarios above with @KeyedArchivable beside the hand-written classes
    "plist-settings",  // (j) a Foundation PropertyListEncoder settings store moved to PlistEncoder/PlistDecoder
    "messages-bodies",  // (k) message bodies out of a database shaped like Messages' chat.db (typedstream)
]

/// README.md's Swift snippets as programs (Sources/readme-N, written by scripts/readme-snippets,
/// git-ignored): compiled with the scenarios, with warnings as errors, never run.
let readmeSnippets =
    ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Sources")) ?? [])
    .filter { $0.hasPrefix("readme-") }.sorted()

let package = Package(
    name: "KeyedArchiveExamples",
    // As the package they build on.
    platforms: [.macOS(.v26), .iOS(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26)],
    dependencies: [
        // Named, so the product references do not depend on the directory the repo is cloned into.
        .package(name: "KeyedArchive", path: "..")
    ],
    targets: scenarios.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                .product(name: "KeyedArchive", package: "KeyedArchive"),
                .product(name: "PropertyList", package: "KeyedArchive"),
            ] + (name == "macro-archivable" ? [.product(name: "KeyedArchiveMacros", package: "KeyedArchive")] : [])
                + (name == "messages-bodies"
                    ? [.product(name: "TypedStream", package: "KeyedArchive"), "CSQLite"] : []),
            path: "Sources/\(name)"
        )
    }
        + readmeSnippets.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    .product(name: "KeyedArchive", package: "KeyedArchive"),
                    .product(name: "PropertyList", package: "KeyedArchive"),
                    .product(name: "TypedStream", package: "KeyedArchive"),
                    .product(name: "KeyedArchiveMacros", package: "KeyedArchive"),
                ],
                path: "Sources/\(name)"
            )
        } + [
            // The system SQLite library (Debian/Ubuntu: libsqlite3-dev; scripts/ensure-deps installs it).
            .systemLibrary(
                name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])])
        ]
)
