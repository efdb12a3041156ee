/*
 * Shared libraries loaded on first use.
 *
 * CHeif, CTIFF, CLibRaw, CExempi and CFFmpeg do not link the libraries they wrap: each brings other libraries
 * with it (FFmpeg about 130), whose loading every command would pay at start, files of that kind or not. Each
 * module lists the functions Sepia calls in an X-macro table and defines each one, with SEPIA_DL_FUNCTION, as a
 * hidden trampoline to the real function, which a loader (sepia_dl_loader) finds with dlopen and dlsym the first
 * time, from any thread. The trampolines are hidden, so they never stand in for the library's own symbols inside
 * the library. The sonames are those of the headers Sepia was compiled with, so a library of another ABI is never
 * loaded.
 *
 * A module whose table is (return type, name, parameters, arguments), all in one library, has, in this order:
 *
 *     static sepia_dl_loader loader;
 *     static sepia_dl_library libraries[] = {{"libtiff.so.6", "libtiff", NULL}};
 *     SEPIA_TIFF_FUNCTIONS(SEPIA_DL_TRAMPOLINE_F, SEPIA_DL_TRAMPOLINE_V)
 *     static const sepia_dl_symbol symbols[] = {SEPIA_TIFF_FUNCTIONS(SEPIA_DL_SYMBOL_F, SEPIA_DL_SYMBOL_V)};
 *     static sepia_dl_loader loader = {SEPIA_DL_LOADER("SepiaCodecs", "libtiff", "libtiff6")};
 *
 * A table whose first column names the library, (library, return type, name, parameters, arguments), takes
 * SEPIA_DL_LIBRARY_TRAMPOLINE_F/_V and SEPIA_DL_LIBRARY_SYMBOL_F/_V instead, and the module defines, for each
 * library `x` of the column, SEPIA_DL_LOADER_OF_x (the loader that loads it) and SEPIA_DL_LIBRARY_OF_x (its entry
 * in `libraries`). Its entry points call sepia_dl_load(&loader, …) before anything else, to report a missing
 * library as an error rather than stop.
 */
#ifndef SEPIA_DL_H
#define SEPIA_DL_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A shared library: its soname, and the name a missing symbol is reported under ("libtiff has no TIFFClose"). */
typedef struct sepia_dl_library {
    const char *soname;
    const char *name;
    void *handle;
} sepia_dl_library;

/* A function to find: its library, its name, and the function pointer it is stored in. */
typedef struct sepia_dl_symbol {
    const sepia_dl_library *library;
    const char *name;
    void *pointer;
} sepia_dl_symbol;

/* Loads libraries and finds their functions, once. */
typedef struct sepia_dl_loader {
    /* The Swift module calling, what is loaded and the Debian packages that install it, for the message that stops
     * the process when a function is called although loading failed: "SepiaCodecs", "libtiff", "libtiff6". */
    const char *component;
    const char *description;
    const char *packages;
    /* A loader that must succeed first (FFmpeg's libavformat after libavcodec), or NULL. */
    struct sepia_dl_loader *prerequisite;
    /* The libraries to open, in this order. */
    sepia_dl_library *libraries;
    size_t library_count;
    /* The functions to find: those whose library is one of `libraries` (the others are another loader's). */
    const sepia_dl_symbol *symbols;
    size_t symbol_count;
    /* Run once the functions are found (Exempi's initialisation), or NULL. Returns 1, or 0 with the reason in
     * `error`. */
    int (*initialize)(char *error, size_t size);

    /* The state: PTHREAD_MUTEX_INITIALIZER, and zeros. */
    pthread_mutex_t lock;
    int attempted;
    int loaded;
    char error[512];
} sepia_dl_loader;

/* The libraries and symbols fields of a loader, from arrays. */
#define SEPIA_DL_LIBRARIES(array) .libraries = (array), .library_count = sizeof(array) / sizeof((array)[0])
#define SEPIA_DL_SYMBOLS(array) .symbols = (array), .symbol_count = sizeof(array) / sizeof((array)[0])

/* Opens the loader's libraries and finds its functions the first time it is called, from any thread; a loader
 * that failed keeps its reason and is not tried again. Returns 1 when they are loaded; else 0, with the reason
 * (dlopen's message, or the library and the symbol it lacks) in `error`. */
int sepia_dl_load(sepia_dl_loader *loader, char *error, size_t size);

/* Loads `loader` for the function `name`, called before any entry point checked sepia_dl_load: when it cannot
 * be loaded there is no value to return, so the process stops with the reason and the packages to install. */
void sepia_dl_require(sepia_dl_loader *loader, const char *name);

/* The pointer to the real function `name` and its trampoline, for a function that returns a value. */
#define SEPIA_DL_FUNCTION(loader, type, name, params, args)                                                            \
    static type(*real_##name) params;                                                                                  \
    __attribute__((visibility("hidden"))) type name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_dl_require(&(loader), #name);                                                                        \
        }                                                                                                              \
        return real_##name args;                                                                                       \
    }

/* The same for a function that returns nothing. */
#define SEPIA_DL_VOID_FUNCTION(loader, name, params, args)                                                             \
    static void(*real_##name) params;                                                                                  \
    __attribute__((visibility("hidden"))) void name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_dl_require(&(loader), #name);                                                                        \
        }                                                                                                              \
        real_##name args;                                                                                              \
    }

/* The entry of the symbol table that finds `name` in `library` for SEPIA_DL_FUNCTION's pointer, or for `pointer`. */
#define SEPIA_DL_SYMBOL(library, name) SEPIA_DL_SYMBOL_INTO(library, name, real_##name)
#define SEPIA_DL_SYMBOL_INTO(library, name, pointer) {&(library), #name, (void *)&(pointer)},

/* The table adapters for a module's `loader` and `libraries`, described above. */
#define SEPIA_DL_TRAMPOLINE_F(type, name, params, args) SEPIA_DL_FUNCTION(loader, type, name, params, args)
#define SEPIA_DL_TRAMPOLINE_V(name, params, args) SEPIA_DL_VOID_FUNCTION(loader, name, params, args)
#define SEPIA_DL_SYMBOL_F(type, name, params, args) SEPIA_DL_SYMBOL(libraries[0], name)
#define SEPIA_DL_SYMBOL_V(name, params, args) SEPIA_DL_SYMBOL(libraries[0], name)
#define SEPIA_DL_LIBRARY_TRAMPOLINE_F(lib, type, name, params, args)                                                   \
    SEPIA_DL_FUNCTION(SEPIA_DL_LOADER_OF_##lib, type, name, params, args)
#define SEPIA_DL_LIBRARY_TRAMPOLINE_V(lib, name, params, args) SEPIA_DL_VOID_FUNCTION(SEPIA_DL_LOADER_OF_##lib, name, params, args)
#define SEPIA_DL_LIBRARY_SYMBOL_F(lib, type, name, params, args) SEPIA_DL_SYMBOL(SEPIA_DL_LIBRARY_OF_##lib, name)
#define SEPIA_DL_LIBRARY_SYMBOL_V(lib, name, params, args) SEPIA_DL_SYMBOL(SEPIA_DL_LIBRARY_OF_##lib, name)

/* The fields of a module's loader that opens all of `libraries` and finds `symbols`; more may follow
 * (.initialize, .prerequisite). */
#define SEPIA_DL_LOADER(component_, description_, packages_)                                                           \
    .component = (component_), .description = (description_), .packages = (packages_), SEPIA_DL_LIBRARIES(libraries),  \
    SEPIA_DL_SYMBOLS(symbols), .lock = PTHREAD_MUTEX_INITIALIZER

#ifdef __cplusplus
}
#endif

#endif
