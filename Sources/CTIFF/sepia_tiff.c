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

/* The strips or the row of tiles last decoded, per plane. */
typedef struct {
    uint8_t *buffer;
    tmsize_t size;
    int64_t index;
} chunk_cache;

struct sepia_tiff {
    chunk_cache cache[8];
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
    for (int i = 0; i < 8; i++) {
        free(t->cache[i].buffer);
    }
    free(t);
}

const char *sepia_tiff_error(sepia_tiff *t) { return t->error; }

const char *sepia_tiff_warning(sepia_tiff *t) { return t->warning; }

/* a × b, or UINT64_MAX when it overflows. */
static uint64_t multiply(uint64_t a, uint64_t b) { return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

/* See sepia_tiff_info.chunk_bytes. libtiff reports a size that overflows as an error and returns 0: that error is
 * taken back here (it is this function's answer, not damage found while decoding). */
static uint64_t chunk_bytes(sepia_tiff *t, const sepia_tiff_info *info) {
    int had_error = t->error[0] != 0;
    uint64_t planes = info->planar == PLANARCONFIG_SEPARATE ? info->samples_per_pixel : 1;
    uint64_t bytes;
    if (info->tiled) {
        uint64_t tile = TIFFTileSize64(t->tif);
        uint64_t across = info->tile_width == 0 ? 0 : ((uint64_t)info->width + info->tile_width - 1) / info->tile_width;
        bytes = tile == 0 ? UINT64_MAX : multiply(multiply(tile, across), planes);
    } else {
        uint64_t strip = TIFFStripSize64(t->tif);
        bytes = strip == 0 ? UINT64_MAX : multiply(strip, planes);
    }
    if (!had_error) {
        t->error[0] = 0;
    }
    return bytes;
}

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
    uint32_t xmp_length = 0;
    void *xmp = NULL;
    if (get_field(tif, TIFFTAG_XMLPACKET, &xmp_length, &xmp) && xmp != NULL && xmp_length > 0) {
        info->xmp = xmp;
        info->xmp_length = xmp_length;
    }
    get_field_defaulted(tif, TIFFTAG_ROWSPERSTRIP, &info->rows_per_strip);
    if (info->tiled) {
        get_field(tif, TIFFTAG_TILEWIDTH, &info->tile_width);
        get_field(tif, TIFFTAG_TILELENGTH, &info->tile_length);
    }
    info->chunk_bytes = chunk_bytes(t, info);
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

/* Decodes strip (or tile row) `index` of plane `plane` into the plane's cache, unless it is there already. */
static int load_strip(sepia_tiff *t, int plane, uint32_t strip, tmsize_t size) {
    chunk_cache *c = &t->cache[plane];
    if (c->buffer != NULL && c->index == (int64_t)strip) {
        return 1;
    }
    if (c->buffer == NULL) {
        c->buffer = malloc((size_t)size);
        if (c->buffer == NULL) {
            return 0;
        }
        c->size = size;
    }
    memset(c->buffer, 0, (size_t)c->size);
    c->index = strip;
    /* A short or failed strip leaves zeros (reported through the error handler), as libtiff's tools do. */
    return TIFFReadEncodedStrip(t->tif, strip, c->buffer, c->size) >= 0;
}

static int load_tile_row(sepia_tiff *t, uint32_t tile_row, uint32_t width, uint32_t tile_width, uint32_t tile_height, tmsize_t tile_size) {
    chunk_cache *c = &t->cache[0];
    uint32_t across = (width + tile_width - 1) / tile_width;
    if (c->buffer != NULL && c->index == (int64_t)tile_row) {
        return 1;
    }
    if (c->buffer == NULL) {
        c->buffer = malloc((size_t)tile_size * across);
        if (c->buffer == NULL) {
            return 0;
        }
        c->size = tile_size * across;
    }
    memset(c->buffer, 0, (size_t)c->size);
    c->index = tile_row;
    int ok = 1;
    for (uint32_t i = 0; i < across; i++) {
        uint32_t tile = TIFFComputeTile(t->tif, i * tile_width, tile_row * tile_height, 0, 0);
        if (TIFFReadEncodedTile(t->tif, tile, c->buffer + (size_t)i * tile_size, tile_size) < 0) {
            ok = 0;
        }
    }
    return ok;
}

int sepia_tiff_read_rows(sepia_tiff *t, uint32_t first_row, uint32_t rows, uint8_t *destination, size_t stride) {
    TIFF *tif = t->tif;
    uint32_t width = 0, height = 0, rows_per_strip = 0;
    uint16_t bits = 8, samples = 1, planar = PLANARCONFIG_CONTIG;
    get_field(tif, TIFFTAG_IMAGEWIDTH, &width);
    get_field(tif, TIFFTAG_IMAGELENGTH, &height);
    get_field_defaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    get_field_defaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    get_field_defaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    size_t bytes = bits / 8;
    size_t pixel = bytes * samples;
    if ((bits != 8 && bits != 16) || samples == 0 || samples > 8 || width == 0 || (size_t)width * pixel > stride) {
        return 0;
    }
    int ok = 1;
    if (TIFFIsTiled(tif)) {
        uint32_t tile_width = 0, tile_height = 0;
        get_field(tif, TIFFTAG_TILEWIDTH, &tile_width);
        get_field(tif, TIFFTAG_TILELENGTH, &tile_height);
        tmsize_t tile_size = TIFFTileSize(tif);
        if (planar != PLANARCONFIG_CONTIG || tile_width == 0 || tile_height == 0 || tile_size <= 0 ||
            (uint64_t)tile_width * tile_height * pixel > (uint64_t)tile_size) {
            return 0;
        }
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t y = first_row + r;
            if (y >= height) {
                break;
            }
            if (!load_tile_row(t, y / tile_height, width, tile_width, tile_height, tile_size)) {
                ok = 0;
            }
            uint8_t *out = destination + (size_t)r * stride;
            uint32_t in_tile = y % tile_height;
            for (uint32_t x = 0; x < width; x += tile_width) {
                uint32_t n = width - x < tile_width ? width - x : tile_width;
                const uint8_t *tile = t->cache[0].buffer + (size_t)(x / tile_width) * tile_size;
                memcpy(out + (size_t)x * pixel, tile + (size_t)in_tile * tile_width * pixel, (size_t)n * pixel);
            }
        }
        return ok;
    }
    get_field_defaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > height) {
        rows_per_strip = height;
    }
    tmsize_t strip_size = TIFFStripSize(tif);
    int planes = planar == PLANARCONFIG_SEPARATE ? samples : 1;
    size_t plane_pixel = planar == PLANARCONFIG_SEPARATE ? bytes : pixel;
    if (strip_size <= 0 || (uint64_t)rows_per_strip * width * plane_pixel > (uint64_t)strip_size) {
        return 0;
    }
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t y = first_row + r;
        if (y >= height) {
            break;
        }
        uint8_t *out = destination + (size_t)r * stride;
        size_t offset = (size_t)(y % rows_per_strip) * width * plane_pixel;
        for (int p = 0; p < planes; p++) {
            if (!load_strip(t, p, TIFFComputeStrip(tif, y, (uint16_t)p), strip_size)) {
                ok = 0;
            }
            const uint8_t *in = t->cache[p].buffer + offset;
            if (planes == 1) {
                memcpy(out, in, (size_t)width * pixel);
            } else {
                for (uint32_t x = 0; x < width; x++) {
                    memcpy(out + (size_t)x * pixel + (size_t)p * bytes, in + (size_t)x * bytes, bytes);
                }
            }
        }
    }
    return ok;
}
