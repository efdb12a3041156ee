import SepiaCommandLine
import SepiaVision

extension VisionError: ExitStatusProviding {
    /// The exit code a command ends with when finding faces stops it: 69 (unavailable) when the models or the engine
    /// are not installed, 65 for a damaged model or an image that cannot be read.
    var exitStatus: Int32 {
        switch code {
        case .modelsMissing, .engineUnavailable: return ExitStatus.unavailable
        case .modelDamaged, .imageFailed: return ExitStatus.dataError
        case .engineFailed: return ExitStatus.software
        case .cancelled: return 130
        }
    }
}
