/*
 * A video's playable version: H.264 (libx264) and AAC in an MP4 whose index comes first (faststart), scaled to fit
 * 1920x1080 in its own orientation, square pixels, 8-bit 4:2:0, what every browser plays. AAC audio is copied as
 * it is; other audio is decoded and encoded again with FFmpeg's own AAC encoder; audio in a codec outside a short
 * list is left out. The display matrix (a phone's rotation) and the colour description are carried over, so the
 * player turns the picture as it turned the original's.
 */
#define _GNU_SOURCE
#include "sepia_ffmpeg.h"

#include <pthread.h>

#include <libavutil/audio_fifo.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <string.h>

typedef struct sepia_transcoder {
    sepia_av_input *input;
    AVFormatContext *in;
    AVFormatContext *out;
    const sepia_transcode_settings *settings;

    int video_index;
    AVCodecContext *video_decoder;
    AVCodecContext *video_encoder;
    AVStream *video_stream;
    struct SwsContext *scaler;
    AVFrame *scaled;
    int64_t next_video_pts;
    /* The video's first timestamp, in its time base: the playable version starts at 0 where the original starts
     * (a transport stream's clock starts anywhere), and copied sound moves with it. */
    int64_t origin;

    int audio_index;
    int audio_copy;
    AVCodecContext *audio_decoder;
    AVCodecContext *audio_encoder;
    AVStream *audio_stream;
    SwrContext *resampler;
    AVAudioFifo *fifo;
    int64_t audio_samples_written;

    AVPacket *packet;
    AVFrame *frame;
    char *error;
    size_t error_size;

    /* The limits and what the encode has used (limits and report point at zeroed structures when not given). */
    sepia_transcode_limits *limits;
    sepia_transcode_report *report;
    /* The name the encode's threads share, for their CPU time; empty when the calling thread could not be named. */
    char threads[16];
    /* The calling thread's own name, which it takes back while it reports the progress. */
    char previous[16];
    /* When the CPU time was last measured (CLOCK_MONOTONIC, ns). */
    int64_t cpu_checked_at;
    sepia_transcode_progress progress;
    void *context;
    /* The video's real duration in microseconds (0: unknown), and the decoded time last reported. */
    int64_t total;
    int64_t last_report;
} sepia_transcoder;

/* Reports the progress to the caller under the calling thread's own name. A thread started from this one while
 * the caller's code runs (on Linux, a dispatch worker is created by the thread that wakes the work it will run,
 * such as a task the progress resumes) would otherwise take the encode's name, and the CPU time of whatever it
 * runs afterwards would be counted against the encode's budget. Returns what the caller's function returns. */
static int sepia_report_progress(sepia_transcoder *t, int64_t done, int64_t total) {
    pthread_setname_np(pthread_self(), t->previous);
    int result = t->progress(t->context, done, total);
    pthread_setname_np(pthread_self(), t->threads);
    return result;
}

/* Ends the encode early, for `reason` (a SEPIA_TRANSCODE_* value). */
static int sepia_stop(sepia_transcoder *t, int reason) {
    if (t->report->stop == SEPIA_TRANSCODE_FINISHED) {
        t->report->stop = reason;
    }
    return AVERROR_EXIT;
}

/* Checks what can stop the encode between two steps: the cancellation, and, about twice a second, the CPU
 * budget. Returns 0 to go on, else AVERROR_EXIT. */
static int sepia_check_limits(sepia_transcoder *t) {
    if (__atomic_load_n(&t->limits->cancelled, __ATOMIC_ACQUIRE)) {
        return sepia_stop(t, SEPIA_TRANSCODE_CANCELLED);
    }
    int64_t now = sepia_av_now_ns();
    if (t->threads[0] == 0 || now - t->cpu_checked_at < 500000000) {
        return 0;
    }
    t->cpu_checked_at = now;
    double used = sepia_thread_group_cpu_seconds(t->threads);
    if (used < 0) {
        return 0;
    }
    t->report->cpu_seconds = used;
    const sepia_transcode_limits *l = t->limits;
    if (l->cpu_seconds > 0 || l->cpu_seconds_per_gigapixel > 0) {
        double budget = l->cpu_seconds + l->cpu_seconds_per_gigapixel * (double)t->report->decoded_pixels / 1e9;
        if (used > budget) {
            return sepia_stop(t, SEPIA_TRANSCODE_CPU_BUDGET);
        }
    }
    return 0;
}

static int sepia_fail(sepia_transcoder *t, int code, const char *what) {
    if (t->error != NULL && t->error_size > 0 && t->error[0] == 0) {
        char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
        av_strerror(code, reason, sizeof(reason));
        snprintf(t->error, t->error_size, "%s: %s", what, reason);
    }
    return code;
}

/* Audio codecs decoded for the AAC encoder: what cameras and phones record, and the common web codecs. */
static int sepia_audio_decodable(enum AVCodecID id) {
    switch (id) {
    case AV_CODEC_ID_AC3:
    case AV_CODEC_ID_EAC3:
    case AV_CODEC_ID_MP2:
    case AV_CODEC_ID_MP3:
    case AV_CODEC_ID_OPUS:
    case AV_CODEC_ID_VORBIS:
    case AV_CODEC_ID_FLAC:
    case AV_CODEC_ID_ALAC:
    case AV_CODEC_ID_PCM_S16LE:
    case AV_CODEC_ID_PCM_S16BE:
    case AV_CODEC_ID_PCM_S24LE:
    case AV_CODEC_ID_PCM_S24BE:
    case AV_CODEC_ID_PCM_S32LE:
    case AV_CODEC_ID_PCM_F32LE:
    case AV_CODEC_ID_PCM_U8:
    case AV_CODEC_ID_PCM_MULAW:
    case AV_CODEC_ID_PCM_ALAW:
    case AV_CODEC_ID_AMR_NB:
    case AV_CODEC_ID_AMR_WB:
        return 1;
    default:
        return 0;
    }
}

/* The output size: the displayed size (sample aspect ratio applied) scaled to fit 1920x1080 in its own orientation,
 * never enlarged, both sides even. */
static void sepia_output_size(const AVCodecParameters *par, int long_side, int short_side, int *width, int *height) {
    double w = par->width;
    double h = par->height;
    if (par->sample_aspect_ratio.num > 0 && par->sample_aspect_ratio.den > 0) {
        w = w * par->sample_aspect_ratio.num / par->sample_aspect_ratio.den;
    }
    double longer = w > h ? w : h;
    double shorter = w > h ? h : w;
    double scale = 1.0;
    if (longer > long_side) {
        scale = (double)long_side / longer;
    }
    if (shorter * scale > short_side) {
        scale = (double)short_side / shorter;
    }
    int ow = (int)(w * scale / 2 + 0.5) * 2;
    int oh = (int)(h * scale / 2 + 0.5) * 2;
    *width = ow < 2 ? 2 : ow;
    *height = oh < 2 ? 2 : oh;
}

static int sepia_open_video(sepia_transcoder *t, const char *decoder_name) {
    AVStream *in = t->in->streams[t->video_index];
    const AVCodec *decoder = decoder_name != NULL ? avcodec_find_decoder_by_name(decoder_name) : NULL;
    if (decoder == NULL) {
        return sepia_fail(t, AVERROR_DECODER_NOT_FOUND, "no decoder for the video");
    }
    t->video_decoder = avcodec_alloc_context3(decoder);
    if (t->video_decoder == NULL) {
        return AVERROR(ENOMEM);
    }
    int status = avcodec_parameters_to_context(t->video_decoder, in->codecpar);
    if (status < 0) {
        return sepia_fail(t, status, "cannot read the video's parameters");
    }
    t->video_decoder->pkt_timebase = in->time_base;
    t->video_decoder->thread_count = t->settings->threads;
    if ((status = avcodec_open2(t->video_decoder, decoder, NULL)) < 0) {
        return sepia_fail(t, status, "cannot open the video decoder");
    }

    const AVCodec *encoder = avcodec_find_encoder_by_name("libx264");
    if (encoder == NULL) {
        return sepia_fail(t, AVERROR_ENCODER_NOT_FOUND, "FFmpeg's libavcodec has no libx264 encoder");
    }
    AVCodecContext *enc = avcodec_alloc_context3(encoder);
    if (enc == NULL) {
        return AVERROR(ENOMEM);
    }
    t->video_encoder = enc;
    sepia_output_size(in->codecpar, t->settings->long_side, t->settings->short_side, &enc->width, &enc->height);
    enc->pix_fmt = AV_PIX_FMT_YUV420P;
    enc->sample_aspect_ratio = (AVRational){1, 1};
    enc->time_base = in->time_base;
    AVRational rate = av_guess_frame_rate(t->in, in, NULL);
    if (rate.num > 0 && rate.den > 0) {
        enc->framerate = rate;
    }
    enc->thread_count = t->settings->threads;
    enc->color_primaries = in->codecpar->color_primaries;
    enc->color_trc = in->codecpar->color_trc;
    enc->colorspace = in->codecpar->color_space;
    enc->color_range = AVCOL_RANGE_MPEG;
    if (t->out->oformat->flags & AVFMT_GLOBALHEADER) {
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    AVDictionary *options = NULL;
    av_dict_set(&options, "preset", t->settings->preset, 0);
    av_dict_set_int(&options, "crf", t->settings->crf, 0);
    av_dict_set(&options, "profile", "high", 0);
    av_dict_set(&options, "x264-params", "log=-1", 0);
    status = avcodec_open2(enc, encoder, &options);
    av_dict_free(&options);
    if (status < 0) {
        return sepia_fail(t, status, "cannot open the H.264 encoder");
    }
    t->video_stream = avformat_new_stream(t->out, NULL);
    if (t->video_stream == NULL) {
        return AVERROR(ENOMEM);
    }
    if ((status = avcodec_parameters_from_context(t->video_stream->codecpar, enc)) < 0) {
        return sepia_fail(t, status, "cannot describe the H.264 stream");
    }
    t->video_stream->time_base = enc->time_base;
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(in, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix != NULL && size >= 9 * sizeof(int32_t)) {
        uint8_t *copy = av_stream_new_side_data(t->video_stream, AV_PKT_DATA_DISPLAYMATRIX, size);
        if (copy == NULL) {
            return AVERROR(ENOMEM);
        }
        memcpy(copy, matrix, size);
    }
    t->scaled = av_frame_alloc();
    if (t->scaled == NULL) {
        return AVERROR(ENOMEM);
    }
    t->scaled->format = enc->pix_fmt;
    t->scaled->width = enc->width;
    t->scaled->height = enc->height;
    if ((status = av_frame_get_buffer(t->scaled, 0)) < 0) {
        return sepia_fail(t, status, "cannot allocate a frame");
    }
    return 0;
}

static int sepia_open_audio(sepia_transcoder *t) {
    AVStream *in = t->in->streams[t->audio_index];
    int status;
    if (in->codecpar->codec_id == AV_CODEC_ID_AAC) {
        t->audio_copy = 1;
        t->audio_stream = avformat_new_stream(t->out, NULL);
        if (t->audio_stream == NULL) {
            return AVERROR(ENOMEM);
        }
        if ((status = avcodec_parameters_copy(t->audio_stream->codecpar, in->codecpar)) < 0) {
            return sepia_fail(t, status, "cannot copy the audio's parameters");
        }
        t->audio_stream->codecpar->codec_tag = 0;
        t->audio_stream->time_base = in->time_base;
        return 0;
    }
    const AVCodec *decoder = avcodec_find_decoder(in->codecpar->codec_id);
    const AVCodec *encoder = avcodec_find_encoder_by_name("aac");
    if (decoder == NULL || encoder == NULL) {
        t->audio_index = -1;
        return 0;
    }
    t->audio_decoder = avcodec_alloc_context3(decoder);
    if (t->audio_decoder == NULL) {
        return AVERROR(ENOMEM);
    }
    if ((status = avcodec_parameters_to_context(t->audio_decoder, in->codecpar)) < 0) {
        return sepia_fail(t, status, "cannot read the audio's parameters");
    }
    t->audio_decoder->pkt_timebase = in->time_base;
    if ((status = avcodec_open2(t->audio_decoder, decoder, NULL)) < 0) {
        return sepia_fail(t, status, "cannot open the audio decoder");
    }
    AVCodecContext *enc = avcodec_alloc_context3(encoder);
    if (enc == NULL) {
        return AVERROR(ENOMEM);
    }
    t->audio_encoder = enc;
    int rate = t->audio_decoder->sample_rate;
    enc->sample_rate = rate >= 8000 && rate <= 96000 ? rate : 48000;
    int channels = t->audio_decoder->ch_layout.nb_channels;
    av_channel_layout_default(&enc->ch_layout, channels >= 2 ? 2 : 1);
    enc->sample_fmt = AV_SAMPLE_FMT_FLTP;
    enc->bit_rate = t->settings->audio_bit_rate;
    enc->time_base = (AVRational){1, enc->sample_rate};
    if (t->out->oformat->flags & AVFMT_GLOBALHEADER) {
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    if ((status = avcodec_open2(enc, encoder, NULL)) < 0) {
        return sepia_fail(t, status, "cannot open the AAC encoder");
    }
    AVChannelLayout in_layout;
    if (t->audio_decoder->ch_layout.nb_channels > 0 && t->audio_decoder->ch_layout.order != AV_CHANNEL_ORDER_UNSPEC) {
        av_channel_layout_copy(&in_layout, &t->audio_decoder->ch_layout);
    } else {
        av_channel_layout_default(&in_layout, channels > 0 ? channels : 1);
    }
    status = swr_alloc_set_opts2(
        &t->resampler, &enc->ch_layout, enc->sample_fmt, enc->sample_rate, &in_layout, t->audio_decoder->sample_fmt,
        t->audio_decoder->sample_rate, 0, NULL);
    av_channel_layout_uninit(&in_layout);
    if (status < 0 || (status = swr_init(t->resampler)) < 0) {
        return sepia_fail(t, status, "cannot convert the audio");
    }
    t->fifo = av_audio_fifo_alloc(enc->sample_fmt, enc->ch_layout.nb_channels, enc->frame_size > 0 ? enc->frame_size : 1024);
    if (t->fifo == NULL) {
        return AVERROR(ENOMEM);
    }
    t->audio_stream = avformat_new_stream(t->out, NULL);
    if (t->audio_stream == NULL) {
        return AVERROR(ENOMEM);
    }
    if ((status = avcodec_parameters_from_context(t->audio_stream->codecpar, enc)) < 0) {
        return sepia_fail(t, status, "cannot describe the AAC stream");
    }
    t->audio_stream->time_base = enc->time_base;
    return 0;
}

/* Sends `frame` (NULL to flush) to `encoder` and writes every packet it gives to `stream`. */
static int sepia_encode(sepia_transcoder *t, AVCodecContext *encoder, AVStream *stream, AVFrame *frame) {
    int status = avcodec_send_frame(encoder, frame);
    if (status < 0) {
        return sepia_fail(t, status, "the encoder refused a frame");
    }
    for (;;) {
        status = avcodec_receive_packet(encoder, t->packet);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
            return 0;
        }
        if (status < 0) {
            return sepia_fail(t, status, "the encoder failed");
        }
        av_packet_rescale_ts(t->packet, encoder->time_base, stream->time_base);
        t->packet->stream_index = stream->index;
        status = av_interleaved_write_frame(t->out, t->packet);
        if (status < 0) {
            return sepia_fail(t, status, "cannot write the playable file");
        }
    }
}

/* Counts a decoded frame shown at `pts` (the stream's time base, from the start), reports the progress, and
 * checks the limits: the pixels decoded, the time shown, the cancellation and the CPU budget. */
static int sepia_count_frame(sepia_transcoder *t, const AVFrame *frame, int64_t pts) {
    sepia_transcode_report *report = t->report;
    report->frames++;
    report->decoded_pixels += (int64_t)frame->width * frame->height;
    int64_t time = av_rescale_q(pts, t->in->streams[t->video_index]->time_base, AV_TIME_BASE_Q);
    report->decoded_time = time > report->decoded_time ? time : report->decoded_time;
    if (t->limits->max_decoded_pixels > 0 && report->decoded_pixels > t->limits->max_decoded_pixels) {
        return sepia_stop(t, SEPIA_TRANSCODE_PIXELS);
    }
    if (t->limits->max_duration > 0 && report->decoded_time > t->limits->max_duration) {
        return sepia_stop(t, SEPIA_TRANSCODE_DURATION);
    }
    if (t->progress != NULL && (t->last_report < 0 || report->decoded_time - t->last_report >= AV_TIME_BASE / 4)) {
        t->last_report = report->decoded_time;
        if (sepia_report_progress(t, report->decoded_time, t->total) != 0) {
            return sepia_stop(t, SEPIA_TRANSCODE_CANCELLED);
        }
    }
    return sepia_check_limits(t);
}

/* The video's real duration in microseconds: its container's, or the span of its indexed samples (every sample
 * of an MP4 or MOV) when they last longer; 0 when neither is known. */
static int64_t sepia_real_duration(sepia_transcoder *t, int64_t start) {
    AVStream *video = t->in->streams[t->video_index];
    int64_t total = t->in->duration > 0 ? t->in->duration : 0;
    int count = avformat_index_get_entries_count(video);
    if (count > 0) {
        const AVIndexEntry *last = avformat_index_get_entry(video, count - 1);
        if (last != NULL && last->timestamp != AV_NOPTS_VALUE) {
            AVRational rate = av_guess_frame_rate(t->in, video, NULL);
            int64_t frame = rate.num > 0 && rate.den > 0 ? av_rescale_q(1, av_inv_q(rate), AV_TIME_BASE_Q) : 0;
            int64_t span = av_rescale_q(last->timestamp - start, video->time_base, AV_TIME_BASE_Q) + frame;
            total = span > total ? span : total;
        }
    }
    return total;
}

static int sepia_video_frame(sepia_transcoder *t, AVFrame *frame) {
    int status;
    if (t->scaler == NULL) {
        t->scaler = sws_getContext(
            frame->width, frame->height, frame->format, t->scaled->width, t->scaled->height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, NULL, NULL,
            NULL);
        if (t->scaler == NULL) {
            return sepia_fail(t, AVERROR(EINVAL), "cannot scale the video's frames");
        }
    }
    if ((status = av_frame_make_writable(t->scaled)) < 0) {
        return sepia_fail(t, status, "cannot allocate a frame");
    }
    status = sws_scale(
        t->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, t->scaled->data, t->scaled->linesize);
    if (status < 0) {
        return sepia_fail(t, status, "cannot scale a frame");
    }
    int64_t pts = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
    if (pts != AV_NOPTS_VALUE) {
        pts -= t->origin;
    }
    /* Timestamps must grow: a frame without one, or one that goes back, follows the last. */
    if (pts == AV_NOPTS_VALUE || pts < t->next_video_pts) {
        pts = t->next_video_pts;
    }
    t->scaled->pts = pts;
    t->next_video_pts = pts + 1;
    if ((status = sepia_encode(t, t->video_encoder, t->video_stream, t->scaled)) < 0) {
        return status;
    }
    return sepia_count_frame(t, frame, pts);
}

/* Encodes whole AAC frames from the FIFO; with `flush`, the rest too. */
static int sepia_drain_audio(sepia_transcoder *t, int flush) {
    AVCodecContext *enc = t->audio_encoder;
    int frame_size = enc->frame_size > 0 ? enc->frame_size : 1024;
    while (av_audio_fifo_size(t->fifo) >= frame_size || (flush && av_audio_fifo_size(t->fifo) > 0)) {
        int count = av_audio_fifo_size(t->fifo) < frame_size ? av_audio_fifo_size(t->fifo) : frame_size;
        AVFrame *out = av_frame_alloc();
        if (out == NULL) {
            return AVERROR(ENOMEM);
        }
        out->nb_samples = count;
        out->format = enc->sample_fmt;
        out->sample_rate = enc->sample_rate;
        av_channel_layout_copy(&out->ch_layout, &enc->ch_layout);
        int status = av_frame_get_buffer(out, 0);
        if (status >= 0 && av_audio_fifo_read(t->fifo, (void **)out->data, count) < count) {
            status = AVERROR(EIO);
        }
        if (status >= 0) {
            out->pts = t->audio_samples_written;
            t->audio_samples_written += count;
            status = sepia_encode(t, enc, t->audio_stream, out);
        }
        av_frame_free(&out);
        if (status < 0) {
            return status;
        }
    }
    return 0;
}

static int sepia_audio_frame(sepia_transcoder *t, AVFrame *frame) {
    AVCodecContext *enc = t->audio_encoder;
    int capacity = swr_get_out_samples(t->resampler, frame != NULL ? frame->nb_samples : 0);
    if (capacity <= 0) {
        return frame == NULL ? sepia_drain_audio(t, 1) : 0;
    }
    uint8_t **samples = NULL;
    int status = av_samples_alloc_array_and_samples(&samples, NULL, enc->ch_layout.nb_channels, capacity, enc->sample_fmt, 0);
    if (status < 0) {
        return sepia_fail(t, status, "cannot allocate audio");
    }
    int converted = swr_convert(
        t->resampler, samples, capacity, frame != NULL ? (const uint8_t **)frame->extended_data : NULL, frame != NULL ? frame->nb_samples : 0);
    if (converted > 0 && av_audio_fifo_write(t->fifo, (void **)samples, converted) < converted) {
        converted = AVERROR(ENOMEM);
    }
    av_freep(&samples[0]);
    av_freep(&samples);
    if (converted < 0) {
        return sepia_fail(t, converted, "cannot convert the audio");
    }
    return sepia_drain_audio(t, frame == NULL);
}

/* Sends `packet` (NULL to flush) to `decoder` and handles every frame it gives. */
static int sepia_decode(sepia_transcoder *t, AVCodecContext *decoder, const AVPacket *packet, int video) {
    int status = avcodec_send_packet(decoder, packet);
    /* A damaged packet loses its frames, not the whole video. */
    if (status < 0 && status != AVERROR_INVALIDDATA && status != AVERROR_EOF) {
        return sepia_fail(t, status, video ? "cannot decode the video" : "cannot decode the audio");
    }
    for (;;) {
        status = avcodec_receive_frame(decoder, t->frame);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
            return 0;
        }
        if (status == AVERROR_INVALIDDATA) {
            continue;
        }
        if (status < 0) {
            return sepia_fail(t, status, video ? "cannot decode the video" : "cannot decode the audio");
        }
        status = video ? sepia_video_frame(t, t->frame) : sepia_audio_frame(t, t->frame);
        av_frame_unref(t->frame);
        if (status < 0) {
            return status;
        }
    }
}

static void sepia_transcoder_free(sepia_transcoder *t) {
    avcodec_free_context(&t->video_decoder);
    avcodec_free_context(&t->video_encoder);
    avcodec_free_context(&t->audio_decoder);
    avcodec_free_context(&t->audio_encoder);
    sws_freeContext(t->scaler);
    swr_free(&t->resampler);
    if (t->fifo != NULL) {
        av_audio_fifo_free(t->fifo);
    }
    av_frame_free(&t->scaled);
    av_frame_free(&t->frame);
    av_packet_free(&t->packet);
    if (t->out != NULL) {
        if (t->out->pb != NULL) {
            avio_closep(&t->out->pb);
        }
        avformat_free_context(t->out);
    }
}

static int sepia_transcode_run(sepia_transcoder *t, const char *output_path, const char *video_decoder) {
    t->in = sepia_av_input_format(t->input);
    if (t->in == NULL) {
        return sepia_fail(t, AVERROR(EINVAL), "the video is not open");
    }
    t->video_index = av_find_best_stream(t->in, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (t->video_index < 0) {
        return sepia_fail(t, t->video_index, "the file has no video stream");
    }
    t->audio_index = av_find_best_stream(t->in, AVMEDIA_TYPE_AUDIO, -1, t->video_index, NULL, 0);
    if (t->audio_index >= 0) {
        enum AVCodecID id = t->in->streams[t->audio_index]->codecpar->codec_id;
        if (id != AV_CODEC_ID_AAC && !sepia_audio_decodable(id)) {
            t->audio_index = -1;
        }
    }
    t->packet = av_packet_alloc();
    t->frame = av_frame_alloc();
    if (t->packet == NULL || t->frame == NULL) {
        return AVERROR(ENOMEM);
    }
    int status = avformat_alloc_output_context2(&t->out, NULL, "mp4", output_path);
    if (status < 0 || t->out == NULL) {
        return sepia_fail(t, status < 0 ? status : AVERROR(ENOMEM), "cannot make an MP4");
    }
    if ((status = sepia_open_video(t, video_decoder)) < 0) {
        return status;
    }
    if (t->audio_index >= 0 && (status = sepia_open_audio(t)) < 0) {
        return status;
    }
    if ((status = avio_open(&t->out->pb, output_path, AVIO_FLAG_WRITE)) < 0) {
        return sepia_fail(t, status, "cannot write the playable file");
    }
    AVDictionary *options = NULL;
    av_dict_set(&options, "movflags", "+faststart", 0);
    status = avformat_write_header(t->out, &options);
    av_dict_free(&options);
    if (status < 0) {
        return sepia_fail(t, status, "cannot write the playable file's header");
    }

    AVStream *video = t->in->streams[t->video_index];
    int64_t start = video->start_time != AV_NOPTS_VALUE ? video->start_time : 0;
    t->origin = start;
    t->total = sepia_real_duration(t, start);
    t->last_report = -1;
    for (;;) {
        if ((status = sepia_check_limits(t)) < 0) {
            return status;
        }
        status = av_read_frame(t->in, t->packet);
        if (status == AVERROR_EOF) {
            break;
        }
        if (status < 0) {
            return sepia_fail(t, status, "cannot read the video");
        }
        int index = t->packet->stream_index;
        if (index == t->video_index) {
            status = sepia_decode(t, t->video_decoder, t->packet, 1);
        } else if (index == t->audio_index && t->audio_copy) {
            int64_t shift = av_rescale_q(t->origin, video->time_base, t->in->streams[index]->time_base);
            if (t->packet->pts != AV_NOPTS_VALUE) {
                t->packet->pts -= shift;
            }
            if (t->packet->dts != AV_NOPTS_VALUE) {
                t->packet->dts -= shift;
            }
            av_packet_rescale_ts(t->packet, t->in->streams[index]->time_base, t->audio_stream->time_base);
            t->packet->stream_index = t->audio_stream->index;
            t->packet->pos = -1;
            status = av_interleaved_write_frame(t->out, t->packet);
            if (status < 0) {
                sepia_fail(t, status, "cannot write the playable file");
            }
        } else if (index == t->audio_index && t->audio_decoder != NULL) {
            status = sepia_decode(t, t->audio_decoder, t->packet, 0);
        } else {
            status = 0;
        }
        av_packet_unref(t->packet);
        if (status < 0) {
            return status;
        }
    }
    if ((status = sepia_decode(t, t->video_decoder, NULL, 1)) < 0) {
        return status;
    }
    if ((status = sepia_encode(t, t->video_encoder, t->video_stream, NULL)) < 0) {
        return status;
    }
    if (t->audio_decoder != NULL) {
        if ((status = sepia_decode(t, t->audio_decoder, NULL, 0)) < 0 || (status = sepia_audio_frame(t, NULL)) < 0 ||
            (status = sepia_encode(t, t->audio_encoder, t->audio_stream, NULL)) < 0) {
            return status;
        }
    }
    if ((status = av_write_trailer(t->out)) < 0) {
        return sepia_fail(t, status, "cannot finish the playable file");
    }
    if (t->progress != NULL) {
        sepia_report_progress(t, t->total, t->total);
    }
    return 0;
}

void sepia_transcode_cancel(sepia_transcode_limits *limits) {
    __atomic_store_n(&limits->cancelled, 1, __ATOMIC_RELEASE);
}

int sepia_transcode(
    sepia_av_input *input, const char *output_path, const char *video_decoder, const sepia_transcode_settings *settings,
    sepia_transcode_limits *limits, sepia_transcode_report *report, sepia_transcode_progress progress, void *context, char *error,
    size_t error_size) {
    sepia_transcoder t;
    memset(&t, 0, sizeof(t));
    sepia_transcode_limits no_limits;
    memset(&no_limits, 0, sizeof(no_limits));
    sepia_transcode_report unused;
    memset(&unused, 0, sizeof(unused));
    t.input = input;
    t.settings = settings;
    t.video_index = -1;
    t.audio_index = -1;
    t.error = error;
    t.error_size = error_size;
    t.limits = limits != NULL ? limits : &no_limits;
    t.report = report != NULL ? report : &unused;
    memset(t.report, 0, sizeof(*t.report));
    t.progress = progress;
    t.context = context;
    t.cpu_checked_at = sepia_av_now_ns();
    if (error != NULL && error_size > 0) {
        error[0] = 0;
    }
    /* The decoder's and the encoder's threads are started from this one, and take its name. */
    sepia_thread_group_enter(t.threads, t.previous);
    int status = sepia_transcode_run(&t, output_path, video_decoder);
    double used = sepia_thread_group_cpu_seconds(t.threads);
    if (used >= 0) {
        t.report->cpu_seconds = used;
    }
    sepia_transcoder_free(&t);
    sepia_thread_group_leave(t.previous);
    return status;
}
