/*
 * A small C layer over LibRaw's C API: opening bytes with limits and a deadline, reading what identification
 * found into one flat struct, the embedded preview and the developed image. LibRaw's own structs stay here.
 */
#include "sepia_raw.h"
#include "raw_functions.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct sepia_raw {
    libraw_data_t *data;
    double deadline;
    int data_errors;
    /* Set while developing: the sensor data's pages are given back once LibRaw has copied it. */
    int release_sensor_data;
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

int sepia_raw_develop(sepia_raw *raw, const sepia_raw_develop_options *options) {
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
    int status = libraw_unpack(raw->data);
    if (status != LIBRAW_SUCCESS) {
        return status;
    }
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
