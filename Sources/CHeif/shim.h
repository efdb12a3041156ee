#ifndef SEPIA_CHEIF_SHIM_H
#define SEPIA_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
