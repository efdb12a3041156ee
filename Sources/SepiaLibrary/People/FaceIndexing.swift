public import SepiaVision

/// How a library finds faces: the version of the algorithm, the models, and the search.
///
/// Algorithm 1 searches each asset's current version as it is shown (upright, with its edit: a photo, a Live Photo's
/// still, a RAW file, a video's poster frame, read as the renditions are made from them) with dlib's HOG detector,
/// at the scale that searches at most ``maximumSearchedPixels`` (by default twice the size of a photo of up to 2
/// megapixels; 0.82 times a 12-megapixel one), finds five landmarks, and prints each face with dlib's ResNet
/// (``SepiaVision/GenerateFacePrintRequest``), a small face aligned from the image at its own resolution. The
/// smallest face found is 80 pixels at the searched scale: by default 40 pixels in a photo of up to 2 megapixels,
/// 100 in a 12-megapixel one (as face_recognition's own command searches it), 140 in 24 megapixels. The budget can
/// change between runs: faces already found stay.
public struct FaceIndexing: Sendable, Hashable {
    /// The version of the algorithm: faces found by an older one are found again.
    public static let algorithm = 1

    /// Where the models are (``SepiaVision/FaceModels/default`` unless a command or the server names another folder).
    public var models: FaceModels

    /// The most pixels searched in one asset (``SepiaVision/DetectFaceRectanglesRequest/maximumSearchedPixels``):
    /// the search's time and memory grow with it.
    public var maximumSearchedPixels: Int

    /// The default of ``maximumSearchedPixels``: 8 megapixels, chosen by measurement (BENCHMARKS.md, "People"): on
    /// 12-megapixel photos it finds the faces that 16 finds, in 0.6 times the time.
    public static let defaultMaximumSearchedPixels = 8_000_000

    /// Indexing with the models in `models`, searching at most `maximumSearchedPixels` of each asset.
    public init(models: FaceModels = .default, maximumSearchedPixels: Int = FaceIndexing.defaultMaximumSearchedPixels) {
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
