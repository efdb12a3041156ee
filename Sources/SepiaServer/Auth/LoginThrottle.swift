import Foundation
import Synchronization

/// Slows password guessing: failed logins are counted per account and per client address over a window,
/// and past a limit further attempts are refused until the oldest failure leaves the window. A successful
/// login clears its account's failures.
final class LoginThrottle: Sendable {
    /// Failures allowed per account within the window.
    let accountLimit: Int
    /// Failures allowed per address within the window.
    let addressLimit: Int
    /// The window.
    let window: TimeInterval

    private let failures = Mutex<[String: [Date]]>([:])

    init(accountLimit: Int = 5, addressLimit: Int = 20, window: TimeInterval = 15 * 60) {
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
        self.window = window
    }

    /// Seconds to wait before `username` may try again from `address`; nil when it may now.
    func retryAfter(username: String, address: String?, now: Date = Date()) -> Int? {
        failures.withLock { failures in
            var waits: [TimeInterval] = []
            for (key, limit) in keys(username: username, address: address) {
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
                failures[key] = recent.isEmpty ? nil : recent
                if recent.count >= limit, let oldest = recent.first { waits.append(window - now.timeIntervalSince(oldest)) }
            }
            return waits.max().map { Int($0.rounded(.up)) }
        }
    }

    /// Records a failed attempt.
    func recordFailure(username: String, address: String?, now: Date = Date()) {
        failures.withLock { failures in
            for (key, _) in keys(username: username, address: address) { failures[key, default: []].append(now) }
            if failures.count > 100_000 { failures = failures.filter { now.timeIntervalSince($0.value.last ?? now) < window } }
        }
    }

    /// Clears the account's failures after a successful login.
    func recordSuccess(username: String) {
        _ = failures.withLock { $0.removeValue(forKey: "user:" + username.lowercased()) }
    }

    private func keys(username: String, address: String?) -> [(String, Int)] {
        var keys = [("user:" + username.lowercased(), accountLimit)]
        if let address { keys.append(("address:" + address, addressLimit)) }
        return keys
    }
}
