import Foundation

/// File names that come from users (an upload's name, a file imported, an album's title made a ZIP's name),
/// made harmless once for every place that shows them or writes them: the library, each `Content-Disposition`,
/// a ZIP's entries, an export's files.
///
/// Control characters and the characters that change the direction of text are never kept: with a right-to-left
/// override (U+202E), `rtl\u{202E}gpj.exe.jpg` shows as `rtljpg.exe`.
public enum FileName {
    /// Whether `scalar` is a control character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029), or
    /// changes the direction of text (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): never kept in a name.
    public static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// A name to keep and show: the last path component of `name`, without control and direction characters,
    /// at most 255 bytes of UTF-8; `fallback` when nothing is left (or only `.` or `..`).
    public static func displayable(_ name: String, fallback: String) -> String {
        var base = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isInvisibleControl($0) }))
        base = (base as NSString).lastPathComponent
        if base.isEmpty || base == "." || base == ".." || base == "/" { return fallback }
        while base.utf8.count > 255 { base.removeFirst() }
        return base
    }

    /// A name that is safe to write anywhere: without control or direction characters, without `/` and `\` (a
    /// name is never a path), without runs of dots (no `..`) or leading dots (no hidden files), with the characters
    /// Windows refuses (`<>:"|?*`) as `_`, without spaces or dots at either end, at most `maximumBytes` bytes of
    /// UTF-8 (the stem is shortened, the extension kept); `fallback` when nothing is left.
    public static func safe(_ name: String, fallback: String, maximumBytes: Int = 240) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(name.unicodeScalars.count)
        for scalar in name.unicodeScalars {
            if isInvisibleControl(scalar) { continue }
            switch scalar.value {
            case 0x2F, 0x5C: continue  // "/" and "\"
            case 0x2E where out.unicodeScalars.last == "." || out.isEmpty: continue  // "..", and a leading "."
            case 0x3C, 0x3E, 0x3A, 0x22, 0x7C, 0x3F, 0x2A: out.unicodeScalars.append("_")
            default: out.unicodeScalars.append(scalar)
            }
        }
        while let last = out.unicodeScalars.last, last == "." || last.properties.isWhitespace { out.unicodeScalars.removeLast() }
        while let first = out.unicodeScalars.first, first.properties.isWhitespace || first == "." { out.unicodeScalars.removeFirst() }
        if out.utf8.count > maximumBytes {
            var (stem, ext) = split(out)
            if ext.utf8.count > 16 { ext = "" }
            while stem.utf8.count + ext.utf8.count > maximumBytes, !stem.isEmpty { stem.removeLast() }
            out = stem + ext
        }
        return out.isEmpty ? fallback : out
    }

    /// The stem and the extension (with its dot; empty when there is none) of a name.
    public static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
