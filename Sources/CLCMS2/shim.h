#ifndef SEPIA_CLCMS2_SHIM_H
#define SEPIA_CLCMS2_SHIM_H
#include <lcms2.h>

/* Pixel-format constants are built by macros Swift cannot import. */
static inline cmsUInt32Number clcms_type_rgb_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number clcms_type_rgb_16(void) { return TYPE_RGB_16; }
static inline cmsUInt32Number clcms_type_rgb_flt(void) { return TYPE_RGB_FLT; }
static inline cmsUInt32Number clcms_type_gray_8(void) { return TYPE_GRAY_8; }
static inline cmsUInt32Number clcms_type_gray_flt(void) { return TYPE_GRAY_FLT; }
static inline cmsUInt32Number clcms_type_cmyk_8(void) { return TYPE_CMYK_8; }
static inline cmsUInt32Number clcms_type_cmyk_8_rev(void) { return TYPE_CMYK_8_REV; }
#endif
