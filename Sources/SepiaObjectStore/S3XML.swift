import Foundation

/// Reads the few XML documents S3 answers with (errors, listings, multipart uploads): a flat scan for the text
/// of named elements. S3's responses are not nested in ways that need more, and a full XML parser would be
/// a native dependency for it.
struct S3XML {
    let text: Substring

    init(_ bytes: some Collection<UInt8>) {
        text = Substring(String(decoding: bytes, as: UTF8.self))
    }

    private init(_ text: Substring) {
        self.text = text
    }

    /// The decoded text of the first element named `name`.
    func value(_ name: String) -> String? {
        elements(name).first.map { Self.unescape($0.text) }
    }

    /// Every element named `name`, in order, each to be read further.
    func elements(_ name: String) -> [S3XML] {
        var found: [S3XML] = []
        var rest = text[...]
        let open = "<\(name)>"
        let close = "</\(name)>"
        while let start = rest.range(of: open) {
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            found.append(S3XML(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }

    static func unescape(_ text: some StringProtocol) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number =
                    entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "&\(entity);"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
