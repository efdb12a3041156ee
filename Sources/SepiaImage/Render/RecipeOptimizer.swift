/// Rewrites a recipe before it is compiled, without changing what it renders:
///
/// - a resize of an oriented image becomes an orientation of a resized image, so the rotation (which needs
///   a whole frame) works on the small result;
/// - a resize of a decodable source asks the decoder to shrink while decoding (JPEG DCT scaling), leaving at
///   least a 2× reduction to the Lanczos filter, as libvips' thumbnailer does;
/// - a reduction by 4× or more first averages whole blocks, so the Lanczos filter stays short.
struct RecipeOptimizer {
    private var memo: [ObjectIdentifier: any RecipeNode] = [:]
    private var scaledSources: [ObjectIdentifier: [Int: SourceRecipe]] = [:]
    /// Keeps every node whose identifier is a memo key alive, so identifiers cannot be reused.
    private var retained: [any RecipeNode] = []

    mutating func optimize(_ node: any RecipeNode) -> any RecipeNode {
        let id = ObjectIdentifier(node)
        if let done = memo[id] { return done }
        let result: any RecipeNode
        if let resample = node as? ResampleRecipe {
            result = optimizeResample(resample)
        } else {
            let inputs = node.inputs.map { optimize($0) }
            result = node.replacingInputs(inputs)
        }
        memo[id] = result
        retained.append(node)
        return result
    }

    private mutating func optimizeResample(_ resample: ResampleRecipe) -> any RecipeNode {
        let target = resample.extent
        if let orient = resample.input as? OrientRecipe {
            let o = orient.orientation
            let innerSize = o.transformsSize ? target.size.transposed : target.size
            let inner = ResampleRecipe(
                input: orient.input, extent: IntRect(x: target.minX, y: target.minY, width: innerSize.width, height: innerSize.height))
            return OrientRecipe(input: optimizeResample(inner), orientation: o)
        }
        var input: any RecipeNode
        // The exact size of the image in the (reduced) input's pixels: reductions round partial blocks up.
        var span = SIMD2(Double(resample.input.extent.width), Double(resample.input.extent.height))
        if let source = resample.input as? SourceRecipe, source.scale == 1 {
            let scaled = scaledSource(source, for: target.size)
            span = scaled.source.reduction(scale: scaled.scale).span
            input = scaled
        } else {
            input = optimize(resample.input)
        }
        let fx = span.x / Double(target.width)
        let fy = span.y / Double(target.height)
        let kx = fx >= 4 ? Int(fx / 2) : 1
        let ky = fy >= 4 ? Int(fy / 2) : 1
        if kx > 1 || ky > 1 {
            input = BoxShrinkRecipe(input: input, factorX: kx, factorY: ky)
            span /= SIMD2(Double(kx), Double(ky))
        }
        let exact = span == SIMD2(Double(input.extent.width), Double(input.extent.height))
        if input.extent == target && exact { return input }
        return ResampleRecipe(input: input, extent: target, inputSpan: exact ? nil : span)
    }

    /// The source decoded at the smallest reduction that still leaves the resampler the reduction it needs to
    /// keep the quality (2× after a decode-time reduction, 1× from a stored thumbnail).
    private mutating func scaledSource(_ source: SourceRecipe, for size: IntSize) -> SourceRecipe {
        var scale = 1
        let full = source.source.reduction(scale: 1)
        var cost = Double(full.size.width * full.size.height) * full.costPerPixel
        for candidate in source.source.decodeScales where candidate != 1 {
            let r = source.source.reduction(scale: candidate)
            guard r.span.x >= r.minimumResize * Double(size.width), r.span.y >= r.minimumResize * Double(size.height)
            else { continue }
            let c = Double(r.size.width * r.size.height) * r.costPerPixel
            if c < cost { (scale, cost) = (candidate, c) }
        }
        if scale == 1 { return source }
        let id = ObjectIdentifier(source)
        if let existing = scaledSources[id]?[scale] { return existing }
        let scaled = SourceRecipe(source: source.source, scale: scale)
        scaledSources[id, default: [:]][scale] = scaled
        retained.append(source)
        return scaled
    }
}
