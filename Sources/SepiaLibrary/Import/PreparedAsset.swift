import Foundation
import SepiaCodecs

/// An image made ready to join the library: checked, hashed, its original stored and its thumbnail and
/// preview rendered, waiting for a change block to create the asset
/// (``ChangeRequests/createAsset(from:)-(PreparedAsset)``). Preparing is the slow part of an import and runs
/// outside any transaction, so many files can be prepared concurrently and committed together.
public struct PreparedAsset: Sendable {
    /// The identifier the asset will have.
    public var localIdentifier: String { asset.id }
    /// The asset as it will be created.
    public internal(set) var asset: Asset
    /// The stored original, as a resource of the asset (or of the asset it will join as a Live Photo's part).
    let resource: AssetResource
    /// The stored original.
    var file: StoredFile { resource.storedFile }
    /// The XMP packet embedded in the original, for an importer reading its rating, title and keywords.
    var embeddedXMP: [UInt8]? = nil
    /// Where the original came from, to write it again if a concurrent clean-up removed it before the commit.
    let origin: Origin
    /// The latest sweep of shared storage before the original was stored.
    var sweep: Int64
    /// Whether it may join an asset already in the library as a Live Photo's or a RAW+JPEG pair's other part
    /// (true by default). A caller acting for someone who may not see that asset
    /// (``PhotoLibrary/pairingPartner(of:)``) turns it off, so that the upload stays an asset of its own and the
    /// other asset is neither changed nor revealed.
    public var mayJoinPartner = true

    enum Origin: Sendable {
        case file(String)
        case bytes(EncodedBytes)
    }
}
