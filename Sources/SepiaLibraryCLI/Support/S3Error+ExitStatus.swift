import SepiaCommandLine
import SepiaObjectStore

extension S3Error: ExitStatusProviding {
    /// The exit code a command ends with when object storage stops it: a location or credentials that cannot
    /// be used as given is a usage error (64); a store that cannot be reached, refuses the key or has no such
    /// bucket means the library cannot be read or written (74).
    var exitStatus: Int32 {
        kind == .configuration ? ExitStatus.usage : ExitStatus.ioError
    }
}
