import Foundation

/// Output for people on standard error, and whether it is a terminal.
package enum Terminal {
    /// Whether standard error is an interactive terminal (progress bars are shown only then).
    package static let isInteractive = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    /// Prints `message` to standard error, prefixed with "sepia: error: ".
    package static func error(_ message: String) {
        printError("sepia: error: \(message)")
    }

    /// Prints `message` to standard error, prefixed with "sepia: warning: ".
    package static func warning(_ message: String) {
        printError("sepia: warning: \(message)")
    }

    /// Prints a line to standard error.
    package static func printError(_ line: String) {
        write(line, to: .standardError)
    }

    /// Prints a line to standard output.
    package static func print(_ line: String) {
        write(line, to: .standardOutput)
    }

    /// Writes a line. When the reader has gone (`sepia list | head`), ends the process the way other
    /// command-line tools end then: by the SIGPIPE the runtime otherwise ignores.
    private static func write(_ line: String, to handle: FileHandle) {
        do {
            try handle.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(141)
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place; silent when not on a terminal.
package final class ProgressBar {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private var done = 0
    private let started = Date()

    package init(total: Int, label: String, enabled: Bool = Terminal.isInteractive) {
        self.total = total
        self.label = label
        self.enabled = enabled && total > 1
        draw(current: "")
    }

    /// Marks one more item done.
    package func advance(_ item: String) {
        done += 1
        draw(current: item)
    }

    /// Erases the bar.
    package func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw(current: String) {
        guard enabled else { return }
        let width = 28
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let elapsed = Date().timeIntervalSince(started)
        var eta = ""
        if done > 0 && done < total {
            let remaining = elapsed / Double(done) * Double(total - done)
            eta = String(format: " ~%.0fs left", remaining)
        }
        let name = current.count > 40 ? "…" + current.suffix(39) : current
        FileHandle.standardError.write(Data("\r\u{1B}[K\(label) \(bar) \(done)/\(total)\(eta) \(name)".utf8))
    }
}
