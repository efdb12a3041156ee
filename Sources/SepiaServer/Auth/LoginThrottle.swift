import Foundation
import Synchronization

/// Slows password guessing: attempts are counted per key (an account, a client address, the password change of
/// a signed-in user) over a window, and past a key's limit further attempts are refused until the oldest one
/// leaves the window.
///
/// An attempt is counted *before* its password is checked (``reserve(_:now:)``), in the same step as the check
/// of the limit, so that concurrent guesses cannot all pass the check while the first ones are still being
/// verified: twelve simultaneous wrong passwords for an account with a limit of five verify five and refuse
/// seven. A successful attempt, or one whose check could not be made, gives its place back; a successful sign-in
/// also clears its account's failures.
final class LoginThrottle: Sendable {
    /// What an attempt is counted against.
    struct Key: Hashable, Sendable {
        fileprivate var text: String
        fileprivate var limit: Int

        /// Sign-ins to one account, whatever their address: `canonicalName` is ``UserName/SignIn/throttleKey``.
        static func account(_ canonicalName: String, limit: Int) -> Key { Key(text: "user:" + canonicalName, limit: limit) }
        /// Sign-ins from one client address, whatever the account.
        static func address(_ address: String, limit: Int) -> Key { Key(text: "address:" + address, limit: limit) }
        /// Checks of the current password of a signed-in user (changing the password).
        static func passwordChange(userID: String, limit: Int) -> Key { Key(text: "password:" + userID, limit: limit) }
        /// Second factors (codes from an authenticator app, recovery codes) for one account.
        static func secondFactor(userID: String, limit: Int) -> Key { Key(text: "second-factor:" + userID, limit: limit) }
    }

    /// An attempt counted against its keys, until it is known to have succeeded.
    struct Reservation: Sendable {
        fileprivate var keys: [Key]
        fileprivate var time: Date
    }

    /// Attempts allowed per account within the window.
    let accountLimit: Int
    /// Attempts allowed per address within the window.
    let addressLimit: Int
    /// The window.
    let window: TimeInterval

    private let attempts = Mutex<[String: [Date]]>([:])

    init(accountLimit: Int = 5, addressLimit: Int = 20, window: TimeInterval = 15 * 60) {
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
        self.window = window
    }

    /// The keys of a sign-in: the account the name is (or imitates), and the client address when it is known.
    func signInKeys(name: UserName.SignIn, address: String?) -> [Key] {
        var keys = [Key.account(name.throttleKey, limit: accountLimit)]
        if let address { keys.append(.address(address, limit: addressLimit)) }
        return keys
    }

    /// Counts an attempt against every key, or refuses it when one of them is at its limit.
    /// - Returns: the reservation to give back with ``release(_:clearing:)`` once the password is known to be
    ///   right, or when the check could not be made (a wrong password needs nothing: it stays counted); or the
    ///   seconds to wait before trying again.
    func reserve(_ keys: [Key], now: Date = Date()) -> Result<Reservation, Refusal> {
        attempts.withLock { attempts in
            var waits: [TimeInterval] = []
            for key in keys {
                let recent = (attempts[key.text] ?? []).filter { now.timeIntervalSince($0) < window }
                attempts[key.text] = recent.isEmpty ? nil : recent
                if recent.count >= key.limit, let oldest = recent.first { waits.append(window - now.timeIntervalSince(oldest)) }
            }
            if let wait = waits.max() { return .failure(Refusal(seconds: max(1, Int(wait.rounded(.up))))) }
            for key in keys { attempts[key.text, default: []].append(now) }
            if attempts.count > 100_000 { attempts = attempts.filter { now.timeIntervalSince($0.value.last ?? now) < window } }
            return .success(Reservation(keys: keys, time: now))
        }
    }

    /// Gives a reservation back: it no longer counts against its keys, and the keys in `clearing` (the
    /// account's, after a sign-in) forget their earlier failures.
    func release(_ reservation: Reservation, clearing: [Key] = []) {
        attempts.withLock { attempts in
            for key in reservation.keys {
                guard var times = attempts[key.text], let index = times.lastIndex(of: reservation.time) else { continue }
                times.remove(at: index)
                attempts[key.text] = times.isEmpty ? nil : times
            }
            for key in clearing { attempts[key.text] = nil }
        }
    }

    /// An attempt refused for now.
    struct Refusal: Error {
        /// Seconds until the oldest counted attempt leaves the window.
        var seconds: Int
    }
}
