public import SepiaCodecs
import SepiaMedia

extension PhotoLibrary {
    /// The kinds of media the library reads (SepiaMedia's standard openers), with its limits: photos and RAW files
    /// within ``LibraryConfiguration/decodeOptions``, videos within ``LibraryConfiguration/videoOptions``. An
    /// import sniffs a file once and asks these which opener reads it.
    public var mediaOpeners: MediaOpeners {
        MediaOpeners(decoding: configuration.decodeOptions, video: configuration.videoOptions)
    }

    /// Whether files of `format` are read where they are, a part at a time (videos), rather than whole from
    /// memory: the opener's answer (``MediaOpener/readsInPlace``).
    func readsInPlace(_ format: ImageFormat) -> Bool {
        mediaOpeners.opener(for: format)?.readsInPlace == true
    }
}
