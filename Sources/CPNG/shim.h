#ifndef SEPIA_CPNG_SHIM_H
#define SEPIA_CPNG_SHIM_H
#include <png.h>

/* Function-like macros of the simplified API, as functions Swift can call. */
static inline unsigned int cpng_image_row_stride(const png_image *image) {
    return PNG_IMAGE_ROW_STRIDE(*image);
}
static inline unsigned int cpng_image_pixel_channels(unsigned int format) {
    return PNG_IMAGE_PIXEL_CHANNELS(format);
}
static inline unsigned int cpng_image_version(void) { return PNG_IMAGE_VERSION; }
static inline int cpng_image_is_warning(const png_image *image) {
    return (image->warning_or_error & PNG_IMAGE_WARNING) != 0;
}
#endif
