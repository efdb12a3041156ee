/*
 * Sepia's face engine (libSepiaFaceEngine.so, Sources/SepiaFaceEngine) is loaded when faces are first looked for, not
 * when the executable starts: it brings dlib, BLAS, LAPACK and gfortran with it, which no other command needs. Each
 * function of sepia_faces.h is a trampoline to the engine's own (sepia_dl.h), found in the file that
 * sepia_faces_load names.
 */
#include "sepia_faces.h"

#include <sepia_dl.h>
#include <stdio.h>

#define SEPIA_FACE_FUNCTIONS(F, V)                                                                                     \
    F(sepia_face_engine *, sepia_face_engine_open, (const char *p0, const char *p1, const char *p2, char *p3, size_t p4), \
      (p0, p1, p2, p3, p4))                                                                                            \
    F(sepia_face_engine *, sepia_face_engine_copy, (const sepia_face_engine *p0, char *p1, size_t p2), (p0, p1, p2))   \
    V(sepia_face_engine_close, (sepia_face_engine * p0), (p0))                                                         \
    F(int, sepia_face_detect,                                                                                          \
      (sepia_face_engine * p0, const uint8_t *p1, int p2, int p3, size_t p4, int p5, int p6, sepia_face *p7, int p8,   \
       char *p9, size_t p10),                                                                                          \
      (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10))                                                                   \
    F(int, sepia_face_describe,                                                                                        \
      (sepia_face_engine * p0, const uint8_t *p1, int p2, int p3, size_t p4, const sepia_face *p5, int p6, float *p7,  \
       char *p8, size_t p9),                                                                                           \
      (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9))                                                                        \
    F(int, sepia_face_chip,                                                                                            \
      (const uint8_t *p0, int p1, int p2, size_t p3, const sepia_face *p4, uint8_t *p5, char *p6, size_t p7),          \
      (p0, p1, p2, p3, p4, p5, p6, p7))                                                                               \
    F(int, sepia_face_model_sha256, (const char *p0, uint8_t *p1, char *p2, size_t p3), (p0, p1, p2, p3))

static sepia_dl_loader loader;
static sepia_dl_library libraries[] = {{"libSepiaFaceEngine.so", "Sepia's face engine", NULL}};
SEPIA_FACE_FUNCTIONS(SEPIA_DL_TRAMPOLINE_F, SEPIA_DL_TRAMPOLINE_V)
static const sepia_dl_symbol symbols[] = {SEPIA_FACE_FUNCTIONS(SEPIA_DL_SYMBOL_F, SEPIA_DL_SYMBOL_V)};
static sepia_dl_loader loader = {
    SEPIA_DL_LOADER("SepiaVision", "Sepia's face engine (libSepiaFaceEngine.so)", "libdlib19.1 libblas3 liblapack3 libssl3")};

static pthread_mutex_t path_lock = PTHREAD_MUTEX_INITIALIZER;
static char engine_path[4096];

int sepia_faces_load(const char *path, char *error, size_t size) {
    pthread_mutex_lock(&path_lock);
    if (engine_path[0] == '\0' && path != NULL) {
        snprintf(engine_path, sizeof engine_path, "%s", path);
        libraries[0].soname = engine_path;
    }
    pthread_mutex_unlock(&path_lock);
    return sepia_dl_load(&loader, error, size);
}
