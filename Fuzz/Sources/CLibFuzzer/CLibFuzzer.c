// Intentionally empty: this target only declares `LLVMFuzzerRunDriver` (include/CLibFuzzer.h),
// which compiler-rt defines. SwiftPM needs one source file to build a C target.
