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
