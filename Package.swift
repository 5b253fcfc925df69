// swift-tools-version:6.2
import CompilerPluginSupport
import PackageDescription

/// Every library target and the tool: unsafe constructs must be marked `unsafe` at the use site, and
/// an unmarked one is a build error, not a warning (the compiler holds the fence; see ARCHITECTURE.md).
let strict: [SwiftSetting] = [
    .strictMemorySafety(),
    .treatWarning("StrictMemorySafety", as: .error),
    // `import X` is internal; a module whose types appear in public API is imported `public import`.
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// `KEYEDARCHIVE_MACRO=off` leaves `@KeyedArchivable` out of the package (its product, the plugin, the
/// two macro test targets) and with it swift-syntax. `scripts/test --release` sets it: the macro's
/// expansion is the same text whatever the configuration and its tests run in the debug step, while
/// swift-syntax compiled with `-O` was half of the release test build (813 s with it, 420 s without,
/// on a 2-core machine).
let macro = Context.environment["KEYEDARCHIVE_MACRO"] != "off"

/// The test targets' own code in a release build: `-Onone`. What they test, the libraries and the
/// tool, is compiled with `-O` (the code users ship); optimising the suites' own code tests nothing
/// (their compile: 195 s with `-O`, 127 s without). Only the few `@inlinable` library functions are
/// specialised into the tests unoptimised; the tool's tests run the `-O` executable. Root-package
/// test targets only: no product carries the unsafe flag.
let tests: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "KeyedArchive",
    // The newest availability among the standard-library and Foundation APIs the libraries use
    // (`UTF8Span`, `Array.span`, `Data.span`: 26; `Mutex`, `Atomic`, `Int128`: 15). The list and
    // where each version comes from are in ARCHITECTURE.md, "Platforms".
    platforms: [.macOS(.v26), .iOS(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26)],
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        // NSArchiver's typedstream (Messages bodies, old preferences, nibs, colour lists), read into the
        // same typed values as keyed archives.
        .library(name: "TypedStream", targets: ["TypedStream"]),
        .executable(name: "bplist", targets: ["bplist"]),
    ]
        // `@KeyedArchivable`: the only product that builds swift-syntax (see README, build cost).
        + (macro ? [.library(name: "KeyedArchiveMacros", targets: ["KeyedArchiveMacros"])] : []),
    traits: [
        // Off by default, so that building the tool (the README's main job) never builds swift-syntax.
        .trait(
            name: "MacroBench",
            description: "bplist bench: the unarchive-macro/archive-macro operations (builds swift-syntax)"
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ]
        // The macro plugin only; the version matches the toolchain (603 for Swift 6.3).
        + (macro ? [.package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1")] : []),
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "PropertyList", dependencies: ["CZlib"], swiftSettings: strict),
        .target(name: "KeyedArchive", dependencies: ["PropertyList"], swiftSettings: strict),
        .target(name: "TypedStream", dependencies: ["KeyedArchive", "PropertyList"], swiftSettings: strict),
        // Not products (ARCHITECTURE.md, "Test support and benchmark workloads"); no library depends on
        // them. The data generators the tool ships as well: the seeded generator, the typedstream
        // sample writer and workloads, the benchmark models and plist workloads (fuzz/ and Benchmarks/
        // compile this folder too, through a symbolic link, as a target named Workloads).
        .target(
            name: "BenchmarkWorkloads",
            dependencies: ["PropertyList", "KeyedArchive", "TypedStream"]
                + (macro ? [.byName(name: "KeyedArchiveMacros", condition: .when(traits: ["MacroBench"]))] : []),
            swiftSettings: strict
        ),
        // What the test targets share: value generators, hex fixtures, the corpus locator, the graph
        // comparisons; it re-exports BenchmarkWorkloads. Tests only: the tool never links it.
        .target(
            name: "KeyedArchiveTestSupport",
            dependencies: ["PropertyList", "KeyedArchive", "TypedStream", "BenchmarkWorkloads"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "bplist",
            dependencies: [
                "PropertyList", "KeyedArchive", "TypedStream", "BenchmarkWorkloads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PropertyListTests",
            dependencies: [
                "PropertyList", "KeyedArchiveTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: [
                "KeyedArchive", "PropertyList", "KeyedArchiveTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: tests
        ),
        .testTarget(
            name: "TypedStreamTests",
            dependencies: [
                "TypedStream", "KeyedArchive", "PropertyList", "KeyedArchiveTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: tests
        ),
        // Runs the built `bplist` (ToolRunner.swift finds it in the products directory, which
        // `swift build --build-tests` and `swift test` fill) and imports nothing of it, so it does not
        // depend on it: the test targets are compiled for the host (KeyedArchiveMacrosExpansionTests
        // depends on the macro), and a dependency compiled the tool and swift-argument-parser a second
        // time, for the host, only to link them unused into the test bundle.
        .testTarget(
            name: "bplistToolTests",
            dependencies: ["PropertyList", "KeyedArchive", "TypedStream", "KeyedArchiveTestSupport"],
            swiftSettings: tests
        ),
    ] + (macro ? macroTargets : [])
)

/// `@KeyedArchivable`: the plugin (on swift-syntax), the library users import, and their tests.
var macroTargets: [Target] {
    [
        .macro(
            name: "KeyedArchiveMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeyedArchiveMacros",
            dependencies: ["KeyedArchive", "KeyedArchiveMacrosPlugin"],
            swiftSettings: strict
        ),
        .testTarget(name: "KeyedArchiveMacrosTests", dependencies: ["KeyedArchiveMacros", "PropertyList"]),
        .testTarget(
            name: "KeyedArchiveMacrosExpansionTests",
            dependencies: [
                "KeyedArchiveMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ]
}
