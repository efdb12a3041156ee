// swift-tools-version:6.2
// What runs under AddressSanitizer, built once by `scripts/build-sanitized`: the engine's, the codecs', the RAW/TIFF
// and the XMP test suites (`scripts/test-asan`), and the libFuzzer targets (`scripts/fuzz`). A package of its own (the
// test sources, and the test support they share, are the main package's, by symbolic link), so that the sanitized
// build compiles the engine, the codecs and the media they fuzz, not the server's dependencies. Every module is
// compiled with the fuzzer's coverage instrumentation too, so that one build serves both: the tests link without
// libFuzzer (AddressSanitizer's runtime answers the coverage hooks), the fuzz targets with its driver (CLibFuzzer).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A libFuzzer target: `Fuzzers/NAME/main.swift`, which ends by handing the process to libFuzzer (`runFuzzer`).
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzerDriver"] + dependencies, path: "Fuzzers/\(name)")
}

let package = Package(
    name: "sepia-sanitizer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "Root/sepia")],
    targets: [
        .target(name: "SepiaTestSupport", path: "Tests/SepiaTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaImageTests", dependencies: [.product(name: "SepiaImage", package: "sepia")], path: "Tests/SepiaImageTests",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaCodecsTests",
            dependencies: [.product(name: "SepiaCodecs", package: "sepia"), .product(name: "SepiaImage", package: "sepia"), "SepiaTestSupport"],
            path: "Tests/SepiaCodecsTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaRAWTests",
            dependencies: [
                .product(name: "SepiaRAW", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"),
                .product(name: "SepiaImage", package: "sepia"),
            ],
            path: "Tests/SepiaRAWTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaXMPTests",
            dependencies: [.product(name: "SepiaXMP", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"), "SepiaTestSupport"],
            path: "Tests/SepiaXMPTests", swiftSettings: swiftSettings),

        .systemLibrary(name: "CLibFuzzer", path: "Fuzzers/CLibFuzzer"),
        .target(name: "FuzzerDriver", dependencies: ["CLibFuzzer"], path: "Fuzzers/FuzzerDriver"),
        fuzzer("HeaderFuzzer", [.product(name: "SepiaCodecs", package: "sepia")]),
        fuzzer("EXIFFuzzer", [.product(name: "SepiaCodecs", package: "sepia")]),
        fuzzer("DecodeFuzzer", [.product(name: "SepiaCodecs", package: "sepia"), .product(name: "SepiaImage", package: "sepia")]),
        fuzzer(
            "RAWFuzzer",
            [
                .product(name: "SepiaRAW", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"),
                .product(name: "SepiaImage", package: "sepia"),
            ]),
        fuzzer("XMPFuzzer", [.product(name: "SepiaXMP", package: "sepia")]),
        // The face engine is linked as the dynamic library it is (instrumented like the rest), and SepiaVision's
        // loader opens that same library.
        fuzzer(
            "FaceFuzzer",
            [
                .product(name: "SepiaVision", package: "sepia"), .product(name: "SepiaImage", package: "sepia"),
                .product(name: "SepiaFaceEngine", package: "sepia"),
            ]),
        fuzzer(
            "VideoFuzzer",
            [
                .product(name: "SepiaVideo", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"),
                .product(name: "SepiaImage", package: "sepia"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
