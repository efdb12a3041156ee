/*
 * libjpeg's large objects, faulted in on two cores.
 *
 * libjpeg asks for its large objects through jpeg_get_large and jpeg_free_large (jmemnobs.c: malloc and free),
 * which it calls through its procedure linkage table, so these definitions replace them. The only objects that
 * are large are the coefficient buffers of multi-scan (progressive) files, every block's 64 coefficients for the
 * whole image: 72 MB at 24 MP. The first scan touches every page of them, and faulting those pages in is most of
 * the kernel time of a progressive decode, on the one thread that decodes, while the other cores wait for rows.
 *
 * For an object of at least LARGE_PREFAULT_MIN bytes a helper thread asks the kernel to populate its pages from
 * the end backwards (MADV_POPULATE_WRITE: page tables only, the contents are not touched) while the decoder
 * faults them in from the start, so each page is faulted once, by whichever thread reaches it first, and the two
 * meet in the middle. Populating never writes to the memory, so racing the decoder is harmless; the helper is
 * joined before its object is freed. Where the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14) or no
 * thread can be started, the object is an ordinary malloc block.
 */

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jpeglib.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define LARGE_PREFAULT_MIN (4u << 20)
#define LARGE_PREFAULT_STEP (1u << 20)

/* Placed before each object; keeps the object aligned as malloc aligns. */
typedef union large_header {
    struct {
        void *start;
        size_t length;
        pthread_t helper;
        int has_helper;
    } info;
    max_align_t align;
    char pad[64];
} large_header;

static void *large_populate(void *argument) {
    large_header *header = argument;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = ((uintptr_t)header->info.start + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)header->info.start + header->info.length) & ~(page - 1);
    while (end > first) {
        uintptr_t begin = end - first > LARGE_PREFAULT_STEP ? end - LARGE_PREFAULT_STEP : first;
        if (madvise((void *)begin, end - begin, MADV_POPULATE_WRITE) != 0 && errno != EINTR && errno != EAGAIN) {
            break;
        }
        end = begin;
    }
    return NULL;
}

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    (void)cinfo;
    if (sizeofobject > SIZE_MAX - sizeof(large_header)) return NULL;
    large_header *header = malloc(sizeof(large_header) + sizeofobject);
    if (header == NULL) return NULL;
    header->info.start = header + 1;
    header->info.length = sizeofobject;
    header->info.has_helper = 0;
    if (sizeofobject >= LARGE_PREFAULT_MIN) {
        header->info.has_helper = pthread_create(&header->info.helper, NULL, large_populate, header) == 0;
    }
    return header + 1;
}

void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject) {
    (void)cinfo;
    (void)sizeofobject;
    if (object == NULL) return;
    large_header *header = (large_header *)object - 1;
    if (header->info.has_helper) pthread_join(header->info.helper, NULL);
    free(header);
}
