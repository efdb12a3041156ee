import CLibFuzzer
import Glibc

/// Hands the process to libFuzzer, which calls `testOneInput` with each input it tries, and exits with libFuzzer's
/// status. The last line of each fuzz target's `main.swift`; the target's `LLVMFuzzerInitialize`, when it has one,
/// runs first, as with libFuzzer's own `main`.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
