import Foundation

/// The result of ``PhotoLibrary/check(verifyingHashes:progress:)``.
public struct IntegrityReport: Sendable, Hashable, Codable {
    /// Everything wrong, one sentence each; empty when the library is sound.
    public var problems: [String] = []
    /// Things worth knowing that are not wrong (files another process may be writing, leftovers removed when
    /// the library opened).
    public var notes: [String] = []
    /// Assets in the library.
    public var assets = 0
    /// How many of the assets are videos.
    public var videos = 0
    /// Stored files checked.
    public var files = 0
    /// Bytes read to verify hashes.
    public var bytesVerified = 0

    /// Whether nothing is wrong.
    public var isSound: Bool { problems.isEmpty }
    /// The assets as photos and videos: "12 photos, 16 videos".
    public var media: MediaCount { MediaCount(photos: assets - videos, videos: videos) }
}

extension PhotoLibrary {
    /// Checks the library: the database's own integrity, every file a row names exists and (unless
    /// `verifyingHashes` is false) has the SHA-256 it is stored under, and no stored file lacks a row. Files
    /// another process may be writing are reported as notes, not problems. With object storage, objects no
    /// row names are problems once they are older than `gracePeriod` (``sweepStorage(olderThan:)`` removes
    /// them); younger ones may be uploads in progress on another server.
    public func check(
        verifyingHashes: Bool = true, gracePeriod: Duration = .seconds(3600),
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws(LibraryError) -> IntegrityReport {
        var report = IntegrityReport()
        if !openingReport.removedOrphans.isEmpty || openingReport.removedTemporaryFiles > 0 {
            report.notes.append(
                "opening the library removed \(openingReport.removedOrphans.count) stored files no row named and "
                    + "\(openingReport.removedTemporaryFiles) temporary files, left by an interrupted process")
        }
        report.problems += try store.integrityProblems()
        let counts = try store.assetCounts()
        report.assets = counts.all
        report.videos = counts.videos
        let references = try store.allFileReferences()
        report.files = references.count
        for (done, file) in references.enumerated() {
            progress(done, references.count)
            let inspection: BlobInspection
            do {
                inspection = try await blobs.inspect(file, reading: verifyingHashes)
            } catch  where error.code == .storageUnavailable {
                throw error
            } catch {
                report.problems.append("\(file.key): \(error.reason)")
                continue
            }
            switch inspection {
            case .missing:
                report.problems.append("\(file.key): missing (\(file.kind.rawValue) of the library)")
            case .stored(let bytes, let hash):
                if let hash {
                    report.bytesVerified += bytes
                    if hash != file.hash { report.problems.append("\(file.key): the content does not match its SHA-256 (damaged)") }
                }
            }
        }
        progress(references.count, references.count)
        if sharesStorage {
            let named = Set(references)
            let cutoff = Date().timeIntervalSince1970 - Double(gracePeriod.components.seconds)
            let unnamed = try await blobs.storedFiles().filter { !named.contains($0.file) }
            let old = unnamed.filter { $0.date < cutoff }
            report.problems += old.map { "\($0.file.key): no asset or edit names this object (orphan; `sepia check --sweep` removes it)" }
            if unnamed.count > old.count {
                report.notes.append(
                    "\(unnamed.count - old.count) recent files no row names yet: uploads in progress in another process or server, "
                        + "or released files")
            }
            let cleaner = LibraryCleaner(folder: folder, store: store)
            let temporary = cleaner.temporaryFiles()
            if lock.isAlone() && !temporary.isEmpty { report.problems.append("tmp/: \(temporary.count) leftover temporary files") }
            return report
        }
        let alone = lock.isAlone()
        let cleaner = LibraryCleaner(folder: folder, store: store)
        let orphans = try cleaner.orphans()
        let temporary = cleaner.temporaryFiles()
        if alone {
            report.problems += orphans.map { "\($0): no asset or edit names this file (orphan)" }
            if !temporary.isEmpty { report.problems.append("tmp/: \(temporary.count) leftover temporary files") }
        } else if !orphans.isEmpty || !temporary.isEmpty {
            report.notes.append(
                "another process has the library open: \(orphans.count) unnamed stored files and \(temporary.count) temporary files may be changes in progress"
            )
        }
        return report
    }
}
