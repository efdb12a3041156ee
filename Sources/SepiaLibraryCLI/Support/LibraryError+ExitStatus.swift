import SepiaCommandLine
import SepiaLibrary

extension LibraryError: ExitStatusProviding {
    /// The exit code a library command ends with when this error stops it.
    var exitStatus: Int32 {
        switch code {
        case .invalidRequest, .inRecentlyDeleted: return ExitStatus.usage
        case .notFound: return ExitStatus.noInput
        case .duplicate, .unreadableImage, .invalidEditingOutput, .unsupportedAdjustment, .newerSchema, .objectDeleted:
            return ExitStatus.dataError
        case .cannotOpen, .fileSystem, .database, .storageUnavailable: return ExitStatus.ioError
        }
    }
}
