#include "sepia_ffmpeg.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libavutil/error.h>
#include <libavutil/log.h>

#define SEPIA_AV_IO_BUFFER (64 * 1024)

struct sepia_av_input {
    /* The bytes: a file descriptor (fd >= 0) or memory. */
    int fd;
    const uint8_t *memory;
    int64_t size;
    int64_t position;
    int64_t bytes_read;
    int64_t max_bytes_read;
    int64_t deadline_ns;
    int stop_reason;
    AVIOContext *io;
    AVFormatContext *format;
};

int64_t sepia_av_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* MARK: - Log */

static _Thread_local int log_capturing = 0;
static _Thread_local char log_last[512];

static void sepia_av_log_callback(void *avcl, int level, const char *format, va_list args) {
    (void)avcl;
    if (!log_capturing || level > AV_LOG_ERROR) {
        return;
    }
    char line[sizeof(log_last)];
    int n = vsnprintf(line, sizeof(line), format, args);
    if (n <= 0) {
        return;
    }
    size_t length = strnlen(line, sizeof(line));
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' ')) {
        line[--length] = 0;
    }
    if (length > 0) {
        memcpy(log_last, line, length + 1);
    }
}

static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void sepia_av_install_log(void) {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(sepia_av_log_callback);
}

void sepia_av_log_begin(void) {
    pthread_once(&log_once, sepia_av_install_log);
    log_capturing = 1;
    log_last[0] = 0;
}

void sepia_av_log_end(void) {
    log_capturing = 0;
}

size_t sepia_av_log_last(char *buffer, size_t size) {
    if (size == 0) {
        return 0;
    }
    size_t length = strnlen(log_last, sizeof(log_last));
    if (length >= size) {
        length = size - 1;
    }
    memcpy(buffer, log_last, length);
    buffer[length] = 0;
    return length;
}

/* MARK: - The bounded reader */

static int sepia_av_past_deadline(sepia_av_input *input) {
    if (input->deadline_ns > 0 && sepia_av_now_ns() > input->deadline_ns) {
        input->stop_reason = SEPIA_AV_STOP_DEADLINE;
        return 1;
    }
    return 0;
}

static int sepia_av_read(void *opaque, uint8_t *buffer, int size) {
    sepia_av_input *input = opaque;
    if (sepia_av_past_deadline(input)) {
        return AVERROR_EXIT;
    }
    if (input->max_bytes_read > 0 && input->bytes_read >= input->max_bytes_read) {
        input->stop_reason = SEPIA_AV_STOP_READ_BUDGET;
        return AVERROR_EXIT;
    }
    int64_t remaining = input->size - input->position;
    if (remaining <= 0 || size <= 0) {
        return AVERROR_EOF;
    }
    int wanted = remaining < size ? (int)remaining : size;
    int done = 0;
    if (input->fd >= 0) {
        while (done < wanted) {
            ssize_t n = pread(input->fd, buffer + done, (size_t)(wanted - done), (off_t)(input->position + done));
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                if (done > 0) {
                    break;
                }
                return AVERROR(errno);
            }
            if (n == 0) {
                break; /* the file shrank while it was read */
            }
            done += (int)n;
        }
        if (done == 0) {
            return AVERROR_EOF;
        }
    } else {
        memcpy(buffer, input->memory + input->position, (size_t)wanted);
        done = wanted;
    }
    input->position += done;
    input->bytes_read += done;
    return done;
}

static int64_t sepia_av_seek(void *opaque, int64_t offset, int whence) {
    sepia_av_input *input = opaque;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) {
        return input->size;
    }
    int64_t target;
    switch (whence) {
    case SEEK_SET:
        target = offset;
        break;
    case SEEK_CUR:
        target = input->position + offset;
        break;
    case SEEK_END:
        target = input->size + offset;
        break;
    default:
        return AVERROR(EINVAL);
    }
    if (target < 0 || target > input->size) {
        return AVERROR(EINVAL);
    }
    input->position = target;
    return target;
}

static int sepia_av_interrupt(void *opaque) {
    return sepia_av_past_deadline(opaque);
}

/* Every nested open is refused: a demuxer may not reach another file, a playlist or the network. */
static int sepia_av_refuse_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    (void)s;
    (void)pb;
    (void)url;
    (void)flags;
    (void)options;
    return AVERROR(EPERM);
}

static sepia_av_input *sepia_av_input_new(void) {
    sepia_av_input *input = av_mallocz(sizeof(sepia_av_input));
    if (input == NULL) {
        return NULL;
    }
    input->fd = -1;
    uint8_t *buffer = av_malloc(SEPIA_AV_IO_BUFFER);
    if (buffer == NULL) {
        av_free(input);
        return NULL;
    }
    input->io = avio_alloc_context(buffer, SEPIA_AV_IO_BUFFER, 0, input, sepia_av_read, NULL, sepia_av_seek);
    if (input->io == NULL) {
        av_free(buffer);
        av_free(input);
        return NULL;
    }
    return input;
}

sepia_av_input *sepia_av_input_new_fd(int fd, int64_t size) {
    sepia_av_input *input = sepia_av_input_new();
    if (input == NULL) {
        close(fd);
        return NULL;
    }
    input->fd = fd;
    input->size = size;
    return input;
}

sepia_av_input *sepia_av_input_new_memory(const uint8_t *data, int64_t size) {
    sepia_av_input *input = sepia_av_input_new();
    if (input == NULL) {
        return NULL;
    }
    input->memory = data;
    input->size = size;
    return input;
}

void sepia_av_input_set_deadline(sepia_av_input *input, int64_t deadline_ns) {
    input->deadline_ns = deadline_ns;
}

void sepia_av_input_restart_limits(sepia_av_input *input, int64_t deadline_ns) {
    input->deadline_ns = deadline_ns;
    input->bytes_read = 0;
    input->stop_reason = SEPIA_AV_STOP_NONE;
}

int sepia_av_input_open(sepia_av_input *input, const char *format_name, const char *codec_whitelist, const sepia_av_limits *limits) {
    const AVInputFormat *demuxer = av_find_input_format(format_name);
    if (demuxer == NULL) {
        return AVERROR_DEMUXER_NOT_FOUND;
    }
    AVFormatContext *format = avformat_alloc_context();
    if (format == NULL) {
        return AVERROR(ENOMEM);
    }
    input->max_bytes_read = limits->max_bytes_read;
    format->pb = input->io;
    format->flags |= AVFMT_FLAG_CUSTOM_IO;
    format->interrupt_callback.callback = sepia_av_interrupt;
    format->interrupt_callback.opaque = input;
    format->io_open = sepia_av_refuse_open;
    format->probesize = limits->probe_bytes;
    format->max_analyze_duration = limits->analyze_microseconds;
    format->max_streams = limits->max_streams;
    AVDictionary *options = NULL;
    av_dict_set(&options, "protocol_whitelist", "file", 0);
    av_dict_set(&options, "format_whitelist", "mov,matroska,webm,avi,mpegts", 0);
    if (codec_whitelist != NULL) {
        av_dict_set(&options, "codec_whitelist", codec_whitelist, 0);
    }
    /* On failure avformat_open_input frees the context (but not the custom I/O context). */
    int status = avformat_open_input(&format, "", demuxer, &options);
    av_dict_free(&options);
    if (status < 0) {
        return status;
    }
    input->format = format;
    return 0;
}

int sepia_av_input_find_stream_info(sepia_av_input *input) {
    AVFormatContext *format = input->format;
    if (format == NULL) {
        return AVERROR(EINVAL);
    }
    unsigned count = format->nb_streams;
    AVDictionary **options = count > 0 ? av_calloc(count, sizeof(AVDictionary *)) : NULL;
    if (count > 0 && options == NULL) {
        return AVERROR(ENOMEM);
    }
    for (unsigned i = 0; i < count; i++) {
        av_dict_set(&options[i], "threads", "1", 0);
    }
    int status = avformat_find_stream_info(format, options);
    for (unsigned i = 0; i < count; i++) {
        av_dict_free(&options[i]);
    }
    av_free(options);
    return status < 0 ? status : 0;
}

AVFormatContext *sepia_av_input_format(sepia_av_input *input) {
    return input->format;
}

int sepia_av_input_stop_reason(const sepia_av_input *input) {
    return input->stop_reason;
}

int64_t sepia_av_input_bytes_read(const sepia_av_input *input) {
    return input->bytes_read;
}

int64_t sepia_av_input_size(const sepia_av_input *input) {
    return input->size;
}

void sepia_av_input_free(sepia_av_input *input) {
    if (input == NULL) {
        return;
    }
    if (input->format != NULL) {
        avformat_close_input(&input->format);
    }
    if (input->io != NULL) {
        av_freep(&input->io->buffer);
        avio_context_free(&input->io);
    }
    if (input->fd >= 0) {
        close(input->fd);
    }
    av_free(input);
}

/* MARK: - Streams */

int sepia_av_index_entry_count(AVStream *stream) {
    return avformat_index_get_entries_count(stream);
}

/* A sample's bytes, for sorting by offset. */
typedef struct sepia_byte_range {
    int64_t start;
    int64_t end;
} sepia_byte_range;

static int sepia_compare_ranges(const void *a, const void *b) {
    int64_t x = ((const sepia_byte_range *)a)->start, y = ((const sepia_byte_range *)b)->start;
    return x < y ? -1 : x > y;
}

int sepia_av_sample_layout_of(AVStream *stream, int64_t file_size, sepia_av_sample_layout *layout) {
    memset(layout, 0, sizeof(*layout));
    layout->first = AV_NOPTS_VALUE;
    layout->last = AV_NOPTS_VALUE;
    int count = avformat_index_get_entries_count(stream);
    /* In file order, as muxers write them, each sample starts where the one before ended or later: one pass. */
    int64_t end = 0;
    int ascending = 1;
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (entry == NULL) {
            continue;
        }
        layout->samples++;
        if (layout->first == AV_NOPTS_VALUE || entry->timestamp < layout->first) {
            layout->first = entry->timestamp;
        }
        if (layout->last == AV_NOPTS_VALUE || entry->timestamp > layout->last) {
            layout->last = entry->timestamp;
        }
        if (entry->pos < 0 || entry->size <= 0) {
            continue;
        }
        if (entry->pos <= file_size - entry->size) {
            layout->in_file++;
        }
        if (entry->pos < end) {
            ascending = 0;
        }
        end = entry->pos + entry->size > end ? entry->pos + entry->size : end;
    }
    if (ascending) {
        return 0;
    }
    /* Out of order: sorted by offset, a sample that starts before the furthest end so far overlaps another. */
    sepia_byte_range *ranges = av_malloc((size_t)count * sizeof(sepia_byte_range));
    if (ranges == NULL) {
        return AVERROR(ENOMEM);
    }
    int n = 0;
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (entry != NULL && entry->pos >= 0 && entry->size > 0) {
            ranges[n++] = (sepia_byte_range){entry->pos, entry->pos + entry->size};
        }
    }
    qsort(ranges, (size_t)n, sizeof(sepia_byte_range), sepia_compare_ranges);
    end = 0;
    for (int i = 0; i < n; i++) {
        if (ranges[i].start < end) {
            layout->shared++;
        }
        end = ranges[i].end > end ? ranges[i].end : end;
    }
    av_free(ranges);
    return 0;
}

int64_t sepia_av_keyframe_seek_point(AVStream *stream, int64_t target, int64_t end, int *first) {
    *first = 0;
    int count = avformat_index_get_entries_count(stream);
    int best = -1, next = -1, seen = 0;
    uint64_t best_distance = UINT64_MAX;
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (entry == NULL || !(entry->flags & AVINDEX_KEYFRAME) || (entry->flags & AVINDEX_DISCARD_FRAME)) {
            continue;
        }
        int64_t t = entry->timestamp;
        if (seen > 0 && t >= end) {
            break;
        }
        if (best >= 0 && next < 0) {
            next = i; /* the keyframe after the best so far, replaced if a later one is nearer */
        }
        uint64_t distance = t > target ? (uint64_t)t - (uint64_t)target : (uint64_t)target - (uint64_t)t;
        /* Entries are sorted by time, so of two at the same distance the earlier is kept. */
        if (distance < best_distance) {
            best = i;
            best_distance = distance;
            next = -1;
            *first = seen == 0;
        }
        seen++;
    }
    if (best < 0) {
        return AV_NOPTS_VALUE;
    }
    int64_t at = avformat_index_get_entry(stream, best)->timestamp;
    if (next >= 0) {
        int64_t after = avformat_index_get_entry(stream, next)->timestamp;
        return at + (after - at) / 2;
    }
    /* The last keyframe: anything from it to the end lands on it. */
    return end > at && end != INT64_MAX ? at + (end - at) / 2 : at + 1;
}

int sepia_av_display_matrix(const AVStream *stream, double *rotation, int *mirrored) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) {
        return 0;
    }
    const int32_t *matrix = (const int32_t *)data;
    double degrees = av_display_rotation_get(matrix);
    if (degrees != degrees) { /* NaN: a degenerate matrix */
        return 0;
    }
    /* The determinant of the upper-left 2x2 part (16.16 fixed point): negative when the matrix mirrors. */
    double a = matrix[0] / 65536.0, b = matrix[1] / 65536.0, c = matrix[3] / 65536.0, d = matrix[4] / 65536.0;
    *rotation = degrees;
    *mirrored = (a * d - b * c) < 0;
    return 1;
}

static double mastering_peak(const AVMasteringDisplayMetadata *m) {
    if (m == NULL || !m->has_luminance || m->max_luminance.den == 0) {
        return 0;
    }
    return av_q2d(m->max_luminance);
}

double sepia_av_stream_mastering_peak(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size);
    if (data == NULL || size < sizeof(AVMasteringDisplayMetadata)) {
        return 0;
    }
    return mastering_peak((const AVMasteringDisplayMetadata *)data);
}

double sepia_av_stream_max_cll(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size);
    if (data == NULL || size < sizeof(AVContentLightMetadata)) {
        return 0;
    }
    return ((const AVContentLightMetadata *)data)->MaxCLL;
}

double sepia_av_frame_mastering_peak(const AVFrame *frame) {
    AVFrameSideData *side = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    if (side == NULL || side->size < sizeof(AVMasteringDisplayMetadata)) {
        return 0;
    }
    return mastering_peak((const AVMasteringDisplayMetadata *)side->data);
}

double sepia_av_frame_max_cll(const AVFrame *frame) {
    AVFrameSideData *side = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    if (side == NULL || side->size < sizeof(AVContentLightMetadata)) {
        return 0;
    }
    return ((const AVContentLightMetadata *)side->data)->MaxCLL;
}

int sepia_sws_scale_frame(struct SwsContext *scaler, const AVFrame *frame, uint8_t *destination, int stride) {
    uint8_t *planes[4] = {destination, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    return sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}

int64_t sepia_av_frame_timestamp(const AVFrame *frame) {
    return frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
}

int sepia_av_frame_is_interlaced(const AVFrame *frame) { return frame->interlaced_frame; }

/* MARK: - Decoding without a demuxer */

int sepia_av_packet_fill(AVPacket *packet, const uint8_t *data, int size, int64_t pts, int key) {
    int status = av_new_packet(packet, size);
    if (status < 0) {
        return status;
    }
    memcpy(packet->data, data, (size_t)size);
    packet->pts = pts;
    packet->dts = AV_NOPTS_VALUE;
    packet->flags = key ? AV_PKT_FLAG_KEY : 0;
    return 0;
}

int sepia_av_codec_set_extradata(AVCodecContext *context, const uint8_t *data, int size) {
    if (size <= 0) {
        return 0;
    }
    uint8_t *copy = av_mallocz((size_t)size + AV_INPUT_BUFFER_PADDING_SIZE);
    if (copy == NULL) {
        return AVERROR(ENOMEM);
    }
    memcpy(copy, data, (size_t)size);
    av_freep(&context->extradata);
    context->extradata = copy;
    context->extradata_size = size;
    return 0;
}

/* MARK: - Errors and constants */

int sepia_averror_eof(void) { return AVERROR_EOF; }
int sepia_averror_eagain(void) { return AVERROR(EAGAIN); }
int sepia_averror_exit(void) { return AVERROR_EXIT; }
int sepia_averror_enomem(void) { return AVERROR(ENOMEM); }
int sepia_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
int sepia_averror_patchwelcome(void) { return AVERROR_PATCHWELCOME; }
int sepia_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }

void sepia_av_error_string(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "error %d", code);
    }
}

int64_t sepia_av_nopts_value(void) { return AV_NOPTS_VALUE; }
int sepia_av_time_base(void) { return AV_TIME_BASE; }
