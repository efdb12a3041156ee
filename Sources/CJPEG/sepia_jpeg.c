#include "sepia_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* MARK: - Error manager */

typedef struct sepia_error_mgr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int strict;
    int strict_failure;
    int warning_count;
    char first_warning[JMSG_LENGTH_MAX];
    char error[JMSG_LENGTH_MAX];
} sepia_error_mgr;

static void sepia_error_exit(j_common_ptr cinfo) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->error);
    longjmp(err->jump, 1);
}

/* Warnings after which the decoded pixels are not what the file meant: data was skipped or invented. */
static int sepia_warning_loses_data(int code) {
    switch (code) {
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_JPEG_EOF:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void sepia_emit_message(j_common_ptr cinfo, int msg_level) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    if (msg_level >= 0) {
        return; /* trace messages */
    }
    err->warning_count += 1;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (err->warning_count == 1) {
        memcpy(err->first_warning, text, sizeof(text));
    }
    if (err->strict && sepia_warning_loses_data(cinfo->err->msg_code)) {
        err->strict_failure = 1;
        memcpy(err->error, text, sizeof(text));
        longjmp(err->jump, 1);
    }
}

static void sepia_output_message(j_common_ptr cinfo) {
    (void)cinfo; /* never print */
}

static void sepia_install_error_mgr(sepia_error_mgr *err, int strict) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = sepia_error_exit;
    err->pub.emit_message = sepia_emit_message;
    err->pub.output_message = sepia_output_message;
    err->strict = strict;
    err->strict_failure = 0;
    err->warning_count = 0;
    err->first_warning[0] = 0;
    err->error[0] = 0;
}

static void sepia_copy(char *dest, size_t size, const char *src) {
    if (dest == NULL || size == 0) {
        return;
    }
    snprintf(dest, size, "%s", src);
}

static int sepia_failure(sepia_error_mgr *err, char *message, size_t message_size) {
    sepia_copy(message, message_size, err->error[0] ? err->error : "unknown libjpeg error");
    return err->strict_failure ? SEPIA_JPEG_STRICT_WARNING : SEPIA_JPEG_ERROR;
}

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
    /* The stream actually decoded when only the DC scans of a progressive file are read; owned. */
    unsigned char *dc_stream;
};

/* The end of the entropy-coded data that starts at `p`: the first marker that is not a stuffed 0xFF00 or a
 * restart marker. Returns `end` when the data runs to the end of the buffer. */
static const unsigned char *sepia_scan_end(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        const unsigned char *ff = memchr(p, 0xFF, (size_t)(end - p));
        if (ff == NULL) {
            return end;
        }
        const unsigned char *q = ff + 1;
        while (q < end && *q == 0xFF) {
            q++; /* fill bytes before a marker */
        }
        if (q >= end) {
            return end;
        }
        if (*q == 0x00 || (*q >= 0xD0 && *q <= 0xD7)) {
            p = q + 1;
            continue;
        }
        return ff;
    }
    return end;
}

/*
 * A copy of a progressive Huffman-coded JPEG without the AC scans a 1/8-scale decode does not read, or NULL
 * when the stream is anything else or is not whole (then the caller decodes the original, with its
 * warnings). At 1/8 scale libjpeg reduces each block of a full-resolution component (luma) with a 1x1
 * inverse DCT, which reads only the DC coefficient, so that component's AC scans, most of the file, need
 * not be Huffman-decoded at all. A subsampled component (the chroma of 4:2:0 files) is reduced by a 2x2 or
 * larger DCT, which reads AC terms, so its scans are kept and the result is exactly the full decode's.
 */
static unsigned char *sepia_jpeg_dc_only_stream(const unsigned char *data, size_t size, size_t *out_size) {
    const unsigned char *end = data + size;
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        return NULL;
    }
    unsigned char *out = (unsigned char *)malloc(size);
    if (out == NULL) {
        return NULL;
    }
    size_t n = 0;
    memcpy(out, data, 2);
    n = 2;
    const unsigned char *p = data + 2;
    int progressive = 0, dropped = 0, kept = 0;
    int component_count = 0, max_h = 0, max_v = 0;
    int component_id[4], component_full[4];
    int component_h[4], component_v[4];
    for (;;) {
        if (p + 2 > end || p[0] != 0xFF) {
            break;
        }
        while (p + 1 < end && p[1] == 0xFF) {
            p++;
        }
        if (p + 2 > end) {
            break;
        }
        unsigned char marker = p[1];
        if (marker == 0xD9) {
            if (!progressive || dropped == 0 || kept == 0) {
                break;
            }
            out[n++] = 0xFF;
            out[n++] = 0xD9;
            *out_size = n;
            return out;
        }
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || p + 4 > end) {
            break;
        }
        size_t length = (size_t)p[2] << 8 | p[3];
        if (length < 2 || p + 2 + length > end) {
            break;
        }
        const unsigned char *segment_end = p + 2 + length;
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            if (marker != 0xC2 || progressive || length < 8) {
                break; /* baseline, lossless, hierarchical or arithmetic-coded: not this shortcut */
            }
            component_count = p[9];
            if (component_count < 1 || component_count > 4 || length != 8 + 3 * (size_t)component_count) {
                break;
            }
            for (int c = 0; c < component_count; c++) {
                component_id[c] = p[10 + 3 * c];
                component_h[c] = p[11 + 3 * c] >> 4;
                component_v[c] = p[11 + 3 * c] & 15;
                max_h = component_h[c] > max_h ? component_h[c] : max_h;
                max_v = component_v[c] > max_v ? component_v[c] : max_v;
            }
            for (int c = 0; c < component_count; c++) {
                component_full[c] = component_h[c] == max_h && component_v[c] == max_v;
            }
            progressive = 1;
        }
        if (marker == 0xDA) {
            if (!progressive || length < 6) {
                break;
            }
            size_t components = p[4];
            if (length != 6 + 2 * components) {
                break;
            }
            int ss = p[5 + 2 * components];
            const unsigned char *scan_end = sepia_scan_end(segment_end, end);
            if (scan_end >= end) {
                break; /* the file ends inside a scan */
            }
            int needed = ss == 0;
            if (!needed) {
                /* An AC scan holds one component; it is needed unless that component is at full resolution. */
                int known = 0;
                for (int c = 0; c < component_count; c++) {
                    if (components == 1 && component_id[c] == p[5]) {
                        known = 1;
                        needed = !component_full[c];
                    }
                }
                if (!known) {
                    break;
                }
            }
            if (needed) {
                memcpy(out + n, p, (size_t)(scan_end - p));
                n += (size_t)(scan_end - p);
                kept++;
            } else {
                dropped++;
            }
            p = scan_end;
            continue;
        }
        memcpy(out + n, p, 2 + length);
        n += 2 + length;
        p = segment_end;
    }
    free(out);
    return NULL;
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
                              unsigned long max_memory, int max_scans, sepia_jpeg_decoder **out,
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

    if (dc_only && scale_denom == 8 && !strict) {
        size_t dc_size = 0;
        decoder->dc_stream = sepia_jpeg_dc_only_stream(data, size, &dc_size);
        if (decoder->dc_stream != NULL) {
            data = decoder->dc_stream;
            size = dc_size;
        }
    }
    jpeg_mem_src(cinfo, data, (unsigned long)size);
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
    if (decoder->dc_stream != NULL) {
        /* Smoothing would estimate the skipped AC terms of the luma blocks' neighbours from their DC values,
         * work whose result the 1x1 inverse DCT never reads. */
        cinfo->do_block_smoothing = FALSE;
    }
    jpeg_start_decompress(cinfo);

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
        /* Reads to EOI so that trailing corruption is reported too. */
        jpeg_finish_decompress(cinfo);
    }
    return SEPIA_JPEG_OK;
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
    if (decoder->created) {
        jpeg_destroy_decompress(&decoder->cinfo);
    }
    free(decoder->dc_stream);
    free(decoder);
}

/* MARK: - Encoder */

struct sepia_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    sepia_error_mgr err;
    unsigned char *buffer;
    unsigned long buffer_size;
    int created;
    int finished;
};

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
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->buffer_size);
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
    *data = encoder->buffer;
    *size = (size_t)encoder->buffer_size;
    return SEPIA_JPEG_OK;
}

void sepia_jpeg_encoder_destroy(sepia_jpeg_encoder *encoder) {
    if (encoder == NULL) {
        return;
    }
    if (encoder->created) {
        jpeg_destroy_compress(&encoder->cinfo);
    }
    free(encoder->buffer);
    free(encoder);
}
