import SepiaPlaces
import Synchronization

/// The library's reverse geocoder, read on first use: a commit that locates no asset, and a command that never
/// names a place, do not read GeoNames' tables. When they cannot be read, nothing is placed (assets keep their
/// coordinates and wait in `asset_unplaced`), and ``failure`` says why.
final class PlaceFinder: Sendable {
    /// The folder of GeoNames tables; nil: `SEPIA_GEONAMES` or the system's.
    let directory: String?
    private let state = Mutex<State>(.notRead)

    private enum State {
        case notRead
        case read(ReverseGeocoder)
        case failed(PlacesError)
    }

    init(directory: String?) {
        self.directory = directory
    }

    /// The geocoder, or nil when its tables cannot be read.
    var geocoder: ReverseGeocoder? {
        state.withLock { state -> ReverseGeocoder? in
            switch state {
            case .read(let geocoder): return geocoder
            case .failed: return nil
            case .notRead:
                switch Result(catching: { () throws(PlacesError) in try ReverseGeocoder.shared(directory: directory) }) {
                case .success(let geocoder):
                    state = .read(geocoder)
                    return geocoder
                case .failure(let error):
                    state = .failed(error)
                    return nil
                }
            }
        }
    }

    /// Why the tables could not be read, once they were tried.
    var failure: PlacesError? {
        state.withLock { state -> PlacesError? in
            if case .failed(let error) = state { return error }
            return nil
        }
    }
}
