#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: runs `testOneInput` as libFuzzer's options on the command line say, then exits.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer on `testOneInput` with this process's arguments. A fuzz target calls it from its top-level code:
/// SwiftPM links an executable's `main` to the module's own entry point, so libFuzzer's `main` is never used.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
