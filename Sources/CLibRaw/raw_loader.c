/*
 * LibRaw is loaded when the first RAW file is read, not when the executable starts: it brings libgomp, libjasper,
 * libjpeg and liblcms2 with it, which a command reading no RAW file should not pay for. Each LibRaw function Sepia
 * calls is a trampoline to the real one (sepia_dl.h), found in libraw_r.so.20: the ABI of the headers Sepia is
 * compiled with (LibRaw 0.20), thread-safe build.
 */
#include "raw_functions.h"
#include "sepia_raw.h"

#include <sepia_dl.h>

static sepia_dl_loader loader;
static sepia_dl_library libraries[] = {{"libraw_r.so.20", "libraw", NULL}};
SEPIA_RAW_FUNCTIONS(SEPIA_DL_TRAMPOLINE_F, SEPIA_DL_TRAMPOLINE_V)
static const sepia_dl_symbol symbols[] = {SEPIA_RAW_FUNCTIONS(SEPIA_DL_SYMBOL_F, SEPIA_DL_SYMBOL_V)};
static sepia_dl_loader loader = {SEPIA_DL_LOADER("SepiaRAW", "LibRaw", "libraw20")};

int sepia_raw_load(char *error, size_t size) { return sepia_dl_load(&loader, error, size); }
