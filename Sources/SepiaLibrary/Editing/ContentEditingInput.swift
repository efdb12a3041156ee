import SepiaCodecs
public import SepiaImage
import SepiaRAW

/// What an editor starts from (PhotoKit's `PHContentEditingInput`): the full-size image to apply a recipe to,
/// its orientation, and the asset's current adjustment data when the editor can read it.
///
/// When the asset's current edit is an ``EditRecipe`` (or the editor's `canHandle` accepts it), the base is
/// the original and ``adjustmentData`` is that edit, so it can be re-opened and changed. When it is in a
/// format the editor cannot read, the base is that edit's rendered image, ``adjustmentData`` is nil, and
/// ``unhandledAdjustmentData`` reports what was not understood; a new edit then builds on the render.
public struct ContentEditingInput: Sendable {
    /// The asset as it was when the input was made.
    public let asset: Asset
    /// The full-size image file the edit applies to: the original, or an earlier edit's render.
    public let fullSizeImagePath: String
    /// The orientation of that file's pixels (EXIF 1–8); ``baseImage`` is already upright.
    public let fullSizeImageOrientation: Orientation
    /// The current edit, when the editor can read it.
    public let adjustmentData: AdjustmentData?
    /// The current edit, when the editor cannot read it: reported, never guessed at.
    public let unhandledAdjustmentData: AdjustmentData?
    /// The adjustment whose render ``fullSizeImagePath`` is, when it is not the original.
    let baseAdjustmentID: String?
    let file: any EncodedImage
    /// The library's folder for files being written.
    let temporaryFolder: String

    init(
        asset: Asset, path: String, file: any EncodedImage, adjustmentData: AdjustmentData?, unhandled: AdjustmentData?,
        baseAdjustmentID: String?, temporaryFolder: String
    ) {
        self.temporaryFolder = temporaryFolder
        self.asset = asset
        fullSizeImagePath = path
        fullSizeImageOrientation = file.orientation
        self.adjustmentData = adjustmentData
        unhandledAdjustmentData = unhandled
        self.baseAdjustmentID = baseAdjustmentID
        self.file = file
    }

    /// The full-size image, upright, not yet decoded.
    public var baseImage: Image { file.image }

    /// The full-size image `recipe` applies to: ``baseImage``, or, when the recipe begins with a `CIRAWFilter` step,
    /// the RAW original developed as that step says. Apply ``EditRecipe/withoutRAWDevelopment`` to it.
    /// `draft` allows a faster, softer development of a RAW file for previews (``RAWOptions/allowsDraftMode``).
    ///
    /// - Throws: ``FilterError`` when the recipe develops a photo that is not RAW.
    public func baseImage(for recipe: EditRecipe, draft: Bool = false) throws -> Image {
        try PhotoDecoding.base(of: file, for: recipe, draft: draft).image
    }

    /// Whether the base is a camera RAW file, which a recipe's `CIRAWFilter` step develops.
    public var isRAW: Bool { file.format == .cameraRAW }

    /// The white balance the RAW file was shot with, as a colour temperature and tint (`CIRAWFilter`'s
    /// `neutralTemperature` and `neutralTint` before any change); nil unless the base is RAW and records one.
    public var asShotNeutral: (temperature: Double, tint: Double)? { (file as? RAWSource)?.asShotNeutral }

    /// The base image fitted inside `size` for interactive editing (PhotoKit's `displaySizeImage`); apply the
    /// same recipe to ``baseImage`` for the final render.
    public func displaySizeImage(fitting size: IntSize = IntSize(width: 1440, height: 1440)) -> Image {
        baseImage.thumbnail(size: size, mode: .aspectFit)
    }

    /// The current edit as a recipe, when it is one.
    public var currentRecipe: EditRecipe? {
        try? adjustmentData?.recipe()
    }
}
