import Foundation
import SepiaCoreImage
import SepiaImage
import Testing

// The seed apps' Core Image code, compiled and run on Linux. Only UIKit and SwiftUI types are swapped out for
// the minimal stand-ins below; the LetsEat and Instafilter code further down is the apps' own.

// MARK: - Stand-ins for UIKit and SwiftUI

/// UIKit's `UIImage`, reduced to what the seeds use.
final class UIImage {
    enum Orientation: Int { case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored }
    let cgImage: CGImage?
    let scale: CGFloat
    let imageOrientation: Orientation
    fileprivate let ciImage: CIImage?

    init(cgImage: CGImage, scale: CGFloat = 1, orientation: Orientation = .up) {
        self.cgImage = cgImage
        self.scale = scale
        imageOrientation = orientation
        ciImage = nil
    }

    init?(data: Data) {
        guard let image = CIImage(data: data, options: [.applyOrientationProperty: true]),
            let rendered = CIContext().createCGImage(image, from: image.extent)
        else { return nil }
        cgImage = rendered
        scale = 1
        imageOrientation = .up
        ciImage = nil
    }
}

extension CIImage {
    /// UIKit's bridge from `UIImage`.
    convenience init?(image: UIImage, options: [CIImageOption: Any]? = nil) {
        guard let cgImage = image.cgImage else { return nil }
        self.init(cgImage: cgImage)
    }
}

/// SwiftUI's `Image`, reduced to `init(uiImage:)`.
struct Image {
    let uiImage: UIImage
    init(uiImage: UIImage) { self.uiImage = uiImage }
}

/// PhotosUI's `PhotosPickerItem`, reduced to `loadTransferable(type:)`.
struct PhotosPickerItem {
    let data: Data
    func loadTransferable(type: Data.Type) async throws -> Data? { data }
}

// MARK: - LetsEat: PhotoFilter/ImageFiltering.swift (iOS 15 Programming for Beginners)

protocol ImageFiltering {
    func apply(filter: String, originalImage: UIImage) -> UIImage
}

extension ImageFiltering {
    func apply(filter: String, originalImage: UIImage) -> UIImage {
        let initialCIImage = CIImage(image: originalImage, options: nil)
        let originalOrientation = originalImage.imageOrientation
        guard let ciFilter = CIFilter(name: filter) else {
            print("filter not found")
            return originalImage
        }
        ciFilter.setValue(initialCIImage, forKey: kCIInputImageKey)
        let context = CIContext()
        let filteredCIImage = (ciFilter.outputImage)!
        let filteredCGImage = context.createCGImage(filteredCIImage, from: filteredCIImage.extent)
        return UIImage(cgImage: filteredCGImage!, scale: 1.0, orientation: originalOrientation)
    }
}

struct PhotoFilterScreen: ImageFiltering {}

// MARK: - Instafilter: ContentView.swift (Hacking with Swift, project 13, iOS 17 version)
// The view's @State properties are plain properties here (SwiftUI is swapped out); the methods are verbatim.

@MainActor
final class InstafilterContentView {
    var processedImage: Image?
    var filterIntensity = 0.5
    var selectedItem: PhotosPickerItem?
    var currentFilter: CIFilter = CIFilter.sepiaTone()
    let context = CIContext()

    func loadImage() {
        Task {
            guard let imageData = try await selectedItem?.loadTransferable(type: Data.self) else { return }
            guard let inputImage = UIImage(data: imageData) else { return }

            let beginImage = CIImage(image: inputImage)
            currentFilter.setValue(beginImage, forKey: kCIInputImageKey)
            applyProcessing()
        }
    }

    func applyProcessing() {
        let inputKeys = currentFilter.inputKeys

        if inputKeys.contains(kCIInputIntensityKey) { currentFilter.setValue(filterIntensity, forKey: kCIInputIntensityKey) }
        if inputKeys.contains(kCIInputRadiusKey) { currentFilter.setValue(filterIntensity * 200, forKey: kCIInputRadiusKey) }
        if inputKeys.contains(kCIInputScaleKey) { currentFilter.setValue(filterIntensity * 10, forKey: kCIInputScaleKey) }

        guard let outputImage = currentFilter.outputImage else { return }
        guard let cgImage = context.createCGImage(outputImage, from: outputImage.extent) else { return }

        let uiImage = UIImage(cgImage: cgImage)
        processedImage = Image(uiImage: uiImage)
    }

    func setFilter(_ filter: CIFilter) {
        currentFilter = filter
        loadImage()
    }

    /// The filter menu's buttons.
    var menu: [() -> CIFilter] {
        [
            { CIFilter.crystallize() }, { CIFilter.edges() }, { CIFilter.gaussianBlur() }, { CIFilter.pixellate() },
            { CIFilter.sepiaTone() }, { CIFilter.unsharpMask() }, { CIFilter.vignette() },
        ]
    }
}

// MARK: - Tests

@Suite struct SeedAppsTests {
    static let photoURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/testdata/jpeg-conformance/flower-progressive.jpg")

    static func photo() throws -> UIImage {
        try #require(UIImage(data: try Data(contentsOf: photoURL)))
    }

    @Test(
        "LetsEat's ImageFiltering.apply runs every FilterData.plist entry",
        arguments: [
            "None", "CIPhotoEffectMono", "CISepiaTone", "CIPhotoEffectTonal", "CIPhotoEffectNoir", "CIPhotoEffectFade",
            "CIPhotoEffectChrome", "CIPhotoEffectProcess", "CIPhotoEffectTransfer", "CIPhotoEffectInstant",
        ])
    func letsEat(filter: String) throws {
        let original = UIImage(cgImage: try #require(try Self.photo().cgImage), scale: 1, orientation: .right)
        let filtered = PhotoFilterScreen().apply(filter: filter, originalImage: original)
        #expect(filtered.imageOrientation == .right, "the source orientation is kept")
        let a = try #require(original.cgImage), b = try #require(filtered.cgImage)
        #expect(b.width == a.width && b.height == a.height)
        if filter == "None" {
            #expect(filtered === original, "an unknown filter returns the original image")
        } else {
            #expect(a.bitmap.bytes != b.bitmap.bytes)
        }
        if ["CIPhotoEffectMono", "CIPhotoEffectNoir", "CIPhotoEffectTonal"].contains(filter) {
            let p = b.bitmap.rgba(x: 100, y: 100)
            #expect(p[0] == p[1] && p[1] == p[2])
        }
    }

    @Test("Instafilter loads a photo, applies every menu filter with its slider, and re-applies on change")
    @MainActor
    func instafilter() async throws {
        let view = InstafilterContentView()
        view.selectedItem = PhotosPickerItem(data: try Data(contentsOf: Self.photoURL))
        view.loadImage()
        try await Self.wait { view.processedImage != nil }
        let sepia = try #require(view.processedImage?.uiImage.cgImage)
        #expect(sepia.width == 480 && sepia.height == 360)

        var results: [[UInt8]] = []
        for make in view.menu {
            view.processedImage = nil
            view.setFilter(make())
            try await Self.wait { view.processedImage != nil }
            let image = try #require(view.processedImage?.uiImage.cgImage)
            #expect(image.width == 480 && image.height == 360, "\(view.currentFilter.name) keeps the extent")
            results.append(image.bitmap.bytes)
        }
        #expect(Set(results).count == results.count, "every filter gives a different picture")

        // Moving the slider re-renders.
        let before = try #require(view.processedImage?.uiImage.cgImage?.bitmap.bytes)
        view.filterIntensity = 1
        view.applyProcessing()
        #expect(view.processedImage?.uiImage.cgImage?.bitmap.bytes != before)
        // Vignette's radius gets 200, far beyond its maximum of 2: clamped, not refused.
        #expect((view.currentFilter.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue == 200)
    }

    @MainActor
    static func wait(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)  // a deadline for failing, not a timing target
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(condition(), "timed out")
    }
}
