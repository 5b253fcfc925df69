// swift-tools-version:6.2
// sanitize/Package.swift - The library test suites under a sanitizer, without what they do not test
// (`scripts/sanitize` builds this package, never the root one).
//
// `swift build --build-tests --sanitize=…` of the root package compiles swift-syntax (the macro
// plugin and its expansion tests), swift-argument-parser and the tool with its tests under the
// sanitizer, and runs none of them. This package holds only the library targets and the library
// test targets, each the root's own folder through a committed symbolic link
// (Sources/PropertyList -> ../../Sources/PropertyList, Tests/PropertyListTests ->
// ../../Tests/PropertyListTests, …), with the root's target names and the root's settings (`strict`
// below, checked against the root's by scripts/sanitize): the sanitized code is the code we ship, and
// the tests are the same files. It depends on swift-property-based only.
//
// KEYEDARCHIVE_SANITIZE_SUITES chooses the tests compiled:
//   unset, or "library"  every file of PropertyListTests, KeyedArchiveTests and TypedStreamTests
//                        (scripts/sanitize address runs them all)
//   "concurrency"        the files of the concurrency suites (scripts/sanitize thread runs
//                        `--filter Concurrency`) and the helpers they use, on PropertyList and
//                        KeyedArchive alone: Tests/Concurrency/<target>/, one symbolic link per file
//                        (scripts/sanitize fails when a library test file that names "Concurrency" has
//                        no link there)
import PackageDescription

/// As the root's library targets: unsafe constructs marked `unsafe` at the use site, an unmarked one
/// is an error; `import X` is internal.
let strict: [SwiftSetting] = [
    .strictMemorySafety(),
    .treatWarning("StrictMemorySafety", as: .error),
    // `import X` is internal; a module whose types appear in public API is imported `public import`.
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let suites = Context.environment["KEYEDARCHIVE_SANITIZE_SUITES"] ?? "library"
let concurrencyOnly = suites == "concurrency"

/// The root's library targets (no macro plugin, no tool).
var targets: [Target] = [
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(name: "PropertyList", dependencies: ["CZlib"], swiftSettings: strict),
    .target(name: "KeyedArchive", dependencies: ["PropertyList"], swiftSettings: strict),
]

if concurrencyOnly {
    // The concurrency suites and their helpers (`ScratchDirectory` and the descriptor counts of
    // Support/FileFaults.swift; `Person` and `Dog` of Fixtures.swift), under the root's target names.
    targets += [
        .testTarget(
            name: "PropertyListTests", dependencies: ["PropertyList"], path: "Tests/Concurrency/PropertyListTests"),
        .testTarget(
            name: "KeyedArchiveTests", dependencies: ["KeyedArchive", "PropertyList"],
            path: "Tests/Concurrency/KeyedArchiveTests"),
    ]
} else {
    let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")
    targets += [
        .target(name: "TypedStream", dependencies: ["KeyedArchive", "PropertyList"], swiftSettings: strict),
        // Without the MacroBench trait, as in the root's default build.
        .target(
            name: "BenchmarkWorkloads", dependencies: ["PropertyList", "KeyedArchive", "TypedStream"],
            swiftSettings: strict),
        .target(
            name: "KeyedArchiveTestSupport",
            dependencies: ["PropertyList", "KeyedArchive", "TypedStream", "BenchmarkWorkloads"],
            swiftSettings: strict),
        .testTarget(
            name: "PropertyListTests", dependencies: ["PropertyList", "KeyedArchiveTestSupport", propertyBased]),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: ["KeyedArchive", "PropertyList", "KeyedArchiveTestSupport", propertyBased]),
        .testTarget(
            name: "TypedStreamTests",
            dependencies: ["TypedStream", "KeyedArchive", "PropertyList", "KeyedArchiveTestSupport", propertyBased]),
    ]
}

let package = Package(
    name: "KeyedArchiveSanitized",
    // As the root package.
    platforms: [.macOS(.v26), .iOS(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26)],
    dependencies: concurrencyOnly
        ? [] : [.package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1")],
    targets: targets
)
