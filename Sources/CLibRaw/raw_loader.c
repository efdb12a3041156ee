/*
 * LibRaw is loaded when the first RAW file is read, not when the executable starts: it brings libgomp, libjasper,
 * libjpeg and liblcms2 with it, which a command reading no RAW file should not pay for. As CHeif and CFFmpeg do,
 * this module defines each function Sepia calls as a hidden trampoline to the real one, found with dlopen and
 * dlsym the first time. The soname is that of the headers Sepia was compiled with (LibRaw 0.20, thread-safe
 * build), so a library of another ABI is never loaded.
 */
#include "raw_functions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEPIA_POINTER_F(type, name, params, args) static type(*real_##name) params;
#define SEPIA_POINTER_V(name, params, args) static void(*real_##name) params;
SEPIA_RAW_FUNCTIONS(SEPIA_POINTER_F, SEPIA_POINTER_V)

static void sepia_raw_require(const char *name);

#define SEPIA_TRAMPOLINE_F(type, name, params, args)                                                                   \
    __attribute__((visibility("hidden"))) type name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_raw_require(#name);                                                                                  \
        }                                                                                                              \
        return real_##name args;                                                                                       \
    }
#define SEPIA_TRAMPOLINE_V(name, params, args)                                                                         \
    __attribute__((visibility("hidden"))) void name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_raw_require(#name);                                                                                  \
        }                                                                                                              \
        real_##name args;                                                                                              \
    }
SEPIA_RAW_FUNCTIONS(SEPIA_TRAMPOLINE_F, SEPIA_TRAMPOLINE_V)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

static void load_once_only(void) {
    void *handle = dlopen("libraw_r.so.20", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "%s", reason != NULL ? reason : "libraw_r.so.20");
        return;
    }
#define SEPIA_RESOLVE(name)                                                                                            \
    do {                                                                                                               \
        void *symbol = dlsym(handle, #name);                                                                           \
        if (symbol == NULL) {                                                                                          \
            snprintf(load_error, sizeof(load_error), "libraw has no %s", #name);                                       \
            return;                                                                                                    \
        }                                                                                                              \
        memcpy(&real_##name, &symbol, sizeof(symbol));                                                                 \
    } while (0);
#define SEPIA_RESOLVE_F(type, name, params, args) SEPIA_RESOLVE(name)
#define SEPIA_RESOLVE_V(name, params, args) SEPIA_RESOLVE(name)
    SEPIA_RAW_FUNCTIONS(SEPIA_RESOLVE_F, SEPIA_RESOLVE_V)
    loaded = 1;
}

int sepia_raw_load(char *error, size_t size) {
    pthread_once(&load_once, load_once_only);
    if (!loaded && error != NULL && size > 0) {
        snprintf(error, size, "%s", load_error[0] != 0 ? load_error : "LibRaw could not be loaded");
    }
    return loaded;
}

static void sepia_raw_require(const char *name) {
    char error[600];
    if (sepia_raw_load(error, sizeof(error))) {
        return;
    }
    fprintf(stderr, "SepiaRAW: %s is in LibRaw, which could not be loaded: %s\n", name, error);
    abort();
}
