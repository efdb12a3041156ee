#ifndef SEPIA_HEIF_H
#define SEPIA_HEIF_H

#include <stddef.h>

#include <libde265/de265.h>
#include <libheif/heif.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads libheif and libde265 (the ABI of the headers above: libheif.so.1, libde265.so.0) the first time it is
 * called, from any thread. Returns 1 when they are loaded; else 0, with the loader's reason in `error`. Every
 * libheif and libde265 function may be called after it returned 1; one called before loads them itself, and
 * stops the process with the reason if they are missing, so every entry point checks first. */
int sepia_heif_load(char *error, size_t size);

#ifdef __cplusplus
}
#endif

#endif
