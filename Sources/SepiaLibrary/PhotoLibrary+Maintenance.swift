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
    /// Stored files checked.
    public var files = 0
    /// Bytes read to verify hashes.
    public var bytesVerified = 0

    /// Whether nothing is wrong.
    public var isSound: Bool { problems.isEmpty }
}

extension PhotoLibrary {
    /// Checks the library: the database's own integrity, every file a row names exists and (unless
    /// `verifyingHashes` is false) has the SHA-256 it is stored under, and no stored file lacks a row. Files
    /// another process may be writing are reported as notes, not problems.
    public func check(
        verifyingHashes: Bool = true, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(LibraryError) -> IntegrityReport {
        var report = IntegrityReport()
        if !openingReport.removedOrphans.isEmpty || openingReport.removedTemporaryFiles > 0 {
            report.notes.append(
                "opening the library removed \(openingReport.removedOrphans.count) stored files no row named and "
                    + "\(openingReport.removedTemporaryFiles) temporary files, left by an interrupted process")
        }
        report.problems += try store.integrityProblems()
        report.assets = try store.allAssetIDs().count
        let references = try store.allFileReferences()
        report.files = references.count
        for (done, file) in references.enumerated() {
            progress(done, references.count)
            let path = file.path(in: folder)
            let relative = String(path.dropFirst(folder.root.count + 1))
            guard DurableFile.size(of: path) != nil else {
                report.problems.append("\(relative): missing (\(file.kind.rawValue) of the library)")
                continue
            }
            if verifyingHashes {
                do {
                    let hash = try ContentHash.ofFile(path)
                    report.bytesVerified += DurableFile.size(of: path) ?? 0
                    if hash != file.hash { report.problems.append("\(relative): the content does not match its SHA-256 (damaged)") }
                } catch {
                    report.problems.append("\(relative): \(error.reason)")
                }
            }
        }
        progress(references.count, references.count)
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
