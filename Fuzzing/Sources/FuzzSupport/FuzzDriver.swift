import CLibFuzzer
import Foundation

/// Hands control to libFuzzer.
///
/// SwiftPM links an executable target with its entry point renamed and `main` defined as that
/// entry point, which takes the place of libFuzzer's own `main`. So each target has a
/// `main.swift` that calls ``run(_:)``, which runs libFuzzer's driver with the command line.
public enum FuzzDriver {
    /// Runs libFuzzer with the process arguments and `target` as the fuzz function; returns
    /// libFuzzer's exit status.
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv, target)
        exit(status)
    }
}
