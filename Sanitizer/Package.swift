// swift-tools-version:6.2
// The engine's, the codecs', the RAW/TIFF and the XMP test suites, built with AddressSanitizer by `scripts/test-asan`. A package of
// its own (the test sources, and the test support they share, are the main package's, by symbolic link), so that the sanitized build compiles
// the engine and the codecs only, not the server's dependencies.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

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
    ],
    swiftLanguageModes: [.v6]
)
