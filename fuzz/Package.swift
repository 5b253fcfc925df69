// swift-tools-version:6.2
// The libFuzzer harness for KeyedArchive: one executable target per entry point, each a single
// file holding `LLVMFuzzerTestOneInput`. Build one at a time with `fuzz/run`, or by hand:
//   swift build -c release --product FuzzDocument --sanitize fuzzer --sanitize address
// (always pass `--product`: MakeSeeds has its own `main`).
import PackageDescription

let package = Package(
    name: "KeyedArchiveFuzz",
    dependencies: [
        .package(name: "KeyedArchive", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzCommon",
            dependencies: [.product(name: "PropertyList", package: "KeyedArchive")]
        ),
        // The root's typedstream sample writer and seeded generators (its BenchmarkWorkloads target, not
        // a product): compiled here from the same folder, through the symbolic link Sources/Workloads ->
        // ../../Sources/BenchmarkWorkloads, under a name of its own (a package graph holds one target
        // of a name, and the root's `bplist` product has BenchmarkWorkloads).
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "PropertyList", package: "KeyedArchive"),
                .product(name: "KeyedArchive", package: "KeyedArchive"),
                .product(name: "TypedStream", package: "KeyedArchive"),
            ],
            path: "Sources/Workloads"
        ),
        .executableTarget(name: "FuzzDocument", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzValue", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzZlib", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzSplit", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzXML", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzOpenStep", dependencies: ["FuzzCommon"]),
        .executableTarget(
            name: "FuzzKeyed",
            dependencies: ["FuzzCommon", .product(name: "KeyedArchive", package: "KeyedArchive")]
        ),
        // Codable (issue 21): PlistDecoder/PlistEncoder on a fixed recursive model.
        .executableTarget(name: "FuzzCodable", dependencies: ["FuzzCommon"]),
        .executableTarget(
            name: "FuzzTypedStream",
            dependencies: [
                "FuzzCommon", "Workloads", .product(name: "KeyedArchive", package: "KeyedArchive"),
                .product(name: "TypedStream", package: "KeyedArchive"),
            ]
        ),
        // Differential (issue 31): our readers against Foundation's on the same bytes.
        .executableTarget(name: "FuzzDifferential", dependencies: ["FuzzCommon"]),
        // Keyed archives against NSKeyedUnarchiver, Codable against PropertyListDecoder (issue 31).
        .executableTarget(
            name: "FuzzDifferentialArchive",
            dependencies: ["FuzzCommon", .product(name: "KeyedArchive", package: "KeyedArchive")]
        ),
        .executableTarget(
            name: "MakeSeeds",
            dependencies: [
                "FuzzCommon", "Workloads", .product(name: "TypedStream", package: "KeyedArchive"),
            ]
        ),
    ]
)
