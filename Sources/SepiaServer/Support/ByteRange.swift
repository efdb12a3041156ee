import Foundation
import SepiaLibrary

/// One range of a `Range: bytes=…` header (`a-b`, `a-`, `-n`), within a file of `size` bytes. Several ranges
/// are answered with the whole first one's span, as most servers do not send multipart ranges either.
enum ByteRange {
    static func parse(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        guard let first = header.dropFirst(6).split(separator: ",").first else { return nil }
        let parts = first.trimmingCharacters(in: .whitespaces).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(parts[0]), start >= 0, start < size else { return nil }
        if parts[1].isEmpty { return start...(size - 1) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}

/// `Content-Disposition: attachment` with a file name that survives any characters (RFC 6266 / 5987).
enum ContentDisposition {
    /// The header for a download named `name`, made safe first (``FileName/safe(_:fallback:maximumBytes:)``):
    /// no control or direction character, no path, whatever the name was stored as.
    static func attachment(filename name: String) -> String {
        let filename = FileName.safe(name, fallback: "download")
        let ascii = String(
            filename.map {
                $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline && $0.asciiValue.map { $0 >= 32 && $0 != 127 } ?? false ? $0 : "_"
            })
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
