public import SepiaCodecs

/// Opens any still photo Sepia reads: camera RAW files with ``RAWSource``, everything else with SepiaCodecs'
/// `ImageDecoding`. The format is recognised from the bytes; only a file with no signature at all is taken as
/// RAW because of its name (some cameras' files have none), and a JPEG named `.nef` is a JPEG.
///
/// ```swift
/// let photo = try PhotoDecoding.open(path: "DSC_0042.NEF")   // a RAWSource
/// let scan = try PhotoDecoding.open(path: "scan.tif")         // a TIFFSource
/// ```
public enum PhotoDecoding {
    /// Opens a photo file. Errors name the file.
    public static func open(path: String, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> any EncodedImage {
        let bytes: EncodedBytes
        do {
            bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: options.maximumFileBytes)
        } catch {
            throw error.file == nil ? error.inFile(path) : error
        }
        return try open(bytes, options: options, fileName: path)
    }

    /// Opens a photo in memory; `fileName`, when given, names it in errors and lets a RAW file without a
    /// signature be recognised by its extension.
    public static func open(
        _ bytes: EncodedBytes, options: DecodeOptions = DecodeOptions(), fileName: String? = nil
    ) throws(CodecError) -> any EncodedImage {
        if ImageFormat.identify(bytes, fileName: fileName) == .cameraRAW {
            return try RAWSource(bytes: bytes, options: RAWOptions(limits: options), file: fileName)
        }
        do {
            return try ImageDecoding.open(bytes, options: options)
        } catch {
            guard let fileName else { throw error }
            throw error.file == nil ? error.inFile(fileName) : error
        }
    }
}
