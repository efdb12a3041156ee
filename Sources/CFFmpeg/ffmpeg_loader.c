/*
 * FFmpeg's libraries are loaded when the first video is opened, not when the executable starts.
 *
 * Debian's libavcodec and libavformat bring about 130 shared libraries with them (x264, x265, dav1d, aom, vpx,
 * rav1e, codec2, gnutls, libssh, libbluray…); loading and initialising them takes about 30 ms, which every
 * command of an executable linking them would pay, videos or not. So this module does not link them: it defines
 * each FFmpeg function Sepia calls as a trampoline to the real one, which sepia_ffmpeg_load finds with dlopen
 * and dlsym the first time. The trampolines are hidden, so they never stand in for FFmpeg's own symbols inside
 * FFmpeg's libraries. The sonames are those of the headers Sepia was compiled with (FFmpeg 5.1: libavformat.so.59),
 * so an FFmpeg of another ABI is never loaded.
 */
#include "sepia_ffmpeg.h"

#include <libavutil/audio_fifo.h>
#include <libswresample/swresample.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEPIA_STRINGIFY2(x) #x
#define SEPIA_STRINGIFY(x) SEPIA_STRINGIFY2(x)

/* (library, return type, name, parameters, arguments) of every FFmpeg function called, from C or from Swift.
 * F returns a value, V returns nothing. */
#define SEPIA_FFMPEG_FUNCTIONS(F, V)                                                                                   \
    F(avutil, void *, av_calloc, (size_t nmemb, size_t size), (nmemb, size))                                           \
    F(avutil, AVAudioFifo *, av_audio_fifo_alloc, (enum AVSampleFormat sample_fmt, int channels, int nb_samples),      \
      (sample_fmt, channels, nb_samples))                                                                              \
    V(avutil, av_audio_fifo_free, (AVAudioFifo * af), (af))                                                            \
    F(avutil, int, av_audio_fifo_read, (AVAudioFifo * af, void **data, int nb_samples), (af, data, nb_samples))        \
    F(avutil, int, av_audio_fifo_size, (AVAudioFifo * af), (af))                                                       \
    F(avutil, int, av_audio_fifo_write, (AVAudioFifo * af, void **data, int nb_samples), (af, data, nb_samples))       \
    F(avutil, int, av_channel_layout_copy, (AVChannelLayout * dst, const AVChannelLayout *src), (dst, src))            \
    V(avutil, av_channel_layout_uninit, (AVChannelLayout * channel_layout), (channel_layout))                          \
    F(avutil, int, av_dict_set_int, (AVDictionary * *pm, const char *key, int64_t value, int flags),                   \
      (pm, key, value, flags))                                                                                         \
    F(avutil, int, av_frame_get_buffer, (AVFrame * frame, int align), (frame, align))                                  \
    F(avutil, int, av_frame_make_writable, (AVFrame * frame), (frame))                                                 \
    V(avutil, av_frame_unref, (AVFrame * frame), (frame))                                                              \
    F(avutil, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))                           \
    F(avutil, int, av_samples_alloc_array_and_samples, (uint8_t * **audio_data, int *linesize, int nb_channels,        \
      int nb_samples, enum AVSampleFormat sample_fmt, int align),                                                      \
      (audio_data, linesize, nb_channels, nb_samples, sample_fmt, align))                                              \
    V(avcodec, av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst))    \
    F(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                       \
    F(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))                              \
    F(avcodec, int, avcodec_parameters_copy, (AVCodecParameters * dst, const AVCodecParameters *src), (dst, src))      \
    F(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters * par, const AVCodecContext *codec),           \
      (par, codec))                                                                                                    \
    F(avcodec, int, avcodec_receive_packet, (AVCodecContext * avctx, AVPacket *avpkt), (avctx, avpkt))                 \
    F(avcodec, int, avcodec_send_frame, (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame))                \
    F(avformat, int, av_find_best_stream, (AVFormatContext * ic, enum AVMediaType type, int wanted_stream_nb,          \
      int related_stream, const AVCodec **decoder_ret, int flags),                                                     \
      (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))                                                \
    F(avformat, AVRational, av_guess_frame_rate, (AVFormatContext * ctx, AVStream *stream, AVFrame *frame),            \
      (ctx, stream, frame))                                                                                            \
    F(avformat, int, av_interleaved_write_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))                       \
    F(avformat, uint8_t *, av_stream_new_side_data, (AVStream * stream, enum AVPacketSideDataType type, size_t size),  \
      (stream, type, size))                                                                                            \
    F(avformat, int, av_write_trailer, (AVFormatContext * s), (s))                                                     \
    F(avformat, int, avformat_alloc_output_context2, (AVFormatContext * *ctx, const AVOutputFormat *oformat,           \
      const char *format_name, const char *filename), (ctx, oformat, format_name, filename))                           \
    V(avformat, avformat_free_context, (AVFormatContext * s), (s))                                                     \
    F(avformat, AVStream *, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), (s, c))                      \
    F(avformat, int, avformat_write_header, (AVFormatContext * s, AVDictionary **options), (s, options))               \
    F(avformat, int, avio_closep, (AVIOContext * *s), (s))                                                             \
    F(avformat, int, avio_open, (AVIOContext * *s, const char *url, int flags), (s, url, flags))                       \
    F(swresample, int, swr_alloc_set_opts2, (struct SwrContext * *ps, AVChannelLayout *out_ch_layout,                  \
      enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout,                          \
      enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx),                           \
      (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset,    \
      log_ctx))                                                                                                        \
    F(swresample, int, swr_convert, (struct SwrContext * s, uint8_t **out, int out_count, const uint8_t **in,          \
      int in_count), (s, out, out_count, in, in_count))                                                                \
    V(swresample, swr_free, (struct SwrContext * *s), (s))                                                             \
    F(swresample, int, swr_get_out_samples, (struct SwrContext * s, int in_samples), (s, in_samples))                  \
    F(swresample, int, swr_init, (struct SwrContext * s), (s))                                                         \
    V(avutil, av_channel_layout_default, (AVChannelLayout * ch_layout, int nb_channels), (ch_layout, nb_channels))      \
    F(avutil, int, av_channel_layout_describe, (const AVChannelLayout *channel_layout, char *buf, size_t buf_size),    \
      (channel_layout, buf, buf_size))                                                                                 \
    F(avutil, const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries))                   \
    F(avutil, const char *, av_color_space_name, (enum AVColorSpace space), (space))                                   \
    F(avutil, const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer))         \
    V(avutil, av_dict_free, (AVDictionary * *m), (m))                                                                  \
    F(avutil, AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, \
      int flags), (m, key, prev, flags))                                                                               \
    F(avutil, int, av_dict_set, (AVDictionary * *pm, const char *key, const char *value, int flags),                   \
      (pm, key, value, flags))                                                                                         \
    F(avutil, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix))                                    \
    F(avutil, AVFrame *, av_frame_alloc, (void), ())                                                                   \
    V(avutil, av_frame_free, (AVFrame * *frame), (frame))                                                              \
    F(avutil, AVFrameSideData *, av_frame_get_side_data, (const AVFrame *frame, enum AVFrameSideDataType type),        \
      (frame, type))                                                                                                   \
    V(avutil, av_free, (void *ptr), (ptr))                                                                             \
    V(avutil, av_freep, (void *ptr), (ptr))                                                                            \
    F(avutil, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt))                              \
    V(avutil, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))                 \
    V(avutil, av_log_set_level, (int level), (level))                                                                  \
    F(avutil, void *, av_malloc, (size_t size), (size))                                                                \
    F(avutil, void *, av_mallocz, (size_t size), (size))                                                               \
    F(avutil, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt))                \
    F(avutil, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))         \
    F(avcodec, AVPacket *, av_packet_alloc, (void), ())                                                                \
    F(avcodec, int, av_new_packet, (AVPacket * pkt, int size), (pkt, size))                                            \
    V(avcodec, av_packet_free, (AVPacket * *pkt), (pkt))                                                               \
    V(avcodec, av_packet_unref, (AVPacket * pkt), (pkt))                                                               \
    F(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                              \
    F(avcodec, const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id))                           \
    F(avcodec, const AVCodec *, avcodec_find_decoder_by_name, (const char *name), (name))                              \
    V(avcodec, avcodec_free_context, (AVCodecContext * *avctx), (avctx))                                               \
    F(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id))                                              \
    F(avcodec, int, avcodec_open2, (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options),             \
      (avctx, codec, options))                                                                                         \
    F(avcodec, int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters *par),             \
      (codec, par))                                                                                                    \
    F(avcodec, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))        \
    F(avcodec, int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame *frame), (avctx, frame))                   \
    F(avcodec, int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))              \
    F(avformat, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))                   \
    F(avformat, int, av_read_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))                                    \
    F(avformat, int, av_seek_frame, (AVFormatContext * s, int stream_index, int64_t timestamp, int flags),             \
      (s, stream_index, timestamp, flags))                                                                             \
    F(avformat, uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type,           \
      size_t *size), (stream, type, size))                                                                             \
    F(avformat, AVFormatContext *, avformat_alloc_context, (void), ())                                                 \
    V(avformat, avformat_close_input, (AVFormatContext * *s), (s))                                                     \
    F(avformat, int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary **options), (ic, options))         \
    F(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st))                                     \
    F(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream * st, int idx), (st, idx))                   \
    F(avformat, int, avformat_open_input, (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt,           \
      AVDictionary **options), (ps, url, fmt, options))                                                                \
    F(avformat, AVIOContext *, avio_alloc_context, (unsigned char *buffer, int buffer_size, int write_flag,            \
      void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),                                      \
      int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),                                                   \
      int64_t (*seek)(void *opaque, int64_t offset, int whence)),                                                      \
      (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))                                      \
    V(avformat, avio_context_free, (AVIOContext * *s), (s))                                                            \
    V(swscale, sws_freeContext, (struct SwsContext * swsContext), (swsContext))                                        \
    F(swscale, const int *, sws_getCoefficients, (int colorspace), (colorspace))                                       \
    F(swscale, struct SwsContext *, sws_getContext, (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW,       \
      int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter,                   \
      const double *param), (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))        \
    F(swscale, int, sws_scale, (struct SwsContext * c, const uint8_t *const srcSlice[], const int srcStride[],          \
      int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]),                                      \
      (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))                                                  \
    F(swscale, int, sws_setColorspaceDetails, (struct SwsContext * c, const int inv_table[4], int srcRange,            \
      const int table[4], int dstRange, int brightness, int contrast, int saturation),                                 \
      (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))

/* The real functions, found by sepia_ffmpeg_load. */
#define SEPIA_POINTER_F(lib, type, name, params, args) static type(*real_##name) params;
#define SEPIA_POINTER_V(lib, name, params, args) static void(*real_##name) params;
SEPIA_FFMPEG_FUNCTIONS(SEPIA_POINTER_F, SEPIA_POINTER_V)

static int sepia_ffmpeg_require(const char *name, int tier);

/* What each library needs loaded: decoding frames needs libavutil, libswscale and libavcodec (tier 0); reading
 * containers and writing them, and resampling sound, needs libavformat and libswresample too (tier 1). */
#define SEPIA_TIER_avutil 0
#define SEPIA_TIER_swscale 0
#define SEPIA_TIER_avcodec 0
#define SEPIA_TIER_swresample 1
#define SEPIA_TIER_avformat 1

/* The trampolines. */
#define SEPIA_TRAMPOLINE_F(lib, type, name, params, args)                                                              \
    __attribute__((visibility("hidden"))) type name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_ffmpeg_require(#name, SEPIA_TIER_##lib);                                                             \
        }                                                                                                              \
        return real_##name args;                                                                                       \
    }
#define SEPIA_TRAMPOLINE_V(lib, name, params, args)                                                                    \
    __attribute__((visibility("hidden"))) void name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_ffmpeg_require(#name, SEPIA_TIER_##lib);                                                             \
        }                                                                                                              \
        real_##name args;                                                                                              \
    }
SEPIA_FFMPEG_FUNCTIONS(SEPIA_TRAMPOLINE_F, SEPIA_TRAMPOLINE_V)

/* MARK: - Loading */

/* Each tier is loaded once, from any thread; tier 1 loads tier 0 first. A tier that failed keeps its reason. */
static pthread_once_t load_once[2] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static char load_error[2][512];
static int loaded[2] = {0, 0};
static void *handle_avutil, *handle_swscale, *handle_avcodec, *handle_swresample, *handle_avformat;

static void *library(const char *soname, void **handle, char *error) {
    if (*handle == NULL) {
        *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (*handle == NULL && error[0] == 0) {
            const char *reason = dlerror();
            snprintf(error, 512, "%s", reason != NULL ? reason : soname);
        }
    }
    return *handle;
}

/* Finds the functions of the libraries of `tier`. */
static int resolve(int tier, char *error) {
#define SEPIA_RESOLVE(lib, name)                                                                                       \
    if (SEPIA_TIER_##lib == tier) {                                                                                    \
        void *symbol = dlsym(handle_##lib, #name);                                                                     \
        if (symbol == NULL) {                                                                                          \
            snprintf(error, 512, "%s has no %s", #lib, #name);                                                         \
            return 0;                                                                                                  \
        }                                                                                                              \
        memcpy(&real_##name, &symbol, sizeof(symbol));                                                                 \
    }
#define SEPIA_RESOLVE_F(lib, type, name, params, args) SEPIA_RESOLVE(lib, name)
#define SEPIA_RESOLVE_V(lib, name, params, args) SEPIA_RESOLVE(lib, name)
    SEPIA_FFMPEG_FUNCTIONS(SEPIA_RESOLVE_F, SEPIA_RESOLVE_V)
    return 1;
}

static void load_codecs_once(void) {
    char *error = load_error[0];
    library("libavutil.so." SEPIA_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), &handle_avutil, error);
    library("libswscale.so." SEPIA_STRINGIFY(LIBSWSCALE_VERSION_MAJOR), &handle_swscale, error);
    library("libavcodec.so." SEPIA_STRINGIFY(LIBAVCODEC_VERSION_MAJOR), &handle_avcodec, error);
    loaded[0] = error[0] == 0 && resolve(0, error);
}

static void load_all_once(void) {
    char *error = load_error[1];
    pthread_once(&load_once[0], load_codecs_once);
    if (!loaded[0]) {
        snprintf(error, 512, "%s", load_error[0]);
        return;
    }
    library("libswresample.so." SEPIA_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR), &handle_swresample, error);
    library("libavformat.so." SEPIA_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR), &handle_avformat, error);
    loaded[1] = error[0] == 0 && resolve(1, error);
}

static int load(int tier, char *error, size_t size) {
    pthread_once(&load_once[tier], tier == 0 ? load_codecs_once : load_all_once);
    if (!loaded[tier] && error != NULL && size > 0) {
        snprintf(error, size, "%s", load_error[tier][0] != 0 ? load_error[tier] : "FFmpeg's libraries could not be loaded");
    }
    return loaded[tier];
}

int sepia_ffmpeg_load(char *error, size_t size) { return load(1, error, size); }

int sepia_ffmpeg_load_codecs(char *error, size_t size) { return load(0, error, size); }

/* A function called before any entry point checked sepia_ffmpeg_load loads the libraries itself; if they cannot
 * be loaded there is no value to return, so the process stops with the reason (every entry point checks first and
 * reports the error instead). */
static int sepia_ffmpeg_require(const char *name, int tier) {
    char error[600];
    if (load(tier, error, sizeof(error))) {
        return 1;
    }
    fprintf(stderr, "SepiaVideo: %s is in FFmpeg's libraries, which could not be loaded: %s\n", name, error);
    abort();
}
