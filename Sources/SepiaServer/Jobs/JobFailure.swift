import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary

/// Whether a job that failed may succeed if it is tried again. A file Sepia refuses, a video over its limits or
/// its encode budget, an edit it cannot read: trying again gives the same answer, so the job fails for good at
/// once, with the reason. Storage, the database, a probe that ran out of time on a busy machine: these pass, so
/// the job is retried later (``JobQueue/fail(_:error:now:)``, a bounded number of times).
enum JobFailure {
    static func isPermanent(_ error: any Error) -> Bool {
        switch error {
        case let error as LibraryError:
            switch error.code {
            case .unreadableImage:
                // The decoder's own reading of the file; only its I/O and its deadline may go another way.
                return ![.fileSystem, .timedOut].contains(error.codecCode)
            case .invalidEditingOutput, .unsupportedAdjustment:
                return true
            default:
                return false
            }
        case let error as CodecError:
            return ![.fileSystem, .timedOut].contains(error.code)
        case let error as RenderError:
            switch error {
            case .cancelled, .internalInconsistency: return false
            default: return true
            }
        default:
            return false
        }
    }
}
