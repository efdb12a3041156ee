/*
 * libtiff is loaded when the first TIFF file is read, not when the executable starts (it brings libLerc, libjbig,
 * libdeflate, liblzma and libzstd with it): each libtiff function Sepia calls is a trampoline to the real one
 * (sepia_dl.h), found in libtiff.so.6, the ABI of the headers Sepia is compiled with.
 */
#include "sepia_tiff.h"
#include "tiff_functions.h"

#include <sepia_dl.h>

static sepia_dl_loader loader;
static sepia_dl_library libraries[] = {{"libtiff.so.6", "libtiff", NULL}};
SEPIA_TIFF_FUNCTIONS(SEPIA_DL_TRAMPOLINE_F, SEPIA_DL_TRAMPOLINE_V)
static const sepia_dl_symbol symbols[] = {SEPIA_TIFF_FUNCTIONS(SEPIA_DL_SYMBOL_F, SEPIA_DL_SYMBOL_V)};
static sepia_dl_loader loader = {SEPIA_DL_LOADER("SepiaCodecs", "libtiff", "libtiff6")};

int sepia_tiff_load(char *error, size_t size) { return sepia_dl_load(&loader, error, size); }
