// swift-tools-version:6.2
// Benchmarks/Package.swift - The benchmark suite, a nested package so that the root package's
// `swift build`/`swift test` never compile package-benchmark (see ../shared/TOOLCHAIN.md, section 4).
// Three benchmark targets, rows named workload/operation/implementation with Foundation's rows beside ours:
//   PropertyListBenchmarks   the core codec on mixed/strings/numbers (decode, encode, open, lookup, zlib)
//   KeyedArchiveBenchmarks  keyed archives on 20,000 Person objects (unarchive, archive, plist decode;
//                           hand-written, @KeyedArchivable and Codable against NSKeyedArchiver), and
//                           on the realistic people workload (Sources/PeopleModel; our models of it in
//                           Sources/Workloads, a link to ../Sources/BenchmarkWorkloads)
//   TypedStreamBenchmarks   typedstreams (NSArchiver): 2,000 Messages bodies, one stream of 50,000
//                           records with shared objects (events, object layer, typed values, MessageBody)
//
//   cd Benchmarks && swift package benchmark                 # everything
//   swift package benchmark --target KeyedArchiveBenchmarks  # one target
//   swift package benchmark --filter 'mixed/.*'              # one workload (whole-match regex)
//   ../scripts/bench-check                                   # CI: smoke run + malloc thresholds
//
// BENCH_CORE_PATH=<dir> builds against another checkout of the root package (e.g. a snapshot of
// one commit) instead of "..".
import PackageDescription

let corePath = Context.environment["BENCH_CORE_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? ".."

let package = Package(
    name: "KeyedArchiveBenchmarks",
    // As the package they build on.
    platforms: [.macOS(.v26), .iOS(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26)],
    dependencies: [
        // Named, so the product reference does not depend on the directory the repo is cloned into.
        .package(name: "KeyedArchive", path: corePath),
        // MallocInterposer instead of the default trait: the runtime interposer is not mirrored here.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The inputs and models, written once with `bplist bench` and `generate` in the root's
        // BenchmarkWorkloads target (not a product): compiled here from the same folder, through the
        // symbolic link Sources/Workloads -> ../../Sources/BenchmarkWorkloads, under a name of its own (a
        // package graph holds one target of a name, and the root's `bplist` product has
        // BenchmarkWorkloads). Deterministic in-process equivalents of ../shared/peers' workloads (or the
        // real files), the peers' models, ours of the people workload (MacroBench: with the
        // @KeyedArchivable ones) and the typedstream workloads.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "PropertyList", package: "KeyedArchive"),
                .product(name: "KeyedArchive", package: "KeyedArchive"),
                .product(name: "TypedStream", package: "KeyedArchive"),
                .product(name: "KeyedArchiveMacros", package: "KeyedArchive"),
            ],
            path: "Sources/Workloads",
            swiftSettings: [.define("MacroBench")]
        ),
        // The realistic keyed workload's Foundation model and data (its module name is in the archive's
        // class names: PeopleModel.Person), shared by KeyedArchiveBenchmarks and people-peer.
        .target(name: "PeopleModel", path: "Sources/PeopleModel"),
        // NSKeyedArchiver/NSKeyedUnarchiver on that workload as a peer of ../shared/peers'
        // protocol, for scripts/compare-peers (`swift build -c release --product people-peer`).
        .executableTarget(name: "people-peer", dependencies: ["PeopleModel"], path: "Sources/PeoplePeer"),
        // The configuration every benchmark target runs with (what CI gates, in one place).
        .target(
            name: "SuiteConfiguration",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Sources/SuiteConfiguration"
        ),
        .executableTarget(
            name: "PropertyListBenchmarks",
            dependencies: [
                "Workloads",
                "SuiteConfiguration",
                .product(name: "PropertyList", package: "KeyedArchive"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PropertyListBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Keyed archives (KeyedArchiver/KeyedUnarchiver) against NSKeyedArchiver/NSKeyedUnarchiver:
        // full Foundation for the peers, so its own target.
        .executableTarget(
            name: "KeyedArchiveBenchmarks",
            dependencies: [
                "SuiteConfiguration",
                "PeopleModel",
                "Workloads",
                .product(name: "KeyedArchive", package: "KeyedArchive"),
                .product(name: "KeyedArchiveMacros", package: "KeyedArchive"),
                .product(name: "PropertyList", package: "KeyedArchive"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/KeyedArchiveBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Typedstreams (NSArchiver's format): ours only (swift-corelibs-foundation has no NSUnarchiver;
        // the Python peer is in scripts/compare-typedstream).
        .executableTarget(
            name: "TypedStreamBenchmarks",
            dependencies: [
                "SuiteConfiguration",
                "Workloads",
                .product(name: "TypedStream", package: "KeyedArchive"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TypedStreamBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
