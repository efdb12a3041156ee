// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "sepia",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sepia", targets: ["SepiaCLI"]),
        .library(name: "SepiaImage", targets: ["SepiaImage"]),
        .library(name: "SepiaCodecs", targets: ["SepiaCodecs"]),
        .library(name: "SepiaCoreImage", targets: ["SepiaCoreImage"]),
        .library(name: "SepiaLibrary", targets: ["SepiaLibrary"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // C libraries, reached only from SepiaCodecs.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // The engine: pure Swift, no C and no I/O.
        .target(name: "SepiaImage", resources: [.copy("Resources/FilterData.plist")], swiftSettings: swiftSettings),
        // Decoders, encoders and metadata over the C libraries.
        .target(
            name: "SepiaCodecs",
            dependencies: ["SepiaImage", "CJPEG", "CPNG", "CWebP", "CHeif", "CLCMS2", "CZlib"],
            swiftSettings: swiftSettings),
        // Core Image's API spelled over the engine, so Core Image code builds on Linux.
        .target(name: "SepiaCoreImage", dependencies: ["SepiaImage", "SepiaCodecs"], swiftSettings: swiftSettings),
        // The photo library: PhotoKit's model on SQLite (GRDB), content-addressed files, an image store.
        .target(
            name: "SepiaLibrary",
            dependencies: [
                "SepiaImage", "SepiaCodecs",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        // The `sepia` command.
        .executableTarget(
            name: "SepiaCLI",
            dependencies: [
                "SepiaImage", "SepiaCodecs", "SepiaLibrary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),

        .testTarget(name: "SepiaImageTests", dependencies: ["SepiaImage"], swiftSettings: swiftSettings),
        .testTarget(name: "SepiaCodecsTests", dependencies: ["SepiaCodecs", "SepiaImage"], swiftSettings: swiftSettings),
        .testTarget(name: "SepiaCoreImageTests", dependencies: ["SepiaCoreImage", "SepiaImage"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaLibraryTests",
            dependencies: ["SepiaLibrary", "SepiaCodecs", "SepiaImage", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaCLITests", dependencies: ["SepiaCLI", "SepiaCodecs", "SepiaImage", "SepiaLibrary"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
