#ifndef SEPIA_CWEBP_SHIM_H
#define SEPIA_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>

/* The versioned initialisers are macros around *Internal functions. */
static inline int cwebp_init_decoder_config(WebPDecoderConfig *config) {
    return WebPInitDecoderConfig(config);
}
static inline int cwebp_get_features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return (int)WebPGetFeatures(data, size, features);
}
static inline int cwebp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *cwebp_anim_decoder_new(const uint8_t *data, size_t size,
                                                      const WebPAnimDecoderOptions *options) {
    WebPData webp_data = { data, size };
    return WebPAnimDecoderNew(&webp_data, options);
}
static inline int cwebp_config_init(WebPConfig *config, float quality) {
    return WebPConfigPreset(config, WEBP_PRESET_PHOTO, quality);
}
static inline int cwebp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
#endif
