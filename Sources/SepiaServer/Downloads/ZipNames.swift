import SepiaLibrary

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
        let (stem, ext) = FileName.split(name)
        return stem + " (\(number))" + ext
    }

    /// A file name that is safe to extract: ``FileName/safe(_:fallback:maximumBytes:)``, at most
    /// ``maximumBytes`` bytes.
    static func sanitized(_ name: String, fallback: String) -> String {
        FileName.safe(name, fallback: fallback, maximumBytes: maximumBytes)
    }
}
