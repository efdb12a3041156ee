/// How many photos and videos a library or a part of it holds, said as Photos says it — "12 photos, 16 videos",
/// "1 video", "0 photos" — the way the web app's top bar and month headers say it too.
public struct MediaCount: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Items that are not videos: stills, Live Photos, RAW files and pairs.
    public var photos: Int
    /// Videos.
    public var videos: Int

    /// A count of `photos` photos and `videos` videos.
    public init(photos: Int, videos: Int) {
        self.photos = photos
        self.videos = videos
    }

    /// "12 photos, 16 videos"; a kind with none is left out ("1 video"), unless there is nothing ("0 photos").
    public var description: String {
        var parts: [String] = []
        if photos > 0 || videos == 0 { parts.append(Self.photo.counting(photos)) }
        if videos > 0 { parts.append(Self.video.counting(videos)) }
        return parts.joined(separator: ", ")
    }

    static let photo = CountedNoun(one: "photo", other: "photos")
    static let video = CountedNoun(one: "video", other: "videos")
}
