// Core Image's string constants, with Core Image's values.

/// `inputImage`.
public let kCIInputImageKey = "inputImage"
/// `outputImage`.
public let kCIOutputImageKey = "outputImage"
/// `inputIntensity`.
public let kCIInputIntensityKey = "inputIntensity"
/// `inputRadius`.
public let kCIInputRadiusKey = "inputRadius"
/// `inputScale`.
public let kCIInputScaleKey = "inputScale"
/// `inputCenter`.
public let kCIInputCenterKey = "inputCenter"
/// `inputAngle`.
public let kCIInputAngleKey = "inputAngle"
/// `inputColor`.
public let kCIInputColorKey = "inputColor"
/// `inputSaturation`.
public let kCIInputSaturationKey = "inputSaturation"
/// `inputBrightness`.
public let kCIInputBrightnessKey = "inputBrightness"
/// `inputContrast`.
public let kCIInputContrastKey = "inputContrast"
/// `inputEV`.
public let kCIInputEVKey = "inputEV"
/// `inputSharpness`.
public let kCIInputSharpnessKey = "inputSharpness"
/// `inputTransform`.
public let kCIInputTransformKey = "inputTransform"
/// `inputAspectRatio`.
public let kCIInputAspectRatioKey = "inputAspectRatio"
/// `inputExtent`.
public let kCIInputExtentKey = "inputExtent"

/// `CIAttributeFilterName`.
public let kCIAttributeFilterName = "CIAttributeFilterName"
/// `CIAttributeFilterDisplayName`.
public let kCIAttributeFilterDisplayName = "CIAttributeFilterDisplayName"
/// `CIAttributeFilterCategories`.
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
/// `CIAttributeDescription`.
public let kCIAttributeDescription = "CIAttributeDescription"
/// `CIAttributeClass`.
public let kCIAttributeClass = "CIAttributeClass"
/// `CIAttributeType`.
public let kCIAttributeType = "CIAttributeType"
/// `CIAttributeMin`.
public let kCIAttributeMin = "CIAttributeMin"
/// `CIAttributeMax`.
public let kCIAttributeMax = "CIAttributeMax"
/// `CIAttributeSliderMin`.
public let kCIAttributeSliderMin = "CIAttributeSliderMin"
/// `CIAttributeSliderMax`.
public let kCIAttributeSliderMax = "CIAttributeSliderMax"
/// `CIAttributeDefault`.
public let kCIAttributeDefault = "CIAttributeDefault"
/// `CIAttributeIdentity`.
public let kCIAttributeIdentity = "CIAttributeIdentity"
/// `CIAttributeName`.
public let kCIAttributeName = "CIAttributeName"
/// `CIAttributeDisplayName`.
public let kCIAttributeDisplayName = "CIAttributeDisplayName"

/// `CIAttributeTypeScalar`.
public let kCIAttributeTypeScalar = "CIAttributeTypeScalar"
/// `CIAttributeTypeDistance`.
public let kCIAttributeTypeDistance = "CIAttributeTypeDistance"
/// `CIAttributeTypeAngle`.
public let kCIAttributeTypeAngle = "CIAttributeTypeAngle"
/// `CIAttributeTypeCount`.
public let kCIAttributeTypeCount = "CIAttributeTypeCount"
/// `CIAttributeTypeBoolean`.
public let kCIAttributeTypeBoolean = "CIAttributeTypeBoolean"
/// `CIAttributeTypePosition`.
public let kCIAttributeTypePosition = "CIAttributeTypePosition"
/// `CIAttributeTypeOffset`.
public let kCIAttributeTypeOffset = "CIAttributeTypeOffset"
/// `CIAttributeTypeRectangle`.
public let kCIAttributeTypeRectangle = "CIAttributeTypeRectangle"
/// `CIAttributeTypeColor`.
public let kCIAttributeTypeColor = "CIAttributeTypeColor"
/// `CIAttributeTypeImage`.
public let kCIAttributeTypeImage = "CIAttributeTypeImage"
/// `CIAttributeTypeTransform`.
public let kCIAttributeTypeTransform = "CIAttributeTypeTransform"

/// `CICategoryColorAdjustment`.
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
/// `CICategoryColorEffect`.
public let kCICategoryColorEffect = "CICategoryColorEffect"
/// `CICategoryBlur`.
public let kCICategoryBlur = "CICategoryBlur"
/// `CICategorySharpen`.
public let kCICategorySharpen = "CICategorySharpen"
/// `CICategoryStylize`.
public let kCICategoryStylize = "CICategoryStylize"
/// `CICategoryGeometryAdjustment`.
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
/// `CICategoryBuiltIn`.
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
/// `CICategoryStillImage`.
public let kCICategoryStillImage = "CICategoryStillImage"
