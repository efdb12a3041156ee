#ifndef SEPIA_RAW_H
#define SEPIA_RAW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads LibRaw (libraw_r.so.20, the ABI of the headers Sepia is compiled with) the first time it is called, from
 * any thread. Returns 1 when it is loaded; else 0, with the loader's reason in `error`. */
int sepia_raw_load(char *error, size_t size);

/* An opened RAW file: LibRaw's handle over bytes in memory (which must outlive it), with a deadline. */
typedef struct sepia_raw sepia_raw;

/* What LibRaw's identification read, without unpacking pixels. Strings are NUL-terminated. */
typedef struct {
    /* The sensor's stored size and the image's size before orientation as LibRaw develops it at full size and
     * at half size (with its pixel-aspect stretch and Fuji rotation). */
    int raw_width, raw_height;
    int width, height;
    int half_width, half_height;
    /* LibRaw's flip: 0 none, 3 180°, 5 90° counter-clockwise, 6 90° clockwise. */
    int flip;
    int colors;
    unsigned filters;
    int is_foveon, is_xtrans, dng_version;
    char make[64], model[64], software[64], lens[128], artist[64];
    double iso, shutter, aperture, focal_length;
    int64_t timestamp;
    /* The embedded preview: LibRaw's format (1 JPEG, 2 8-bit bitmap, 3 16-bit bitmap), size, bytes. */
    int thumb_format, thumb_width, thumb_height;
    size_t thumb_length;
    int has_gps;
    double latitude, longitude, altitude;
    /* The camera's colour: its matrix from XYZ to camera RGB (rows R, G, B, a fourth colour; all zero when LibRaw
     * knows none), and the white balance multipliers as shot and for daylight (R, G, B, G2; zero when unknown). */
    double cam_xyz[4][3];
    double cam_mul[4];
    double pre_mul[4];
} sepia_raw_info;

/* What to develop: LibRaw's parameters. */
typedef struct {
    int half_size;
    /* -1 LibRaw's default (AHD); 0 linear, 1 VNG, 2 PPG, 3 AHD. */
    int quality;
    /* 1: the camera's white balance; 0 with user_mul[0] > 0: these multipliers; else daylight. */
    int use_camera_wb;
    float user_mul[4];
    /* Wavelet denoising threshold (0 off; 100–1000 as dcraw's -n). */
    float noise_threshold;
    /* 0 clip, 1 unclip, 2 blend, 3–9 rebuild. */
    int highlight;
} sepia_raw_develop_options;

/* Opens `size` bytes with LibRaw and identifies them; a file bigger than `max_raw_megabytes` of raw data after
 * unpacking is refused by LibRaw. Returns NULL with LibRaw's error code (negative) in `error`. */
sepia_raw *sepia_raw_open(const void *bytes, size_t size, unsigned max_raw_megabytes, int *error);
/* Opens a file by its path: LibRaw reads what it needs as it goes (the header, the preview, the sensor data when
 * developing), never the whole file at once. */
sepia_raw *sepia_raw_open_file(const char *path, unsigned max_raw_megabytes, int *error);
void sepia_raw_close(sepia_raw *raw);
void sepia_raw_get_info(sepia_raw *raw, sepia_raw_info *info);
/* The XMP packet of a TIFF-structured RAW file (tag 700: a DNG's, as Lightroom writes it), as stored, or NULL;
 * valid while `raw` is open. */
const char *sepia_raw_xmp(sepia_raw *raw, size_t *length);
/* LibRaw's description of an error code. */
const char *sepia_raw_strerror(int code);
/* The wall-clock time after which LibRaw's next progress report cancels the work (0: none). */
void sepia_raw_set_deadline(sepia_raw *raw, double seconds_from_now);
/* Warnings LibRaw reported about the data (a bit set of LIBRAW_WARN_*), and whether a data error was met. */
unsigned sepia_raw_warnings(sepia_raw *raw);
int sepia_raw_data_errors(sepia_raw *raw);

/* Reads the embedded preview; its bytes stay valid until the handle is closed. Returns 0 or LibRaw's error. */
int sepia_raw_thumbnail(sepia_raw *raw, const uint8_t **bytes, size_t *length, int *format, int *width, int *height);

/* Unpacks and develops the image (demosaiced, white-balanced, converted to linear sRGB primaries, 16-bit, not
 * yet oriented). Returns 0 or LibRaw's error; then `sepia_raw_image` gives the pixels. */
int sepia_raw_develop(sepia_raw *raw, const sepia_raw_develop_options *options);
/* The developed pixels: `width` × `height` of four 16-bit samples (R, G, B and an unused fourth). */
const uint16_t *sepia_raw_image(sepia_raw *raw, int *width, int *height);

/* Sepia's own half-size development, streamed: the same pixels as LibRaw's `half_size` development (black level,
 * maximum, white balance, the two greens averaged, the camera's matrix to sRGB primaries, highlights clipped), made
 * row by row from the unpacked sensor data so that no developed image is ever held.
 *
 * Unpacks the sensor data and prepares the development. Returns 0 when prepared (with the developed size), 1 when
 * this file or these options need LibRaw's own development (then `sepia_raw_develop` goes on from the unpacked
 * data), or LibRaw's error (negative). */
int sepia_raw_prepare_half(sepia_raw *raw, const sepia_raw_develop_options *options, int *width, int *height);
/* Counts the prepared development's samples: `counts` holds 3 × 8192 zeroed counters, R, G then B, of each
 * value shifted right by 3 (dcraw's histogram). Returns 0, or LibRaw's error when memory ran out. */
int sepia_raw_half_histogram(sepia_raw *raw, uint32_t *counts);
/* Develops `count` rows from `first` as R, G, B and an opaque alpha of 16 bits each, `width` pixels a row (the
 * developed width; more repeat the last pixel), rows `stride` samples apart. Rows past the last repeat it. The
 * rows are asked for in order, each once: the sensor data above the next row is given back to the kernel (after
 * the histogram, which reads it all). */
void sepia_raw_half_rows(sepia_raw *raw, int first, int count, uint16_t *out, size_t stride, int width);

#ifdef __cplusplus
}
#endif

#endif
