import Testing

@testable import SepiaImage

/// The nodes that keep work the renderer would otherwise repeat for every piece: a cell mean whose cells are
/// large next to a piece sums them in one pass down its input (``CellMeanRenderNode``), a rotation asked for
/// thin bands renders blocks once (``RenderedBlocks``). Both give exactly the pixels of the direct way, whatever
/// the tiles and threads.
@Suite struct RepeatedWorkTests {
    static let tilings: [RenderOptions] = [
        RenderOptions(threadCount: 1, tileHeight: 100_000), RenderOptions(threadCount: 2), RenderOptions(threadCount: 3, tileHeight: 7),
        RenderOptions(threadCount: 2, tileHeight: 1), RenderOptions(threadCount: 3, tileHeight: 16, tileWidth: 13),
        RenderOptions(threadCount: 4, tileHeight: 5, tileWidth: 600),
    ]

    /// A blurred noise photo, wide enough for several pieces and chunks, so that the pass's bands go through a
    /// blur's streams.
    static func photo() -> Image {
        Image(pixels: TestImages.translucentNoise(1100, 300)).applying(GaussianBlur(radius: 3))
    }

    /// What the kernel makes of the whole input at once: every cell summed over the whole region of interest.
    static func direct(_ kernel: any AreaKernel, on input: Image) async throws -> PixelBuffer {
        let region = kernel.regionOfInterest(for: input.extent)
        var source = try await RenderContext().render(input, region: region)
        var output = PixelBuffer(extent: input.extent)
        source.pixels.withUnsafeMutableBufferPointer { sourcePixels in
            output.pixels.withUnsafeMutableBufferPointer { outputPixels in
                guard let sourceBase = sourcePixels.baseAddress, let outputBase = outputPixels.baseAddress else { return }
                kernel.render(
                    input: TileView(rect: region, base: sourceBase, stride: region.width),
                    into: TileView(rect: input.extent, base: outputBase, stride: input.extent.width))
            }
        }
        return output
    }

    /// Cells large next to a piece: Crystallize's, Pixellate's, and Pixellate's of a fractional size off the grid.
    static func cellKernel(_ label: String, extent: IntRect) -> any CellMeanKernel {
        switch label {
        case "crystallize": Crystallize.Kernel(spacing: 45, center: [150, 150], extent: extent)
        case "pixellate": Pixellate.Kernel(center: [150, 150], scale: 61, extent: extent)
        default: Pixellate.Kernel(center: [17.25, -3.5], scale: 67.3, extent: extent)
        }
    }

    @Test(
        "cells much larger than a piece are summed in one pass down the input, with exactly the kernel's pixels, for any tiles and threads",
        arguments: ["crystallize", "pixellate", "pixellate, cells of a fractional size"])
    func cellMeansInOnePass(label: String) async throws {
        let photo = Self.photo()
        let kernel = Self.cellKernel(label, extent: photo.extent)
        let image = photo.applyingArea(kernel)
        let node = try #require(RenderGraph(image: image).root as? CellMeanRenderNode, "\(label)")
        #expect(node.streams, "\(label): the cells are large enough for one pass")
        let reference = try await Self.direct(kernel, on: photo)
        for options in Self.tilings {
            expectPixels(try await RenderContext(options: options).render(image), equal: reference)
        }
        // A part of the image, whose pass starts lower down.
        let part = IntRect(x: 130, y: 90, width: 700, height: 150)
        let cropped = try await RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 9)).render(image, region: part)
        var expected = PixelBuffer(extent: part)
        for y in part.minY..<part.maxY {
            for x in part.minX..<part.maxX { expected[x, y] = reference[x, y] }
        }
        expectPixels(cropped, equal: expected)
    }

    @Test("a rotation asked for thin bands by a blur after it renders blocks, with the pixels of a direct render")
    func rotationInBlocks() async throws {
        let rotated = Image(pixels: TestImages.translucentNoise(600, 360)).applying(StraightenFilter(angle: 0.6))
        let image = rotated.applying(GaussianBlur(radius: 12))
        // Directly: the whole rotation at once (its bounding box is about its size), then the blur.
        let whole = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 100_000)).render(rotated)
        let reference = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 100_000))
            .render(Image(pixels: whole).applying(GaussianBlur(radius: 12)), region: image.extent)
        for options in Self.tilings {
            expectPixels(try await RenderContext(options: options).render(image), equal: reference)
        }
    }

    @Test("the blocks of a recipe of many rotations share one render's budget, and the render is still exact")
    func manyRotationsShareTheBlockBudget() async throws {
        let photo = Image(pixels: TestImages.translucentNoise(300, 200))
        func chain(_ rotations: Int) -> Image {
            (0..<rotations).reduce(photo) { image, _ in image.applying(StraightenFilter(angle: 0.3)).applying(GaussianBlur(radius: 2)) }
        }
        func keptBytes(_ image: Image) -> (nodes: Int, bytes: Int) {
            let kept = RenderGraph(image: image).nodes.compactMap(\.renderedBlocks)
            return (kept.count, kept.reduce(0) { $0 + $1.capacityBytes })
        }
        let one = keptBytes(chain(1))
        #expect(one.nodes == 1 && one.bytes == RenderedBlocks.renderBudget)
        let many = keptBytes(chain(32))
        #expect(many.nodes == 32)
        #expect(many.bytes <= RenderedBlocks.renderBudget, "32 rotations keep \(many.bytes >> 20) MiB of blocks")
        // Past the budget's share, each keeps the few blocks a request needs to make progress.
        let smallestBlock = RenderedBlocks(blockSize: IntSize(width: 128, height: 64), bounds: photo.extent, budgetBytes: 0)
        let most = keptBytes(chain(64))
        #expect(most.bytes <= max(RenderedBlocks.renderBudget, 64 * smallestBlock.capacityBytes))

        // Two rotations, each with half the budget, still give the pixels of a render that keeps nothing.
        let image = chain(2)
        let reference = try await RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 100_000)).render(image)
        for options in Self.tilings {
            expectPixels(try await RenderContext(options: options).render(image), equal: reference)
        }
    }
}
