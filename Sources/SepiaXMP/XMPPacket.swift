internal import CExempi
import Foundation
import SepiaCodecs

/// Reads ``XMPMetadata`` from an XMP packet's bytes and writes it as a packet, through Exempi.
///
/// Packets are checked before Exempi parses them, against ``XMPLimits``: at most ``XMPLimits/maximumBytes``,
/// well-formed XML with its namespaces declared, no DOCTYPE (so no entity is ever declared, expanded or
/// fetched), elements nested at most ``XMPLimits/maximumDepth`` deep, at most ``XMPLimits/maximumNamespaces``
/// namespace declarations, and no more members per node, nodes in all, and work for Exempi than the limits
/// allow. The check runs outside Exempi's lock, so a hostile packet costs only its own reader the time to refuse
/// it. A packet that fails the check is refused as a whole with an ``XMPError`` naming the problem; a property
/// with a value that is not valid is ignored with an ``XMPWarning`` and the rest is read.
///
/// ```swift
/// let reading = try XMPPacket.read(bytes)
/// for warning in reading.warnings { print(warning) }
/// let stars = reading.metadata.rating
/// ```
public enum XMPPacket {
    /// The largest packet read by default: ``XMPLimits/maximumBytes``, 4 MiB.
    public static let maximumBytes = XMPLimits.default.maximumBytes
    /// The deepest element nesting read by default: ``XMPLimits/maximumDepth``, 100.
    public static let maximumDepth = XMPLimits.default.maximumDepth
    /// The most namespace declarations read by default: ``XMPLimits/maximumNamespaces``, 200.
    public static let maximumNamespaces = XMPLimits.default.maximumNamespaces

    // MARK: - Reads

    /// Reads the metadata in a packet: a sidecar file's bytes, or an XMP packet embedded in a photo (with or
    /// without its `<?xpacket?>` wrapper; trailing NUL and white-space padding is ignored).
    ///
    /// - Parameters:
    ///   - bytes: The packet, UTF-8 (or UTF-16 with a byte-order mark).
    ///   - limits: What the packet may hold; past any of them it is refused before Exempi parses it.
    /// - Returns: The valid values, and a warning for each property found but ignored.
    /// - Throws: ``XMPError`` when the packet is refused as a whole: too large, not well-formed, a DOCTYPE, too
    ///   deep, too many members or nodes, or not XMP; or when Exempi is not installed.
    /// - Complexity: O(n) in the packet's size, and Exempi's parse within ``XMPLimits/maximumCost``.
    public static func read(_ bytes: [UInt8], limits: XMPLimits = .default) throws(XMPError) -> XMPReading {
        let packet = try check(bytes, limits: limits)
        return try ExempiDocument.withLock { () throws(XMPError) -> XMPReading in
            let document = try ExempiDocument(parsing: packet)
            var reader = Reader(document: document)
            return reader.read()
        }
    }

    /// Checks `bytes` against `limits` with expat, without Exempi's lock; returns the packet without its
    /// trailing padding, for Exempi to parse.
    static func check(_ bytes: [UInt8], limits: XMPLimits) throws(XMPError) -> [UInt8] {
        guard bytes.count <= limits.maximumBytes else {
            throw XMPError(
                .tooLarge,
                "the packet has \(bytes.count) bytes, more than the limit of \(limits.maximumBytes) (\(limits.maximumBytes >> 20) MiB); XMP sidecars are a few kilobytes"
            )
        }
        var end = bytes.count
        while end > 0, [0, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        guard end > 0 else { throw XMPError(.malformed, "the packet is empty") }
        let packet = Array(bytes[..<end])
        try ExempiDocument.load()
        var message = [CChar](repeating: 0, count: 320)
        var bounds = sepia_xmp_limits(
            max_depth: Int32(clamping: limits.maximumDepth), max_namespaces: Int32(clamping: limits.maximumNamespaces),
            max_members: limits.maximumMembers, max_nodes: limits.maximumNodes, max_cost: Int64(limits.maximumCost))
        let result = packet.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sepia_xmp_check($0.baseAddress, $0.count, &bounds, &message, message.count) }
        }
        let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let hostile = "XMP sidecars from digiKam, Lightroom and darktable stay far below it, so the packet is damaged or hostile"
        switch result {
        case SEPIA_XMP_CHECK_OK:
            return packet
        case SEPIA_XMP_CHECK_DOCTYPE:
            throw XMPError(
                .refused,
                "\(detail); XMP packets never have one, and Sepia does not read them (they can define entities that expand without bound or read other files)"
            )
        case SEPIA_XMP_CHECK_TOO_DEEP:
            throw XMPError(.refused, "\(detail); XMP needs far fewer levels, so the packet is damaged or hostile")
        case SEPIA_XMP_CHECK_TOO_MANY_NAMESPACES:
            throw XMPError(.refused, "\(detail); XMP sidecars declare a few dozen, so the packet is damaged or hostile")
        case SEPIA_XMP_CHECK_TOO_MANY_MEMBERS, SEPIA_XMP_CHECK_TOO_MANY_NODES, SEPIA_XMP_CHECK_TOO_COSTLY:
            throw XMPError(.refused, "\(detail), the limit; \(hostile)")
        default:
            throw XMPError(.malformed, "the packet is not well-formed XML: \(detail)")
        }
    }

    /// Not API: what Exempi alone makes of `bytes`, without Sepia's checks; nil when Exempi refuses them. Tests
    /// use it to show how Exempi treats the packets ``read(_:)`` refuses (DOCTYPEs, entities).
    public static func _readByExempiAlone(_ bytes: [UInt8]) throws(XMPError) -> XMPReading? {
        try ExempiDocument.withLock { () throws(XMPError) -> XMPReading? in
            guard let document = try? ExempiDocument(parsing: bytes) else { return nil }
            var reader = Reader(document: document)
            return reader.read()
        }
    }

    // MARK: - Writes

    /// Writes `metadata` as a complete XMP packet (UTF-8, with its `<?xpacket?>` wrapper), under the names
    /// digiKam, Lightroom and darktable read.
    ///
    /// Each property of `metadata` replaces the XMP properties behind it; a nil property (or no keywords) removes
    /// them. With `existing`, the packet is that packet updated: everything else in it (darktable's history,
    /// Lightroom's develop settings, other languages of the title) is kept.
    ///
    /// - Parameters:
    ///   - metadata: The values to write.
    ///   - existing: A packet to update, usually the sidecar being replaced; it is read with the same checks as
    ///     ``read(_:)``.
    /// - Returns: The packet's bytes.
    /// - Throws: ``XMPError``: `invalidValue` when a value cannot be written (a control character in a text, a `|`
    ///   in a keyword, an edit recipe that is not JSON), or the error reading `existing`.
    public static func serialize(_ metadata: XMPMetadata, merging existing: [UInt8]? = nil) throws(XMPError) -> [UInt8] {
        try validate(metadata)
        let checked = try existing.map { (bytes) throws(XMPError) -> [UInt8] in try check(bytes, limits: .default) }
        return try ExempiDocument.withLock { () throws(XMPError) -> [UInt8] in
            let document: ExempiDocument
            if let checked {
                document = try ExempiDocument(parsing: checked)
            } else {
                document = try ExempiDocument()
            }
            try Writer(document: document).write(metadata)
            return try document.serialize()
        }
    }

    /// Refuses values XMP cannot carry or that would not read back the same.
    static func validate(_ metadata: XMPMetadata) throws(XMPError) {
        func check(_ text: String, _ what: String) throws(XMPError) {
            if let bad = text.unicodeScalars.first(where: {
                ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || [0xFFFE, 0xFFFF].contains($0.value)
            }) {
                throw XMPError(
                    .invalidValue,
                    String(format: "the %@ contains the control character U+%04X, which XML cannot carry; remove it", what, bad.value))
            }
        }
        if let title = metadata.title { try check(title, "title") }
        if let caption = metadata.caption { try check(caption, "caption") }
        if let place = metadata.placeNames {
            for (value, what) in [(place.city, "city"), (place.state, "state"), (place.country, "country"), (place.countryCode, "country code")] {
                if let value { try check(value, what) }
            }
        }
        for keyword in metadata.keywords {
            for component in keyword.path {
                try check(component, "keyword \"\(keyword)\"")
                if component.contains("|") {
                    throw XMPError(
                        .invalidValue,
                        "the keyword component \"\(component)\" contains \"|\", which separates levels in Lightroom's hierarchical keywords; use a path of components instead"
                    )
                }
            }
        }
        if let recipe = metadata.editRecipe {
            try check(recipe, "edit recipe")
            guard (try? JSONSerialization.jsonObject(with: Data(recipe.utf8), options: [.fragmentsAllowed])) != nil else {
                throw XMPError(.invalidValue, "the edit recipe is not JSON; write the recipe's JSON encoding")
            }
        }
    }
}

// MARK: - Reading properties

/// Reads each property, keeping the valid values and a warning for each invalid one.
private struct Reader {
    let document: ExempiDocument
    var warnings: [XMPWarning] = []

    mutating func read() -> XMPReading {
        var metadata = XMPMetadata()
        metadata.rating = rating()
        metadata.title = text(Namespace.dc, "title", "dc:title")
        metadata.caption = text(Namespace.dc, "description", "dc:description")
        metadata.keywords = keywords()
        metadata.captureDate = captureDate()
        metadata.location = location()
        metadata.placeNames = placeNames()
        metadata.crop = crop()
        metadata.editRecipe = editRecipe()
        metadata.editRecipeApplied =
            metadata.editRecipe != nil && simple(Namespace.sepia, "EditRecipeApplied", "sepia:EditRecipeApplied") == "True"
        return XMPReading(metadata: metadata, warnings: warnings)
    }

    mutating func warn(_ property: String, _ value: String, _ reason: String) {
        warnings.append(XMPWarning(property: property, value: value, reason: reason))
    }

    /// A simple property's value, with a warning when it is an array or a structure.
    mutating func simple(_ namespace: String, _ name: String, _ label: String) -> String? {
        guard let found = document.property(namespace, name) else { return nil }
        guard found.isSimple else {
            warn(label, "", "an array or structure where XMP has a simple value")
            return nil
        }
        return found.value
    }

    mutating func rating() -> XMPMetadata.Rating? {
        guard let value = simple(Namespace.xmp, "Rating", "xmp:Rating") else { return nil }
        guard let rating = XMPValues.rating(value) else {
            warn("xmp:Rating", value, "a rating is -1 (rejected), 0 (unrated) or 1 to 5 stars")
            return nil
        }
        return rating
    }

    mutating func text(_ namespace: String, _ name: String, _ label: String) -> String? {
        guard document.property(namespace, name) != nil else { return nil }
        guard let value = document.localizedText(namespace, name) else {
            warn(label, document.property(namespace, name)?.value ?? "", "not a language alternative (rdf:Alt with an x-default item)")
            return nil
        }
        return value.isEmpty ? nil : value
    }

    mutating func list(_ namespace: String, _ name: String, _ label: String) -> [String] {
        guard let found = document.property(namespace, name) else { return [] }
        guard let items = document.arrayItems(namespace, name) else {
            warn(label, found.value, "a single value where XMP has an array (rdf:Bag or rdf:Seq)")
            return []
        }
        return items
    }

    /// Lightroom's and digiKam's paths first, then the flat `dc:subject` names no path already holds; paths that
    /// are the start of a longer path are dropped (the longer one implies them).
    mutating func keywords() -> [XMPKeyword] {
        var paths: [XMPKeyword] = []
        var seen = Set<[String]>()
        func add(_ keyword: XMPKeyword) {
            guard !keyword.path.isEmpty, seen.insert(keyword.path).inserted else { return }
            paths.append(keyword)
        }
        for item in list(Namespace.lightroom, "hierarchicalSubject", "lr:hierarchicalSubject") {
            add(XMPKeyword(item.split(separator: "|", omittingEmptySubsequences: false).map(String.init)))
        }
        for item in list(Namespace.digiKam, "TagsList", "digiKam:TagsList") {
            add(XMPKeyword(item.split(separator: "/", omittingEmptySubsequences: false).map(String.init)))
        }
        let components = Set(paths.flatMap(\.path))
        for item in list(Namespace.dc, "subject", "dc:subject") {
            let keyword = XMPKeyword([item])
            if let name = keyword.path.first, !components.contains(name) { add(keyword) }
        }
        return paths.filter { keyword in
            !paths.contains { $0.path.count > keyword.path.count && Array($0.path.prefix(keyword.path.count)) == keyword.path }
        }
    }

    mutating func captureDate() -> CaptureDate? {
        let candidates = [
            (Namespace.exif, "DateTimeOriginal", "exif:DateTimeOriginal"), (Namespace.photoshop, "DateCreated", "photoshop:DateCreated"),
            (Namespace.xmp, "CreateDate", "xmp:CreateDate"),
        ]
        for (namespace, name, label) in candidates {
            guard let value = simple(namespace, name, label) else { continue }
            if let date = CaptureDate.iso8601(value, origin: .xmp) { return date }
            warn(label, value, "a date is YYYY-MM-DD, optionally with Thh:mm[:ss[.s]] and an offset such as +02:00 or Z")
        }
        return nil
    }

    mutating func placeNames() -> XMPPlaceNames? {
        let names = XMPPlaceNames(
            city: simple(Namespace.photoshop, "City", "photoshop:City"), state: simple(Namespace.photoshop, "State", "photoshop:State"),
            country: simple(Namespace.photoshop, "Country", "photoshop:Country"),
            countryCode: simple(Namespace.iptcCore, "CountryCode", "Iptc4xmpCore:CountryCode"))
        return names == XMPPlaceNames() ? nil : names
    }

    mutating func location() -> GPSLocation? {
        let latitudeText = simple(Namespace.exif, "GPSLatitude", "exif:GPSLatitude")
        let longitudeText = simple(Namespace.exif, "GPSLongitude", "exif:GPSLongitude")
        var latitude: Double?
        var longitude: Double?
        if let latitudeText {
            latitude = XMPValues.coordinate(latitudeText, latitude: true)
            if latitude == nil {
                warn("exif:GPSLatitude", latitudeText, "a latitude is DD,MM.mmN or DD,MM,SSN (N or S), at most 90°")
            }
        }
        if let longitudeText {
            longitude = XMPValues.coordinate(longitudeText, latitude: false)
            if longitude == nil {
                warn("exif:GPSLongitude", longitudeText, "a longitude is DDD,MM.mmE or DDD,MM,SSE (E or W), at most 180°")
            }
        }
        guard let latitude, let longitude else {
            if (latitudeText == nil) != (longitudeText == nil) {
                warn(
                    latitudeText == nil ? "exif:GPSLongitude" : "exif:GPSLatitude", latitudeText ?? longitudeText ?? "",
                    "a position needs both a latitude and a longitude")
            }
            return nil
        }
        var altitude: Double?
        if let altitudeText = simple(Namespace.exif, "GPSAltitude", "exif:GPSAltitude") {
            if let metres = XMPValues.rational(altitudeText), metres >= 0, metres < 100_000 {
                altitude = metres
                if let reference = simple(Namespace.exif, "GPSAltitudeRef", "exif:GPSAltitudeRef") {
                    switch reference.trimmingWhitespace() {
                    case "0": break
                    case "1": altitude = -metres
                    default:
                        warn("exif:GPSAltitudeRef", reference, "the reference is 0 (above sea level) or 1 (below); the altitude is ignored")
                        altitude = nil
                    }
                }
            } else {
                warn("exif:GPSAltitude", altitudeText, "an altitude is a rational such as 3500/100, in metres, 0 to 100 km")
            }
        }
        return GPSLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    mutating func crop() -> CameraRawCrop? {
        guard let hasCrop = simple(Namespace.crs, "HasCrop", "crs:HasCrop") else { return nil }
        switch hasCrop.trimmingWhitespace().lowercased() {
        case "true": break
        case "false": return nil
        default:
            warn("crs:HasCrop", hasCrop, "HasCrop is True or False; the crop is ignored")
            return nil
        }
        var edges: [String: Double] = [:]
        for name in ["CropTop", "CropLeft", "CropBottom", "CropRight", "CropAngle"] {
            guard let text = simple(Namespace.crs, name, "crs:\(name)") else {
                if name == "CropAngle" { continue }
                warn("crs:\(name)", "", "missing while crs:HasCrop is True; the crop is ignored")
                return nil
            }
            guard let value = XMPValues.real(text) else {
                warn("crs:\(name)", text, "not a number; the crop is ignored")
                return nil
            }
            edges[name] = value
        }
        let top = edges["CropTop"] ?? 0
        let left = edges["CropLeft"] ?? 0
        let bottom = edges["CropBottom"] ?? 1
        let right = edges["CropRight"] ?? 1
        let angle = edges["CropAngle"] ?? 0
        guard let crop = CameraRawCrop(top: top, left: left, bottom: bottom, right: right, angle: angle) else {
            warn(
                "crs:CropTop",
                "top \(top), left \(left), bottom \(bottom), right \(right), angle \(angle)",
                "a crop's edges are fractions 0 to 1 with top < bottom and left < right, its angle -45 to 45; the crop is ignored")
            return nil
        }
        return crop
    }

    mutating func editRecipe() -> String? {
        guard let recipe = simple(Namespace.sepia, "EditRecipe", "sepia:EditRecipe") else { return nil }
        guard (try? JSONSerialization.jsonObject(with: Data(recipe.utf8), options: [.fragmentsAllowed])) != nil else {
            warn("sepia:EditRecipe", recipe, "the edit recipe is not JSON")
            return nil
        }
        return recipe
    }
}

// MARK: - Writing properties

/// Replaces the properties behind each field of the metadata.
private struct Writer {
    let document: ExempiDocument

    func write(_ metadata: XMPMetadata) throws(XMPError) {
        document.delete(Namespace.xmp, "Rating")
        if let rating = metadata.rating { try document.set(Namespace.xmp, "Rating", "\(rating.xmpValue)") }

        for (name, value) in [("title", metadata.title), ("description", metadata.caption)] {
            if let value, !value.isEmpty {
                try document.setLocalizedText(Namespace.dc, name, value)
            } else {
                document.delete(Namespace.dc, name)
            }
        }

        document.delete(Namespace.dc, "subject")
        document.delete(Namespace.lightroom, "hierarchicalSubject")
        document.delete(Namespace.digiKam, "TagsList")
        var names = Set<String>()
        for keyword in metadata.keywords where !keyword.path.isEmpty {
            if names.insert(keyword.name).inserted { try document.append(Namespace.dc, "subject", ordered: false, keyword.name) }
            try document.append(Namespace.lightroom, "hierarchicalSubject", ordered: false, keyword.path.joined(separator: "|"))
            try document.append(Namespace.digiKam, "TagsList", ordered: true, keyword.path.joined(separator: "/"))
        }

        document.delete(Namespace.exif, "DateTimeOriginal")
        document.delete(Namespace.photoshop, "DateCreated")
        if let date = metadata.captureDate {
            try document.set(Namespace.exif, "DateTimeOriginal", date.description)
            try document.set(Namespace.photoshop, "DateCreated", date.description)
        } else {
            document.delete(Namespace.xmp, "CreateDate")
        }

        for name in ["GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSAltitudeRef"] { document.delete(Namespace.exif, name) }
        if let location = metadata.location {
            try document.set(Namespace.exif, "GPSLatitude", XMPValues.coordinateText(location.latitude, latitude: true))
            try document.set(Namespace.exif, "GPSLongitude", XMPValues.coordinateText(location.longitude, latitude: false))
            if let altitude = location.altitude {
                try document.set(Namespace.exif, "GPSAltitude", XMPValues.altitudeText(altitude))
                try document.set(Namespace.exif, "GPSAltitudeRef", altitude < 0 ? "1" : "0")
            }
        }

        for name in ["City", "State", "Country"] { document.delete(Namespace.photoshop, name) }
        document.delete(Namespace.iptcCore, "CountryCode")
        if let place = metadata.placeNames {
            for (name, value) in [("City", place.city), ("State", place.state), ("Country", place.country)] {
                if let value, !value.isEmpty { try document.set(Namespace.photoshop, name, value) }
            }
            if let code = place.countryCode, !code.isEmpty { try document.set(Namespace.iptcCore, "CountryCode", code) }
        }

        for name in ["HasCrop", "CropTop", "CropLeft", "CropBottom", "CropRight", "CropAngle"] { document.delete(Namespace.crs, name) }
        if let crop = metadata.crop {
            try document.set(Namespace.crs, "HasCrop", "True")
            for (name, value) in [
                ("CropTop", crop.top), ("CropLeft", crop.left), ("CropBottom", crop.bottom), ("CropRight", crop.right), ("CropAngle", crop.angle),
            ] {
                try document.set(Namespace.crs, name, XMPValues.realText(value))
            }
        }

        document.delete(Namespace.sepia, "EditRecipe")
        if let recipe = metadata.editRecipe { try document.set(Namespace.sepia, "EditRecipe", recipe) }
        document.delete(Namespace.sepia, "EditRecipeApplied")
        if metadata.editRecipe != nil && metadata.editRecipeApplied { try document.set(Namespace.sepia, "EditRecipeApplied", "True") }
    }
}
