/*
 * The error manager every libjpeg object in this module uses: errors longjmp back to the C function that called
 * into libjpeg, warnings are counted and the first one kept, and strict mode turns the warnings that mean lost
 * pixel data into errors.
 */
#ifndef SEPIA_ERROR_MGR_H
#define SEPIA_ERROR_MGR_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

typedef struct sepia_error_mgr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int strict;
    int strict_failure;
    /* Set while a decoder reads only some of a file's scans (scan_lanes.c), whose order was checked beforehand:
     * libjpeg then sees refinement scans without the scans they refine and warns of a bogus progression. */
    int ignore_progression;
    int warning_count;
    char first_warning[JMSG_LENGTH_MAX];
    char error[JMSG_LENGTH_MAX];
} sepia_error_mgr;

void sepia_install_error_mgr(sepia_error_mgr *err, int strict);

/* Copies the error text into `message` and returns SEPIA_JPEG_STRICT_WARNING or SEPIA_JPEG_ERROR. */
int sepia_failure(sepia_error_mgr *err, char *message, size_t message_size);

void sepia_copy(char *dest, size_t size, const char *src);

#endif
