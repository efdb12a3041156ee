/// An area kernel whose every output pixel is the mean of the input pixels of its cell: Crystallize's Voronoi
/// cells, Pixellate's squares.
///
/// Its region of interest holds every pixel of the cells a rectangle shows, and ``AreaKernel/render(input:into:)``
/// sums each cell over it row by row, left to right. ``CellMeanRenderNode`` may instead sum the cells in one pass
/// down the whole input, in that same order, so both give the same pixels.
protocol CellMeanKernel: AreaKernel {
    /// The cell pixel (`x`, `y`) belongs to (the one ``AreaKernel/render(input:into:)`` averages it into).
    func cell(x: Int, y: Int) -> SIMD2<Int>
    /// Pixel operations to find one pixel's cell, for ``RenderCost``.
    var operationsPerCellLookup: Double { get }
}
