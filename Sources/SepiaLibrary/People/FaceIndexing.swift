public import SepiaVision

/// How a library finds faces: the version of the algorithm, the models, and the search.
///
/// Algorithm 1 searches each asset's current version as it is shown (upright, with its edit: a photo, a Live Photo's
/// still, a RAW file, a video's poster frame, read as the renditions are made from them) with dlib's HOG detector,
/// at the scale that searches at most ``maximumSearchedPixels`` (twice the size of a photo of up to 4 megapixels;
/// 1.15 times a 12-megapixel one), finds five landmarks, and prints each face with dlib's ResNet
/// (``SepiaVision/GenerateFacePrintRequest``), a small face aligned from the image at its own resolution. The
/// smallest face found is 80 pixels at the searched scale: 40 pixels in a photo of up to 4 megapixels, 70 in a
/// 12-megapixel one, 100 in 24 megapixels.
public struct FaceIndexing: Sendable, Hashable {
    /// The version of the algorithm: faces found by an older one are found again.
    public static let algorithm = 1

    /// Where the models are (``SepiaVision/FaceModels/default`` unless a command or the server names another folder).
    public var models: FaceModels

    /// The most pixels searched in one asset (``SepiaVision/DetectFaceRectanglesRequest/maximumSearchedPixels``):
    /// the search's time and memory grow with it.
    public var maximumSearchedPixels: Int

    /// Indexing with the models in `models`, searching at most `maximumSearchedPixels` of each asset.
    public init(models: FaceModels = .default, maximumSearchedPixels: Int = 16_000_000) {
        self.models = models
        self.maximumSearchedPixels = maximumSearchedPixels
    }
}

/// What a run of face indexing did.
public struct FaceIndexingReport: Sendable, Hashable {
    /// An asset that could not be read, and why.
    public struct Failure: Sendable, Hashable {
        /// The asset.
        public var assetID: String
        /// What failed.
        public var reason: String
    }

    /// Assets whose faces were found and recorded (none found counts too).
    public var indexed = 0
    /// Faces found in them.
    public var faces = 0
    /// Assets that could not be read; they are tried again on the next run.
    public var failures: [Failure] = []
    /// Whether the run stopped because faces are turned off for the library.
    public var facesOff = false
}
