/*
 * A small C layer over LibRaw's C API: opening bytes with limits and a deadline, reading what identification
 * found into one flat struct, the embedded preview and the developed image. LibRaw's own structs stay here.
 */
#include "sepia_raw.h"
#include "raw_functions.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Sepia's half-size development of unpacked Bayer data: what LibRaw's dcraw_process would do with it, reduced to
 * constants (see sepia_raw_prepare_half). */
typedef struct {
    /* The unpacked sensor data, `pitch` samples a row; the image starts at row `top`, column `left`. */
    const uint16_t *sensor;
    size_t pitch;
    int top, left;
    /* The image's rows and columns that lie inside the sensor data (LibRaw reads no others: they stay black). */
    int rows, columns;
    /* The developed size: a pixel for each 2x2 block. */
    int width, height;
    /* The colour (0 red, 1 green, 2 blue, 3 the second green) at each place of a 2x2 block. */
    int color[2][2];
    /* Subtracted from each colour's samples (the black level). */
    uint16_t black[4];
    /* Each colour's multiplier: white balance and the scale of the sensor's white to 65535. */
    float scale[4];
    /* Camera RGB to linear sRGB; unused when `raw_color`. */
    float matrix[3][3];
    int raw_color;
} half_development;

struct sepia_raw {
    libraw_data_t *data;
    double deadline;
    int data_errors;
    /* Set while developing: the sensor data's pages are given back once LibRaw has copied it. */
    int release_sensor_data;
    /* Whether the sensor data is unpacked already. */
    int unpacked;
    /* Whether `half` is prepared. */
    int half_prepared;
    half_development half;
    /* How many bytes from the start of the sensor data have been given back while streaming rows. */
    size_t half_released;
};

/* Gives the kernel back the pages of the unpacked sensor data (a Bayer or single-colour raw image). LibRaw copies it
 * into its image before scaling the colours and reads it no more while developing, yet keeps the allocation until
 * the handle closes: for a 24-megapixel file that is 48 MB held through demosaicing. The allocation itself stays
 * (LibRaw frees it); only whole pages inside it are released, and they would read as zeros if touched again. */
static void release_sensor_pages(libraw_data_t *d) {
    if (d->rawdata.raw_image == NULL || d->rawdata.raw_alloc != (void *)d->rawdata.raw_image) {
        return;
    }
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) {
        return;
    }
    size_t bytes = (size_t)d->sizes.raw_width * (size_t)d->sizes.raw_height * sizeof(unsigned short);
    uintptr_t start = ((uintptr_t)d->rawdata.raw_image + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t end = ((uintptr_t)d->rawdata.raw_image + bytes) & ~((uintptr_t)page - 1);
    if (end > start) {
        madvise((void *)start, end - start, MADV_DONTNEED);
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* LibRaw asks at each stage whether to go on; a non-zero answer cancels with LIBRAW_CANCELLED_BY_CALLBACK. */
static int progress(void *context, enum LibRaw_progress stage, int iteration, int expected) {
    (void)expected;
    sepia_raw *raw = context;
    if (stage == LIBRAW_PROGRESS_SCALE_COLORS && iteration == 0 && raw->release_sensor_data) {
        release_sensor_pages(raw->data);
        raw->release_sensor_data = 0;
    }
    return raw->deadline > 0 && now_seconds() > raw->deadline ? 1 : 0;
}

/* LibRaw reports damaged data here (and would print it on stderr by default): counted, reported as a warning. */
static void data_error(void *context, const char *file, const int offset) {
    (void)file;
    (void)offset;
    sepia_raw *raw = context;
    raw->data_errors += 1;
}

static void memory_error(void *context, const char *file, const char *where) {
    (void)context;
    (void)file;
    (void)where;
}

/* A new handle with Sepia's handlers and limits, or NULL with the error set. */
static sepia_raw *make_handle(unsigned max_raw_megabytes, int *error) {
    char reason[8];
    if (!sepia_raw_load(reason, sizeof(reason))) {
        *error = LIBRAW_UNSPECIFIED_ERROR;
        return NULL;
    }
    sepia_raw *raw = calloc(1, sizeof(sepia_raw));
    if (raw == NULL) {
        *error = LIBRAW_UNSUFFICIENT_MEMORY;
        return NULL;
    }
    raw->data = libraw_init(0);
    if (raw->data == NULL) {
        free(raw);
        *error = LIBRAW_UNSUFFICIENT_MEMORY;
        return NULL;
    }
    libraw_set_progress_handler(raw->data, progress, raw);
    libraw_set_dataerror_handler(raw->data, data_error, raw);
    libraw_set_memerror_handler(raw->data, memory_error, raw);
    if (max_raw_megabytes > 0) {
        raw->data->params.max_raw_memory_mb = max_raw_megabytes;
    }
    return raw;
}

sepia_raw *sepia_raw_open_file(const char *path, unsigned max_raw_megabytes, int *error) {
    sepia_raw *raw = make_handle(max_raw_megabytes, error);
    if (raw == NULL) {
        return NULL;
    }
    int status = libraw_open_file(raw->data, path);
    if (status != LIBRAW_SUCCESS) {
        *error = status;
        sepia_raw_close(raw);
        return NULL;
    }
    *error = 0;
    return raw;
}

sepia_raw *sepia_raw_open(const void *bytes, size_t size, unsigned max_raw_megabytes, int *error) {
    sepia_raw *raw = make_handle(max_raw_megabytes, error);
    if (raw == NULL) {
        return NULL;
    }
    int status = libraw_open_buffer(raw->data, (void *)bytes, size);
    if (status != LIBRAW_SUCCESS) {
        *error = status;
        sepia_raw_close(raw);
        return NULL;
    }
    *error = 0;
    return raw;
}

void sepia_raw_close(sepia_raw *raw) {
    if (raw == NULL) {
        return;
    }
    if (raw->data != NULL) {
        libraw_close(raw->data);
    }
    free(raw);
}

const char *sepia_raw_strerror(int code) {
    char reason[8];
    if (!sepia_raw_load(reason, sizeof(reason))) {
        return "LibRaw could not be loaded";
    }
    return libraw_strerror(code);
}

void sepia_raw_set_deadline(sepia_raw *raw, double seconds_from_now) {
    raw->deadline = seconds_from_now > 0 ? now_seconds() + seconds_from_now : 0;
}

unsigned sepia_raw_warnings(sepia_raw *raw) { return raw->data->process_warnings; }

int sepia_raw_data_errors(sepia_raw *raw) { return raw->data_errors; }

static void copy_string(char *destination, size_t size, const char *source, size_t source_size) {
    size_t n = strnlen(source, source_size);
    if (n >= size) {
        n = size - 1;
    }
    memcpy(destination, source, n);
    destination[n] = 0;
}

static double degrees(const float dms[3]) { return (double)dms[0] + (double)dms[1] / 60.0 + (double)dms[2] / 3600.0; }

const char *sepia_raw_xmp(sepia_raw *raw, size_t *length) {
    const libraw_iparams_t *id = &raw->data->idata;
    /* LibRaw stores the tag's bytes and a NUL after them: xmplen counts both. */
    if (id->xmpdata == NULL || id->xmplen < 2) {
        *length = 0;
        return NULL;
    }
    *length = id->xmplen - 1;
    return id->xmpdata;
}

void sepia_raw_get_info(sepia_raw *raw, sepia_raw_info *info) {
    libraw_data_t *d = raw->data;
    memset(info, 0, sizeof(*info));
    info->raw_width = d->sizes.raw_width;
    info->raw_height = d->sizes.raw_height;
    int width = d->sizes.width, height = d->sizes.height;
    double aspect = d->sizes.pixel_aspect;
    info->flip = d->sizes.flip;
    info->colors = d->idata.colors;
    info->filters = d->idata.filters;
    info->is_foveon = d->idata.is_foveon != 0;
    info->is_xtrans = d->idata.filters == 9;
    info->dng_version = (int)d->idata.dng_version;
    copy_string(info->make, sizeof(info->make), d->idata.make, sizeof(d->idata.make));
    copy_string(info->model, sizeof(info->model), d->idata.model, sizeof(d->idata.model));
    copy_string(info->software, sizeof(info->software), d->idata.software, sizeof(d->idata.software));
    copy_string(info->lens, sizeof(info->lens), d->lens.Lens, sizeof(d->lens.Lens));
    copy_string(info->artist, sizeof(info->artist), d->other.artist, sizeof(d->other.artist));
    info->iso = d->other.iso_speed;
    info->shutter = d->other.shutter;
    info->aperture = d->other.aperture;
    info->focal_length = d->other.focal_len;
    info->timestamp = (int64_t)d->other.timestamp;
    info->thumb_format = d->thumbnail.tformat;
    info->thumb_width = d->thumbnail.twidth;
    info->thumb_height = d->thumbnail.theight;
    info->thumb_length = d->thumbnail.tlength;
    const libraw_gps_info_t *gps = &d->other.parsed_gps;
    if (gps->gpsparsed && (gps->latref == 'N' || gps->latref == 'S') && (gps->longref == 'E' || gps->longref == 'W')) {
        info->has_gps = 1;
        info->latitude = degrees(gps->latitude) * (gps->latref == 'S' ? -1 : 1);
        info->longitude = degrees(gps->longitude) * (gps->longref == 'W' ? -1 : 1);
        info->altitude = gps->altitude * (gps->altref == 1 ? -1 : 1);
    }
    for (int c = 0; c < 4; c++) {
        for (int k = 0; k < 3; k++) {
            info->cam_xyz[c][k] = d->color.cam_xyz[c][k];
        }
        info->cam_mul[c] = d->color.cam_mul[c];
        info->pre_mul[c] = d->color.pre_mul[c];
    }
    /* The developed size: LibRaw's own computation of the pixel-aspect stretch and Fuji's rotation. It changes the
     * handle's sizes, so it is the last thing read; the caller closes this handle and opens another to decode. */
    libraw_adjust_sizes_info_only(d);
    /* It gives the size after the flip too; Sepia applies the flip itself, as an orientation. */
    int swapped = (info->flip & 4) != 0;
    info->width = swapped ? d->sizes.iheight : d->sizes.iwidth;
    info->height = swapped ? d->sizes.iwidth : d->sizes.iheight;
    /* Half size skips demosaicing: each 2x2 block of a Bayer sensor becomes one pixel. It is offered only where
     * the developed size is the sensor's (no stretch, no rotation), so that it is known without developing. */
    if (d->idata.filters > 1000 && fabs(aspect - 1.0) < 1e-6 && info->width == width && info->height == height) {
        info->half_width = (width + 1) >> 1;
        info->half_height = (height + 1) >> 1;
    }
}

int sepia_raw_thumbnail(sepia_raw *raw, const uint8_t **bytes, size_t *length, int *format, int *width, int *height) {
    int status = libraw_unpack_thumb(raw->data);
    if (status != LIBRAW_SUCCESS) {
        return status;
    }
    libraw_thumbnail_t *t = &raw->data->thumbnail;
    if (t->thumb == NULL || t->tlength == 0) {
        return LIBRAW_NO_THUMBNAIL;
    }
    *bytes = (const uint8_t *)t->thumb;
    *length = t->tlength;
    *format = t->tformat;
    *width = t->twidth;
    *height = t->theight;
    return 0;
}

/* Sets LibRaw's parameters for a development. */
static void set_options(sepia_raw *raw, const sepia_raw_develop_options *options) {
    libraw_output_params_t *p = &raw->data->params;
    p->half_size = options->half_size;
    p->user_qual = options->quality;
    p->use_camera_wb = options->use_camera_wb;
    for (int i = 0; i < 4; i++) {
        p->user_mul[i] = options->use_camera_wb ? 0 : options->user_mul[i];
    }
    p->threshold = options->noise_threshold;
    p->highlight = options->highlight;
    p->output_color = 1; /* sRGB primaries */
    p->output_bps = 16;
    p->gamm[0] = 1.0;
    p->gamm[1] = 1.0;
    p->no_auto_bright = 1;
    p->use_fuji_rotate = 1;
}

static int unpack(sepia_raw *raw) {
    if (raw->unpacked) {
        return LIBRAW_SUCCESS;
    }
    int status = libraw_unpack(raw->data);
    if (status == LIBRAW_SUCCESS) {
        raw->unpacked = 1;
    }
    return status;
}

int sepia_raw_develop(sepia_raw *raw, const sepia_raw_develop_options *options) {
    set_options(raw, options);
    int status = unpack(raw);
    if (status != LIBRAW_SUCCESS) {
        return status;
    }
    raw->half_prepared = 0;
    raw->release_sensor_data = 1;
    status = libraw_dcraw_process(raw->data);
    raw->release_sensor_data = 0;
    return status;
}

const uint16_t *sepia_raw_image(sepia_raw *raw, int *width, int *height) {
    *width = raw->data->sizes.iwidth;
    *height = raw->data->sizes.iheight;
    return raw->data->image != NULL ? &raw->data->image[0][0] : NULL;
}

/*
 * Sepia's half-size development. LibRaw's dcraw_process with half_size copies the sensor data into a developed
 * image of a pixel for each 2x2 block (46 MiB for 24 megapixels, beside the 46 MiB of sensor data) and works on it
 * in place: black level (raw2image_ex, adjust_bl), adjust_maximum, scale_colors, pre_interpolate's and
 * dcraw_process's averaging of the two greens (mix_green), convert_to_rgb. For a Bayer sensor with a 2x2 pattern
 * each of these is a function of one block and of constants computed from the whole file, so the constants are
 * computed here (with LibRaw 0.20's arithmetic, in the same float and integer types, so that the pixels are LibRaw's
 * to the bit) and the pixels made a row at a time when asked. Everything else (other sensors, noise reduction,
 * highlight recovery, LibRaw options Sepia never sets) is left to LibRaw.
 */

/* No fused multiply-adds: LibRaw's own build computes each product and sum apart. */
#pragma STDC FP_CONTRACT OFF

/* dcraw's FC: the colour of a sensor place from the filter pattern. */
static int filter_color(unsigned filters, int row, int col) {
    return (int)(filters >> ((((row) << 1 & 14) + ((col) & 1)) << 1) & 3);
}

/* A float as LibRaw stores it into 16 bits: truncated towards zero, then clipped (CLIP((int)value)); out-of-range
 * and NaN values, which LibRaw's conversion leaves undefined, are clipped too. */
static inline int clip16(float value) {
    value = value > 0.0f ? value : 0.0f; /* NaN too */
    value = value < 65535.0f ? value : 65535.0f;
    return (int)value;
}

int sepia_raw_prepare_half(sepia_raw *raw, const sepia_raw_develop_options *options, int *width, int *height) {
    libraw_data_t *d = raw->data;
    raw->half_prepared = 0;
    set_options(raw, options);
    int status = unpack(raw);
    if (status != LIBRAW_SUCCESS) {
        return status;
    }
    const libraw_rawdata_t *rd = &d->rawdata;
    const libraw_image_sizes_t *sizes = &rd->sizes;
    const libraw_colordata_t *color = &rd->color;
    const libraw_output_params_t *p = &d->params;
    unsigned filters = rd->iparams.filters;

    /* What dcraw_process would do differently from the steps below: left to it. */
    if (!options->half_size || options->noise_threshold > 0 || options->highlight != 0) {
        return 1;
    }
    if (rd->iparams.is_foveon || rd->iparams.colors != 3 || filters <= 1000 || (filters & 0xffu) * 0x01010101u != filters) {
        return 1;
    }
    if (rd->raw_image == NULL || rd->raw_alloc != (void *)rd->raw_image || sizes->raw_pitch != 2u * sizes->raw_width) {
        return 1;
    }
    if (rd->ioparams.fuji_width || rd->ioparams.zero_is_bad || sizes->pixel_aspect != 1.0 || color->as_shot_wb_applied) {
        return 1;
    }
    if (p->four_color_rgb || p->user_black >= 0 || p->user_sat > 0 || p->bad_pixels != NULL || p->dark_frame != NULL ||
        p->aber[0] != 1 || p->aber[2] != 1 || p->exp_correc > 0 || p->med_passes > 0 || p->camera_profile != NULL ||
        p->use_auto_wb || p->no_auto_scale || (~p->cropbox[2] && ~p->cropbox[3]) || p->output_color != 1) {
        return 1;
    }
    for (int i = 0; i < 4; i++) {
        if (p->user_cblack[i] > -1000000) {
            return 1;
        }
    }
    /* The camera's white balance asked for and none recorded: LibRaw measures a grey-world balance instead. */
    if (p->use_camera_wb && (color->cam_mul[0] < -0.5f || (color->cam_mul[0] <= 0.00001f &&
                                                          !(p->raw_processing_options & LIBRAW_PROCESSING_CAMERAWB_FALLBACK_TO_DAYLIGHT)))) {
        return 1;
    }
    libraw_decoder_info_t decoder;
    memset(&decoder, 0, sizeof(decoder));
    if (libraw_get_decoder_info(d, &decoder) != LIBRAW_SUCCESS) {
        return 1;
    }
    if (decoder.decoder_name != NULL &&
        (strncmp(decoder.decoder_name, "phase_one_load_raw", 18) == 0 || strncmp(decoder.decoder_name, "canon_600_load_raw", 18) == 0)) {
        return 1;
    }
    /* Each place of a 2x2 block a different colour of R, G, B, G2 (filters repeat every two rows). */
    half_development h;
    memset(&h, 0, sizeof(h));
    int seen = 0;
    for (int r = 0; r < 2; r++) {
        for (int c = 0; c < 2; c++) {
            h.color[r][c] = filter_color(filters, r, c);
            seen |= 1 << h.color[r][c];
        }
    }
    if (seen != 15) {
        return 1;
    }

    /* raw2image_ex: the sizes, and the part of the image inside the sensor data. */
    h.width = (sizes->width + 1) >> 1;
    h.height = (sizes->height + 1) >> 1;
    if (h.width <= 0 || h.height <= 0) {
        return 1;
    }
    h.sensor = rd->raw_image;
    h.pitch = sizes->raw_width;
    h.top = sizes->top_margin;
    h.left = sizes->left_margin;
    h.rows = (int)sizes->height < (int)sizes->raw_height - h.top ? (int)sizes->height : (int)sizes->raw_height - h.top;
    h.columns = (int)sizes->width < (int)sizes->raw_width - h.left ? (int)sizes->width : (int)sizes->raw_width - h.left;
    if (h.rows < 0) {
        h.rows = 0;
    }
    if (h.columns < 0) {
        h.columns = 0;
    }

    /* adjust_bl: the 2x2 black pattern folded into the four colours' levels, their common part into black. */
    unsigned cblack[6];
    for (int i = 0; i < 6; i++) {
        cblack[i] = color->cblack[i];
    }
    unsigned black = color->black;
    if ((cblack[4] + 1) / 2 == 1 && (cblack[5] + 1) / 2 == 1) {
        int places[4], last_green = -1, greens = 0;
        for (int c = 0; c < 4; c++) {
            places[c] = filter_color(filters, c / 2, c % 2);
            if (places[c] == 1) {
                greens++;
                last_green = c;
            }
        }
        if (greens > 1 && last_green >= 0) {
            places[last_green] = 3;
        }
        for (int c = 0; c < 4; c++) {
            cblack[places[c]] += color->cblack[6 + c / 2 % cblack[4] * cblack[5] + c % 2 % cblack[5]];
        }
        cblack[4] = cblack[5] = 0;
    } else if (cblack[4] && cblack[5]) {
        /* A larger black pattern, which LibRaw subtracts per pixel of the developed image: left to it. */
        return 1;
    }
    int common = (int)cblack[3];
    for (int c = 0; c < 3; c++) {
        if (common > (int)cblack[c]) {
            common = (int)cblack[c];
        }
    }
    for (int c = 0; c < 4; c++) {
        cblack[c] -= (unsigned)common;
    }
    black += (unsigned)common;
    for (int c = 0; c < 4; c++) {
        cblack[c] += black;
        h.black[c] = (uint16_t)cblack[c];
    }
    unsigned maximum = color->maximum - black;

    /* copy_bayer's data maximum: the largest sample above its black level, less the black level. */
    unsigned data_maximum = 0;
    for (int row = 0; row < h.rows; row++) {
        const uint16_t *line = h.sensor + (size_t)(row + h.top) * h.pitch + h.left;
        uint16_t even = 0, odd = 0;
        int col = 0;
        for (; col + 1 < h.columns; col += 2) {
            even = line[col] > even ? line[col] : even;
            odd = line[col + 1] > odd ? line[col + 1] : odd;
        }
        if (col < h.columns) {
            even = line[col] > even ? line[col] : even;
        }
        uint16_t b0 = h.black[h.color[row & 1][0]], b1 = h.black[h.color[row & 1][1]];
        if (even > b0 && (unsigned)(uint16_t)(even - b0) > data_maximum) {
            data_maximum = (uint16_t)(even - b0);
        }
        if (odd > b1 && (unsigned)(uint16_t)(odd - b1) > data_maximum) {
            data_maximum = (uint16_t)(odd - b1);
        }
    }

    /* adjust_maximum: a white level the data never reaches is lowered to the data's maximum. */
    if (!(decoder.decoder_flags & LIBRAW_DECODER_FIXEDMAXC) && p->adjust_maximum_thr >= 0.00001) {
        float threshold = p->adjust_maximum_thr > 0.99999 ? (float)LIBRAW_DEFAULT_ADJUST_MAXIMUM_THRESHOLD : p->adjust_maximum_thr;
        uint16_t real_max = (uint16_t)data_maximum;
        if (real_max > 0 && real_max < maximum && real_max > maximum * threshold) {
            maximum = real_max;
        }
    }

    /* scale_colors: the white balance's multipliers, the smallest made 1, and the white level scaled to 65535. */
    float pre_mul[4];
    memcpy(pre_mul, color->pre_mul, sizeof(pre_mul));
    if (p->user_mul[0] != 0) {
        memcpy(pre_mul, p->user_mul, sizeof(pre_mul));
    }
    if (p->use_camera_wb && color->cam_mul[0] > 0.00001f) {
        unsigned sum[8] = {0};
        for (int row = 0; row < 8; row++) {
            for (int col = 0; col < 8; col++) {
                int c = filter_color(filters, row, col);
                int value = color->white[row][col]; /* the black level is subtracted already */
                if (value > 0) {
                    sum[c] += (unsigned)value;
                }
                sum[c + 4]++;
            }
        }
        if (sum[0] && sum[1] && sum[2] && sum[3]) {
            for (int c = 0; c < 4; c++) {
                pre_mul[c] = (float)sum[c + 4] / sum[c];
            }
        } else if (color->cam_mul[0] > 0.00001f && color->cam_mul[2] > 0.00001f) {
            memcpy(pre_mul, color->cam_mul, sizeof(pre_mul));
        } else {
            d->process_warnings |= LIBRAW_WARN_BAD_CAMERA_WB;
        }
    }
    if (pre_mul[1] == 0) {
        pre_mul[1] = 1;
    }
    if (pre_mul[3] == 0) {
        pre_mul[3] = pre_mul[1];
    }
    double smallest = DBL_MAX;
    for (int c = 0; c < 4; c++) {
        if (smallest > pre_mul[c]) {
            smallest = pre_mul[c];
        }
    }
    for (int c = 0; c < 4; c++) {
        if (smallest > 0.00001 && maximum > 0) {
            pre_mul[c] = (float)(pre_mul[c] / smallest);
            h.scale[c] = (float)(pre_mul[c] * 65535.0 / maximum);
        } else {
            h.scale[c] = 1.0f;
        }
    }

    /* convert_to_rgb: sRGB's primaries (LibRaw's rgb_rgb, the identity) times the camera's rgb_cam. */
    h.raw_color = rd->ioparams.raw_color != 0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            float value = 0;
            for (int k = 0; k < 3; k++) {
                value = (float)(value + (i == k ? 1.0 : 0.0) * color->rgb_cam[k][j]);
            }
            h.matrix[i][j] = value;
        }
    }
    raw->half = h;
    raw->half_prepared = 1;
    raw->half_released = 0;
    *width = h.width;
    *height = h.height;
    return 0;
}

#define SEPIA_ALWAYS_INLINE static inline __attribute__((always_inline))

/* The constants of a development, as locals of the loops (the output's 16-bit stores could otherwise alias them). */
typedef struct {
    float scale[4];
    float m[3][3];
    int black[4];
    int raw_color;
} block_constants;

/* One developed pixel from a block's four samples less their black level, by place (row-major; 0 where the block
 * has no sample), `red` and `blue` the places of those colours; the other two are the greens. */
SEPIA_ALWAYS_INLINE void develop_block(const block_constants *k, const int v[4], int red, int blue, uint16_t *out) {
    /* scale_colors_loop: each sample times its colour's multiplier, truncated and clipped to 16 bits. */
    int s0 = clip16((float)v[0] * k->scale[0]);
    int s1 = clip16((float)v[1] * k->scale[1]);
    int s2 = clip16((float)v[2] * k->scale[2]);
    int s3 = clip16((float)v[3] * k->scale[3]);
    int s[4] = {s0, s1, s2, s3};
    int r = s[red], b = s[blue];
    /* mix_green: the two greens' mean, rounded down. */
    int g = (s0 + s1 + s2 + s3 - r - b) >> 1;
    if (k->raw_color) {
        out[0] = (uint16_t)r;
        out[1] = (uint16_t)g;
        out[2] = (uint16_t)b;
    } else {
        /* convert_to_rgb_loop */
        float fr = (float)r, fg = (float)g, fb = (float)b;
        out[0] = (uint16_t)clip16(k->m[0][0] * fr + k->m[0][1] * fg + k->m[0][2] * fb);
        out[1] = (uint16_t)clip16(k->m[1][0] * fr + k->m[1][1] * fg + k->m[1][2] * fb);
        out[2] = (uint16_t)clip16(k->m[2][0] * fr + k->m[2][1] * fg + k->m[2][2] * fb);
    }
    out[3] = 0xFFFF;
}

SEPIA_ALWAYS_INLINE int less_black(int sample, int black) { return sample > black ? sample - black : 0; }

/* Developed row `y` (0 ≤ y < height) into `out`: its first `n` pixels (at most the width), 4 samples each; red and
 * blue at places `red` and `blue` of a block (constants where it is inlined, for a loop without lookups). */
SEPIA_ALWAYS_INLINE void develop_row_with(const half_development *h, int y, uint16_t *out, int n, int red, int blue) {
    block_constants k;
    for (int p = 0; p < 4; p++) {
        int c = h->color[p >> 1][p & 1];
        k.scale[p] = h->scale[c];
        k.black[p] = h->black[c];
    }
    memcpy(k.m, h->matrix, sizeof(k.m));
    k.raw_color = h->raw_color;
    int r0 = 2 * y, r1 = 2 * y + 1;
    const uint16_t *line0 = r0 < h->rows ? h->sensor + (size_t)(r0 + h->top) * h->pitch + h->left : NULL;
    const uint16_t *line1 = r1 < h->rows ? h->sensor + (size_t)(r1 + h->top) * h->pitch + h->left : NULL;
    int x = 0;
    if (n > h->width) {
        n = h->width;
    }
    if (line0 != NULL && line1 != NULL) {
        /* Whole blocks. */
        int whole = h->columns / 2 < n ? h->columns / 2 : n;
        for (; x < whole; x++) {
            int v[4] = {less_black(line0[2 * x], k.black[0]), less_black(line0[2 * x + 1], k.black[1]),
                        less_black(line1[2 * x], k.black[2]), less_black(line1[2 * x + 1], k.black[3])};
            develop_block(&k, v, red, blue, out + 4 * (size_t)x);
        }
    }
    for (; x < n; x++) {
        int col0 = 2 * x, col1 = 2 * x + 1;
        int v[4] = {0, 0, 0, 0};
        if (line0 != NULL && col0 < h->columns) {
            v[0] = less_black(line0[col0], k.black[0]);
        }
        if (line0 != NULL && col1 < h->columns) {
            v[1] = less_black(line0[col1], k.black[1]);
        }
        if (line1 != NULL && col0 < h->columns) {
            v[2] = less_black(line1[col0], k.black[2]);
        }
        if (line1 != NULL && col1 < h->columns) {
            v[3] = less_black(line1[col1], k.black[3]);
        }
        develop_block(&k, v, red, blue, out + 4 * (size_t)x);
    }
}

static void develop_row(const half_development *h, int y, uint16_t *out, int n) {
    int red = 0, blue = 0;
    for (int p = 0; p < 4; p++) {
        if (h->color[p >> 1][p & 1] == 0) {
            red = p;
        } else if (h->color[p >> 1][p & 1] == 2) {
            blue = p;
        }
    }
    /* The four Bayer layouts (RGGB, BGGR, GRBG, GBRG), each with its own loop; any other order of the colours
     * in a block looks them up. */
    if (red == 0 && blue == 3) {
        develop_row_with(h, y, out, n, 0, 3);
    } else if (red == 3 && blue == 0) {
        develop_row_with(h, y, out, n, 3, 0);
    } else if (red == 1 && blue == 2) {
        develop_row_with(h, y, out, n, 1, 2);
    } else if (red == 2 && blue == 1) {
        develop_row_with(h, y, out, n, 2, 1);
    } else {
        develop_row_with(h, y, out, n, red, blue);
    }
}

/* A share of the histogram's rows, counted by one thread into its own counters. */
typedef struct {
    const half_development *h;
    int first, end;
    uint32_t *counts;
    int failed;
} histogram_share;

static void *count_share(void *context) {
    histogram_share *share = context;
    const half_development *h = share->h;
    uint16_t *line = malloc((size_t)h->width * 4 * sizeof(uint16_t));
    if (line == NULL) {
        share->failed = 1;
        return NULL;
    }
    uint32_t *counts = share->counts;
    for (int y = share->first; y < share->end; y++) {
        develop_row(h, y, line, h->width);
        for (int x = 0; x < h->width; x++) {
            const uint16_t *p = line + 4 * (size_t)x;
            counts[p[0] >> 3]++;
            counts[8192 + (p[1] >> 3)]++;
            counts[16384 + (p[2] >> 3)]++;
        }
    }
    free(line);
    return NULL;
}

int sepia_raw_half_histogram(sepia_raw *raw, uint32_t *counts) {
    if (!raw->half_prepared) {
        return 0;
    }
    const half_development *h = &raw->half;
    /* The whole image is developed once for its histogram before the first row can be given: on two threads
     * where there are two processors (the engine waits for the decoder meanwhile). */
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    histogram_share other = {h, h->height / 2, h->height, NULL, 0};
    pthread_t thread;
    int threaded = 0;
    if (processors >= 2 && h->height >= 64) {
        other.counts = calloc(3 * 8192, sizeof(uint32_t));
        threaded = other.counts != NULL && pthread_create(&thread, NULL, count_share, &other) == 0;
    }
    histogram_share mine = {h, 0, threaded ? other.first : h->height, counts, 0};
    count_share(&mine);
    if (threaded) {
        pthread_join(thread, NULL);
        if (other.failed) {
            histogram_share rest = {h, other.first, other.end, counts, 0};
            count_share(&rest);
            mine.failed |= rest.failed;
        } else {
            for (int i = 0; i < 3 * 8192; i++) {
                counts[i] += other.counts[i];
            }
        }
    }
    free(other.counts);
    return mine.failed ? LIBRAW_UNSUFFICIENT_MEMORY : 0;
}

void sepia_raw_half_rows(sepia_raw *raw, int first, int count, uint16_t *out, size_t stride, int width) {
    if (!raw->half_prepared || count <= 0 || width <= 0) {
        return;
    }
    const half_development *h = &raw->half;
    for (int i = 0; i < count; i++) {
        int y = first + i < h->height ? first + i : h->height - 1;
        if (y < 0) {
            y = 0;
        }
        uint16_t *row = out + (size_t)i * stride;
        develop_row(h, y, row, width);
        for (int x = h->width; x < width; x++) {
            memcpy(row + 4 * (size_t)x, row + 4 * (size_t)(h->width - 1), 4 * sizeof(uint16_t));
        }
    }
    /* The rows are asked for in order, once (a row past the last repeats the last): the sensor rows above the
     * next developed row are read no more, and their whole pages are given back, so that the sensor data shrinks
     * as the render's own buffers grow. The allocation stays LibRaw's; a page given back would read as zeros. */
    int next = first + count < h->height ? first + count : h->height - 1;
    if (next > 0 && next < h->height) {
        long page = sysconf(_SC_PAGESIZE);
        int sensor_row = 2 * next + h->top;
        if (sensor_row > h->top + h->rows) {
            sensor_row = h->top + h->rows; /* never past the rows inside the sensor data */
        }
        if (page > 0 && sensor_row > 0) {
            uintptr_t base = (uintptr_t)h->sensor, mask = (uintptr_t)page - 1;
            /* From the first whole page of the data, or where the last call stopped (a page boundary). */
            uintptr_t start = (base + mask) & ~mask;
            if (base + raw->half_released > start) {
                start = base + raw->half_released;
            }
            uintptr_t end = (base + (size_t)sensor_row * h->pitch * sizeof(uint16_t)) & ~mask;
            if (end > start) {
                madvise((void *)start, end - start, MADV_DONTNEED);
                raw->half_released = end - base;
            }
        }
    }
}
