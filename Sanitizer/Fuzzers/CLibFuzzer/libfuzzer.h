#ifndef SEPIA_LIBFUZZER_H
#define SEPIA_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's command line options and fuzzes `callback` as `LLVMFuzzerTestOneInput` would be (libFuzzer's
/// `FuzzerInterface.h`; the function exists since LLVM 12). Returns the process's exit status.
int LLVMFuzzerRunDriver(int *_Nonnull argc, char *_Nullable *_Nullable *_Nonnull argv,
                        int (*_Nonnull callback)(const uint8_t *_Nonnull data, size_t size));

#endif
