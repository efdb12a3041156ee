import CLibFuzzer
import Glibc

/// Hands the process to libFuzzer, which calls `testOneInput` with each input it tries, and exits with libFuzzer's
/// status. The last line of each fuzz target's `main.swift`; the target's `LLVMFuzzerInitialize`, when it has one,
/// runs first, as with libFuzzer's own `main`.
///
/// Each input may take `SEPIA_FUZZ_PROCESSOR_SECONDS` of processor time (10 by default); one that takes more stops the
/// run as a crash does, and libFuzzer keeps it (`-artifact_prefix`). libFuzzer's own limit (`-timeout`) is of
/// wall-clock time: it finds an input that never ends, but on a machine busy with other work at a higher priority
/// (the fuzzers run beside the browser's tests) an input of a second's work can wait longer than that for a core.
/// Processor time is what the input costs, whatever else the machine does.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Never {
    fuzzTarget = testOneInput
    if let text = getenv("SEPIA_FUZZ_PROCESSOR_SECONDS"), let seconds = Double(String(cString: text)), seconds > 0 {
        processorSecondsPerInput = seconds
    }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(
        LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let started = processorSeconds()
            let status = fuzzTarget!(data, size)
            let spent = processorSeconds() - started
            if spent > processorSecondsPerInput {
                fatalError(
                    "this input took \(spent) s of processor time, over the \(processorSecondsPerInput) s an input may take"
                        + " (SEPIA_FUZZ_PROCESSOR_SECONDS): libFuzzer keeps it as a crash; run the target on it to see where"
                )
            }
            return status
        })
}

/// The fuzz target `runFuzzer` was given (libFuzzer's callback is a C function, which cannot capture it).
nonisolated(unsafe) private var fuzzTarget: (@convention(c) (UnsafePointer<UInt8>, Int) -> Int32)?
nonisolated(unsafe) private var processorSecondsPerInput = 10.0

/// The processor time the whole process has used (every thread's), in seconds.
private func processorSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
