import Foundation
import SepiaCoreImage
import SepiaImage
import Testing

@Suite struct CoreImageAPITests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/testdata/jpeg-conformance/flower-progressive.jpg")

    let context = CIContext()

    @Test("CIFilter exposes Core Image's names, keys and attributes")
    func introspection() throws {
        let filter = try #require(CIFilter(name: "CIVignette"))
        #expect(filter.inputKeys == ["inputImage", "inputIntensity", "inputRadius"])
        #expect(filter.outputKeys == ["outputImage"])
        let attributes = filter.attributes
        #expect(attributes[kCIAttributeFilterName] as? String == "CIVignette")
        let radius = try #require(attributes[kCIInputRadiusKey] as? [String: Any])
        #expect((radius[kCIAttributeDefault] as? NSNumber)?.doubleValue == 1)
        #expect((radius[kCIAttributeMax] as? NSNumber)?.doubleValue == 2)
        #expect((radius[kCIAttributeSliderMax] as? NSNumber)?.doubleValue == 2)
        #expect(CIFilter(name: "CINotAFilter") == nil)
        #expect(CIFilter.filterNames(inCategory: kCICategoryBlur) == ["CIBoxBlur", "CIGaussianBlur"])
    }

    @Test("values round-trip through setValue and value(forKey:), typed and untyped")
    func values() throws {
        let sepia = CIFilter.sepiaTone()
        #expect(sepia.intensity == 1)
        sepia.intensity = 0.25
        #expect((sepia.value(forKey: kCIInputIntensityKey) as? NSNumber)?.floatValue == 0.25)
        let pixellate = CIFilter.pixellate()
        #expect(pixellate.center == CGPoint(x: 150, y: 150))
        pixellate.center = CGPoint(x: 10, y: 20)
        #expect((pixellate.value(forKey: kCIInputCenterKey) as? CIVector)?.cgPointValue == CGPoint(x: 10, y: 20))
        let mono = CIFilter.colorMonochrome()
        #expect(mono.color.red == 0.6)
        let t = CIFilter.affineTransform()
        t.transform = CGAffineTransform(rotationAngle: 0.3)
        #expect(abs(t.transform.b - sin(0.3)) < 1e-12)
        let bad = try #require(CIFilter(name: "CISepiaTone"))
        bad.setValue("lots", forKey: kCIInputIntensityKey)
        #expect(bad.lastError != nil)
        #expect((bad.value(forKey: kCIInputIntensityKey) as? NSNumber)?.doubleValue == 1)
    }

    @Test("geometry is in Core Image's y-up coordinates")
    func coordinates() throws {
        let image = try #require(CIImage(contentsOf: Self.photo))
        // flower-progressive.jpg is 480x360 (ImageMagick's identify).
        #expect(image.extent == CGRect(x: 0, y: 0, width: 480, height: 360))
        // The bottom 40 rows in Core Image coordinates are the last 40 rows of the picture.
        let bottom = image.cropped(to: CGRect(x: 0, y: 0, width: 480, height: 40))
        #expect(bottom.extent == CGRect(x: 0, y: 0, width: 480, height: 40))
        let full = try #require(context.createCGImage(image, from: image.extent))
        let strip = try #require(context.createCGImage(bottom, from: bottom.extent))
        for x in [0, 100, 479] {
            #expect(strip.bitmap.rgba(x: x, y: 39) == full.bitmap.rgba(x: x, y: 359))
            #expect(strip.bitmap.rgba(x: x, y: 0) == full.bitmap.rgba(x: x, y: 320))
        }
        // A translation up moves the extent up.
        #expect(image.transformed(by: CGAffineTransform(translationX: 5, y: 7)).extent == CGRect(x: 5, y: 7, width: 480, height: 360))
        // Orientation keeps the origin and swaps the size.
        #expect(image.oriented(.right).extent == CGRect(x: 0, y: 0, width: 360, height: 480))
    }

    @Test("CIContext writes JPEG and PNG representations")
    func representations() throws {
        let image = try #require(CIImage(contentsOf: Self.photo)).applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: 0.8])
        let space = CGColorSpaceCreateDeviceRGB()
        let jpeg = try #require(context.jpegRepresentation(of: image, colorSpace: space))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let png = try #require(context.pngRepresentation(of: image, format: .RGBA8, colorSpace: space))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-ci-\(UUID().uuidString).jpg")
        try context.writeJPEGRepresentation(of: image, to: url, colorSpace: space)
        #expect(try Data(contentsOf: url).starts(with: [0xFF, 0xD8]))
        #expect(context.jpegRepresentation(of: CIImage(color: .red), colorSpace: space) == nil, "an infinite image cannot be encoded")
    }

    @Test("tone curve points and white points are offsets: read and used as written, never flipped or y-up converted")
    func offsets() async throws {
        let curve = CIFilter.toneCurve()
        #expect(curve.point1 == CGPoint(x: 0.25, y: 0.25))
        curve.point1 = CGPoint(x: 0.3, y: 0.1)
        #expect((curve.value(forKey: "inputPoint1") as? CIVector)?.cgPointValue == CGPoint(x: 0.3, y: 0.1))
        let attributes = try #require(curve.attributes["inputPoint1"] as? [String: Any])
        #expect(attributes[kCIAttributeType] as? String == kCIAttributeTypeOffset)
        #expect(attributes[kCIAttributeClass] as? String == "CIVector")
        #expect((attributes[kCIAttributeDefault] as? CIVector)?.cgPointValue == CGPoint(x: 0.25, y: 0.25))
        // The filter the Core Image layer builds is the engine's, with the point as written.
        let grey = CIImage(image: SepiaImage.Image(pixels: PixelBuffer(size: IntSize(width: 4, height: 4)) { _, _ in SIMD4(0.2, 0.2, 0.2, 1) }))
        curve.inputImage = grey
        let expected = ToneCurve(point1: [0.3, 0.1])
        let out = try await RenderContext().render(try #require(curve.outputImage).image)
        let engine = try await RenderContext().render(grey.image.applying(expected))
        #expect(out.pixels == engine.pixels)
        // A point left of its predecessor gives no output and says why.
        curve.point2 = CGPoint(x: 0.2, y: 0.5)
        #expect(curve.outputImage == nil)
        #expect(curve.lastError.map { "\($0)" }?.contains("inputPoint2") == true)

        let white = CIFilter.temperatureAndTint()
        #expect(white.neutral.cgPointValue == CGPoint(x: 6500, y: 0))
        white.targetNeutral = CIVector(x: 4000, y: 10)
        #expect(white.targetNeutral.cgPointValue == CGPoint(x: 4000, y: 10))
        #expect(CIFilter.vibrance().amount == 0)
        #expect(CIFilter.noiseReduction().noiseLevel == 0.02)
        #expect(CIFilter.noiseReduction().sharpness == 0.4)
    }

    @Test("the Core Image layer renders exactly what the engine renders")
    func sameAsEngine() async throws {
        let ci = try #require(CIImage(contentsOf: Self.photo)).applyingFilter("CIPhotoEffectNoir")
        let cg = try #require(context.createCGImage(ci, from: ci.extent))
        let engine = try await RenderContext().renderBitmap(
            SepiaImage.Image(bitmap: try #require(CIImage(contentsOf: Self.photo).flatMap { context.createCGImage($0, from: $0.extent) }).bitmap)
                .applying(PhotoEffectNoir()), layout: .rgba)
        #expect(cg.bitmap == engine)
    }
}

/// `CIRAWFilter` spelled as Core Image's class API, over the DNG that scripts/testdata-raw makes.
@Suite struct CIRAWFilterTests {
    static let dng = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/testdata/raw-tiff/raw/rggb_12bit.dng")

    let context = CIContext()

    @Test("a RAW file develops; exposure brightens; white balance starts as shot; CIImage opens RAW too")
    func develops() throws {
        let raw = try #require(CIRAWFilter(imageURL: Self.dng))
        #expect(raw.nativeSize == CGSize(width: 1200, height: 800))
        #expect(raw.step.isDefault, "an untouched filter develops as the camera shot it")
        let plain = try #require(raw.outputImage)
        #expect(plain.extent.size == CGSize(width: 1200, height: 800))
        raw.exposure = 1
        raw.neutralTemperature += 1500
        #expect(raw.step.exposure == 1 && raw.step.neutralTemperature != nil)
        let changed = try #require(raw.outputImage)
        func mean(_ image: CIImage) throws -> Double {
            let small = image.image.thumbnail(size: IntSize(width: 64, height: 64))
            let bitmap = try #require(context.createCGImage(CIImage(image: small), from: CIImage(image: small).extent)).bitmap
            return Double(bitmap.bytes.reduce(0) { $0 + Int($1) }) / Double(bitmap.bytes.count)
        }
        let (before, after) = (try mean(plain), try mean(changed))
        #expect(after > before * 1.1, "\(before) → \(after)")
        #expect(CIRAWFilter(imageData: Data("not a raw file".utf8), identifierHint: "x.nef") == nil)
        #expect(CIImage(contentsOf: Self.dng)?.extent.size == CGSize(width: 1200, height: 800))
    }
}
