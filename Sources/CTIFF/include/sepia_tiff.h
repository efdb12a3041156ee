#ifndef SEPIA_TIFF_H
#define SEPIA_TIFF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads libtiff (libtiff.so.6, the ABI of the headers Sepia is compiled with) the first time it is called, from any
 * thread. Returns 1 when it is loaded; else 0, with the loader's reason in `error`. */
int sepia_tiff_load(char *error, size_t size);

/* A TIFF file in memory (the bytes must outlive it), its first page selected. */
typedef struct sepia_tiff sepia_tiff;

/* The first page's header. */
typedef struct {
    uint32_t width, height;
    uint16_t bits_per_sample, samples_per_pixel, photometric, planar, orientation, compression, sample_format;
    /* 0 none, 1 associated (premultiplied) alpha, 2 unassociated alpha, 3 another extra sample. */
    uint16_t extra_sample;
    int tiled;
    int pages;
    const uint8_t *icc;
    uint32_t icc_length;
    /* The XMP packet (tag 700), as stored; NULL when there is none. */
    const uint8_t *xmp;
    uint32_t xmp_length;
    /* The tile size (0 when stored in strips) and the rows in a strip, as declared. */
    uint32_t tile_width, tile_length, rows_per_strip;
    /* The bytes decoded strips or tiles take at once while the page is decoded: a row of tiles, every plane's
     * when planar, or one strip of each plane; as libtiff computes them from the header (subsampling and bit
     * depths included). UINT64_MAX when they overflow. */
    uint64_t chunk_bytes;
} sepia_tiff_info;

/* Opens `size` bytes; no single allocation of libtiff's may exceed `max_single_allocation`. Returns NULL with
 * libtiff's first error in `error`. */
sepia_tiff *sepia_tiff_open(const void *bytes, size_t size, uint64_t max_single_allocation, char *error, size_t error_size);
void sepia_tiff_close(sepia_tiff *tiff);
void sepia_tiff_get_info(sepia_tiff *tiff, sepia_tiff_info *info);
/* libtiff's first error and warning since opening, or "". */
const char *sepia_tiff_error(sepia_tiff *tiff);
const char *sepia_tiff_warning(sepia_tiff *tiff);

/* Starts decoding through libtiff's RGBA interface (every photometric, bit depth and layout it reads, as 8-bit
 * RGBA with straight alpha), the rows in the order stored: the orientation is left to the caller. Returns 1, or 0
 * with libtiff's reason in `error`. */
int sepia_tiff_rgba_begin(sepia_tiff *tiff, char *error, size_t error_size);
/* Decodes `rows` rows from `first_row` into `raster` (`width` × `rows` pixels of R, G, B, A bytes). Returns 1 or
 * 0 on a decoding error (see sepia_tiff_error). */
int sepia_tiff_rgba_rows(sepia_tiff *tiff, uint32_t first_row, uint32_t rows, uint32_t *raster);

/* Reads `rows` rows from `first_row` of the samples as stored (8 or 16 bits, interleaved: planar files are
 * interleaved here), `stride` bytes apart, into `destination`. Strips (chunky or planar) and chunky tiles.
 * Returns 1, or 0 on a decoding error (see sepia_tiff_error). */
int sepia_tiff_read_rows(sepia_tiff *tiff, uint32_t first_row, uint32_t rows, uint8_t *destination, size_t stride);

#ifdef __cplusplus
}
#endif

#endif
