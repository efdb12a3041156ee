import CFaces
import Foundation
import Synchronization

/// The dlib engine behind the face requests: libSepiaFaceEngine.so loaded once per process, the models read once per
/// folder, and one engine per thread that uses it (dlib's networks keep state while they run), kept for reuse.
final class FaceEngine: Sendable {
    /// The environment variable that names the engine library, for an installation that keeps it elsewhere.
    static let libraryEnvironmentVariable = "SEPIA_FACE_ENGINE"
    static let libraryName = "libSepiaFaceEngine.so"

    private let prototype: EnginePointer
    private let idle = Mutex<[EnginePointer]>([])
    /// Whether the CNN detector was loaded.
    let hasCNNDetector: Bool

    private static let engines = Mutex<[FaceModels: FaceEngine]>([:])

    /// The engine for `models`, loading the library and reading the models the first time.
    static func shared(models: FaceModels, cnnDetector: Bool = false) throws(VisionError) -> FaceEngine {
        let key = cnnDetector ? FaceModels(directory: models.directory + "#cnn") : models
        if let engine = engines.withLock({ $0[key] }) { return engine }
        let engine = try FaceEngine(models: models, cnnDetector: cnnDetector)
        return engines.withLock { engines in
            if let existing = engines[key] { return existing }
            engines[key] = engine
            return engine
        }
    }

    private init(models: FaceModels, cnnDetector: Bool) throws(VisionError) {
        try Self.loadLibrary()
        try models.verify(FaceModels.landmarks)
        try models.verify(FaceModels.descriptor)
        if cnnDetector { try models.verify(FaceModels.cnnDetector) }
        var error = [CChar](repeating: 0, count: 512)
        let cnnPath = cnnDetector ? models.path(of: FaceModels.cnnDetector) : nil
        let opened = models.path(of: FaceModels.landmarks).withCString { landmarks in
            models.path(of: FaceModels.descriptor).withCString { descriptor in
                Self.withOptionalCString(cnnPath) { cnn in
                    sepia_face_engine_open(landmarks, descriptor, cnn, &error, error.count)
                }
            }
        }
        guard let opened else { throw VisionError(.modelDamaged, Self.string(error)) }
        prototype = EnginePointer(pointer: opened)
        hasCNNDetector = cnnDetector
    }

    deinit {
        sepia_face_engine_close(prototype.pointer)
        for engine in idle.withLock({ $0 }) { sepia_face_engine_close(engine.pointer) }
    }

    /// Runs `body` with an engine no other thread is using.
    func withEngine<T>(_ body: (OpaquePointer) throws(VisionError) -> T) throws(VisionError) -> T {
        let engine: EnginePointer
        if let kept = idle.withLock({ $0.popLast() }) {
            engine = kept
        } else {
            var error = [CChar](repeating: 0, count: 512)
            guard let copy = sepia_face_engine_copy(prototype.pointer, &error, error.count) else {
                throw VisionError(.engineFailed, Self.string(error))
            }
            engine = EnginePointer(pointer: copy)
        }
        defer { idle.withLock { $0.append(engine) } }
        return try body(engine.pointer)
    }

    /// Where the engine library is looked for: `SEPIA_FACE_ENGINE`, then beside the executable, then in `../lib`
    /// from it.
    static var libraryCandidates: [String] {
        var candidates: [String] = []
        if let named = ProcessInfo.processInfo.environment[libraryEnvironmentVariable], !named.isEmpty {
            candidates.append(named)
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        let folder = (executable as NSString).deletingLastPathComponent
        candidates.append(folder + "/" + libraryName)
        candidates.append((folder as NSString).deletingLastPathComponent + "/lib/" + libraryName)
        return candidates
    }

    private static let loaded = Mutex<Result<Void, VisionError>?>(nil)

    /// Loads libSepiaFaceEngine.so from the first candidate that exists, once per process.
    static func loadLibrary() throws(VisionError) {
        let result = loaded.withLock { loaded -> Result<Void, VisionError> in
            if let loaded { return loaded }
            let candidates = libraryCandidates
            guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                let result = Result<Void, VisionError>.failure(
                    VisionError(
                        .engineUnavailable,
                        "the face engine \(libraryName) is not installed (looked in \(candidates.joined(separator: ", "))); "
                            + "build it with `swift build --product SepiaFaceEngine` or scripts/build-release, or set "
                            + "\(libraryEnvironmentVariable) to its path"))
                loaded = result
                return result
            }
            var error = [CChar](repeating: 0, count: 512)
            let result: Result<Void, VisionError> =
                sepia_faces_load(path, &error, error.count) == 1
                ? .success(())
                : .failure(
                    VisionError(
                        .engineUnavailable,
                        "the face engine \(path) could not be loaded: \(string(error)); install dlib with "
                            + "`apt-get install libdlib19.1 libblas3 liblapack3` (scripts/setup does)"))
            loaded = result
            return result
        }
        try result.get()
    }

    static func string(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}

/// An engine pointer, used by one thread at a time (FaceEngine hands each out to one caller).
private struct EnginePointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
