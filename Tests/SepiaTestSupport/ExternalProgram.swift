public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests run with `posix_spawn`, its output captured: the reference tools (exiftool, ffmpeg,
/// jpegtran, unzip) and the `sepia` command.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` by copying each `dirent`'s whole 256-byte name
/// field, which reads past the end of glibc's directory buffer and now and then crashes the test process
/// (swift-corelibs-foundation#5472, fixed after the toolchain this project builds with). This spawns directly,
/// and closes every inherited descriptor above standard error in the child with glibc's `closefrom` action.
public enum ExternalProgram {
    /// How a program ended, and what it wrote.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended the program.
        public var status: Int32
        /// Whether a signal ended the program.
        public var wasSignalled: Bool
        /// What it wrote on standard output.
        public var stdout: Data
        /// What it wrote on standard error.
        public var stderr: Data

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }

    /// A program started with ``launch(_:_:environment:)``: it can be signalled, and waited for.
    public final class Running: Sendable {
        /// The program's process identifier.
        public let pid: pid_t
        private let ended = DispatchSemaphore(value: 0)
        private let result = LockedResult()

        fileprivate init(pid: pid_t, output: Int32, errors: Int32) {
            self.pid = pid
            Thread.detachNewThread { [result, ended] in
                result.set(ExternalProgram.finish(pid: pid, output: output, errors: errors))
                ended.signal()
            }
        }

        /// Sends `signal` (SIGKILL unless given).
        public func kill(_ signal: Int32 = SIGKILL) {
            _ = Foundation.kill(pid, signal)
        }

        /// Blocks until the program has ended and its output is read.
        public func waitBlocking() -> Result {
            ended.wait()
            ended.signal()
            return result.get()
        }

        /// Waits, off the caller's thread, until the program has ended and its output is read.
        public func wait() async -> Result {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: self.waitBlocking()) }
            }
        }
    }

    private final class LockedResult: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result?
        func set(_ result: Result) { lock.withLock { value = result } }
        func get() -> Result { lock.withLock { value! } }
    }

    /// Runs `executable` with `arguments`, and `environment` added to this process's, to its end. Standard
    /// input is `/dev/null`; standard output and error are read as they come.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let (pid, output, errors) = try spawn(executable, arguments, environment: environment)
        return finish(pid: pid, output: output, errors: errors)
    }

    /// Starts `executable`; its output is read on a thread of its own until it ends.
    public static func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let (pid, output, errors) = try spawn(executable, arguments, environment: environment)
        return Running(pid: pid, output: output, errors: errors)
    }

    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (pid_t, Int32, Int32) {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Children that other threads spawn meanwhile close them (closefrom, or Foundation's own closing).
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0])
            close(errors[0])
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        return (pid, output[0], errors[0])
    }

    /// Reads both pipes to their end (whichever has data), closes them, and reaps the program.
    fileprivate static func finish(pid: pid_t, output: Int32, errors: Int32) -> Result {
        var data = [Data(), Data()]
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fds.contains(where: { $0.fd >= 0 }) {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 {
                    data[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    close(fds[index].fd)
                    fds[index].fd = -1
                }
            }
        }
        for fd in fds where fd.fd >= 0 { close(fd.fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return Result(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, wasSignalled: signal != 0, stdout: data[0], stderr: data[1])
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time because the
    /// C module does not declare GNU extensions.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
