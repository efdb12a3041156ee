/*
 * libheif and libde265 are loaded when the first HEIC or AVIF file is read, not when the executable starts.
 *
 * libheif registers its codec plugins when it is loaded, and so initialises libde265's tables, and it brings x265,
 * aom and dav1d with it: about 4 ms, a third of the start of a command such as `sepia info photo.jpg`, which every
 * command paid, HEIC or not. So this module does not link them: as CFFmpeg does for FFmpeg, it defines each
 * function Sepia calls as a hidden trampoline to the real one, found with dlopen and dlsym the first time. The
 * sonames are those of the headers Sepia was compiled with, so a library of another ABI is never loaded.
 */
#include "sepia_heif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (library, return type, name, parameters, arguments) of every libheif and libde265 function Sepia calls.
 * F returns a value, V returns nothing. */
#define SEPIA_HEIF_FUNCTIONS(F, V) \
    F(heif, struct heif_context*, heif_context_alloc, (void), ()) \
    V(heif, heif_context_free, (struct heif_context* p0), (p0)) \
    F(heif, int, heif_context_get_number_of_top_level_images, (struct heif_context* p0), (p0)) \
    F(heif, struct heif_error, heif_context_get_primary_image_handle, (struct heif_context* p0, struct heif_image_handle** p1), (p0, p1)) \
    F(heif, struct heif_error, heif_context_read_from_memory_without_copy, (struct heif_context* p0, const void* p1, size_t p2, const struct heif_reading_options* p3), (p0, p1, p2, p3)) \
    V(heif, heif_context_set_maximum_image_size_limit, (struct heif_context* p0, int p1), (p0, p1)) \
    F(heif, struct heif_error, heif_decode_image, (const struct heif_image_handle* p0, struct heif_image** p1, enum heif_colorspace p2, enum heif_chroma p3, const struct heif_decoding_options* p4), (p0, p1, p2, p3, p4)) \
    F(heif, int, heif_image_get_bits_per_pixel_range, (const struct heif_image* p0, enum heif_channel p1), (p0, p1)) \
    F(heif, int, heif_image_get_height, (const struct heif_image* p0, enum heif_channel p1), (p0, p1)) \
    F(heif, const uint8_t*, heif_image_get_plane_readonly, (const struct heif_image* p0, enum heif_channel p1, int* p2), (p0, p1, p2)) \
    F(heif, int, heif_image_get_primary_height, (const struct heif_image* p0), (p0)) \
    F(heif, int, heif_image_get_primary_width, (const struct heif_image* p0), (p0)) \
    F(heif, int, heif_image_get_width, (const struct heif_image* p0, enum heif_channel p1), (p0, p1)) \
    F(heif, enum heif_color_profile_type, heif_image_handle_get_color_profile_type, (const struct heif_image_handle* p0), (p0)) \
    F(heif, int, heif_image_handle_get_height, (const struct heif_image_handle* p0), (p0)) \
    F(heif, int, heif_image_handle_get_list_of_metadata_block_IDs, (const struct heif_image_handle* p0, const char* p1, heif_item_id* p2, int p3), (p0, p1, p2, p3)) \
    F(heif, int, heif_image_handle_get_list_of_thumbnail_IDs, (const struct heif_image_handle* p0, heif_item_id* p1, int p2), (p0, p1, p2)) \
    F(heif, int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle* p0), (p0)) \
    F(heif, struct heif_error, heif_image_handle_get_metadata, (const struct heif_image_handle* p0, heif_item_id p1, void* p2), (p0, p1, p2)) \
    F(heif, const char*, heif_image_handle_get_metadata_content_type, (const struct heif_image_handle* p0, heif_item_id p1), (p0, p1)) \
    F(heif, size_t, heif_image_handle_get_metadata_size, (const struct heif_image_handle* p0, heif_item_id p1), (p0, p1)) \
    F(heif, const char*, heif_image_handle_get_metadata_type, (const struct heif_image_handle* p0, heif_item_id p1), (p0, p1)) \
    F(heif, struct heif_error, heif_image_handle_get_nclx_color_profile, (const struct heif_image_handle* p0, struct heif_color_profile_nclx** p1), (p0, p1)) \
    F(heif, int, heif_image_handle_get_number_of_metadata_blocks, (const struct heif_image_handle* p0, const char* p1), (p0, p1)) \
    F(heif, int, heif_image_handle_get_number_of_thumbnails, (const struct heif_image_handle* p0), (p0)) \
    F(heif, struct heif_error, heif_image_handle_get_raw_color_profile, (const struct heif_image_handle* p0, void* p1), (p0, p1)) \
    F(heif, size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle* p0), (p0)) \
    F(heif, struct heif_error, heif_image_handle_get_thumbnail, (const struct heif_image_handle* p0, heif_item_id p1, struct heif_image_handle** p2), (p0, p1, p2)) \
    F(heif, int, heif_image_handle_get_width, (const struct heif_image_handle* p0), (p0)) \
    F(heif, int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle* p0), (p0)) \
    V(heif, heif_image_handle_release, (const struct heif_image_handle* p0), (p0)) \
    V(heif, heif_image_release, (const struct heif_image* p0), (p0)) \
    V(heif, heif_nclx_color_profile_free, (struct heif_color_profile_nclx* p0), (p0)) \
    F(de265, de265_error, de265_decode, (de265_decoder_context* p0, int* p1), (p0, p1)) \
    F(de265, de265_error, de265_flush_data, (de265_decoder_context* p0), (p0)) \
    F(de265, de265_error, de265_free_decoder, (de265_decoder_context* p0), (p0)) \
    F(de265, int, de265_get_bits_per_pixel, (const struct de265_image* p0, int p1), (p0, p1)) \
    F(de265, enum de265_chroma, de265_get_chroma_format, (const struct de265_image* p0), (p0)) \
    F(de265, const char*, de265_get_error_text, (de265_error p0), (p0)) \
    F(de265, int, de265_get_image_colour_primaries, (const struct de265_image* p0), (p0)) \
    F(de265, int, de265_get_image_full_range_flag, (const struct de265_image* p0), (p0)) \
    F(de265, int, de265_get_image_height, (const struct de265_image* p0, int p1), (p0, p1)) \
    F(de265, int, de265_get_image_matrix_coefficients, (const struct de265_image* p0), (p0)) \
    F(de265, const uint8_t*, de265_get_image_plane, (const struct de265_image* p0, int p1, int* p2), (p0, p1, p2)) \
    F(de265, int, de265_get_image_width, (const struct de265_image* p0, int p1), (p0, p1)) \
    F(de265, const struct de265_image*, de265_get_next_picture, (de265_decoder_context* p0), (p0)) \
    F(de265, int, de265_isOK, (de265_error p0), (p0)) \
    F(de265, de265_decoder_context*, de265_new_decoder, (void), ()) \
    F(de265, de265_error, de265_push_NAL, (de265_decoder_context* p0, const void* p1, int p2, de265_PTS p3, void* p4), (p0, p1, p2, p3, p4)) \
    V(de265, de265_release_next_picture, (de265_decoder_context* p0), (p0)) \
    V(de265, de265_reset, (de265_decoder_context* p0), (p0)) \
    F(de265, de265_error, de265_start_worker_threads, (de265_decoder_context* p0, int p1), (p0, p1))

/* The real functions, found by sepia_heif_load. */
#define SEPIA_POINTER_F(lib, type, name, params, args) static type(*real_##name) params;
#define SEPIA_POINTER_V(lib, name, params, args) static void(*real_##name) params;
SEPIA_HEIF_FUNCTIONS(SEPIA_POINTER_F, SEPIA_POINTER_V)

static void sepia_heif_require(const char *name);

/* The trampolines. */
#define SEPIA_TRAMPOLINE_F(lib, type, name, params, args)                                                              \
    __attribute__((visibility("hidden"))) type name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_heif_require(#name);                                                                                 \
        }                                                                                                              \
        return real_##name args;                                                                                       \
    }
#define SEPIA_TRAMPOLINE_V(lib, name, params, args)                                                                    \
    __attribute__((visibility("hidden"))) void name params {                                                           \
        if (real_##name == NULL) {                                                                                     \
            sepia_heif_require(#name);                                                                                 \
        }                                                                                                              \
        real_##name args;                                                                                              \
    }
SEPIA_HEIF_FUNCTIONS(SEPIA_TRAMPOLINE_F, SEPIA_TRAMPOLINE_V)

/* MARK: - Loading */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;
static void *handle_heif, *handle_de265;

static void open_library(const char *soname, void **handle) {
    *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (*handle == NULL && load_error[0] == 0) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "%s", reason != NULL ? reason : soname);
    }
}

static void load_once_only(void) {
    open_library("libde265.so.0", &handle_de265);
    open_library("libheif.so.1", &handle_heif);
    if (load_error[0] != 0) {
        return;
    }
#define SEPIA_RESOLVE(lib, name)                                                                                       \
    do {                                                                                                               \
        void *symbol = dlsym(handle_##lib, #name);                                                                     \
        if (symbol == NULL) {                                                                                          \
            snprintf(load_error, sizeof(load_error), "lib%s has no %s", #lib, #name);                                  \
            return;                                                                                                    \
        }                                                                                                              \
        memcpy(&real_##name, &symbol, sizeof(symbol));                                                                 \
    } while (0);
#define SEPIA_RESOLVE_F(lib, type, name, params, args) SEPIA_RESOLVE(lib, name)
#define SEPIA_RESOLVE_V(lib, name, params, args) SEPIA_RESOLVE(lib, name)
    SEPIA_HEIF_FUNCTIONS(SEPIA_RESOLVE_F, SEPIA_RESOLVE_V)
    loaded = 1;
}

int sepia_heif_load(char *error, size_t size) {
    pthread_once(&load_once, load_once_only);
    if (!loaded && error != NULL && size > 0) {
        snprintf(error, size, "%s", load_error[0] != 0 ? load_error : "libheif could not be loaded");
    }
    return loaded;
}

static void sepia_heif_require(const char *name) {
    char error[600];
    if (sepia_heif_load(error, sizeof(error))) {
        return;
    }
    fprintf(stderr, "SepiaCodecs: %s is in libheif or libde265, which could not be loaded: %s\n", name, error);
    abort();
}
