/*
 * libheif and libde265 are loaded when the first HEIC or AVIF file is read, not when the executable starts.
 *
 * libheif registers its codec plugins when it is loaded, and so initialises libde265's tables, and it brings x265,
 * aom and dav1d with it: about 4 ms, a third of the start of a command such as `sepia info photo.jpg`, which every
 * command paid, HEIC or not. So this module does not link them: as CFFmpeg does for FFmpeg, each function Sepia
 * calls is a trampoline to the real one (sepia_dl.h), found in the sonames of the headers Sepia was compiled with.
 */
#include "sepia_heif.h"

#include <sepia_dl.h>

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

static sepia_dl_loader loader;
static sepia_dl_library libraries[] = {{"libde265.so.0", "libde265", NULL}, {"libheif.so.1", "libheif", NULL}};
#define SEPIA_DL_LOADER_OF_de265 loader
#define SEPIA_DL_LOADER_OF_heif loader
#define SEPIA_DL_LIBRARY_OF_de265 libraries[0]
#define SEPIA_DL_LIBRARY_OF_heif libraries[1]
SEPIA_HEIF_FUNCTIONS(SEPIA_DL_LIBRARY_TRAMPOLINE_F, SEPIA_DL_LIBRARY_TRAMPOLINE_V)
static const sepia_dl_symbol symbols[] = {SEPIA_HEIF_FUNCTIONS(SEPIA_DL_LIBRARY_SYMBOL_F, SEPIA_DL_LIBRARY_SYMBOL_V)};
static sepia_dl_loader loader = {SEPIA_DL_LOADER("SepiaCodecs", "libheif and libde265", "libheif1 and libde265-0")};

int sepia_heif_load(char *error, size_t size) { return sepia_dl_load(&loader, error, size); }
