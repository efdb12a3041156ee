extension Image {
    /// The image with a colour matrix applied to each unpremultiplied pixel (`CIColorMatrix`).
    /// Adjacent matrices are multiplied into one.
    public func applyingColorMatrix(_ matrix: ColorMatrix) -> Image {
        if matrix == ColorMatrix.identity { return self }
        return applyingPointKernel(MatrixPointKernel(matrix: matrix))
    }

    /// Appends a per-pixel kernel, fusing it with a preceding chain of per-pixel kernels.
    func applyingPointKernel(_ kernel: any PointKernel) -> Image {
        if let chain = recipe as? PointRecipe {
            var kernels = chain.kernels
            if let next = kernel.colorMatrix, let last = kernels.last?.colorMatrix {
                kernels[kernels.count - 1] = MatrixPointKernel(matrix: last.followed(by: next))
            } else {
                kernels.append(kernel)
            }
            return Image(recipe: PointRecipe(input: chain.input, kernels: kernels))
        }
        return Image(recipe: PointRecipe(input: recipe, kernels: [kernel]))
    }
}
