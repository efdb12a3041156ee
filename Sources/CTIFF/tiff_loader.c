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

#define SEPIA_TRAMPOLINE_F(type, name, params, args) SEPIA_DL_FUNCTION(loader, type, name, params, args)
#define SEPIA_TRAMPOLINE_V(name, params, args) SEPIA_DL_VOID_FUNCTION(loader, name, params, args)
SEPIA_TIFF_FUNCTIONS(SEPIA_TRAMPOLINE_F, SEPIA_TRAMPOLINE_V)

#define SEPIA_SYMBOL_F(type, name, params, args) SEPIA_DL_SYMBOL(libraries[0], name)
#define SEPIA_SYMBOL_V(name, params, args) SEPIA_DL_SYMBOL(libraries[0], name)
static const sepia_dl_symbol symbols[] = {SEPIA_TIFF_FUNCTIONS(SEPIA_SYMBOL_F, SEPIA_SYMBOL_V)};

static sepia_dl_loader loader = {
    .component = "SepiaCodecs",
    .description = "libtiff",
    .packages = "libtiff6",
    SEPIA_DL_LIBRARIES(libraries),
    SEPIA_DL_SYMBOLS(symbols),
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

int sepia_tiff_load(char *error, size_t size) { return sepia_dl_load(&loader, error, size); }
