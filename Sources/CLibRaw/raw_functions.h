#ifndef SEPIA_RAW_FUNCTIONS_H
#define SEPIA_RAW_FUNCTIONS_H

#include <libraw/libraw.h>

/* (return type, name, parameters, arguments) of every LibRaw function Sepia calls. F returns a value, V nothing. */
#define SEPIA_RAW_FUNCTIONS(F, V) \
    F(libraw_data_t *, libraw_init, (unsigned int p0), (p0)) \
    F(int, libraw_open_buffer, (libraw_data_t *p0, void *p1, size_t p2), (p0, p1, p2)) \
    F(int, libraw_open_file, (libraw_data_t *p0, const char *p1), (p0, p1)) \
    F(int, libraw_unpack, (libraw_data_t *p0), (p0)) \
    F(int, libraw_unpack_thumb, (libraw_data_t *p0), (p0)) \
    F(int, libraw_dcraw_process, (libraw_data_t *p0), (p0)) \
    F(int, libraw_adjust_sizes_info_only, (libraw_data_t *p0), (p0)) \
    F(int, libraw_get_decoder_info, (libraw_data_t *p0, libraw_decoder_info_t *p1), (p0, p1)) \
    V(libraw_close, (libraw_data_t *p0), (p0)) \
    F(const char *, libraw_strerror, (int p0), (p0)) \
    V(libraw_set_progress_handler, (libraw_data_t *p0, progress_callback p1, void *p2), (p0, p1, p2)) \
    V(libraw_set_dataerror_handler, (libraw_data_t *p0, data_callback p1, void *p2), (p0, p1, p2)) \
    V(libraw_set_memerror_handler, (libraw_data_t *p0, memory_callback p1, void *p2), (p0, p1, p2))

#endif
