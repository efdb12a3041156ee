extension Image {
    /// The part of the image inside `rect`; transparent elsewhere. The extent becomes `extent ∩ rect`.
    public func cropped(to rect: IntRect) -> Image {
        if rect.contains(extent) { return self }
        return Image(recipe: CropRecipe(input: recipe, rect: rect))
    }

    /// The image extended infinitely by repeating its edge pixels (`CIImage.clampedToExtent()`), so that
    /// filters sampling beyond the edges see the edges rather than transparency.
    public func clampedToExtent() -> Image {
        if extent.isInfinite { return self }
        return Image(recipe: ClampRecipe(input: recipe))
    }

    /// The image moved by whole pixels.
    public func translatedBy(dx: Int, dy: Int) -> Image {
        if dx == 0 && dy == 0 { return self }
        return Image(recipe: TranslateRecipe(input: recipe, dx: dx, dy: dy))
    }

    /// The image moved so that its extent starts at (0, 0).
    public func movedToOrigin() -> Image {
        if extent.isInfinite { return self }
        return translatedBy(dx: -extent.minX, dy: -extent.minY)
    }

    /// The image turned upright according to an EXIF orientation. The extent keeps its origin; width and
    /// height are exchanged for orientations 5–8.
    public func oriented(_ orientation: Orientation) -> Image {
        if orientation == .up { return self }
        return Image(recipe: OrientRecipe(input: recipe, orientation: orientation))
    }

    /// The image resampled to `size` with a Lanczos-3 filter (area-averaging first when shrinking by 4× or
    /// more), in linear light. The aspect ratio changes if `size` asks for it.
    ///
    /// When the image comes straight from a decoder that can shrink while decoding (JPEG), the render decodes
    /// at the largest reduction that still leaves the filter at least a 2× reduction.
    public func resized(to size: IntSize) -> Image {
        precondition(!extent.isInfinite, "cannot resize an image with an infinite extent; crop it first")
        if size == extent.size || extent.isEmpty { return self }
        if size.width == 0 || size.height == 0 { return .empty }
        let sx = Double(size.width) / Double(extent.width)
        let sy = Double(size.height) / Double(extent.height)
        let origin = (x: Int((Double(extent.minX) * sx).rounded(.down)), y: Int((Double(extent.minY) * sy).rounded(.down)))
        return Image(recipe: ResampleRecipe(input: recipe, extent: IntRect(x: origin.x, y: origin.y, width: size.width, height: size.height)))
    }

    /// The image scaled by `factor` in both directions (rounded to whole pixels, at least one).
    public func scaled(by factor: Double) -> Image {
        let w = max(1, Int((Double(extent.width) * factor).rounded()))
        let h = max(1, Int((Double(extent.height) * factor).rounded()))
        return resized(to: IntSize(width: w, height: h))
    }

    /// A thumbnail for `size` with UIKit's content modes, at the origin.
    ///
    /// - ``ContentMode/aspectFit``: fits inside `size`, aspect kept, never upscaled (`preparingThumbnail(of:)`).
    /// - ``ContentMode/aspectFill``: covers `size`, aspect kept, the overflow cropped around the centre; a
    ///   smaller image is not upscaled but cropped to the target's aspect ratio.
    /// - ``ContentMode/scaleToFill``: exactly `size`.
    public func thumbnail(size: IntSize, mode: ContentMode = .aspectFit) -> Image {
        let start = movedToOrigin()
        let scaledSize = mode.scaledSize(of: extent.size, toFit: size)
        let scaled = start.resized(to: scaledSize)
        guard mode == .aspectFill else { return scaled }
        let out = mode.outputSize(of: extent.size, for: size)
        if out == scaledSize { return scaled }
        let x = (scaledSize.width - out.width) / 2
        let y = (scaledSize.height - out.height) / 2
        return scaled.cropped(to: IntRect(x: x, y: y, width: out.width, height: out.height)).translatedBy(dx: -x, dy: -y)
    }
}

extension Image {
    /// The image transformed by an affine matrix (`CIImage.transformed(by:)`), resampled with a bicubic filter
    /// that widens when shrinking. Pure scales and translations go through the Lanczos resampler instead. The
    /// extent is the bounding box of the transformed extent.
    public func transformed(by matrix: AffineMatrix) -> Image {
        if matrix == .identity { return self }
        if matrix.isAxisAligned, matrix.a > 0, matrix.d > 0, !extent.isInfinite, !extent.isEmpty {
            // Scale + translate: exact Lanczos resampling when the result lands on whole pixels.
            let w = Double(extent.width) * matrix.a, h = Double(extent.height) * matrix.d
            let x = Double(extent.minX) * matrix.a + matrix.tx, y = Double(extent.minY) * matrix.d + matrix.ty
            if abs(w - w.rounded()) < 1e-6, abs(h - h.rounded()) < 1e-6, abs(x - x.rounded()) < 1e-6, abs(y - y.rounded()) < 1e-6 {
                let target = IntRect(x: Int(x.rounded()), y: Int(y.rounded()), width: Int(w.rounded()), height: Int(h.rounded()))
                return Image(recipe: ResampleRecipe(input: recipe, extent: target))
            }
        }
        return Image(recipe: AffineRecipe(input: recipe, transform: matrix))
    }
}

extension Image {
    /// The image blurred by a separable plan (clamp first to avoid fading edges).
    func blurred(_ plan: BlurPlan) -> Image {
        Image(recipe: BlurRecipe(input: recipe, plan: plan))
    }

    /// Combines this image with `other` pixel by pixel.
    func blending(with other: Image, kernel: any BlendKernel) -> Image {
        Image(recipe: BlendRecipe(a: recipe, b: other.recipe, kernel: kernel))
    }

    /// Applies a neighbourhood kernel; the output covers `extent` (default: this image's extent).
    func applyingArea(_ kernel: any AreaKernel, extent: IntRect? = nil) -> Image {
        Image(recipe: AreaRecipe(input: recipe, kernel: kernel, extent: extent ?? self.extent))
    }
}
