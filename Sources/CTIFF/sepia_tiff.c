/*
 * A small C layer over libtiff: reading from memory, per-file error and warning handlers (libtiff's default ones
 * print on stderr), an allocation limit, the first page's header as one struct (libtiff's getters are variadic),
 * and decoding through libtiff's RGBA interface in bands of rows.
 */
#include "sepia_tiff.h"
#include "tiff_functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sepia_tiff {
    const uint8_t *bytes;
    uint64_t size;
    uint64_t position;
    TIFF *tif;
    TIFFRGBAImage rgba;
    int rgba_started;
    char error[512];
    char warning[512];
};

static int get_field(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int found = TIFFVGetField(tif, tag, ap);
    va_end(ap);
    return found;
}

static int get_field_defaulted(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int found = TIFFVGetFieldDefaulted(tif, tag, ap);
    va_end(ap);
    return found;
}

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    sepia_tiff *t = handle;
    if (size < 0 || t->position >= t->size) {
        return 0;
    }
    uint64_t n = t->size - t->position;
    if ((uint64_t)size < n) {
        n = (uint64_t)size;
    }
    memcpy(buffer, t->bytes + t->position, n);
    t->position += n;
    return (tmsize_t)n;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    sepia_tiff *t = handle;
    uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? t->size : 0;
    uint64_t target = base + offset;
    if (target < base) {
        return (toff_t)-1;
    }
    t->position = target;
    return target;
}

static int close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t size_proc(thandle_t handle) { return ((sepia_tiff *)handle)->size; }

static int map_proc(thandle_t handle, void **base, toff_t *size) {
    sepia_tiff *t = handle;
    *base = (void *)t->bytes;
    *size = t->size;
    return 1;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static int on_error(TIFF *tif, void *context, const char *module, const char *format, va_list ap) {
    (void)tif;
    (void)module;
    sepia_tiff *t = context;
    if (t->error[0] == 0) {
        vsnprintf(t->error, sizeof(t->error), format, ap);
    }
    return 1;
}

static int on_warning(TIFF *tif, void *context, const char *module, const char *format, va_list ap) {
    (void)tif;
    (void)module;
    sepia_tiff *t = context;
    if (t->warning[0] == 0) {
        vsnprintf(t->warning, sizeof(t->warning), format, ap);
    }
    return 1;
}

sepia_tiff *sepia_tiff_open(const void *bytes, size_t size, uint64_t max_single_allocation, char *error, size_t error_size) {
    if (!sepia_tiff_load(error, error_size)) {
        return NULL;
    }
    sepia_tiff *t = calloc(1, sizeof(sepia_tiff));
    if (t == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    t->bytes = bytes;
    t->size = size;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        free(t);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_single_allocation);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, t);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, t);
    /* "m": never map (the bytes are already in memory; mapping would hand libtiff the caller's pointer as is). */
    t->tif = TIFFClientOpenExt("image", "rm", t, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc, unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (t->tif == NULL) {
        snprintf(error, error_size, "%s", t->error[0] != 0 ? t->error : "not a TIFF file libtiff can read");
        free(t);
        return NULL;
    }
    return t;
}

void sepia_tiff_close(sepia_tiff *t) {
    if (t == NULL) {
        return;
    }
    if (t->rgba_started) {
        TIFFRGBAImageEnd(&t->rgba);
    }
    if (t->tif != NULL) {
        TIFFClose(t->tif);
    }
    free(t);
}

const char *sepia_tiff_error(sepia_tiff *t) { return t->error; }

const char *sepia_tiff_warning(sepia_tiff *t) { return t->warning; }

void sepia_tiff_get_info(sepia_tiff *t, sepia_tiff_info *info) {
    memset(info, 0, sizeof(*info));
    TIFF *tif = t->tif;
    get_field(tif, TIFFTAG_IMAGEWIDTH, &info->width);
    get_field(tif, TIFFTAG_IMAGELENGTH, &info->height);
    get_field_defaulted(tif, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    get_field_defaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    if (!get_field(tif, TIFFTAG_PHOTOMETRIC, &info->photometric)) {
        info->photometric = 0xFFFF;
    }
    get_field_defaulted(tif, TIFFTAG_PLANARCONFIG, &info->planar);
    if (!get_field(tif, TIFFTAG_ORIENTATION, &info->orientation)) {
        info->orientation = 1;
    }
    get_field_defaulted(tif, TIFFTAG_COMPRESSION, &info->compression);
    get_field_defaulted(tif, TIFFTAG_SAMPLEFORMAT, &info->sample_format);
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    if (get_field(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) && extra_count > 0 && extra != NULL) {
        info->extra_sample = extra[0] == EXTRASAMPLE_ASSOCALPHA ? 1 : extra[0] == EXTRASAMPLE_UNASSALPHA ? 2 : 3;
    }
    info->tiled = TIFFIsTiled(tif);
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (get_field(tif, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL && icc_length > 0) {
        info->icc = icc;
        info->icc_length = icc_length;
    }
    /* Counting pages reads every IFD: a bounded count (libtiff stops at loops). */
    info->pages = (int)TIFFNumberOfDirectories(tif);
}

int sepia_tiff_rgba_begin(sepia_tiff *t, char *error, size_t error_size) {
    char reason[1024] = {0};
    if (!TIFFRGBAImageBegin(&t->rgba, t->tif, 0, reason)) {
        snprintf(error, error_size, "%s", reason[0] != 0 ? reason : t->error);
        return 0;
    }
    t->rgba_started = 1;
    /* The rows as stored, top to bottom: the engine applies the orientation, as for EXIF's. */
    t->rgba.req_orientation = ORIENTATION_TOPLEFT;
    t->rgba.orientation = ORIENTATION_TOPLEFT;
    return 1;
}

int sepia_tiff_rgba_rows(sepia_tiff *t, uint32_t first_row, uint32_t rows, uint32_t *raster) {
    t->rgba.row_offset = (int)first_row;
    t->rgba.col_offset = 0;
    return TIFFRGBAImageGet(&t->rgba, raster, t->rgba.width, rows);
}
