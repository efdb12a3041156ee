#ifndef SEPIA_XMP_H
#define SEPIA_XMP_H

#include <stddef.h>

/* Exempi's C API (the functions SepiaXMP calls are trampolines into libexempi.so.8; see exempi_loader.c). */
#include <exempi-2.0/exempi/xmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads Exempi (libexempi.so.8) and expat (libexpat.so.1, the parser Exempi itself uses) the first time it is
 * called, from any thread, initializes Exempi and registers the namespaces Sepia reads and writes whose prefixes
 * the XMP Toolkit does not know (digiKam, Lightroom, darktable, Sepia's). Returns 1 when they are ready; else 0,
 * with the loader's reason in `error`. */
int sepia_xmp_load(char *error, size_t size);

/* What sepia_xmp_check found. */
typedef enum {
    SEPIA_XMP_CHECK_OK = 0,
    /* Not well-formed XML; the message names expat's error, line and column. */
    SEPIA_XMP_CHECK_MALFORMED = 1,
    /* A document type declaration (DOCTYPE), and with it any entity declaration: refused before any entity could
     * be defined or expanded. */
    SEPIA_XMP_CHECK_DOCTYPE = 2,
    /* Elements nested deeper than the limit. */
    SEPIA_XMP_CHECK_TOO_DEEP = 3,
    /* More namespace declarations than the limit. */
    SEPIA_XMP_CHECK_TOO_MANY_NAMESPACES = 4,
} sepia_xmp_check_result;

/* Parses `size` bytes with expat, keeping nothing, before Exempi sees them: the document must be well-formed, have
 * no DOCTYPE, nest elements at most `max_depth` deep and declare at most `max_namespaces` namespaces. The first
 * problem is described in `message`. Call sepia_xmp_load first. */
sepia_xmp_check_result sepia_xmp_check(
    const char *bytes, size_t size, int max_depth, int max_namespaces, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
