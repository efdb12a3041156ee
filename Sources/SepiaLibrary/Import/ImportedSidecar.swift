import Foundation
import SepiaCodecs
import SepiaImage
import SepiaXMP

/// What an import takes from a photo's XMP: its sidecar (`NAME.ext.xmp`, else `NAME.xmp`, as digiKam, darktable
/// and Lightroom write them) or, without one, the packet embedded in the photo.
///
/// - The title, caption, keywords and rating become the asset's (``UserMetadata``).
/// - A sidecar's capture date and location become the asset's as edits: the file's own values are kept beside
///   them (``Asset/fileMetadata``), so `sepia info` shows both and Revert goes back to the file's. An embedded
///   packet's date and place are the file's own, and the photo's decoder reads them already.
/// - Sepia's edit recipe (`sepia:EditRecipe`, unless `sepia:EditRecipeApplied` says the photo is already its
///   render), else Camera Raw's crop and straightening angle (`crs:Crop…`),
///   becomes the asset's edit once it is in the library.
///
/// Nothing in it fails an import: a sidecar that cannot be read or is refused (bad XML, a DOCTYPE, too large),
/// and a value that is not valid, are left out with a warning, and the photo is imported without them.
struct ImportedSidecar: Sendable {
    /// The sidecar file read; nil when the packet was the one embedded in the photo.
    var file: String?
    /// The values read.
    var metadata: XMPMetadata
    /// What was left out, and why.
    var warnings: [String] = []

    /// Reads the sidecar of the photo at `photoPath`, else the packet `embedded` in it; nil when neither has any
    /// value Sepia takes (the warnings of a refused sidecar are in ``refusals``).
    static func read(forPhotoAt photoPath: String, embedded: [UInt8]?) -> (sidecar: ImportedSidecar?, refusals: [String]) {
        var refusals: [String] = []
        do throws(XMPError) {
            if let reading = try XMPSidecar.read(forPhotoAt: photoPath) {
                let sidecar = ImportedSidecar(
                    file: reading.file, metadata: reading.metadata,
                    warnings: reading.warnings.map { "\(Self.name(of: reading.file)): \($0)" })
                if !reading.metadata.isEmpty { return (sidecar, []) }
                refusals += sidecar.warnings
            }
        } catch {
            refusals.append(
                "the sidecar \(Self.name(of: error.file)) was not read (\(error.reason)); the photo is imported without it")
        }
        guard let embedded else { return (nil, refusals) }
        var (sidecar, problems) = read(embedded: embedded)
        sidecar?.warnings.insert(contentsOf: refusals, at: 0)
        return (sidecar, sidecar == nil ? refusals + problems : [])
    }

    /// Reads the XMP packet embedded in a photo; nil when it has no value Sepia takes (and why, when it was
    /// refused).
    static func read(embedded: [UInt8]) -> (sidecar: ImportedSidecar?, refusals: [String]) {
        do throws(XMPError) {
            let reading = try XMPPacket.read(embedded)
            guard !reading.metadata.isEmpty else { return (nil, []) }
            return (ImportedSidecar(file: nil, metadata: reading.metadata, warnings: reading.warnings.map { "the photo's own XMP: \($0)" }), [])
        } catch {
            return (nil, ["the XMP in the photo was not read (\(error.reason))"])
        }
    }

    private static func name(of file: String?) -> String {
        file.map { ($0 as NSString).lastPathComponent } ?? "sidecar"
    }

    /// The title, caption, keywords and rating, each checked as an edit would be: a value that is not valid is
    /// left out with a warning.
    mutating func userMetadata() -> UserMetadata {
        var user = UserMetadata()
        func valid<T>(_ what: String, _ check: () throws(LibraryError) -> T) -> T? {
            do throws(LibraryError) {
                return try check()
            } catch {
                warnings.append("its \(what) was left out: \(error.reason)")
                return nil
            }
        }
        if let title = metadata.title { user.title = valid("title") { () throws(LibraryError) in try UserMetadata.validTitle(title) } ?? nil }
        if let caption = metadata.caption {
            user.caption = valid("caption") { () throws(LibraryError) in try UserMetadata.validCaption(caption) } ?? nil
        }
        let keywords = metadata.keywords.map { $0.path.joined(separator: "|") }
        if !keywords.isEmpty {
            user.keywords = valid("keywords") { () throws(LibraryError) in try UserMetadata.validKeywords(keywords) } ?? []
        }
        if case .stars(let count) = metadata.rating { user.rating = min(max(count, 0), UserMetadata.maximumRating) }
        return user
    }

    /// Sets what the sidecar says on an asset about to be created; the file's own date and location are kept in
    /// ``Asset/fileMetadata`` when the sidecar's differ.
    mutating func apply(to asset: inout Asset) {
        let user = userMetadata()
        asset.title = user.title
        asset.caption = user.caption
        asset.keywords = user.keywords
        asset.rating = user.rating
        applyDateAndPlace(to: &asset)
    }

    /// Sets a sidecar file's capture date and location on `asset`, keeping the asset's own in
    /// ``Asset/fileMetadata`` when they differ; a packet embedded in the photo sets neither.
    mutating func applyDateAndPlace(to asset: inout Asset) {
        guard file != nil else { return }
        let own = FileMetadata(
            creationDate: asset.creationDate, creationDateOffset: asset.creationDateOffset,
            creationDateSource: asset.creationDateSource, location: asset.location)
        if let capture = metadata.captureDate {
            let date = capture.date
            do throws(LibraryError) {
                guard MetadataValidation.dateRange.contains(date.timeIntervalSince1970) else {
                    throw LibraryError(.invalidRequest, "it is outside the years 1800 to 9999")
                }
                asset.creationDateOffset = try MetadataValidation.offset(capture.utcOffsetSeconds)
                asset.creationDate = date
                asset.creationDateSource = .capture
            } catch {
                warnings.append("its capture date \(capture) was left out: \(error.reason)")
            }
        }
        if let location = metadata.location { asset.location = location }
        if asset.fileMetadata == nil,
            asset.creationDate != own.creationDate || asset.creationDateOffset != own.creationDateOffset || asset.location != own.location
        {
            asset.fileMetadata = own
        }
    }

    /// The edit a sidecar file (not a packet embedded in the photo) gives a photo displayed at `width` × `height` and stored with EXIF orientation
    /// `orientation`: Sepia's recipe, else Camera Raw's crop; nil when it gives none. A recipe that is not valid is
    /// left out with a warning.
    mutating func edit(width: Int, height: Int, orientation: Int) -> EditRecipe? {
        // A packet embedded in a photo describes how that photo was made (Lightroom's export of a cropped RAW carries
        // the crop it applied): applied again, it would crop twice.
        guard file != nil else { return nil }
        if let json = metadata.editRecipe, !metadata.editRecipeApplied {
            do throws(FilterError) {
                return try EditRecipe.decode(Data(json.utf8))
            } catch {
                warnings.append("its Sepia edit recipe was left out: \(error)")
            }
        }
        guard let crop = metadata.crop else { return nil }
        return Self.recipe(for: crop.oriented(orientation), width: width, height: height)
    }

    /// Camera Raw's crop of an image displayed at `width` × `height` (the crop already in that frame) as a recipe:
    /// the image turned by the crop's angle about the crop's centre (clockwise for a positive angle, as Camera
    /// Raw's straighten tool turns it on screen), then cut to the crop's size about that centre.
    static func recipe(for crop: CameraRawCrop, width: Int, height: Int) -> EditRecipe? {
        let w = Double(width), h = Double(height)
        let rect: SIMD4<Double> = [crop.left * w, crop.top * h, (crop.right - crop.left) * w, (crop.bottom - crop.top) * h]
        guard rect[2] >= 1, rect[3] >= 1 else { return nil }
        var filters: [any Filter] = []
        if abs(crop.angle) >= 0.01 {
            let theta = crop.angle * .pi / 180
            let cx = rect[0] + rect[2] / 2, cy = rect[1] + rect[3] / 2
            let matrix = AffineMatrix(translationX: -cx, y: -cy)
                .concatenating(AffineMatrix(rotationAngle: theta))
                .concatenating(AffineMatrix(translationX: cx, y: cy))
            filters.append(AffineTransform(transform: matrix))
        }
        filters.append(Crop(rectangle: rect))
        return EditRecipe(filters: filters)
    }
}

extension PreparedAsset {
    /// Gives the asset about to be created the rating, title, caption and keywords of the XMP packet embedded in
    /// its original, as an import does (``AssetImporter``): what an upload, which has no sidecar beside it, takes.
    /// - Returns: What was left out of the packet, and why.
    public mutating func adoptEmbeddedXMP() -> [String] {
        guard let embedded = embeddedXMP else { return [] }
        let (found, refusals) = ImportedSidecar.read(embedded: embedded)
        guard var sidecar = found else { return refusals }
        sidecar.apply(to: &asset)
        return sidecar.warnings
    }
}
