/*
 * Exempi is loaded when the first XMP packet is read or written, not when the executable starts (it brings the
 * C++ runtime and expat with it). Each Exempi function Sepia calls is a trampoline to the real one (sepia_dl.h),
 * found in the soname of the headers Sepia was compiled with. expat, which sepia_xmp_check runs before Exempi
 * parses, is reached through pointers found at the same time (its header declares its functions with their own
 * visibility).
 */
#include "exempi_functions.h"
#include "sepia_xmp.h"

#include <sepia_dl.h>
#include <stdio.h>

static sepia_dl_loader loader;
static sepia_dl_library libraries[] = {{"libexempi.so.8", "Exempi", NULL}, {"libexpat.so.1", "expat", NULL}};
SEPIA_EXEMPI_FUNCTIONS(SEPIA_DL_TRAMPOLINE_F, SEPIA_DL_TRAMPOLINE_V)

#define SEPIA_EXPAT_POINTER_F(type, name, params, args) __attribute__((visibility("hidden"))) type(*sepia_##name) params;
#define SEPIA_EXPAT_POINTER_V(name, params, args) __attribute__((visibility("hidden"))) void(*sepia_##name) params;
SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_POINTER_F, SEPIA_EXPAT_POINTER_V)

#define SEPIA_EXPAT_SYMBOL_F(type, name, params, args) SEPIA_DL_SYMBOL_INTO(libraries[1], name, sepia_##name)
#define SEPIA_EXPAT_SYMBOL_V(name, params, args) SEPIA_DL_SYMBOL_INTO(libraries[1], name, sepia_##name)
static const sepia_dl_symbol symbols[] = {
    SEPIA_EXEMPI_FUNCTIONS(SEPIA_DL_SYMBOL_F, SEPIA_DL_SYMBOL_V) SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_SYMBOL_F, SEPIA_EXPAT_SYMBOL_V)};

/* Namespaces whose prefixes the XMP Toolkit does not register itself. */
static const char *const namespaces[][2] = {
    {"http://www.digikam.org/ns/1.0/", "digiKam"},
    {"http://ns.adobe.com/lightroom/1.0/", "lr"},
    {"http://darktable.sf.net/", "darktable"},
    {"http://ns.sepia.org/xmp/1.0/", "sepia"},
};

/* Initializes Exempi and registers the namespaces, once the functions are found. */
static int initialize(char *error, size_t size) {
    if (!real_xmp_init()) {
        snprintf(error, size, "Exempi's xmp_init failed (error %d)", real_xmp_get_error());
        return 0;
    }
    XmpStringPtr registered = real_xmp_string_new();
    for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++) {
        if (!real_xmp_register_namespace(namespaces[i][0], namespaces[i][1], registered)) {
            snprintf(error, size, "Exempi could not register the namespace %s (error %d)", namespaces[i][0], real_xmp_get_error());
            real_xmp_string_free(registered);
            return 0;
        }
    }
    real_xmp_string_free(registered);
    return 1;
}

static sepia_dl_loader loader = {SEPIA_DL_LOADER("SepiaXMP", "Exempi and expat", "libexempi8"), .initialize = initialize};

int sepia_xmp_load(char *error, size_t size) { return sepia_dl_load(&loader, error, size); }
