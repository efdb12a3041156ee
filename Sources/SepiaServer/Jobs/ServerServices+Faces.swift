import Logging
import SepiaLibrary
import SepiaVision

extension ServerServices {
    /// The key of `user`'s library in the job queue: empty for the owner's, the user's identifier otherwise.
    static func jobLibraryKey(_ user: UserRecord) -> String {
        user.libraryPath.isEmpty ? "" : user.id
    }

    /// Whether this server cannot find faces: the models are not installed where it looks, or its face job found
    /// them damaged or the engine missing (until it indexes an asset again).
    var faceModelsMissing: Bool {
        faceIndexing.problem != nil || !configuration.faceIndexing.models.areInstalled
    }

    /// Asks for the faces of `identity`'s library to be found (after an upload, an edit, a recovery): the assets
    /// in `changed` are indexed again (what they show changed without an edit: a Live Photo's new still, the other
    /// file of a RAW+JPEG pair shown), and the library's `faces` job is asked for. Nothing when the library's owner
    /// turned faces off. A failure here costs the faces a delay (the next request, or the next start of a server),
    /// never the request that changed the asset: it is logged.
    func requestFaceIndexing(for identity: Identity, changed: [String] = [], logger: Logger) {
        let library = identity.photoLibrary
        do {
            guard try library.findsFaces() else { return }
            if !changed.isEmpty { try library.requestFaceIndexing(of: changed) }
            try jobs.request(.faces, library: Self.jobLibraryKey(identity.user), subject: "")
            jobWakeUps.signal()
        } catch {
            logger.warning("cannot queue the indexing of faces", metadata: ["error": "\(error)"])
        }
    }
}
