import Foundation
import Hummingbird
import NIOCore

/// Reads JSON request bodies within the server's limits: at most `maximumBytes`, nested at most
/// `maximumDepth` deep (checked before decoding, so a hostile body cannot exhaust the decoder), dates in ISO
/// 8601 with or without fractional seconds.
struct JSONBody: Sendable {
    let maximumBytes: Int
    let maximumDepth: Int

    func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("the JSON body is larger than the limit of \(maximumBytes) bytes")
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest("the request needs a JSON body") }
        let bytes = buffer.readableBytesView
        try checkDepth(bytes)
        return try Self.decoder.decode(T.self, from: Data(bytes))
    }

    private func checkDepth(_ bytes: ByteBufferView) throws {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth {
                    throw APIError.badRequest("the JSON body is nested deeper than the limit of \(maximumDepth) levels")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseDate(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        return decoder
    }()

    /// An ISO 8601 date with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}

/// Typed access to a request's query parameters; malformed values are 400s that name the parameter.
struct Query {
    let request: Request

    func string(_ name: String, maximumLength: Int = 200) throws -> String? {
        guard let value = request.uri.queryParameters[name[...]].map(String.init), !value.isEmpty else { return nil }
        guard value.count <= maximumLength else { throw APIError.badRequest("'\(name)' is longer than \(maximumLength) characters") }
        return value
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = try string(name, maximumLength: 20) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    func bool(_ name: String) throws -> Bool? {
        guard let text = try string(name, maximumLength: 10) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badRequest("'\(name)' must be true or false, not '\(text)'")
        }
    }

    func oneOf(_ name: String, _ allowed: [String]) throws -> String? {
        guard let text = try string(name, maximumLength: 40) else { return nil }
        guard allowed.contains(text) else {
            throw APIError.badRequest("'\(name)' must be one of \(allowed.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }
}

/// Identifiers in paths and bodies are lowercase UUIDs; anything else names nothing.
enum Identifier {
    static func isValid(_ text: String) -> Bool {
        text.utf8.count == 36
            && text.utf8.enumerated().allSatisfy { index, c in
                [8, 13, 18, 23].contains(index) ? c == UInt8(ascii: "-") : (c >= 48 && c <= 57) || (c >= 97 && c <= 102)
            }
    }
}
