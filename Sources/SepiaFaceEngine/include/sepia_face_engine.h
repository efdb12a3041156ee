/*
 * The face engine's C API is sepia_faces.h, in CFaces, whose loader finds these functions in libSepiaFaceEngine.so.
 * The engine is a dynamic library product only: no target depends on it.
 */
#ifndef SEPIA_FACE_ENGINE_H
#define SEPIA_FACE_ENGINE_H

#include "../../CFaces/include/sepia_faces.h"

#endif
