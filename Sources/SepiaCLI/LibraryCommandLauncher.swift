import SepiaCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces this process with `sepia-library`, the executable that runs the library and server commands.
enum LibraryCommandLauncher {
    static let executableName = "sepia-library"

    /// Runs `sepia-library` with `arguments` (the first one, the name this command was called by, is kept) in
    /// this process; returns only by exiting, with a message, when it cannot be started.
    static func run(_ arguments: [String]) -> Never {
        let directory = executableDirectory()
        let path = directory.map { $0 + "/" + executableName }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        if let path {
            execv(path, &argv)
        } else {
            execvp(executableName, &argv)
        }
        let reason = String(cString: strerror(errno))
        Terminal.error(
            "cannot run \(path ?? executableName) (\(reason)). The library and server commands are in "
                + "\(executableName), which must be installed in the same folder as sepia; `swift build` builds both.")
        exit(ExitStatus.software)
    }

    /// The folder holding this executable, with symbolic links resolved; `nil` when the command was found on the
    /// `PATH` and the system cannot say where it is.
    private static func executableDirectory() -> String? {
        var path: String?
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        if count > 0 { path = String(decoding: buffer[0..<count], as: UTF8.self) }
        #endif
        if path == nil, let first = CommandLine.arguments.first, first.contains("/") { path = first }
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
