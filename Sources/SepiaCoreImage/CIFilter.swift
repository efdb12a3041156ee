import Foundation
public import SepiaImage

/// A mutable, string-keyed filter in Core Image's style (`CIFilter`), over Sepia's typed filters.
///
/// Set the input image and parameters with ``setValue(_:forKey:)`` using Core Image keys; read
/// ``outputImage``. Like Core Image, a filter is not thread-safe: use one per thread. Numbers outside a
/// parameter's range are clamped into it when the output is built (Core Image does not refuse them either);
/// a value of the wrong type leaves the parameter unchanged and records ``lastError``.
open class CIFilter: CustomStringConvertible {
    /// The Core Image name.
    public let name: String
    let descriptor: FilterDescriptor
    /// Parameter values by Sepia key, in the engine's coordinates.
    var values: [String: FilterValue] = [:]
    /// The input image.
    public var inputImage: CIImage?
    /// The last value that could not be set, if any.
    public private(set) var lastError: FilterError?

    /// The filter named `name` with default parameters, or nil when there is none.
    public init?(name: String) {
        guard let type = FilterRegistry.type(named: name) else { return nil }
        descriptor = type.descriptor
        self.name = descriptor.coreImageName
        setDefaults()
    }

    /// The filter named `name` with parameters (and `inputImage`) set.
    public convenience init?(name: String, parameters: [String: Any]?) {
        self.init(name: name)
        for (key, value) in parameters ?? [:] { setValue(value, forKey: key) }
    }

    /// A built-in filter that is known to exist.
    init(builtin name: String) {
        guard let type = FilterRegistry.type(named: name) else { preconditionFailure("the built-in filter \(name) is not registered") }
        descriptor = type.descriptor
        self.name = descriptor.coreImageName
        setDefaults()
    }

    /// Resets every parameter to its default.
    open func setDefaults() {
        values = [:]
        for p in descriptor.parameters { values[p.key] = Self.engineDefault(p) }
    }

    /// A descriptor default read as Core Image states it (positions y-up), in engine coordinates.
    static func engineDefault(_ p: FilterParameter) -> FilterValue {
        if p.kind == .position, case .vector(let v) = p.defaultValue, v.count == 2 { return .vector([v[0], -v[1]]) }
        return p.defaultValue
    }

    /// `inputImage` followed by every parameter's key.
    open var inputKeys: [String] { descriptor.inputKeys }

    /// `outputImage`.
    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// The filter's name.
    public var description: String { name }

    // MARK: - Key-value access

    /// Sets the input image or a parameter by its Core Image key (or Sepia's short key). `nil` restores the
    /// default.
    open func setValue(_ value: Any?, forKey key: String) {
        if key == kCIInputImageKey {
            inputImage = value as? CIImage
            return
        }
        guard let parameter = descriptor.parameter(forKey: key) else {
            lastError = .unknownParameter(filter: name, key: key, known: descriptor.parameters.map(\.coreImageKey))
            return
        }
        guard let value else {
            values[parameter.key] = Self.engineDefault(parameter)
            return
        }
        guard let converted = Self.engineValue(value, for: parameter, filter: name) else {
            lastError = .wrongType(filter: name, key: key, expected: parameter.kind.rawValue, value: "\(value)")
            return
        }
        values[parameter.key] = converted
    }

    /// The input image or a parameter's value, in Core Image's types (`NSNumber`, `CIVector`, `CIColor`,
    /// `CGAffineTransform`, `Data`).
    open func value(forKey key: String) -> Any? {
        if key == kCIInputImageKey { return inputImage }
        if key == kCIOutputImageKey { return outputImage }
        guard let parameter = descriptor.parameter(forKey: key), let value = values[parameter.key] else { return nil }
        return Self.coreImageValue(value, for: parameter, filter: name)
    }

    /// Number parameters, for the typed built-ins.
    func float(_ key: String) -> Float {
        guard let p = descriptor.parameter(forKey: key), case .number(let n)? = values[p.key] else { return 0 }
        return Float(p.kind == .angle && Self.anglesFlip(name) ? -n : n)
    }

    // MARK: - Output

    /// The filtered image, or nil without an input image or with values the filter cannot use.
    open var outputImage: CIImage? {
        guard let inputImage else { return nil }
        var clamped = values
        for p in descriptor.parameters {
            if case .number(let n)? = clamped[p.key] { clamped[p.key] = .number(p.clamp(n)) }
        }
        do {
            let filter = try FilterRegistry.makeFilter(named: name, parameters: clamped)
            return CIImage(flipped: inputImage.image.applying(filter), properties: inputImage.properties)
        } catch {
            lastError = error
            return nil
        }
    }

    // MARK: - Attributes

    /// Core Image's attribute dictionary: the filter's name, display name and categories, and for each input
    /// key its class, type, default, minimum, maximum, slider range and identity.
    open var attributes: [String: Any] {
        var result: [String: Any] = [
            kCIAttributeFilterName: name, kCIAttributeFilterDisplayName: descriptor.displayName,
            kCIAttributeFilterCategories: descriptor.categories.map(\.rawValue), kCIAttributeDescription: descriptor.summary,
        ]
        result[kCIInputImageKey] =
            [
                kCIAttributeClass: "CIImage", kCIAttributeType: kCIAttributeTypeImage, kCIAttributeDisplayName: "Image",
                kCIAttributeDescription: "The image to use as an input for the effect.",
            ] as [String: Any]
        for p in descriptor.parameters {
            var entry: [String: Any] = [
                kCIAttributeDisplayName: p.displayName, kCIAttributeDescription: p.summary,
                kCIAttributeClass: Self.className(p.kind), kCIAttributeName: p.coreImageKey,
            ]
            if let type = Self.typeName(p.kind) { entry[kCIAttributeType] = type }
            entry[kCIAttributeDefault] = Self.coreImageValue(Self.engineDefault(p), for: p, filter: name)
            if let identity = p.identity { entry[kCIAttributeIdentity] = Self.coreImageValue(identity, for: p, filter: name) }
            if let v = p.minimum { entry[kCIAttributeMin] = NSNumber(value: v) }
            if let v = p.maximum { entry[kCIAttributeMax] = NSNumber(value: v) }
            if let v = p.sliderMinimum { entry[kCIAttributeSliderMin] = NSNumber(value: v) }
            if let v = p.sliderMaximum { entry[kCIAttributeSliderMax] = NSNumber(value: v) }
            result[p.coreImageKey] = entry
        }
        return result
    }

    /// The names of the filters in a category (`kCICategoryBlur`, …); all of them for nil.
    public class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// The names of the filters in all of `categories`; all of them for nil.
    public class func filterNames(inCategories categories: [String]?) -> [String] {
        FilterRegistry.descriptors.filter { d in
            (categories ?? []).allSatisfy { c in d.categories.contains { $0.rawValue == c } }
        }.map(\.coreImageName).sorted()
    }

    // MARK: - Conversions between Core Image values and engine values

    /// Rotation angles turn the other way once y points down.
    static func anglesFlip(_ filter: String) -> Bool { filter == "CIStraightenFilter" }

    static func number(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as CGFloat: return Double(v)
        case let v as Int: return Double(v)
        case let v as Bool: return v ? 1 : 0
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    static func engineValue(_ value: Any, for p: FilterParameter, filter: String) -> FilterValue? {
        switch p.kind {
        case .scalar, .distance, .count:
            return number(value).map { .number($0) }
        case .angle:
            return number(value).map { .number(anglesFlip(filter) ? -$0 : $0) }
        case .boolean:
            if let b = value as? Bool { return .bool(b) }
            return number(value).map { .bool($0 != 0) }
        case .color:
            if let c = value as? CIColor { return .vector(c.components) }
            if let v = value as? CIVector { return .vector(v.doubles) }
            return nil
        case .vector:
            if let v = value as? CIVector { return .vector(v.doubles) }
            if let a = value as? [Double] { return .vector(a) }
            return nil
        case .position:
            let point: CGPoint?
            if let v = value as? CIVector { point = v.cgPointValue } else { point = value as? CGPoint }
            return point.map { .vector([Double($0.x), Double(-$0.y)]) }
        case .offset:
            // Not a place in the image: taken as written, never flipped.
            if let v = value as? CIVector { return .vector(v.doubles) }
            if let p = value as? CGPoint { return .vector([Double(p.x), Double(p.y)]) }
            if let a = value as? [Double] { return .vector(a) }
            return nil
        case .rectangle:
            let rect: CGRect?
            if let v = value as? CIVector { rect = v.cgRectValue } else { rect = value as? CGRect }
            guard let r = rect else { return nil }
            if r.width > 1e300 { return .vector([-8.98847e307, -8.98847e307, 1.79769e308, 1.79769e308]) }
            return .vector([Double(r.minX), Double(-r.maxY), Double(r.width), Double(r.height)])
        case .transform:
            guard let t = value as? CGAffineTransform else { return nil }
            return .vector(CIImage.engineMatrix(t).entries)
        case .data:
            if let data = value as? Data {
                let floats: [Double] = data.withUnsafeBytes { raw in
                    (0..<(raw.count / 4)).map {
                        Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))))
                    }
                }
                return .vector(floats)
            }
            if let a = value as? [Float] { return .vector(a.map(Double.init)) }
            if let a = value as? [Double] { return .vector(a) }
            return nil
        }
    }

    static func coreImageValue(_ value: FilterValue, for p: FilterParameter, filter: String) -> Any? {
        switch (p.kind, value) {
        case (.angle, .number(let n)):
            return NSNumber(value: anglesFlip(filter) ? -n : n)
        case (_, .number(let n)):
            return NSNumber(value: n)
        case (_, .bool(let b)):
            return NSNumber(value: b)
        case (.color, .vector(let v)) where v.count >= 3:
            return CIColor(red: v[0], green: v[1], blue: v[2], alpha: v.count > 3 ? v[3] : 1)
        case (.position, .vector(let v)) where v.count >= 2:
            return CIVector(x: v[0], y: -v[1])
        case (.rectangle, .vector(let v)) where v.count >= 4:
            if v[2] > 1e300 { return CIVector(cgRect: .infinite) }
            return CIVector(x: v[0], y: -(v[1] + v[3]), z: v[2], w: v[3])
        case (.transform, .vector(let v)) where v.count == 6:
            return CIImage.ciMatrix(AffineMatrix(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        case (.data, .vector(let v)):
            var data = Data(capacity: v.count * 4)
            for d in v { withUnsafeBytes(of: Float(d).bitPattern.littleEndian) { data.append(contentsOf: $0) } }
            return data
        case (_, .vector(let v)):
            return CIVector(array: v.map { CGFloat($0) })
        case (_, .string(let s)):
            return s
        }
    }

    static func className(_ kind: FilterParameter.Kind) -> String {
        switch kind {
        case .scalar, .distance, .angle, .count, .boolean: return "NSNumber"
        case .color: return "CIColor"
        case .position, .offset, .vector, .rectangle: return "CIVector"
        case .transform: return "NSValue"
        case .data: return "NSData"
        }
    }

    static func typeName(_ kind: FilterParameter.Kind) -> String? {
        switch kind {
        case .scalar: return kCIAttributeTypeScalar
        case .distance: return kCIAttributeTypeDistance
        case .angle: return kCIAttributeTypeAngle
        case .count: return kCIAttributeTypeCount
        case .boolean: return kCIAttributeTypeBoolean
        case .color: return kCIAttributeTypeColor
        case .position: return kCIAttributeTypePosition
        case .offset: return kCIAttributeTypeOffset
        case .rectangle: return kCIAttributeTypeRectangle
        case .transform: return kCIAttributeTypeTransform
        case .vector, .data: return nil
        }
    }
}

/// What every filter has: an output image (`CIFilterProtocol`).
public protocol CIFilterProtocol: AnyObject {
    /// The filtered image.
    var outputImage: CIImage? { get }
}
