#ifndef SEPIA_CZLIB_SHIM_H
#define SEPIA_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit is a macro over inflateInit_. */
static inline int czlib_inflate_init(z_stream *stream) { return inflateInit(stream); }
#endif
