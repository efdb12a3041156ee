import Foundation
import HTTPTypes
import Hummingbird
import SepiaCodecs
import SepiaImage
import SepiaLibrary

extension APIError {
    /// The answer for any error a handler throws: API errors as they are, the library's, the filters' and the
    /// codecs' errors with the status their kind calls for, JSON decoding errors as 400 with the field named,
    /// Hummingbird's own errors in the same JSON shape; anything else is an internal error, logged by the
    /// caller with the request id.
    static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as LibraryError:
            return from(error)
        case let error as FilterError:
            return .unprocessable(error.description)
        case let error as RecipeCostError:
            return .unprocessable(error.description)
        case let error as RenderError:
            switch error {
            case .internalInconsistency: return nil
            case .cancelled: return .unavailable("the render was cancelled; try again")
            default: return .unprocessable(error.description)
            }
        case let error as CodecError:
            return from(codec: error.code, detail: error.description)
        case SQLFailure.unavailable(let why):
            return .unavailable("the server database cannot be reached; try again shortly (\(why))")
        case let error as DecodingError:
            return .badRequest(describe(error))
        case let error as HTTPError:
            let message = error.body ?? defaultMessage(for: error.status)
            return APIError(error.status, code(for: error.status), message, headers: error.headers)
        case let error as any HTTPResponseError:
            return APIError(error.status, code(for: error.status), defaultMessage(for: error.status))
        default:
            return nil
        }
    }

    static func from(_ error: LibraryError) -> APIError {
        switch error.code {
        case .notFound, .objectDeleted: .notFound(error.description)
        case .inRecentlyDeleted:
            .conflict("the photo is in Recently Deleted: recover it first (POST /api/v1/assets/\(error.subject ?? "{id}")/recover)")
        case .invalidRequest: .badRequest(error.description)
        case .duplicate: .conflict(error.description)
        case .unreadableImage: from(codec: error.codecCode, detail: error.description)
        case .invalidEditingOutput, .unsupportedAdjustment: .unprocessable(error.description)
        case .database: .unavailable("the library database is busy or failed; try again (\(error.reason))")
        case .storageUnavailable: .unavailable("object storage failed or cannot be reached; try again (\(error.reason))")
        case .cannotOpen, .newerSchema, .fileSystem: .internalError(error.description)
        }
    }

    /// A file a decoder refused: a sentence a person can act on, and the decoder's own words as the detail.
    static func from(codec code: CodecError.Code?, detail: String) -> APIError {
        switch code {
        case .emptyInput:
            APIError(.unsupportedMediaType, "unsupported_media_type", "The file is empty.", detail: detail)
        case .unrecognizedFormat:
            APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "The file is not a photo Sepia can read. It accepts JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW photos, and videos.",
                detail: detail)
        case .unsupportedFormat:
            APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "This kind of file is not supported. Sepia accepts JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW photos, and videos.",
                detail: detail)
        case .unsupportedFeature:
            APIError(
                .unprocessableContent, "unprocessable",
                "The photo is saved in a variant of its format that Sepia cannot read. Export it again as an ordinary JPEG or PNG.",
                detail: detail)
        case .tooManyPixels:
            APIError(.unprocessableContent, "unprocessable", "The photo has more pixels than this server accepts.", detail: detail)
        case .limitExceeded:
            APIError(.unprocessableContent, "unprocessable", "The file is longer or larger than this server accepts.", detail: detail)
        case .timedOut:
            APIError(.unprocessableContent, "unprocessable", "The file took too long to read; it may be damaged.", detail: detail)
        case .fileTooLarge:
            APIError(.contentTooLarge, "payload_too_large", "The file is larger than this server accepts.", detail: detail)
        case .truncatedData, .damagedData:
            APIError(.unprocessableContent, "unprocessable", "The file is incomplete or damaged.", detail: detail)
        case .corruptData:
            APIError(.unprocessableContent, "unprocessable", "The file is damaged and cannot be read.", detail: detail)
        case .encodingFailed:
            APIError(.internalServerError, "internal", "The photo could not be saved.", detail: detail)
        case .fileSystem:
            APIError(.internalServerError, "internal", "The file could not be read.", detail: detail)
        case nil:
            APIError(.unprocessableContent, "unprocessable", "The file is not a photo Sepia can read.", detail: detail)
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 410: "gone"
        case 413: "payload_too_large"
        case 415: "unsupported_media_type"
        case 416: "range_not_satisfiable"
        case 422: "unprocessable"
        case 429: "too_many_requests"
        case 503: "unavailable"
        case 500...: "internal"
        default: "error"
        }
    }

    static func defaultMessage(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "there is nothing at this address; the API is under /api/v1 (see docs/api.md)"
        case 405: "this address does not take this method"
        case 413: "the request body is larger than the limit"
        default: status.reasonPhrase
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            var text = ""
            for key in context.codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the body" : "'" + text + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in " + path(context)
            return "the field '\(key.stringValue)' is missing\(parent)"
        case .typeMismatch(let type, let context):
            return "\(path(context)) must be \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) must be \(describe(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
                return "the body is not valid JSON" + (detail.isEmpty ? "" : " (\(detail))")
            }
            return "\(path(context)) is invalid: \(context.debugDescription)"
        @unknown default:
            return "the body could not be read"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is Date.Type: "an ISO 8601 date"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}
