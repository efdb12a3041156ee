import Synchronization

/// The long answers open on this server — change streams, ZIP downloads — per key (an account, a share link),
/// within a limit, so that no one caller holds connections, tasks and files without end.
final class StreamSlots: Sendable {
    let maximumPerKey: Int
    private let open = Mutex<[String: Int]>([:])

    init(maximumPerKey: Int) {
        self.maximumPerKey = maximumPerKey
    }

    /// One open answer, counted until it is closed.
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

    /// A slot for a new answer of `key`, or nil when the key has its limit open.
    func open(key: String) -> Slot? {
        let granted = open.withLock { open in
            let count = open[key, default: 0]
            guard count < maximumPerKey else { return false }
            open[key] = count + 1
            return true
        }
        guard granted else { return nil }
        return Slot(release: { [self] in
            self.open.withLock { open in
                let count = (open[key] ?? 1) - 1
                open[key] = count > 0 ? count : nil
            }
        })
    }

    /// The answers `key` has open.
    func count(key: String) -> Int {
        open.withLock { $0[key] ?? 0 }
    }
}
