import Foundation
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
    /// Opens a photo file. Errors name the file. A RAW file is recognised from its first bytes and then read by
    /// LibRaw as it needs, never whole into memory; any other photo is read whole.
    public static func open(path: String, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> any EncodedImage {
        // 400 bytes name every format; only a TIFF, or a file they do not name, needs the IFDs in the longer head.
        var head = try RAWHead.read(path: path, maximumFileBytes: options.maximumFileBytes, length: 400)
        let first = ImageFormat.sniff(head.bytes)
        if first == nil || first == .tiff { head = try RAWHead.read(path: path, maximumFileBytes: options.maximumFileBytes) }
        let sniffed = ImageFormat.identify(EncodedBytes(head.bytes), sniffed: first, fileName: path)
        let ext = (path as NSString).pathExtension.lowercased()
        // A TIFF-structured file with a RAW extension whose sensor data lies beyond the head is tried as RAW too,
        // and shown as the TIFF it also is when LibRaw does not take it.
        let tiffNamedRAW = sniffed == .tiff && ImageFormat.rawExtensions.contains(ext)
        if sniffed == .cameraRAW || tiffNamedRAW {
            do {
                return try RAWSource(path: path, head: head, options: RAWOptions(limits: options))
            } catch  where tiffNamedRAW && error.code == .unsupportedFormat {
                // Not RAW after all: read as a TIFF below.
            }
        }
        let bytes: EncodedBytes
        do {
            bytes = try EncodedBytes.read(contentsOf: path, maximumBytes: options.maximumFileBytes)
        } catch {
            throw error.file == nil ? error.inFile(path) : error
        }
        do {
            // The head sniffed above is the file's: what it named is opened without sniffing the bytes again.
            // (A TIFF's IFDs are judged again on the whole file: its sensor data may lie beyond the head.)
            guard let sniffed else { return try ImageDecoding.open(bytes, options: options) }
            let format = ImageFormat.identify(bytes, sniffed: sniffed) ?? sniffed
            return try ImageDecoding.open(bytes, format: format, options: options, file: nil)
        } catch {
            throw error.file == nil ? error.inFile(path) : error
        }
    }

    /// Opens a photo in memory; `fileName`, when given, names it in errors and lets a RAW file without a
    /// signature be recognised by its extension.
    public static func open(
        _ bytes: EncodedBytes, options: DecodeOptions = DecodeOptions(), fileName: String? = nil
    ) throws(CodecError) -> any EncodedImage {
        let format = ImageFormat.identify(bytes, fileName: fileName)
        if format == .cameraRAW {
            return try RAWSource(bytes: bytes, options: RAWOptions(limits: options), file: fileName)
        }
        do {
            guard let format else { return try ImageDecoding.open(bytes, options: options) }
            return try ImageDecoding.open(bytes, format: format, options: options, file: nil)
        } catch {
            guard let fileName else { throw error }
            throw error.file == nil ? error.inFile(fileName) : error
        }
    }
}
