import CLibFuzzer
import Glibc

/// The body of the running fuzz target; set once by `fuzz(_:)` before libFuzzer starts, read
/// only on libFuzzer's thread.
nonisolated(unsafe) private var currentTest: (([UInt8]) -> Void)?

/// Runs libFuzzer with `test` as the fuzz target and exits with libFuzzer's status.
///
/// Every fuzz executable's `main.swift` is one call to this. SwiftPM renames an executable's
/// `main` (`--defsym main=<module>_main`), so a `@_cdecl("LLVMFuzzerTestOneInput")` function
/// and libFuzzer's own `main` cannot be used; `LLVMFuzzerRunDriver` is libFuzzer's entry point
/// for programs that have a `main` of their own.
///
/// `test` must not hide a crash: traps (``invariant(_:_:)``, overflow, out-of-range subscripts)
/// must happen, so that libFuzzer records the input as `crash-<sha1>`. Errors a reader throws
/// for bad input are expected; the targets ignore them with `try?`.
///
/// ```swift
/// fuzz { bytes in _ = try? CSVReader().records(in: bytes) }
/// ```
public func fuzz(_ test: @escaping ([UInt8]) -> Void) -> Never {
    currentTest = test
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentTest?(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
    exit(status)
}

/// `bytes` split at every `separator` byte (empty pieces kept), e.g. to read several fields
/// out of one fuzz input.
public func pieces(of bytes: [UInt8], separatedBy separator: UInt8) -> [[UInt8]] {
    bytes.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
}

/// `bytes` as a String, invalid UTF-8 replaced by U+FFFD (an API taking a `String` only ever
/// receives valid UTF-8).
public func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Crashes with `message` when `condition` is false: an invariant of the code under test does not
/// hold for this input. Unlike `precondition`, the message is printed in release builds too,
/// so it lands in the fuzzer's log next to the stack trace.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}
