/*
 * FFmpeg's libraries are loaded when the first video is opened, not when the executable starts.
 *
 * Debian's libavcodec and libavformat bring about 130 shared libraries with them (x264, x265, dav1d, aom, vpx,
 * rav1e, codec2, gnutls, libssh, libbluray…); loading and initialising them takes about 30 ms, which every
 * command of an executable linking them would pay, videos or not. So this module does not link them: each FFmpeg
 * function Sepia calls is a trampoline to the real one (sepia_dl.h), which sepia_ffmpeg_load finds the first
 * time. The sonames are those of the headers Sepia was compiled with (FFmpeg 5.1: libavformat.so.59), so an
 * FFmpeg of another ABI is never loaded.
 */
#include "sepia_ffmpeg.h"

#include <libavutil/audio_fifo.h>
#include <libswresample/swresample.h>

#include <sepia_dl.h>
#include <stdarg.h>

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

/* Two loaders, in tiers: decoding frames needs libavutil, libswscale and libavcodec (the codecs); reading
 * containers and writing them, and resampling sound, needs libswresample and libavformat too, loaded after. */
static sepia_dl_loader codecs, containers;
static sepia_dl_library libraries[] = {
    {"libavutil.so." SEPIA_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), "avutil", NULL},
    {"libswscale.so." SEPIA_STRINGIFY(LIBSWSCALE_VERSION_MAJOR), "swscale", NULL},
    {"libavcodec.so." SEPIA_STRINGIFY(LIBAVCODEC_VERSION_MAJOR), "avcodec", NULL},
    {"libswresample.so." SEPIA_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR), "swresample", NULL},
    {"libavformat.so." SEPIA_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR), "avformat", NULL},
};
#define SEPIA_DL_LIBRARY_OF_avutil libraries[0]
#define SEPIA_DL_LIBRARY_OF_swscale libraries[1]
#define SEPIA_DL_LIBRARY_OF_avcodec libraries[2]
#define SEPIA_DL_LIBRARY_OF_swresample libraries[3]
#define SEPIA_DL_LIBRARY_OF_avformat libraries[4]
#define SEPIA_DL_LOADER_OF_avutil codecs
#define SEPIA_DL_LOADER_OF_swscale codecs
#define SEPIA_DL_LOADER_OF_avcodec codecs
#define SEPIA_DL_LOADER_OF_swresample containers
#define SEPIA_DL_LOADER_OF_avformat containers
SEPIA_FFMPEG_FUNCTIONS(SEPIA_DL_LIBRARY_TRAMPOLINE_F, SEPIA_DL_LIBRARY_TRAMPOLINE_V)
static const sepia_dl_symbol symbols[] = {SEPIA_FFMPEG_FUNCTIONS(SEPIA_DL_LIBRARY_SYMBOL_F, SEPIA_DL_LIBRARY_SYMBOL_V)};

static sepia_dl_loader codecs = {
    .component = "SepiaVideo",
    .description = "FFmpeg's libraries",
    .packages = "libavcodec59 and libswscale6",
    .libraries = libraries,
    .library_count = 3,
    SEPIA_DL_SYMBOLS(symbols),
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

static sepia_dl_loader containers = {
    .component = "SepiaVideo",
    .description = "FFmpeg's libraries",
    .packages = "libavformat59, libavcodec59, libswscale6 and libswresample4",
    .prerequisite = &codecs,
    .libraries = libraries + 3,
    .library_count = 2,
    SEPIA_DL_SYMBOLS(symbols),
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

int sepia_ffmpeg_load(char *error, size_t size) { return sepia_dl_load(&containers, error, size); }

int sepia_ffmpeg_load_codecs(char *error, size_t size) { return sepia_dl_load(&codecs, error, size); }
