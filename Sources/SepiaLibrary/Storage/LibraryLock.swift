import Foundation

/// An advisory lock on the library folder (`flock` on `library.lock`). Every process holds it shared while the
/// library is open; a process that can take it exclusively is alone, so no other process is halfway through
/// writing a file, and only then are unreferenced files removed. The kernel releases the lock when a process
/// dies, even by SIGKILL.
final class LibraryLock: Sendable {
    private let descriptor: Int32
    let path: String

    init(path: String) throws(LibraryError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LibraryError(.cannotOpen, "cannot open the library's lock file: \(String(cString: strerror(errno)))", subject: path)
        }
    }

    /// Takes the lock exclusively if no other process holds it; returns whether it did.
    func tryExclusive() -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Holds the lock shared (waiting for an exclusive holder to finish its clean-up).
    func holdShared() {
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
    }

    /// Whether this process is the only one with the library open; keeps the lock shared afterwards.
    func isAlone() -> Bool {
        let alone = tryExclusive()
        holdShared()
        return alone
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
