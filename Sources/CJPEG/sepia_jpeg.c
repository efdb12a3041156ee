#include "sepia_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "error_mgr.h"
#include "scan_lanes.h"
#include "scan_map.h"

/* MARK: - Decoder */

typedef struct sepia_progress_mgr {
    struct jpeg_progress_mgr pub;
    int max_scans;
} sepia_progress_mgr;

struct sepia_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    sepia_error_mgr err;
    sepia_progress_mgr progress;
    int created;
    int finished;
    /* The parts of the file read when only the DC scans of a progressive file are; owned. */
    sepia_byte_range *dc_ranges;
    sepia_range_source dc_source;
    /* The second thread of a progressive decode, when it has one; owned. */
    sepia_scan_lanes *lanes;
};

/*
 * Which scans a 1/8-scale decode of a mapped progressive file needs, into `keep`; returns 0 when the shortcut
 * does not apply. At 1/8 scale libjpeg reduces each block of a full-resolution component (luma) with a 1x1
 * inverse DCT, which reads only the DC coefficient, so that component's AC scans, most of the file, need not be
 * Huffman-decoded at all. A subsampled component (the chroma of 4:2:0 files) is reduced by a 2x2 or larger DCT,
 * which reads AC terms, so its scans are kept and the result is exactly the full decode's.
 */
static int sepia_jpeg_dc_only_scans(const sepia_scan_map *map, unsigned char *keep) {
    int dropped = 0, kept = 0;
    for (int s = 0; s < map->scan_count; s++) {
        const sepia_scan *scan = &map->scans[s];
        if (scan->ss == 0) {
            keep[s] = 1;
        } else if (scan->component_count != 1) {
            return 0;
        } else {
            int c = scan->components[0];
            keep[s] = map->h[c] != map->max_h || map->v[c] != map->max_v;
        }
        kept += keep[s];
        dropped += !keep[s];
    }
    return dropped > 0 && kept > 0;
}

/* Sets `cinfo` to read only the DC scans a 1/8-scale decode needs; returns 0 when it reads the whole file. */
static int sepia_jpeg_read_dc_only(sepia_jpeg_decoder *decoder, const unsigned char *data, size_t size,
                                   int max_scans) {
    sepia_scan_map map;
    if (sepia_scan_map_parse(data, size, max_scans, &map) != 0) {
        return 0;
    }
    unsigned char *keep = malloc((size_t)map.scan_count);
    decoder->dc_ranges = malloc((size_t)(map.scan_count + 1) * sizeof(sepia_byte_range));
    int used = keep != NULL && decoder->dc_ranges != NULL && sepia_jpeg_dc_only_scans(&map, keep);
    if (used) {
        int count = sepia_scan_map_ranges(&map, data, keep, decoder->dc_ranges);
        sepia_range_source_install(&decoder->cinfo, &decoder->dc_source, decoder->dc_ranges, count);
    }
    free(keep);
    sepia_scan_map_free(&map);
    return used;
}

/* Progressive files can declare thousands of scans, each a full pass over the coefficients. */
static void sepia_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) {
        return;
    }
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    sepia_progress_mgr *progress = (sepia_progress_mgr *)cinfo->progress;
    if (dinfo->progressive_mode && dinfo->input_scan_number > progress->max_scans) {
        sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
        snprintf(err->error, sizeof(err->error), "progressive JPEG has more than %d scans", progress->max_scans);
        longjmp(err->jump, 1);
    }
}

int sepia_jpeg_decoder_create(const unsigned char *data, size_t size, int scale_denom, int strict, int dc_only,
                              int threads, unsigned long max_memory, int max_scans, sepia_jpeg_decoder **out,
                              sepia_jpeg_header *header, char *message, size_t message_size) {
    *out = NULL;
    sepia_jpeg_decoder *decoder = (sepia_jpeg_decoder *)calloc(1, sizeof(sepia_jpeg_decoder));
    if (decoder == NULL) {
        sepia_copy(message, message_size, "out of memory");
        return SEPIA_JPEG_ERROR;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    sepia_install_error_mgr(&decoder->err, strict);
    cinfo->err = &decoder->err.pub;
    if (setjmp(decoder->err.jump)) {
        sepia_scan_lanes_settle(decoder->lanes, cinfo);
        int code = sepia_failure(&decoder->err, message, message_size);
        sepia_jpeg_decoder_destroy(decoder);
        return code;
    }
    jpeg_create_decompress(cinfo);
    decoder->created = 1;
    if (max_memory > 0) {
        cinfo->mem->max_memory_to_use = (long)max_memory;
    }
    decoder->progress.pub.progress_monitor = sepia_progress_monitor;
    decoder->progress.max_scans = max_scans > 0 ? max_scans : 1000;
    cinfo->progress = &decoder->progress.pub;

    int reads_dc_only = dc_only && scale_denom == 8 && !strict && sepia_jpeg_read_dc_only(decoder, data, size, max_scans);
    if (!reads_dc_only && threads > 1) {
        sepia_scan_map map;
        if (sepia_scan_map_parse(data, size, decoder->progress.max_scans, &map) == 0) {
            decoder->lanes = sepia_scan_lanes_plan(&map, data, strict);
        }
    }
    if (decoder->lanes != NULL) {
        sepia_scan_lanes_attach(decoder->lanes, cinfo);
    } else if (!reads_dc_only) {
        jpeg_mem_src(cinfo, data, (unsigned long)size);
    }
    jpeg_read_header(cinfo, TRUE);

    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo->out_color_space = JCS_GRAYSCALE;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        break;
    default:
        cinfo->out_color_space = JCS_EXT_RGB;
        break;
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)(scale_denom > 0 ? scale_denom : 1);
    cinfo->dct_method = JDCT_ISLOW;
    if (reads_dc_only) {
        /* Smoothing would estimate the skipped AC terms of the luma blocks' neighbours from their DC values,
         * work whose result the 1x1 inverse DCT never reads. */
        cinfo->do_block_smoothing = FALSE;
    }
    if (decoder->lanes != NULL) {
        /* Buffered-image mode stops between reading the scans and the output pass, where the lanes meet. The
         * progression is complete, so smoothing would change nothing, and it would judge by lane A's scans. */
        cinfo->buffered_image = TRUE;
        cinfo->do_block_smoothing = FALSE;
        jpeg_start_decompress(cinfo);
        sepia_scan_lanes_run(decoder->lanes, cinfo);
        jpeg_start_output(cinfo, cinfo->input_scan_number);
    } else {
        jpeg_start_decompress(cinfo);
    }

    header->image_width = (int)cinfo->image_width;
    header->image_height = (int)cinfo->image_height;
    header->output_width = (int)cinfo->output_width;
    header->output_height = (int)cinfo->output_height;
    header->num_components = cinfo->num_components;
    header->output_components = cinfo->output_components;
    header->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    header->progressive = cinfo->progressive_mode ? 1 : 0;
    header->arithmetic = cinfo->arith_code ? 1 : 0;
    header->data_precision = cinfo->data_precision;
    *out = decoder;
    return SEPIA_JPEG_OK;
}

int sepia_jpeg_decoder_read_rows(sepia_jpeg_decoder *decoder, unsigned char *dest, size_t row_stride,
                                 int max_rows, int *rows_read, char *message, size_t message_size) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    *rows_read = 0;
    if (setjmp(decoder->err.jump)) {
        return sepia_failure(&decoder->err, message, message_size);
    }
    int done = 0;
    while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[16];
        int want = max_rows - done;
        if (want > 16) {
            want = 16;
        }
        for (int i = 0; i < want; i++) {
            rows[i] = dest + (size_t)(done + i) * row_stride;
        }
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)want);
        if (got == 0) {
            break;
        }
        done += (int)got;
    }
    *rows_read = done;
    if (cinfo->output_scanline >= cinfo->output_height && !decoder->finished) {
        decoder->finished = 1;
        if (cinfo->buffered_image) {
            jpeg_finish_output(cinfo);
        }
        /* Reads to EOI so that trailing corruption is reported too. */
        jpeg_finish_decompress(cinfo);
    }
    return SEPIA_JPEG_OK;
}

int sepia_jpeg_decoder_scan_threads(const sepia_jpeg_decoder *decoder) {
    return decoder->lanes != NULL ? 2 : 1;
}

int sepia_jpeg_decoder_warning_count(const sepia_jpeg_decoder *decoder) {
    return decoder->err.warning_count;
}

void sepia_jpeg_decoder_first_warning(const sepia_jpeg_decoder *decoder, char *message, size_t message_size) {
    sepia_copy(message, message_size, decoder->err.first_warning);
}

void sepia_jpeg_decoder_destroy(sepia_jpeg_decoder *decoder) {
    if (decoder == NULL) {
        return;
    }
    /* Lane B writes into this decompressor's buffers: it stops first. */
    sepia_scan_lanes_destroy(decoder->lanes);
    if (decoder->created) {
        jpeg_destroy_decompress(&decoder->cinfo);
    }
    free(decoder->dc_ranges);
    free(decoder);
}

/* MARK: - Encoder */

/*
 * The encoder's output: a buffer the encoder owns from its creation to its destruction, grown by doubling.
 * libjpeg's own memory destination (jpeg_mem_dest) is not used: when its output outgrows the first buffer it frees
 * that buffer and hands the current one back only in jpeg_finish_compress, so an encoder torn down before its end
 * (the render failed, or its client left) would free the first buffer a second time and leak the current one.
 */
typedef struct sepia_growing_destination {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t capacity;
    /* Bytes written, set when the encode finishes. */
    size_t size;
} sepia_growing_destination;

struct sepia_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    sepia_error_mgr err;
    sepia_growing_destination destination;
    int created;
    int finished;
};

static void sepia_destination_init(j_compress_ptr cinfo) {
    sepia_growing_destination *destination = (sepia_growing_destination *)cinfo->dest;
    destination->pub.next_output_byte = destination->buffer;
    destination->pub.free_in_buffer = destination->capacity;
}

static boolean sepia_destination_empty(j_compress_ptr cinfo) {
    /* libjpeg calls this when the buffer is full (free_in_buffer is 0), whatever next_output_byte says. */
    sepia_growing_destination *destination = (sepia_growing_destination *)cinfo->dest;
    size_t used = destination->capacity;
    size_t capacity = used * 2;
    if (capacity < used) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
    }
    unsigned char *grown = (unsigned char *)realloc(destination->buffer, capacity);
    if (grown == NULL) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
    }
    destination->buffer = grown;
    destination->capacity = capacity;
    destination->pub.next_output_byte = grown + used;
    destination->pub.free_in_buffer = capacity - used;
    return TRUE;
}

static void sepia_destination_term(j_compress_ptr cinfo) {
    sepia_growing_destination *destination = (sepia_growing_destination *)cinfo->dest;
    destination->size = destination->capacity - destination->pub.free_in_buffer;
}

int sepia_jpeg_encoder_create(int width, int height, int components, int quality, int subsampling,
                              int progressive, int optimize_coding, sepia_jpeg_encoder **out,
                              char *message, size_t message_size) {
    *out = NULL;
    sepia_jpeg_encoder *encoder = (sepia_jpeg_encoder *)calloc(1, sizeof(sepia_jpeg_encoder));
    if (encoder == NULL) {
        sepia_copy(message, message_size, "out of memory");
        return SEPIA_JPEG_ERROR;
    }
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    sepia_install_error_mgr(&encoder->err, 0);
    cinfo->err = &encoder->err.pub;
    if (setjmp(encoder->err.jump)) {
        int code = sepia_failure(&encoder->err, message, message_size);
        sepia_jpeg_encoder_destroy(encoder);
        return code;
    }
    jpeg_create_compress(cinfo);
    encoder->created = 1;
    encoder->destination.capacity = 64 * 1024;
    encoder->destination.buffer = (unsigned char *)malloc(encoder->destination.capacity);
    if (encoder->destination.buffer == NULL) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    }
    encoder->destination.pub.init_destination = sepia_destination_init;
    encoder->destination.pub.empty_output_buffer = sepia_destination_empty;
    encoder->destination.pub.term_destination = sepia_destination_term;
    cinfo->dest = &encoder->destination.pub;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = components;
    cinfo->in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_EXT_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    if (components == 3) {
        int h = 2, v = 2;
        if (subsampling == 444) {
            h = 1;
            v = 1;
        } else if (subsampling == 422) {
            h = 2;
            v = 1;
        }
        cinfo->comp_info[0].h_samp_factor = h;
        cinfo->comp_info[0].v_samp_factor = v;
        cinfo->comp_info[1].h_samp_factor = 1;
        cinfo->comp_info[1].v_samp_factor = 1;
        cinfo->comp_info[2].h_samp_factor = 1;
        cinfo->comp_info[2].v_samp_factor = 1;
    }
    cinfo->optimize_coding = optimize_coding ? TRUE : FALSE;
    cinfo->dct_method = JDCT_ISLOW;
    if (progressive) {
        jpeg_simple_progression(cinfo);
    }
    jpeg_start_compress(cinfo, TRUE);
    *out = encoder;
    return SEPIA_JPEG_OK;
}

int sepia_jpeg_encoder_write_rows(sepia_jpeg_encoder *encoder, const unsigned char *src, size_t row_stride,
                                  int rows, char *message, size_t message_size) {
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    if (setjmp(encoder->err.jump)) {
        return sepia_failure(&encoder->err, message, message_size);
    }
    int done = 0;
    while (done < rows) {
        JSAMPROW pointers[16];
        int count = rows - done;
        if (count > 16) {
            count = 16;
        }
        for (int i = 0; i < count; i++) {
            pointers[i] = (JSAMPROW)(src + (size_t)(done + i) * row_stride);
        }
        JDIMENSION written = jpeg_write_scanlines(cinfo, pointers, (JDIMENSION)count);
        if (written == 0) {
            snprintf(encoder->err.error, sizeof(encoder->err.error), "encoder accepted no rows");
            return sepia_failure(&encoder->err, message, message_size);
        }
        done += (int)written;
    }
    return SEPIA_JPEG_OK;
}

int sepia_jpeg_encoder_finish(sepia_jpeg_encoder *encoder, const unsigned char **data, size_t *size,
                              char *message, size_t message_size) {
    if (setjmp(encoder->err.jump)) {
        return sepia_failure(&encoder->err, message, message_size);
    }
    if (!encoder->finished) {
        jpeg_finish_compress(&encoder->cinfo);
        encoder->finished = 1;
    }
    *data = encoder->destination.buffer;
    *size = encoder->destination.size;
    return SEPIA_JPEG_OK;
}

void sepia_jpeg_encoder_destroy(sepia_jpeg_encoder *encoder) {
    if (encoder == NULL) {
        return;
    }
    if (encoder->created) {
        jpeg_destroy_compress(&encoder->cinfo);
    }
    free(encoder->destination.buffer);
    free(encoder);
}
