import Foundation
import SepiaCodecs
import SepiaImage
import SepiaObjectStore
import Testing

@testable import SepiaLibrary

/// The commands with `--storage` against a real S3 API (`scripts/object-store`): advice that can be typed as
/// given, and the exit codes a wrong bucket or key ends with.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["SEPIA_S3_ENDPOINT"] != nil, "needs a store: scripts/object-store run DIR -- swift test"))
struct ObjectStorageCommandTests {
    static let environment = ProcessInfo.processInfo.environment
    static let endpoint = environment["SEPIA_S3_ENDPOINT"] ?? ""
    static let region = environment["SEPIA_S3_REGION"] ?? "us-east-1"
    /// The store's keys, as the commands read them.
    static let keys = [
        "AWS_ACCESS_KEY_ID": environment["SEPIA_S3_ACCESS_KEY_ID"] ?? "", "AWS_SECRET_ACCESS_KEY": environment["SEPIA_S3_SECRET_ACCESS_KEY"] ?? "",
    ]

    static func storage(_ bucketAndPrefix: String) -> String {
        "s3://\(bucketAndPrefix)?endpoint=\(endpoint)&region=\(region)"
    }

    @Test("a library opened with the wrong --storage is refused with advice that works when typed as given")
    func adviceCanBeTyped() async throws {
        let prefix = "cli-\(UUID().uuidString.prefix(8).lowercased())"
        let bucket = S3Client(
            location: try S3Location(parsing: Self.storage("sepia-tests/\(prefix)/")),
            credentials: S3Credentials(accessKeyID: Self.keys["AWS_ACCESS_KEY_ID"]!, secretAccessKey: Self.keys["AWS_SECRET_ACCESS_KEY"]!))
        if try await !bucket.bucketExists() { try await bucket.createBucket() }
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library").path
        let photo = folder.appendingPathComponent("photo.jpg")
        try Data(
            ImageEncoding.encode(
                Bitmap(width: 32, height: 24, layout: .rgb, bytes: [UInt8](repeating: 128, count: 32 * 24 * 3)), as: .jpeg,
                options: EncodeOptions(quality: 90))
        ).write(to: photo)
        let imported = try CommandRunner.runBlocking(
            ["import", photo.path, "--library", library, "--storage", Self.storage("sepia-tests/\(prefix)")], environment: Self.keys)
        #expect(imported.status == 0, "\(imported.stderr)")

        let wrong = try CommandRunner.runBlocking(
            ["check", "--library", library, "--storage", Self.storage("no-such-bucket")], environment: Self.keys)
        #expect(wrong.status == 74, "\(wrong.stderr)")
        let advice = "--storage s3://sepia-tests/\(prefix)?endpoint=…"
        #expect(wrong.stderr.contains(advice), "\(wrong.stderr)")
        // The advice, typed as given (with the endpoint filled in), opens the library.
        let typed = try CommandRunner.runBlocking(
            ["check", "--library", library, "--storage", Self.storage("sepia-tests/\(prefix)")], environment: Self.keys)
        #expect(typed.status == 0, "\(typed.stderr)")
    }

    @Test("sepia serve exits with 74 and says why for a missing bucket and for a wrong key")
    func serveRefusesAStoreItCannotUse() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try CommandRunner.runBlocking(
            [
                "serve", "--library", folder.appendingPathComponent("a").path, "--port", "0", "--storage",
                Self.storage("no-such-bucket-\(UUID().uuidString.prefix(6).lowercased())"),
            ],
            environment: Self.keys)
        #expect(missing.status == 74, "\(missing.stderr)")
        #expect(missing.stderr.contains("bucket does not exist"), "\(missing.stderr)")
        var wrongKey = Self.keys
        wrongKey["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        let refused = try CommandRunner.runBlocking(
            ["serve", "--library", folder.appendingPathComponent("b").path, "--port", "0", "--storage", Self.storage("sepia-tests")],
            environment: wrongKey)
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(refused.stderr.contains("check the access key"), "\(refused.stderr)")
    }
}
