package import ArgumentParser
import SepiaCodecs
import SepiaImage

/// The exit codes of `sepia`, after BSD's sysexits.
package enum ExitStatus {
    /// The command line is wrong.
    package static let usage: Int32 = 64
    /// An input is not a decodable image.
    package static let dataError: Int32 = 65
    /// An input file is missing or unreadable.
    package static let noInput: Int32 = 66
    /// Something the command needs is not installed (the face models).
    package static let unavailable: Int32 = 69
    /// A bug.
    package static let software: Int32 = 70
    /// An output could not be written.
    package static let cannotCreate: Int32 = 73
    /// Reading or writing the library failed.
    package static let ioError: Int32 = 74

    /// The exit code for `error`, raised while reading inputs or writing outputs.
    package static func code(for error: any Error, writingOutput: Bool = false) -> Int32 {
        switch error {
        case let codec as CodecError:
            switch codec.code {
            case .fileSystem: return writingOutput ? cannotCreate : noInput
            case .encodingFailed: return software
            default: return dataError
            }
        case is FilterError:
            return usage
        case is FilterCatalog.LoadError:
            return dataError
        case let known as any ExitStatusProviding:
            return known.exitStatus
        case let render as RenderError:
            switch render {
            case .internalInconsistency: return software
            default: return dataError
            }
        default:
            return software
        }
    }
}

/// An error from a layer above the engine (the photo library's) that knows which exit code it means.
package protocol ExitStatusProviding: Error {
    var exitStatus: Int32 { get }
}

/// An error that has been reported to the user already; carries only the exit code.
package struct ReportedFailure: Error {
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }
}

extension AsyncParsableCommand {
    /// Runs `body`, printing any error as one line on standard error and exiting with its code.
    package func reportingErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let exit as ExitCode {
            throw exit
        } catch let reported as ReportedFailure {
            throw ExitCode(reported.code)
        } catch let validation as ValidationError {
            throw validation
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(ExitStatus.code(for: error))
        }
    }
}
