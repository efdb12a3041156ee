/// The names of a download's files: each file's original name, made safe to extract anywhere, and made unique
/// within the archive the way a desktop does it (`IMG_0001.JPG`, `IMG_0001 (2).JPG`).
///
/// A name is never a path: separators and `..` are removed, so nothing extracts outside the folder it is
/// extracted into, and no folder is made. Names are compared without regard to case, as the file systems of
/// macOS and Windows compare them. The files of one item (a Live Photo's still and movie, a RAW and its JPEG)
/// are named together and take the same number, so that they still pair by name once extracted.
struct ZipNames {
    /// The names given so far, lowercased.
    private var taken: Set<String> = []
    /// For each group of names asked for (lowercased and joined), the last number it was given: where the next
    /// search starts, so that ten thousand `photo.jpg` cost ten thousand look-ups, not fifty million.
    private var lastNumber: [String: Int] = [:]

    /// The longest name, in UTF-8 bytes, before a number is added (file systems allow 255).
    static let maximumBytes = 240

    /// Names for the files of one item, in order: each made safe with ``sanitized(_:fallback:)``, then, if any
    /// of them is taken, all numbered with the first number that frees every one.
    mutating func claim(_ names: [String], fallback: String) -> [String] {
        var safe = names.map { Self.sanitized($0, fallback: fallback) }
        // Two files of the item with the same name (two empty names, say) would stay equal whatever number
        // they shared: they are told apart first.
        var inItem = Set<String>()
        for index in safe.indices {
            let base = safe[index]
            var number = 2
            while inItem.contains(safe[index].lowercased()) {
                safe[index] = Self.numbered(base, number)
                number += 1
            }
            inItem.insert(safe[index].lowercased())
        }
        let key = safe.map { $0.lowercased() }.joined(separator: "/")
        var number = lastNumber[key] ?? 1
        while true {
            let candidates = safe.map { number == 1 ? $0 : Self.numbered($0, number) }
            let lowered = candidates.map { $0.lowercased() }
            if !lowered.contains(where: taken.contains) {
                taken.formUnion(lowered)
                lastNumber[key] = number
                return candidates
            }
            number += 1
        }
    }

    /// `name` with ` (n)` before its extension: `IMG_0001 (2).JPG`.
    static func numbered(_ name: String, _ number: Int) -> String {
        let (stem, ext) = split(name)
        return stem + " (\(number))" + ext
    }

    /// A file name that is safe to extract: without control or direction-changing characters, without `/` and
    /// `\` (a name is never a path), without runs of dots (no `..`) or leading dots (no hidden files), with the
    /// characters Windows refuses (`<>:"|?*`) as `_`, without spaces or dots at the end, at most
    /// ``maximumBytes`` bytes of UTF-8 (the stem is shortened, the extension kept); `fallback` when nothing is
    /// left.
    static func sanitized(_ name: String, fallback: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(name.unicodeScalars.count)
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: continue  // control characters
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: continue  // direction marks and overrides
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
    private static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
