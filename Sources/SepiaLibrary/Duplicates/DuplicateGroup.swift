import Foundation
import SepiaCodecs

/// Near-identical photos and videos: the same shot resized, recompressed, re-exported or converted, edited
/// copies, a burst's frames (``PhotoLibrary/duplicateGroups(threshold:matching:)``).
public struct DuplicateGroup: Sendable, Hashable {
    /// The group's items, the one proposed to keep first, then the others, nearest first.
    public var assets: [Asset]
    /// Each item's distance from the one proposed to keep: the bits in which their perceptual hashes differ.
    public var distances: [String: Int]
    /// Why the first item is proposed, in words ("the largest (4032 × 3024)").
    public var keepReason: String

    /// The item proposed to keep.
    public var keep: Asset { assets[0] }
    /// The items proposed to move to Recently Deleted.
    public var others: ArraySlice<Asset> { assets.dropFirst() }
    /// An identifier stable while the group's items stay the same: the smallest of their identifiers.
    public var id: String { assets.map(\.id).min() ?? "" }
}

/// How far hashing has come: ``PhotoLibrary/duplicatesStatus()``.
public struct DuplicatesStatus: Sendable, Hashable, Codable {
    /// Photos and videos with a perceptual hash.
    public var hashedAssets: Int
    /// Photos and videos waiting for theirs (``PhotoLibrary/hashWaitingAssets(limit:)``).
    public var waitingAssets: Int
    /// Photos and videos whose picture could not be read for a hash (a damaged file).
    public var unreadableAssets: Int
}

/// Which of a group's items to keep: the one with the most pixels, then the most metadata (a converted copy
/// often lost its camera, date and place), then one in a camera's format (RAW, HEIC, JPEG or TIFF, before PNG,
/// WebP and the rest), then the one taken (or, without a capture date, written) first — a copy is made after its
/// original — then the larger file (less compressed), then the one added first.
enum KeepChoice {
    /// `assets` ordered best first, with the reason the first one won over the second.
    static func rank(_ assets: [Asset]) -> (ordered: [Asset], reason: String) {
        let ordered = assets.sorted { a, b in
            for criterion in Criterion.allCases {
                let order = criterion.compare(a, b)
                if order != 0 { return order > 0 }
            }
            return a.id < b.id
        }
        guard ordered.count > 1 else { return (ordered, "") }
        let (best, next) = (ordered[0], ordered[1])
        let criterion = Criterion.allCases.first { $0.compare(best, next) != 0 }
        return (ordered, criterion?.reason(best) ?? "identical in size, format and metadata; the first added")
    }

    enum Criterion: CaseIterable {
        case pixels, metadata, format, date, bytes, added

        /// Positive when `a` is better, negative when `b` is.
        func compare(_ a: Asset, _ b: Asset) -> Int {
            switch self {
            case .pixels: sign(a.pixelWidth * a.pixelHeight, b.pixelWidth * b.pixelHeight)
            case .metadata: sign(KeepChoice.metadataScore(a), KeepChoice.metadataScore(b))
            case .format: sign(KeepChoice.isCameraFormat(a.originalFormat) ? 1 : 0, KeepChoice.isCameraFormat(b.originalFormat) ? 1 : 0)
            case .date: sign(b.creationDate, a.creationDate)
            case .bytes: sign(a.originalByteCount, b.originalByteCount)
            case .added: sign(b.addedDate, a.addedDate)
            }
        }

        func reason(_ asset: Asset) -> String {
            switch self {
            case .pixels: "the largest (\(asset.pixelWidth) × \(asset.pixelHeight))"
            case .metadata: "the one with the most metadata"
            case .format: "in its camera's format (\(asset.originalFormat.rawValue.uppercased()))"
            case .date: "the earliest"
            case .bytes: "the largest file, the least compressed"
            case .added: "the first added"
            }
        }

        private func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a > b ? 1 : -1) }
    }

    /// What a copy tends to lose: the capture date, camera, place, title, caption, keywords, rating, favourite.
    static func metadataScore(_ asset: Asset) -> Int {
        var score = 0
        if asset.creationDateSource != .file { score += 1 }
        if asset.cameraMake != nil || asset.cameraModel != nil { score += 1 }
        if asset.location != nil { score += 1 }
        if asset.title?.isEmpty == false { score += 1 }
        if asset.caption?.isEmpty == false { score += 1 }
        if !asset.keywords.isEmpty { score += 1 }
        if asset.rating > 0 { score += 1 }
        if asset.isFavorite { score += 1 }
        return score
    }

    static func isCameraFormat(_ format: ImageFormat) -> Bool {
        [.cameraRAW, .heic, .jpeg, .tiff, .quickTime, .mp4].contains(format)
    }
}
