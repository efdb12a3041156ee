/*
 * FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil, as Debian builds them) and a small C layer
 * for what is better done in C: the demuxer's input as a bounded reader over a file descriptor or memory, an
 * interrupt callback with a deadline, a refusal of every nested open (no network, no playlists, no references to
 * other files), FFmpeg's log captured per thread instead of printed, and the error macros Swift cannot import.
 *
 * Only SepiaVideo uses this module; no FFmpeg type appears in Sepia's public API.
 */
#ifndef SEPIA_FFMPEG_H
#define SEPIA_FFMPEG_H

#include <stddef.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads FFmpeg's libraries (libavutil, libswscale, libswresample, libavcodec, libavformat of the ABI these
 * headers describe) the first time it is called, from any thread. Returns 1 when they are loaded; else 0, with
 * the reason (the loader's message) in `error`. Every other function here, and every FFmpeg function, may be
 * called only after it returned 1. */
int sepia_ffmpeg_load(char *error, size_t size);

/* Loads only what decoding frames needs (libavutil, libswscale, libavcodec: about 40 fewer shared objects than
 * with libavformat), as sepia_ffmpeg_load does. After it returned 1, the functions of those three libraries and
 * the helpers below that use only them (packets, decoders, frames, scaling, errors, the log) may be called; any
 * other loads the rest on its first call. */
int sepia_ffmpeg_load_codecs(char *error, size_t size);

/* The limits of one opened input. */
typedef struct sepia_av_limits {
    /* The most bytes the demuxer reads to find the streams (AVFormatContext.probesize). */
    int64_t probe_bytes;
    /* The most stream time, in microseconds, analysed to find the streams' parameters. */
    int64_t analyze_microseconds;
    /* The most streams the demuxer may create; one more fails the open. */
    int max_streams;
    /* The most bytes all reads together may return: a file that makes the demuxer read in circles stops. */
    int64_t max_bytes_read;
} sepia_av_limits;

/* What stopped an input. */
enum {
    SEPIA_AV_STOP_NONE = 0,
    /* The deadline passed. */
    SEPIA_AV_STOP_DEADLINE = 1,
    /* The demuxer read more than max_bytes_read. */
    SEPIA_AV_STOP_READ_BUDGET = 2
};

/* An input being demuxed: the bounded reader, its AVIOContext and the AVFormatContext. Used by one thread at a time. */
typedef struct sepia_av_input sepia_av_input;

/* A reader over `size` bytes of the open file `fd`, which the input closes. NULL when out of memory (fd is then closed). */
sepia_av_input *sepia_av_input_new_fd(int fd, int64_t size);

/* A reader over `size` bytes at `data`, which must stay valid until the input is freed. */
sepia_av_input *sepia_av_input_new_memory(const uint8_t *data, int64_t size);

/* Sets the instant (CLOCK_MONOTONIC, nanoseconds; sepia_av_now_ns) after which every read and every blocking
 * FFmpeg loop stops with AVERROR_EXIT. 0 means no deadline. */
void sepia_av_input_set_deadline(sepia_av_input *input, int64_t deadline_ns);

/* Opens the demuxer named `format_name` ("mov", "matroska", "avi", "mpegts"); no other demuxer is probed, and
 * only these four are allowed (format_whitelist). Nested opens are refused and the protocol whitelist is "file".
 * `codec_whitelist` (comma-separated decoder names) limits the decoders stream analysis may open. Returns 0 or
 * an AVERROR code. */
int sepia_av_input_open(sepia_av_input *input, const char *format_name, const char *codec_whitelist, const sepia_av_limits *limits);

/* Reads packets to fill in the parameters the headers lack (avformat_find_stream_info), with one decoder thread
 * per stream. Returns 0 or an AVERROR code. */
int sepia_av_input_find_stream_info(sepia_av_input *input);

/* The opened format context (NULL before sepia_av_input_open succeeds). */
AVFormatContext *sepia_av_input_format(sepia_av_input *input);

/* Why the input stopped early, a SEPIA_AV_STOP_* value. */
int sepia_av_input_stop_reason(const sepia_av_input *input);

/* The bytes read so far, and the size of the input. */
int64_t sepia_av_input_bytes_read(const sepia_av_input *input);
int64_t sepia_av_input_size(const sepia_av_input *input);

/* Closes the demuxer and the file, and frees the input. NULL is accepted. */
void sepia_av_input_free(sepia_av_input *input);

/* Now on CLOCK_MONOTONIC, in nanoseconds. */
int64_t sepia_av_now_ns(void);

/* Where to seek (av_seek_frame with AVSEEK_FLAG_BACKWARD, in the stream's time base) to land on the indexed
 * keyframe nearest `target`, among those before `end`. Index timestamps are decode times, which B-frames put a
 * few frames before the presentation times seeking compares with, so the point returned is halfway to the next
 * keyframe. Returns AV_NOPTS_VALUE when the stream has no index, and sets *first when the nearest keyframe is
 * the stream's first (no seek is needed). */
int64_t sepia_av_keyframe_seek_point(AVStream *stream, int64_t target, int64_t end, int *first);

/* The number of index entries of a stream (0 when it has no index). */
int sepia_av_index_entry_count(AVStream *stream);

/* The rotation of a stream's display matrix in degrees counter-clockwise (FFmpeg's convention), and whether the
 * matrix mirrors; returns 0 when the stream has no display matrix. */
int sepia_av_display_matrix(const AVStream *stream, double *rotation, int *mirrored);

/* The mastering display's peak luminance and the content's MaxCLL, in cd/m²; 0 when absent. */
double sepia_av_stream_mastering_peak(const AVStream *stream);
double sepia_av_stream_max_cll(const AVStream *stream);
double sepia_av_frame_mastering_peak(const AVFrame *frame);
double sepia_av_frame_max_cll(const AVFrame *frame);

/* Error codes Swift cannot spell (they are macros). */
int sepia_averror_eof(void);
int sepia_averror_eagain(void);
int sepia_averror_exit(void);
int sepia_averror_enomem(void);
int sepia_averror_invaliddata(void);
int sepia_averror_patchwelcome(void);
int sepia_averror_decoder_not_found(void);

/* av_strerror's text for `code`, into `buffer`. */
void sepia_av_error_string(int code, char *buffer, size_t size);

/*
 * FFmpeg's log. Messages are never printed: between sepia_av_log_begin and sepia_av_log_end the calling thread
 * keeps the last error message FFmpeg logged on it (at AV_LOG_ERROR or worse), which sepia_av_log_last copies.
 */
void sepia_av_log_begin(void);
void sepia_av_log_end(void);
/* Copies the last captured message (without its newline) into `buffer`; returns its length, 0 when none. */
size_t sepia_av_log_last(char *buffer, size_t size);

/* Converts (and scales) all of `frame` with `scaler` into one packed plane at `destination`, `stride` bytes
 * apart. Returns the rows written, or a negative AVERROR code. */
int sepia_sws_scale_frame(struct SwsContext *scaler, const AVFrame *frame, uint8_t *destination, int stride);

/* How a playable version is encoded (sepia_transcode.c). */
typedef struct sepia_transcode_settings {
    /* The largest longer and shorter sides (1920 and 1080): the displayed size is scaled to fit, never enlarged. */
    int long_side;
    int short_side;
    /* libx264's constant rate factor (23 is its default) and preset ("veryfast", …). */
    int crf;
    const char *preset;
    /* The AAC bit rate when the audio is encoded again (AAC audio is copied). */
    int64_t audio_bit_rate;
    /* Encoder and decoder threads; 0 lets FFmpeg choose. */
    int threads;
} sepia_transcode_settings;

/* Called about four times a second of video with the microseconds done and the total (0 when unknown); a
 * non-zero answer cancels the encode. */
typedef int (*sepia_transcode_progress)(void *context, int64_t done, int64_t total);

/* Encodes the opened `input` (sepia_av_input_open done) into an MP4 at `output_path`: H.264 through libx264 and
 * AAC, index first, the video decoded by the decoder named `video_decoder`. Returns 0, or an AVERROR code with
 * what failed in `error`. A partial file may be left at `output_path` on failure; the caller removes it. */
int sepia_transcode(
    sepia_av_input *input, const char *output_path, const char *video_decoder, const sepia_transcode_settings *settings,
    sepia_transcode_progress progress, void *context, char *error, size_t error_size);

/* AVFrame's fields behind deprecation or macros, read in C. */
int64_t sepia_av_frame_timestamp(const AVFrame *frame);
int sepia_av_frame_is_interlaced(const AVFrame *frame);

/* A packet holding a copy of `size` bytes (padded as decoders need), with its presentation time and keyframe
 * flag, for a sample read without a demuxer. Returns 0 or an AVERROR. */
int sepia_av_packet_fill(AVPacket *packet, const uint8_t *data, int size, int64_t pts, int key);

/* Gives a decoder a copy of its configuration record (avcC, hvcC, av1C), padded. Returns 0 or an AVERROR. */
int sepia_av_codec_set_extradata(AVCodecContext *context, const uint8_t *data, int size);

/* AV_NOPTS_VALUE and AV_TIME_BASE, which Swift imports badly (a macro cast, a macro). */
int64_t sepia_av_nopts_value(void);
int sepia_av_time_base(void);

#ifdef __cplusplus
}
#endif

#endif
