// swift-tools-version:6.2
// libFuzzer targets for Sepia's parsers and decoders, built with `swift build --sanitize=fuzzer --sanitize=address`
// (libFuzzer provides main). Kept apart from the main package so its build never needs the fuzzer runtime.
// Run with `scripts/fuzz`.
import PackageDescription

let package = Package(
    name: "sepia-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "Root/sepia")],
    targets: [
        .executableTarget(
            name: "HeaderFuzzer",
            dependencies: [.product(name: "SepiaCodecs", package: "sepia")]),
        .executableTarget(
            name: "EXIFFuzzer",
            dependencies: [.product(name: "SepiaCodecs", package: "sepia")]),
        .executableTarget(
            name: "DecodeFuzzer",
            dependencies: [.product(name: "SepiaCodecs", package: "sepia"), .product(name: "SepiaImage", package: "sepia")]),
        .executableTarget(
            name: "RAWFuzzer",
            dependencies: [
                .product(name: "SepiaRAW", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"),
                .product(name: "SepiaImage", package: "sepia"),
            ]),
        .executableTarget(
            name: "XMPFuzzer",
            dependencies: [.product(name: "SepiaXMP", package: "sepia")]),
        // The face engine is linked as the dynamic library it is (instrumented like the rest), and SepiaVision's
        // loader opens that same library.
        .executableTarget(
            name: "FaceFuzzer",
            dependencies: [
                .product(name: "SepiaVision", package: "sepia"), .product(name: "SepiaImage", package: "sepia"),
                .product(name: "SepiaFaceEngine", package: "sepia"),
            ]),
        .executableTarget(
            name: "VideoFuzzer",
            dependencies: [
                .product(name: "SepiaVideo", package: "sepia"), .product(name: "SepiaCodecs", package: "sepia"),
                .product(name: "SepiaImage", package: "sepia"),
            ]),
    ]
)
