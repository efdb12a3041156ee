import Synchronization

/// The live change streams open on this server, per account, within a limit.
final class ChangeStreamSlots: Sendable {
    let maximumPerUser: Int
    private let open = Mutex<[String: Int]>([:])

    init(maximumPerUser: Int) {
        self.maximumPerUser = maximumPerUser
    }

    /// One stream of an account, counted until it is closed.
    final class Slot: Sendable {
        private let release: Mutex<(@Sendable () -> Void)?>

        fileprivate init(release: @escaping @Sendable () -> Void) {
            self.release = Mutex(release)
        }

        /// Gives the slot back (once; later calls do nothing).
        func close() {
            release.withLock { action in
                action?()
                action = nil
            }
        }

        deinit { close() }
    }

    /// A slot for a new stream of `userID`, or nil when the account has its limit open.
    func open(userID: String) -> Slot? {
        let granted = open.withLock { open in
            let count = open[userID, default: 0]
            guard count < maximumPerUser else { return false }
            open[userID] = count + 1
            return true
        }
        guard granted else { return nil }
        return Slot(release: { [self] in
            self.open.withLock { open in
                let count = (open[userID] ?? 1) - 1
                open[userID] = count > 0 ? count : nil
            }
        })
    }

    /// The streams `userID` has open.
    func count(userID: String) -> Int {
        open.withLock { $0[userID] ?? 0 }
    }
}
