/*
 * Faces over dlib: detection (dlib's HOG detector, or its CNN detector from a model file), five landmarks, the
 * aligned 150×150 chip, and the 128-value face descriptor of dlib's ResNet model.
 *
 * The functions are defined in libSepiaFaceEngine.so (Sources/SepiaFaceEngine, C++ over Debian's dlib), which is
 * loaded with dlopen on the first call to sepia_faces_load, so that commands that never look for faces do not load
 * dlib, BLAS and LAPACK. An engine is used by one thread at a time; sepia_faces_copy gives another thread its own.
 * No function throws or stops the process: each returns 0 (or NULL) with the reason in `error`.
 */
#ifndef SEPIA_FACES_H
#define SEPIA_FACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the face engine library at `path` the first time it is called, from any thread; later calls return what the
 * first one did, whatever their path. Returns 1 when it is loaded; else 0, with the reason in `error`. */
int sepia_faces_load(const char *path, char *error, size_t size);

/* Models loaded from files: the landmark and descriptor models are required; the CNN detector is optional
 * (NULL uses the HOG detector built into dlib). */
typedef struct sepia_face_engine sepia_face_engine;

/* A face found: its box and its five landmarks in the pixels of the image searched, and the detector's score. */
typedef struct {
    float x, y, width, height;
    /* The detector's score: the HOG detector's SVM margin, or the CNN detector's; higher is surer, 0 the threshold. */
    float score;
    /* The five landmarks (x, y pairs): two corners of each eye and the base of the nose, in dlib's order. */
    float landmarks[10];
} sepia_face;

/* The number of values in a face descriptor. */
#define SEPIA_FACE_DESCRIPTOR_LENGTH 128

/* Reads the models. Returns NULL with the reason, naming the file, in `error`. */
sepia_face_engine *sepia_face_engine_open(
    const char *landmarks_path, const char *descriptor_path, const char *cnn_detector_path, char *error, size_t size);

/* Another engine with the same models, for another thread. NULL with the reason when memory runs out. */
sepia_face_engine *sepia_face_engine_copy(const sepia_face_engine *engine, char *error, size_t size);

void sepia_face_engine_close(sepia_face_engine *engine);

/* Finds the faces in an 8-bit RGB image (rows of `row_bytes`), searching it `upsample` times doubled as well (0 or
 * 1), with the CNN detector when `use_cnn` and the engine has one. Writes at most `capacity` faces, surest first,
 * and returns how many were found in all (which may exceed `capacity`), or -1 with the reason in `error`. */
int sepia_face_detect(
    sepia_face_engine *engine, const uint8_t *rgb, int width, int height, size_t row_bytes, int upsample, int use_cnn,
    sepia_face *faces, int capacity, char *error, size_t size);

/* The 128-value descriptors of `count` faces found by sepia_face_detect in the same image, into `descriptors`
 * (count × 128 floats): each face's landmarks align a 150×150 chip, which dlib's ResNet describes. Returns 1, or 0
 * with the reason in `error`. */
int sepia_face_describe(
    sepia_face_engine *engine, const uint8_t *rgb, int width, int height, size_t row_bytes, const sepia_face *faces,
    int count, float *descriptors, char *error, size_t size);

/* The aligned 150×150 RGB chip that sepia_face_describe describes, into `chip` (150 × 150 × 3 bytes). Returns 1, or
 * 0 with the reason in `error`. */
int sepia_face_chip(
    const uint8_t *rgb, int width, int height, size_t row_bytes, const sepia_face *face, uint8_t *chip, char *error,
    size_t size);

/* The SHA-256 digest of the file at `path` (a model, checked before it is read), into `digest` (32 bytes), with
 * OpenSSL's libcrypto, which the engine links. Returns 1, or 0 with the reason, naming the file, in `error`. */
int sepia_face_model_sha256(const char *path, uint8_t *digest, char *error, size_t size);

#ifdef __cplusplus
}
#endif

#endif
