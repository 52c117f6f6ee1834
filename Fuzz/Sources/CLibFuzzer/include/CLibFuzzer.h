#ifndef SHOPPABLE_CLIBFUZZER_H
#define SHOPPABLE_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's `libclang_rt.fuzzer`, linked in by `swiftc -sanitize=fuzzer`):
/// parses libFuzzer's command line and calls `callback` with each input. Declared here because
/// compiler-rt installs no header for it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
