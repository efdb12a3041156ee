public import SepiaCodecs

extension Asset {
    /// What the item is — a photo, a RAW photo, a RAW+JPEG pair, a Live Photo or a video — which the server, the
    /// command line and the web app ask rather than testing media types and formats.
    public var mediaKind: MediaKind {
        if mediaType == .video { return .video }
        if isLivePhoto { return .livePhoto }
        if mediaSubtypes.contains(.photoRAWPair) { return .rawPlusJPEG }
        if originalFormat == .cameraRAW { return .raw }
        return .photo
    }
}
