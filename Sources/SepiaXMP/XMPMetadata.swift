public import SepiaCodecs

/// What Sepia reads from and writes to an XMP packet: a photo's rating, title, caption, keywords, capture
/// date, location, Camera Raw crop and Sepia's edit recipe.
///
/// Read one with ``XMPPacket/read(_:)`` (bytes: a sidecar's, or a packet embedded in a photo) or
/// ``XMPSidecar/read(forPhotoAt:)``; write one with ``XMPPacket/serialize(_:merging:)`` or
/// ``XMPSidecar/write(_:forPhotoAt:)``. Every property is optional: nil (or an empty `keywords`) means the
/// packet has no valid value for it. `docs/sidecars.md` lists the XMP properties behind each one.
///
/// ```swift
/// var metadata = XMPMetadata()
/// metadata.rating = .stars(4)
/// metadata.keywords = [XMPKeyword(["Places", "France", "Paris"]), XMPKeyword(["Holiday"])]
/// try XMPSidecar.write(metadata, forPhotoAt: "/photos/IMG_0001.jpg")  // IMG_0001.jpg.xmp
/// ```
public struct XMPMetadata: Sendable, Hashable {
    /// The rating (`xmp:Rating`).
    public var rating: Rating?
    /// The title (`dc:title`, its default language).
    public var title: String?
    /// The description, which digiKam and Lightroom call the caption (`dc:description`, its default language).
    public var caption: String?
    /// The keywords, flat ones as paths of one component, without duplicates (`dc:subject`,
    /// `lr:hierarchicalSubject`, `digiKam:TagsList`).
    public var keywords: [XMPKeyword]
    /// When the photo was taken, with its offset from UTC when the packet gives one (`exif:DateTimeOriginal`, else
    /// `photoshop:DateCreated`, else `xmp:CreateDate`); its origin is ``CaptureDate/Origin/xmp``.
    public var captureDate: CaptureDate?
    /// Where the photo was taken (`exif:GPSLatitude`, `exif:GPSLongitude`, `exif:GPSAltitude` with
    /// `exif:GPSAltitudeRef`).
    public var location: GPSLocation?
    /// The place the photo was taken, by name (`photoshop:City`, `photoshop:State`, `photoshop:Country`,
    /// `Iptc4xmpCore:CountryCode`), as Lightroom's and Photos' exports write it.
    public var placeNames: XMPPlaceNames?
    /// Lightroom's and Camera Raw's crop (`crs:HasCrop`, `crs:CropTop`, `crs:CropLeft`, `crs:CropBottom`,
    /// `crs:CropRight`, `crs:CropAngle`).
    public var crop: CameraRawCrop?
    /// Sepia's edit recipe, a JSON document kept as it is (`sepia:EditRecipe`); see `docs/sidecars.md`.
    public var editRecipe: String?
    /// Whether the file the sidecar is beside already shows ``editRecipe`` (an exported render), so that the recipe
    /// records the edit rather than asks for it: `sepia:EditRecipeApplied`, `True` or absent. An importer applies
    /// the recipe only when this is false.
    public var editRecipeApplied = false

    /// Creates metadata; every property defaults to "none".
    public init(
        rating: Rating? = nil, title: String? = nil, caption: String? = nil, keywords: [XMPKeyword] = [],
        captureDate: CaptureDate? = nil, location: GPSLocation? = nil, crop: CameraRawCrop? = nil, editRecipe: String? = nil
    ) {
        self.rating = rating
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.captureDate = captureDate
        self.location = location
        self.crop = crop
        self.editRecipe = editRecipe
    }

    /// True when no property has a value.
    public var isEmpty: Bool { self == XMPMetadata() }

    /// A rating as XMP records it in `xmp:Rating`: -1 rejected, 0 unrated, 1 to 5 stars.
    ///
    /// `xmp:Rating` is a real number; a value between 0 and 5 is rounded to the nearest whole star (halves up), -1
    /// is ``rejected``, and anything else is not a rating (the reader ignores it with a warning). Lightroom,
    /// digiKam and darktable write whole numbers; darktable and Lightroom write -1 for a rejected photo.
    public enum Rating: Sendable, Hashable, CustomStringConvertible {
        /// Rejected (-1): digiKam's, Lightroom's and darktable's "reject" flag.
        case rejected
        /// Explicitly unrated (0).
        case unrated
        /// 1 to 5 stars; other counts are not valid (``init(stars:)`` clamps).
        case stars(Int)

        /// `stars` clamped to 1...5, or ``unrated`` for 0 or less.
        public init(stars: Int) {
            self = stars <= 0 ? .unrated : .stars(min(stars, 5))
        }

        /// The `xmp:Rating` value: -1, 0 or 1 to 5.
        public var xmpValue: Int {
            switch self {
            case .rejected: return -1
            case .unrated: return 0
            case .stars(let count): return min(max(count, 1), 5)
            }
        }

        /// `rejected`, `unrated` or `3 stars`.
        public var description: String {
            switch self {
            case .rejected: return "rejected"
            case .unrated: return "unrated"
            case .stars(let count): return count == 1 ? "1 star" : "\(count) stars"
            }
        }
    }
}

/// A keyword, as a path from the root of a keyword hierarchy: `["Places", "France", "Paris"]`, or `["Holiday"]`
/// for a flat one.
///
/// Lightroom writes the path as `Places|France|Paris` (`lr:hierarchicalSubject`), digiKam as `Places/France/Paris`
/// (`digiKam:TagsList`), and both put the last component, `Paris`, in `dc:subject`.
public struct XMPKeyword: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The components from the root, none empty.
    public var path: [String]

    /// Creates a keyword from its path; components are trimmed of surrounding white space and empty ones dropped.
    public init(_ path: [String]) {
        self.path = path.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// The last component: what `dc:subject` holds.
    public var name: String { path.last ?? "" }

    /// `Places|France|Paris`.
    public var description: String { path.joined(separator: "|") }

    /// Orders by path, component by component.
    public static func < (lhs: XMPKeyword, rhs: XMPKeyword) -> Bool {
        lhs.path.lexicographicallyPrecedes(rhs.path)
    }
}

/// Lightroom's and Adobe Camera Raw's crop, as the `crs:` properties record it.
///
/// **Coordinates.** ``top``, ``left``, ``bottom`` and ``right`` are fractions (0 to 1) of the height and width of
/// the image *as stored*, before its orientation (EXIF or `tiff:Orientation`) is applied: (0, 0) is the first
/// stored pixel's corner, `left`/`right` run along the stored rows, `top`/`bottom` down the stored columns. A
/// photo stored landscape and shown portrait (orientation 6) therefore has its crop in the landscape frame;
/// ``oriented(_:)`` maps it into the frame of the displayed image. ``angle`` is the straightening rotation in
/// degrees (Camera Raw allows -45 to 45), about the centre of the crop. darktable's Lightroom importer
/// (`src/develop/lightroom/clipping_iop.cc`) reads them the same way: it applies the angle and then the
/// orientation's flips and transposition to the four edges.
public struct CameraRawCrop: Sendable, Hashable, CustomStringConvertible {
    /// The top edge, a fraction of the stored height.
    public var top: Double
    /// The left edge, a fraction of the stored width.
    public var left: Double
    /// The bottom edge, a fraction of the stored height; more than ``top``.
    public var bottom: Double
    /// The right edge, a fraction of the stored width; more than ``left``.
    public var right: Double
    /// The straightening angle in degrees, -45 to 45.
    public var angle: Double

    /// Creates a crop; nil unless every edge is in 0...1, `top < bottom`, `left < right` and the angle is in
    /// -45...45 (all finite).
    public init?(top: Double, left: Double, bottom: Double, right: Double, angle: Double = 0) {
        let edges = [top, left, bottom, right]
        guard edges.allSatisfy({ $0.isFinite && (0...1).contains($0) }), top < bottom, left < right, angle.isFinite,
            (-45...45).contains(angle)
        else { return nil }
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
        self.angle = angle
    }

    /// The same crop in the frame of the image displayed with EXIF orientation `orientation` (1 to 8; others are
    /// treated as 1). The angle keeps its value, and changes sign when the orientation mirrors the image.
    public func oriented(_ orientation: Int) -> CameraRawCrop {
        // Each orientation is a transposition (5–8) then mirrors, in the displayed frame; stored (x, y) maps to
        // displayed (x', y') as below.
        let (t, l, b, r) = (top, left, bottom, right)
        var copy = self
        switch orientation {
        case 2: (copy.left, copy.right) = (1 - r, 1 - l)  // mirrored left-right
        case 3: (copy.top, copy.left, copy.bottom, copy.right) = (1 - b, 1 - r, 1 - t, 1 - l)  // rotated 180°
        case 4: (copy.top, copy.bottom) = (1 - b, 1 - t)  // mirrored top-bottom
        case 5: (copy.top, copy.left, copy.bottom, copy.right) = (l, t, r, b)  // transposed
        case 6: (copy.top, copy.left, copy.bottom, copy.right) = (l, 1 - b, r, 1 - t)  // rotated 90° clockwise
        case 7: (copy.top, copy.left, copy.bottom, copy.right) = (1 - r, 1 - b, 1 - l, 1 - t)  // transversed
        case 8: (copy.top, copy.left, copy.bottom, copy.right) = (1 - r, t, 1 - l, b)  // rotated 90° counter-clockwise
        default: break
        }
        if [2, 4, 5, 7].contains(orientation) { copy.angle = -angle }
        return copy
    }

    /// `top 0.1, left 0.2, bottom 0.9, right 0.8, angle 1.5°`.
    public var description: String {
        "top \(top), left \(left), bottom \(bottom), right \(right), angle \(angle)°"
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

/// A place by name, as IPTC's photo metadata gives it in XMP: city, state or province, country, and the country's
/// ISO 3166-1 code. Any may be missing.
public struct XMPPlaceNames: Sendable, Hashable {
    /// `photoshop:City`.
    public var city: String?
    /// `photoshop:State`: the region, state or province.
    public var state: String?
    /// `photoshop:Country`.
    public var country: String?
    /// `Iptc4xmpCore:CountryCode`: two or three letters.
    public var countryCode: String?

    /// A place named by any of these.
    public init(city: String? = nil, state: String? = nil, country: String? = nil, countryCode: String? = nil) {
        self.city = city
        self.state = state
        self.country = country
        self.countryCode = countryCode
    }
}
