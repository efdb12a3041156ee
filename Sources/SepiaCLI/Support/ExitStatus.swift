import ArgumentParser
import SepiaCodecs
import SepiaImage
import SepiaLibrary

/// The exit codes of `sepia`, after BSD's sysexits.
enum ExitStatus {
    /// The command line is wrong.
    static let usage: Int32 = 64
    /// An input is not a decodable image.
    static let dataError: Int32 = 65
    /// An input file is missing or unreadable.
    static let noInput: Int32 = 66
    /// A bug.
    static let software: Int32 = 70
    /// An output could not be written.
    static let cannotCreate: Int32 = 73
    /// Reading or writing the library failed.
    static let ioError: Int32 = 74

    /// The exit code for `error`, raised while reading inputs or writing outputs.
    static func code(for error: any Error, writingOutput: Bool = false) -> Int32 {
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
        case let library as LibraryError:
            switch library.code {
            case .invalidRequest: return usage
            case .notFound: return noInput
            case .duplicate, .unreadableImage, .invalidEditingOutput, .unsupportedAdjustment, .newerSchema, .objectDeleted:
                return dataError
            case .cannotOpen, .fileSystem, .database, .storageUnavailable: return ioError
            }
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

/// An error that has been reported to the user already; carries only the exit code.
struct ReportedFailure: Error {
    let code: Int32
}

extension AsyncParsableCommand {
    /// Runs `body`, printing any error as one line on standard error and exiting with its code.
    func reportingErrors(_ body: () async throws -> Void) async throws {
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
