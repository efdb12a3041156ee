// swift-tools-version:6.2
// Sepia's benchmarks (ordo-one/benchmark), kept apart from the main package so its dependency graph
// stays clean.  Run: cd Benchmarks && swift package benchmark
// The photos are taken from $SEPIA_BENCH_PHOTOS (a folder holding spices-24mp.jpg), else from the test corpus.
import PackageDescription

let package = Package(
    name: "sepia-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "Root/sepia"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SepiaImage", package: "sepia"),
                .product(name: "SepiaCodecs", package: "sepia"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "LibraryBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SepiaLibrary", package: "sepia"),
                .product(name: "SepiaCodecs", package: "sepia"),
            ],
            path: "Benchmarks/LibraryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Reverse geocoding's lookups per second, for scripts/bench-places (which compares the peer in the same run).
        .executableTarget(
            name: "PlacesBenchmark",
            dependencies: [.product(name: "SepiaPlaces", package: "sepia")],
            path: "Benchmarks/PlacesBenchmark"),
        // The search box's and the map's answers on a generated library, for scripts/bench-search.
        .executableTarget(
            name: "SearchBenchmark",
            dependencies: [.product(name: "SepiaLibrary", package: "sepia"), .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/SearchBenchmark"),
        // Not a benchmark of its own: gives a library the faces of many people for scripts/bench-browser --people.
        .executableTarget(
            name: "PeopleLibrary",
            dependencies: [.product(name: "SepiaLibrary", package: "sepia")],
            path: "Benchmarks/PeopleLibrary"),
    ]
)
