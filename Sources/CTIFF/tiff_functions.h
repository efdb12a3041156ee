#ifndef SEPIA_TIFF_FUNCTIONS_H
#define SEPIA_TIFF_FUNCTIONS_H

#include <stdarg.h>
#include <tiffio.h>

/* (return type, name, parameters, arguments) of every libtiff function Sepia calls. F returns a value, V nothing. */
#define SEPIA_TIFF_FUNCTIONS(F, V) \
    F(TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), ()) \
    V(TIFFOpenOptionsFree, (TIFFOpenOptions *p0), (p0)) \
    V(TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions *p0, tmsize_t p1), (p0, p1)) \
    V(TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions *p0, TIFFErrorHandlerExtR p1, void *p2), (p0, p1, p2)) \
    V(TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions *p0, TIFFErrorHandlerExtR p1, void *p2), (p0, p1, p2)) \
    F(TIFF *, TIFFClientOpenExt, (const char *p0, const char *p1, thandle_t p2, TIFFReadWriteProc p3, TIFFReadWriteProc p4, TIFFSeekProc p5, TIFFCloseProc p6, TIFFSizeProc p7, TIFFMapFileProc p8, TIFFUnmapFileProc p9, TIFFOpenOptions *p10), (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10)) \
    V(TIFFClose, (TIFF *p0), (p0)) \
    F(int, TIFFVGetField, (TIFF *p0, uint32_t p1, va_list p2), (p0, p1, p2)) \
    F(int, TIFFVGetFieldDefaulted, (TIFF *p0, uint32_t p1, va_list p2), (p0, p1, p2)) \
    F(tdir_t, TIFFNumberOfDirectories, (TIFF *p0), (p0)) \
    F(int, TIFFIsTiled, (TIFF *p0), (p0)) \
    F(int, TIFFRGBAImageBegin, (TIFFRGBAImage *p0, TIFF *p1, int p2, char p3[1024]), (p0, p1, p2, p3)) \
    F(int, TIFFRGBAImageGet, (TIFFRGBAImage *p0, uint32_t *p1, uint32_t p2, uint32_t p3), (p0, p1, p2, p3)) \
    V(TIFFRGBAImageEnd, (TIFFRGBAImage *p0), (p0)) \
    F(tmsize_t, TIFFReadEncodedStrip, (TIFF *p0, uint32_t p1, void *p2, tmsize_t p3), (p0, p1, p2, p3)) \
    F(tmsize_t, TIFFReadEncodedTile, (TIFF *p0, uint32_t p1, void *p2, tmsize_t p3), (p0, p1, p2, p3)) \
    F(uint32_t, TIFFComputeStrip, (TIFF *p0, uint32_t p1, uint16_t p2), (p0, p1, p2)) \
    F(uint32_t, TIFFComputeTile, (TIFF *p0, uint32_t p1, uint32_t p2, uint32_t p3, uint16_t p4), (p0, p1, p2, p3, p4)) \
    F(tmsize_t, TIFFStripSize, (TIFF *p0), (p0)) \
    F(tmsize_t, TIFFTileSize, (TIFF *p0), (p0)) \
    F(uint64_t, TIFFStripSize64, (TIFF *p0), (p0)) \
    F(uint64_t, TIFFTileSize64, (TIFF *p0), (p0))

#endif
