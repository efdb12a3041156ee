import Foundation

/// Work a server defers and any server of the deployment may do: a row of the `job` table.
struct Job: Sendable, Hashable {
    /// What a job does.
    enum Kind: String, Sendable {
        /// Render the standard renditions (preview and thumbnail) of the asset `subject`: an upload's preview.
        case renditions
        /// Make the playable version (H.264/AAC MP4) of the video or Live Photo `subject`, when its original does
        /// not play in browsers (HEVC, MPEG-4, AVI, MTS…). Minutes for a long clip: the lease is renewed as it goes.
        case playableVideo
        /// Delete for good what has been in the library's Recently Deleted longer than the retention; `subject` is
        /// empty. Every server with workers adds one per library at start and then periodically
        /// (``EveryLibraryJob``); a purge is safe however many run.
        case purgeRecentlyDeleted
        /// Find the faces of the library's assets not indexed yet and group them into people (``FaceIndexJob``);
        /// `subject` is empty. A run indexes a few assets and, when more remain, is due again at once behind the
        /// jobs added meanwhile, so that an upload's preview never waits long behind a library's faces. Added after
        /// an upload, an edit or a recovery, and for every library when a server with workers starts.
        case faces
    }

    /// Which of a server's workers take a job: a long encode has workers of its own, so that it never holds up
    /// the previews of uploads and the playable versions of short clips.
    enum Lane: String, Sendable {
        /// Renditions, purges, faces, and the playable versions of short videos.
        case quick
        /// Playable versions whose video has more frames than ``ServerConfiguration/longEncodePixels`` pixels:
        /// moved here by the quick worker that took them.
        case long
    }

    var id: Int64
    var kind: Kind
    var lane: Lane = .quick
    /// The user whose library the job works on; empty for the owner's.
    var library: String
    /// What the job works on, for its kind: an asset's identifier, or nothing for a whole library's work.
    var subject: String
    /// How many times the job has been taken, this time included.
    var attempts: Int
    /// When the job was last asked for (``JobQueue/request(_:library:subject:now:)`` moves it on while the job
    /// runs): a job asked for again during its run is due again once it is done.
    var requested: Double = 0
}
