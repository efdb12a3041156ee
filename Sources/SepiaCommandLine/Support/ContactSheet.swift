package import SepiaImage

/// Lays thumbnails out on a grid with a label under each, on white: `sepia strip --sheet`.
package enum ContactSheet {
    package static func compose(_ thumbnails: [FilterStrip.Thumbnail], cell: IntSize, columns requested: Int = 5) -> Bitmap {
        let columns = max(1, min(requested, thumbnails.count))
        let rows = (thumbnails.count + columns - 1) / columns
        let scale = 2
        let labelHeight = BitmapFont.height * scale + 12
        let gap = 12
        let width = columns * cell.width + (columns + 1) * gap
        let height = rows * (cell.height + labelHeight) + (rows + 1) * gap - 4
        var bytes = [UInt8](repeating: 255, count: width * height * 3)

        func put(_ x: Int, _ y: Int, _ rgb: SIMD3<UInt8>) {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let i = (y * width + x) * 3
            bytes[i] = rgb.x
            bytes[i + 1] = rgb.y
            bytes[i + 2] = rgb.z
        }

        for (n, thumbnail) in thumbnails.enumerated() {
            let column = n % columns, row = n / columns
            let cellX = gap + column * (cell.width + gap)
            let cellY = gap + row * (cell.height + labelHeight + gap)
            let b = thumbnail.bitmap
            // Centre the thumbnail in its cell.
            let ox = cellX + (cell.width - b.width) / 2
            let oy = cellY + (cell.height - b.height) / 2
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let p = b.rgba(x: x, y: y)
                    let a = Int(p[3])
                    let blend = { (c: UInt8) in UInt8((Int(c) * a + 255 * (255 - a)) / 255) }
                    put(ox + x, oy + y, SIMD3(blend(p[0]), blend(p[1]), blend(p[2])))
                }
            }
            // The label, shortened to fit.
            var label = thumbnail.item.name
            while BitmapFont.measure(label, scale: scale) > cell.width && label.count > 1 { label.removeLast() }
            let tx = cellX + (cell.width - BitmapFont.measure(label, scale: scale)) / 2
            let ty = cellY + cell.height + 6
            for (k, character) in label.enumerated() {
                for gy in 0..<BitmapFont.height {
                    for gx in 0..<BitmapFont.width where BitmapFont.ink(character, x: gx, y: gy) {
                        for sy in 0..<scale {
                            for sx in 0..<scale {
                                put(tx + (k * (BitmapFont.width + 1) + gx) * scale + sx, ty + gy * scale + sy, SIMD3(40, 40, 40))
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)
    }
}
