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
    /* Not well-formed XML (or a prefix used without its namespace); the message names expat's error, line and
     * column. */
    SEPIA_XMP_CHECK_MALFORMED = 1,
    /* A document type declaration (DOCTYPE), and with it any entity declaration: refused before any entity could
     * be defined or expanded. */
    SEPIA_XMP_CHECK_DOCTYPE = 2,
    /* Elements nested deeper than the limit. */
    SEPIA_XMP_CHECK_TOO_DEEP = 3,
    /* More namespace declarations than the limit. */
    SEPIA_XMP_CHECK_TOO_MANY_NAMESPACES = 4,
    /* One node of the XMP tree with more members than the limit. */
    SEPIA_XMP_CHECK_TOO_MANY_MEMBERS = 5,
    /* More elements and attributes in all than the limit. */
    SEPIA_XMP_CHECK_TOO_MANY_NODES = 6,
    /* Nodes with so many members that Exempi's parse would cost more than the limit. */
    SEPIA_XMP_CHECK_TOO_COSTLY = 7,
} sepia_xmp_check_result;

/* What a packet may hold. A node's members are what Exempi's tree gives it as named children: for an element,
 * its attributes and its child elements other than array items (rdf:li); every rdf:Description directly under
 * rdf:RDF adds its members to one node (Exempi merges them), and one nested in a property element to that
 * element. Exempi looks for a member's name among those already there before adding it, so a node with n
 * members costs it about n * n steps: `max_cost` bounds the sum of those squares over the packet. */
typedef struct {
    int max_depth;
    int max_namespaces;
    long max_members;
    long max_nodes;
    long long max_cost;
} sepia_xmp_limits;

/* Parses `size` bytes with expat, keeping nothing, before Exempi sees them: the document must be well-formed,
 * with its namespaces declared, have no DOCTYPE, and stay within `limits`. The first problem is described in
 * `message`. Call sepia_xmp_load first. It needs no lock: it touches neither Exempi nor any global state. */
sepia_xmp_check_result sepia_xmp_check(
    const char *bytes, size_t size, const sepia_xmp_limits *limits, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
