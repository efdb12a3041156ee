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

/* Gives an opened input a new deadline and a new read budget (the bytes read so far are no longer counted
 * against max_bytes_read): the work that follows a probe on the same input is limited as if it had opened the
 * file itself. */
void sepia_av_input_restart_limits(sepia_av_input *input, int64_t deadline_ns);

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

/* Called about four times a second of decoded video with the microseconds decoded (the presentation time of the
 * last frame, from the start) and the video's real duration: its container's, or the span of its samples when
 * they last longer (0 when neither is known). A non-zero answer cancels the encode. */
typedef int (*sepia_transcode_progress)(void *context, int64_t done, int64_t total);

/* What bounds one encode. Set before sepia_transcode is called; only `cancelled` changes during the encode, and
 * only through sepia_transcode_cancel. */
typedef struct sepia_transcode_limits {
    /* Non-zero stops the encode: checked before each packet is read and after each frame is decoded. */
    int cancelled;
    /* The CPU seconds the encode's threads may use whatever they decode, and the CPU seconds more per 10^9
     * pixels of decoded frames; both 0: no budget. */
    double cpu_seconds;
    double cpu_seconds_per_gigapixel;
    /* The most pixels all decoded frames may add up to; 0: no limit. */
    int64_t max_decoded_pixels;
    /* The latest presentation time, in microseconds from the start, a decoded frame may have; 0: no limit. */
    int64_t max_duration;
} sepia_transcode_limits;

/* Why an encode stopped before the end of the video. */
enum {
    SEPIA_TRANSCODE_FINISHED = 0,
    /* sepia_transcode_cancel, or the progress callback, stopped it. */
    SEPIA_TRANSCODE_CANCELLED = 1,
    /* Its threads used more CPU time than the budget. */
    SEPIA_TRANSCODE_CPU_BUDGET = 2,
    /* The decoded frames added up to more than max_decoded_pixels. */
    SEPIA_TRANSCODE_PIXELS = 3,
    /* A decoded frame was to be shown after max_duration. */
    SEPIA_TRANSCODE_DURATION = 4
};

/* What an encode used, and why it stopped. */
typedef struct sepia_transcode_report {
    /* A SEPIA_TRANSCODE_* value. */
    int stop;
    /* The CPU seconds of the encode's threads, as last measured (about twice a second). */
    double cpu_seconds;
    /* The video frames decoded, and their pixels. */
    int64_t frames;
    int64_t decoded_pixels;
    /* The presentation time of the last frame decoded, in microseconds from the start. */
    int64_t decoded_time;
} sepia_transcode_report;

/* Stops the encode that `limits` bound, from any thread: it ends with AVERROR_EXIT within a frame. */
void sepia_transcode_cancel(sepia_transcode_limits *limits);

/* Encodes the opened `input` (sepia_av_input_open done) into an MP4 at `output_path`: H.264 through libx264 and
 * AAC, index first, the video decoded by the decoder named `video_decoder`, within `limits` (NULL: none).
 * Returns 0, or an AVERROR code with what failed in `error`; an encode the limits stopped returns AVERROR_EXIT
 * with the reason in `report` (which may be NULL). A partial file may be left at `output_path` on failure; the
 * caller removes it. */
int sepia_transcode(
    sepia_av_input *input, const char *output_path, const char *video_decoder, const sepia_transcode_settings *settings,
    sepia_transcode_limits *limits, sepia_transcode_report *report, sepia_transcode_progress progress, void *context, char *error,
    size_t error_size);

/* The CPU time of a group of threads (sepia_thread_group.c): a new Linux thread takes its creator's name, so the
 * threads a decoder and an encoder start from a named thread carry its name. */
/* Names the calling thread with a name of its own ("sepia-enc-N", into `name`), keeping its former name in
 * `previous`; the threads it starts from now on carry the name. */
void sepia_thread_group_enter(char name[16], char previous[16]);
/* Gives the calling thread back its former name. */
void sepia_thread_group_leave(const char previous[16]);
/* The CPU seconds the live threads of this process named `name` have used; -1 when /proc cannot be read. */
double sepia_thread_group_cpu_seconds(const char *name);

/* How the samples of an indexed stream lie in the file (FFmpeg's mov demuxer indexes every sample of an MP4 or
 * MOV; other demuxers index keyframes, or nothing). */
typedef struct sepia_av_sample_layout {
    /* The index entries, and those whose bytes all lie within the file. */
    int64_t samples;
    int64_t in_file;
    /* The entries whose bytes overlap those of another entry: a real file stores each sample once. */
    int64_t shared;
    /* The smallest and largest timestamps, in the stream's time base (AV_NOPTS_VALUE without entries). */
    int64_t first;
    int64_t last;
} sepia_av_sample_layout;

/* Fills `layout` for `stream`, read from a file of `file_size` bytes. Returns 0, or AVERROR(ENOMEM). */
int sepia_av_sample_layout_of(AVStream *stream, int64_t file_size, sepia_av_sample_layout *layout);

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
