/*
 * A small C layer over libjpeg-turbo's libjpeg API.
 *
 * libjpeg reports errors with longjmp. Every function here installs its own setjmp before calling into
 * libjpeg and returns an error code instead, so no longjmp ever crosses a Swift frame. Messages are copied
 * into the caller's buffer at once.
 */
#ifndef SEPIA_JPEG_H
#define SEPIA_JPEG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SEPIA_JPEG_OK = 0,
    SEPIA_JPEG_ERROR = 1,
    /* Strict mode refused a warning that means pixel data was lost or invented. */
    SEPIA_JPEG_STRICT_WARNING = 2
};

enum {
    SEPIA_JPEG_OUTPUT_GRAY = 1,
    SEPIA_JPEG_OUTPUT_RGB = 3,
    SEPIA_JPEG_OUTPUT_CMYK = 4
};

typedef struct sepia_jpeg_header {
    int image_width;
    int image_height;
    int output_width;
    int output_height;
    int num_components;
    /* SEPIA_JPEG_OUTPUT_GRAY, _RGB or _CMYK: what read_rows delivers per pixel. */
    int output_components;
    /* Non-zero when an Adobe APP14 marker was seen: CMYK values are then stored inverted. */
    int saw_adobe_marker;
    int progressive;
    int arithmetic;
    int data_precision;
} sepia_jpeg_header;

typedef struct sepia_jpeg_decoder sepia_jpeg_decoder;
typedef struct sepia_jpeg_encoder sepia_jpeg_encoder;

/*
 * Reads the header, selects DCT scaling 1/scale_denom (1, 2, 4 or 8) and starts decompression.
 * `max_memory` bounds libjpeg's own allocations (progressive coefficient buffers). When `strict` is
 * non-zero, warnings that mean corrupt or missing entropy-coded data become errors. When `dc_only` is
 * non-zero, a whole, lenient, progressive Huffman-coded file decoded at 1/8 scale reads only its DC scans.
 * When `threads` is 2 or more, a whole progressive Huffman-coded file has its scans decoded on two threads where
 * that pays (see scan_lanes.h); the pixels are the same.
 */
int sepia_jpeg_decoder_create(const unsigned char *data, size_t size, int scale_denom, int strict, int dc_only,
                              int threads, unsigned long max_memory, int max_scans, sepia_jpeg_decoder **out,
                              sepia_jpeg_header *header, char *message, size_t message_size);

/* Decodes up to `max_rows` further rows into `dest`. `*rows_read` is 0 only at the end of the image. */
int sepia_jpeg_decoder_read_rows(sepia_jpeg_decoder *decoder, unsigned char *dest, size_t row_stride,
                                 int max_rows, int *rows_read, char *message, size_t message_size);

/* 2 when the file's scans were decoded on two threads, else 1. */
int sepia_jpeg_decoder_scan_threads(const sepia_jpeg_decoder *decoder);

/* Number of libjpeg warnings seen so far, and the text of the first one. */
int sepia_jpeg_decoder_warning_count(const sepia_jpeg_decoder *decoder);
void sepia_jpeg_decoder_first_warning(const sepia_jpeg_decoder *decoder, char *message, size_t message_size);

void sepia_jpeg_decoder_destroy(sepia_jpeg_decoder *decoder);

/*
 * Starts a JPEG encoder writing to memory. `components` is 1 (gray) or 3 (RGB); `subsampling` is 444,
 * 422 or 420.
 */
int sepia_jpeg_encoder_create(int width, int height, int components, int quality, int subsampling,
                              int progressive, int optimize_coding, sepia_jpeg_encoder **out,
                              char *message, size_t message_size);

int sepia_jpeg_encoder_write_rows(sepia_jpeg_encoder *encoder, const unsigned char *src, size_t row_stride,
                                  int rows, char *message, size_t message_size);

/* Finishes the stream. The bytes stay owned by the encoder until it is destroyed. */
int sepia_jpeg_encoder_finish(sepia_jpeg_encoder *encoder, const unsigned char **data, size_t *size,
                              char *message, size_t message_size);

void sepia_jpeg_encoder_destroy(sepia_jpeg_encoder *encoder);

#ifdef __cplusplus
}
#endif

#endif
