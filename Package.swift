// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// `SEPIA_OPTIMIZE_ENGINE=1` (set by scripts/test) compiles the targets that compute pixels, and their tests, with
/// optimisation in a debug build as well, so that their tests spend seconds where unoptimised code spends minutes
/// (SepiaImage's tests: 138 CPU seconds unoptimised, 6 optimised); the rest stays as the configuration builds it.
let engineSettings: [SwiftSetting] =
    swiftSettings + (Context.environment["SEPIA_OPTIMIZE_ENGINE"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])

let package = Package(
    name: "sepia",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sepia", targets: ["SepiaCLI"]),
        .executable(name: "sepia-library", targets: ["SepiaLibraryCLI"]),
        .library(name: "SepiaImage", targets: ["SepiaImage"]),
        .library(name: "SepiaCodecs", targets: ["SepiaCodecs"]),
        .library(name: "SepiaCoreImage", targets: ["SepiaCoreImage"]),
        .library(name: "SepiaVideo", targets: ["SepiaVideo"]),
        .library(name: "SepiaRAW", targets: ["SepiaRAW"]),
        .library(name: "SepiaMedia", targets: ["SepiaMedia"]),
        .library(name: "SepiaXMP", targets: ["SepiaXMP"]),
        .library(name: "SepiaVision", targets: ["SepiaVision"]),
        .library(name: "SepiaPlaces", targets: ["SepiaPlaces"]),
        // The face engine, C++ over dlib, which SepiaVision loads with dlopen from beside the executable.
        .library(name: "SepiaFaceEngine", type: .dynamic, targets: ["SepiaFaceEngine"]),
        .library(name: "SepiaObjectStore", targets: ["SepiaObjectStore"]),
        .library(name: "SepiaLibrary", targets: ["SepiaLibrary"]),
        .library(name: "SepiaServer", targets: ["SepiaServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C libraries, reached only from SepiaCodecs.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // Loading a shared library on first use, for the C targets below that wrap libraries loaded with dlopen.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CHeif", dependencies: ["CDynamicLibrary"]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libqrencode from Debian, reached only from SepiaServer: the QR code an authenticator app scans.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // FFmpeg's libraries from Debian, reached only from SepiaVideo, with a C layer for the demuxer's bounded
        // input, its deadline and its log. They are loaded with dlopen when the first video is opened, not linked:
        // they bring about 130 shared libraries, which every command would otherwise load at start.
        .target(name: "CFFmpeg", dependencies: ["CDynamicLibrary"]),
        // libtiff and LibRaw from Debian, loaded with dlopen on the first TIFF or RAW file, as libheif is.
        .target(name: "CTIFF", dependencies: ["CDynamicLibrary"]),
        .target(name: "CLibRaw", dependencies: ["CDynamicLibrary"]),
        // Exempi (Adobe's XMP Toolkit) from Debian, with the expat it parses with, loaded with dlopen on the first
        // XMP packet read or written.
        .target(name: "CExempi", dependencies: ["CDynamicLibrary"]),
        // Faces over Debian's dlib: SepiaFaceEngine is C++ behind sepia_faces.h's C API, built only as the
        // dynamic library product of that name (no target depends on it, so nothing links dlib); CFaces loads it
        // with dlopen when faces are first looked for. (SwiftPM links the product with the Swift runtime, which the
        // debug build and the tests have; scripts/build-release compiles the release engine with c++ instead.) The engine is always optimised: dlib's networks run tens of
        // times slower unoptimised.
        .target(
            name: "SepiaFaceEngine",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"), .linkedLibrary("crypto")]),
        .target(name: "CFaces", dependencies: ["CDynamicLibrary"]),

        // The engine: pure Swift, no C and no I/O.
        .target(name: "SepiaImage", resources: [.copy("Resources/FilterData.plist")], swiftSettings: engineSettings),
        // Decoders, encoders and metadata over the C libraries.
        .target(
            name: "SepiaCodecs",
            dependencies: ["SepiaImage", "CJPEG", "CPNG", "CWebP", "CHeif", "CTIFF", "CLCMS2", "CZlib", "CIsal"],
            swiftSettings: engineSettings),
        // Videos over FFmpeg: a probe (container, streams, QuickTime metadata) and a poster frame as an image source.
        .target(name: "SepiaVideo", dependencies: ["SepiaImage", "SepiaCodecs", "CFFmpeg"], swiftSettings: engineSettings),
        // Camera RAW files over LibRaw: the embedded preview for thumbnails, a development in linear light for the
        // rest, and PhotoDecoding, which opens any still photo.
        .target(name: "SepiaRAW", dependencies: ["SepiaImage", "SepiaCodecs", "CLibRaw"], swiftSettings: engineSettings),
        // Every kind of media in one list: the media openers of SepiaCodecs, SepiaRAW and SepiaVideo, which say what
        // a file is and how it is opened, probed, shown and played (docs/media-kinds.md).
        .target(name: "SepiaMedia", dependencies: ["SepiaCodecs", "SepiaRAW", "SepiaVideo"], swiftSettings: swiftSettings),
        // XMP sidecars and packets over Exempi: rating, title, description, keywords, capture date, GPS,
        // Camera Raw's crop and Sepia's edit recipe, read safely and written as digiKam and Lightroom read them.
        .target(name: "SepiaXMP", dependencies: ["SepiaCodecs", "CExempi"], swiftSettings: swiftSettings),
        // Vision's requests and observations for faces (rectangles, landmarks, face prints) over CFaces.
        .target(
            name: "SepiaVision",
            dependencies: ["SepiaImage", "SepiaCodecs", "SepiaRAW", "CFaces"],
            swiftSettings: swiftSettings),
        // Core Image's API spelled over the engine, so Core Image code builds on Linux.
        .target(name: "SepiaCoreImage", dependencies: ["SepiaImage", "SepiaCodecs", "SepiaRAW"], swiftSettings: swiftSettings),
        // An S3 client (Signature V4 over AsyncHTTPClient): the object storage a scale-out deployment keeps files in.
        .target(
            name: "SepiaObjectStore",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        // Places: offline reverse geocoding from GeoNames' tables, in a k-d tree.
        .target(name: "SepiaPlaces", swiftSettings: engineSettings),
        // The photo library: PhotoKit's model on SQLite (GRDB) or PostgreSQL (postgres-nio), content-addressed
        // files, an image store.
        .target(
            name: "SepiaLibrary",
            dependencies: [
                "SepiaImage", "SepiaCodecs", "SepiaVideo", "SepiaRAW", "SepiaMedia", "SepiaXMP", "SepiaObjectStore", "SepiaVision",
                "SepiaPlaces",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        // The HTTP server and the web app: the library over HTTP, accounts, tokens and share links.
        .target(
            name: "SepiaServer",
            dependencies: [
                "SepiaImage", "SepiaCodecs", "SepiaVideo", "SepiaRAW", "SepiaMedia", "SepiaLibrary", "SepiaObjectStore", "SepiaPlaces",
                "CQRencode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Web")],
            swiftSettings: swiftSettings),
        // The image commands (info, thumbnail, apply, strip, convert, filters) and what every command shares:
        // options, batches, exit codes, the terminal.
        .target(
            name: "SepiaCommandLine",
            dependencies: [
                "SepiaImage", "SepiaCodecs", "SepiaVideo", "SepiaRAW", "SepiaMedia",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        // The `sepia` command: runs the image commands itself, with only the engine and the codecs linked in so
        // that it starts quickly, and hands every other command to `sepia-library` beside it.
        .executableTarget(
            name: "SepiaCLI",
            dependencies: [
                "SepiaCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        // `sepia-library`: every command, the library's and the server's included.
        .executableTarget(
            name: "SepiaLibraryCLI",
            dependencies: [
                "SepiaCommandLine", "SepiaImage", "SepiaCodecs", "SepiaVideo", "SepiaRAW", "SepiaXMP", "SepiaLibrary", "SepiaServer",
                "SepiaObjectStore", "SepiaVision", "SepiaPlaces",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),

        // What the test targets share: the program runner and the test videos.
        .target(name: "SepiaTestSupport", path: "Tests/SepiaTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "SepiaImageTests", dependencies: ["SepiaImage"], swiftSettings: engineSettings),
        .testTarget(name: "SepiaCodecsTests", dependencies: ["SepiaCodecs", "SepiaImage", "SepiaTestSupport"], swiftSettings: engineSettings),
        .testTarget(
            name: "SepiaVideoTests", dependencies: ["SepiaVideo", "SepiaCodecs", "SepiaImage", "SepiaTestSupport"], swiftSettings: engineSettings),
        .testTarget(
            name: "SepiaMediaTests", dependencies: ["SepiaMedia", "SepiaCodecs", "SepiaImage", "SepiaTestSupport"], swiftSettings: engineSettings),
        .testTarget(name: "SepiaRAWTests", dependencies: ["SepiaRAW", "SepiaCodecs", "SepiaImage"], swiftSettings: engineSettings),
        .testTarget(
            name: "SepiaVisionTests", dependencies: ["SepiaVision", "CFaces", "SepiaCodecs", "SepiaImage", "SepiaTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(name: "SepiaXMPTests", dependencies: ["SepiaXMP", "SepiaCodecs", "SepiaTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SepiaPlacesTests", dependencies: ["SepiaPlaces", "SepiaTestSupport"], swiftSettings: engineSettings),
        .testTarget(name: "SepiaCoreImageTests", dependencies: ["SepiaCoreImage", "SepiaImage"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaLibraryTests",
            dependencies: [
                "SepiaLibrary", "SepiaCodecs", "SepiaImage", "SepiaObjectStore", "SepiaXMP", "SepiaVision", "SepiaTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaObjectStoreTests",
            dependencies: [
                "SepiaObjectStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaServerTests",
            dependencies: [
                "SepiaServer", "SepiaLibrary", "SepiaCodecs", "SepiaImage", "SepiaObjectStore", "SepiaTestSupport", "SepiaVision",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SepiaCLITests",
            dependencies: [
                "SepiaCLI", "SepiaLibraryCLI", "SepiaCodecs", "SepiaImage", "SepiaLibrary", "SepiaObjectStore", "SepiaTestSupport",
            ],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
