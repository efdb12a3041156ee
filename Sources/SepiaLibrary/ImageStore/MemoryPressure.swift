import Foundation

/// How hard the process's memory is pressed, read from the kernel: Linux pressure stall information (PSI) for
/// the process's cgroup (`memory.pressure`) or the whole system (`/proc/pressure/memory`), and the cgroup's
/// usage against its limit (`memory.current` / `memory.max`).
public enum MemoryPressure: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nothing to do.
    case normal
    /// Tasks stall on memory now and then, or usage nears the limit: shed half of what can be rebuilt.
    case warning
    /// Tasks stall on memory often, or usage is at the limit: shed everything that can be rebuilt.
    case critical

    /// Whether `a` is a lower level than `b`.
    public static func < (a: MemoryPressure, b: MemoryPressure) -> Bool { a.rawValue < b.rawValue }

    /// The level in words.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .warning: "warning"
        case .critical: "critical"
        }
    }

    /// Where the readings come from. The defaults are the kernel's files for this process.
    public struct Sources: Sendable, Hashable {
        /// A PSI file (`some avg10=… …` / `full avg10=… …`).
        public var pressureFile: String?
        /// The cgroup's current usage in bytes.
        public var usageFile: String?
        /// The cgroup's limit in bytes (`max` means none).
        public var limitFile: String?

        /// Explicit files.
        public init(pressureFile: String?, usageFile: String?, limitFile: String?) {
            self.pressureFile = pressureFile
            self.usageFile = usageFile
            self.limitFile = limitFile
        }

        /// This process's cgroup (v2) when readable, else the system-wide PSI file.
        public static var system: Sources {
            if let group = cgroupFolder() {
                let pressure = group + "/memory.pressure"
                return Sources(
                    pressureFile: FileManager.default.isReadableFile(atPath: pressure) ? pressure : "/proc/pressure/memory",
                    usageFile: group + "/memory.current", limitFile: group + "/memory.max")
            }
            return Sources(pressureFile: "/proc/pressure/memory", usageFile: nil, limitFile: nil)
        }

        /// The cgroup v2 folder of this process, from `/proc/self/cgroup` (`0::/path`).
        static func cgroupFolder() -> String? {
            guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("0::") {
                let folder = "/sys/fs/cgroup" + line.dropFirst(3)
                return FileManager.default.fileExists(atPath: folder) ? folder : nil
            }
            return nil
        }
    }

    /// One reading of the sources.
    public struct Reading: Sendable, Hashable {
        /// Share of the last 10 s in which some task stalled on memory, in percent.
        public var someAverage10: Double?
        /// Share of the last 10 s in which all tasks stalled on memory, in percent.
        public var fullAverage10: Double?
        /// Usage in bytes.
        public var usage: Int?
        /// Limit in bytes.
        public var limit: Int?

        /// The level the reading means.
        public var level: MemoryPressure {
            let fraction = usage.flatMap { u in limit.map { Double(u) / Double($0) } } ?? 0
            if (fullAverage10 ?? 0) >= 10 || (someAverage10 ?? 0) >= 40 || fraction >= 0.95 { return .critical }
            if (fullAverage10 ?? 0) >= 2 || (someAverage10 ?? 0) >= 10 || fraction >= 0.85 { return .warning }
            return .normal
        }
    }

    /// Reads `sources` now.
    public static func read(_ sources: Sources = .system) -> Reading {
        var reading = Reading()
        if let file = sources.pressureFile, let text = try? String(contentsOfFile: file, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard let kind = fields.first,
                    let avg10 = fields.first(where: { $0.hasPrefix("avg10=") }).flatMap({ Double($0.dropFirst(6)) })
                else { continue }
                if kind == "some" { reading.someAverage10 = avg10 }
                if kind == "full" { reading.fullAverage10 = avg10 }
            }
        }
        if let file = sources.usageFile, let text = try? String(contentsOfFile: file, encoding: .utf8) {
            reading.usage = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let file = sources.limitFile, let text = try? String(contentsOfFile: file, encoding: .utf8) {
            reading.limit = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))  // "max" → nil
        }
        return reading
    }
}
