import NIOCore
import Synchronization

/// Counts each client address's open connections and refuses those past the limit, so that one client cannot
/// hold every socket the server has. Trusted proxies, which carry many people's connections, are not counted.
final class ConnectionAdmission: Sendable {
    let maximumPerAddress: Int
    private let exempt: TrustedProxies
    private let open = Mutex<[String: Int]>([:])

    /// Why a connection is refused.
    struct Refusal {
        var address: String
        var reason: String
        /// The JSON error answered.
        var body: String
    }

    init(maximumPerAddress: Int, exempt: TrustedProxies) {
        self.maximumPerAddress = maximumPerAddress
        self.exempt = exempt
    }

    /// Counts `channel` against its address until it closes; a refusal when the address is at its limit.
    func admit(_ channel: any Channel) -> Refusal? {
        guard maximumPerAddress > 0, let address = channel.remoteAddress?.ipAddress, !exempt.contains(address) else { return nil }
        let admitted = open.withLock { open in
            let count = open[address, default: 0]
            guard count < maximumPerAddress else { return false }
            open[address] = count + 1
            return true
        }
        guard admitted else {
            let message = "this address has \(maximumPerAddress) connections open to the server, the most it may; close some and try again"
            return Refusal(
                address: address, reason: "connection limit", body: #"{"error":"unavailable","message":"\#(message)"}"#)
        }
        channel.closeFuture.whenComplete { _ in
            self.open.withLock { open in
                let count = (open[address] ?? 1) - 1
                open[address] = count > 0 ? count : nil
            }
        }
        return nil
    }
}
