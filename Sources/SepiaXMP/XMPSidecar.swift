import Foundation
import SepiaCodecs

/// A photo's XMP sidecar file: finding it beside the photo, reading it and writing it atomically.
///
/// digiKam and darktable name a sidecar after the whole file name (`IMG_0001.jpg.xmp`), Lightroom and Camera Raw
/// after the name without its extension (`IMG_0001.xmp`). Sepia looks for the first, then the second, and writes
/// the first.
///
/// ```swift
/// if let found = try XMPSidecar.read(forPhotoAt: "/photos/IMG_0001.CR2") {
///     print(found.file ?? "", found.metadata.keywords)
/// }
/// ```
public enum XMPSidecar {
    /// The sidecar names tried for the photo at `photoPath`, in lookup order: `NAME.ext.xmp`, `NAME.ext.XMP`,
    /// `NAME.xmp`, `NAME.XMP` (for a photo without an extension, only the first two).
    public static func candidatePaths(forPhotoAt photoPath: String) -> [String] {
        var paths = [photoPath + ".xmp", photoPath + ".XMP"]
        let url = URL(fileURLWithPath: photoPath)
        if !url.pathExtension.isEmpty {
            let base = url.deletingPathExtension().path
            paths += [base + ".xmp", base + ".XMP"]
        }
        return paths
    }

    /// The sidecar of the photo at `photoPath`: the first of ``candidatePaths(forPhotoAt:)`` that is a regular file
    /// (symbolic links followed), or nil.
    public static func path(forPhotoAt photoPath: String) -> String? {
        candidatePaths(forPhotoAt: photoPath).first { path in
            var status = stat()
            return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// The path Sepia writes the sidecar of the photo at `photoPath` to: `NAME.ext.xmp`.
    public static func writePath(forPhotoAt photoPath: String) -> String {
        photoPath + ".xmp"
    }

    // MARK: - Reads

    /// Finds and reads the sidecar of the photo at `photoPath` (see ``path(forPhotoAt:)``).
    ///
    /// - Returns: The reading, with ``XMPReading/file`` set to the sidecar's path; nil when the photo has no
    ///   sidecar.
    /// - Throws: ``XMPError`` naming the sidecar when it cannot be read or is refused.
    public static func read(forPhotoAt photoPath: String) throws(XMPError) -> XMPReading? {
        guard let path = path(forPhotoAt: photoPath) else { return nil }
        return try read(at: path)
    }

    /// Reads the sidecar at `path`.
    ///
    /// - Throws: ``XMPError`` naming the file: `fileSystem` when it cannot be read, `tooLarge` when it has more
    ///   than ``XMPPacket/maximumBytes`` (only that much is read), or the packet's error.
    public static func read(at path: String) throws(XMPError) -> XMPReading {
        let bytes = try contents(of: path)
        do throws(XMPError) {
            var reading = try XMPPacket.read(bytes)
            reading.file = path
            return reading
        } catch {
            throw error.inFile(path)
        }
    }

    // MARK: - Writes

    /// Writes `metadata` to the sidecar Sepia keeps for the photo at `photoPath` (`NAME.ext.xmp`), atomically.
    ///
    /// An existing `NAME.ext.xmp` is updated: the properties behind `metadata`'s fields are replaced and everything
    /// else in it is kept (see ``XMPPacket/serialize(_:merging:)``). A `NAME.xmp` (Lightroom's) is left alone.
    ///
    /// - Returns: The sidecar's path.
    /// - Throws: ``XMPError`` naming the sidecar; an existing sidecar that cannot be read or is refused is not
    ///   replaced.
    @discardableResult
    public static func write(_ metadata: XMPMetadata, forPhotoAt photoPath: String) throws(XMPError) -> String {
        let path = writePath(forPhotoAt: photoPath)
        try write(metadata, to: path)
        return path
    }

    /// Writes `metadata` as the XMP file at `path`, atomically (a temporary file beside it, flushed, then renamed
    /// over it): readers see the old file or the new one, never a part. An existing file is updated as
    /// ``write(_:forPhotoAt:)`` describes.
    ///
    /// - Throws: ``XMPError`` naming the file.
    public static func write(_ metadata: XMPMetadata, to path: String) throws(XMPError) {
        do throws(XMPError) {
            let existing = FileManager.default.fileExists(atPath: path) ? try contents(of: path) : nil
            let packet = try XMPPacket.serialize(metadata, merging: existing)
            do throws(CodecError) {
                try AtomicFile.write(packet, to: path)
            } catch {
                throw XMPError(.fileSystem, error.reason)
            }
        } catch {
            throw error.file == nil ? error.inFile(path) : error
        }
    }

    /// The file's bytes, at most ``XMPPacket/maximumBytes`` of them.
    static func contents(of path: String) throws(XMPError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be opened for reading" : "does not exist"
            throw XMPError(.fileSystem, "the sidecar \(reason)", file: path)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: XMPPacket.maximumBytes + 1) ?? Data()
        } catch {
            throw XMPError(.fileSystem, "cannot read the sidecar: \(error.localizedDescription)", file: path)
        }
        guard data.count <= XMPPacket.maximumBytes else {
            throw XMPError(
                .tooLarge, "the sidecar has more than \(XMPPacket.maximumBytes) bytes (4 MiB), the limit; XMP sidecars are a few kilobytes",
                file: path)
        }
        return [UInt8](data)
    }
}
