// swift-tools-version:6.2
import PackageDescription

/// Every library target and the tool: unsafe constructs must be marked `unsafe` at the use site, and
/// an unmarked one is a build error, not a warning (the compiler holds the fence; see ARCHITECTURE.md).
let strict: [SwiftSetting] = [
    .strictMemorySafety(),
    .treatWarning("StrictMemorySafety", as: .error),
    // `import X` is internal; a module whose types appear in public API is imported `public import`.
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KeyedArchive",
    products: [
        .library(name: "BinaryPlist", targets: ["BinaryPlist"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .executable(name: "bplist", targets: ["bplist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "BinaryPlist", dependencies: ["CZlib"], swiftSettings: strict),
        .target(name: "KeyedArchive", dependencies: ["BinaryPlist"], swiftSettings: strict),
        .executableTarget(
            name: "bplist",
            dependencies: [
                "BinaryPlist", "KeyedArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BinaryPlistTests",
            dependencies: ["BinaryPlist", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: [
                "KeyedArchive", "BinaryPlist", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "bplistToolTests", dependencies: ["bplist", "BinaryPlist", "KeyedArchive"]),
    ]
)
