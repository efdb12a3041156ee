import CQRencode

/// A QR code as an SVG image (libqrencode encodes; the modules are drawn as one path): what Settings shows for an
/// authenticator app to scan.
enum QRCodeImage {
    /// The SVG of `text` at error correction level M (15 % of the code may be lost), with the 4-module quiet zone
    /// scanners need; nil if the text is too long for a QR code (over 2 331 bytes at level M).
    static func svg(_ text: String) -> String? {
        guard let (width, dark) = modules(text) else { return nil }
        let quietZone = 4
        var path = ""
        path.reserveCapacity(width * width * 4)
        for y in 0..<width {
            var x = 0
            while x < width {
                // A run of dark modules in a row is one rectangle.
                guard dark[y * width + x] else {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < width, dark[y * width + end] { end += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        let size = width + 2 * quietZone
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" shape-rendering="crispEdges">\
            <rect width="\(size)" height="\(size)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// The code's modules, row by row (true for dark), and the number in a row; nil if the text is too long.
    static func modules(_ text: String) -> (width: Int, dark: [Bool])? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        return (width, (0..<width * width).map { data[$0] & 1 != 0 })
    }
}
