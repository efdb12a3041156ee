public import Foundation

/// The keys that sign S3 requests. They come from the environment or a file, never from a command line
/// (where every user of the machine could read them in the process list).
public struct S3Credentials: Sendable, Hashable {
    /// The access key (`AKIA…`, `test:tester`).
    public var accessKeyID: String
    /// The secret key that signs requests.
    public var secretAccessKey: String
    /// A temporary session's token (STS), when the keys are temporary.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The credentials in the standard variables, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
    /// `AWS_SESSION_TOKEN`, or nil when either key is missing.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> S3Credentials? {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// Reads credentials from a file of `NAME=value` lines with the same names as the environment variables
    /// (`#` starts a comment; `export` and quotes are allowed, so a shell can source the same file).
    public static func fromFile(_ path: String) throws(S3Error) -> S3Credentials {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw S3Error(.configuration, "cannot read the credentials file: \(error.localizedDescription)", subject: path)
        }
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[line[..<equals].trimmingCharacters(in: .whitespaces)] = value
        }
        guard let credentials = fromEnvironment(values) else {
            throw S3Error(
                .configuration, "the credentials file must set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", subject: path)
        }
        return credentials
    }
}
