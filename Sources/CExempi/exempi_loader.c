/*
 * Exempi is loaded when the first XMP packet is read or written, not when the executable starts (it brings the
 * C++ runtime and expat with it). As CHeif, CTIFF and CLibRaw do, this module defines each Exempi function Sepia
 * calls as a hidden trampoline to the real one, found with dlopen and dlsym the first time; the soname is that of
 * the headers Sepia was compiled with. expat, which sepia_xmp_check runs before Exempi parses, is reached through
 * pointers resolved at the same time (its header declares its functions with their own visibility).
 */
#include "exempi_functions.h"
#include "sepia_xmp.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEPIA_POINTER_F(type, name, params, args) static type(*real_##name) params;
#define SEPIA_POINTER_V(name, params, args) static void(*real_##name) params;
SEPIA_EXEMPI_FUNCTIONS(SEPIA_POINTER_F, SEPIA_POINTER_V)

#define SEPIA_EXPAT_POINTER_F(type, name, params, args) __attribute__((visibility("hidden"))) type(*sepia_##name) params;
#define SEPIA_EXPAT_POINTER_V(name, params, args) __attribute__((visibility("hidden"))) void(*sepia_##name) params;
SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_POINTER_F, SEPIA_EXPAT_POINTER_V)

static void sepia_exempi_require(const char *name);

#define SEPIA_TRAMPOLINE_F(type, name, params, args)                                                                   \
    __attribute__((visibility("hidden"))) type name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_exempi_require(#name);                                                                               \
        }                                                                                                              \
        return real_##name args;                                                                                       \
    }
#define SEPIA_TRAMPOLINE_V(name, params, args)                                                                         \
    __attribute__((visibility("hidden"))) void name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_exempi_require(#name);                                                                               \
        }                                                                                                              \
        real_##name args;                                                                                              \
    }
SEPIA_EXEMPI_FUNCTIONS(SEPIA_TRAMPOLINE_F, SEPIA_TRAMPOLINE_V)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

/* Namespaces whose prefixes the XMP Toolkit does not register itself. */
static const char *const namespaces[][2] = {
    {"http://www.digikam.org/ns/1.0/", "digiKam"},
    {"http://ns.adobe.com/lightroom/1.0/", "lr"},
    {"http://darktable.sf.net/", "darktable"},
    {"http://ns.sepia.org/xmp/1.0/", "sepia"},
};

static int resolve_all(void *exempi, void *expat) {
#define SEPIA_RESOLVE(handle, pointer, name, library)                                                                  \
    do {                                                                                                               \
        void *symbol = dlsym(handle, #name);                                                                           \
        if (symbol == NULL) {                                                                                          \
            snprintf(load_error, sizeof(load_error), "%s has no %s", library, #name);                                  \
            return 0;                                                                                                  \
        }                                                                                                              \
        memcpy(&pointer, &symbol, sizeof(symbol));                                                                     \
    } while (0);
#define SEPIA_RESOLVE_F(type, name, params, args) SEPIA_RESOLVE(exempi, real_##name, name, "Exempi")
#define SEPIA_RESOLVE_V(name, params, args) SEPIA_RESOLVE(exempi, real_##name, name, "Exempi")
    SEPIA_EXEMPI_FUNCTIONS(SEPIA_RESOLVE_F, SEPIA_RESOLVE_V)
#define SEPIA_EXPAT_RESOLVE_F(type, name, params, args) SEPIA_RESOLVE(expat, sepia_##name, name, "expat")
#define SEPIA_EXPAT_RESOLVE_V(name, params, args) SEPIA_RESOLVE(expat, sepia_##name, name, "expat")
    SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_RESOLVE_F, SEPIA_EXPAT_RESOLVE_V)
    return 1;
}

static void load_once_only(void) {
    void *exempi = dlopen("libexempi.so.8", RTLD_NOW | RTLD_LOCAL);
    if (exempi == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "%s", reason != NULL ? reason : "libexempi.so.8");
        return;
    }
    void *expat = dlopen("libexpat.so.1", RTLD_NOW | RTLD_LOCAL);
    if (expat == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "%s", reason != NULL ? reason : "libexpat.so.1");
        return;
    }
    if (!resolve_all(exempi, expat)) {
        return;
    }
    if (!real_xmp_init()) {
        snprintf(load_error, sizeof(load_error), "Exempi's xmp_init failed (error %d)", real_xmp_get_error());
        return;
    }
    XmpStringPtr registered = real_xmp_string_new();
    for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++) {
        if (!real_xmp_register_namespace(namespaces[i][0], namespaces[i][1], registered)) {
            snprintf(load_error, sizeof(load_error), "Exempi could not register the namespace %s (error %d)", namespaces[i][0],
                real_xmp_get_error());
            real_xmp_string_free(registered);
            return;
        }
    }
    real_xmp_string_free(registered);
    loaded = 1;
}

int sepia_xmp_load(char *error, size_t size) {
    pthread_once(&load_once, load_once_only);
    if (!loaded && error != NULL && size > 0) {
        snprintf(error, size, "%s", load_error[0] != 0 ? load_error : "Exempi could not be loaded");
    }
    return loaded;
}

static void sepia_exempi_require(const char *name) {
    char error[600];
    if (sepia_xmp_load(error, sizeof(error))) {
        return;
    }
    fprintf(stderr, "SepiaXMP: %s is in Exempi, which could not be loaded: %s\n", name, error);
    abort();
}
